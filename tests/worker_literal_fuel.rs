//! The interpreter's own work is not the program's fuel: a literal materialized in a loop (an
//! index pattern clamped into its type and boxed) runs only uninstrumented code in the worker,
//! so a loop of literals costs no fuel, and the measured call costs the
//! same whatever the loop before it.

mod worker_support;

use perfsyn_profiler_ipc::{Feedback, IntTy, Literal, Pattern, Program, Stmt};
use worker_support::*;

const VEC: &str = "Vec<Key>";

/// A vector of 64 keys, then `n` iterations of `let x: u8 = hash_below(i)` (clamped: the
/// bound is past `u8::MAX`), then a measured `dedup`.
fn literal_loop(n: u32) -> Program {
    let mut p = Program::default();
    let v = filled(&mut p, VEC, "new", 64, Pattern::ModK(8), false);
    let x = p.fresh("u8");
    p.body.push(Stmt::Repeat {
        n,
        body: vec![Stmt::Lit {
            out: x,
            value: Literal::Index {
                ty: IntTy::U8,
                pattern: Pattern::HashBelow {
                    seed: 7,
                    bound: 1000,
                },
            },
        }],
    });
    call(&mut p, VEC, "dedup", v, vec![], true);
    p
}

#[test]
fn literals_in_a_loop_cost_no_fuel_of_their_own() {
    let (short, long) = (1_000u32, 5_000u32);
    let fbs: Vec<Feedback> = metered_pool(false, 1, 100_000_000)
        .run(&[literal_loop(short), literal_loop(long)])
        .unwrap();
    for fb in &fbs {
        assert!(fb.is_ok(), "{:?}", fb.outcome);
    }
    let cost = |fb: &Feedback| {
        let mut c = fb.cost;
        (c.cpu_ns, c.wall_ns) = (0, 0);
        (c, fb.heap_bytes, fb.input_size)
    };
    assert_eq!(
        cost(&fbs[0]),
        cost(&fbs[1]),
        "the measured call costs the same"
    );
    // Boxing a literal, clamping it, evaluating its pattern and freeing it at the end of
    // its iteration were 13 instrumented edges; none is left.
    assert_eq!(
        fbs[0].fuel_spent, fbs[1].fuel_spent,
        "the literals spent fuel"
    );
}
