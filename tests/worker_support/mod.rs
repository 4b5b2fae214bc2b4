//! Shared helpers of the `worker_*` tests: the instrumented worker, a pool, and hand-built
//! programs over the corpus types (the engine never links the corpus, so programs are data).

#![allow(dead_code)]

use std::path::PathBuf;
use std::sync::OnceLock;
use std::time::Duration;

use perfsyn_profiler_ipc::{
    Feedback, IntTy, Literal, Pattern, Pool, PoolConfig, Program, Stmt, Var,
};

/// The instrumented worker, built once per test binary (cached in target/perfsyn-worker).
pub fn worker() -> PathBuf {
    static W: OnceLock<PathBuf> = OnceLock::new();
    W.get_or_init(|| perfsyn::harness::worker_build::ensure_worker(true).expect("build the worker"))
        .clone()
}

/// A pool of `workers` workers with a short deadline and a 1 GiB address-space limit.
pub fn pool(workers: usize, deadline: Duration) -> Pool {
    let mut cfg = PoolConfig::new(worker());
    cfg.workers = workers;
    cfg.deadline = deadline;
    cfg.memory_limit = 1 << 30;
    cfg.shm_size = 4 << 20;
    Pool::start(cfg).expect("start the pool")
}

/// A pool of `workers` workers with fuel and heap metered (256 MiB heap, 20 s backstop),
/// setup reuse on or off: what the worker-path tests compare.
#[allow(dead_code)]
pub fn metered_pool(reuse: bool, workers: usize, fuel: u64) -> Pool {
    rescuing_pool(reuse, true, workers, fuel)
}

/// [`metered_pool`] with the fuel rescue on or off (see `perfsyn_profiler_ipc::rescue`).
pub fn rescuing_pool(reuse: bool, rescue: bool, workers: usize, fuel: u64) -> Pool {
    let mut cfg = PoolConfig::new(worker());
    cfg.fuel_rescue = rescue;
    cfg.workers = workers;
    cfg.deadline = Duration::from_secs(20);
    cfg.memory_limit = 1 << 30;
    cfg.heap_limit = 256 << 20;
    cfg.shm_size = 4 << 20;
    cfg.fuel = fuel;
    cfg.setup_reuse = reuse;
    Pool::start(cfg).expect("start the pool")
}

fn lit_u64(p: &mut Program, v: i64) -> (Var, Stmt) {
    let x = p.fresh("u64");
    (
        x,
        Stmt::Lit {
            out: x,
            value: Literal::Int {
                ty: IntTy::U64,
                value: v,
            },
        },
    )
}

/// Statements that define a `Key` with value `v`; returns the key variable.
pub fn key(p: &mut Program, v: i64) -> Var {
    let (x, s) = lit_u64(p, v);
    p.body.push(s);
    let k = p.fresh("Key");
    p.body.push(Stmt::Ctor {
        out: k,
        ty: "Key".into(),
        ctor: "new".into(),
        args: vec![x],
    });
    k
}

/// `let c = C::ctor(); for i in 0..n { c.<insert>(Key::new(pattern(i)) [, 1u64]) }`.
pub fn filled(
    p: &mut Program,
    ty: &str,
    ctor: &str,
    n: u32,
    pattern: Pattern,
    with_value: bool,
) -> Var {
    let c = p.fresh(ty);
    p.body.push(Stmt::Ctor {
        out: c,
        ty: ty.into(),
        ctor: ctor.into(),
        args: vec![],
    });
    let x = p.fresh("u64");
    let k = p.fresh("Key");
    let mut body = vec![
        Stmt::Lit {
            out: x,
            value: Literal::Index {
                ty: IntTy::U64,
                pattern,
            },
        },
        Stmt::Ctor {
            out: k,
            ty: "Key".into(),
            ctor: "new".into(),
            args: vec![x],
        },
    ];
    let mut args = vec![k];
    if with_value {
        let one = p.fresh("u64");
        body.push(Stmt::Lit {
            out: one,
            value: Literal::Int {
                ty: IntTy::U64,
                value: 1,
            },
        });
        args.push(one);
    }
    body.push(Stmt::Call {
        out: None,
        ty: ty.into(),
        method: if ty.starts_with("Vec") {
            "push"
        } else {
            "insert"
        }
        .into(),
        recv: c,
        args,
        under_test: false,
    });
    p.body.push(Stmt::Repeat { n, body });
    c
}

/// `for i in 0..n { recv.method(Key::new(pattern(i))) }`, not measured.
pub fn key_loop(p: &mut Program, ty: &str, recv: Var, method: &str, n: u32, pattern: Pattern) {
    let x = p.fresh("u64");
    let k = p.fresh("Key");
    let body = vec![
        Stmt::Lit {
            out: x,
            value: Literal::Index {
                ty: IntTy::U64,
                pattern,
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
            ty: ty.into(),
            method: method.into(),
            recv,
            args: vec![k],
            under_test: false,
        },
    ];
    p.body.push(Stmt::Repeat { n, body });
}

/// `recv.method(args)`, measured or not.
pub fn call(p: &mut Program, ty: &str, method: &str, recv: Var, args: Vec<Var>, under_test: bool) {
    p.body.push(Stmt::Call {
        out: None,
        ty: ty.into(),
        method: method.into(),
        recv,
        args,
        under_test,
    });
}

/// `v = [0, 1, .., n-1] as keys; v.contains(&Key::new(absent))` with only `contains` measured.
pub fn vec_contains(n: u32, absent: i64) -> Program {
    let mut p = Program::default();
    let v = filled(&mut p, "Vec<Key>", "new", n, Pattern::I, false);
    let k = key(&mut p, absent);
    call(&mut p, "Vec<Key>", "contains", v, vec![k], true);
    p
}

/// `v = n keys; v.insert(0, Key::new(7))` with only `insert` measured.
pub fn vec_insert_front(n: u32) -> Program {
    let mut p = Program::default();
    let v = filled(&mut p, "Vec<Key>", "new", n, Pattern::I, false);
    let i = p.fresh("usize");
    p.body.push(Stmt::Lit {
        out: i,
        value: Literal::Int {
            ty: IntTy::Usize,
            value: 0,
        },
    });
    let k = key(&mut p, 7);
    call(&mut p, "Vec<Key>", "insert", v, vec![i, k], true);
    p
}

/// A program whose only statement calls method `m` of the hostile target.
pub fn hostile(m: &str) -> Program {
    let mut p = Program::default();
    hostile_call(&mut p, m);
    p
}

/// `Hostile::new().m()`, measured, appended to `p`.
pub fn hostile_call(p: &mut Program, m: &str) {
    let h = hostile_new(p);
    call(p, "Hostile", m, h, vec![], true);
}

/// `let h = Hostile::new();` appended to `p`; returns `h`.
pub fn hostile_new(p: &mut Program) -> Var {
    let h = p.fresh("Hostile");
    p.body.push(Stmt::Ctor {
        out: h,
        ty: "Hostile".into(),
        ctor: "new".into(),
        args: vec![],
    });
    h
}

/// Least-squares slope of log(y) against log(x).
pub fn log_log_slope(points: &[(f64, f64)]) -> f64 {
    let xs: Vec<f64> = points.iter().map(|p| p.0.ln()).collect();
    let ys: Vec<f64> = points.iter().map(|p| p.1.ln()).collect();
    let n = xs.len() as f64;
    let mx = xs.iter().sum::<f64>() / n;
    let my = ys.iter().sum::<f64>() / n;
    let cov: f64 = xs.iter().zip(&ys).map(|(x, y)| (x - mx) * (y - my)).sum();
    let var: f64 = xs.iter().map(|x| (x - mx) * (x - mx)).sum();
    cov / var
}

/// Everything of a feedback record but the clocks: what two paths of one program (fresh and
/// reused setup, first run and cached) must give alike.
pub fn deterministic(f: &Feedback) -> impl std::fmt::Debug + PartialEq {
    (
        f.outcome.clone(),
        f.heap_bytes,
        f.cost.edges,
        f.cost.probe_ops,
        f.cost.bytes_moved,
        f.cost.allocs,
        f.cost.alloc_bytes,
        f.input_size,
        f.calls,
        f.fuel_spent,
    )
}
