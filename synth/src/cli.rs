//! The command line: clap options per subcommand and one `run` function each. Only this
//! module knows clap, the terminal and JSON output.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use clap::{Args, Parser, Subcommand};

use crate::bench_ipc;
use crate::explore::{explore_with, ExploreConfig, ExploreReport, OracleKind};
use crate::oracle::asymptotic::{ScoreKind, Thresholds};
use crate::oracle::relative::Direction;
use crate::pool::WorkerPool;
use crate::search::{Budget, Metric, SearchConfig, StrategyKind};
use crate::{list, worker_build};

/// perfsyn finds the inputs that make code slow.
#[derive(Debug, Parser)]
#[command(name = "perfsyn", version, about, long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// List every registered method with its signature and expected complexity.
    List(ListArgs),
    /// Benchmarks of perfsyn itself (`bench ipc`: the cost of the worker boundary).
    #[command(subcommand)]
    Bench(BenchCommand),
    /// Write a harness (`perfsyn/`) into your crate, registering its public API, so that
    /// every other command explores your crate.
    Init(InitArgs),
    /// Search for a program that exposes a bottleneck in one method.
    Explore(ExploreArgs),
    /// Compare two versions of a thread-safe type with generated multi-threaded tests
    /// (SpeedGun) and report a regression, an improvement or none.
    Compare(crate::compare::cli::CompareArgs),
    /// Re-run a saved program of a run file on the current worker and compare.
    Replay(ReplayArgs),
    /// Run the bottleneck corpus (Table 3.2, Listing 3.1, Toddler, negative controls) and
    /// print which cases each strategy detects.
    Suite(SuiteArgs),
    /// Turn a saved program of a run file into a Rust regression test, benchmark or program.
    Export(ExportArgs),
    /// Explore every method of an API (or of one type) into a directory, resumably, and
    /// write a ranked HTML report of the findings.
    Hunt(HuntArgs),
    /// Merge the result directories of a partitioned hunt (`hunt --partition k/N`) into one
    /// hunt directory and its report, or regenerate the report of one directory.
    Report(ReportArgs),
    /// Judge (size, cost) pairs you already have (CSV, JSON lines or a criterion group):
    /// the complexity class with its evidence.
    Fit(FitArgs),
    /// Gate a change: explore the public methods it touched (riskiest first) against the
    /// baseline revision; exit 1 on a confirmed regression, 0 when none, 2 on an error.
    Check(CheckArgs),
}

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
    pub partition: Option<crate::partition::Partition>,
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
}

/// `perfsyn check`: exit 1 on a confirmed regression, 0 when none, 2 on an error.
fn run_check(a: CheckArgs) -> Result<()> {
    match check_inner(&a) {
        Ok(code) => std::process::exit(code),
        Err(e) => {
            eprintln!("error: {e:#}");
            std::process::exit(2);
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
    let workers = a
        .workers
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(2, |n| n.get()));
    let deadline = std::time::Duration::from_millis(500);
    let cfg = crate::check::run::CheckConfig {
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
            confirm: crate::confirm::ConfirmConfig::default(),
        },
        shrink: crate::shrink::ShrinkConfig {
            budget: crate::shrink::DEFAULT_BUDGET,
        },
        workers,
        deadline,
        partition: a.partition,
        reproduce_suffix: h.reproduce_flag(),
        quiet: a.json,
    };
    let quiet = a.json;
    let report = crate::check::run::run(&h, &cfg, &mut |line| {
        if !quiet {
            eprintln!("{line}");
        }
    })?;
    if let Some(md) = &a.markdown {
        std::fs::write(md, report.markdown())
            .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", md.display()))?;
    }
    if a.json {
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        print!("{}", report.table());
    }
    Ok(report.exit_code())
}

#[derive(Debug, Args)]
pub struct FitArgs {
    /// `size,cost` CSV (optional header) or JSON lines {"size":..,"cost":..}; `-` is stdin.
    #[arg(conflicts_with = "criterion")]
    pub file: Option<PathBuf>,
    /// A criterion benchmark group directory whose parameter is the input size.
    #[arg(long)]
    pub criterion: Option<PathBuf>,
    /// The class the cost should follow, e.g. "O(n log n)".
    #[arg(long)]
    pub expect: Option<String>,
    /// Print a JSON object.
    #[arg(long)]
    pub json: bool,
}

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

#[derive(Debug, Args)]
pub struct InitArgs {
    /// The crate's Cargo.toml (default: the one in the current directory).
    #[arg(long, value_name = "PATH")]
    pub manifest_path: Option<PathBuf>,
    /// Regenerate an existing perfsyn/ directory.
    #[arg(long)]
    pub force: bool,
}

fn run_init(a: InitArgs) -> Result<()> {
    let s = crate::harness::init::run(&crate::harness::init::InitConfig {
        manifest_path: a.manifest_path,
        force: a.force,
        build: true,
        quiet: false,
    })?;
    print!("{}", crate::harness::init::render(&s));
    Ok(())
}

#[derive(Debug, Args)]
pub struct ListArgs {
    /// Only methods of this type (path like `Vec`, or full name like `Vec<Key>`).
    #[arg(long = "type", value_name = "T")]
    pub ty: Option<String>,
    /// Print a JSON array.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub worker: WorkerArgs,
}

/// Runs the parsed command line.
pub fn run(cli: Cli) -> Result<()> {
    match cli.command {
        Command::List(a) => run_list(a),
        Command::Bench(b) => run_bench(b),
        Command::Init(a) => run_init(a),
        Command::Explore(a) => run_explore(a),
        Command::Compare(a) => crate::compare::cli::run(a),
        Command::Replay(a) => run_replay(a),
        Command::Suite(a) => run_suite(a),
        Command::Export(a) => run_export(a),
        Command::Hunt(a) => run_hunt(a),
        Command::Report(a) => run_report(a),
        Command::Fit(a) => run_fit(a),
        Command::Check(a) => run_check(a),
    }
}

fn run_fit(a: FitArgs) -> Result<()> {
    use crate::fit_cmd;
    let expected = a.expect.as_deref().map(fit_cmd::parse_class).transpose()?;
    let (source, points) = match (&a.criterion, &a.file) {
        (Some(d), _) => (d.display().to_string(), fit_cmd::read_criterion(d)?),
        (None, Some(f)) if f.as_os_str() != "-" => {
            let text = std::fs::read_to_string(f)
                .with_context(|| format!("cannot read {}", f.display()))?;
            let src = f.display().to_string();
            (src.clone(), fit_cmd::parse_points(&text, &src)?)
        }
        _ => {
            let mut text = String::new();
            std::io::Read::read_to_string(&mut std::io::stdin(), &mut text)
                .context("cannot read stdin")?;
            ("-".to_string(), fit_cmd::parse_points(&text, "stdin")?)
        }
    };
    let r = fit_cmd::fit_points(&source, points, expected);
    if a.json {
        println!("{}", serde_json::to_string_pretty(&r)?);
    } else {
        print!("{}", fit_cmd::render(&r));
    }
    Ok(())
}

fn run_list(a: ListArgs) -> Result<()> {
    let worker = a.worker.resolve(false)?;
    let schema = worker_build::read_schema(&worker)?;
    let entries = list::entries(&schema, a.ty.as_deref())?;
    if a.json {
        println!("{}", serde_json::to_string_pretty(&entries)?);
    } else {
        print!("{}", list::render(&entries));
    }
    Ok(())
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

fn parse_workers(s: &str) -> Result<usize, String> {
    match s.parse::<usize>() {
        Ok(0) => Err("at least one worker is needed".into()),
        Ok(n) => Ok(n),
        Err(_) => Err(format!("`{s}` is not a number of workers")),
    }
}

fn parse_positive(s: &str) -> Result<u64, String> {
    match s.parse::<u64>() {
        Ok(0) => Err("must be at least 1".into()),
        Ok(n) => Ok(n),
        Err(_) => Err(format!("`{s}` is not a positive number")),
    }
}

/// Options of a search (shared by explore and later by suite and hunt).
#[derive(Debug, Clone, Args)]
pub struct SearchArgs {
    /// Search strategy.
    #[arg(long, value_enum, default_value = "astar")]
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
    #[arg(long, value_enum, default_value = "cost")]
    pub metric: Metric,
    /// Switch off our loop extension (repeat blocks), leaving the paper's program model.
    #[arg(long)]
    pub no_loops: bool,
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
            seed: self.seed.unwrap_or_else(|| {
                std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map(|d| d.as_nanos() as u64 % 1_000_000)
                    .unwrap_or(1)
            }),
            metric: self.metric,
            max_depth: self.max_muts,
            ..SearchConfig::default()
        };
        cfg.mutation.loops = !self.no_loops;
        cfg
    }

    /// The number of workers to start.
    pub fn worker_count(&self) -> usize {
        self.workers.unwrap_or_else(|| {
            std::thread::available_parallelism()
                .map(|n| n.get())
                .unwrap_or(2)
        })
    }
}

#[derive(Debug, Args)]
pub struct ExploreArgs {
    /// The method under test, e.g. `Vec::dedup` (see `perfsyn list`).
    #[arg(long)]
    pub method: String,
    /// Start from a saved program (a run file of the same method) instead of building p0.
    #[arg(long, value_name = "RUN.json")]
    pub from: Option<PathBuf>,
    /// Which saved program of `--from` to start from (1 = the best).
    #[arg(long, default_value_t = 1, requires = "from", value_name = "K")]
    pub from_rank: usize,
    #[command(flatten)]
    pub search: SearchArgs,
    /// Which oracle judges: relative for version groups and asymptotic otherwise by default.
    #[arg(long, value_enum, default_value = "auto")]
    pub oracle: OracleKind,
    /// Asymptotic score: `growth` (ours, default) or `area` (eq. 3.5 of the paper).
    #[arg(long, value_enum, default_value = "growth")]
    pub score: ScoreKindArg,
    /// Relative oracle: which cost gaps count.
    #[arg(long, value_enum, default_value = "both")]
    pub direction: Direction,
    /// Relative oracle: the smallest new/old cost ratio reported (t_rel).
    #[arg(long, default_value_t = 1.2)]
    pub t_rel: f64,
    /// Override the documented complexity, e.g. "O(n)".
    #[arg(long, value_name = "CLASS")]
    pub expect: Option<String>,
    /// Print the report as JSON.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub worker: WorkerArgs,
    #[command(flatten)]
    pub record: RecordArgs,
    /// Also export the best program to this file (see `perfsyn export`).
    #[arg(long, value_name = "FILE")]
    pub export: Option<PathBuf>,
    /// The format of `--export`.
    #[arg(long, value_enum, default_value = "test", requires = "export")]
    pub export_format: crate::export::Format,
    /// Verdict checks that shrinking the reported program may spend (0: do not shrink).
    #[arg(long, default_value_t = crate::shrink::DEFAULT_BUDGET, value_name = "N")]
    pub shrink_budget: usize,
    /// Compare the working tree with this git revision of your crate (relative oracle over
    /// two workers: the harness built against REV and against the working tree).
    #[arg(long, value_name = "REV", conflicts_with = "worker")]
    pub baseline: Option<String>,
}

#[derive(Debug, Args)]
pub struct ExportArgs {
    /// The run file written by `perfsyn explore`.
    #[arg(value_name = "RUN.json")]
    pub run: PathBuf,
    /// Which saved program: 1 is the best, 2.. the following ones.
    #[arg(long, default_value_t = 1, value_parser = parse_positive)]
    pub rank: u64,
    /// `test`: a regression test that fails while the bottleneck is there; `bench`: a
    /// criterion benchmark; `program`: the program as a #[test] that runs it once.
    #[arg(long, value_enum)]
    pub format: crate::export::Format,
    /// Write the file here instead of stdout.
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub output: Option<PathBuf>,
    #[command(flatten)]
    pub worker: WorkerArgs,
}

/// Exports program `rank` of the run file at `run_path` to `output` (or stdout); warnings on
/// stderr. The schema comes from the worker (run files do not carry it), which also runs the
/// program at the test's sizes to pick what the test measures.
fn export_run(
    run_path: &std::path::Path,
    exec: &mut dyn crate::exec::Executor,
    format: crate::export::Format,
    rank: usize,
    output: Option<&std::path::Path>,
) -> Result<()> {
    use anyhow::Context;
    let run = crate::runfile::RunFile::load(run_path)?;
    if run.schema_hash_value() != Some(exec.schema().hash()) {
        eprintln!(
            "warning: {} was made with a worker whose API schema differs from this one",
            run_path.display()
        );
    }
    let cfg = crate::export::ExportConfig {
        format,
        rank,
        run_path: Some(run_path.to_path_buf()),
        target_name: output
            .and_then(|p| p.file_stem())
            .map(|s| s.to_string_lossy().into_owned()),
    };
    let exported = crate::export::export(&run, exec, &cfg)
        .map_err(|e| anyhow::anyhow!("{}: {e}", run_path.display()))?;
    for w in &exported.warnings {
        eprintln!("warning: {w}");
    }
    crate::export::write(&exported, output).with_context(|| match output {
        Some(p) => format!("cannot write {}", p.display()),
        None => "cannot write to stdout".into(),
    })?;
    if let Some(p) = output {
        eprintln!("exported ({}): {}", format.name(), p.display());
    }
    Ok(())
}

fn run_export(a: ExportArgs) -> Result<()> {
    // Read the run file (and check the rank) before building or starting anything.
    let run = crate::runfile::RunFile::load(&a.run)?;
    crate::replay::program_of(&run, a.rank as usize)
        .map_err(|e| anyhow::anyhow!("{}: {e}", a.run.display()))?;
    let worker = a.worker.resolve(true)?;
    let mut pool = WorkerPool::start(&worker, 1, std::time::Duration::from_secs(10))?;
    export_run(
        &a.run,
        &mut pool,
        a.format,
        a.rank as usize,
        a.output.as_deref(),
    )
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
    pub fn confirm(&self) -> crate::confirm::ConfirmConfig {
        crate::confirm::ConfirmConfig {
            top: self.confirm_top,
            reps: self.confirm_reps,
            ..Default::default()
        }
    }
}

fn parse_reps(s: &str) -> Result<usize, String> {
    match s.parse::<usize>() {
        Ok(n) if n >= crate::confirm::MIN_REPS => Ok(n),
        Ok(n) => Err(format!(
            "{n} repetitions are too few for a confidence interval; use at least {}",
            crate::confirm::MIN_REPS
        )),
        Err(_) => Err(format!("`{s}` is not a number of repetitions")),
    }
}

#[derive(Debug, Args)]
pub struct ReplayArgs {
    /// The run file written by `perfsyn explore`.
    #[arg(value_name = "RUN.json")]
    pub run: PathBuf,
    /// Which saved program: 1 is the best, 2.. the following ones.
    #[arg(long, default_value_t = 1, value_parser = parse_positive)]
    pub rank: u64,
    /// Print the comparison as JSON.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub worker: WorkerArgs,
}

fn run_replay(a: ReplayArgs) -> Result<()> {
    let run = crate::runfile::RunFile::load(&a.run)?;
    // Check the rank before building or starting anything.
    crate::replay::program_of(&run, a.rank as usize)
        .map_err(|e| anyhow::anyhow!("{}: {e}", a.run.display()))?;
    let worker = a.worker.resolve(a.json)?;
    let identity = crate::runfile::worker_identity(&worker)
        .map_err(|e| anyhow::anyhow!("cannot read the worker {}: {e}", worker.display()))?;
    let mut pool = WorkerPool::start(&worker, 1, std::time::Duration::from_secs(10))?;
    let r = crate::replay::replay(&mut pool, &run, a.rank as usize, &identity.hash)?;
    if a.json {
        println!("{}", serde_json::to_string_pretty(&r)?);
    } else {
        if r.schema_changed {
            eprintln!(
                "warning: {} was made with a worker whose API schema differs from this one",
                a.run.display()
            );
        }
        print!(
            "{}",
            crate::replay::render(&r, &a.run.display().to_string())
        );
    }
    crate::replay::gate(&r).map_err(|e| anyhow::anyhow!("{}: {e}", a.run.display()))
}

/// `--score` values.
#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub enum ScoreKindArg {
    Growth,
    Area,
}

/// The program of rank `rank` (1 = best) in the run file at `path`, which must be a run of
/// `method`.
fn saved_program(
    path: &std::path::Path,
    rank: usize,
    method: &str,
) -> Result<perfsyn_profiler_ipc::Program> {
    let run = crate::runfile::RunFile::load(path)?;
    if run.report.method != method {
        anyhow::bail!(
            "{} is a run of {}, not of {method}; pass --method {} or another run file",
            path.display(),
            run.report.method,
            run.report.method
        );
    }
    let best = run.report.best.iter().chain(run.report.others.iter());
    match best.clone().nth(rank.saturating_sub(1)) {
        Some(b) if rank >= 1 => Ok(b.program.clone()),
        _ => anyhow::bail!(
            "{} has {} saved programs; --from-rank {rank} is out of range",
            path.display(),
            best.count()
        ),
    }
}

fn run_explore(a: ExploreArgs) -> Result<()> {
    if a.t_rel.is_nan() || a.t_rel <= 1.0 {
        anyhow::bail!("--t-rel must be greater than 1 (got {})", a.t_rel);
    }
    let start = match &a.from {
        Some(path) => Some(saved_program(path, a.from_rank, &a.method)?),
        None => None,
    };
    if let Some(why) = crate::harness::init::skipped_reason(&a.worker.harness()?, &a.method) {
        anyhow::bail!("{why}");
    }
    let worker = a.worker.resolve(a.json)?;
    let mut baseline = match &a.baseline {
        Some(rev) => {
            let open = crate::check::baseline::open(
                &a.worker.harness()?,
                rev,
                a.search.worker_count(),
                a.search.deadline,
                a.json,
            )?;
            crate::check::baseline::check_comparable(&open, &a.method)?;
            Some(open)
        }
        None => None,
    };
    let mut pool = WorkerPool::start(&worker, a.search.worker_count(), a.search.deadline)?;
    let cfg = ExploreConfig {
        method: a.method.clone(),
        strategy: a.search.strategy,
        oracle: if baseline.is_some() {
            OracleKind::Relative
        } else {
            a.oracle
        },
        score: match a.score {
            ScoreKindArg::Growth => ScoreKind::Growth,
            ScoreKindArg::Area => ScoreKind::Area,
        },
        direction: a.direction,
        t_rel: a.t_rel,
        thresholds: Thresholds::default(),
        expect: a.expect.clone(),
        search: a.search.config(),
        start,
        confirm: a.record.confirm(),
    };
    let bar = (!a.json).then(|| {
        let b = indicatif::ProgressBar::new_spinner();
        b.set_style(
            indicatif::ProgressStyle::with_template("{spinner} {msg}").expect("static template"),
        );
        b
    });
    let shrink = crate::shrink::ShrinkConfig {
        budget: a.shrink_budget,
    };
    let exec: &mut dyn crate::exec::Executor = match baseline.as_mut() {
        Some(open) => &mut open.pair,
        None => &mut pool,
    };
    let report = explore_with(exec, &cfg, shrink, &mut |p| {
        if let Some(b) = &bar {
            b.set_message(format!(
                "{} programs, {} valid, best score {:.3}, {:.1}s",
                p.programs,
                p.valid,
                p.best_score,
                p.elapsed.as_secs_f64()
            ));
            b.tick();
        }
    })?;
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    let (run_path, plot_path) = record_run(&report, &a, &worker, pool.pool().schema().hash())?;
    if let Some(file) = &a.export {
        export_run(&run_path, &mut pool, a.export_format, 1, Some(file))?;
    }
    if a.json {
        println!("{}", serde_json::to_string_pretty(&report)?);
        eprintln!("run file: {}", run_path.display());
        if let Some(p) = &plot_path {
            eprintln!("plot: {}", p.display());
        }
    } else {
        print!("{}", render_explore(&report, &a));
        println!("run file: {}", run_path.display());
        if let Some(p) = &plot_path {
            println!("plot: {}", p.display());
        }
    }
    Ok(())
}

/// Writes the run file and its plot; returns their paths (no plot when the run has no points).
fn record_run(
    report: &ExploreReport,
    a: &ExploreArgs,
    worker: &std::path::Path,
    schema_hash: u64,
) -> Result<(PathBuf, Option<PathBuf>)> {
    use anyhow::Context;
    let path = match a.record.out.clone() {
        Some(p) => p,
        None => {
            // Under the explored crate's target/perfsyn/runs, never over an earlier run.
            let runs = a.worker.harness()?.runs_dir();
            let name = crate::runfile::default_path(Path::new("."), &report.method, report.seed);
            let stem = name.file_stem().map(|s| s.to_string_lossy().into_owned());
            crate::harness::discovery::fresh_path(&runs, &stem.unwrap_or_default(), "json")
        }
    };
    let identity = crate::runfile::worker_identity(worker)
        .with_context(|| format!("cannot read the worker {}", worker.display()))?;
    let run = crate::runfile::RunFile::new(
        report.clone(),
        std::env::args().collect(),
        identity,
        schema_hash,
    );
    run.save(&path)?;
    let plot_path = crate::plot::path_for(&path);
    let plot = match crate::plot::write(report, &plot_path) {
        Ok(()) => Some(plot_path),
        Err(crate::plot::PlotError::Empty) => None,
        Err(e) => return Err(e.into()),
    };
    Ok((path, plot))
}

/// The confirmation lines of the explore report.
fn render_confirmation(r: &ExploreReport) -> String {
    let Some(c) = &r.confirmation else {
        return String::new();
    };
    let mut s = format!(
        "wall-clock confirmation ({} runs per arm after {} warm-up, timed on the {}; significant = {}):\n",
        c.reps, c.warmup, c.timed_on, c.method
    );
    for x in &c.confirmed {
        let ci = |t: &crate::confirm::TimeStats| {
            format!(
                "{:.0} ns [{:.0}, {:.0}]",
                t.mean_ns, t.ci95_low_ns, t.ci95_high_ns
            )
        };
        s.push_str(&format!(
            "  #{} {} {} vs {} {}: cost ratio {:.3}, time ratio {:.3} (p = {:.3}), {}\n",
            x.rank,
            x.a.label,
            ci(&x.a.time),
            x.b.label,
            ci(&x.b.time),
            x.cost_ratio,
            x.time_ratio,
            x.p_value,
            if x.significant {
                "significant"
            } else {
                "NOT significant"
            }
        ));
    }
    for u in &c.unconfirmed {
        s.push_str(&format!("  #{} not confirmed: {}\n", u.rank, u.reason));
    }
    if r.time_significant == Some(false) {
        let cost_differs = r.verdict == "bottleneck";
        s.push_str(&if r.oracle == "relative" && cost_differs {
            "  the measured time difference of the best program is not significant: the method is too short for wall-clock time to show the cost difference\n".to_string()
        } else if r.oracle == "relative" {
            "  no significant time difference either: the versions perform alike on these programs\n".to_string()
        } else {
            "  the time difference between the largest and the smallest input is not significant: the calls are too short for wall-clock time to show the growth\n".to_string()
        });
    }
    s
}

/// The human-readable explore report.
pub fn render_explore(r: &ExploreReport, a: &ExploreArgs) -> String {
    let mut s = String::new();
    s.push_str(&format!("{}: {} ({})\n", r.method, r.verdict, r.reason));
    s.push_str(&format!(
        "oracle {}, strategy {}, metric {}, seed {}\n",
        r.oracle, r.strategy, r.metric, r.seed
    ));
    if r.oracle == "asymptotic" {
        s.push_str(&format!(
            "expected {}, empirical {} (fit error {})\n",
            r.expected.as_deref().unwrap_or("undeclared"),
            r.empirical.as_deref().unwrap_or("?"),
            r.fit_error
                .map(|e| format!("{:.2}%", e * 100.0))
                .unwrap_or_else(|| "-".into())
        ));
        if let Some(v) = &r.evidence {
            s.push_str(&crate::fit_cmd::render_evidence(v));
        }
    } else if let Some(ratio) = r.ratio {
        s.push_str(&format!("cost new/old {ratio:.3}\n"));
    }
    s.push_str(&render_confirmation(r));
    if let Some(b) = &r.best {
        s.push_str(&format!(
            "\nbest program ({} mutations, input size {}, cost {}):\n",
            b.mutations, b.input_size, b.cost
        ));
        for l in b.rust.lines() {
            s.push_str(&format!("    {l}\n"));
        }
        if let Some(r) = &b.shrunk_from {
            s.push_str(&format!("{}\n", crate::shrink::describe(r, b.statements)));
        }
    }
    if !r.points.is_empty() {
        let pts: Vec<String> = r
            .points
            .iter()
            .map(|(n, c)| format!("({n}, {c})"))
            .collect();
        s.push_str(&format!(
            "\npoints ({}): {}\n",
            r.points_from,
            pts.join(" ")
        ));
    }
    let st = &r.stats;
    s.push_str(&format!(
        "\n{} programs ({} valid, {} panics, {} crashes, {} timeouts) in {:.1}s\n",
        st.programs,
        st.valid,
        st.panics,
        st.crashes,
        st.timeouts,
        st.elapsed_ms as f64 / 1000.0
    ));
    s.push_str(&format!("Reproduce with: {}\n", reproduce_explore(r, a)));
    s
}

/// The command that reproduces an explore run exactly: the program count it reached (never
/// a time budget) and every flag that shaped the search or the verdict.
fn reproduce_explore(r: &ExploreReport, a: &ExploreArgs) -> String {
    fn name(v: &impl clap::ValueEnum) -> String {
        v.to_possible_value()
            .map_or_else(String::new, |p| p.get_name().to_string())
    }
    let mut c = format!(
        "perfsyn explore --method {} --strategy {} --seed {} --max-programs {} --metric {} --deadline {}s --max-muts {}",
        a.method, r.strategy, r.seed, r.stats.programs, r.metric, a.search.deadline.as_secs_f64(), a.search.max_muts
    );
    c += &format!(" --oracle {}", name(&a.oracle));
    c += &format!(" --score {}", name(&a.score));
    c += &format!(" --direction {} --t-rel {}", name(&a.direction), a.t_rel);
    if a.search.no_loops {
        c += " --no-loops";
    }
    if let Some(e) = &a.expect {
        c += &format!(" --expect \"{e}\"");
    }
    if let Some(f) = &a.from {
        c += &format!(" --from {} --from-rank {}", f.display(), a.from_rank);
    }
    if let Ok(h) = a.worker.harness() {
        c += &h.reproduce_flag();
    }
    c
}

#[derive(Debug, Subcommand)]
pub enum BenchCommand {
    /// Round-trip latency and programs/s through one worker, N workers and in-process.
    Ipc(BenchIpcArgs),
    /// Planted asymptotic bottlenecks and correct methods, per score and strategy, under one
    /// program budget: the benchmark behind the default score.
    Search(BenchSearchArgs),
    /// Programs per second and the share of worker time outside the call under test, on
    /// seeded explores of corpus methods.
    Throughput(BenchThroughputArgs),
    /// Accuracy of the asymptotic verdict on generated, labeled (size, cost) series.
    Fit(BenchFitArgs),
}

#[derive(Debug, Args)]
pub struct BenchFitArgs {
    /// Number of series (classes in turn).
    #[arg(long, value_parser = parse_positive, default_value = "350")]
    pub cases: u64,
    /// Seed of the generator (the thresholds were tuned on seeds 7 and 8).
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
        value_enum,
        value_delimiter = ',',
        default_value = "astar,aco,random"
    )]
    pub strategies: Vec<StrategyKind>,
    /// Scores to compare.
    #[arg(long, value_enum, value_delimiter = ',', default_value = "growth,area")]
    pub scores: Vec<ScoreKindArg>,
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

fn run_bench(b: BenchCommand) -> Result<()> {
    match b {
        BenchCommand::Fit(a) => {
            if let Some(f) = &a.write_series {
                std::fs::write(f, crate::bench_fit::series_jsonl(a.seed, a.cases as usize))
                    .with_context(|| format!("cannot write {}", f.display()))?;
            }
            let r = crate::bench_fit::run(a.seed, a.cases as usize);
            if a.json {
                println!("{}", serde_json::to_string_pretty(&r)?);
            } else {
                print!("{}", crate::bench_fit::render(&r));
            }
            Ok(())
        }
        BenchCommand::Throughput(a) => {
            let worker = worker_build::resolve_worker(a.worker.worker.as_deref(), a.json)?;
            let workers = a
                .workers
                .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
            let mut pool =
                WorkerPool::start(&worker, workers, std::time::Duration::from_millis(500))?;
            let methods = if a.methods.is_empty() {
                crate::bench_throughput::METHODS.map(String::from).to_vec()
            } else {
                a.methods.clone()
            };
            let r =
                crate::bench_throughput::run(&mut pool, workers, &methods, a.seed, a.max_programs)?;
            if a.json {
                println!("{}", serde_json::to_string_pretty(&r)?);
            } else {
                print!("{}", crate::bench_throughput::render(&r));
            }
            Ok(())
        }
        BenchCommand::Ipc(a) => {
            let worker = a.worker.resolve(a.json)?;
            let cfg = bench_ipc::BenchIpcConfig {
                worker,
                workers: a
                    .workers
                    .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())),
                per_figure: a.time,
            };
            let r = bench_ipc::run(&cfg)?;
            if a.json {
                println!("{}", serde_json::to_string_pretty(&r)?);
            } else {
                print!("{}", bench_ipc::render(&r));
            }
            Ok(())
        }
        BenchCommand::Search(a) => {
            let worker = a.worker.resolve(a.json)?;
            let workers = a
                .workers
                .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
            let mut pool =
                WorkerPool::start(&worker, workers, std::time::Duration::from_millis(500))?;
            let cfg = crate::bench_search::BenchSearchConfig {
                max_programs: a.max_programs,
                seeds: (1..=a.seeds).collect(),
                strategies: a.strategies.clone(),
                scores: a
                    .scores
                    .iter()
                    .map(|s| match s {
                        ScoreKindArg::Growth => ScoreKind::Growth,
                        ScoreKindArg::Area => ScoreKind::Area,
                    })
                    .collect(),
                workers,
            };
            let quiet = a.json;
            let r = crate::bench_search::run(&mut pool, &cfg, &mut |m| {
                if !quiet {
                    eprintln!("  {m}");
                }
            })?;
            if a.json {
                println!("{}", serde_json::to_string_pretty(&r)?);
            } else {
                print!("{}", crate::bench_search::render(&r));
            }
            Ok(())
        }
    }
}

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

fn run_suite(a: SuiteArgs) -> Result<()> {
    use crate::suite;
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
        seed: a.seed.unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.as_nanos() as u64 % 1_000_000)
                .unwrap_or(1)
        }),
        t_rel: 1.2,
    };
    // Fail on a bad pattern before building or starting anything.
    let selected = suite::select(cfg.cases.as_deref())?;
    let worker = a.worker.resolve(a.json)?;
    let workers = a.workers.unwrap_or_else(|| {
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(2)
    });
    let mut pool = WorkerPool::start(&worker, workers, std::time::Duration::from_millis(500))?;
    let bar = indicatif::ProgressBar::new((selected.len() * strategies.len()) as u64);
    bar.set_style(
        indicatif::ProgressStyle::with_template("{bar:30} {pos}/{len} {elapsed_precise} {msg}")
            .expect("static template"),
    );
    let report = suite::run(&mut pool, &cfg, &mut |p| {
        bar.set_position(p.done as u64);
        bar.set_message(format!(
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

#[derive(Debug, Args)]
#[command(group(clap::ArgGroup::new("what").args(["ty", "all"])))]
pub struct HuntArgs {
    /// Only the methods of this type (path like `Vec`, or full name like `Vec<Key>`).
    #[arg(long = "type", value_name = "T")]
    pub ty: Option<String>,
    /// Every registered method (test-only hostile targets excepted).
    #[arg(long)]
    pub all: bool,
    /// Time budget of each method's search [default: 60s].
    #[arg(long, value_parser = parse_duration)]
    pub budget_per_method: Option<std::time::Duration>,
    /// Program budget of each method's search instead of a time budget: with it, the same
    /// seed gives the same findings on any machine (what partitions of one hunt need).
    #[arg(long, value_parser = parse_positive, value_name = "N", conflicts_with = "budget_per_method")]
    pub max_programs_per_method: Option<u64>,
    /// Explore only partition K of N of the methods (sorted by name, every N-th one), into a
    /// directory of its own; merge the partitions with `perfsyn report`.
    #[arg(long, value_name = "K/N")]
    pub partition: Option<crate::partition::Partition>,
    /// Search strategy [default: astar].
    #[arg(long, value_enum)]
    pub strategy: Option<StrategyKind>,
    /// Seed of every search (default: derived from the clock, and printed).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Number of worker processes (default: one per core).
    #[arg(long, value_parser = parse_workers)]
    pub workers: Option<usize>,
    /// The hunt directory: run files, hunt.json, report.html, summary.json, summary.md.
    #[arg(long, value_name = "DIR", required_unless_present = "report")]
    pub out: Option<PathBuf>,
    /// Continue the hunt in --out DIR where it stopped, with the settings it started with.
    #[arg(long, requires = "out")]
    pub resume: bool,
    /// Only regenerate the reports of the hunt in DIR from its run files.
    #[arg(long, value_name = "DIR", conflicts_with_all = ["out", "resume", "ty", "all", "budget_per_method", "max_programs_per_method", "partition", "strategy", "seed", "workers"])]
    pub report: Option<PathBuf>,
    #[command(flatten)]
    pub worker: WorkerArgs,
}

fn run_hunt(a: HuntArgs) -> Result<()> {
    use crate::hunt::{self, dir, report};
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Arc;
    if let Some(d) = &a.report {
        let s = report::regenerate(d)?;
        print!("{}", report::terminal(&s, d));
        return Ok(());
    }
    let out = a.out.clone().expect("clap requires --out");
    let hunt_dir = if a.resume {
        let d = dir::HuntDir::open(&out)?;
        check_resume_settings(&a, &d.manifest, &out)?;
        Some(dir::HuntDir::resume(&out)?)
    } else {
        // Refuse a foreign, damaged or existing hunt directory before building anything.
        if out.exists() && (!out.is_dir() || std::fs::read_dir(&out)?.next().is_some()) {
            let e = dir::HuntDir::open(&out).map(|d| {
                let done = d.finished().map_or(0, |f| f.len());
                dir::HuntDirError::Exists {
                    path: out.clone(),
                    done,
                    total: d.manifest.methods.len(),
                }
            });
            return Err(match e {
                Ok(e) | Err(e) => e.into(),
            });
        }
        if a.ty.is_none() && !a.all {
            anyhow::bail!("say what to hunt: --type T for one type, or --all for every method");
        }
        None
    };
    let worker = a.worker.resolve(false)?;
    let identity = crate::runfile::worker_identity(&worker)
        .map_err(|e| anyhow::anyhow!("cannot read the worker {}: {e}", worker.display()))?;
    let pool = WorkerPool::start(
        &worker,
        a.workers.unwrap_or_else(|| {
            std::thread::available_parallelism()
                .map(|n| n.get())
                .unwrap_or(2)
        }),
        std::time::Duration::from_millis(500),
    )?;
    let schema_hash = format!("{:016x}", pool.pool().schema().hash());
    let hunt_dir = match hunt_dir {
        Some(d) => {
            if d.manifest.schema_hash != schema_hash {
                eprintln!(
                    "warning: the worker's API schema changed since this hunt started; the remaining methods run on the new one"
                );
            }
            d
        }
        None => {
            let settings = dir::HuntSettings {
                ty: a.ty.clone(),
                budget_per_method_ms: match a.max_programs_per_method {
                    Some(_) => 0,
                    None => a
                        .budget_per_method
                        .unwrap_or(std::time::Duration::from_secs(60))
                        .as_millis() as u64,
                },
                max_programs_per_method: a.max_programs_per_method,
                strategy: a.strategy.unwrap_or(StrategyKind::Astar).name().into(),
                seed: a.seed.unwrap_or_else(|| {
                    std::time::SystemTime::now()
                        .duration_since(std::time::UNIX_EPOCH)
                        .map(|d| d.as_nanos() as u64 % 1_000_000)
                        .unwrap_or(1)
                }),
                t_rel: 1.2,
            };
            let methods = hunt::plan(pool.pool().schema(), a.ty.as_deref())?;
            dir::HuntDir::create(
                &out,
                dir::Manifest::new(
                    std::env::args().collect(),
                    schema_hash,
                    settings,
                    methods,
                    a.partition,
                ),
            )?
        }
    };
    let shown = out.display().to_string();
    let m = &hunt_dir.manifest;
    let done = hunt_dir.finished()?.len();
    eprintln!(
        "hunting {}{} ({} done) into {}: strategy {}, {} per method, seed {}",
        report::count(m.methods.len(), "method"),
        m.partition.as_ref().map_or(String::new(), |p| format!(
            " (partition {} of the hunt's {})",
            p.part,
            p.plan.len()
        )),
        done,
        shown,
        m.settings.strategy,
        m.settings.budget_text(),
        m.settings.seed
    );
    // Ctrl-C (and SIGTERM) only set a flag: the hunt writes what is finished and stops.
    let stop = Arc::new(AtomicBool::new(false));
    {
        let stop = stop.clone();
        ctrlc::set_handler(move || stop.store(true, Ordering::SeqCst))
            .map_err(|e| anyhow::anyhow!("cannot install the Ctrl-C handler: {e}"))?;
    }
    let bar = indicatif::ProgressBar::new(m.methods.len() as u64);
    bar.set_style(
        indicatif::ProgressStyle::with_template(
            "{bar:30} {pos}/{len} methods, {msg} [{elapsed_precise}, ETA {eta}]",
        )
        .expect("static template"),
    );
    bar.set_position(done as u64);
    bar.reset_eta();
    let findings_before = report::summarize(&hunt_dir, &hunt_dir.finished()?, &shown);
    let observer = HuntBar {
        bar: bar.clone(),
        findings: findings_before.relative.len() + findings_before.asymptotic.len(),
    };
    observer
        .bar
        .set_message(report::count(observer.findings, "finding"));
    let hunt_dir = Arc::new(hunt_dir);
    let outcome = hunt::run(hunt_dir.clone(), pool, identity, stop, Box::new(observer))?;
    bar.finish_and_clear();
    let s = report::write_reports(&hunt_dir, &shown)?;
    print!("{}", report::terminal(&s, &out));
    if outcome == hunt::Outcome::Interrupted {
        eprintln!(
            "interrupted: {} of {} methods are done and written; continue with: perfsyn hunt --out {} --resume",
            s.methods_done, s.methods_total, shown
        );
        // The hunt thread may still be searching; exiting ends it and its workers.
        std::process::exit(130);
    }
    Ok(())
}

/// On `--resume`, options that would change the hunt must agree with its manifest.
fn check_resume_settings(
    a: &HuntArgs,
    m: &crate::hunt::dir::Manifest,
    out: &std::path::Path,
) -> Result<()> {
    let s = &m.settings;
    let partition = m.partition.as_ref().map(|p| p.part);
    let mut clash = Vec::new();
    if a.all && s.ty.is_some() {
        clash.push("--all".to_string());
    }
    if a.ty.is_some() && a.ty != s.ty {
        clash.push(format!("--type {}", a.ty.as_deref().unwrap_or("")));
    }
    if a.budget_per_method
        .is_some_and(|b| b.as_millis() as u64 != s.budget_per_method_ms)
    {
        clash.push("--budget-per-method".into());
    }
    if a.max_programs_per_method
        .is_some_and(|n| Some(n) != s.max_programs_per_method)
    {
        clash.push("--max-programs-per-method".into());
    }
    if a.partition.is_some() && a.partition != partition {
        clash.push("--partition".into());
    }
    if a.strategy.is_some_and(|k| k.name() != s.strategy) {
        clash.push("--strategy".into());
    }
    if a.seed.is_some_and(|x| x != s.seed) {
        clash.push("--seed".into());
    }
    if !clash.is_empty() {
        anyhow::bail!(
            "{} differs from the hunt in {} ({} per method, strategy {}, seed {}, {}{}); drop it to resume, or pick another --out",
            clash.join(", "),
            out.display(),
            s.budget_text(),
            s.strategy,
            s.seed,
            s.ty.as_deref().map_or("--all".to_string(), |t| format!("--type {t}")),
            partition.map_or(String::new(), |p| format!(", partition {p}"))
        );
    }
    Ok(())
}

/// The hunt's progress bar: methods done/total, findings so far, ETA; one line per method
/// (printed above the bar, or alone when stderr is not a terminal).
struct HuntBar {
    bar: indicatif::ProgressBar,
    findings: usize,
}

impl crate::hunt::HuntObserver for HuntBar {
    fn started(&mut self, _done: usize, _total: usize, m: &crate::hunt::dir::PlannedMethod) {
        self.bar
            .set_message(format!("{} findings; {}", self.findings, m.method));
    }

    fn finished(&mut self, m: &crate::hunt::dir::PlannedMethod, r: &ExploreReport, finding: bool) {
        self.findings += finding as usize;
        self.bar.inc(1);
        self.bar
            .set_message(crate::hunt::report::count(self.findings, "finding"));
        let line = format!(
            "[{}/{}] {}: {}{} ({})",
            self.bar.position(),
            self.bar.length().unwrap_or(0),
            m.method,
            r.verdict,
            if finding { " [finding]" } else { "" },
            r.reason
        );
        self.bar.suspend(|| eprintln!("{line}"));
    }
}

#[derive(Debug, Args)]
pub struct ReportArgs {
    /// Hunt directories: the partitions of one hunt (`hunt --partition k/N`), or one hunt.
    #[arg(value_name = "DIR", required = true)]
    pub dirs: Vec<PathBuf>,
    /// Write the merged hunt (run files, hunt.json and the reports) into this new directory.
    /// Without it, the one DIR given gets its reports regenerated in place.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
}

fn run_report(a: ReportArgs) -> Result<()> {
    use crate::hunt::{merge, report};
    let Some(out) = &a.out else {
        let [dir] = a.dirs.as_slice() else {
            anyhow::bail!(
                "merging {} directories needs --out DIR for the merged hunt",
                a.dirs.len()
            );
        };
        let s = report::regenerate(dir)?;
        print!("{}", report::terminal(&s, dir));
        return Ok(());
    };
    let m = merge::merge(&a.dirs, out)?;
    print!("{}", report::terminal(&m.summary, out));
    for x in &m.missing {
        eprintln!(
            "warning: partition {} is missing ({}: {}); run it with --partition {} and merge again",
            x.part,
            report::count(x.methods.len(), "method"),
            x.methods.join(", "),
            x.part
        );
    }
    Ok(())
}
