//! The fuel rescue through the real worker (see `perfsyn_profiler_ipc::rescue`): a program
//! that runs out of fuel on the fresh path ends a runner, not the worker; every program of
//! the batch gets the feedback it gets from a worker without the rescue, and every other
//! death is reported as that worker reports it.

mod worker_support;

use perfsyn_profiler_ipc::{Outcome, Pattern, Program};
use worker_support::*;

const VEC: &str = "Vec<Key>";

/// 2000 keys scanned 1500 times before a measured `dedup`: millions of edges.
fn hungry(pattern: Pattern) -> Program {
    let mut p = Program::default();
    let v = filled(&mut p, VEC, "new", 2000, pattern, false);
    key_loop(&mut p, VEC, v, "contains", 1500, Pattern::I);
    call(&mut p, VEC, "dedup", v, vec![], true);
    p
}

/// A fuel under which [`hungry`] runs out: a third of what it spends.
fn a_third_of_hungry() -> u64 {
    let full = metered_pool(false, 1, 0)
        .run(&[hungry(Pattern::I)])
        .unwrap()[0]
        .clone();
    assert!(full.is_ok());
    full.fuel_spent / 3
}

/// Fresh timeouts among cheap programs, over one and two workers: the same feedback with the
/// rescue as without it, and no worker restarted.
#[test]
fn a_fresh_timeout_costs_no_worker_and_changes_no_result() {
    let fuel = a_third_of_hungry();
    let mut batch = Vec::new();
    for i in 0..4u32 {
        batch.push(vec_contains(3 + i, -1));
        batch.push(hungry(if i % 2 == 0 {
            Pattern::I
        } else {
            Pattern::Hash(3)
        }));
        batch.push(vec_insert_front(40 + i));
    }
    batch.push(hungry(Pattern::ModK(5)));
    for workers in [1, 2] {
        // Setup reuse off: every program runs on the fresh path.
        let mut without = rescuing_pool(false, false, workers, fuel);
        let want = without.run(&batch).unwrap();
        let mut with = rescuing_pool(false, true, workers, fuel);
        let got = with.run(&batch).unwrap();
        let timeouts = want
            .iter()
            .filter(|f| f.outcome == Outcome::Timeout)
            .count();
        assert_eq!(timeouts, 5, "{workers} workers: {want:?}");
        for (i, (g, w)) in got.iter().zip(&want).enumerate() {
            assert_eq!(
                deterministic(g),
                deterministic(w),
                "{workers} workers, program {i}"
            );
        }
        assert_eq!(without.stats().restarts, 5, "{:?}", without.stats());
        assert_eq!(with.stats().restarts, 0, "{:?}", with.stats());
        assert_eq!(with.stats().timeouts, 5, "{:?}", with.stats());
        // And the rescued workers serve the next request.
        let again = with.run(&batch[..3]).unwrap();
        assert!(again[0].is_ok() && again[2].is_ok());
        assert_eq!(again[1].outcome, Outcome::Timeout);
    }
}

/// After a rescue, a crash, an abort and an exit of the target are still reported as the
/// worker reports them, each costing the worker, and the batch goes on around them.
#[test]
fn deaths_after_a_rescue_are_reported_as_without_it() {
    let fuel = a_third_of_hungry();
    let mut batch = Vec::new();
    for (k, m) in ["hungry", "abort", "hungry", "null_write", "exit0"]
        .iter()
        .enumerate()
    {
        batch.push(vec_contains(3 + k as u32, -1));
        batch.push(match *m {
            "hungry" => hungry(Pattern::I),
            m => hostile(m),
        });
    }
    batch.push(vec_contains(20, -1));
    let run = |rescue: bool| {
        let mut pool = rescuing_pool(false, rescue, 1, fuel);
        let fbs = pool.run(&batch).unwrap();
        (fbs, pool.stats())
    };
    let (want, without) = run(false);
    let (got, with) = run(true);
    let outcomes = |fbs: &[perfsyn_profiler_ipc::Feedback]| {
        fbs.iter().map(|f| f.outcome.clone()).collect::<Vec<_>>()
    };
    assert_eq!(outcomes(&got), outcomes(&want));
    assert_eq!(got[1].outcome, Outcome::Timeout);
    assert!(
        matches!(&got[3].outcome, Outcome::Crash { signal, .. } if *signal == libc::SIGABRT),
        "{:?}",
        got[3].outcome
    );
    assert!(
        matches!(&got[7].outcome, Outcome::Crash { signal, .. } if *signal == libc::SIGSEGV),
        "{:?}",
        got[7].outcome
    );
    assert_eq!(got[9].outcome, Outcome::Exited { code: 0 });
    for k in 0..5 {
        assert_eq!(
            deterministic(&got[2 * k]),
            deterministic(&want[2 * k]),
            "marker {k}"
        );
    }
    assert_eq!(without.restarts, 5, "{without:?}");
    // The two timeouts cost no worker; the abort, the crash and the exit each cost one.
    assert_eq!(with.restarts, 3, "{with:?}");
}
