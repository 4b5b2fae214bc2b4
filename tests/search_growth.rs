//! Growth the search must find although no single mutation is rewarded for it, over an
//! in-memory executor (programs are costed by a function of what they do, as in
//! `search_in_memory.rs`), with the small per-method budget of a hunt.
//!
//! The target, `Slots`, is a sparse set: `with_capacity(n)` and `insert(k)`, which panics
//! when `k >= n` (sparseset's `insert` asserts `key < capacity`). Its input only grows when
//! the capacity and the keys grow together. `Wide` has many methods that read it and one,
//! `push`, that grows it: sampled among the others, the growing loop is rarely tried.
//! `Leafy` costs a lookup one way up to a leaf's size and another way above it.

use std::collections::{HashMap, HashSet};

use perfsyn::explore::report::ExploreReport;
use perfsyn::explore::{explore, ExploreConfig, OracleKind};
use perfsyn::judge::confirm::ConfirmConfig;
use perfsyn::judge::oracle::asymptotic::{ScoreKind, Thresholds};
use perfsyn::judge::oracle::relative::Direction;
use perfsyn::report::class::Class;
use perfsyn::report::verdict::Verdict;
use perfsyn::run::exec::Executor;
use perfsyn::search::{Budget, Metric, SearchConfig, StrategyKind};
use perfsyn_profiler_ipc::{
    register_type, ApiSchema, Cost, Feedback, Literal, Outcome, Program, Registry, Stmt, Var,
};

/// The registered shape of the target (only its schema is used: nothing runs it).
#[derive(Debug, Default)]
pub struct Slots {
    keys: Vec<usize>,
}

impl Slots {
    pub fn with_capacity(_n: usize) -> Slots {
        Slots::default()
    }
    pub fn insert(&mut self, k: usize) {
        self.keys.push(k);
    }
    pub fn get(&self, _k: usize) -> bool {
        false
    }
    pub fn contains(&self, _k: usize) -> bool {
        false
    }
}

register_type! {
    pub fn slots() -> Slots {
        path: "Slots",
        imports: [],
        version: None,
        size: [|s| s.keys.len() as u64],
        ctors { with_capacity(n: copy usize) => Slots::with_capacity(n); }
        methods {
            insert(mut self, k: copy usize) ["O(1)"];
            get(ref self, k: copy usize) -> bool ["O(1)"];
            contains(ref self, k: copy usize) -> bool ["O(1)"];
        }
        fields {}
    }
}

/// A type with many methods that read it and one that grows it (ropey's `Rope` has 135
/// registered methods, a handful of them mutating).
#[derive(Debug, Default)]
pub struct Wide {
    keys: Vec<usize>,
}

impl Wide {
    pub fn new() -> Wide {
        Wide::default()
    }
    pub fn push(&mut self, k: usize) {
        self.keys.push(k);
    }
    pub fn r0(&self, _a: usize, _b: usize, _c: usize) -> usize {
        self.keys.len()
    }
    pub fn r1(&self, _a: usize, _b: usize, _c: usize) -> usize {
        self.keys.len()
    }
    pub fn r2(&self, _a: usize, _b: usize, _c: usize) -> usize {
        self.keys.len()
    }
    pub fn r3(&self, _a: usize, _b: usize, _c: usize) -> usize {
        self.keys.len()
    }
    pub fn r4(&self, _a: usize, _b: usize, _c: usize) -> usize {
        self.keys.len()
    }
    pub fn r5(&self, _a: usize, _b: usize, _c: usize) -> usize {
        self.keys.len()
    }
    pub fn r6(&self, _a: usize, _b: usize, _c: usize) -> usize {
        self.keys.len()
    }
    pub fn r7(&self, _a: usize, _b: usize, _c: usize) -> usize {
        self.keys.len()
    }
    pub fn r8(&self, _a: usize, _b: usize, _c: usize) -> usize {
        self.keys.len()
    }
    pub fn r9(&self, _a: usize, _b: usize, _c: usize) -> usize {
        self.keys.len()
    }
    pub fn r10(&self, _a: usize, _b: usize, _c: usize) -> usize {
        self.keys.len()
    }
    pub fn r11(&self, _a: usize, _b: usize, _c: usize) -> usize {
        self.keys.len()
    }
    pub fn r12(&self, _a: usize, _b: usize, _c: usize) -> usize {
        self.keys.len()
    }
    pub fn r13(&self, _a: usize, _b: usize, _c: usize) -> usize {
        self.keys.len()
    }
    pub fn r14(&self, _a: usize, _b: usize, _c: usize) -> usize {
        self.keys.len()
    }
    pub fn r15(&self, _a: usize, _b: usize, _c: usize) -> usize {
        self.keys.len()
    }
}

register_type! {
    pub fn wide() -> Wide {
        path: "Wide",
        imports: [],
        version: None,
        size: [|s| s.keys.len() as u64],
        ctors { new() => Wide::new(); }
        methods {
            push(mut self, k: copy usize);
            r0(ref self, a: copy usize, b: copy usize, c: copy usize) -> usize ["O(1)"];
            r1(ref self, a: copy usize, b: copy usize, c: copy usize) -> usize ["O(1)"];
            r2(ref self, a: copy usize, b: copy usize, c: copy usize) -> usize ["O(1)"];
            r3(ref self, a: copy usize, b: copy usize, c: copy usize) -> usize ["O(1)"];
            r4(ref self, a: copy usize, b: copy usize, c: copy usize) -> usize ["O(1)"];
            r5(ref self, a: copy usize, b: copy usize, c: copy usize) -> usize ["O(1)"];
            r6(ref self, a: copy usize, b: copy usize, c: copy usize) -> usize ["O(1)"];
            r7(ref self, a: copy usize, b: copy usize, c: copy usize) -> usize ["O(1)"];
            r8(ref self, a: copy usize, b: copy usize, c: copy usize) -> usize ["O(1)"];
            r9(ref self, a: copy usize, b: copy usize, c: copy usize) -> usize ["O(1)"];
            r10(ref self, a: copy usize, b: copy usize, c: copy usize) -> usize ["O(1)"];
            r11(ref self, a: copy usize, b: copy usize, c: copy usize) -> usize ["O(1)"];
            r12(ref self, a: copy usize, b: copy usize, c: copy usize) -> usize ["O(1)"];
            r13(ref self, a: copy usize, b: copy usize, c: copy usize) -> usize ["O(1)"];
            r14(ref self, a: copy usize, b: copy usize, c: copy usize) -> usize ["O(1)"];
            r15(ref self, a: copy usize, b: copy usize, c: copy usize) -> usize ["O(1)"];
        }
        fields {}
    }
}

/// A B-tree-like text: up to [`LEAF`] keys one leaf that lookups scan, then leaves under an
/// index (ropey's `Rope`, ~1 KB leaves). `find` costs the scan of one leaf, then a descent
/// (documented O(log n), truly so at large sizes); `scan` is a planted bug: above the leaf
/// size it still costs a tenth of the keys, documented O(log n).
#[derive(Debug, Default)]
pub struct Leafy {
    keys: Vec<usize>,
}

impl Leafy {
    pub fn new() -> Leafy {
        Leafy::default()
    }
    pub fn push(&mut self, k: usize) {
        self.keys.push(k);
    }
    pub fn find(&self, _k: usize) -> bool {
        false
    }
    pub fn scan(&self, _k: usize) -> bool {
        false
    }
}

register_type! {
    pub fn leafy() -> Leafy {
        path: "Leafy",
        imports: [],
        version: None,
        size: [|s| s.keys.len() as u64],
        ctors { new() => Leafy::new(); }
        methods {
            push(mut self, k: copy usize);
            find(ref self, k: copy usize) -> bool ["O(log n)"];
            scan(ref self, k: copy usize) -> bool ["O(log n)"];
        }
        fields {}
    }
}

const LEAF: u64 = 1000;

/// The cost of `method` under test on `n` keys.
fn cost_of(method: &str, n: u64) -> u64 {
    match method {
        "find" if n <= LEAF => 10 + n,
        "find" => 40 + 8 * (64 - n.leading_zeros() as u64),
        "scan" if n <= LEAF => 10 + n,
        "scan" => n / 10,
        _ => 3,
    }
}

struct CostFn {
    schema: ApiSchema,
}

#[derive(Default)]
struct State {
    ints: HashMap<Var, i64>,
    capacity: HashMap<Var, i64>,
    keys: HashMap<Var, HashSet<i64>>,
    cost: u64,
    size: u64,
    calls: u32,
    panicked: Option<u32>,
}

fn step(s: &mut State, top: u32, st: &Stmt, index: Option<(i64, i64)>) {
    if s.panicked.is_some() {
        return;
    }
    match st {
        Stmt::Lit { out, value } => match value {
            Literal::Int { value, .. } => {
                s.ints.insert(*out, *value);
            }
            Literal::Index { pattern, .. } => {
                let (i, n) = index.expect("index literal inside a loop");
                s.ints.insert(*out, pattern.eval(i, n));
            }
            _ => {}
        },
        Stmt::Ctor { out, args, .. } => {
            if let Some(a) = args.first() {
                s.capacity.insert(*out, s.ints.get(a).copied().unwrap_or(0));
            }
            s.keys.insert(*out, HashSet::new());
        }
        Stmt::Repeat { n, body } => {
            for i in 0..*n as i64 {
                for b in body {
                    step(s, top, b, Some((i, *n as i64)));
                }
            }
        }
        Stmt::Call {
            method,
            recv,
            args,
            under_test,
            ..
        } => {
            let k = s.ints.get(&args[0]).copied().unwrap_or(0);
            let cap = s.capacity.get(recv).copied().unwrap_or(i64::MAX);
            let keys = s.keys.entry(*recv).or_default();
            if *under_test {
                s.size = keys.len() as u64;
                s.calls += 1;
                s.cost += cost_of(method, keys.len() as u64);
            }
            if method == "insert" || method == "push" {
                if k >= cap || k < 0 {
                    s.panicked = Some(top);
                    return;
                }
                keys.insert(k);
            }
        }
        _ => {}
    }
}

impl Executor for CostFn {
    fn schema(&self) -> &ApiSchema {
        &self.schema
    }

    fn run(&mut self, programs: &[Program]) -> anyhow::Result<Vec<Feedback>> {
        Ok(programs
            .iter()
            .map(|p| {
                let mut s = State::default();
                for (i, st) in p.body.iter().enumerate() {
                    step(&mut s, i as u32, st, None);
                }
                let outcome = match s.panicked {
                    Some(stmt) => Outcome::Panic {
                        stmt,
                        message: "key out of capacity".into(),
                    },
                    None => Outcome::Ok,
                };
                Feedback {
                    outcome,
                    cost: Cost {
                        probe_ops: s.cost,
                        edges: s.cost,
                        ..Cost::default()
                    },
                    input_size: s.size,
                    heap_bytes: 0,
                    calls: s.calls,
                    hot: Vec::new(),
                    fuel_spent: 0,
                }
            })
            .collect())
    }
}

fn run(method: &str, programs: u64, seed: u64) -> ExploreReport {
    let cfg = ExploreConfig {
        method: method.into(),
        strategy: StrategyKind::Astar,
        oracle: OracleKind::Asymptotic,
        score: ScoreKind::Growth,
        direction: Direction::Both,
        t_rel: 1.2,
        thresholds: Thresholds::default(),
        expect: None,
        search: SearchConfig {
            budget: Budget::Programs(programs),
            seed,
            metric: Metric::ProbeOps,
            ..SearchConfig::default()
        },
        start: None,
        confirm: ConfirmConfig {
            top: 0,
            ..ConfirmConfig::default()
        },
        repeated_traversals: false,
        repeated_computations: false,
    };
    let mut exec = CostFn {
        schema: Registry::new(vec![slots(), wide(), leafy()]).schema(),
    };
    explore(&mut exec, &cfg, &mut |_| {}).expect("explore over the cost function")
}

#[test]
fn a_capacity_grows_with_the_keys_within_a_hunts_budget() {
    for seed in 1..=3 {
        for method in ["Slots::get", "Slots::insert"] {
            let r = run(method, 60, seed);
            let best = r.best.as_ref().expect("a best program");
            assert_eq!(
                r.verdict,
                Verdict::NoBottleneck,
                "{method} seed {seed}: {} (best at size {}):\n{}",
                r.reason,
                best.input_size,
                best.rust
            );
        }
    }
}

#[test]
fn a_type_with_many_readers_grows_within_a_hunts_budget() {
    for seed in 1..=3 {
        for method in ["Wide::r0", "Wide::r7"] {
            let r = run(method, 60, seed);
            let best = r.best.as_ref().expect("a best program");
            assert_eq!(
                r.verdict,
                Verdict::NoBottleneck,
                "{method} seed {seed}: {} (best at size {}):\n{}",
                r.reason,
                best.input_size,
                best.rust
            );
        }
    }
}

#[test]
fn a_change_of_regime_is_judged_above_it_both_ways() {
    let r = run("Leafy::find", 60, 1);
    assert_eq!(r.verdict, Verdict::NoBottleneck, "find: {}", r.reason);
    assert_eq!(r.points_from.label(), "sweep-above-fall", "{}", r.reason);
    assert!(r.points.iter().all(|p| p.0 > LEAF), "{:?}", r.points);
    assert!(r.reason.contains("judged on sizes"), "{}", r.reason);
    // Above the fall the planted linear cost is still a bottleneck.
    let r = run("Leafy::scan", 60, 1);
    assert_eq!(r.verdict, Verdict::Bottleneck, "scan: {}", r.reason);
    assert_eq!(r.empirical.map(Class::label), Some("O(n)"), "{}", r.reason);
}
