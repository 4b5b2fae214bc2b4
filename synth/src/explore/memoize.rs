//! Repeated computations beside a verdict (MemoizeIt, `judge/oracle/memoize.rs`): the best
//! program, and a variant calling the method under test [`IN_A_ROW`] times in a row (as
//! amortized classes are judged: each call takes a scattered literal, so a helper whose
//! result repeats across calls repeats for the method's own data, not for a repeated
//! argument), run once on the harness's trace build; each program's function activations
//! are judged. Part of the asymptotic oracle's explain phase beside Toddler: it needs no
//! documented class and changes no verdict.

use anyhow::Result;
use perfsyn_profiler_ipc::Program;

use crate::explore::report::ExploreReport;
use crate::judge::hotlines::Symbolizer;
use crate::judge::oracle::memoize::{opportunities, FnLoc, Opportunity, Params};
use crate::run::exec::Executor;

/// Calls of the method under test in the in-a-row variant.
pub const IN_A_ROW: u32 = 16;

/// Fills `report.memoization` (or says why it was skipped); whether the programs ran on a
/// trace build.
pub fn check(exec: &mut dyn Executor, report: &mut ExploreReport) -> Result<bool> {
    let Some(best) = &report.best else {
        return Ok(false);
    };
    let mut programs: Vec<(&str, Program)> = vec![("best", best.program.clone())];
    if let Some(v) = crate::judge::amortized::repeated(&best.program, IN_A_ROW) {
        programs.push(("best, calls in a row", v));
    }
    let batch: Vec<Program> = programs.iter().map(|(_, p)| p.clone()).collect();
    let (traces, binary) = match exec.run_reads(&batch) {
        Ok(Some(t)) => t,
        Ok(None) => return Ok(false),
        Err(e) => {
            report.memoization_skipped = Some(format!("{e:#}"));
            return Ok(false);
        }
    };
    let mut sym = Symbolizer::new(&binary)?;
    // The method under test itself, called again with the same receiver and arguments by the
    // in-a-row variant, repeats by the program's doing, not the crate's.
    let own = report.method.rsplit("::").next().unwrap_or("").to_string();
    let mut found: Vec<Opportunity> = Vec::new();
    for ((kind, _), trace) in programs.iter().zip(&traces) {
        for mut o in judge(&trace.activations, &mut sym) {
            if o.function == own || o.function.ends_with(&format!("::{}", report.method)) {
                continue;
            }
            o.program_kind = kind.to_string();
            match found.iter_mut().find(|f| f.at == o.at) {
                Some(f) if f.edges_saved >= o.edges_saved => {}
                Some(f) => *f = o,
                None => found.push(o),
            }
        }
    }
    found.sort_by(|a, b| b.edges_saved.cmp(&a.edges_saved).then(a.at.cmp(&b.at)));
    report.memoization = found;
    Ok(true)
}

/// The opportunities of one trace, functions and callers named through `sym`; functions of
/// std and of perfsyn's runtime are never reported.
pub fn judge(
    t: &perfsyn_profiler_ipc::activations::ActivationTrace,
    sym: &mut Symbolizer,
) -> Vec<Opportunity> {
    let sym = std::cell::RefCell::new(sym);
    opportunities(
        t,
        &Params::default(),
        &mut |pc| {
            let (name, at) = sym.borrow_mut().function_at(pc)?;
            // std's own functions (a `Vec`'s drop, an allocation) are not the user's to cache:
            // their repeats show through the user's function that calls them.
            if at.starts_with("library/") {
                return None;
            }
            Some(FnLoc { name, at })
        },
        &mut |pc| {
            sym.borrow_mut()
                .line_of(pc.saturating_sub(1))
                .map(|(f, l, _)| format!("{f}:{l}"))
        },
        &mut |pc| sym.borrow_mut().function_at(pc.saturating_sub(1)).is_none(),
    )
}
