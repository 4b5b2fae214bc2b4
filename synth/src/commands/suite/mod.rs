//! `perfsyn suite`: our Table 3.2. Runs every case of the bottleneck corpus (the 22
//! bottlenecks of the PerfSyn chapter, Listing 3.1's `Messages`, Toddler's two loop bugs) and
//! the negative controls with each strategy, and says on its own which were detected, missed
//! or falsely reported.
//!
//! Honest by construction: every case runs with the same settings (budget, seed, score,
//! two-sided relative oracle, documented class), so nothing of a case's expectation reaches
//! the search or the oracle; the expectation is read only afterwards, by [`judge`]. The case
//! list is data with the corpus ([`case`]).
//!
//! Time to expose: for a relative case, the moment the search first ran a program whose
//! cost ratio passed t_rel on the side the case names; for an asymptotic one, the moment it
//! ran the best program (the verdict needs a sweep and a fit after the search, so this is
//! when the evidence was found, not when it was judged).

pub mod case;
pub mod judge;
mod render;

use std::time::Duration;

use anyhow::Result;
use serde::{Deserialize, Serialize};

use crate::explore::report::ExploreReport;
use crate::explore::{explore, ExploreConfig, OracleKind};
use crate::judge::confirm::{ConfirmConfig, MIN_REPS};
use crate::judge::oracle::asymptotic::{ScoreKind, Thresholds};
use crate::judge::oracle::relative::Direction;
use crate::report::class::Class;
use crate::report::verdict::Verdict;
use crate::run::exec::Executor;
use crate::search::{Budget, Metric, SearchConfig, StrategyKind};
pub use case::{Case, CaseOracle, Expected};
pub use judge::Outcome;
pub use render::render;

/// Suite settings.
#[derive(Clone, Debug)]
pub struct SuiteConfig {
    pub strategies: Vec<StrategyKind>,
    /// The time budget of one search (one case, one strategy).
    pub budget_per_case: Duration,
    /// Only cases whose ID or method matches one of these comma-separated patterns
    /// (`*` matches any run of characters); all when `None`.
    pub cases: Option<String>,
    /// Switch off the loop extension (the paper's program model).
    pub no_loops: bool,
    pub seed: u64,
    /// t_rel of the relative oracle.
    pub t_rel: f64,
}

/// The outcome of one case with one strategy.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct CaseRun {
    pub outcome: Outcome,
    /// Milliseconds until the search had run the program the verdict rests on (null unless
    /// detected or falsely reported; see the module doc).
    pub tte_ms: Option<u64>,
    /// Mutations of the best program.
    pub mutations: Option<usize>,
    /// Relative: cost new/old of the best program.
    pub ratio: Option<f64>,
    /// Relative: cost new/old of the largest regression and the largest improvement.
    pub regression_ratio: Option<f64>,
    pub improvement_ratio: Option<f64>,
    /// Asymptotic: the fitted class.
    #[serde(default, with = "crate::report::class::label")]
    pub empirical: Option<Class>,
    /// Measured wall-clock ratio of the best program, when confirmed.
    pub time_ratio: Option<f64>,
    pub verdict: Verdict,
    pub reason: String,
    pub programs: u64,
}

/// One case's row.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct CaseReport {
    pub id: String,
    pub method: String,
    pub oracle: CaseOracle,
    pub expected: String,
    /// The documented class of an asymptotic case's method.
    pub documented: Option<String>,
    pub source: String,
    /// Per strategy name.
    pub strategies: std::collections::BTreeMap<String, CaseRun>,
}

/// Per-strategy totals.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct StrategySummary {
    pub detected: usize,
    pub positives: usize,
    pub false_positives: usize,
    pub correct_negatives: usize,
    pub controls: usize,
    /// Median and largest time to expose over the detected cases.
    pub median_tte_ms: Option<u64>,
    pub max_tte_ms: Option<u64>,
    /// Cases that are neither detected, correct negatives nor false positives, with their
    /// outcome (`missed`, `wrong-class`, `wrong-direction`, `inconclusive`, `error`).
    pub failed: Vec<String>,
}

/// The whole suite, printed as JSON with `--json`.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SuiteReport {
    pub cases: Vec<CaseReport>,
    pub summary: std::collections::BTreeMap<String, StrategySummary>,
    /// Positive cases detected by at least one strategy.
    pub detected_by_any: usize,
    pub positives: usize,
    pub seed: u64,
    pub budget_per_case_ms: u64,
    pub no_loops: bool,
}

/// Live progress: which run is next.
#[derive(Clone, Debug)]
pub struct SuiteProgress<'a> {
    pub done: usize,
    pub total: usize,
    pub case: &'a Case,
    pub strategy: StrategyKind,
}

/// The cases selected by `patterns` (comma-separated; `*` is a wildcard; matched against the
/// ID and the method, case-insensitively).
/// The suite's cases selected by `patterns` (see [`case::select`]).
pub fn select(patterns: Option<&str>) -> Result<Vec<Case>> {
    case::select(&case::suite_cases()?, patterns)
}

/// The explore configuration of one case with one strategy: the same for every case but
/// for the method (and its oracle, which the method's registration decides anyway).
pub fn explore_config(c: &Case, strategy: StrategyKind, cfg: &SuiteConfig) -> ExploreConfig {
    let mut search = SearchConfig {
        budget: Budget::Time(cfg.budget_per_case),
        seed: cfg.seed,
        metric: Metric::Cost,
        ..SearchConfig::default()
    };
    search.mutation.loops = !cfg.no_loops;
    // The same for every case: only records when each side first passed t_rel.
    search.expose_ratio = Some(cfg.t_rel);
    ExploreConfig {
        method: c.method.clone(),
        strategy,
        oracle: match c.oracle {
            CaseOracle::Relative => OracleKind::Relative,
            CaseOracle::Asymptotic => OracleKind::Asymptotic,
        },
        score: ScoreKind::Growth,
        direction: Direction::Both,
        t_rel: cfg.t_rel,
        thresholds: Thresholds::default(),
        expect: None,
        search,
        start: None,
        confirm: ConfirmConfig {
            top: 1,
            reps: MIN_REPS,
            ..ConfirmConfig::default()
        },
        repeated_traversals: false,
        repeated_computations: false,
    }
}

/// Judges one run (its report, or the error that ended it) against the case.
pub fn judge(c: &Case, run: Result<&ExploreReport, &str>, t_rel: f64) -> CaseRun {
    let o = judge::outcome(c, run, t_rel);
    let Ok(r) = run else {
        return CaseRun {
            outcome: o,
            tte_ms: None,
            mutations: None,
            ratio: None,
            regression_ratio: None,
            improvement_ratio: None,
            empirical: None,
            time_ratio: None,
            verdict: Verdict::Error,
            reason: run.err().unwrap_or_default().to_string(),
            programs: 0,
        };
    };
    let sides = r.sides.as_ref();
    CaseRun {
        outcome: o,
        tte_ms: judge::time_to_expose(c, r, o),
        mutations: r.best.as_ref().map(|b| b.mutations),
        ratio: r.ratio,
        regression_ratio: sides.and_then(|s| s.regression.as_ref()).map(|x| x.ratio),
        improvement_ratio: sides.and_then(|s| s.improvement.as_ref()).map(|x| x.ratio),
        empirical: r.empirical,
        time_ratio: r.time_ratio,
        verdict: r.verdict,
        reason: r.reason.clone(),
        programs: r.stats.programs,
    }
}

/// Runs the suite on one executor (one worker pool for every case); relative cases run on
/// `versions`, the pair of workers binding each version of the version groups (`pair.rs`).
pub fn run(
    exec: &mut dyn Executor,
    mut versions: Option<&mut dyn Executor>,
    cfg: &SuiteConfig,
    progress: &mut dyn FnMut(&SuiteProgress<'_>),
) -> Result<SuiteReport> {
    let cases = select(cfg.cases.as_deref())?;
    let schema = exec.schema().clone();
    case::check_cases(&schema, &cases)?;
    let total = cases.len() * cfg.strategies.len();
    let mut done = 0;
    let mut rows = Vec::new();
    for c in &cases {
        let mut row = CaseReport {
            id: c.id.clone(),
            method: c.method.clone(),
            oracle: c.oracle,
            expected: c.expected.label().into(),
            documented: (c.oracle == CaseOracle::Asymptotic)
                .then(|| case::documented(&schema, c))
                .flatten(),
            source: c.source.clone(),
            strategies: Default::default(),
        };
        for &s in &cfg.strategies {
            progress(&SuiteProgress {
                done,
                total,
                case: c,
                strategy: s,
            });
            let ecfg = explore_config(c, s, cfg);
            // A failed run is an `error` outcome, never a crash of the suite; the reason
            // says what went wrong.
            let on: &mut dyn Executor = match (c.oracle, versions.as_deref_mut()) {
                (CaseOracle::Relative, Some(pair)) => pair,
                _ => &mut *exec,
            };
            let run = match explore(on, &ecfg, &mut |_| {}) {
                Ok(r) => judge(c, Ok(&r), cfg.t_rel),
                Err(e) => judge(c, Err(&format!("{e:#}")), cfg.t_rel),
            };
            row.strategies.insert(s.name().into(), run);
            done += 1;
        }
        rows.push(row);
    }
    let mut summary = std::collections::BTreeMap::new();
    for &s in &cfg.strategies {
        summary.insert(s.name().to_string(), summarize(&rows, s.name()));
    }
    let positives: Vec<&CaseReport> = rows.iter().filter(|r| r.expected != "none").collect();
    Ok(SuiteReport {
        detected_by_any: positives
            .iter()
            .filter(|r| {
                r.strategies
                    .values()
                    .any(|x| x.outcome == Outcome::Detected)
            })
            .count(),
        positives: positives.len(),
        cases: rows,
        summary,
        seed: cfg.seed,
        budget_per_case_ms: cfg.budget_per_case.as_millis() as u64,
        no_loops: cfg.no_loops,
    })
}

/// The totals of one strategy.
pub fn summarize(rows: &[CaseReport], strategy: &str) -> StrategySummary {
    let mut s = StrategySummary::default();
    let mut ttes = Vec::new();
    for r in rows {
        let Some(x) = r.strategies.get(strategy) else {
            continue;
        };
        if r.expected == "none" {
            s.controls += 1;
        } else {
            s.positives += 1;
        }
        match x.outcome {
            Outcome::Detected => {
                s.detected += 1;
                ttes.extend(x.tte_ms);
            }
            Outcome::FalsePositive => s.false_positives += 1,
            Outcome::CorrectNegative => s.correct_negatives += 1,
            o => s.failed.push(format!("{} ({o})", r.id)),
        }
    }
    ttes.sort_unstable();
    s.median_tte_ms = (!ttes.is_empty()).then(|| ttes[ttes.len() / 2]);
    s.max_tte_ms = ttes.last().copied();
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run_with(id: &str, expected: &str, outcome: Outcome, tte: Option<u64>) -> CaseReport {
        let mut strategies = std::collections::BTreeMap::new();
        strategies.insert(
            "astar".to_string(),
            CaseRun {
                outcome,
                tte_ms: tte,
                mutations: None,
                ratio: None,
                regression_ratio: None,
                improvement_ratio: None,
                empirical: None,
                time_ratio: None,
                verdict: Verdict::Error,
                reason: String::new(),
                programs: 0,
            },
        );
        CaseReport {
            id: id.into(),
            method: "A::f".into(),
            oracle: CaseOracle::Asymptotic,
            expected: expected.into(),
            documented: None,
            source: String::new(),
            strategies,
        }
    }

    #[test]
    fn only_detections_and_clean_negatives_count() {
        let rows = [
            run_with("1", "O(n)", Outcome::Detected, Some(3000)),
            run_with("2", "O(n^2)", Outcome::WrongClass, None),
            run_with("3", "slower", Outcome::WrongDirection, None),
            run_with("4", "slower", Outcome::Error, None),
            run_with("5", "O(n)", Outcome::Detected, Some(1000)),
            run_with("C1", "none", Outcome::Error, None),
            run_with("C2", "none", Outcome::Inconclusive, None),
            run_with("C3", "none", Outcome::FalsePositive, Some(5)),
            run_with("C4", "none", Outcome::CorrectNegative, None),
        ];
        let s = summarize(&rows, "astar");
        assert_eq!((s.detected, s.positives), (2, 5));
        assert_eq!(
            (s.false_positives, s.correct_negatives, s.controls),
            (1, 1, 4)
        );
        assert_eq!(s.median_tte_ms, Some(3000));
        assert_eq!(s.max_tte_ms, Some(3000));
        assert_eq!(
            s.failed,
            [
                "2 (wrong-class)",
                "3 (wrong-direction)",
                "4 (error)",
                "C1 (error)",
                "C2 (inconclusive)"
            ]
        );
    }
}
