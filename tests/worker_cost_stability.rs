//! Costs do not move with the worker's codegen: the harness runtime's bookkeeping adds no
//! edge to a probe operation, and arming hot-line counters changes no cost.
//!
//! Why exact figures: a "Reproduce with" line reproduces a run after an upgrade only if the
//! same program costs the same. A worker whose probe keys counted their operations through
//! a non-inlined thread-local charged `Vec<Key>::dedup` 3 edges more per element (2 -> 5
//! over distinct keys, 3 -> 6 after the first duplicate).

mod worker_support;

use std::time::Duration;

use perfsyn_profiler_ipc::{Feedback, Outcome, Pattern, Program};
use worker_support::*;

/// `v = [0, 1, .., n-1] as keys; v.dedup()` with only `dedup` measured (nothing removed).
fn dedup_distinct(n: u32) -> Program {
    let mut p = Program::default();
    let v = filled(&mut p, "Vec<Key>", "new", n, Pattern::I, false);
    call(&mut p, "Vec<Key>", "dedup", v, vec![], true);
    p
}

fn ok(fbs: &[Feedback]) {
    for fb in fbs {
        assert_eq!(fb.outcome, Outcome::Ok);
        assert_eq!(fb.calls, 1);
    }
}

/// Over distinct keys `dedup` never leaves std's search for the first duplicate, and each
/// element costs 2 edges: 1 guard of that loop in `Vec::dedup_by` and 1 of `Key::eq`'s
/// entry; counting the comparison adds none (it added 3, through a thread-local, on a worker
/// whose codegen did not inline `LocalKey::with`). The constant part cancels in the
/// difference.
#[test]
fn dedup_costs_two_edges_per_distinct_element() {
    let sizes = [1000u32, 2000, 4000];
    let mut pool = pool(1, Duration::from_secs(20));
    let fbs = pool.run(&sizes.map(dedup_distinct)).unwrap();
    ok(&fbs);
    for (w, n) in fbs.windows(2).zip(sizes) {
        assert_eq!(w[1].cost.probe_ops - w[0].cost.probe_ops, n as u64);
        assert_eq!(
            w[1].cost.edges - w[0].cost.edges,
            2 * n as u64,
            "edges {} -> {} for {n} more elements",
            w[0].cost.edges,
            w[1].cost.edges
        );
        assert_eq!(w[1].cost.bytes_moved, w[0].cost.bytes_moved);
    }
}

/// The hot-lines sweep counts hits per guard in the same callback; the costs it reports are
/// those of an ordinary run, to the edge.
#[test]
fn hot_counting_changes_no_cost() {
    let programs = [300u32, 3000].map(dedup_distinct);
    let mut pool = pool(1, Duration::from_secs(20));
    let plain = pool.run(&programs).unwrap();
    let hot = pool.run_hot(&programs).unwrap();
    ok(&plain);
    ok(&hot);
    for (a, b) in plain.iter().zip(&hot) {
        assert!(!b.hot.is_empty(), "the hot run counted hits");
        assert_eq!(
            (a.cost.edges, a.cost.probe_ops, a.cost.bytes_moved),
            (b.cost.edges, b.cost.probe_ops, b.cost.bytes_moved)
        );
    }
}
