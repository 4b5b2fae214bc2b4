//! Each strategy over an in-memory executor: programs are not run by a worker but costed by
//! a function of what they do, so the search's behaviour is deterministic and fast, and a
//! stall shows as a plain number.
//!
//! The target, `Bag`, holds at most 64 keys and has two methods under test:
//! - `sort`, documented O(n^2) and truly so: costs the comparisons of an insertion sort, so
//!   its worst case (2016 at 64 keys) needs keys in decreasing order, not more keys;
//! - `open`, documented O(1): costs one unit per key, but only once `arm(true)` was called,
//!   a planted bug that needs two mutations (keys and the switch).

use std::collections::HashMap;

use perfsyn::explore::report::ExploreReport;
use perfsyn::explore::{explore, ExploreConfig, OracleKind};
use perfsyn::judge::confirm::ConfirmConfig;
use perfsyn::judge::oracle::asymptotic::{ScoreKind, Thresholds};
use perfsyn::judge::oracle::relative::Direction;
use perfsyn::run::exec::Executor;
use perfsyn::search::{Budget, Metric, SearchConfig, StrategyKind};
use perfsyn_profiler_ipc::{
    register_type, ApiSchema, Cost, Feedback, Literal, Outcome, Program, Registry, Stmt, Var,
};

/// The registered shape of the target (only its schema is used: nothing runs it).
#[derive(Debug, Default)]
pub struct Bag {
    keys: Vec<u64>,
}

impl Bag {
    pub fn new() -> Bag {
        Bag::default()
    }
    pub fn add(&mut self, k: u64) {
        self.keys.push(k);
    }
    pub fn arm(&mut self, _on: bool) {}
    pub fn sort(&mut self) {}
    pub fn open(&self) -> u64 {
        0
    }
}

register_type! {
    pub fn bag() -> Bag {
        path: "Bag",
        imports: [],
        version: None,
        size: [|b| b.keys.len() as u64],
        ctors { new() => Bag::new(); }
        methods {
            add(mut self, k: copy u64) ["O(1)"];
            arm(mut self, on: copy bool) ["O(1)"];
            sort(mut self) ["O(n^2)"];
            open(ref self) -> u64 ["O(1)"];
        }
        fields {}
    }
}

const CAPACITY: usize = 64;

/// Costs programs over `Bag` by interpreting their statements.
struct CostFn {
    schema: ApiSchema,
    ran: u64,
}

#[derive(Default)]
struct State {
    ints: HashMap<Var, i64>,
    bools: HashMap<Var, bool>,
    keys: Vec<i64>,
    armed: bool,
    cost: u64,
    size: u64,
    calls: u32,
}

fn insertion_sort_comparisons(keys: &[i64]) -> u64 {
    let mut k = keys.to_vec();
    let mut n = 0;
    for i in 1..k.len() {
        let mut j = i;
        while j > 0 {
            n += 1;
            if k[j - 1] <= k[j] {
                break;
            }
            k.swap(j - 1, j);
            j -= 1;
        }
    }
    n
}

fn step(s: &mut State, st: &Stmt, index: Option<(i64, i64)>) {
    match st {
        Stmt::Lit { out, value } => match value {
            Literal::Int { value, .. } => {
                s.ints.insert(*out, *value);
            }
            Literal::Index { pattern, .. } => {
                let (i, n) = index.expect("index literal inside a loop");
                s.ints.insert(*out, pattern.eval(i, n));
            }
            Literal::Bool(b) => {
                s.bools.insert(*out, *b);
            }
            _ => {}
        },
        Stmt::Repeat { n, body } => {
            for i in 0..*n as i64 {
                for b in body {
                    step(s, b, Some((i, *n as i64)));
                }
            }
        }
        Stmt::Call {
            method,
            args,
            under_test,
            ..
        } => {
            if *under_test {
                s.size = s.keys.len() as u64;
                s.calls += 1;
            }
            match method.as_str() {
                "add" if s.keys.len() < CAPACITY => {
                    s.keys.push(s.ints.get(&args[0]).copied().unwrap_or(0))
                }
                "arm" => s.armed = s.bools.get(&args[0]).copied().unwrap_or(false),
                "sort" => {
                    if *under_test {
                        s.cost += insertion_sort_comparisons(&s.keys);
                    }
                    s.keys.sort_unstable();
                }
                "open" if *under_test && s.armed => s.cost += s.keys.len() as u64,
                _ => {}
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
        self.ran += programs.len() as u64;
        Ok(programs
            .iter()
            .map(|p| {
                let mut s = State::default();
                for st in &p.body {
                    step(&mut s, st, None);
                }
                Feedback {
                    outcome: Outcome::Ok,
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

fn executor() -> CostFn {
    CostFn {
        schema: Registry::new(vec![bag()]).schema(),
        ran: 0,
    }
}

fn run(method: &str, strategy: StrategyKind, programs: u64, seed: u64) -> ExploreReport {
    let cfg = ExploreConfig {
        method: method.into(),
        strategy,
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
    explore(&mut executor(), &cfg, &mut |_| {}).expect("explore over the cost function")
}

const STRATEGIES: [StrategyKind; 3] =
    [StrategyKind::Astar, StrategyKind::Aco, StrategyKind::Random];

#[test]
fn the_cost_function_is_right() {
    assert_eq!(
        insertion_sort_comparisons(&(0..64).rev().collect::<Vec<_>>()),
        2016
    );
    assert_eq!(insertion_sort_comparisons(&(0..64).collect::<Vec<_>>()), 63);
}

#[test]
fn every_strategy_drives_a_correctly_documented_sort_to_its_worst_case() {
    for strategy in STRATEGIES {
        let r = run("Bag::sort", strategy, 3000, 1);
        let best = r.best.as_ref().expect("a best program");
        assert_eq!(
            best.metric_value,
            2016.0,
            "{}: best reached {} at size {}:\n{}",
            strategy.name(),
            best.metric_value,
            best.input_size,
            best.rust
        );
    }
}

#[test]
fn every_strategy_finds_a_bug_that_needs_two_mutations() {
    for strategy in STRATEGIES {
        let r = run("Bag::open", strategy, 3000, 1);
        let best = r.best.as_ref().expect("a best program");
        // Armed and full: one unit per key, at most 64 keys. (No verdict is asserted: 64
        // keys are too few for the fit's size filter.)
        assert_eq!(
            best.metric_value,
            64.0,
            "{}: the armed full bag was not found:\n{}",
            strategy.name(),
            best.rust
        );
    }
}

#[test]
fn searches_are_deterministic_under_a_program_budget() {
    for strategy in STRATEGIES {
        let a = run("Bag::sort", strategy, 400, 7);
        let b = run("Bag::sort", strategy, 400, 7);
        let (a, b) = (a.best.unwrap(), b.best.unwrap());
        assert_eq!(a.program, b.program, "{}", strategy.name());
        assert_eq!(a.metric_value, b.metric_value);
    }
}
