//! `perfsyn suite`: the bottleneck corpus per strategy.

use anyhow::Result;
use clap::Args;

use super::common::{parse_duration, parse_workers, WorkerArgs};
use crate::run::pool::WorkerPool;
use crate::search::StrategyKind;

/// `--strategy` values of `suite`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum SuiteStrategy {
    Astar,
    Aco,
    Random,
    All,
}

#[derive(Debug, Args)]
pub struct SuiteArgs {
    /// The strategy, or `all` for A*, ACO and random one after the other.
    #[arg(long, value_enum, default_value = "all")]
    pub strategy: SuiteStrategy,
    /// Time budget of one search (one case with one strategy).
    #[arg(long, value_parser = parse_duration, default_value = "60s")]
    pub budget_per_case: std::time::Duration,
    /// Only these cases: comma-separated IDs or method specs, `*` as a wildcard
    /// (e.g. `1,9,C1` or `TreeList::*`).
    #[arg(long, value_name = "PATTERN")]
    pub cases: Option<String>,
    /// Switch off our loop extension (repeat blocks), leaving the paper's program model.
    #[arg(long)]
    pub no_loops: bool,
    /// Print one JSON object (`cases`, `summary`) instead of the table.
    #[arg(long)]
    pub json: bool,
    /// Number of worker processes (default: one per core).
    #[arg(long, value_parser = parse_workers)]
    pub workers: Option<usize>,
    /// Seed of every search (default: derived from the clock, and printed).
    #[arg(long)]
    pub seed: Option<u64>,
    #[command(flatten)]
    pub worker: WorkerArgs,
}

pub fn run(a: SuiteArgs) -> Result<()> {
    use crate::commands::suite;
    let strategies = match a.strategy {
        SuiteStrategy::Astar => vec![StrategyKind::Astar],
        SuiteStrategy::Aco => vec![StrategyKind::Aco],
        SuiteStrategy::Random => vec![StrategyKind::Random],
        SuiteStrategy::All => vec![StrategyKind::Astar, StrategyKind::Aco, StrategyKind::Random],
    };
    let cfg = suite::SuiteConfig {
        strategies: strategies.clone(),
        budget_per_case: a.budget_per_case,
        cases: a.cases.clone(),
        no_loops: a.no_loops,
        seed: super::common::seed_or_clock(a.seed),
        t_rel: 1.2,
    };
    // Fail on a bad pattern before building or starting anything.
    let selected = suite::select(cfg.cases.as_deref())?;
    let worker = a.worker.resolve(a.json)?;
    let workers = super::common::workers_or_cores(a.workers);
    let mut pool = WorkerPool::start(&worker, workers, std::time::Duration::from_millis(500))?;
    let bar = indicatif::ProgressBar::new((selected.len() * strategies.len()) as u64);
    bar.set_style(
        indicatif::ProgressStyle::with_template("{bar:30} {pos}/{len} {elapsed_precise} {msg}")
            .expect("static template"),
    );
    let relative = selected
        .iter()
        .any(|c| c.oracle == suite::case::CaseOracle::Relative);
    let mut versions = match relative {
        true => Some(crate::run::pair::PairExecutor::of_pool(&pool)?),
        false => None,
    };
    let pair = versions
        .as_mut()
        .map(|p| p as &mut dyn crate::run::exec::Executor);
    let mut status = super::status::Status::new(bar.clone());
    let report = suite::run(&mut pool, pair, &cfg, &mut |p| {
        bar.set_position(p.done as u64);
        status.set(format!(
            "{} {} ({})",
            p.case.id,
            p.case.method,
            p.strategy.name()
        ));
    })?;
    bar.finish_and_clear();
    if a.json {
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        print!("{}", suite::render(&report, &strategies));
        println!(
            "Reproduce with: perfsyn suite --strategy {} --budget-per-case {}s --seed {}{}{}",
            match a.strategy {
                SuiteStrategy::Astar => "astar",
                SuiteStrategy::Aco => "aco",
                SuiteStrategy::Random => "random",
                SuiteStrategy::All => "all",
            },
            a.budget_per_case.as_secs_f64(),
            cfg.seed,
            a.cases
                .as_ref()
                .map(|c| format!(" --cases '{c}'"))
                .unwrap_or_default(),
            if a.no_loops { " --no-loops" } else { "" }
        );
    }
    Ok(())
}
