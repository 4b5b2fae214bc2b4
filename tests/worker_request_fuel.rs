//! Fuel per request through the real worker: a request's fuel gives exactly the results of a
//! pool configured with that fuel, a smaller one cuts a program into a timeout, and the
//! worker (with its fork server's zygotes) serves the next request without a restart. The
//! fork server remembers a setup that ran out of fuel together with that fuel, so a later
//! request with more fuel runs the program.

mod worker_support;

use perfsyn_profiler_ipc::{Outcome, Pattern, Pool, Program};
use worker_support::*;

const VEC: &str = "Vec<Key>";

fn start(reuse: bool, fuel: u64) -> Pool {
    metered_pool(reuse, 1, fuel)
}

/// A vector of `n` keys (a seam: the fork server builds it once), then `scans` unmeasured
/// `contains` over it (each about n edges), then a measured `dedup`.
fn program(n: u32, scans: u32, pattern: Pattern) -> Program {
    let mut p = Program::default();
    let v = filled(&mut p, VEC, "new", n, pattern, false);
    if scans > 0 {
        key_loop(&mut p, VEC, v, "contains", scans, Pattern::I);
    }
    if n % 2 == 1 {
        call(&mut p, VEC, "sort", v, vec![], false);
    }
    call(&mut p, VEC, "dedup", v, vec![], true);
    p
}

/// Setups that recur (so that zygotes serve them) with endings of growing cost.
fn batch() -> Vec<Program> {
    let mut b = Vec::new();
    for (n, pattern) in [
        (700, Pattern::I),
        (1001, Pattern::Hash(3)),
        (400, Pattern::ModK(5)),
    ] {
        for scans in [0, 1, 3, 10, 0, 2] {
            b.push(program(n, scans, pattern));
        }
    }
    b
}

/// The same programs with the fuel given per request cost exactly what they cost under the
/// pool's fuel (fuel spent included), on the fresh path and with reused setups.
#[test]
fn fuel_per_request_gives_the_results_of_a_fixed_fuel() {
    let batch = batch();
    let fuel = 100_000_000;
    for reuse in [false, true] {
        let want = start(reuse, fuel).run(&batch).unwrap();
        let mut pool = start(reuse, 0);
        let got = pool.run_with_fuel(&batch, fuel).unwrap();
        for (i, (g, w)) in got.iter().zip(&want).enumerate() {
            assert!(w.is_ok(), "program {i}: {:?}", w.outcome);
            assert!(
                w.fuel_spent > w.cost.edges,
                "program {i}: the setup is spent too"
            );
            assert_eq!(
                deterministic(g),
                deterministic(w),
                "program {i}, reuse {reuse}"
            );
        }
        if reuse {
            assert!(pool.stats().setup_reused > 0, "zygotes served some");
        }
    }
}

/// A smaller fuel in one request cuts the costliest program into a timeout, as a pool with
/// that fuel does; the same worker then serves the next request with its full fuel, the
/// program completes at its exact cost, and no worker was restarted.
#[test]
fn a_smaller_request_fuel_is_a_timeout_and_the_worker_lives_on() {
    let cheap = program(2000, 0, Pattern::I);
    let hungry = program(2000, 1500, Pattern::I);
    let full = start(false, 0)
        .run(std::slice::from_ref(&hungry))
        .unwrap()
        .remove(0);
    assert!(full.is_ok());
    let small = full.fuel_spent / 2;
    assert_eq!(
        start(false, small)
            .run(std::slice::from_ref(&hungry))
            .unwrap()[0]
            .outcome,
        Outcome::Timeout,
        "under a pool fuel of {small}"
    );
    let mut pool = start(true, 0);
    // The first `cheap` runs fresh, the second builds the zygote that serves `hungry`.
    let fbs = pool.run(&[cheap.clone(), cheap.clone()]).unwrap();
    assert!(fbs.iter().all(|f| f.is_ok()));
    let cut = pool
        .run_with_fuel(std::slice::from_ref(&hungry), small)
        .unwrap();
    assert_eq!(cut[0].outcome, Outcome::Timeout);
    let again = pool.run(&[hungry.clone(), cheap]).unwrap();
    assert_eq!(deterministic(&again[0]), deterministic(&full));
    assert!(again[1].is_ok());
    assert_eq!(pool.stats().restarts, 0, "{:?}", pool.stats());
    // Served from a setup built before: the cut `hungry` (from `cheap`'s zygote) and the
    // last `cheap`; the second `cheap` and the full `hungry` built their own zygotes.
    assert_eq!(pool.stats().setup_reused, 2, "{:?}", pool.stats());
    // A request fuel above the pool's is the pool's.
    let mut capped = start(true, small);
    let over = capped.run_with_fuel(&[hungry], u64::MAX).unwrap();
    assert_eq!(over[0].outcome, Outcome::Timeout);
}

/// A setup that ran out of fuel in its zygote starves later programs with as little fuel,
/// not those of a request with enough: they run and cost what a fresh run costs.
#[test]
fn a_setup_starved_under_a_small_fuel_runs_under_a_larger_one() {
    // The setup itself is hungry: 1500 scans of 2000 keys, then the measured call.
    let starving = |ending: u32| {
        let mut p = Program::default();
        let v = filled(&mut p, VEC, "new", 2000, Pattern::I, false);
        key_loop(&mut p, VEC, v, "contains", 1500, Pattern::I);
        if ending == 1 {
            call(&mut p, VEC, "sort", v, vec![], false);
        }
        call(&mut p, VEC, "dedup", v, vec![], true);
        p
    };
    let (a, b) = (starving(0), starving(1));
    let want = start(false, 0).run(&[a.clone(), b.clone()]).unwrap();
    assert!(want.iter().all(|f| f.is_ok()));
    let small = want[0].fuel_spent / 4;
    let mut pool = start(true, 0);
    // Seen once (fresh, with the pool's fuel), then a zygote for the setup under the small
    // fuel, which runs out: both programs starting with it are timeouts...
    assert!(pool.run(std::slice::from_ref(&a)).unwrap()[0].is_ok());
    let cut = pool.run_with_fuel(&[a.clone(), b.clone()], small).unwrap();
    assert!(cut.iter().all(|f| f.outcome == Outcome::Timeout), "{cut:?}");
    // ...but with the pool's fuel the setup is built again and serves them.
    let got = pool.run(&[a, b]).unwrap();
    for (i, (g, w)) in got.iter().zip(&want).enumerate() {
        assert_eq!(deterministic(g), deterministic(w), "program {i}");
    }
    assert_eq!(pool.stats().restarts, 0, "{:?}", pool.stats());
    assert!(pool.stats().setup_reused > 0, "{:?}", pool.stats());
}

/// Fuel counts bytes moved: shifting 64,000 keys (512,000 bytes moved by libc, about a
/// hundred edges) spends 8,000 of fuel.
#[test]
fn fuel_counts_bytes_moved() {
    let n = 64_000;
    let with = vec_insert_front(n);
    let mut without = with.clone();
    // The same program up to the insert: its filled vector and the insert's arguments.
    without.body.pop();
    let fbs = start(false, 0).run(&[with, without]).unwrap();
    assert!(fbs.iter().all(|f| f.is_ok()), "{fbs:?}");
    let shift = fbs[0].cost.bytes_moved / perfsyn_profiler_ipc::meter::FUEL_BYTES_PER_EDGE;
    assert!(shift >= n as u64 / 8, "{:?}", fbs[0].cost);
    assert!(fbs[0].cost.edges < shift / 10, "{:?}", fbs[0].cost);
    let delta = fbs[0].fuel_spent - fbs[1].fuel_spent;
    assert!(
        delta >= shift + fbs[0].cost.edges && delta < 2 * shift,
        "the insert spent {delta} of fuel, its shift {shift}: {:?}",
        fbs[0].cost
    );
}

/// `v = []; for i in 0..n { v.insert(0, Key::new(i)) }`: n²/2 keys shifted by libc, far
/// more fuel in bytes moved than in edges.
fn shifted(n: u32) -> (Program, perfsyn_profiler_ipc::Var) {
    use perfsyn_profiler_ipc::{IntTy, Literal, Stmt};
    let mut p = Program::default();
    let v = p.fresh(VEC);
    p.body.push(Stmt::Ctor {
        out: v,
        ty: VEC.into(),
        ctor: "new".into(),
        args: vec![],
    });
    let (zero, x, k) = (p.fresh("usize"), p.fresh("u64"), p.fresh("Key"));
    p.body.push(Stmt::Repeat {
        n,
        body: vec![
            Stmt::Lit {
                out: zero,
                value: Literal::Int {
                    ty: IntTy::Usize,
                    value: 0,
                },
            },
            Stmt::Lit {
                out: x,
                value: Literal::Index {
                    ty: IntTy::U64,
                    pattern: Pattern::I,
                },
            },
            Stmt::Ctor {
                out: k,
                ty: "Key".into(),
                ctor: "new".into(),
                args: vec![x],
            },
            Stmt::Call {
                out: None,
                ty: VEC.into(),
                method: "insert".into(),
                recv: v,
                args: vec![zero, k],
                under_test: false,
            },
        ],
    });
    (p, v)
}

/// A child served from its parent's zygote, whose setup charged more fuel in bytes moved
/// than the worker had counted edges when it started (the fuel's base below zero), runs out
/// of fuel where a fresh run does.
#[test]
fn a_byte_heavy_setup_leaves_its_children_their_fuel() {
    let parent = {
        let (mut p, v) = shifted(8000);
        call(&mut p, VEC, "dedup", v, vec![], true);
        p
    };
    let child = {
        let (mut p, v) = shifted(8000);
        key_loop(&mut p, VEC, v, "contains", 300, Pattern::I);
        call(&mut p, VEC, "dedup", v, vec![], true);
        p
    };
    let full = start(false, 0)
        .run(&[parent.clone(), child.clone()])
        .unwrap();
    assert!(full.iter().all(|f| f.is_ok()));
    assert!(full[0].cost.edges < full[0].fuel_spent / 4, "{:?}", full[0]);
    let fuel = (full[0].fuel_spent + full[1].fuel_spent) / 2;
    let batch = [parent.clone(), parent, child];
    let want = start(false, fuel).run(&batch).unwrap();
    assert_eq!(want[2].outcome, Outcome::Timeout);
    let mut pool = start(true, fuel);
    let got = pool.run(&batch).unwrap();
    for (i, (g, w)) in got.iter().zip(&want).enumerate() {
        assert_eq!(deterministic(g), deterministic(w), "program {i}");
    }
    assert!(pool.stats().setup_reused > 0, "{:?}", pool.stats());
}
