//! A documented *amortized* class is a bound on the average cost of a sequence of calls, not
//! on one call: a bottleneck against it must hold when the call under test runs n times in a
//! row (n the input size), per call.
//!
//! Why: stable-vec's `push` ("amortized runtime complexity of O(1)") was reported O(n). The
//! best program was `sv.shrink_to_fit(); sv.push(k)`, so every point of the sweep measured the
//! one push that reallocates, which the amortized bound covers (the next n pushes are O(1)).
//! `with_capacity(n)` filled to the brim does the same to any vector-like type, so the
//! artifact is not rare. Repeating the call n times makes the sequence the measure: a push
//! that doubles costs O(n) + n O(1) = O(1) a call, while a push that reallocates to the exact
//! length every time still costs O(n) a call, and stays a bottleneck.
//!
//! How the repeat is written: the call's arguments whose values are built from literals alone
//! (`Key::new(n)`) are built again inside the loop, with a scattered value per iteration, so a
//! moved argument is not used twice and a map's insert adds new keys; any other argument is
//! the program's own variable. A program the repeat makes invalid (an argument or receiver
//! moved twice, a consumed receiver) leaves the verdict as it was.

use std::collections::HashMap;

use anyhow::Result;
use perfsyn_profiler_ipc::{Literal, Pattern, Program, Stmt, Var};

use crate::judge::oracle::asymptotic::{judge, Thresholds};
use crate::judge::swept::Swept;
use crate::report::class::Class;
use crate::run::exec::Executor;
use crate::search::Metric;

/// The seed of the scattered values the repeated arguments take.
const SEED: u32 = 0x5eed;

/// Whether a documented class is amortized ("O(1) amortized", as `perfsyn init` writes it
/// when the doc says so, or a user's `--expect "amortized O(1)"`).
pub fn is_amortized(expected: &str) -> bool {
    expected.to_lowercase().contains("amortized")
}

/// `swept` (a bottleneck against an amortized `expected`) judged again with the call under
/// test repeated n times per sweep point, per call; the same `swept` when that judgement also
/// finds a bottleneck or the repeat cannot be run.
pub fn over_a_sequence(
    exec: &mut dyn Executor,
    swept: Swept,
    metric: Metric,
    expected: Class,
    max_loop: u32,
    t: &Thresholds,
) -> Result<Swept> {
    if swept.sweep.len() != swept.sweep_fb.len() || swept.sweep.is_empty() {
        return Ok(swept);
    }
    let mut programs = Vec::new();
    for (p, f) in swept.sweep.iter().zip(&swept.sweep_fb) {
        if !f.is_ok() || f.calls == 0 {
            continue;
        }
        let n = f.input_size.clamp(1, max_loop as u64) as u32;
        match repeated(p, n) {
            Some(q) => programs.push(q),
            None => return Ok(swept),
        }
    }
    if programs.is_empty() {
        return Ok(swept);
    }
    let fb = exec.run(&programs)?;
    if !fb.iter().all(|f| f.is_ok() && f.calls > 1) {
        return Ok(swept);
    }
    let mut points: Vec<(u64, f64)> = fb
        .iter()
        .map(|f| (swept.measure.of(f), metric.of(f) / f.calls as f64))
        .collect();
    points.sort_by(|a, b| a.0.cmp(&b.0).then(a.1.total_cmp(&b.1)));
    let j = judge(&points, Some(expected), t);
    if j.bottleneck {
        return Ok(swept);
    }
    let note = format!(
        "one call grew as {}, but the documented class is amortized: over n calls in a row the cost per call gives {}",
        crate::judge::verdict_program::label(&swept.judgement),
        crate::judge::verdict_program::label(&j),
    );
    Ok(crate::judge::verdict_program::judged_on(
        swept, programs, fb, points, j, note,
    ))
}

/// `p` with its top-level call under test run `n` times in a loop (see the module doc);
/// `None` when the call is not at the top level.
pub fn repeated(p: &Program, n: u32) -> Option<Program> {
    repeated_below(p, n, u32::MAX)
}

/// [`repeated`] only when every argument of the call is built again in the loop, so that each
/// call gets its own argument values; `None` when an argument stays the program's own
/// variable (made by a call, or changed by one), whose value every call then shares.
///
/// Why: MemoizeIt judges the repeated program (`explore/memoize.rs`), and a helper of an
/// argument every call shares (a lookup hashing its key) repeats by the repeat's doing, not
/// the code's: only repeats of the method's own data count there.
pub fn repeated_varying(p: &Program, n: u32) -> Option<Program> {
    let q = repeated(p, n)?;
    let call_args = |s: &Stmt| match s {
        Stmt::Call {
            under_test: true,
            args,
            ..
        } => Some(args.clone()),
        _ => None,
    };
    let at = p.body.iter().position(|s| call_args(s).is_some())?;
    let before = call_args(&p.body[at])?;
    let Stmt::Repeat { body, .. } = &q.body[at] else {
        return None;
    };
    let after = call_args(body.last()?)?;
    before.iter().zip(&after).all(|(a, b)| a != b).then_some(q)
}

/// [`repeated`] with the rebuilt integer literals scattered below `bound` instead of over
/// the whole `u32` range (the repeated-traversal check passes the program's largest loop
/// count, so that a lookup's repeated keys are ones the program inserted).
pub fn repeated_below(p: &Program, n: u32, bound: u32) -> Option<Program> {
    let at = p.body.iter().position(|s| {
        matches!(
            s,
            Stmt::Call {
                under_test: true,
                ..
            }
        )
    })?;
    let Stmt::Call {
        out,
        ty,
        method,
        recv,
        args,
        ..
    } = p.body[at].clone()
    else {
        return None;
    };
    let mut q = p.clone();
    let mut body = Vec::new();
    let mut renamed: HashMap<Var, Var> = HashMap::new();
    let mut new_args = Vec::new();
    for a in args {
        new_args.push(
            match rebuilt(p, &p.body[..at], a, bound, &mut q, &mut body, &mut renamed) {
                Some(v) => v,
                None => a,
            },
        );
    }
    let out = out.map(|o| q.fresh(&p.vars[o.index()].clone()));
    body.push(Stmt::Call {
        out,
        ty,
        method,
        recv,
        args: new_args,
        under_test: true,
    });
    q.body[at] = Stmt::Repeat { n, body };
    Some(q)
}

/// A copy of `v` built inside the loop from its definition among `before`, when that
/// definition is a literal, or a constructor or operator over such values, none of them
/// changed by a call or a field set; the copy's statements go to `body`.
fn rebuilt(
    p: &Program,
    before: &[Stmt],
    v: Var,
    bound: u32,
    q: &mut Program,
    body: &mut Vec<Stmt>,
    renamed: &mut HashMap<Var, Var>,
) -> Option<Var> {
    if let Some(r) = renamed.get(&v) {
        return Some(*r);
    }
    if changed(before, v) {
        return None;
    }
    let def = before.iter().find(|s| s.defines() == Some(v))?;
    let fresh = q.fresh(&p.vars[v.index()].clone());
    let stmt = match def {
        Stmt::Lit {
            value: Literal::Int { ty, .. },
            ..
        } => Stmt::Lit {
            out: fresh,
            value: Literal::Index {
                ty: *ty,
                pattern: Pattern::HashBelow { seed: SEED, bound },
            },
        },
        Stmt::Lit { value, .. } => Stmt::Lit {
            out: fresh,
            value: value.clone(),
        },
        Stmt::Ctor { ty, ctor, args, .. } => {
            let mut new_args = Vec::new();
            for a in args {
                new_args.push(rebuilt(p, before, *a, bound, q, body, renamed)?);
            }
            Stmt::Ctor {
                out: fresh,
                ty: ty.clone(),
                ctor: ctor.clone(),
                args: new_args,
            }
        }
        Stmt::Op { op, arg, .. } => Stmt::Op {
            out: fresh,
            op: *op,
            arg: rebuilt(p, before, *arg, bound, q, body, renamed)?,
        },
        _ => return None,
    };
    body.push(stmt);
    renamed.insert(v, fresh);
    Some(fresh)
}

/// Whether a statement of `before` (at any depth) calls a method on `v` or sets its field.
fn changed(before: &[Stmt], v: Var) -> bool {
    before.iter().any(|s| match s {
        Stmt::Call { recv, .. } => *recv == v,
        Stmt::SetField { target, .. } => *target == v,
        Stmt::Repeat { body, .. } => changed(body, v),
        _ => false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use perfsyn_profiler_ipc::IntTy;

    fn lit(out: u32, value: i64) -> Stmt {
        Stmt::Lit {
            out: Var(out),
            value: Literal::Int {
                ty: IntTy::U64,
                value,
            },
        }
    }

    /// `sv.shrink_to_fit(); sv.push(Key::new(n))` repeated: the key is built again in the
    /// loop from a scattered value, the receiver is the program's own.
    #[test]
    fn the_call_under_test_repeats_with_its_literal_arguments_built_again() {
        let p = Program {
            vars: ["StableVec", "u64", "Key"].map(String::from).to_vec(),
            body: vec![
                Stmt::Ctor {
                    out: Var(0),
                    ty: "StableVec".into(),
                    ctor: "new".into(),
                    args: vec![],
                },
                lit(1, 7),
                Stmt::Ctor {
                    out: Var(2),
                    ty: "Key".into(),
                    ctor: "new".into(),
                    args: vec![Var(1)],
                },
                Stmt::Call {
                    out: None,
                    ty: "StableVec".into(),
                    method: "shrink_to_fit".into(),
                    recv: Var(0),
                    args: vec![],
                    under_test: false,
                },
                Stmt::Call {
                    out: None,
                    ty: "StableVec".into(),
                    method: "push".into(),
                    recv: Var(0),
                    args: vec![Var(2)],
                    under_test: true,
                },
            ],
        };
        let q = repeated(&p, 40).expect("repeatable");
        let Stmt::Repeat { n, body } = &q.body[4] else {
            panic!("{q:?}")
        };
        assert_eq!(*n, 40);
        assert_eq!(body.len(), 3, "{body:?}");
        assert!(matches!(
            &body[0],
            Stmt::Lit {
                value: Literal::Index { .. },
                ..
            }
        ));
        let Stmt::Call {
            recv,
            args,
            under_test: true,
            ..
        } = &body[2]
        else {
            panic!("{body:?}")
        };
        assert_eq!(*recv, Var(0));
        assert_ne!(args[0], Var(2));
        assert_eq!(q.vars.len(), 5);
        // An argument a call changes is the program's own.
        let mut r = p.clone();
        r.body[3] = Stmt::Call {
            out: None,
            ty: "Key".into(),
            method: "touch".into(),
            recv: Var(2),
            args: vec![],
            under_test: false,
        };
        let q = repeated(&r, 8).unwrap();
        let Stmt::Repeat { body, .. } = &q.body[4] else {
            panic!()
        };
        assert_eq!(body.len(), 1);
        assert!(is_amortized("O(1) amortized") && !is_amortized("O(1)"));
        // Every call's own argument values: only when every argument is built again.
        assert!(repeated_varying(&p, 8).is_some());
        assert!(repeated_varying(&r, 8).is_none());
    }
}
