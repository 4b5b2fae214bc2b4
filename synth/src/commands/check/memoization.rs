//! A repeated computation a change introduced (MemoizeIt, `judge/oracle/memoize.rs`): the best
//! programs of a touched method's relative exploration run once more on the trace build of
//! each revision (`explore/memoize.rs` picks the programs: best, and its call repeated in a
//! row), and a memoization opportunity the working tree shows that the baseline does not, on
//! the same programs, is reported beside the cost verdict. It changes no verdict: a helper can
//! recompute and still cost less than the threshold.
//!
//! An opportunity is located by its function's entry line; matching across revisions (file
//! from `src/` on plus the line's text) is `compare.rs`.

use anyhow::Result;
use serde::{Deserialize, Serialize};

use crate::commands::baseline::OpenBaseline;
use crate::commands::check::compare;
use crate::explore::report::ExploreReport;
use crate::judge::oracle::memoize::Opportunity;

/// A finding's repeated computations (the JSON's `repeated_computations`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct CheckComputations {
    /// Opportunities in the working tree's build; when `baseline_traced`, only those whose
    /// function the baseline's build does not report on the same programs.
    pub opportunities: Vec<Opportunity>,
    /// Whether the baseline's build was traced, so `opportunities` are the ones the change
    /// introduced.
    pub baseline_traced: bool,
    /// Why a revision was not traced (its trace build failed), when one was not.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub skipped: Option<String>,
}

impl CheckComputations {
    /// The label of the list, in words.
    pub fn label(&self) -> &'static str {
        if self.baseline_traced {
            "repeated computation introduced by the change (absent from the baseline on the same programs)"
        } else {
            "repeated computation in the working tree (the baseline has no trace build: not compared)"
        }
    }
}

/// MemoizeIt on both revisions for `report`'s best programs; `None` when the working tree has
/// no trace build or the exploration kept no program.
pub fn introduced(
    open: &mut OpenBaseline,
    report: &ExploreReport,
) -> Result<Option<CheckComputations>> {
    let sides = compare::on_both_sides(
        open,
        report,
        crate::explore::memoize::check,
        |r| (r.memoization, r.memoization_skipped),
        |o: &Opportunity| &o.at,
    )?;
    Ok(sides.map(|s| CheckComputations {
        opportunities: s.found,
        baseline_traced: s.baseline_traced,
        skipped: s.skipped,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(function: &str, at: &str) -> Opportunity {
        Opportunity {
            function: function.into(),
            at: at.into(),
            callers: vec!["src/lib.rs:40".into()],
            activations: 16,
            hit_ratio: 15.0 / 16.0,
            cost_share: 0.4,
            edges: 800,
            edges_saved: 750,
            total_edges: 2000,
            writes: false,
            caches: Vec::new(),
            suggestion: Some("single, global".into()),
            program_kind: "best, calls in a row".into(),
        }
    }

    #[test]
    fn a_helper_the_baseline_recomputes_on_a_shifted_line_is_not_introduced() {
        // The baseline's checkout holds `unit` three lines higher; `limit` is new.
        let text = |at: &str| {
            Some(match at {
                "src/lib.rs:50" | "/tmp/base/bag/src/lib.rs:47" => "pub fn unit() -> u64 {".into(),
                "src/lib.rs:60" => "pub fn limit() -> usize {".into(),
                _ => format!("line {at}"),
            })
        };
        let old = [at("unit", "/tmp/base/bag/src/lib.rs:47")];
        let kept = compare::absent_from(
            vec![at("unit", "src/lib.rs:50"), at("limit", "src/lib.rs:60")],
            &old,
            |o| &o.at,
            &text,
        );
        let names: Vec<&str> = kept.iter().map(|o| o.function.as_str()).collect();
        assert_eq!(names, ["limit"]);
    }
}
