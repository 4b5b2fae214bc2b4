//! Repeated traversals beside an asymptotic verdict (Toddler, `judge/oracle/toddler.rs`): the
//! best program, the program it was shrunk from, and a variant calling the method under test
//! [`IN_A_ROW`] times in a row run once on the harness's trace build; each program's calls
//! under test are the iterations of its outer loop. Part of the asymptotic oracle's explain
//! phase, so it needs no documented class and changes no verdict.
//!
//! One policy on top of the rule: when the method is documented linear or worse, a read
//! repeated across its calls is what the documentation promises (each `Vec::contains` walks
//! the vector), so such findings are dropped; an undocumented or sublinear method keeps
//! them (a cache whose `get` walks every entry).

use anyhow::Result;
use perfsyn_profiler_ipc::print::print;
use perfsyn_profiler_ipc::{Program, Stmt, Var};

use crate::explore::report::ExploreReport;
use crate::judge::hotlines::Symbolizer;
use crate::judge::oracle::toddler::{findings, Params, RepeatedTraversal};
use crate::report::class::Class;
use crate::run::exec::Executor;

/// Calls of the method under test in the in-a-row variant (above minIter's 10).
pub const IN_A_ROW: u32 = 16;

/// Fills `report.repeated_traversals` (or says why it was skipped).
pub fn check(exec: &mut dyn Executor, report: &mut ExploreReport) -> Result<()> {
    let Some(best) = &report.best else {
        return Ok(());
    };
    let mut programs: Vec<(&str, Program)> = Vec::new();
    match &best.shrunk_from {
        Some(s) => {
            programs.push(("best", s.program.clone()));
            programs.push(("shrunk", best.program.clone()));
        }
        None => programs.push(("best", best.program.clone())),
    }
    if let Some(v) = calls_in_a_row(&best.program, IN_A_ROW) {
        programs.push(("calls in a row", v));
    }
    let batch: Vec<Program> = programs.iter().map(|(_, p)| p.clone()).collect();
    let (traces, binary) = match exec.run_reads(&batch) {
        Ok(Some(t)) => t,
        Ok(None) => return Ok(()),
        Err(e) => {
            report.repeated_traversals_skipped = Some(format!("{e:#}"));
            return Ok(());
        }
    };
    let mut sym = Symbolizer::new(&binary)?;
    let mut locate = |addr: u64| sym.line_of(addr).map(|(f, l, lib)| (format!("{f}:{l}"), lib));
    let outer = format!("successive calls of {}", report.method);
    let schema = exec.schema().clone();
    let mut found: Vec<RepeatedTraversal> = Vec::new();
    for ((kind, program), trace) in programs.iter().zip(&traces) {
        let rust = print(program, &schema).map(|p| p.body).unwrap_or_default();
        for f in findings(trace, &outer, kind, &rust, &Params::default(), &mut locate) {
            if !found.iter().any(|o| o.read == f.read) {
                found.push(f);
            }
        }
    }
    if report.expected.is_some_and(|c| c >= Class::Linear) {
        found.clear();
    }
    found.sort_by(|a, b| b.redundant_reads_per_call.total_cmp(&a.redundant_reads_per_call));
    report.repeated_traversals = found;
    Ok(())
}

/// `p` with its last top-level call under test repeated `n` times in a row (inside a
/// `repeat n`); `None` when it already runs in a loop, or when its result is used later
/// (a loop's variables are local to one iteration).
pub fn calls_in_a_row(p: &Program, n: u32) -> Option<Program> {
    let at = p
        .body
        .iter()
        .rposition(|s| matches!(s, Stmt::Call { under_test: true, .. }))?;
    let Stmt::Call { out, .. } = &p.body[at] else {
        return None;
    };
    if let Some(o) = out {
        if p.body[at + 1..].iter().any(|s| uses(s, *o)) {
            return None;
        }
    }
    let mut v = p.clone();
    let call = v.body.remove(at);
    v.body.insert(at, Stmt::Repeat { n, body: vec![call] });
    Some(v)
}

fn uses(s: &Stmt, v: Var) -> bool {
    match s {
        Stmt::Lit { .. } => false,
        Stmt::Ctor { args, .. } => args.contains(&v),
        Stmt::Call { recv, args, .. } => *recv == v || args.contains(&v),
        Stmt::Op { arg, .. } => *arg == v,
        Stmt::GetField { target, .. } => *target == v,
        Stmt::SetField { target, value, .. } => *target == v || *value == v,
        Stmt::Repeat { body, .. } => body.iter().any(|s| uses(s, v)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn call(out: Option<u32>, under_test: bool) -> Stmt {
        Stmt::Call {
            out: out.map(Var),
            ty: "T".into(),
            method: "m".into(),
            recv: Var(0),
            args: vec![],
            under_test,
        }
    }

    #[test]
    fn the_call_under_test_is_wrapped_in_a_repeat() {
        let p = Program {
            vars: vec!["T".into()],
            body: vec![call(None, false), call(None, true)],
        };
        let v = calls_in_a_row(&p, 16).unwrap();
        assert_eq!(v.body[0], call(None, false));
        assert_eq!(
            v.body[1],
            Stmt::Repeat {
                n: 16,
                body: vec![call(None, true)]
            }
        );
    }

    #[test]
    fn a_call_whose_result_is_used_later_is_not_wrapped() {
        let p = Program {
            vars: vec!["T".into(), "T".into()],
            body: vec![
                call(Some(1), true),
                Stmt::Call {
                    out: None,
                    ty: "T".into(),
                    method: "m".into(),
                    recv: Var(1),
                    args: vec![],
                    under_test: false,
                },
            ],
        };
        assert_eq!(calls_in_a_row(&p, 16), None);
    }
}
