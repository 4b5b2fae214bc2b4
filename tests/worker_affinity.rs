//! Each worker of a pool no larger than the machine runs on a core of its own
//! (`perfsyn_profiler_ipc::affinity`), and a larger pool is left to the kernel.

mod worker_support;

use std::time::Duration;

use perfsyn_profiler_ipc::affinity;
use worker_support::*;

/// The cores a process may run on, from `/proc/<pid>/status` (`Cpus_allowed_list`).
fn allowed_list(pid: u32) -> String {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    status
        .lines()
        .find_map(|l| l.strip_prefix("Cpus_allowed_list:"))
        .unwrap()
        .trim()
        .to_string()
}

#[test]
fn each_worker_is_pinned_to_its_own_core() {
    if std::env::var(affinity::PIN_ENV).is_ok() {
        return; // pinning chosen from outside
    }
    let cpus = affinity::allowed_cpus();
    if cpus.len() < 2 {
        return; // a single worker is never pinned
    }
    let mut pool = pool(2, Duration::from_secs(5));
    // Its programs run (and their fork servers inherit the core).
    let fbs = pool
        .run(&[vec_contains(3, -1), vec_contains(5, -1)])
        .unwrap();
    assert!(fbs.iter().all(|f| f.is_ok()));
    let pins: Vec<String> = pool.worker_pids().into_iter().map(allowed_list).collect();
    assert_eq!(pins.len(), 2);
    for p in &pins {
        assert!(cpus.iter().any(|c| &c.to_string() == p), "{p} is one core");
    }
    assert_ne!(pins[0], pins[1]);
}

#[test]
fn a_single_worker_and_a_pool_larger_than_the_machine_are_not_pinned() {
    let cpus = affinity::allowed_cpus();
    let mine = allowed_list(std::process::id());
    for workers in [1, cpus.len() + 1] {
        let pool = pool(workers, Duration::from_secs(5));
        for pid in pool.worker_pids() {
            assert_eq!(allowed_list(pid), mine);
        }
    }
}
