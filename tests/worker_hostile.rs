//! Hostile targets: every way a target can hurt its process is classified, contained to its
//! own program, and never loses or misattributes a neighbour's result.

mod worker_support;

use std::time::Duration;

use perfsyn_profiler_ipc::{Feedback, Outcome, Program};
use worker_support::*;

/// What each hostile method must be reported as.
fn expected(method: &str, o: &Outcome) -> bool {
    match method {
        "noop" | "spam_stdout" => *o == Outcome::Ok,
        "panic" => matches!(o, Outcome::Panic { stmt: 1, message } if message == "hostile panic"),
        "abort" | "orphan_then_abort" => {
            matches!(o, Outcome::Crash { signal, detail } if *signal == libc::SIGABRT && detail != "stack overflow")
        }
        "null_write" => matches!(o, Outcome::Crash { signal, .. } if *signal == libc::SIGSEGV),
        "recurse_forever" => {
            matches!(o, Outcome::Crash { signal, detail } if *signal == libc::SIGABRT && detail == "stack overflow")
        }
        "spin_forever" => *o == Outcome::Timeout,
        "alloc_64gib" => *o == Outcome::OutOfMemory,
        "exit0" => *o == Outcome::Exited { code: 0 },
        _ => unreachable!("unknown hostile method {method}"),
    }
}

const METHODS: [&str; 10] = [
    "noop",
    "panic",
    "abort",
    "null_write",
    "recurse_forever",
    "spin_forever",
    "alloc_64gib",
    "exit0",
    "spam_stdout",
    "orphan_then_abort",
];

/// A benign program whose feedback identifies it: `input_size == probe_ops == n`.
fn marker(n: u32) -> Program {
    vec_contains(n, -1)
}

fn assert_marker(fb: &Feedback, n: u32, context: &str) {
    assert_eq!(fb.outcome, Outcome::Ok, "{context}");
    assert_eq!(fb.input_size, n as u64, "{context}: misattributed feedback");
    assert_eq!(
        fb.cost.probe_ops, n as u64,
        "{context}: misattributed feedback"
    );
}

/// Whether no live process is left in process group `pgid` within a few seconds (a killed
/// process takes a moment to die).
fn group_ends(pgid: u32) -> bool {
    let members = || {
        std::fs::read_dir("/proc")
            .unwrap()
            .filter_map(|e| std::fs::read_to_string(e.ok()?.path().join("stat")).ok())
            .filter(|stat| {
                // pid (comm) state ppid pgrp ...: fields after the last ')'. A zombie has
                // ended already (its reaping is its new parent's business).
                let Some((_, rest)) = stat.rsplit_once(')') else {
                    return false;
                };
                let f: Vec<&str> = rest.split_whitespace().collect();
                f.first() != Some(&"Z")
                    && f.get(2).and_then(|g| g.parse::<u32>().ok()) == Some(pgid)
            })
            .count()
    };
    (0..100).any(|_| {
        let none = members() == 0;
        if !none {
            std::thread::sleep(Duration::from_millis(50));
        }
        none
    })
}

#[test]
fn each_hostile_target_is_classified_and_the_batch_goes_on() {
    let mut pool = pool(1, Duration::from_millis(500));
    for m in METHODS {
        let batch = vec![marker(3), hostile(m), marker(5), marker(7)];
        let group = pool.worker_pids()[0];
        let fbs = pool.run(&batch).unwrap();
        assert_eq!(fbs.len(), 4);
        assert_marker(&fbs[0], 3, &format!("before {m}"));
        assert!(
            expected(m, &fbs[1].outcome),
            "{m}: got {:?}",
            fbs[1].outcome
        );
        assert_marker(&fbs[2], 5, &format!("after {m}"));
        assert_marker(&fbs[3], 7, &format!("after {m}"));
        if m == "orphan_then_abort" {
            assert!(
                group_ends(group),
                "the process the target spawned outlived its worker"
            );
        }
    }
    let st = pool.stats();
    assert_eq!(st.timeouts, 1);
    assert_eq!(st.ooms, 1);
    assert_eq!(st.exits, 1);
    assert_eq!(st.panics, 1);
    assert_eq!(st.crashes, 4);
    // abort, null_write, recurse_forever, spin_forever, alloc_64gib, exit0 and
    // orphan_then_abort each cost a worker.
    assert_eq!(st.restarts, 7);
}

#[test]
fn a_mixed_batch_over_two_workers_keeps_every_result_in_place() {
    let mut pool = pool(2, Duration::from_millis(500));
    let mut batch = Vec::new();
    let mut expect = Vec::new();
    for round in 0..2u32 {
        for (k, m) in METHODS.iter().enumerate() {
            let n = 1 + round * 20 + k as u32;
            batch.push(marker(n));
            expect.push(None);
            batch.push(hostile(m));
            expect.push(Some(*m));
        }
    }
    let fbs = pool.run(&batch).unwrap();
    assert_eq!(fbs.len(), batch.len());
    for (i, (fb, e)) in fbs.iter().zip(&expect).enumerate() {
        match e {
            Some(m) => assert!(expected(m, &fb.outcome), "#{i} {m}: got {:?}", fb.outcome),
            None => assert_marker(fb, input_of(&batch[i]), &format!("#{i}")),
        }
    }
    // The pool is healthy afterwards.
    let fbs = pool.run(&[marker(9), marker(10)]).unwrap();
    assert_marker(&fbs[0], 9, "after");
    assert_marker(&fbs[1], 10, "after");
}

/// The `n` of a marker program (its repeat count).
fn input_of(p: &Program) -> u32 {
    p.body
        .iter()
        .find_map(|s| match s {
            perfsyn_profiler_ipc::Stmt::Repeat { n, .. } => Some(*n),
            _ => None,
        })
        .unwrap()
}

#[test]
fn a_hang_is_killed_after_the_deadline_and_costs_one_program() {
    let mut pool = pool(1, Duration::from_millis(200));
    let fbs = pool
        .run(&[hostile("spin_forever"), hostile("spin_forever"), marker(4)])
        .unwrap();
    assert_eq!(fbs[0].outcome, Outcome::Timeout);
    assert_eq!(fbs[1].outcome, Outcome::Timeout);
    assert_marker(&fbs[2], 4, "after two hangs");
    assert_eq!(pool.stats().timeouts, 2);
}

/// Fuel, not the clock, decides a timeout: a program that ends in milliseconds but needs
/// more edges than its fuel is a timeout, and the same program with enough fuel is not.
#[test]
fn a_program_past_its_fuel_is_a_timeout_whatever_the_clock_says() {
    let start = |fuel: u64| {
        let mut cfg = perfsyn_profiler_ipc::PoolConfig::new(worker_support::worker());
        cfg.workers = 1;
        cfg.deadline = Duration::from_secs(60);
        cfg.fuel = fuel;
        cfg.shm_size = 4 << 20;
        perfsyn_profiler_ipc::Pool::start(cfg).expect("start the pool")
    };
    let mut starved = start(20_000);
    let fbs = starved.run(&[marker(4096), marker(4)]).unwrap();
    assert_eq!(fbs[0].outcome, Outcome::Timeout);
    assert_marker(&fbs[1], 4, "after a program out of fuel");
    let mut fed = start(1 << 40);
    let fbs = fed.run(&[marker(4096)]).unwrap();
    assert_marker(&fbs[0], 4096, "with enough fuel");
}
