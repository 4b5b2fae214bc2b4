//! A repeated traversal a change introduced (Toddler, `judge/oracle/toddler.rs`): the best
//! programs of a touched method's relative exploration run once more on the trace build of
//! each revision (`explore/toddler.rs` picks the programs: best, shrunk, each with its call
//! repeated in a row), and a repeated read the working tree shows that the baseline does not,
//! on the same programs, is reported beside the cost verdict. It changes no verdict: a loop
//! can re-read more and still cost less than the threshold.
//!
//! A read is the same in both revisions when its file (from its `src/` on) and its line's
//! text are: a change shifts line numbers, so `file:line` alone would call every read below
//! the change new. When the baseline has no trace build, the working tree's traversals are
//! listed, said to be uncompared.

use anyhow::Result;
use serde::{Deserialize, Serialize};

use crate::commands::baseline::OpenBaseline;
use crate::explore::report::ExploreReport;
use crate::judge::oracle::toddler::RepeatedTraversal;
use crate::run::exec::Executor as _;

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
    let mut new = report.clone();
    let traced = crate::explore::toddler::check(open.pair.new_side(), &mut new)?;
    if let Some(why) = new.repeated_traversals_skipped {
        return Ok(Some(CheckTraversals {
            skipped: Some(format!("working tree: {why}")),
            ..CheckTraversals::default()
        }));
    }
    if !traced {
        return Ok(None);
    }
    let mut old = report.clone();
    let old_exec = open.pair.old().expect("a baseline pair has an old side");
    let baseline_traced = crate::explore::toddler::check(old_exec, &mut old)?;
    Ok(Some(CheckTraversals {
        traversals: if baseline_traced {
            absent_from(
                new.repeated_traversals,
                &old.repeated_traversals,
                &line_text,
            )
        } else {
            new.repeated_traversals
        },
        baseline_traced,
        skipped: old
            .repeated_traversals_skipped
            .map(|w| format!("baseline: {w}")),
    }))
}

/// The traversals of `new` whose read no traversal of `old` has (pure: `text` reads a
/// `file:line`'s source text).
pub fn absent_from(
    new: Vec<RepeatedTraversal>,
    old: &[RepeatedTraversal],
    text: &dyn Fn(&str) -> Option<String>,
) -> Vec<RepeatedTraversal> {
    let key = |read: &str| {
        let file = read.rsplit_once(':').map_or(read, |(f, _)| f);
        let from_src = file
            .rfind("/src/")
            .map_or(file, |i| &file[i + 1..])
            .to_string();
        (from_src, text(read).unwrap_or_else(|| read.to_string()))
    };
    let old_keys: Vec<_> = old.iter().map(|o| key(&o.read)).collect();
    new.into_iter()
        .filter(|n| !old_keys.contains(&key(&n.read)))
        .collect()
}

/// The trimmed source text of `file:line` (a path relative to the current directory or
/// absolute, as the symbolizer writes it).
fn line_text(read: &str) -> Option<String> {
    let (file, line) = read.rsplit_once(':')?;
    let n: usize = line.parse().ok()?;
    let src = std::fs::read_to_string(file).ok()?;
    Some(src.lines().nth(n.checked_sub(1)?)?.trim().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(read: &str) -> RepeatedTraversal {
        RepeatedTraversal {
            outer: "successive calls of Bag::add".into(),
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
        let kept = absent_from(vec![at("src/lib.rs:14"), at("src/lib.rs:30")], &old, &text);
        let reads: Vec<&str> = kept.iter().map(|t| t.read.as_str()).collect();
        assert_eq!(reads, ["src/lib.rs:30"]);
    }
}
