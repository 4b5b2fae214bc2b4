//! `perfsyn bench search`: measures how well each asymptotic score and strategy finds
//! planted complexity bottlenecks, and how often it wrongly reports correct methods, under the
//! same program budget. This is the benchmark behind the choice of the default score
//! (`growth` against the paper's `area`, eq. 3.5). Its relative cases (planted version
//! groups) run in [`crate::commands::bench::relative`], the benchmark behind the relative verdict's gap
//! floor.
//!
//! Its cases (`corpus/cases/bench_search.json`) are planted for tuning and disjoint from the
//! suite's, so the defaults are never chosen on the cases the suite evaluates. Runs are
//! judged like the suite's ([`crate::commands::suite::judge`]): a planted bottleneck counts only when
//! its true class is found.

use std::time::Instant;

use anyhow::Result;
use serde::Serialize;

use crate::commands::suite::case::{self, Case};
use crate::commands::suite::judge::{outcome, Outcome};
use crate::explore::{explore, ExploreConfig, OracleKind};
use crate::judge::oracle::asymptotic::ScoreKind;
use crate::report::class::Class;
use crate::report::verdict::Verdict;
use crate::run::exec::Executor;
use crate::search::StrategyKind;

/// Settings of the benchmark.
#[derive(Clone, Debug)]
pub struct BenchSearchConfig {
    pub max_programs: u64,
    pub seeds: Vec<u64>,
    pub strategies: Vec<StrategyKind>,
    pub scores: Vec<ScoreKind>,
    /// Workers of the executor, for the throughput figures' setup share.
    pub workers: usize,
    /// Only the tuning cases matching these patterns (as `suite --cases`); the throughput
    /// figures are measured only without it.
    pub cases: Option<String>,
}

/// Seed and program budget of the throughput explores (fixed, so figures compare across
/// revisions).
pub const THROUGHPUT_SEED: u64 = 1;
pub const THROUGHPUT_PROGRAMS: u64 = 300;

/// One (case, score, strategy, seed) run.
#[derive(Clone, Debug, Serialize)]
pub struct Run {
    pub method: String,
    pub score: ScoreKind,
    pub strategy: StrategyKind,
    pub seed: u64,
    pub want_bottleneck: bool,
    pub verdict: Verdict,
    #[serde(with = "crate::report::class::label")]
    pub empirical: Option<Class>,
    pub outcome: Outcome,
    /// Detected (with its true class), or a clean negative on a control.
    pub correct: bool,
    pub elapsed_ms: u64,
}

/// Per (score, strategy): detections and false positives.
#[derive(Clone, Debug, Serialize)]
pub struct Row {
    pub score: ScoreKind,
    pub strategy: StrategyKind,
    pub detected: usize,
    pub planted: usize,
    pub false_positives: usize,
    pub controls: usize,
    pub inconclusive: usize,
    pub total_ms: u64,
}

/// The benchmark's results.
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    pub max_programs: u64,
    pub runs: Vec<Run>,
    pub rows: Vec<Row>,
    /// Programs per second and setup share of realistic explores (`bench throughput` on
    /// its default methods, seed and budget).
    pub throughput: Vec<crate::commands::bench::throughput::Throughput>,
    /// The relative tuning cases and the gap-floor table (absent when none was selected).
    pub relative: Option<crate::commands::bench::relative::Report>,
}

/// Runs every asymptotic case under every score and strategy on `exec`, and every relative
/// case under every strategy on `versions` (a pair of workers bound to one version each).
pub fn run(
    exec: &mut dyn Executor,
    versions: Option<&mut dyn Executor>,
    cfg: &BenchSearchConfig,
    progress: &mut dyn FnMut(&str),
) -> Result<Report> {
    let mut runs = Vec::new();
    let all: Vec<Case> = case::select(&case::tuning_cases()?, cfg.cases.as_deref())?;
    case::check_cases(exec.schema(), &all)?;
    let (relative_cases, cases): (Vec<Case>, Vec<Case>) = all
        .into_iter()
        .partition(|c| c.oracle == case::CaseOracle::Relative);
    let relative = match (relative_cases.is_empty(), versions) {
        (true, _) => None,
        (false, None) => anyhow::bail!("the relative tuning cases need a pair of workers"),
        (false, Some(pair)) => Some(crate::commands::bench::relative::run(
            pair,
            &relative_cases,
            &cfg.strategies,
            &cfg.seeds,
            cfg.max_programs,
            progress,
        )?),
    };
    for case in &cases {
        for &score in &cfg.scores {
            for &strategy in &cfg.strategies {
                for &seed in &cfg.seeds {
                    progress(&format!(
                        "{} {:?} {} seed {seed}",
                        case.method,
                        score,
                        strategy.name()
                    ));
                    let ec = ExploreConfig::bench(
                        &case.method,
                        strategy,
                        OracleKind::Asymptotic,
                        score,
                        seed,
                        cfg.max_programs,
                    );
                    let t = Instant::now();
                    let r = explore(exec, &ec, &mut |_| {})?;
                    let o = outcome(case, Ok(&r), ec.t_rel);
                    runs.push(Run {
                        method: case.method.clone(),
                        score,
                        strategy,
                        seed,
                        want_bottleneck: case.expected.is_positive(),
                        verdict: r.verdict,
                        empirical: r.empirical,
                        outcome: o,
                        correct: matches!(o, Outcome::Detected | Outcome::CorrectNegative),
                        elapsed_ms: t.elapsed().as_millis() as u64,
                    });
                }
            }
        }
    }
    let mut rows = Vec::new();
    for &score in &cfg.scores {
        for &strategy in &cfg.strategies {
            let mine: Vec<&Run> = runs
                .iter()
                .filter(|r| r.score == score && r.strategy == strategy)
                .collect();
            rows.push(Row {
                score,
                strategy,
                detected: mine
                    .iter()
                    .filter(|r| r.want_bottleneck && r.correct)
                    .count(),
                planted: mine.iter().filter(|r| r.want_bottleneck).count(),
                false_positives: mine
                    .iter()
                    .filter(|r| r.outcome == Outcome::FalsePositive)
                    .count(),
                controls: mine.iter().filter(|r| !r.want_bottleneck).count(),
                inconclusive: mine
                    .iter()
                    .filter(|r| r.verdict == Verdict::Inconclusive)
                    .count(),
                total_ms: mine.iter().map(|r| r.elapsed_ms).sum(),
            });
        }
    }
    let throughput = match cfg.cases {
        Some(_) => Vec::new(),
        None => {
            progress("throughput");
            let methods = crate::commands::bench::throughput::default_methods()?;
            crate::commands::bench::throughput::run(
                exec,
                cfg.workers,
                &methods,
                THROUGHPUT_SEED,
                THROUGHPUT_PROGRAMS,
            )?
            .throughput
        }
    };
    Ok(Report {
        max_programs: cfg.max_programs,
        runs,
        rows,
        throughput,
        relative,
    })
}

/// The summary table.
pub fn render(r: &Report) -> String {
    let mut s = format!(
        "asymptotic search benchmark, {} programs per run\n{:<8} {:<8} {:>10} {:>16} {:>13} {:>9}\n",
        r.max_programs, "score", "strategy", "detected", "false positives", "inconclusive", "time"
    );
    for row in &r.rows {
        s.push_str(&format!(
            "{:<8} {:<8} {:>10} {:>16} {:>13} {:>8.1}s\n",
            format!("{:?}", row.score).to_lowercase(),
            row.strategy,
            format!("{}/{}", row.detected, row.planted),
            format!("{}/{}", row.false_positives, row.controls),
            row.inconclusive,
            row.total_ms as f64 / 1000.0
        ));
    }
    s.push_str("\nmisses and false positives:\n");
    for run in r.runs.iter().filter(|r| !r.correct) {
        s.push_str(&format!(
            "  {} {:?} {} seed {}: {} ({})\n",
            run.method,
            run.score,
            run.strategy,
            run.seed,
            run.outcome,
            run.empirical.map_or("-", Class::label)
        ));
    }
    if let Some(rel) = &r.relative {
        s.push_str(&crate::commands::bench::relative::render(rel));
    }
    s
}
