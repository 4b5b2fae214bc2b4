//! The `perfsyn compare` subcommand: its options (every threshold of SpeedGun, with default and
//! trade-off) and its output. The only part of `compare` that knows clap and the terminal.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::{bail, Result};
use clap::Args;
use perfsyn_profiler_ipc::supervisor::PoolConfig;
use serde::Serialize;

use super::common::{parse_duration, WorkerArgs};
use crate::commands::compare::measure::MeasureConfig;
use crate::commands::compare::oracle::OracleConfig;
use crate::commands::compare::{
    compare, find_pair, pairs, CompareConfig, CompareReport, Pair, PairPools,
};
use crate::explore::runfile::RunFile;

/// Options of `perfsyn compare`. Each option's help says what it controls in plain words; the
/// symbol SpeedGun's paper uses for it follows in parentheses, for readers of the paper.
#[derive(Debug, Clone, Args)]
pub struct CompareArgs {
    /// The new version of the pair to compare (a type registered with register_concurrent!).
    #[arg(long = "type", value_name = "T", required_unless_present = "all")]
    pub ty: Option<String>,
    /// The old version, when T is the new version of several pairs (default: its first pair).
    #[arg(long, value_name = "OLD")]
    pub old: Option<String>,
    /// Compare every registered pair whose expectation is regression, improvement or none
    /// (pairs that deadlock on purpose are left out).
    #[arg(long, conflicts_with = "ty")]
    pub all: bool,
    /// Threads per test (N). More threads mean more contention (the paper uses 8 and 64); on a
    /// machine with few cores they mostly queue, which still exposes lock convoys.
    #[arg(long, default_value_t = 8)]
    pub threads: usize,
    /// Tests per pair. More tests make the verdict steadier against one odd test, and cost one
    /// warm-up and one measured phase per version each.
    #[arg(long, default_value_t = 10)]
    pub tests: usize,
    /// Seed programs from a run file of `perfsyn explore`: tests start from its winning
    /// programs' setup and call its methods under test more often.
    #[arg(long, value_name = "RUN.json")]
    pub from: Option<PathBuf>,
    /// How long each version runs a test before measuring starts (t_w). The paper uses 10s to
    /// let the JIT compile; compiled Rust only needs warm caches and allocator arenas, so
    /// shorter is fine and longer only costs time.
    #[arg(long, default_value = "200ms", value_parser = parse_duration)]
    pub warmup: Duration,
    /// How long each version runs a test while it is measured (t_s). The paper uses 20s. Longer
    /// gives tighter confidence intervals and steadier verdicts at a proportional cost; this
    /// default keeps `--all` to minutes.
    #[arg(long, default_value = "600ms", value_parser = parse_duration)]
    pub steady: Duration,
    /// The shortest average test run that can be timed reliably (t_min). Tests are lengthened
    /// until one run takes at least this long. Paper: 5ms. Lower allows shorter tests (more
    /// runs, more noise from starting threads); higher makes tests longer and fewer.
    #[arg(long, default_value = "1ms", value_parser = parse_duration)]
    pub t_min: Duration,
    /// The fewest runs of a test the measured phase must hold, else the test is inconclusive
    /// (r_min). Paper: 50. Higher samples more thread interleavings but forces shorter tests.
    #[arg(long, default_value_t = 50)]
    pub r_min: u32,
    /// How many test lengths to try before giving up on finding a good one (maxTries). Paper:
    /// 20. Fewer saves time and falls back to --fallback-length more often.
    #[arg(long, default_value_t = 20)]
    pub max_tries: u32,
    /// The shortest test length tried, in calls per thread (startMin).
    #[arg(long, default_value_t = 16)]
    pub start_min: usize,
    /// The longest test length tried, in calls per thread (startMax).
    #[arg(long, default_value_t = 1 << 20)]
    pub start_max: usize,
    /// Calls per thread when no tried length works (the paper's "specified maximum length").
    #[arg(long, default_value_t = 256)]
    pub fallback_length: usize,
    /// The fewest measurements per version and test (m_min). Paper: 3. More narrows the
    /// confidence intervals, at a proportional cost.
    #[arg(long, default_value_t = 3)]
    pub m_min: usize,
    /// The most measurements per version and test before a noisy series is judged anyway
    /// (m_max). Paper: 5; ours 8, for a shared machine. Higher rescues noisy tests at more
    /// cost.
    #[arg(long, default_value_t = 8)]
    pub m_max: usize,
    /// Stop measuring once the measurements vary by at most this fraction of their mean
    /// (standard deviation / mean, sigma_stop). Paper: 0.01. Lower asks for more measurements.
    #[arg(long, default_value_t = 0.01)]
    pub sigma_stop: f64,
    /// After the most measurements, accept a series that varies by at most this fraction of
    /// its mean, else the test is inconclusive (sigma_acceptable). Paper: 0.02; ours 0.10,
    /// because on 2 cores shared with other work the paper's value drops nearly every test.
    /// Higher keeps tests on a loaded machine (with wider intervals, so fewer reports).
    #[arg(long, default_value_t = 0.10)]
    pub sigma_acceptable: f64,
    /// Which quantile of a measurement's run times stands for it (ours; the paper uses the
    /// mean). Low quantiles ignore runs slowed down by other processes on a shared machine;
    /// 0.5 is the median; the minimum rewards lucky schedules.
    #[arg(long, default_value_t = 0.2)]
    pub quantile: f64,
    /// Confidence level of the interval around each version's mean time. Paper: 0.98. Higher
    /// reports fewer, surer differences.
    #[arg(long, default_value_t = 0.98)]
    pub confidence: f64,
    /// The smallest relative time difference between the versions that is reported
    /// (delta_report). Paper: 0.05. Lower finds smaller changes, and more that users may not
    /// care about.
    #[arg(long, default_value_t = 0.05)]
    pub delta_report: f64,
    /// Deadline of one run of a test in the worker; past it the worker is killed and the test
    /// is inconclusive (how deadlocks end). Shorter ends deadlocks sooner but must exceed the
    /// longest legitimate run.
    #[arg(long, default_value = "2s", value_parser = parse_duration)]
    pub deadline: Duration,
    /// Seed of test generation and of the random version order (default: from the clock,
    /// printed for reproduction).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Print JSON: the full report for one pair; per pair type, expected, verdict, speedup and
    /// test counts with --all.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub worker: WorkerArgs,
}

impl CompareArgs {
    fn config(&self, seed: u64) -> Result<CompareConfig> {
        if self.m_min < 2 || self.m_max < self.m_min {
            bail!(
                "need 2 <= --m-min <= --m-max (got {} and {})",
                self.m_min,
                self.m_max
            );
        }
        if !(0.0 < self.confidence && self.confidence < 1.0) {
            bail!("--confidence must lie strictly between 0 and 1");
        }
        if self.threads == 0 || self.tests == 0 {
            bail!("--threads and --tests must be at least 1");
        }
        Ok(CompareConfig {
            threads: self.threads,
            tests: self.tests,
            seed,
            measure: MeasureConfig {
                warmup: self.warmup,
                steady: self.steady,
                t_min: self.t_min,
                r_min: self.r_min,
                max_tries: self.max_tries,
                start_min: self.start_min,
                start_max: self.start_max,
                fallback_length: self.fallback_length,
                m_min: self.m_min,
                m_max: self.m_max,
                sigma_stop: self.sigma_stop,
                sigma_acceptable: self.sigma_acceptable,
                quantile: self.quantile,
            },
            oracle: OracleConfig {
                confidence: self.confidence,
                delta_report: self.delta_report,
            },
        })
    }
}

/// One line of `--all --json`.
#[derive(Debug, Serialize)]
struct Summary<'a> {
    #[serde(rename = "type")]
    ty: &'a str,
    old: &'a str,
    expected: &'a str,
    verdict: &'a str,
    speedup: Option<f64>,
    tests: crate::commands::compare::oracle::Counts,
    origin: &'a str,
    seconds: f64,
}

/// Runs `perfsyn compare`.
pub fn run(a: CompareArgs) -> Result<()> {
    let seed = super::common::seed_or_clock(a.seed);
    let cfg = a.config(seed)?;
    let worker = crate::harness::worker_build::resolve_worker(a.worker.worker.as_deref(), a.json)?;
    let mut pcfg = PoolConfig::new(worker.clone());
    pcfg.workers = 1;
    pcfg.deadline = a.deadline;
    // The pairs come from the unbound schema; each pair then runs on its own bound pair.
    let schema = crate::harness::worker_build::read_schema(&worker)?;
    let seed_programs = match &a.from {
        Some(path) => {
            let rf = RunFile::load(path)?;
            let r = rf.report;
            r.best
                .iter()
                .chain(r.others.iter())
                .map(|b| b.program.clone())
                .collect()
        }
        None => Vec::new(),
    };
    let todo: Vec<Pair> = if a.all {
        pairs(&schema)
            .into_iter()
            .filter(|p| matches!(p.expected.as_str(), "regression" | "improvement" | "none"))
            .collect()
    } else {
        vec![find_pair(
            &schema,
            a.ty.as_deref().unwrap_or(""),
            a.old.as_deref(),
        )?]
    };
    let mut reports = Vec::new();
    for pair in &todo {
        let started = Instant::now();
        if a.all {
            eprintln!("comparing {} -> {} ...", pair.old, pair.new);
        }
        let mut exec = PairPools::start(&pcfg, pair)?;
        let r = compare(&mut exec, pair, &cfg, &seed_programs)?;
        reports.push((r, started.elapsed().as_secs_f64()));
    }
    let reproduce = reproduce_line(&a, seed);
    if a.json {
        if a.all {
            let rows: Vec<Summary<'_>> = reports
                .iter()
                .map(|(r, secs)| Summary {
                    ty: &r.ty,
                    old: &r.old,
                    expected: &r.expected,
                    verdict: r.verdict.label(),
                    speedup: r.speedup,
                    tests: r.counts,
                    origin: &r.origin,
                    seconds: *secs,
                })
                .collect();
            println!("{}", serde_json::to_string_pretty(&rows)?);
        } else {
            println!("{}", serde_json::to_string_pretty(&reports[0].0)?);
        }
        eprintln!("seed {seed}; reproduce with: {reproduce}");
    } else {
        for (r, _) in &reports {
            print!("{}", render(r, a.all));
        }
        println!("seed {seed}\nReproduce with: {reproduce}");
    }
    Ok(())
}

fn reproduce_line(a: &CompareArgs, seed: u64) -> String {
    let mut args: Vec<String> = std::env::args().collect();
    if a.seed.is_none() {
        args.push("--seed".into());
        args.push(seed.to_string());
    }
    args.join(" ")
}

/// The text report of one pair.
pub fn render(r: &CompareReport, brief: bool) -> String {
    let mut s = String::new();
    s.push_str(&format!(
        "{} -> {}: {} (expected {}){}\n",
        r.old,
        r.ty,
        r.verdict.label().to_uppercase(),
        r.expected,
        r.speedup
            .filter(|x| x.is_finite())
            .map(|x| format!(", speedup {x:.2} (old time / new time, mean over conclusive tests)"))
            .unwrap_or_default()
    ));
    s.push_str(&format!("  origin: {}\n", r.origin));
    s.push_str(&format!(
        "  tests: old faster in {}, new faster in {}, no difference in {}, inconclusive {}\n",
        r.counts.old, r.counts.new, r.counts.none, r.counts.inconclusive
    ));
    s.push_str(&format!(
        "  {} threads; {} calls per thread ({}; {})\n  focus methods: {}\n",
        r.threads,
        r.length.length,
        if r.length.found {
            "the shortest length whose runs can be timed"
        } else {
            "--fallback-length: no tried length could be timed"
        },
        r.length.reason,
        if r.focus.is_empty() {
            "none (all common methods)".to_string()
        } else {
            r.focus.join(", ")
        }
    ));
    if brief {
        return s;
    }
    s.push_str("  test  first  old mean ms [98% CI]         new mean ms [98% CI]         speedup  winner\n");
    for t in &r.tests {
        match (&t.old, &t.new) {
            (Some(o), Some(n)) => s.push_str(&format!(
                "  {:>4}  {:<5}  {:>8.3} [{:>8.3}, {:>8.3}]  {:>8.3} [{:>8.3}, {:>8.3}]  {:>7}  {}\n",
                t.index,
                t.first,
                o.mean_ms,
                o.ci_low_ms,
                o.ci_high_ms,
                n.mean_ms,
                n.ci_low_ms,
                n.ci_high_ms,
                t.speedup
                    .filter(|x| x.is_finite())
                    .map_or("-".into(), |x| format!("{x:.2}")),
                t.outcome
            )),
            _ => s.push_str(&format!(
                "  {:>4}  {:<5}  inconclusive: {}\n",
                t.index,
                t.first,
                t.reason.as_deref().unwrap_or("")
            )),
        }
    }
    s.push_str("  test 0 as Rust (against the new version):\n");
    for l in r.test_rust.lines() {
        s.push_str("    ");
        s.push_str(l);
        s.push('\n');
    }
    s
}
