//! The verdict sweep: the best program at several input sizes, so the asymptotic verdict is
//! fitted on one input shape over a wide size range instead of on the mutation path.
//!
//! Every size-like quantity is scaled together: each loop count, and each top-level integer
//! literal equal to a loop count (a `with_capacity(n)`, `vec![x; n]` or `resize(n, ..)`
//! argument set to the same n). Counts are rounded once from the unscaled value, never from
//! a rounded one, so no factor produces a step the others do not.

use perfsyn_profiler_ipc::{Literal, Program, Stmt};

/// Size factors of the sweep: two decades, roughly evenly spaced in log size, and not
/// powers of two of each other, so that a resize that happens at one size (amortized O(1))
/// does not happen at the others.
pub const SWEEP: [f64; 10] = [
    1.0, 0.62, 0.38, 0.23, 0.14, 0.085, 0.052, 0.031, 0.019, 0.01,
];

/// The size the largest sweep point aims for: small inputs are dominated by constants and
/// by small-size special cases (std's sort uses insertion sort below 20 elements).
pub const SWEEP_TARGET_SIZE: u64 = 4096;

/// The best program with every size-like quantity scaled by each factor of [`SWEEP`], after
/// scaling up by a power of two so that the largest input reaches [`SWEEP_TARGET_SIZE`]
/// (input size grows with the loop counts; it is not exact, the fit uses measured sizes).
/// Empty when the program has no loop.
pub fn sweep_programs(p: &Program, size: u64, max_loop: u32) -> Vec<Program> {
    let counts: Vec<u32> = p
        .body
        .iter()
        .filter_map(|s| match s {
            Stmt::Repeat { n, .. } => Some(*n),
            _ => None,
        })
        .collect();
    let Some(max_n) = counts.iter().copied().max() else {
        return Vec::new();
    };
    let mut up = 1u32;
    while (size.max(1) * up as u64) < SWEEP_TARGET_SIZE && max_n.saturating_mul(up * 2) <= max_loop
    {
        up *= 2;
    }
    let scale = |v: f64, f: f64| (v * up as f64 * f).round().max(1.0);
    let mut out: Vec<Program> = Vec::new();
    for f in SWEEP {
        let mut q = p.clone();
        for s in &mut q.body {
            match s {
                Stmt::Repeat { n, .. } => *n = scale(*n as f64, f) as u32,
                Stmt::Lit {
                    value: Literal::Int { ty, value },
                    ..
                } if *value > 1 && u32::try_from(*value).is_ok_and(|v| counts.contains(&v)) => {
                    *value = ty.clamp(scale(*value as f64, f) as i64);
                }
                _ => {}
            }
        }
        if !out.contains(&q) {
            out.push(q);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use perfsyn_profiler_ipc::{IntTy, Var};

    #[test]
    fn loop_counts_and_matching_size_arguments_scale_together_over_two_decades() {
        let p = Program {
            vars: vec!["usize".into(), "usize".into()],
            body: vec![
                Stmt::Lit {
                    out: Var(0),
                    value: Literal::Int {
                        ty: IntTy::Usize,
                        value: 1000,
                    },
                },
                Stmt::Lit {
                    out: Var(1),
                    value: Literal::Int {
                        ty: IntTy::Usize,
                        value: 7,
                    },
                },
                Stmt::Repeat {
                    n: 1000,
                    body: vec![],
                },
            ],
        };
        let sweep = sweep_programs(&p, 5000, 1 << 16);
        assert_eq!(sweep.len(), SWEEP.len());
        let n = |q: &Program| match (&q.body[0], &q.body[1], &q.body[2]) {
            (
                Stmt::Lit {
                    value: Literal::Int { value: cap, .. },
                    ..
                },
                Stmt::Lit {
                    value: Literal::Int { value: other, .. },
                    ..
                },
                Stmt::Repeat { n, .. },
            ) => (*cap, *other, *n),
            _ => unreachable!(),
        };
        assert_eq!(n(&sweep[0]), (1000, 7, 1000));
        assert_eq!(n(&sweep[9]), (10, 7, 10));
    }
}
