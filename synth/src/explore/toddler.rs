//! Repeated traversals beside an asymptotic verdict (Toddler, `judge/oracle/toddler.rs`): the
//! best program, the program it was shrunk from, and of each two variants calling the method
//! under test [`IN_A_ROW`] times in a row (as amortized classes are judged:
//! `judge/amortized.rs`, whose literal arguments take a scattered value per call: over the
//! whole range, and below the program's largest loop count, so that a lookup's keys are ones
//! the program inserted) run once on the harness's trace build; each program's calls under
//! test are the iterations of its outer loop. Part of the asymptotic oracle's explain
//! phase, so it needs no documented class and changes no verdict.
//!
//! One policy on top of the rule: when the method is documented linear or worse, a read
//! repeated across its calls is what the documentation promises (each `Vec::contains` walks
//! the vector), so such findings are dropped; an undocumented or sublinear method keeps
//! them (a cache whose `get` walks every entry). A loop inside one call re-reading its data
//! is dropped only when the method is documented quadratic or worse. A function without a
//! receiver (a free function, a chain starting at a constructor from its arguments) keeps no
//! finding across its calls: its calls share nothing but what the program passes each of
//! them again, so a parser called 16 times on one text reads the text 16 times by contract.
//! What is lost: a free function re-reading static data on every call is reported only
//! through a loop inside one call.

use anyhow::Result;
use perfsyn_profiler_ipc::print::print;
use perfsyn_profiler_ipc::Program;

use crate::explore::report::ExploreReport;
use crate::judge::hotlines::Symbolizer;
use crate::judge::oracle::toddler::{findings, Params, RepeatedTraversal};
use crate::report::class::Class;
use crate::run::exec::Executor;

/// Calls of the method under test in the in-a-row variant (above minIter's 10).
pub const IN_A_ROW: u32 = 16;

/// Fills `report.repeated_traversals` (or says why it was skipped); whether the programs ran
/// on a trace build (false: no program kept, or the executor has none).
pub fn check(exec: &mut dyn Executor, report: &mut ExploreReport) -> Result<bool> {
    let start = std::time::Instant::now();
    let ran = traverse(exec, report)?;
    if ran {
        report.repeated_traversals_ms = Some(start.elapsed().as_millis() as u64);
    }
    Ok(ran)
}

fn traverse(exec: &mut dyn Executor, report: &mut ExploreReport) -> Result<bool> {
    let Some(best) = &report.best else {
        return Ok(false);
    };
    let mut programs: Vec<(&str, Program)> = Vec::new();
    match &best.shrunk_from {
        Some(s) => {
            programs.push(("best", s.program.clone()));
            programs.push(("shrunk", best.program.clone()));
        }
        None => programs.push(("best", best.program.clone())),
    }
    // Both programs' calls repeated: the shrunk one is often shrunk to a handful of
    // elements (its sweep scales it back up), too few for a traversal to show. Each is
    // repeated twice: with its literal arguments scattered over the whole range (new keys:
    // an insert's walk), and scattered below the program's largest loop count, the keys its
    // own loops used (a lookup that hits: a cache's `get` walks its entries only for a key
    // it holds, and a scattered 32-bit key is never one).
    let mut repeated: Vec<(String, Program)> = Vec::new();
    for (kind, p) in &programs {
        if let Some(v) = crate::judge::amortized::repeated(p, IN_A_ROW) {
            repeated.push((format!("{kind}, calls in a row"), v));
        }
        let bound = largest_loop(&p.body);
        if bound >= 2 {
            if let Some(v) = crate::judge::amortized::repeated_below(p, IN_A_ROW, bound) {
                repeated.push((format!("{kind}, calls in a row on its own keys"), v));
            }
        }
    }
    let mut programs: Vec<(String, Program)> = programs
        .into_iter()
        .map(|(k, p)| (k.to_string(), p))
        .collect();
    programs.extend(repeated);
    let batch: Vec<Program> = programs.iter().map(|(_, p)| p.clone()).collect();
    let (traces, binary) = match exec.run_reads(&batch) {
        Ok(Some(t)) => t,
        Ok(None) => return Ok(false),
        Err(e) => {
            report.repeated_traversals_skipped = Some(format!("{e:#}"));
            return Ok(false);
        }
    };
    let mut sym = Symbolizer::new(&binary)?;
    let outer = format!("successive calls of {}", report.method);
    let schema = exec.schema().clone();
    let mut found: Vec<RepeatedTraversal> = Vec::new();
    for ((kind, program), trace) in programs.iter().zip(&traces) {
        let rust = print(program, &schema).map(|p| p.body).unwrap_or_default();
        for mut f in findings(trace, &outer, kind, &rust, &Params::default(), &mut sym) {
            let at = (kind.to_string(), f.redundant_reads_per_call);
            match found.iter_mut().find(|o| o.read == f.read) {
                Some(o) => o.growth.push(at),
                None => {
                    f.growth.push(at);
                    found.push(f);
                }
            }
        }
    }
    let receiverless = crate::harness::spec::resolve_method(&schema, &report.method)
        .is_ok_and(|m| m.ty.is_namespace());
    if receiverless {
        found.retain(|f| f.loop_at.is_some());
    }
    if let Some(c) = report.expected {
        // A loop inside one call repeats reads only when the call is at least quadratic.
        found.retain(|f| match f.loop_at {
            Some(_) => c < Class::Quadratic,
            None => c < Class::Linear,
        });
    }
    found.sort_by(|a, b| {
        b.redundant_reads_per_call
            .total_cmp(&a.redundant_reads_per_call)
    });
    report.repeated_traversals = found;
    Ok(true)
}

/// The largest iteration count of a `repeat` in `body`, at any depth (0 when none).
fn largest_loop(body: &[perfsyn_profiler_ipc::Stmt]) -> u32 {
    body.iter()
        .map(|s| match s {
            perfsyn_profiler_ipc::Stmt::Repeat { n, body } => (*n).max(largest_loop(body)),
            _ => 0,
        })
        .max()
        .unwrap_or(0)
}
