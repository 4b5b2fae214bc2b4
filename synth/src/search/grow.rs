//! Mutations that grow several size-like quantities of a program in one step.
//!
//! Some inputs only grow when two quantities grow together: `SparseSet::with_capacity(n)`
//! followed by a loop of `insert(i, ..)` panics as soon as a key reaches the capacity, so a
//! loop injected alone (16 keys into a capacity of 1) panics, and a larger capacity alone is
//! not rewarded (the input size stays 0); the search never sees a set grow. Two operators
//! fix that without knowing the API:
//!
//! - `inject-loop-sized`: the loop of `inject-loop`, with every integer literal
//!   passed to the receiver's constructor raised to at least the loop's count (a capacity,
//!   a universe size, a length the loop indices must stay below).
//! - `scale-all`: every top-level loop count and every size-like top-level integer literal
//!   (a constructor argument, or a literal equal to a loop count) multiplied by the same
//!   factor, as the verdict sweep's fallback rule scales them (`sweep.rs`), so a program
//!   grown with its capacity keeps growing with it.
//!
//! Both are offered in addition to the single-quantity operators, never instead of them.

use perfsyn_profiler_ipc::{Literal, Program, Stmt, Var};

use crate::search::fresh::setup_end;

/// Statement indices of the top-level integer literals passed directly to the constructor
/// that defines `recv` (before the setup's end).
pub fn ctor_literals(p: &Program, recv: Var) -> Vec<usize> {
    let end = setup_end(p);
    let Some(args) = p.body[..end].iter().find_map(|s| match s {
        Stmt::Ctor { out, args, .. } if *out == recv => Some(args),
        _ => None,
    }) else {
        return Vec::new();
    };
    args.iter()
        .filter_map(|a| int_literal_at(p, *a, end))
        .collect()
}

/// The statement index of the top-level integer literal defining `v`, if it is one.
fn int_literal_at(p: &Program, v: Var, end: usize) -> Option<usize> {
    p.body[..end]
        .iter()
        .position(|s| matches!(s, Stmt::Lit { out, value: Literal::Int { .. } } if *out == v))
}

/// Whether `inject-loop-sized` of `count` iterations on `recv` differs from the plain loop:
/// some literal of the receiver's constructor is below `count`.
pub fn sized_loop_applies(p: &Program, recv: Var, count: u32) -> bool {
    ctor_literals(p, recv)
        .into_iter()
        .any(|i| lit_value(&p.body[i]).is_some_and(|v| v < count as i64))
}

/// Raises the literals of `recv`'s constructor to at least `count` (after the loop was
/// inserted by the caller; statement indices before the loop are unchanged).
pub fn raise_ctor_literals(q: &mut Program, recv: Var, count: u32) {
    for i in ctor_literals(q, recv) {
        if let Stmt::Lit {
            value: Literal::Int { ty, value },
            ..
        } = &mut q.body[i]
        {
            *value = ty.clamp((*value).max(count as i64));
        }
    }
}

fn lit_value(s: &Stmt) -> Option<i64> {
    match s {
        Stmt::Lit {
            value: Literal::Int { value, .. },
            ..
        } => Some(*value),
        _ => None,
    }
}

/// The top-level integer literals `scale-all` scales: constructor arguments and literals
/// equal to a top-level loop's count, in the setup.
fn size_like_literals(p: &Program) -> Vec<usize> {
    let end = setup_end(p);
    let counts: Vec<i64> = p
        .body
        .iter()
        .filter_map(|s| match s {
            Stmt::Repeat { n, .. } => Some(*n as i64),
            _ => None,
        })
        .collect();
    let ctor_args: Vec<Var> = p.body[..end]
        .iter()
        .filter_map(|s| match s {
            Stmt::Ctor { args, .. } => Some(args.clone()),
            _ => None,
        })
        .flatten()
        .collect();
    (0..end)
        .filter(|&i| match &p.body[i] {
            Stmt::Lit {
                out,
                value: Literal::Int { value, .. },
            } => *value >= 1 && (ctor_args.contains(out) || counts.contains(value)),
            _ => false,
        })
        .collect()
}

/// Whether `scale-all` differs from `scale-loop` on `p`: it has a top-level loop and either
/// another loop or a size-like literal to scale with it.
pub fn scale_all_applies(p: &Program) -> bool {
    let loops = p
        .body
        .iter()
        .filter(|s| matches!(s, Stmt::Repeat { .. }))
        .count();
    loops >= 2 || (loops == 1 && !size_like_literals(p).is_empty())
}

/// Every top-level loop count (capped at `max_loop`) and size-like literal times `factor`.
/// `None` when nothing changes (every loop already at the cap).
pub fn scale_all(p: &Program, factor: u32, max_loop: u32) -> Option<Program> {
    let mut q = p.clone();
    let lits = size_like_literals(p);
    let mut changed = false;
    for (i, s) in q.body.iter_mut().enumerate() {
        match s {
            Stmt::Repeat { n, .. } => {
                let m = n.saturating_mul(factor).min(max_loop).max(*n);
                changed |= m != *n;
                *n = m;
            }
            Stmt::Lit {
                value: Literal::Int { ty, value },
                ..
            } if lits.contains(&i) => {
                *value = ty.clamp(value.saturating_mul(factor as i64));
            }
            _ => {}
        }
    }
    changed.then_some(q)
}

#[cfg(test)]
mod tests {
    use super::*;
    use perfsyn_profiler_ipc::{IntTy, Pattern};

    fn usize_lit(out: u32, value: i64) -> Stmt {
        Stmt::Lit {
            out: Var(out as _),
            value: Literal::Int {
                ty: IntTy::Usize,
                value,
            },
        }
    }

    /// `let n0 = 1; let s1 = S::with_capacity(n0); [loop 16 { s1.insert(i) }] let k2 = 0; s1.get(k2);`
    fn program(with_loop: bool) -> Program {
        let mut body = vec![
            usize_lit(0, 1),
            Stmt::Ctor {
                out: Var(1),
                ty: "S".into(),
                ctor: "with_capacity".into(),
                args: vec![Var(0)],
            },
        ];
        if with_loop {
            body.push(Stmt::Repeat {
                n: 16,
                body: vec![
                    Stmt::Lit {
                        out: Var(3),
                        value: Literal::Index {
                            ty: IntTy::Usize,
                            pattern: Pattern::I,
                        },
                    },
                    Stmt::Call {
                        out: None,
                        ty: "S".into(),
                        method: "insert".into(),
                        recv: Var(1),
                        args: vec![Var(3)],
                        under_test: false,
                    },
                ],
            });
        }
        body.push(usize_lit(2, 0));
        body.push(Stmt::Call {
            out: None,
            ty: "S".into(),
            method: "get".into(),
            recv: Var(1),
            args: vec![Var(2)],
            under_test: true,
        });
        Program {
            vars: vec!["usize".into(), "S".into(), "usize".into(), "usize".into()],
            body,
        }
    }

    #[test]
    fn a_sized_loop_raises_the_capacity_to_the_count() {
        let p = program(false);
        assert_eq!(ctor_literals(&p, Var(1)), vec![0]);
        assert!(sized_loop_applies(&p, Var(1), 16));
        let mut q = program(true);
        raise_ctor_literals(&mut q, Var(1), 16);
        assert_eq!(lit_value(&q.body[0]), Some(16));
        // The key passed to the call under test is no constructor argument: it stays.
        assert_eq!(lit_value(&q.body[3]), Some(0));
    }

    #[test]
    fn scale_all_scales_the_capacity_with_the_loop() {
        let mut p = program(true);
        raise_ctor_literals(&mut p, Var(1), 16);
        assert!(scale_all_applies(&p));
        let q = scale_all(&p, 8, 1 << 14).expect("grows");
        assert_eq!(lit_value(&q.body[0]), Some(128));
        assert!(matches!(q.body[2], Stmt::Repeat { n: 128, .. }));
        assert_eq!(lit_value(&q.body[3]), Some(0));
        // At the loop cap nothing grows any more.
        let mut top = q.clone();
        if let Stmt::Repeat { n, .. } = &mut top.body[2] {
            *n = 1 << 14;
        }
        assert_eq!(scale_all(&top, 8, 1 << 14), None);
        // Without a loop or a size-like literal, scale-all is scale-loop.
        assert!(!scale_all_applies(&program(false)));
    }
}
