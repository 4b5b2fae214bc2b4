//! `perfsyn explore`: one method, one search, one verdict.
//!
//! Resolves the method, picks the oracle (relative for a version group, asymptotic
//! otherwise), finds p0, runs the strategy within the budget, then judges the best program:
//! for the asymptotic oracle on a sweep of the best program's loop sizes (or its path when it
//! has no loop), for the relative oracle on its cost ratio.

pub mod report;
pub mod runfile;
pub mod versions;

use anyhow::{bail, Result};
use perfsyn_profiler_ipc::print::print;
use perfsyn_profiler_ipc::{ApiSchema, Feedback, Program, Stmt};
use serde::{Deserialize, Serialize};

use crate::explore::report::{ExploreReport, TreeSummary};
use crate::harness::spec::MethodRef;
use crate::judge::confirm::{self, ConfirmConfig, ConfirmReport};
use crate::judge::oracle::asymptotic::{
    self, unreliable_reason, Asymptotic, ScoreKind, Thresholds,
};
use crate::judge::oracle::relative::{self, Direction, Relative};
use crate::judge::shrink::{shrink_best, ShrinkConfig};
use crate::report::best::BestProgram;
use crate::report::class::Class;
use crate::report::verdict::Verdict;
use crate::run::exec::Executor;
use crate::run::pair::Versions;
use crate::search::initial::{initial_program, Initial};
use crate::search::objective::{Objective, Obs};
use crate::search::{Progress, Search, SearchConfig, Stats, StrategyKind};

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
/// Four phases in order: [`resolve`] the method and its oracle, [`search`] from p0 within the
/// budget, [`judge`] the best program (shrinking a reported one), [`confirm`] it on the clock.
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
    let sweep = judge(exec, cfg, &plan, shrink_cfg, found, &mut report)?;
    announce(crate::search::Phase::Confirm);
    confirm(exec, cfg, &plan, &sweep, &mut report)?;
    Ok(report)
}

/// What [`resolve`] settles before the search: the method, its pair, and the oracle.
struct Plan<'s> {
    schema: &'s ApiSchema,
    target: MethodRef<'s>,
    pair: Option<Versions>,
    use_relative: bool,
    expected: Option<Class>,
    /// Whether the documented class is amortized (see `amortized`).
    amortized: bool,
    asym: Asymptotic,
    rel: Relative,
}

impl Plan<'_> {
    fn objective(&self) -> &dyn Objective {
        if self.use_relative {
            &self.rel
        } else {
            &self.asym
        }
    }
}

/// What [`search`] hands to [`judge`]: the best program and the figures along its path.
struct Found {
    best_obs: Obs,
    path_points: Vec<(u64, f64)>,
    ref_points: Vec<(u64, f64)>,
    best_program: Program,
    /// The programs of the best one's mutation path, root first: the hot lines' programs when
    /// the verdict's points are the path's (a program without a loop to sweep).
    path_programs: Vec<Program>,
    /// Relative runs with `--direction both`: the largest regression and improvement.
    side_programs: Option<(Option<BestProgram>, Option<BestProgram>)>,
    /// Asymptotic runs: the widest program, its observation and path points, should the
    /// best one give the verdict too few sizes (see `verdict_program`).
    widest: Option<(BestProgram, Obs, Vec<(u64, f64)>)>,
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
    let plan = Plan {
        schema,
        target,
        pair,
        use_relative,
        expected,
        amortized: expected_str
            .as_deref()
            .is_some_and(crate::judge::amortized::is_amortized),
        asym: Asymptotic {
            expected,
            kind: cfg.score,
        },
        rel: Relative {
            direction: cfg.direction,
        },
    };
    let report = ExploreReport {
        method: plan.target.display(),
        ty: plan.target.ty.name.clone(),
        oracle: if plan.use_relative {
            OracleKind::Relative
        } else {
            OracleKind::Asymptotic
        },
        strategy: cfg.strategy.name().to_string(),
        seed: cfg.search.seed,
        metric: cfg.search.metric.name().to_string(),
        verdict: Verdict::NoInitialProgram,
        reason: String::new(),
        expected: expected
            .map(|c| c.label().to_string())
            .or(expected_str.clone()),
        empirical: None,
        fit_error: None,
        ratio: None,
        ref_type: plan.pair.as_ref().map(|p| p.old_ty.clone()),
        new_type: plan.pair.as_ref().map(|p| p.new_ty.clone()),
        time_ratio: None,
        time_significant: None,
        confirmation: None,
        withdrawn_by_clock: false,
        best: None,
        others: Vec::new(),
        points: Vec::new(),
        points_from: "path".into(),
        outliers: Vec::new(),
        sweep_scaled: Vec::new(),
        evidence: None,
        ref_points: Vec::new(),
        sides: None,
        hot_lines: Vec::new(),
        stats: Stats::default(),
        tree: TreeSummary::default(),
        observations: Vec::new(),
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
                report.reason = reason;
                return Ok(None);
            }
        },
    };
    let mut search = Search::new(
        exec,
        plan.objective(),
        cfg.search.clone(),
        plan.use_relative,
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
    let path_programs = if plan.use_relative {
        Vec::new()
    } else {
        search.path_programs(best_id)
    };
    let side_ids = crate::search::sides::pick(search.nodes.iter().map(|n| n.obs).enumerate());
    if plan.use_relative {
        report.observations = search.nodes.iter().map(|n| n.obs).collect();
    }
    let side_programs = if plan.use_relative && cfg.direction == Direction::Both {
        Some((
            side_ids.0.map(|id| describe(id, &search)).transpose()?,
            side_ids.1.map(|id| describe(id, &search)).transpose()?,
        ))
    } else {
        None
    };
    let widest = crate::judge::verdict_program::widest(&search.nodes, best_id)
        .filter(|_| !plan.use_relative)
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

/// Phase 3: the verdict on the best program, by the plan's oracle; a reported program is
/// shrunk. Returns the asymptotic sweep that [`confirm`] times (empty for relative runs).
fn judge(
    exec: &mut dyn Executor,
    cfg: &ExploreConfig,
    plan: &Plan<'_>,
    shrink_cfg: ShrinkConfig,
    found: Found,
    report: &mut ExploreReport,
) -> Result<Vec<Program>> {
    if plan.use_relative {
        judge_relative(exec, cfg, plan, shrink_cfg, found, report)?;
        Ok(Vec::new())
    } else {
        judge_asymptotic(exec, cfg, plan, shrink_cfg, found, report)
    }
}

/// The relative verdict: the cost ratio new/old of the best program (and of each side with
/// `--direction both`, each confirmed on its own) against t_rel.
fn judge_relative(
    exec: &mut dyn Executor,
    cfg: &ExploreConfig,
    plan: &Plan<'_>,
    shrink_cfg: ShrinkConfig,
    found: Found,
    report: &mut ExploreReport,
) -> Result<()> {
    let pair = &plan.pair;
    let metric = cfg.search.metric;
    let Found {
        best_obs,
        path_points,
        ref_points,
        side_programs,
        ..
    } = found;
    let mut ratio = crate::search::objective::ratio(&best_obs);
    let found = relative::passes(ratio, cfg.t_rel, cfg.direction);
    // Shrink a reported program, keeping a ratio past t_rel in the same direction.
    if let (true, Some(best)) = (found, report.best.as_mut()) {
        let (slower, t_rel, dir) = (ratio >= 1.0, cfg.t_rel, cfg.direction);
        shrink_best(exec, best, shrink_cfg, metric, true, &mut |ex, p| {
            let (new, old) = crate::run::exec::run_pairs(ex, std::slice::from_ref(p))?.remove(0);
            let r = (metric.of(&new) + 1.0) / (metric.of(&old) + 1.0);
            let runs = [&new, &old].iter().all(|f| f.is_ok() && f.calls > 0);
            Ok(runs && relative::passes(r, t_rel, dir) && (r >= 1.0) == slower)
        })?;
        ratio = (best.cost + 1.0) / (best.cost_ref.unwrap_or(best.cost) + 1.0);
    }
    report.ratio = Some(ratio);
    report.points = path_points;
    report.ref_points = ref_points;
    let mut found = relative::passes(ratio, cfg.t_rel, cfg.direction);
    report.reason = format!(
        "cost new/old = {ratio:.3} on the best program (threshold t_rel = {})",
        cfg.t_rel
    );
    if let (Some((slower, faster)), Some(pr)) = (side_programs, pair) {
        let ratio_of = |b: &BestProgram| (b.cost + 1.0) / (b.cost_ref.unwrap_or(b.cost) + 1.0);
        let sides = relative::Sides::judge(slower, faster, cfg.t_rel, &ratio_of, &mut |b| {
            if cfg.confirm.top == 0 {
                return Ok(None);
            }
            let jobs = confirm_jobs_relative(&[b], pr, 1);
            let c = confirm::confirm(exec, &jobs, &cfg.confirm)?;
            Ok(c.confirmed.first().map(|x| (x.time_ratio, x.significant)))
        })?;
        found = sides.any_passes();
        report.reason = sides.describe(cfg.t_rel);
        report.sides = Some(sides);
    }
    report.verdict = if found {
        Verdict::Bottleneck
    } else {
        Verdict::NoBottleneck
    };
    Ok(())
}

/// The asymptotic verdict: the complexity class fitted on a sweep of the best program's loop
/// sizes (or on its mutation path when it has no loop) against the documented class.
/// Returns the sweep of the (possibly shrunk) best program.
fn judge_asymptotic(
    exec: &mut dyn Executor,
    cfg: &ExploreConfig,
    plan: &Plan<'_>,
    shrink_cfg: ShrinkConfig,
    found: Found,
    report: &mut ExploreReport,
) -> Result<Vec<Program>> {
    let expected = plan.expected;
    let metric = cfg.search.metric;
    let Found {
        mut best_obs,
        path_points,
        best_program,
        path_programs,
        widest,
        ..
    } = found;
    // Fit on a sweep of the best program's loop sizes when it has loops (its path otherwise),
    // over the heap bytes when the registered size gives no verdict (`size_measure`).
    let (max_loop, t) = (cfg.search.mutation.max_loop, &cfg.thresholds);
    let judge_on = |ex: &mut dyn Executor, p: &Program, o: &Obs, pts| {
        crate::judge::verdict_program::sweep_and_judge(
            ex, p, o.size, pts, max_loop, metric, expected, t,
        )
    };
    let mut s = judge_on(exec, &best_program, &best_obs, path_points)?;
    // No verdict on the best program (too few sizes, scatter): the widest one (see `verdict_program`).
    let mut widened = None;
    if let (false, Some((desc, obs, pts))) = (s.judgement.reliable, widest) {
        let w = judge_on(exec, &desc.program, &obs, pts)?;
        if w.judgement.reliable {
            (s, best_obs, widened, report.best) = (w, obs, Some(obs.size), Some(desc));
        }
    }
    if let (true, true, Some(c)) = (s.judgement.bottleneck, plan.amortized, expected) {
        s = crate::judge::amortized::over_a_sequence(exec, s, metric, c, max_loop, t)?;
    }
    let crate::judge::swept::Swept {
        sweep,
        sweep_fb,
        points,
        points_from,
        judgement: j,
        measure,
        rearranging_note,
        scaled,
    } = s;
    report.points_from = points_from.into();
    // Without a sweep, the points are the best program's path (when it gave the verdict): the
    // hot lines are counted on the path's programs, the sizes the verdict saw.
    let hot_on_path = points_from == "path" && widened.is_none();
    report.points = points;
    report.outliers = j.outliers.clone();
    if points_from.starts_with("sweep") {
        report.sweep_scaled = scaled;
    }
    report.empirical = j.verdict.class.map(|c| c.label().to_string());
    report.fit_error = j.fit.map(|f| f.nrmse);
    let emp = report.empirical.clone().unwrap_or_else(|| "?".into());
    let exp = report
        .expected
        .clone()
        .unwrap_or_else(|| "undeclared".into());
    let ev = j.verdict.evidence.describe();
    let emp = crate::judge::size_measure::name_class(&emp, measure, &sweep_fb);
    (report.verdict, report.reason) = if j.bottleneck {
        (
            Verdict::Bottleneck,
            format!("cost grows as {emp}, documented {exp}"),
        )
    } else if j.reliable {
        match expected {
            Some(_) => (
                Verdict::NoBottleneck,
                format!("cost grows as {emp}, within the documented {exp}"),
            ),
            None => (
                Verdict::Undocumented,
                format!(
                    "no class was documented (judge it with --expect CLASS); cost grows as {emp}"
                ),
            ),
        }
    } else if expected.is_none() {
        // Nothing to judge against: still undocumented, with why no class was measured
        // (petgraph's `NodeIndex::index`, on a value that never grows).
        (
            Verdict::Undocumented,
            format!(
                "no class was documented (judge it with --expect CLASS); no class measured: {} ({ev})",
                unreliable_reason(&j, &cfg.thresholds)
            ),
        )
    } else {
        (
            Verdict::Inconclusive,
            format!("{} ({ev})", unreliable_reason(&j, &cfg.thresholds)),
        )
    };
    if let Some(n) = widened {
        report.reason += &format!(" (judged on the largest input the search reached, size {n}: the best-scoring program gave no verdict)");
    }
    if let Some(note) = rearranging_note {
        report.reason += &format!(" ({note})");
    }
    report.evidence = Some(j.verdict.clone());
    // Shrink a reported program, keeping the class on a re-sweep (or its point without loops).
    let mut sweep = sweep;
    if let (true, Some(best)) = (j.bottleneck, report.best.as_mut()) {
        let (class, size0, cost0) = (j.fit.map(|f| f.class), best_obs.size, best_obs.cost);
        let t = cfg.thresholds;
        shrink_best(exec, best, shrink_cfg, metric, false, &mut |ex, p| {
            let f = ex.run(std::slice::from_ref(p))?.remove(0);
            if !f.is_ok() || f.calls == 0 {
                return Ok(false);
            }
            let sw = crate::judge::sweep::sweep_programs(ex, p, f.input_size, max_loop)?;
            if sw.is_empty() {
                return Ok(f.input_size == size0 && metric.of(&f) >= cost0);
            }
            let pts = crate::judge::size_measure::points(&ex.run(&sw)?, measure, metric);
            let j2 = asymptotic::judge(&pts, expected, &t);
            Ok(j2.bottleneck && j2.fit.map(|f| f.class) == class)
        })?;
        if best.shrunk_from.is_some() {
            sweep = crate::judge::sweep::sweep_programs(
                exec,
                &best.program,
                best.input_size,
                max_loop,
            )?;
        }
    }
    let hot_programs = if hot_on_path && sweep.is_empty() {
        &path_programs
    } else {
        &sweep
    };
    report.hot_lines = crate::judge::hotlines::hot_lines(exec, hot_programs)?;
    Ok(sweep)
}

/// Phase 4: wall-clock confirmation. Relative runs time the top programs on `new` and on
/// `old`; asymptotic runs time the best program's largest sweep size against its smallest.
fn confirm(
    exec: &mut dyn Executor,
    cfg: &ExploreConfig,
    plan: &Plan<'_>,
    sweep: &[Program],
    report: &mut ExploreReport,
) -> Result<()> {
    if plan.use_relative {
        if let Some(pr) = &plan.pair {
            let top: Vec<&BestProgram> = report.best.iter().chain(&report.others).collect();
            let jobs = confirm_jobs_relative(&top, pr, cfg.confirm.top);
            attach(report, confirm::confirm(exec, &jobs, &cfg.confirm)?, &jobs);
        }
        return Ok(());
    }
    if cfg.confirm.top > 0 && !sweep.is_empty() {
        let (big, small) = confirm_arms(exec, sweep, &report.outliers)?;
        if big != small {
            let claimed = report.reason.clone();
            time_the_arms(exec, cfg, big.clone(), small, plan.expected, report)?;
            retime_on_a_larger_input(exec, cfg, plan.expected, &big, claimed, report)?;
        }
    }
    Ok(())
}

/// Times the largest arm against the smallest and withdraws the claim if the clock disagrees.
fn time_the_arms(
    exec: &mut dyn Executor,
    cfg: &ExploreConfig,
    big: Program,
    small: Program,
    expected: Option<Class>,
    report: &mut ExploreReport,
) -> Result<()> {
    let ty = report.ty.clone();
    let jobs = vec![confirm::Job {
        rank: 1,
        kind: "sweep",
        a: ("largest".into(), ty.clone(), big),
        b: ("smallest".into(), ty, small),
        on_pair: false,
    }];
    attach(report, confirm::confirm(exec, &jobs, &cfg.confirm)?, &jobs);
    withdraw_if_the_clock_disagrees(expected, report);
    doubt_if_the_clock_outgrows_the_class(expected, report);
    Ok(())
}

/// A `no-bottleneck` whose clock grew far past what the documented class allows between the
/// arms (see `oracle::clock::outgrows`) becomes `inconclusive`, with the figures in words:
/// the cost measure missed work the clock sees, or the sweep missed the behaviour.
fn doubt_if_the_clock_outgrows_the_class(expected: Option<Class>, report: &mut ExploreReport) {
    let (Verdict::NoBottleneck, Some(expected)) = (report.verdict, expected) else {
        return;
    };
    let Some(arms) = timed_arms(report) else {
        return;
    };
    if let Some(why) = crate::judge::oracle::clock::outgrows(expected, &arms) {
        report.verdict = Verdict::Inconclusive;
        report.reason = format!("{}, {why}", report.reason);
    }
}

/// A claim the clock withdrew although the time grew well past the documented class (see
/// `oracle::clock::worth_a_larger_arm`) is timed once more on the same program swept to
/// [`RETIME_SCALE`] times the largest input: a cost in bytes moved shows in time only where
/// its higher-order term overtakes the rest. The claim stands if the clock then agrees, and
/// stays withdrawn (with both timings in its reason) if it does not. `claimed` is the reason
/// of the claim before the clock withdrew it.
fn retime_on_a_larger_input(
    exec: &mut dyn Executor,
    cfg: &ExploreConfig,
    expected: Option<Class>,
    top: &Program,
    claimed: String,
    report: &mut ExploreReport,
) -> Result<()> {
    let (true, Some(expected)) = (report.withdrawn_by_clock, expected) else {
        return Ok(());
    };
    let Some(arms) = timed_arms(report) else {
        return Ok(());
    };
    if !crate::judge::oracle::clock::worth_a_larger_arm(expected, &arms) {
        return Ok(());
    }
    let Some(size) = report
        .confirmation
        .as_ref()
        .and_then(|c| c.confirmed.first())
        .map(|c| c.a.input_size)
    else {
        return Ok(());
    };
    let max_loop = cfg.search.mutation.max_loop;
    let larger =
        crate::judge::sweep::sweeps_to(exec, top, size, max_loop, size * RETIME_SCALE)?.main;
    if larger.is_empty() {
        return Ok(());
    }
    let (big, small) = confirm_arms(exec, &larger, &[])?;
    let first = report.reason.clone();
    let mut again = report.clone();
    (again.verdict, again.withdrawn_by_clock, again.reason) = (Verdict::Bottleneck, false, claimed);
    time_the_arms(exec, cfg, big, small, Some(expected), &mut again)?;
    let reached = timed_arms(&again).map_or(0, |a| a.big);
    if reached <= arms.big {
        return Ok(());
    }
    if again.withdrawn_by_clock {
        again.reason =
            format!("{first}; timed again up to size {reached}, the clock still does not show it");
    } else {
        again.reason = format!(
            "{}; the clock confirmed it on a larger input (size {reached}) after falling short at size {}",
            again.reason, arms.big
        );
    }
    *report = again;
    Ok(())
}

/// How many times the largest input [`retime_on_a_larger_input`] sweeps to.
const RETIME_SCALE: u64 = 4;

/// The timed arms of an asymptotic confirmation, as the clock's rule reads them.
fn timed_arms(report: &ExploreReport) -> Option<crate::judge::oracle::clock::TimedArms> {
    let c = report.confirmation.as_ref()?.confirmed.first()?;
    let size = |a: &confirm::Arm| {
        if report.points_from == "sweep-heap-bytes" {
            a.heap_bytes
        } else {
            a.input_size
        }
    };
    Some(crate::judge::oracle::clock::TimedArms {
        small: size(&c.b),
        big: size(&c.a),
        time_ratio: c.time_ratio,
        time_ratio_low: c.a.time.ci95_low_ns / c.b.time.ci95_high_ns,
        cost_ratio: c.cost_ratio,
        significant: c.significant,
    })
}

/// Withdraws an asymptotic bottleneck that the clock contradicts (see `oracle::clock`): the
/// verdict becomes inconclusive, with the cost's class and the timed figures in its reason.
fn withdraw_if_the_clock_disagrees(expected: Option<Class>, report: &mut ExploreReport) {
    let (Verdict::Bottleneck, Some(expected)) = (report.verdict, expected) else {
        return;
    };
    let Some(arms) = timed_arms(report) else {
        return;
    };
    if let Some(why) = crate::judge::oracle::clock::contradicts(expected, &arms) {
        report.verdict = Verdict::Inconclusive;
        report.withdrawn_by_clock = true;
        report.reason = format!("{}, {why}", report.reason);
    }
}

/// The arms of an asymptotic confirmation: the largest and the smallest sweep programs
/// (`sweep` runs largest first) that complete on `exec`. The sweep's largest size can run out
/// of fuel or panic (its point is then missing from the fit); timing it would leave nothing to
/// confirm although every other size completed (seen on slab's `shrink_to_fit`, whose sweep
/// grows a `retain` loop along with the slab). When the two ends complete, they are the arms
/// without running the rest again; when no two sizes complete, the ends are kept and the
/// confirmation says that the program does not complete.
///
/// A size the fit left out (`outliers`: an amortized resize at one size) is no arm: the clock
/// would time the spike the verdict set aside, and a no-bottleneck whose largest arm is a
/// resize would read as time growing past its class (`VecDeque::push_front`, 8192 elements).
fn confirm_arms(
    exec: &mut dyn Executor,
    sweep: &[Program],
    outliers: &[(u64, f64)],
) -> Result<(Program, Program)> {
    let ends = [sweep[0].clone(), sweep[sweep.len() - 1].clone()];
    let completes = |f: &Feedback| {
        f.is_ok()
            && f.calls > 0
            && !outliers
                .iter()
                .any(|o| o.0 == f.input_size || o.0 == f.heap_bytes)
    };
    let fb = exec.run(&ends)?;
    if fb.iter().all(completes) {
        let [big, small] = ends;
        return Ok((big, small));
    }
    let fb = exec.run(sweep)?;
    let done: Vec<usize> = (0..sweep.len()).filter(|&i| completes(&fb[i])).collect();
    Ok(match (done.first(), done.last()) {
        (Some(&i), Some(&j)) if i != j => (sweep[i].clone(), sweep[j].clone()),
        _ => {
            let [big, small] = ends;
            (big, small)
        }
    })
}

/// The relative confirmation jobs: the top `top` programs on `new` and on `old`.
fn confirm_jobs_relative(
    programs: &[&BestProgram],
    pr: &Versions,
    top: usize,
) -> Vec<confirm::Job> {
    programs
        .iter()
        .take(top)
        .enumerate()
        .map(|(i, b)| confirm::Job {
            rank: i + 1,
            kind: "relative",
            a: ("new".into(), pr.new_ty.clone(), b.program.clone()),
            b: ("old".into(), pr.old_ty.clone(), b.program.clone()),
            on_pair: true,
        })
        .collect()
}

/// Records a confirmation in the report; the best program's figures become the headline.
fn attach(report: &mut ExploreReport, c: ConfirmReport, jobs: &[confirm::Job]) {
    if jobs.is_empty() {
        return;
    }
    if let Some(first) = c.confirmed.iter().find(|x| x.rank == 1) {
        report.time_ratio = Some(first.time_ratio);
        report.time_significant = Some(first.significant);
    }
    report.confirmation = Some(c);
}

#[cfg(test)]
mod tests {
    use super::*;
    use perfsyn_profiler_ipc::Outcome;

    /// Program `k` has `k` variables; programs with more than `limit` time out. Counts runs.
    struct Ends {
        schema: ApiSchema,
        limit: usize,
        runs: usize,
    }

    impl Executor for Ends {
        fn schema(&self) -> &ApiSchema {
            &self.schema
        }
        fn run(&mut self, programs: &[Program]) -> Result<Vec<Feedback>> {
            self.runs += programs.len();
            Ok(programs
                .iter()
                .map(|p| {
                    if p.vars.len() > self.limit {
                        Feedback::failed(Outcome::Timeout)
                    } else {
                        let mut f = Feedback::failed(Outcome::Ok);
                        f.calls = 1;
                        f
                    }
                })
                .collect())
        }
    }

    fn sweep(sizes: &[usize]) -> Vec<Program> {
        sizes
            .iter()
            .map(|&k| Program {
                vars: vec!["Vec<Key>".to_string(); k],
                body: Vec::new(),
            })
            .collect()
    }

    #[test]
    fn confirmation_times_the_largest_sweep_size_that_completes() {
        let sw = sweep(&[10, 8, 6, 4, 2]);
        let mut ex = Ends {
            schema: ApiSchema::default(),
            limit: 8,
            runs: 0,
        };
        let (big, small) = confirm_arms(&mut ex, &sw, &[]).unwrap();
        assert_eq!((big.vars.len(), small.vars.len()), (8, 2));
        // When both ends complete, only they run.
        let mut ex = Ends {
            schema: ApiSchema::default(),
            limit: 10,
            runs: 0,
        };
        let (big, small) = confirm_arms(&mut ex, &sw, &[]).unwrap();
        assert_eq!((big.vars.len(), small.vars.len(), ex.runs), (10, 2, 2));
        // Nothing completes but the smallest: the ends stay, and confirmation says why.
        let mut ex = Ends {
            schema: ApiSchema::default(),
            limit: 2,
            runs: 0,
        };
        let (big, small) = confirm_arms(&mut ex, &sw, &[]).unwrap();
        assert_eq!((big.vars.len(), small.vars.len()), (10, 2));
    }

    /// A bottleneck report whose sweep confirmation timed `time_ratio` from size 99 to 9916
    /// (heap bytes 8000 to 16000) for 212.5x the cost.
    fn timed(time_ratio: f64, points_from: &str) -> ExploreReport {
        // Each arm's mean with a 95% interval 5% either side.
        let time = |mean: f64| {
            serde_json::json!({"mean_ns": mean, "ci95_low_ns": 0.95 * mean,
                "ci95_high_ns": 1.05 * mean, "std_dev_ns": 0.0, "n": 30, "outliers": 0})
        };
        let arm = |label: &str, size: u64, heap: u64, mean: f64| {
            serde_json::json!({"label": label, "type": "crate", "input_size": size,
            "heap_bytes": heap, "edges": 1, "cost": 1, "time": time(mean)})
        };
        serde_json::from_value(serde_json::json!({
            "method": "crate::find", "type": "crate", "oracle": "asymptotic",
            "strategy": "astar", "seed": 1, "metric": "cost", "verdict": "bottleneck",
            "reason": "cost grows as O(n^2), documented O(n)", "expected": "O(n)",
            "empirical": "O(n^2)", "fit_error": null, "ratio": null,
            "best": null, "others": [], "points": [], "points_from": points_from,
            "stats": serde_json::to_value(crate::search::Stats::default()).unwrap(),
            "tree": {"nodes": 1, "depth_histogram": [1], "learning_top": []},
            "confirmation": {"reps": 30, "warmup": 5, "method": "", "unconfirmed": [],
                "confirmed": [{"rank": 1, "kind": "sweep", "a": arm("largest", 9916, 16000, time_ratio),
                    "b": arm("smallest", 99, 8000, 1.0), "cost_ratio": 212.5,
                    "time_ratio": time_ratio, "p_value": 0.0, "significant": true,
                    "failed_runs": 0}]}
        }))
        .expect("a minimal report")
    }

    #[test]
    fn a_bottleneck_the_clock_does_not_show_is_withdrawn() {
        let mut r = timed(83.6, "sweep");
        withdraw_if_the_clock_disagrees(Some(Class::Linear), &mut r);
        assert_eq!(r.verdict, Verdict::Inconclusive);
        assert!(r.withdrawn_by_clock);
        assert!(
            r.reason
                .starts_with("cost grows as O(n^2), documented O(n), but wall-clock")
                && r.reason.contains("83.6x"),
            "{}",
            r.reason
        );
        // 150x on the means passes the bar (145.9x), but not by the arms' intervals (at
        // least 135.7x): withdrawn.
        let mut r = timed(150.0, "sweep");
        withdraw_if_the_clock_disagrees(Some(Class::Linear), &mut r);
        assert_eq!(r.verdict, Verdict::Inconclusive, "{}", r.reason);
        assert!(r.reason.contains("at least 135.7x"), "{}", r.reason);
        // Timed as O(n^2) would be: the claim stands.
        let mut r = timed(8975.0, "sweep");
        withdraw_if_the_clock_disagrees(Some(Class::Linear), &mut r);
        assert_eq!(r.verdict, Verdict::Bottleneck);
        assert!(!r.withdrawn_by_clock);
        // 30x the time: too little over sizes 99..9916, enough over heap bytes 8000..16000
        // (O(n) allows 2x there, and the bar is 20.6x).
        let mut r = timed(30.0, "sweep");
        withdraw_if_the_clock_disagrees(Some(Class::Linear), &mut r);
        assert_eq!(r.verdict, Verdict::Inconclusive);
        let mut r = timed(30.0, "sweep-heap-bytes");
        withdraw_if_the_clock_disagrees(Some(Class::Linear), &mut r);
        assert_eq!(r.verdict, Verdict::Bottleneck);
    }
}
