//! `perfsyn explore`: one method, one search, one verdict.
//!
//! Resolves the method, picks the oracle (relative for a version group, asymptotic
//! otherwise), finds p0, runs the strategy within the budget, then judges the best program:
//! for the asymptotic oracle on a sweep of the best program's loop sizes (or its path when it
//! has no loop), for the relative oracle on its cost ratio.

pub mod asymptotic;
pub mod memoize;
pub mod oracle;
pub mod relative;
pub mod report;
pub mod runfile;
pub mod rungs;
pub mod toddler;
pub mod versions;

use anyhow::{bail, Result};
use perfsyn_profiler_ipc::print::print;
use perfsyn_profiler_ipc::{ApiSchema, Program, Stmt};
use serde::{Deserialize, Serialize};

use crate::explore::asymptotic::AsymptoticOracle;
use crate::explore::oracle::{Found, Oracle};
use crate::explore::relative::RelativeOracle;
use crate::explore::report::{ExploreReport, TreeSummary};
use crate::harness::spec::MethodRef;
use crate::judge::confirm::ConfirmConfig;
use crate::judge::oracle::asymptotic::{Asymptotic, ScoreKind, Thresholds};
use crate::judge::oracle::relative::{Direction, Relative};
use crate::judge::shrink::ShrinkConfig;
use crate::report::best::BestProgram;
use crate::report::class::Class;
use crate::run::exec::Executor;
use crate::search::initial::{initial_program, Initial};
use crate::search::{Progress, Search, SearchConfig, StrategyKind};

/// Which oracle judges the run.
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    Serialize,
    Deserialize,
    strum::EnumString,
    strum::Display,
    strum::IntoStaticStr,
    strum::VariantArray,
    strum::EnumMessage,
)]
#[serde(rename_all = "lowercase")]
#[strum(serialize_all = "lowercase")]
pub enum OracleKind {
    /// Relative for a method of a version group, asymptotic otherwise.
    Auto,
    Asymptotic,
    Relative,
}

/// Everything `explore` needs besides the executor.
#[derive(Clone, Debug)]
pub struct ExploreConfig {
    pub method: String,
    pub strategy: StrategyKind,
    pub oracle: OracleKind,
    pub score: ScoreKind,
    pub direction: Direction,
    /// t_rel: the smallest cost ratio reported by the relative oracle.
    pub t_rel: f64,
    pub thresholds: Thresholds,
    /// Overrides the declared expected class.
    pub expect: Option<String>,
    pub search: SearchConfig,
    /// An existing program to start from instead of Algorithm 4's p0.
    pub start: Option<Program>,
    /// Wall-clock confirmation of the top programs after the search (`top: 0`: none).
    pub confirm: ConfirmConfig,
    /// Run Toddler's repeated-traversal check on the best programs (`toddler.rs`).
    pub repeated_traversals: bool,
    /// Run MemoizeIt's repeated-computation check on the best program (`memoize.rs`).
    pub repeated_computations: bool,
}

impl ExploreConfig {
    /// A benchmark's run: `budget` programs from `seed`, both directions, t_rel 1.2, default
    /// thresholds, no wall-clock confirmation (its figures must not depend on the clock).
    pub fn bench(
        method: &str,
        strategy: StrategyKind,
        oracle: OracleKind,
        score: ScoreKind,
        seed: u64,
        budget: u64,
    ) -> ExploreConfig {
        ExploreConfig {
            method: method.to_string(),
            strategy,
            oracle,
            score,
            direction: Direction::Both,
            t_rel: 1.2,
            thresholds: Thresholds::default(),
            expect: None,
            search: SearchConfig {
                budget: crate::search::Budget::Programs(budget),
                seed,
                ..SearchConfig::default()
            },
            start: None,
            confirm: ConfirmConfig {
                top: 0,
                ..Default::default()
            },
            repeated_traversals: false,
            repeated_computations: false,
        }
    }
}

/// Runs `explore` with the default shrinking budget. `progress` receives live figures.
pub fn explore(
    exec: &mut dyn Executor,
    cfg: &ExploreConfig,
    progress: &mut dyn FnMut(&Progress),
) -> Result<ExploreReport> {
    explore_with(exec, cfg, ShrinkConfig::default(), progress)
}

/// Runs `explore`; a reported best program is shrunk within `shrink_cfg` (see `shrink.rs`).
///
/// The pipeline, each phase once and in order: [`resolve`] the method and its oracle,
/// [`search`] from p0 within the budget, then the oracle's phases ([`Oracle`]): judge the best
/// program, shrink a reported one, explain the verdict, confirm it on the clock.
pub fn explore_with(
    exec: &mut dyn Executor,
    cfg: &ExploreConfig,
    shrink_cfg: ShrinkConfig,
    progress: &mut dyn FnMut(&Progress),
) -> Result<ExploreReport> {
    let schema = exec.schema().clone();
    let old_schema = exec.old().map(|o| o.schema().clone());
    let (plan, mut report) = resolve(&schema, old_schema.as_ref(), cfg)?;
    let mut last = None;
    let found = search(exec, cfg, &plan, &mut report, &mut |p: &Progress| {
        last = Some(p.clone());
        progress(p)
    })?;
    let Some(found) = found else {
        return Ok(report);
    };
    // The later phases take seconds too: say when each starts, so a run is never silent.
    let mut announce = |phase| {
        if let Some(p) = &last {
            progress(&Progress { phase, ..p.clone() })
        }
    };
    announce(crate::search::Phase::Judge);
    let oracle = plan.oracle.as_ref();
    let mut evidence = oracle.judge(exec, cfg, found, &mut report)?;
    oracle.shrink(exec, cfg, shrink_cfg, &mut evidence, &mut report)?;
    let evidence = oracle.explain(exec, cfg, evidence, &mut report)?;
    announce(crate::search::Phase::Confirm);
    oracle.confirm(exec, cfg, &evidence, &mut report)?;
    Ok(report)
}

/// What [`resolve`] settles before the search: the method and its oracle.
struct Plan<'s> {
    schema: &'s ApiSchema,
    target: MethodRef<'s>,
    oracle: Box<dyn Oracle>,
}

/// Phase 1: resolves the method, picks the oracle and the expected class, and starts the
/// report (verdict `no-initial-program` until the search finds one). `old`: the old version's
/// schema when the executor is a pair (`pair.rs`).
fn resolve<'s>(
    schema: &'s ApiSchema,
    old: Option<&ApiSchema>,
    cfg: &ExploreConfig,
) -> Result<(Plan<'s>, ExploreReport)> {
    let (target, pair) = crate::run::pair::resolve(schema, old, &cfg.method)?;
    let use_relative = match cfg.oracle {
        OracleKind::Auto => pair.is_some(),
        OracleKind::Asymptotic => false,
        OracleKind::Relative => {
            if pair.is_none() {
                bail!("--oracle relative needs a method of a version group (see the versions column of `perfsyn list`) or --baseline REV; {} has none", cfg.method);
            }
            true
        }
    };
    let expected_str = cfg
        .expect
        .clone()
        .or_else(|| target.method.expected.clone());
    let expected = match &expected_str {
        Some(s) => Some(Class::parse(s).ok_or_else(|| {
            anyhow::anyhow!("cannot read the complexity `{s}`; write it like O(1), O(log n), O(n), O(n log n), O(n^2), O(n^3) or O(2^n)")
        })?),
        None => None,
    };
    let (ref_type, new_type) = match &pair {
        Some(p) => (Some(p.old_ty.clone()), Some(p.new_ty.clone())),
        None => (None, None),
    };
    let oracle: Box<dyn Oracle> = if use_relative {
        Box::new(RelativeOracle {
            objective: Relative {
                direction: cfg.direction,
            },
            pair,
        })
    } else {
        Box::new(AsymptoticOracle {
            objective: Asymptotic {
                expected,
                kind: cfg.score,
            },
            expected,
            amortized: expected_str
                .as_deref()
                .is_some_and(crate::judge::amortized::is_amortized),
        })
    };
    let plan = Plan {
        schema,
        target,
        oracle,
    };
    let report = ExploreReport {
        expected,
        ref_type,
        new_type,
        ..ExploreReport::started(
            plan.target.display(),
            plan.target.ty.name.clone(),
            plan.oracle.kind(),
            cfg.strategy,
            cfg.search.seed,
            cfg.search.metric,
        )
    };
    Ok((plan, report))
}

/// Phase 2: finds p0 (or checks `--start`), runs the strategy within the budget, and records
/// the tree, the best programs and the search statistics. `None` when no program ran (the
/// report then says why).
fn search(
    exec: &mut dyn Executor,
    cfg: &ExploreConfig,
    plan: &Plan<'_>,
    report: &mut ExploreReport,
    progress: &mut dyn FnMut(&Progress),
) -> Result<Option<Found>> {
    let target = &plan.target;
    let p0 = match &cfg.start {
        Some(p) => {
            perfsyn_profiler_ipc::check::check(p, plan.schema).map_err(|e| {
                anyhow::anyhow!("the starting program does not fit this worker's API: {e}")
            })?;
            let calls_target = p.body.iter().any(|s| {
                matches!(s, Stmt::Call { ty, method, under_test: true, .. }
                    if *ty == target.ty.name && *method == target.method.name)
            });
            if !calls_target {
                bail!(
                    "the starting program does not call {} under test",
                    target.display()
                );
            }
            p.clone()
        }
        None => match initial_program(exec, target, &cfg.search.mutation)? {
            Initial::Found(p) => p,
            Initial::NotFound(reason) => {
                // A fixed-capacity type that cannot be built at its main capacity: the
                // largest rung of its ladder that can (see `rungs`).
                let on_rung =
                    rungs::initial_on_a_rung(exec, plan.schema, target, &cfg.search.mutation)?;
                let Some((rung, p)) = on_rung else {
                    report.reason = reason;
                    return Ok(None);
                };
                report.ty = rung.ty.name.clone();
                p
            }
        },
    };
    let mut search = Search::new(
        exec,
        plan.oracle.objective(),
        cfg.search.clone(),
        plan.oracle.runs_pairs(),
    );
    search.on_progress(|p| progress(p));
    if !search.root(p0)? {
        report.reason = "the initial program does not run".into();
        report.stats = search.stats.clone();
        return Ok(None);
    }
    let mut strategy = cfg.strategy.build();
    search.run(strategy.as_mut())?;

    // Summaries of the tree.
    let mut hist = vec![0usize; (cfg.search.max_depth + 1) as usize];
    for n in &search.nodes {
        hist[n.depth as usize] += 1;
    }
    while hist.len() > 1 && hist.last() == Some(&0) {
        hist.pop();
    }
    report.tree = TreeSummary {
        nodes: search.nodes.len(),
        depth_histogram: hist,
        learning_top: search.learn.top(10),
    };
    let ranked = search.best_nodes(cfg.search.keep_best.max(1));
    let describe = |id: usize, s: &Search<'_>| -> Result<BestProgram> {
        let n = &s.nodes[id];
        let printed = print(&n.program, &s.schema)
            .map_err(|e| anyhow::anyhow!("cannot print the best program: {e}"))?;
        Ok(BestProgram {
            rust: printed.body,
            mutations: n.depth as usize,
            path: s.path_mutations(id).iter().map(|m| m.describe()).collect(),
            input_size: n.obs.size,
            cost: n.obs.cost,
            cost_ref: n.obs.cost_ref,
            metric_value: n.obs.cost,
            found_ms: Some(n.found_ms),
            score: n.score,
            program: n.program.clone(),
            feedback: Some(n.feedback.clone()),
            feedback_ref: n.feedback_ref.clone(),
            statements: n.program.len(),
            shrunk_from: None,
        })
    };
    let best_id = ranked[0];
    report.best = Some(describe(best_id, &search)?);
    for id in &ranked[1..] {
        report.others.push(describe(*id, &search)?);
    }
    let best_obs = search.nodes[best_id].obs;
    let path_points: Vec<(u64, f64)> = search
        .path_obs(best_id)
        .iter()
        .map(|o| (o.size, o.cost))
        .collect();
    let ref_points: Vec<(u64, f64)> = search
        .path_obs(best_id)
        .iter()
        .filter_map(|o| Some((o.size, o.cost_ref?)))
        .collect();
    let best_program = search.nodes[best_id].program.clone();
    let needs = plan.oracle.needs(cfg);
    let path_programs = if needs.path_programs {
        search.path_programs(best_id)
    } else {
        Vec::new()
    };
    let side_ids = crate::search::sides::pick(search.nodes.iter().map(|n| n.obs).enumerate());
    if needs.observations {
        report.observations = search.nodes.iter().map(|n| n.obs).collect();
    }
    let side_programs = if needs.sides {
        Some((
            side_ids.0.map(|id| describe(id, &search)).transpose()?,
            side_ids.1.map(|id| describe(id, &search)).transpose()?,
        ))
    } else {
        None
    };
    let widest = crate::judge::verdict_program::widest(&search.nodes, best_id)
        .filter(|_| needs.widest)
        .map(|id| -> Result<_> {
            let pts = search
                .path_obs(id)
                .iter()
                .map(|o| (o.size, o.cost))
                .collect();
            Ok((describe(id, &search)?, search.nodes[id].obs, pts))
        })
        .transpose()?;
    report.stats = search.stats.clone();
    Ok(Some(Found {
        best_obs,
        path_points,
        ref_points,
        best_program,
        path_programs,
        side_programs,
        widest,
    }))
}
