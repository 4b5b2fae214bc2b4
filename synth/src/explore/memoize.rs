//! Repeated computations beside a verdict (MemoizeIt, `judge/oracle/memoize.rs`): the best
//! program, and a variant calling the method under test [`IN_A_ROW`] times in a row (as
//! amortized classes are judged: each call takes a scattered literal, so a helper whose
//! result repeats across calls repeats for the method's own data, not for a repeated
//! argument; a call with an argument the repeat cannot build again, which every call would
//! share, gets no variant: `amortized::repeated_varying`), run once on the harness's trace
//! build; each program's function activations are judged. Part of the asymptotic oracle's explain phase beside Toddler: it needs no
//! documented class and changes no verdict.

use anyhow::Result;
use perfsyn_profiler_ipc::Program;

use crate::explore::report::ExploreReport;
use crate::judge::hotlines::{is_perfsyn, Symbolizer};
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
    if let Some(v) = crate::judge::amortized::repeated_varying(&best.program, IN_A_ROW) {
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
        &mut |pc| {
            let mut sym = sym.borrow_mut();
            let files = sym.frame_files(pc.saturating_sub(1));
            is_runtime(&files, || sym.function_at(pc.saturating_sub(1)).is_none())
        },
    )
}

/// Whether an access whose frames are in `files` (innermost first) is perfsyn's runtime, left
/// out of every activation: any frame in perfsyn's own code (its counters change on every
/// allocation and probe operation), except the probe types (`probe.rs`: `Key`, `Name`,
/// `FixedState`), which are the program's data: a key's value and its hasher's state are a
/// helper's input and output. Leaving them out made every hash of a probe key look alike:
/// `<KeyWrapper<K> as Hash>::hash` of lru's `contains` read nothing but its own pointer and
/// was reported at 94% hits while each call hashed a different key. An access with no line
/// at all is the runtime when `unnamed` says its function is not named.
pub fn is_runtime(files: &[String], unnamed: impl FnOnce() -> bool) -> bool {
    let probe = |f: &String| is_perfsyn(f) && f.ends_with("src/probe.rs");
    if files.iter().any(|f| is_perfsyn(f) && !probe(f)) {
        return true;
    }
    !files.iter().any(probe) && unnamed()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn files(f: &[&str]) -> Vec<String> {
        f.iter().map(|s| s.to_string()).collect()
    }

    /// A probe key's own `Hash` (its value, its hasher's state) is the program's data; the
    /// counter a probe operation bumps, and any other perfsyn code, is the runtime.
    #[test]
    fn probe_types_are_the_programs_data_and_perfsyns_counters_its_runtime() {
        let named = || false;
        assert!(!is_runtime(
            &files(&["/work/perfsyn/profiler-ipc/src/probe.rs"]),
            || true
        ));
        assert!(!is_runtime(
            &files(&[
                "/rustc/abc/library/core/src/hash/sip.rs",
                "/home/u/.cargo/registry/src/x/perfsyn-profiler-ipc-0.1.0/src/probe.rs",
            ]),
            || true
        ));
        assert!(is_runtime(
            &files(&[
                "/rustc/abc/library/core/src/sync/atomic.rs",
                "/work/perfsyn/profiler-ipc/src/meter.rs",
                "/work/perfsyn/profiler-ipc/src/probe.rs",
            ]),
            named
        ));
        assert!(!is_runtime(&files(&["/tmp/lru/src/lib.rs"]), named));
        assert!(is_runtime(&[], || true));
    }
}
