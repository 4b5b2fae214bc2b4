//! Setup reuse (the worker's fork server) gives exactly the results of rebuilding every
//! setup: the same outcomes and the same deterministic costs, over programs that share
//! setups, extend them (served from the longest cached setup they start with), differ after
//! them, panic, crash, run out of fuel or memory.

mod worker_support;

use perfsyn_profiler_ipc::{Feedback, IntTy, Literal, Pattern, Pool, Program, Stmt};
use worker_support::*;

const VEC: &str = "Vec<Key>";
const HASH: &str = "HashMap<Key,u64,FixedState>";

fn start(reuse: bool, workers: usize, fuel: u64) -> Pool {
    metered_pool(reuse, workers, fuel)
}

fn usize_lit(p: &mut Program, v: i64) -> perfsyn_profiler_ipc::Var {
    let i = p.fresh("usize");
    p.body.push(Stmt::Lit {
        out: i,
        value: Literal::Int {
            ty: IntTy::Usize,
            value: v,
        },
    });
    i
}

/// A setup (a filled vector, or a filled map and a vector) followed by one of several
/// endings: the same setup recurs with different endings, as children of a search node.
fn program(setup: u32, ending: u32) -> Program {
    let mut p = Program::default();
    let (n, pattern) = match setup % 4 {
        0 => (300, Pattern::Hash(7)),
        1 => (700, Pattern::I),
        2 => (400, Pattern::ModK(5)),
        _ => (1000, Pattern::Hash(3)),
    };
    let v = filled(&mut p, VEC, "new", n, pattern, false);
    if setup % 3 == 2 {
        // A second large loop: the seam follows the last one.
        let m = filled(&mut p, HASH, "default", 500, Pattern::Hash(11), true);
        let k = key(&mut p, 42);
        call(&mut p, HASH, "remove", m, vec![k], ending % 2 == 0);
    }
    match ending % 7 {
        0 => call(&mut p, VEC, "dedup", v, vec![], true),
        1 => {
            let k = key(&mut p, ending as i64);
            call(&mut p, VEC, "push", v, vec![k], false);
            call(&mut p, VEC, "sort", v, vec![], true);
        }
        2 => {
            let k = key(&mut p, -1);
            call(&mut p, VEC, "contains", v, vec![k], true);
        }
        3 => {
            let i = usize_lit(&mut p, 0);
            let k = key(&mut p, 9);
            call(&mut p, VEC, "insert", v, vec![i, k], true);
        }
        4 => {
            // Panics: index out of bounds.
            let i = usize_lit(&mut p, 1 << 40);
            p.body.push(Stmt::Call {
                out: None,
                ty: VEC.into(),
                method: "remove".into(),
                recv: v,
                args: vec![i],
                under_test: true,
            });
        }
        5 => {
            call(&mut p, VEC, "sort", v, vec![], false);
            call(&mut p, VEC, "dedup", v, vec![], true);
        }
        _ => {
            // Many measured calls: runs out of fuel under a small budget.
            p.body.push(Stmt::Repeat {
                n: 3000,
                body: vec![Stmt::Call {
                    out: None,
                    ty: VEC.into(),
                    method: "sort".into(),
                    recv: v,
                    args: vec![],
                    under_test: true,
                }],
            });
        }
    }
    p
}

/// A setup followed by a call of a hostile target.
fn hostile_after_setup(method: &str) -> Program {
    let mut p = Program::default();
    filled(&mut p, VEC, "new", 500, Pattern::Hash(5), false);
    hostile_call(&mut p, method);
    p
}

fn compare(batch: &[Program], fuel: u64, workers: usize) -> (u64, Vec<Feedback>) {
    let mut reuse = start(true, workers, fuel);
    let got = reuse.run(batch).unwrap();
    let mut fresh = start(false, 1, fuel);
    let want = fresh.run(batch).unwrap();
    assert_eq!(fresh.stats().setup_reused, 0);
    for (i, (g, w)) in got.iter().zip(&want).enumerate() {
        assert_eq!(
            deterministic(g),
            deterministic(w),
            "program {i} differs with setup reuse: {:?}",
            batch[i]
        );
    }
    (reuse.stats().setup_reused, want)
}

#[test]
fn reused_setups_cost_exactly_what_fresh_ones_do() {
    // Five setups, each with all endings but the fuel-hungry one: first grouped by setup
    // (siblings), then interleaved (more setups than a worker keeps).
    let mut batch: Vec<Program> = (0..40).map(|i| program(i / 8, i % 6)).collect();
    batch.extend((0..12).map(|i| program(i % 5, (i + 2) % 6)));
    let (reused, want) = compare(&batch, 0, 2);
    assert!(reused >= 10, "only {reused} programs reused a setup");
    assert!(want.iter().any(|f| f.is_ok()));
    assert!(want
        .iter()
        .any(|f| matches!(f.outcome, perfsyn_profiler_ipc::Outcome::Panic { .. })));
}

#[test]
fn fuel_runs_out_at_the_same_place_with_reused_setups() {
    // 1.5M edges: every setup fits, the 3000 measured sorts do not.
    let batch: Vec<Program> = (0..12)
        .map(|i| program(i / 6, [0, 1, 2, 3, 5, 6][i as usize % 6]))
        .collect();
    let (reused, want) = compare(&batch, 1_500_000, 2);
    assert!(reused > 0);
    assert!(want
        .iter()
        .any(|f| f.outcome == perfsyn_profiler_ipc::Outcome::Timeout));
    assert!(want.iter().any(|f| f.is_ok()));
}

#[test]
fn hostile_calls_after_a_reused_setup_are_classified_as_fresh_ones() {
    // One worker, so the three programs before the first death surely share a zygote.
    let batch: Vec<Program> = [
        "noop",
        "noop",
        "noop",
        "panic",
        "noop",
        "abort",
        "null_write",
        "exit0",
        "alloc_64gib",
        "recurse_forever",
        "noop",
    ]
    .iter()
    .map(|m| hostile_after_setup(m))
    .collect();
    let (reused, _) = compare(&batch, 0, 1);
    assert!(reused > 0);
}

/// Whether `p` completes within `fuel` on the fresh path (one worker, no reuse).
fn completes_fresh(p: &Program, fuel: u64) -> bool {
    let mut pool = start(false, 1, fuel);
    pool.run(std::slice::from_ref(p)).unwrap()[0].is_ok()
}

#[test]
fn the_last_edge_of_fuel_is_the_same_with_reused_setups() {
    // The least fuel the program completes with on the fresh path, to the edge...
    let p = program(0, 1);
    let (mut lo, mut hi) = (1u64, 1u64 << 26);
    assert!(completes_fresh(&p, hi) && !completes_fresh(&p, lo));
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if completes_fresh(&p, mid) {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    // ...is the least it completes with when its setup is reused: a zygote's and a child's
    // own work is not charged to the program. `q` shares the setup and costs less: the first
    // `q` runs fresh, the second builds the zygote, and `p` is served from it.
    let q = program(0, 2);
    for (fuel, ok) in [(hi, true), (lo, false)] {
        let mut pool = start(true, 1, fuel);
        let fbs = pool.run(&[q.clone(), q.clone(), p.clone()]).unwrap();
        assert!(fbs[0].is_ok() && fbs[1].is_ok(), "fuel {fuel}: {fbs:?}");
        assert_eq!(fbs[2].is_ok(), ok, "fuel {fuel}: {:?}", fbs[2].outcome);
        if ok {
            assert_eq!(pool.stats().setup_reused, 1);
        } else {
            assert_eq!(fbs[2].outcome, perfsyn_profiler_ipc::Outcome::Timeout);
        }
    }
}

/// A search-like family: a root setup (a vector grown by one or two loops) and generations of
/// children that append a loop to their parent's setup (another count, pattern or method),
/// scale its last loop, or only change the calls after it.
fn family(seed: u64, generations: usize) -> Vec<Program> {
    // A small deterministic generator (xorshift), so that a failure names its seed.
    let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut next = move |m: u64| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x % m
    };
    let patterns = [
        Pattern::I,
        Pattern::NMinusI,
        Pattern::ModK(4),
        Pattern::Hash(1),
    ];
    // A setup is a list of loops (count, pattern, method); programs end with one of the
    // endings of `ending`.
    type Setup = Vec<(u32, usize, &'static str)>;
    let build = |setup: &Setup, ending: u64| {
        let mut p = Program::default();
        let v = p.fresh(VEC);
        p.body.push(Stmt::Ctor {
            out: v,
            ty: VEC.into(),
            ctor: "new".into(),
            args: vec![],
        });
        for &(n, pat, method) in setup {
            key_loop(&mut p, VEC, v, method, n, patterns[pat]);
        }
        match ending % 4 {
            0 => call(&mut p, VEC, "dedup", v, vec![], true),
            1 => {
                call(&mut p, VEC, "sort", v, vec![], false);
                call(&mut p, VEC, "dedup", v, vec![], true);
            }
            2 => {
                let k = key(&mut p, ending as i64);
                call(&mut p, VEC, "contains", v, vec![k], true);
            }
            _ => {
                let k = key(&mut p, 3);
                call(&mut p, VEC, "push", v, vec![k], false);
                call(&mut p, VEC, "dedup", v, vec![], true);
            }
        }
        p
    };
    let methods = ["push", "push", "contains"];
    let mut parents: Vec<Setup> = vec![vec![(256 + next(800) as u32, 0, "push")]];
    let mut out = Vec::new();
    for _ in 0..generations {
        let parent = parents[next(parents.len() as u64) as usize].clone();
        for _ in 0..6 {
            let mut child = parent.clone();
            match next(4) {
                0 if child.len() < 3 => child.push((
                    256 + next(700) as u32,
                    next(4) as usize,
                    methods[next(3) as usize],
                )),
                1 => {
                    let last = child.last_mut().expect("a setup has a loop");
                    last.0 = (last.0 / 2).max(256) + next(300) as u32;
                }
                _ => {}
            }
            out.push(build(&child, next(8)));
            out.push(build(&parent, next(8)));
            parents.push(child);
        }
    }
    out
}

#[test]
fn programs_extending_cached_setups_cost_exactly_what_fresh_ones_do() {
    let timeout = |f: &Feedback| f.outcome == perfsyn_profiler_ipc::Outcome::Timeout;
    for seed in [1, 2] {
        let batch = family(seed, 6);
        // A fuel budget that some programs of the family run out of (fuel is deterministic:
        // the first of these that splits the family always does).
        let fuel = [300_000, 1_000_000, 3_000_000, 10_000_000]
            .into_iter()
            .find(|&fuel| {
                let fb = start(false, 1, fuel).run(&batch).unwrap();
                fb.iter().any(timeout) && fb.iter().any(Feedback::is_ok)
            })
            .expect("a fuel budget that splits the family");
        // One worker sees every program (the most reuse), two split them; unmetered, and
        // metered so that some programs time out.
        for (workers, fuel) in [(1, 0), (2, 0), (1, fuel)] {
            let (reused, want) = compare(&batch, fuel, workers);
            // A timeout on the fresh path costs the runner (see `rescue`), and its zygotes.
            let least = if fuel == 0 { batch.len() / 4 } else { 1 };
            assert!(
                reused as usize >= least,
                "seed {seed}, {workers} workers, fuel {fuel}: only {reused} of {} programs reused a setup",
                batch.len()
            );
            if fuel == 0 {
                assert!(want.iter().all(Feedback::is_ok), "seed {seed}: {want:?}");
            }
        }
    }
}

#[test]
fn programs_starting_with_a_setup_that_ran_out_of_fuel_time_out_as_fresh_ones() {
    // A parent fills a vector with 2000 keys; its starving children then scan it 1500 times
    // (millions of edges) before the measured call: under 2M edges they run out of fuel. The
    // first is served from the parent's zygote (its child runs out), the second builds a
    // zygote for its own setup (which runs out), the others start with that setup.
    let parent = |ending: u32| {
        let mut p = Program::default();
        let v = filled(&mut p, VEC, "new", 2000, Pattern::I, false);
        (p, v, ending)
    };
    let finish = |(mut p, v, ending): (Program, perfsyn_profiler_ipc::Var, u32)| {
        if ending % 2 == 1 {
            call(&mut p, VEC, "sort", v, vec![], false);
        }
        call(&mut p, VEC, "dedup", v, vec![], true);
        p
    };
    let starving = |ending: u32| {
        let (mut p, v, _) = parent(ending);
        key_loop(&mut p, VEC, v, "contains", 1500, Pattern::I);
        finish((p, v, ending))
    };
    let mut batch = vec![finish(parent(0)), finish(parent(1))];
    batch.extend((0..6).flat_map(|i| [starving(i), finish(parent(i))]));
    let mut reuse = start(true, 1, 2_000_000);
    let got = reuse.run(&batch).unwrap();
    // The reference runs every program in the worker itself (no fuel rescue either).
    let mut fresh = rescuing_pool(false, false, 1, 2_000_000);
    let want = fresh.run(&batch).unwrap();
    for (i, (g, w)) in got.iter().zip(&want).enumerate() {
        assert_eq!(deterministic(g), deterministic(w), "program {i}");
        let timeout = w.outcome == perfsyn_profiler_ipc::Outcome::Timeout;
        assert_eq!(
            timeout,
            i >= 2 && i % 2 == 0,
            "program {i}: {:?}",
            w.outcome
        );
    }
    // Fresh and without the fuel rescue, each timeout costs the worker; with reuse, the
    // worker lives on.
    assert_eq!(fresh.stats().restarts, 6);
    assert_eq!(reuse.stats().restarts, 0);
}

#[test]
fn children_extending_a_setup_seen_once_share_it() {
    // A parent's setup runs once (its own program), then each child appends a loop of its
    // own to it: no child's setup recurs, but they all start with the parent's, which the
    // worker then builds once in a zygote for the first child and reuses for the others.
    // Costly enough for a zygote (forkserver::MIN_SETUP_FUEL).
    let (root, children) =
        parent_and_children(100_000, 6, |i| if i % 2 == 0 { "push" } else { "contains" });
    let batch: Vec<Program> = std::iter::once(root).chain(children).collect();
    let (reused, want) = compare(&batch, 0, 1);
    assert!(want.iter().all(Feedback::is_ok), "{want:?}");
    // The first child starts the parent's zygote; the five others are served from it.
    assert_eq!(reused, 5, "the parent spent {} fuel", want[0].fuel_spent);
}

#[test]
fn workers_share_which_setups_ran() {
    // The parent runs alone on one worker; its eight children (each appending a loop of its
    // own to the parent's setup) are then spread over both workers. Each worker starts a
    // zygote for the parent's setup on its first child, the one that never ran the parent
    // too (it learns from the table the workers share that the setup ran), and serves the
    // other children from it.
    // Costly enough for a zygote (forkserver::MIN_SETUP_FUEL).
    let (root, children) = parent_and_children(100_000, 8, |_| "push");
    let mut reuse = start(true, 2, 0);
    reuse.run(std::slice::from_ref(&root)).unwrap();
    let got = reuse.run(&children).unwrap();
    let want = start(false, 1, 0).run(&children).unwrap();
    for (i, (g, w)) in got.iter().zip(&want).enumerate() {
        assert!(w.is_ok(), "child {i}: {:?}", w.outcome);
        assert_eq!(deterministic(g), deterministic(w), "child {i}");
    }
    assert_eq!(reuse.stats().setup_reused, 6);
}

#[test]
fn children_extending_a_cheap_setup_seen_once_run_fresh() {
    // As above with a parent whose program spends less than forkserver::MIN_SETUP_FUEL: a
    // zygote would cost more than rebuilding its setup, so every child runs fresh.
    let (root, children) = parent_and_children(300, 6, |_| "push");
    let batch: Vec<Program> = std::iter::once(root).chain(children).collect();
    let (reused, want) = compare(&batch, 0, 1);
    assert!(want.iter().all(Feedback::is_ok), "{want:?}");
    assert!(want[0].fuel_spent < 2_000_000, "{}", want[0].fuel_spent);
    assert_eq!(reused, 0);
}

/// A parent program (a vector filled with `fill` keys, `dedup` under test) and `n` children,
/// each appending a loop of its own (calls of `method(i)`) to the parent's setup.
fn parent_and_children(
    fill: u32,
    n: u32,
    method: fn(u32) -> &'static str,
) -> (Program, Vec<Program>) {
    let parent = || {
        let mut p = Program::default();
        let v = filled(&mut p, VEC, "new", fill, Pattern::I, false);
        (p, v)
    };
    let (mut root, v) = parent();
    call(&mut root, VEC, "dedup", v, vec![], true);
    let children = (0..n)
        .map(|i| {
            let (mut p, v) = parent();
            key_loop(
                &mut p,
                VEC,
                v,
                method(i),
                300 + 40 * i,
                Pattern::ModK(3 + i),
            );
            call(&mut p, VEC, "dedup", v, vec![], true);
            p
        })
        .collect();
    (root, children)
}
