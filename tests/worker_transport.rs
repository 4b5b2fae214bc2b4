//! The shared-memory transport: handshake, batches, ordering, size limits.

mod worker_support;

use std::time::Duration;

use perfsyn_profiler_ipc::{Literal, Outcome, Pool, PoolConfig, PoolError, Program, Stmt};
use worker_support::*;

#[test]
fn handshake_reports_the_worker_schema() {
    let pool = pool(2, Duration::from_secs(5));
    let schema = pool.schema();
    assert!(schema.ty("Vec<Key>").is_some());
    assert!(schema.ty("Hostile").is_some());
    assert_eq!(
        schema,
        &perfsyn::harness::worker_build::read_schema(&worker()).unwrap()
    );
}

#[test]
fn batches_come_back_in_submission_order_over_several_workers() {
    let mut pool = pool(2, Duration::from_secs(5));
    // Different sizes, so that each feedback says which program it belongs to.
    let programs: Vec<Program> = (1..=40).map(|n| vec_contains(n, -1)).collect();
    let fbs = pool.run(&programs).unwrap();
    assert_eq!(fbs.len(), programs.len());
    for (n, fb) in fbs.iter().enumerate() {
        assert_eq!(fb.outcome, Outcome::Ok);
        assert_eq!(fb.input_size, n as u64 + 1);
        assert_eq!(fb.cost.probe_ops, n as u64 + 1);
    }
    // Again, through the same (warm) workers, and an empty batch.
    let again = pool.run(&programs).unwrap();
    for (a, b) in again.iter().zip(&fbs) {
        assert_eq!(
            (a.cost.edges, a.cost.probe_ops),
            (b.cost.edges, b.cost.probe_ops)
        );
    }
    assert!(pool.run(&[]).unwrap().is_empty());
    let st = pool.stats();
    assert_eq!(st.programs, 80);
    assert_eq!(st.ok, 80);
    assert_eq!(st.restarts, 0);
}

#[test]
fn a_batch_larger_than_one_request_is_split() {
    let mut cfg = PoolConfig::new(worker());
    cfg.workers = 1;
    // A small region: a request holds only a few of these programs.
    cfg.shm_size = 96 * 1024;
    let mut pool = Pool::start(cfg).unwrap();
    let programs: Vec<Program> = (0..500).map(|n| vec_contains(n % 7 + 1, -1)).collect();
    let fbs = pool.run(&programs).unwrap();
    for (n, fb) in fbs.iter().enumerate() {
        assert_eq!(fb.input_size, (n % 7) as u64 + 1);
    }
    assert!(pool.stats().requests > 1);
}

#[test]
fn a_program_too_large_for_the_region_is_an_error_not_a_truncation() {
    let mut cfg = PoolConfig::new(worker());
    cfg.workers = 1;
    cfg.shm_size = 96 * 1024;
    let mut pool = Pool::start(cfg).unwrap();
    let mut p = vec_contains(3, -1);
    let s = p.fresh("String");
    p.body.insert(
        0,
        Stmt::Lit {
            out: s,
            value: Literal::Str("x".repeat(200_000)),
        },
    );
    let err = pool.run(&[vec_contains(2, -1), p]).unwrap_err();
    assert!(
        matches!(err, PoolError::MessageTooLarge { index: 1, .. }),
        "{err}"
    );
    // The pool still works afterwards.
    assert_eq!(
        pool.run(&[vec_contains(2, -1)]).unwrap()[0].outcome,
        Outcome::Ok
    );
}

#[test]
fn a_missing_worker_binary_is_reported() {
    let err = Pool::start(PoolConfig::new("/nonexistent/perfsyn-worker".into())).unwrap_err();
    assert!(matches!(err, PoolError::WorkerMissing(_)), "{err}");
}

#[test]
fn a_binary_that_is_not_a_worker_fails_the_handshake() {
    let mut cfg = PoolConfig::new("/bin/true".into());
    cfg.workers = 1;
    let err = Pool::start(cfg).unwrap_err();
    assert!(matches!(err, PoolError::Handshake(_)), "{err}");
}

#[test]
fn pool_is_send() {
    fn send<T: Send>() {}
    send::<Pool>();
}
