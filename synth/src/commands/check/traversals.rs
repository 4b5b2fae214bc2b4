//! A repeated traversal a change introduced (Toddler, `judge/oracle/toddler.rs`): the best
//! programs of a touched method's relative exploration run once more on the trace build of
//! each revision (`explore/toddler.rs` picks the programs: best, shrunk, each with its call
//! repeated in a row), and a repeated read the working tree shows that the baseline does not,
//! on the same programs, is reported beside the cost verdict. It changes no verdict: a loop
//! can re-read more and still cost less than the threshold.
//!
//! Matching across revisions (file from `src/` on plus the line's text) is `compare.rs`.

use anyhow::Result;
use serde::{Deserialize, Serialize};

use crate::commands::baseline::OpenBaseline;
use crate::commands::check::compare;
use crate::explore::report::ExploreReport;
use crate::judge::oracle::toddler::RepeatedTraversal;

/// A finding's repeated traversals (the JSON's `repeated_traversals`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct CheckTraversals {
    /// Traversals in the working tree's build; when `baseline_traced`, only those absent from
    /// the baseline's build on the same programs.
    pub traversals: Vec<RepeatedTraversal>,
    /// Whether the baseline's build was traced, so `traversals` are the ones the change
    /// introduced.
    pub baseline_traced: bool,
    /// Why a revision was not traced (its trace build failed), when one was not.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub skipped: Option<String>,
}

impl CheckTraversals {
    /// The label of the list, in words.
    pub fn label(&self) -> &'static str {
        if self.baseline_traced {
            "repeated traversal introduced by the change (absent from the baseline on the same programs)"
        } else {
            "repeated traversal in the working tree (the baseline has no trace build: not compared)"
        }
    }
}

/// Toddler on both revisions for `report`'s best programs; `None` when the working tree has
/// no trace build or the exploration kept no program.
pub fn introduced(
    open: &mut OpenBaseline,
    report: &ExploreReport,
) -> Result<Option<CheckTraversals>> {
    let sides = compare::on_both_sides(
        open,
        report,
        crate::explore::toddler::check,
        |r| (r.repeated_traversals, r.repeated_traversals_skipped),
        |t: &RepeatedTraversal| &t.read,
    )?;
    Ok(sides.map(|s| CheckTraversals {
        traversals: s.found,
        baseline_traced: s.baseline_traced,
        skipped: s.skipped,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(read: &str) -> RepeatedTraversal {
        RepeatedTraversal {
            outer: "successive calls of Bag::add".into(),
            loop_at: None,
            program_kind: "best, calls in a row".into(),
            program: String::new(),
            read: read.into(),
            stack: Vec::new(),
            iterations: 16,
            sequences: 15,
            similar_ratio: 1.0,
            mean_lcs: 40.0,
            mean_lcs_ratio: 1.0,
            reads_per_call: 40.0,
            redundant_reads_per_call: 40.0,
            capped: false,
            growth: Vec::new(),
        }
    }

    #[test]
    fn a_read_the_baseline_has_on_a_shifted_line_is_not_introduced() {
        // The baseline's checkout holds the same scan two lines higher.
        let text = |read: &str| {
            Some(match read {
                "src/lib.rs:14" | "/tmp/base/bag/src/lib.rs:12" => "x.iter().sum()".to_string(),
                _ => format!("line {read}"),
            })
        };
        let old = [at("/tmp/base/bag/src/lib.rs:12")];
        let kept = compare::absent_from(
            vec![at("src/lib.rs:14"), at("src/lib.rs:30")],
            &old,
            |t| &t.read,
            &text,
        );
        let reads: Vec<&str> = kept.iter().map(|t| t.read.as_str()).collect();
        assert_eq!(reads, ["src/lib.rs:30"]);
    }
}
