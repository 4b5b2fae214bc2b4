//! Metering through the real instrumented worker: exact where exact, and only the calls
//! under test are measured.

mod worker_support;

use std::time::Duration;

use perfsyn_profiler_ipc::{Cost, Outcome, Program};
use worker_support::*;

fn run(programs: &[Program]) -> Vec<perfsyn_profiler_ipc::Feedback> {
    let mut pool = pool(1, Duration::from_secs(20));
    let fbs = pool.run(programs).unwrap();
    for fb in &fbs {
        assert_eq!(fb.outcome, Outcome::Ok);
        assert_eq!(fb.calls, 1);
    }
    fbs
}

#[test]
fn contains_with_an_absent_key_compares_every_element_once() {
    let sizes = [1u32, 2, 10, 100, 1000, 10_000];
    let fbs = run(&sizes.map(|n| vec_contains(n, -1)));
    for (n, fb) in sizes.iter().zip(&fbs) {
        assert_eq!(fb.cost.probe_ops, *n as u64, "n = {n}");
        assert_eq!(fb.input_size, *n as u64);
        // The only allocation is the registry wrapper boxing the returned bool.
        assert_eq!(
            fb.cost.allocs, fbs[0].cost.allocs,
            "contains allocates O(1)"
        );
        assert!(fb.cost.edges > 0, "the worker is instrumented");
    }
}

#[test]
fn contains_edges_grow_linearly() {
    let sizes = [500u32, 1000, 2000, 4000, 8000, 16_000];
    let fbs = run(&sizes.map(|n| vec_contains(n, -1)));
    let points: Vec<(f64, f64)> = sizes
        .iter()
        .zip(&fbs)
        .map(|(n, fb)| (*n as f64, fb.cost.edges as f64))
        .collect();
    let slope = log_log_slope(&points);
    assert!(
        slope > 0.9 && slope < 1.1,
        "log-log slope {slope}: {points:?}"
    );
    // Strictly more work for every doubling.
    assert!(fbs.windows(2).all(|w| w[1].cost.edges > w[0].cost.edges));
}

#[test]
fn setup_statements_do_not_change_the_measured_cost() {
    let plain = vec_contains(300, -1);
    // The same program with unrelated setup (another vector filled and queried, a sort, a
    // probe key cloned into it) before the call under test.
    let mut busy = Program::default();
    let w = filled(
        &mut busy,
        "Vec<Key>",
        "new",
        500,
        perfsyn_profiler_ipc::Pattern::NMinusI,
        false,
    );
    call(&mut busy, "Vec<Key>", "sort", w, vec![], false);
    let k = key(&mut busy, 3);
    call(&mut busy, "Vec<Key>", "contains", w, vec![k], false);
    let v = filled(
        &mut busy,
        "Vec<Key>",
        "new",
        300,
        perfsyn_profiler_ipc::Pattern::I,
        false,
    );
    let k = key(&mut busy, -1);
    call(&mut busy, "Vec<Key>", "dedup", w, vec![], false);
    call(&mut busy, "Vec<Key>", "contains", v, vec![k], true);
    let fbs = run(&[plain.clone(), busy, plain]);
    let det = |c: &Cost| (c.edges, c.probe_ops, c.bytes_moved, c.allocs, c.alloc_bytes);
    assert_eq!(det(&fbs[0].cost), det(&fbs[1].cost));
    assert_eq!(det(&fbs[0].cost), det(&fbs[2].cost));
    assert_eq!(fbs[0].input_size, fbs[1].input_size);
}

#[test]
fn insert_at_the_front_moves_every_element_and_costs_linear() {
    let sizes = [1000u32, 2000, 4000, 8000, 16_000];
    let programs: Vec<Program> = sizes.iter().map(|&n| vec_insert_front(n)).collect();
    let fbs = run(&programs);
    let key_size = 8u64;
    for (n, fb) in sizes.iter().zip(&fbs) {
        // The shift moves all n keys (a growth reallocation may copy them once more).
        assert!(
            fb.cost.bytes_moved >= *n as u64 * key_size,
            "n = {n}: {} bytes moved",
            fb.cost.bytes_moved
        );
        assert_eq!(fb.cost.probe_ops, 0, "shifting never compares keys");
    }
    assert!(fbs
        .windows(2)
        .all(|w| w[1].cost.bytes_moved > w[0].cost.bytes_moved));
    let points: Vec<(f64, f64)> = sizes
        .iter()
        .zip(&fbs)
        .map(|(n, fb)| (*n as f64, fb.cost.combined() as f64))
        .collect();
    let slope = log_log_slope(&points);
    assert!(
        slope > 0.9 && slope < 1.1,
        "combined cost slope {slope}: {points:?}"
    );
    // Edges alone miss the shift (libc's memmove is not instrumented): combined() sees it.
    assert!(fbs[4].cost.combined() > 8 * fbs[4].cost.edges.max(1) / 2);
}

#[test]
fn unmeasured_programs_report_zero_calls() {
    let mut p = Program::default();
    let v = filled(
        &mut p,
        "Vec<Key>",
        "new",
        10,
        perfsyn_profiler_ipc::Pattern::I,
        false,
    );
    call(&mut p, "Vec<Key>", "sort", v, vec![], false);
    let mut pool = pool(1, Duration::from_secs(20));
    let fb = &pool.run(&[p]).unwrap()[0];
    assert_eq!(fb.outcome, Outcome::Ok);
    assert_eq!(fb.calls, 0);
    assert_eq!(fb.cost, Cost::default());
}

/// A result a caller keeps (`{kept}`, as `perfsyn init` marks owned results) is dropped after
/// the measured window; one not marked is dropped inside it, as a `Drain` does its work
/// there. The drop's 1000 probe operations tell the two apart, exactly; the call itself
/// does none.
#[test]
fn a_kept_result_is_dropped_after_the_window() {
    let fbs = run(&[hostile("slow_drop"), hostile("slow_drop_kept")]);
    assert_eq!(fbs[0].cost.probe_ops, 1000, "dropped inside the call");
    assert_eq!(fbs[1].cost.probe_ops, 0, "dropped after the window");
    assert!(
        fbs[1].cost.edges < fbs[0].cost.edges,
        "the drop's edges are left out too: {} vs {}",
        fbs[1].cost.edges,
        fbs[0].cost.edges
    );
}
