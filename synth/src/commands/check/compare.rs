//! What check's explain sections share (repeated traversals, repeated computations): an
//! explore step run once more on the trace build of each revision for the same best programs,
//! and the findings the working tree shows that the baseline does not.
//!
//! A finding is the same in both revisions when its location's file (from its `src/` on) and
//! its line's text are: a change shifts line numbers, so `file:line` alone would call every
//! finding below the change new. When the baseline has no trace build, the working tree's
//! findings are kept whole, said to be uncompared.

use anyhow::Result;

use crate::commands::baseline::OpenBaseline;
use crate::explore::report::ExploreReport;
use crate::run::exec::Executor;

/// An explore step that fills its list on a report and says whether it ran on a trace build.
pub type Step = fn(&mut dyn Executor, &mut ExploreReport) -> Result<bool>;

/// One section's findings on both revisions.
pub struct Sides<T> {
    /// The working tree's findings; when `baseline_traced`, only those absent from the
    /// baseline's.
    pub found: Vec<T>,
    /// Whether the baseline's build was traced, so `found` is what the change introduced.
    pub baseline_traced: bool,
    /// Why a revision was not traced (its trace build failed), when one was not.
    pub skipped: Option<String>,
}

/// `step` on both revisions for `report`'s best programs; `take` moves a report's findings and
/// its skip reason out, `loc` names a finding's `file:line`. `None` when the working tree has
/// no trace build or the exploration kept no program.
pub fn on_both_sides<T>(
    open: &mut OpenBaseline,
    report: &ExploreReport,
    step: Step,
    take: fn(ExploreReport) -> (Vec<T>, Option<String>),
    loc: fn(&T) -> &str,
) -> Result<Option<Sides<T>>> {
    let mut new = report.clone();
    let traced = step(open.pair.new_side(), &mut new)?;
    let (new_found, new_skipped) = take(new);
    if let Some(why) = new_skipped {
        return Ok(Some(Sides {
            found: Vec::new(),
            baseline_traced: false,
            skipped: Some(format!("working tree: {why}")),
        }));
    }
    if !traced {
        return Ok(None);
    }
    let mut old = report.clone();
    let old_exec = open.pair.old().expect("a baseline pair has an old side");
    let baseline_traced = step(old_exec, &mut old)?;
    let (old_found, old_skipped) = take(old);
    Ok(Some(Sides {
        found: if baseline_traced {
            absent_from(new_found, &old_found, loc, &line_text)
        } else {
            new_found
        },
        baseline_traced,
        skipped: old_skipped.map(|w| format!("baseline: {w}")),
    }))
}

/// The findings of `new` whose location no finding of `old` has (pure: `text` reads a
/// `file:line`'s source text).
pub fn absent_from<T>(
    new: Vec<T>,
    old: &[T],
    loc: fn(&T) -> &str,
    text: &dyn Fn(&str) -> Option<String>,
) -> Vec<T> {
    let key = |at: &str| {
        let file = at.rsplit_once(':').map_or(at, |(f, _)| f);
        let from_src = file
            .rfind("/src/")
            .map_or(file, |i| &file[i + 1..])
            .to_string();
        (from_src, text(at).unwrap_or_else(|| at.to_string()))
    };
    let old_keys: Vec<_> = old.iter().map(|o| key(loc(o))).collect();
    new.into_iter()
        .filter(|n| !old_keys.contains(&key(loc(n))))
        .collect()
}

/// The trimmed source text of `file:line` (a path relative to the current directory or
/// absolute, as the symbolizer writes it).
fn line_text(at: &str) -> Option<String> {
    let (file, line) = at.rsplit_once(':')?;
    let n: usize = line.parse().ok()?;
    let src = std::fs::read_to_string(file).ok()?;
    Some(src.lines().nth(n.checked_sub(1)?)?.trim().to_string())
}
