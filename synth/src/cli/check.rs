//! `perfsyn check`: gate a change against a baseline revision.

use std::path::PathBuf;

use anyhow::Result;
use clap::Args;

use super::common::{parse_duration, parse_positive, parse_workers, workers_or_cores};
use crate::explore::{ExploreConfig, OracleKind};
use crate::judge::oracle::asymptotic::{ScoreKind, Thresholds};
use crate::judge::oracle::relative::Direction;
use crate::search::{SearchConfig, StrategyKind};

#[derive(Debug, Args)]
pub struct CheckArgs {
    /// The revision to compare the working tree with (`HEAD~1`, `origin/main`, a sha).
    #[arg(long, value_name = "REV")]
    pub baseline: String,
    /// Total time for the explorations; methods left when it runs out are reported as
    /// inconclusive.
    #[arg(long, value_parser = parse_duration, default_value = "5m")]
    pub budget: std::time::Duration,
    /// Programs per explored method (a deterministic budget: the same seed gives the same
    /// findings).
    #[arg(long, value_parser = parse_positive, default_value = "300")]
    pub max_programs_per_method: u64,
    /// Seed of every exploration.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Cost ratio between the revisions above which a gap counts (t_rel).
    #[arg(long, default_value_t = 1.2)]
    pub t_rel: f64,
    /// Check only this share of the touched methods (`k/N`, for N parallel CI jobs).
    #[arg(long, value_name = "K/N")]
    pub partition: Option<crate::commands::partition::Partition>,
    /// Skip the repeated-traversal check (Toddler: each explored method's best programs run
    /// once more on the trace build of both revisions, and a repeated read the change
    /// introduced is reported beside the verdict).
    #[arg(long)]
    pub no_repeated_traversals: bool,
    /// Skip the repeated-computation check (MemoizeIt: the same programs on both trace
    /// builds, and a memoization opportunity the change introduced is reported).
    #[arg(long)]
    pub no_repeated_computations: bool,
    #[arg(long, value_parser = parse_workers)]
    pub workers: Option<usize>,
    /// Print the findings as JSON instead of a table.
    #[arg(long)]
    pub json: bool,
    /// Also write a Markdown summary (for a pull-request comment) to this file.
    #[arg(long, value_name = "FILE")]
    pub markdown: Option<PathBuf>,
    /// The crate to check (its Cargo.toml; default: the nearest initialized crate).
    #[arg(long, value_name = "PATH")]
    pub manifest_path: Option<PathBuf>,
    #[command(flatten)]
    pub outputs: super::outputs::FindingOutputs,
}

/// `perfsyn check`: exit 1 on a confirmed regression, 0 when none, 2 on an error.
pub fn run(a: CheckArgs) -> Result<()> {
    match check_inner(&a) {
        Ok(code) => std::process::exit(code),
        Err(e) => {
            eprintln!("error: {e:#}");
            std::process::exit(super::exit::ERROR);
        }
    }
}

fn check_inner(a: &CheckArgs) -> Result<i32> {
    if a.t_rel.is_nan() || a.t_rel <= 1.0 {
        anyhow::bail!("--t-rel must be greater than 1 (got {})", a.t_rel);
    }
    let h = crate::harness::Harness::find(a.manifest_path.as_deref())?;
    let search = SearchConfig {
        budget: crate::search::Budget::Programs(a.max_programs_per_method),
        seed: a.seed,
        ..SearchConfig::default()
    };
    let workers = workers_or_cores(a.workers);
    let deadline = std::time::Duration::from_millis(500);
    let cfg = crate::commands::check::run::CheckConfig {
        rev: a.baseline.clone(),
        budget: a.budget,
        explore: ExploreConfig {
            method: String::new(),
            strategy: StrategyKind::Astar,
            oracle: OracleKind::Relative,
            score: ScoreKind::Growth,
            direction: Direction::Both,
            t_rel: a.t_rel,
            thresholds: Thresholds::default(),
            expect: None,
            search,
            start: None,
            confirm: crate::judge::confirm::ConfirmConfig::default(),
            repeated_traversals: !a.no_repeated_traversals,
            repeated_computations: !a.no_repeated_computations,
        },
        shrink: crate::judge::shrink::ShrinkConfig {
            budget: crate::judge::shrink::DEFAULT_BUDGET,
        },
        workers,
        deadline,
        partition: a.partition,
        reproduce_suffix: h.reproduce_flag(),
        quiet: a.json,
    };
    let quiet = a.json;
    let report = crate::commands::check::run::run(&h, &cfg, &mut |line| {
        if !quiet {
            eprintln!("{line}");
        }
    })?;
    if let Some(md) = &a.markdown {
        std::fs::write(md, report.markdown())
            .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", md.display()))?;
    }
    a.outputs.write_check(&report, &h)?;
    if a.json {
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        print!("{}", report.table());
    }
    Ok(report.exit_code())
}
