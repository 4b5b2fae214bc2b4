//! `perfsyn bench search`: measures how well each asymptotic score and strategy finds
//! planted complexity bottlenecks, and how often it wrongly reports correct methods, under the
//! same program budget. This is the benchmark behind the choice of the default score
//! (`growth` against the paper's `area`, eq. 3.5).

use std::time::Instant;

use anyhow::Result;
use serde::Serialize;

use crate::exec::Executor;
use crate::explore::{explore, ExploreConfig, OracleKind};
use crate::oracle::asymptotic::{ScoreKind, Thresholds};
use crate::oracle::relative::Direction;
use crate::search::{Budget, SearchConfig, StrategyKind};

/// A benchmark case: a method and whether a bottleneck must be reported.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct Case {
    pub method: &'static str,
    pub bottleneck: bool,
}

/// Planted asymptotic bottlenecks (documented class lower than the real one) and methods
/// that meet their documented class.
pub const CASES: &[Case] = &[
    Case {
        method: "EnumeratedDistribution::probability",
        bottleneck: true,
    },
    Case {
        method: "TombstoneSet::is_empty",
        bottleneck: true,
    },
    Case {
        method: "FilteredNavigableMap::is_empty",
        bottleneck: true,
    },
    Case {
        method: "Sets::power_set",
        bottleneck: true,
    },
    Case {
        method: "CandlestickRenderer::draw",
        bottleneck: true,
    },
    Case {
        method: "JavaHashSet::remove_all",
        bottleneck: true,
    },
    Case {
        method: "Vec::push",
        bottleneck: false,
    },
    Case {
        method: "Vec::insert",
        bottleneck: false,
    },
    Case {
        method: "Vec::sort",
        bottleneck: false,
    },
    Case {
        method: "BTreeMap::insert",
        bottleneck: false,
    },
    Case {
        method: "VecDeque::push_front",
        bottleneck: false,
    },
    Case {
        method: "HashMap::insert",
        bottleneck: false,
    },
    Case {
        method: "EnumeratedDistribution::sample_size",
        bottleneck: false,
    },
];

/// Settings of the benchmark.
#[derive(Clone, Debug)]
pub struct BenchSearchConfig {
    pub max_programs: u64,
    pub seeds: Vec<u64>,
    pub strategies: Vec<StrategyKind>,
    pub scores: Vec<ScoreKind>,
}

/// One (case, score, strategy, seed) run.
#[derive(Clone, Debug, Serialize)]
pub struct Run {
    pub method: String,
    pub score: ScoreKind,
    pub strategy: String,
    pub seed: u64,
    pub want_bottleneck: bool,
    pub verdict: String,
    pub empirical: Option<String>,
    pub correct: bool,
    pub elapsed_ms: u64,
}

/// Per (score, strategy): detections and false positives.
#[derive(Clone, Debug, Serialize)]
pub struct Row {
    pub score: ScoreKind,
    pub strategy: String,
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
}

/// Runs every case under every score and strategy.
pub fn run(
    exec: &mut dyn Executor,
    cfg: &BenchSearchConfig,
    progress: &mut dyn FnMut(&str),
) -> Result<Report> {
    let mut runs = Vec::new();
    for case in CASES {
        if crate::spec::resolve_method(exec.schema(), case.method).is_err() {
            anyhow::bail!(
                "benchmark case {} is not in the worker's schema",
                case.method
            );
        }
        for &score in &cfg.scores {
            for &strategy in &cfg.strategies {
                for &seed in &cfg.seeds {
                    progress(&format!(
                        "{} {:?} {} seed {seed}",
                        case.method,
                        score,
                        strategy.name()
                    ));
                    let ec = ExploreConfig {
                        method: case.method.to_string(),
                        strategy,
                        oracle: OracleKind::Asymptotic,
                        score,
                        direction: Direction::Both,
                        t_rel: 1.2,
                        thresholds: Thresholds::default(),
                        expect: None,
                        search: SearchConfig {
                            budget: Budget::Programs(cfg.max_programs),
                            seed,
                            ..SearchConfig::default()
                        },
                        start: None,
                        confirm: crate::confirm::ConfirmConfig {
                            top: 0,
                            ..Default::default()
                        },
                    };
                    let t = Instant::now();
                    let r = explore(exec, &ec, &mut |_| {})?;
                    let found = r.verdict == "bottleneck";
                    runs.push(Run {
                        method: case.method.to_string(),
                        score,
                        strategy: strategy.name().to_string(),
                        seed,
                        want_bottleneck: case.bottleneck,
                        verdict: r.verdict.clone(),
                        empirical: r.empirical.clone(),
                        correct: found == case.bottleneck,
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
                .filter(|r| r.score == score && r.strategy == strategy.name())
                .collect();
            rows.push(Row {
                score,
                strategy: strategy.name().to_string(),
                detected: mine
                    .iter()
                    .filter(|r| r.want_bottleneck && r.correct)
                    .count(),
                planted: mine.iter().filter(|r| r.want_bottleneck).count(),
                false_positives: mine
                    .iter()
                    .filter(|r| !r.want_bottleneck && !r.correct)
                    .count(),
                controls: mine.iter().filter(|r| !r.want_bottleneck).count(),
                inconclusive: mine.iter().filter(|r| r.verdict == "inconclusive").count(),
                total_ms: mine.iter().map(|r| r.elapsed_ms).sum(),
            });
        }
    }
    Ok(Report {
        max_programs: cfg.max_programs,
        runs,
        rows,
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
            run.verdict,
            run.empirical.as_deref().unwrap_or("-")
        ));
    }
    s
}
