//! Options and value parsers shared by several subcommands.

use std::path::PathBuf;
use std::str::FromStr;

use anyhow::Result;
use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use clap::Args;
use strum::{EnumMessage, VariantArray};

use crate::harness::worker_build;
use crate::search::{Budget, Metric, SearchConfig, StrategyKind};

/// Options shared by every command that needs a worker.
#[derive(Debug, Clone, Args)]
pub struct WorkerArgs {
    /// Use this worker binary instead of building the instrumented one.
    #[arg(long, value_name = "PATH")]
    pub worker: Option<PathBuf>,
    /// The crate to explore (its Cargo.toml, initialized with `perfsyn init`); default: the
    /// nearest initialized crate upward from here, else perfsyn's built-in corpus.
    #[arg(long, value_name = "PATH")]
    pub manifest_path: Option<PathBuf>,
}

impl WorkerArgs {
    /// The harness these options name.
    pub fn harness(&self) -> Result<crate::harness::Harness> {
        crate::harness::Harness::find(self.manifest_path.as_deref())
    }

    /// The worker to run: `--worker`, else the harness's instrumented build.
    pub fn resolve(&self, quiet: bool) -> Result<PathBuf> {
        worker_build::resolve_worker_in(self.worker.as_deref(), &self.harness()?, quiet)
    }
}
/// Parses a duration like `20s`, `500ms`, `2m`, `1h 30m` (humantime's syntax) or a bare
/// number of seconds (`1.5`).
pub fn parse_duration(s: &str) -> Result<std::time::Duration, String> {
    let s = s.trim();
    let d = match s.parse::<f64>() {
        Ok(secs) if secs.is_finite() && secs >= 0.0 => std::time::Duration::from_secs_f64(secs),
        _ => humantime::parse_duration(s)
            .map_err(|e| format!("`{s}` is not a duration ({e}; examples: 20s, 500ms, 2m)"))?,
    };
    if d.is_zero() {
        return Err(format!("`{s}`: the duration must be positive"));
    }
    Ok(d)
}

pub(super) fn parse_workers(s: &str) -> Result<usize, String> {
    match s.parse::<usize>() {
        Ok(0) => Err("at least one worker is needed".into()),
        Ok(n) => Ok(n),
        Err(_) => Err(format!("`{s}` is not a number of workers")),
    }
}

pub(super) fn parse_positive(s: &str) -> Result<u64, String> {
    match s.parse::<u64>() {
        Ok(0) => Err("must be at least 1".into()),
        Ok(n) => Ok(n),
        Err(_) => Err(format!("`{s}` is not a positive number")),
    }
}

/// Parts of the search a run can switch off (explore's and hunt's flags).
#[derive(Debug, Clone, Copy, Args)]
pub struct SwitchArgs {
    /// Switch off our loop extension (repeat blocks), leaving the paper's program model.
    #[arg(long)]
    pub no_loops: bool,
    /// Draw no values mined from the crate's own tests (`perfsyn/mined.json`; the corpus's
    /// are mined from its sources), only the built-in pools.
    #[arg(long)]
    pub no_mined_values: bool,
    /// Draw string fragments by frequency alone: no weight for those whose use reached new
    /// coverage or raised the cost, and no growing shapes queued for them.
    #[arg(long)]
    pub no_fragment_credit: bool,
    /// Grow no text by repeating a span of a mined value in place (a child, an item, an
    /// opening and its closing piece), only by the shapes that repeat whole fragments.
    #[arg(long)]
    pub no_span_shapes: bool,
}

impl SwitchArgs {
    /// The engine's form of the switches.
    pub fn switches(&self) -> crate::commands::hunt::dir::SearchSwitches {
        crate::commands::hunt::dir::SearchSwitches {
            no_loops: self.no_loops,
            no_mined_values: self.no_mined_values,
            no_fragment_credit: self.no_fragment_credit,
            no_span_shapes: self.no_span_shapes,
        }
    }
}

/// Options of a search (shared by explore and later by suite and hunt).
#[derive(Debug, Clone, Args)]
pub struct SearchArgs {
    /// Search strategy.
    #[arg(long, value_parser = choice::<StrategyKind>(), default_value = "astar")]
    pub strategy: StrategyKind,
    /// Time budget of the search (e.g. 20s, 2m).
    #[arg(long, value_parser = parse_duration, default_value = "20s", conflicts_with = "max_programs")]
    pub budget: std::time::Duration,
    /// Program budget instead of a time budget: with it, the same seed gives the same result.
    #[arg(long, value_parser = parse_positive)]
    pub max_programs: Option<u64>,
    /// Seed of every random choice (default: derived from the clock, and printed).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Number of worker processes (default: one per core).
    #[arg(long, value_parser = parse_workers)]
    pub workers: Option<usize>,
    /// The cost the search optimizes.
    #[arg(long, value_parser = choice::<Metric>(), default_value = "cost")]
    pub metric: Metric,
    #[command(flatten)]
    pub switches: SwitchArgs,
    /// Deepest mutation path (maxMuts).
    #[arg(long, default_value_t = 32)]
    pub max_muts: u32,
    /// Per-program budget past which the program is a timeout, counted in fuel (edges at a
    /// fixed 10^8 per second, so it is the same on a loaded machine; the wall clock backs it
    /// up at 20x). Short on purpose: one program that needs longer is not worth its time.
    #[arg(long, value_parser = parse_duration, default_value = "500ms")]
    pub deadline: std::time::Duration,
}

impl SearchArgs {
    /// The engine's search configuration.
    pub fn config(&self) -> SearchConfig {
        let mut cfg = SearchConfig {
            budget: match self.max_programs {
                Some(n) => Budget::Programs(n),
                None => Budget::Time(self.budget),
            },
            seed: seed_or_clock(self.seed),
            metric: self.metric,
            max_depth: self.max_muts,
            ..SearchConfig::default()
        };
        self.switches.switches().apply(&mut cfg);
        cfg
    }

    /// The engine's search configuration for `harness`: [`SearchArgs::config`] with the
    /// values mined from its tests, unless `--no-mined-values`.
    pub fn config_for(&self, harness: &crate::harness::Harness) -> Result<SearchConfig> {
        let mut cfg = self.config();
        if !self.switches.no_mined_values {
            let index = crate::harness::mine::load(harness)?;
            cfg.mutation.mined = std::sync::Arc::new(crate::harness::mine::Retriever::new(index));
        }
        Ok(cfg)
    }

    /// The number of workers to start.
    pub fn worker_count(&self) -> usize {
        workers_or_cores(self.workers)
    }
}

/// `--workers`, or one worker per available core (2 when the count is unknown).
pub(super) fn workers_or_cores(workers: Option<usize>) -> usize {
    workers.unwrap_or_else(|| std::thread::available_parallelism().map_or(2, |n| n.get()))
}

/// `--seed`, or a short one (below 10^6, easy to type again) from the clock.
pub(super) fn seed_or_clock(seed: Option<u64>) -> u64 {
    seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(1, |d| d.as_nanos() as u64 % 1_000_000)
    })
}
/// Confirmation and run-file options of a search.
#[derive(Debug, Clone, Args)]
pub struct RecordArgs {
    /// Confirm this many of the top programs by wall-clock time (0: no confirmation).
    #[arg(long, default_value_t = 3)]
    pub confirm_top: usize,
    /// Measured repetitions per version in the confirmation (at least 30).
    #[arg(long, default_value_t = 30, value_parser = parse_reps)]
    pub confirm_reps: usize,
    /// Write the run file here (default: target/perfsyn/runs/<method>-<seed>.json under the
    /// workspace root); the plot goes next to it with the extension .svg.
    #[arg(long, value_name = "RUN.json")]
    pub out: Option<PathBuf>,
}

impl RecordArgs {
    /// The engine's confirmation settings.
    pub fn confirm(&self) -> crate::judge::confirm::ConfirmConfig {
        crate::judge::confirm::ConfirmConfig {
            top: self.confirm_top,
            reps: self.confirm_reps,
            ..Default::default()
        }
    }
}

pub(super) fn parse_reps(s: &str) -> Result<usize, String> {
    match s.parse::<usize>() {
        Ok(n) if n >= crate::judge::confirm::MIN_REPS => Ok(n),
        Ok(n) => Err(format!(
            "{n} repetitions are too few for a confidence interval; use at least {}",
            crate::judge::confirm::MIN_REPS
        )),
        Err(_) => Err(format!("`{s}` is not a number of repetitions")),
    }
}
/// A value parser for an engine enum: the values its `Display` prints, each with its strum
/// message, else the first paragraph of its doc comment, as help, parsed back through its `FromStr`. Engine enums thus
/// name their values without knowing clap.
pub(super) fn choice<T>() -> impl TypedValueParser<Value = T>
where
    T: VariantArray + EnumMessage + Into<&'static str> + FromStr + Copy + Send + Sync + 'static,
{
    let values = T::VARIANTS.iter().map(|&v| {
        let name: &'static str = v.into();
        let value = PossibleValue::new(name);
        let doc = v.get_documentation().map(|d| {
            let first = d.split("\n\n").next().unwrap_or(d).trim();
            first.strip_suffix('.').unwrap_or(first)
        });
        match v.get_message().or(doc) {
            Some(help) => value.help(help),
            None => value,
        }
    });
    PossibleValuesParser::new(values).map(|s| match T::from_str(&s) {
        Ok(v) => v,
        Err(_) => unreachable!("clap only passes listed values"),
    })
}
