//! `perfsyn bench`: benchmarks of perfsyn itself.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use clap::{Args, Subcommand};

use super::common::{
    choice, parse_duration, parse_positive, parse_workers, workers_or_cores, WorkerArgs,
};
use crate::commands::bench::ipc;
use crate::harness::worker_build;
use crate::judge::oracle::asymptotic::ScoreKind;
use crate::run::pool::WorkerPool;
use crate::search::StrategyKind;

#[derive(Debug, Subcommand)]
pub enum BenchCommand {
    /// Round-trip latency and programs/s through one worker, N workers and in-process.
    Ipc(BenchIpcArgs),
    /// Planted asymptotic bottlenecks and correct methods, per score and strategy, and planted
    /// version groups per strategy, under one program budget: the benchmark behind the
    /// default score and the relative verdict's gap floor.
    Search(BenchSearchArgs),
    /// Programs per second and the share of worker time outside the call under test, on
    /// seeded explores of corpus methods.
    Throughput(BenchThroughputArgs),
    /// Accuracy of the asymptotic verdict on generated, labeled (size, cost) series.
    Fit(BenchFitArgs),
    /// Toddler's repeated-traversal oracle on a labeled set of loops (bug patterns and
    /// non-bugs): recall, false positives and the trace build's slowdown.
    Toddler(BenchToddlerArgs),
    /// MemoizeIt's repeated-computation oracle on a labeled set of helpers (identical
    /// recomputations, redundant side effects, helpers whose input varies): recall, rank,
    /// false positives, the trace build's slowdown.
    Memoize(BenchToddlerArgs),
    /// Reproducers that hold: every detected suite case and example-crate bug exported into
    /// a scratch crate, its test run on the bug and the fix, its bench with criterion, clippy.
    Repro(BenchReproArgs),
    /// `perfsyn init` on crates fetched from the registry into a scratch directory: public
    /// methods, registered share (of all, and of those that are not `unsafe fn`),
    /// compiler-rejected registrations, documented classes read and the top skip reasons,
    /// per crate.
    Init(BenchInitArgs),
    /// Values mined from a crate's tests against none, on text-reading crates fetched into a
    /// scratch directory: per method, distinct edge-hit counts, distinct valid programs and
    /// the verdict, each way (same seed and budget).
    Values(BenchValuesArgs),
}

#[derive(Debug, Args)]
pub struct BenchValuesArgs {
    /// The crates, one `name@version method[,method...]` a line (`#` comments); default: the
    /// built-in list.
    #[arg(long, value_name = "FILE")]
    pub crates: Option<PathBuf>,
    /// Where the crates' sources and builds go (default: $TMPDIR/perfsyn-bench-values).
    #[arg(long, value_name = "DIR")]
    pub scratch: Option<PathBuf>,
    /// Programs per explore (deterministic budget).
    #[arg(long, value_parser = parse_positive, default_value = "300")]
    pub max_programs: u64,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Print a JSON object instead of a table.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct BenchInitArgs {
    /// The crates, one `name@version` a line (`#` comments); default: the built-in list.
    #[arg(long, value_name = "FILE")]
    pub crates: Option<PathBuf>,
    /// Where the crates' sources and builds go (default: $TMPDIR/perfsyn-bench-init).
    #[arg(long, value_name = "DIR")]
    pub scratch: Option<PathBuf>,
    /// Print a JSON object instead of a table.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct BenchReproArgs {
    /// Programs per explore (deterministic budget).
    #[arg(long, value_parser = parse_positive, default_value = "200")]
    pub max_programs: u64,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Only cases whose ID or method matches one of these comma-separated patterns.
    #[arg(long)]
    pub cases: Option<String>,
    /// Leave out the example crate's bugs (they need its harness built).
    #[arg(long)]
    pub no_examples: bool,
    #[arg(long, value_parser = parse_workers)]
    pub workers: Option<usize>,
    /// Longest run of one exported test or bench.
    #[arg(long, value_parser = parse_duration, default_value = "300s")]
    pub exe_timeout: std::time::Duration,
    /// Print a JSON object instead of a table.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub worker: WorkerArgs,
}

#[derive(Debug, Args)]
pub struct BenchToddlerArgs {
    /// Print a JSON object instead of a table.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct BenchFitArgs {
    /// Number of series (classes in turn).
    #[arg(long, value_parser = parse_positive, default_value = "350")]
    pub cases: u64,
    /// Seed of the generator (the method was tuned on seeds 1-8 and 100-119; 42 and 43 were kept apart).
    #[arg(long, default_value = "1")]
    pub seed: u64,
    /// Write the series as JSON lines to this file (for scripts/bench_fit_bigo.py).
    #[arg(long)]
    pub write_series: Option<PathBuf>,
    /// Print a JSON object instead of a table.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct BenchThroughputArgs {
    /// Methods to explore (default: Vec::dedup, BTreeMap::insert, HashMap::remove).
    #[arg(long, value_delimiter = ',')]
    pub methods: Vec<String>,
    /// Programs per explore (deterministic budget).
    #[arg(long, value_parser = parse_positive, default_value = "300")]
    pub max_programs: u64,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    #[arg(long, value_parser = parse_workers)]
    pub workers: Option<usize>,
    /// Print a JSON object instead of a table.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub worker: WorkerArgs,
}

#[derive(Debug, Args)]
pub struct BenchSearchArgs {
    /// Programs per run (deterministic budget).
    #[arg(long, value_parser = parse_positive, default_value = "400")]
    pub max_programs: u64,
    /// Seeds per (case, score, strategy).
    #[arg(long, value_parser = parse_positive, default_value = "2")]
    pub seeds: u64,
    /// Strategies to compare.
    #[arg(
        long,
        value_parser = choice::<StrategyKind>(),
        value_delimiter = ',',
        default_value = "astar,aco,random"
    )]
    pub strategies: Vec<StrategyKind>,
    /// Scores to compare.
    #[arg(long, value_parser = choice::<ScoreKind>(), value_delimiter = ',', default_value = "growth,area")]
    pub scores: Vec<ScoreKind>,
    /// Only the tuning cases whose ID or method matches (comma-separated, `*` a wildcard,
    /// e.g. `R*`); skips the throughput figures.
    #[arg(long, value_name = "PATTERN")]
    pub cases: Option<String>,
    /// Print a JSON object instead of a table.
    #[arg(long)]
    pub json: bool,
    #[arg(long, value_parser = parse_workers)]
    pub workers: Option<usize>,
    #[command(flatten)]
    pub worker: WorkerArgs,
}

#[derive(Debug, Args)]
pub struct BenchIpcArgs {
    /// Print a JSON object instead of a table.
    #[arg(long)]
    pub json: bool,
    /// Workers of the parallel figure (default: one per core).
    #[arg(long, value_parser = parse_workers)]
    pub workers: Option<usize>,
    /// Wall time spent on each figure (e.g. 500ms, 2s).
    #[arg(long, value_parser = parse_duration, default_value = "1s")]
    pub time: std::time::Duration,
    #[command(flatten)]
    pub worker: WorkerArgs,
}

/// A bench over registry crates (`bench init`, `bench values`): its crate list (a file, else
/// the built-in one) and its scratch directory (else `dir` under the system's temporary
/// one). Every crate's worker builds in one directory there, so the harness runtime and its
/// dependencies are built once, not once per crate (a user's own setting wins).
fn registry_bench(
    file: Option<&Path>,
    builtin: &str,
    scratch: Option<&Path>,
    dir: &str,
) -> Result<(String, PathBuf)> {
    let list = match file {
        Some(f) => {
            std::fs::read_to_string(f).with_context(|| format!("cannot read {}", f.display()))?
        }
        None => builtin.to_string(),
    };
    let scratch = scratch
        .map(Path::to_path_buf)
        .unwrap_or_else(|| std::env::temp_dir().join(dir));
    if std::env::var_os("PERFSYN_WORKER_TARGET_DIR").is_none() {
        std::env::set_var("PERFSYN_WORKER_TARGET_DIR", scratch.join("target"));
    }
    Ok((list, scratch))
}

/// What a crate list that does not parse is called in the error.
fn not_a_list(file: Option<&Path>) -> String {
    match file {
        Some(f) => format!("{} is not a crate list", f.display()),
        None => "the built-in crate list is broken".into(),
    }
}

/// Prints a bench's report: as JSON with `--json`, else as its text.
fn show<R: serde::Serialize>(json: bool, r: &R, render: fn(&R) -> String) -> Result<()> {
    if json {
        println!("{}", serde_json::to_string_pretty(r)?);
    } else {
        print!("{}", render(r));
    }
    Ok(())
}

pub fn run(b: BenchCommand) -> Result<()> {
    match b {
        BenchCommand::Init(a) => {
            use crate::commands::bench::init;
            let (list, scratch) = registry_bench(
                a.crates.as_deref(),
                init::DEFAULT_CRATES,
                a.scratch.as_deref(),
                "perfsyn-bench-init",
            )?;
            let crates =
                init::parse_list(&list).with_context(|| not_a_list(a.crates.as_deref()))?;
            let quiet = a.json;
            let r = init::run(&crates, &scratch, &mut |m| {
                if !quiet {
                    eprintln!("  {m}");
                }
            })?;
            show(a.json, &r, init::render)
        }
        BenchCommand::Values(a) => {
            use crate::commands::bench::values;
            let (list, scratch) = registry_bench(
                a.crates.as_deref(),
                values::DEFAULT_CRATES,
                a.scratch.as_deref(),
                "perfsyn-bench-values",
            )?;
            let crates =
                values::parse_list(&list).with_context(|| not_a_list(a.crates.as_deref()))?;
            let cfg = values::ValuesConfig {
                max_programs: a.max_programs,
                seed: a.seed,
            };
            let quiet = a.json;
            let r = values::run(&crates, &scratch, &cfg, &mut |m| {
                if !quiet {
                    eprintln!("  {m}");
                }
            })?;
            show(a.json, &r, values::render)
        }
        BenchCommand::Repro(a) => {
            let cfg = crate::commands::bench::repro::ReproConfig {
                max_programs: a.max_programs,
                seed: a.seed,
                cases: a.cases.clone(),
                examples: !a.no_examples,
                // The suite's cases are the built-in corpus's, wherever this runs from.
                corpus_worker: worker_build::resolve_worker_in(
                    a.worker.worker.as_deref(),
                    &crate::harness::Harness::builtin(),
                    a.json,
                )?,
                workers: a
                    .workers
                    .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())),
                exe_limit: a.exe_timeout,
            };
            let quiet = a.json;
            let r = crate::commands::bench::repro::run(&cfg, &mut |m| {
                if !quiet {
                    eprintln!("  {m}");
                }
            })?;
            show(a.json, &r, crate::commands::bench::repro::render)
        }
        BenchCommand::Fit(a) => {
            if let Some(f) = &a.write_series {
                std::fs::write(
                    f,
                    crate::commands::bench::fit::series_jsonl(a.seed, a.cases as usize),
                )
                .with_context(|| format!("cannot write {}", f.display()))?;
            }
            let r = crate::commands::bench::fit::run(a.seed, a.cases as usize);
            show(a.json, &r, crate::commands::bench::fit::render)
        }
        BenchCommand::Toddler(a) => {
            let h = crate::harness::Harness::builtin();
            let cases = crate::commands::bench::toddler::load_cases(&h.data_file("toddler.json"))?;
            let trace = worker_build::build(&h, worker_build::Build::Trace, a.json)?;
            let plain = worker_build::build(&h, worker_build::Build::Plain, a.json)?;
            let r = crate::commands::bench::toddler::run(&cases, &trace, &plain)?;
            show(a.json, &r, crate::commands::bench::toddler::render)
        }
        BenchCommand::Memoize(a) => {
            let h = crate::harness::Harness::builtin();
            let cases = crate::commands::bench::memoize::load_cases(&h.data_file("memoize.json"))?;
            let trace = worker_build::build(&h, worker_build::Build::Trace, a.json)?;
            let plain = worker_build::build(&h, worker_build::Build::Plain, a.json)?;
            let r = crate::commands::bench::memoize::run(&cases, &trace, &plain)?;
            show(a.json, &r, crate::commands::bench::memoize::render)
        }
        BenchCommand::Throughput(a) => {
            let worker = worker_build::resolve_worker(a.worker.worker.as_deref(), a.json)?;
            let workers = workers_or_cores(a.workers);
            let mut pool =
                WorkerPool::start(&worker, workers, std::time::Duration::from_millis(500))?;
            let methods = if a.methods.is_empty() {
                crate::commands::bench::throughput::default_methods()?
            } else {
                a.methods.clone()
            };
            let r = crate::commands::bench::throughput::run(
                &mut pool,
                workers,
                &methods,
                a.seed,
                a.max_programs,
            )?;
            show(a.json, &r, crate::commands::bench::throughput::render)
        }
        BenchCommand::Ipc(a) => {
            let worker = a.worker.resolve(a.json)?;
            let cfg = ipc::BenchIpcConfig {
                worker,
                workers: workers_or_cores(a.workers),
                per_figure: a.time,
            };
            let r = ipc::run(&cfg)?;
            show(a.json, &r, ipc::render)
        }
        BenchCommand::Search(a) => {
            let worker = a.worker.resolve(a.json)?;
            let workers = workers_or_cores(a.workers);
            let mut pool =
                WorkerPool::start(&worker, workers, std::time::Duration::from_millis(500))?;
            let cfg = crate::commands::bench::search::BenchSearchConfig {
                max_programs: a.max_programs,
                seeds: (1..=a.seeds).collect(),
                strategies: a.strategies.clone(),
                scores: a.scores.clone(),
                workers,
                cases: a.cases.clone(),
            };
            let quiet = a.json;
            let mut versions = crate::run::pair::PairExecutor::of_pool(&pool)?;
            let r = crate::commands::bench::search::run(
                &mut pool,
                Some(&mut versions),
                &cfg,
                &mut |m| {
                    if !quiet {
                        eprintln!("  {m}");
                    }
                },
            )?;
            show(a.json, &r, crate::commands::bench::search::render)
        }
    }
}
