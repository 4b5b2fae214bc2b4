//! A program sent to a worker again runs from its cached checked and compiled form
//! (`progcache`, `Interpreter::run_prepared`) and gets exactly the feedback of its first run:
//! the same outcome, costs, heap bytes and input size, after runs that panicked, were invalid
//! or measured calls inside a loop, with fuel and heap metered, with hot counts or without.

mod worker_support;

use perfsyn_profiler_ipc::{Feedback, Outcome, Pattern, Pool, Program, Stmt};
use worker_support::*;

const VEC: &str = "Vec<Key>";

/// One worker, setup reuse off (every program takes the cached path, seams included), fuel
/// and heap metered.
fn start() -> Pool {
    metered_pool(false, 1, 50_000_000)
}

/// `v` filled with `n` keys, then `contains` measured inside a loop of `m` iterations.
fn measured_in_loop(n: u32, m: u32) -> Program {
    let mut p = Program::default();
    let v = filled(&mut p, VEC, "new", n, Pattern::Hash(3), false);
    let k = key(&mut p, -1);
    p.body.push(Stmt::Repeat {
        n: m,
        body: vec![Stmt::Call {
            out: None,
            ty: VEC.into(),
            method: "contains".into(),
            recv: v,
            args: vec![k],
            under_test: true,
        }],
    });
    p
}

/// A call of a method the worker does not register: invalid.
fn invalid() -> Program {
    let mut p = Program::default();
    let v = filled(&mut p, VEC, "new", 3, Pattern::I, false);
    call(&mut p, VEC, "no_such_method", v, vec![], true);
    p
}

fn programs() -> Vec<Program> {
    let mut small = Program::default();
    let v = filled(&mut small, VEC, "new", 3, Pattern::NMinusI, false);
    call(&mut small, VEC, "sort", v, vec![], true);
    vec![
        small,
        vec_contains(300, -1),
        hostile("panic"),
        vec_insert_front(500),
        invalid(),
        measured_in_loop(400, 20),
        hostile("noop"),
    ]
}

#[test]
fn cached_programs_get_the_feedback_of_their_first_run() {
    let programs = programs();
    let mut pool = start();
    // Three rounds in one batch, then a round in a batch of its own, then with hot counts:
    // all but the first round run from the cache.
    let batch: Vec<Program> = programs
        .iter()
        .cycle()
        .take(3 * programs.len())
        .cloned()
        .collect();
    let mut rounds: Vec<Vec<Feedback>> = pool
        .run(&batch)
        .unwrap()
        .chunks(programs.len())
        .map(<[Feedback]>::to_vec)
        .collect();
    rounds.push(pool.run(&programs).unwrap());
    rounds.push(pool.run_hot(&programs).unwrap());
    assert_eq!(pool.stats().restarts, 0);
    let first = &rounds[0];
    assert!(matches!(first[2].outcome, Outcome::Panic { .. }));
    assert!(matches!(first[4].outcome, Outcome::Invalid { .. }));
    assert_eq!(first[5].calls, 20);
    assert!(first[1].cost.edges > 300 && first[1].input_size == 300);
    for (r, round) in rounds.iter().enumerate().skip(1) {
        for (i, (got, want)) in round.iter().zip(first).enumerate() {
            // A run with hot counts spends a few edges of fuel more (taking them is not
            // charged, branching on them is).
            let got = &Feedback {
                fuel_spent: if r == 4 {
                    want.fuel_spent
                } else {
                    got.fuel_spent
                },
                ..got.clone()
            };
            assert_eq!(
                deterministic(got),
                deterministic(want),
                "round {r}, program {i}: {:?}",
                programs[i]
            );
        }
    }
}
