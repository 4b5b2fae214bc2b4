//! A target that draws randomness from the operating system costs the same on every run of
//! the same program, in any worker, before and after other programs: the worker serves
//! `getrandom` and `syscall(SYS_getrandom)` from a stream that restarts with each program,
//! and runs programs on threads of their own once one has drawn (see `entropy`).
//!
//! Without it, `Hostile::random_work` costs the low 10 bits of a hash under a `RandomState`
//! seeded by the kernel (and bumped by every `RandomState` the thread made before), so two
//! runs agree about once in a thousand.

mod worker_support;

use perfsyn_profiler_ipc::{Feedback, Outcome, Program, Stmt};
use worker_support::*;

/// `Hostile::new(); for _ in 0..n { h.noop() }; h.m()` with `m` measured: a program with a
/// setup (a loop before the call), which a zygote serves from its second sighting.
fn after_setup(m: &str, n: u32) -> Program {
    let mut p = Program::default();
    let h = hostile_new(&mut p);
    p.body.push(Stmt::Repeat {
        n,
        body: vec![Stmt::Call {
            out: None,
            ty: "Hostile".into(),
            method: "noop".into(),
            recv: h,
            args: vec![],
            under_test: false,
        }],
    });
    call(&mut p, "Hostile", m, h, vec![], true);
    p
}

fn ops(fbs: &[Feedback]) -> Vec<u64> {
    for fb in fbs {
        assert_eq!(fb.outcome, Outcome::Ok, "{fb:?}");
        assert_eq!(fb.calls, 1);
    }
    fbs.iter().map(|f| f.cost.probe_ops).collect()
}

#[test]
fn randomness_a_target_draws_is_the_same_on_every_run() {
    let a = hostile("random_work");
    let b = hostile("random_work_syscall");
    let s = after_setup("random_work", 300);
    let t = after_setup("random_work_syscall", 300);
    let batch = [
        a.clone(),
        b.clone(),
        a.clone(),
        s.clone(),
        s.clone(),
        t.clone(),
        t.clone(),
        s,
        t,
        b,
        a,
    ];
    let mut runs = Vec::new();
    for _ in 0..2 {
        // Setup reuse on: the zygote path serves the looped programs' later sightings.
        let mut pool = metered_pool(true, 1, u64::MAX);
        runs.push(ops(&pool.run(&batch).unwrap()));
    }
    let first = &runs[0];
    // Each program costs the same at every position, in both workers.
    for (i, j) in [(0, 2), (0, 10), (1, 9), (3, 4), (3, 7), (5, 6), (5, 8)] {
        assert_eq!(first[i], first[j], "programs {i} and {j}: {first:?}");
    }
    assert_eq!(runs[0], runs[1]);
    // The setup's loop draws nothing: a program with it draws what the one without does.
    assert_eq!(first[0], first[3]);
    assert_eq!(first[1], first[5]);
}
