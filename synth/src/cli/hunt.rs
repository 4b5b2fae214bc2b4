//! `perfsyn hunt`: explore a whole API into a resumable directory.

use std::path::PathBuf;

use anyhow::Result;
use clap::Args;

use super::common::{choice, parse_duration, parse_positive, parse_workers, WorkerArgs};
use crate::explore::report::ExploreReport;
use crate::run::pool::WorkerPool;
use crate::search::StrategyKind;

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
    /// `auto` reads it from the environment: a Kubernetes Indexed Job's
    /// JOB_COMPLETION_INDEX (with --partition-count N or PERFSYN_PARTITION_COUNT), or
    /// PERFSYN_PARTITION=k/N.
    #[arg(long, value_name = "K/N|auto")]
    pub partition: Option<crate::commands::partition::PartitionChoice>,
    /// The number of partitions for `--partition auto` with JOB_COMPLETION_INDEX (the
    /// Indexed Job's completions).
    #[arg(long, value_name = "N", value_parser = parse_positive, requires = "partition")]
    pub partition_count: Option<u64>,
    /// Search strategy [default: astar].
    #[arg(long, value_parser = choice::<StrategyKind>())]
    pub strategy: Option<StrategyKind>,
    /// Seed of every search (default: derived from the clock, and printed).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Number of worker processes (default: one per core).
    #[arg(long, value_parser = parse_workers)]
    pub workers: Option<usize>,
    /// Parts of every method's search switched off.
    #[command(flatten)]
    pub switches: super::common::SwitchArgs,
    /// The hunt directory: run files, hunt.json, report.html, summary.json, summary.md.
    #[arg(long, value_name = "DIR", required_unless_present = "report")]
    pub out: Option<PathBuf>,
    /// Continue the hunt in --out DIR where it stopped, with the settings it started with.
    #[arg(long, requires = "out")]
    pub resume: bool,
    /// Only regenerate the reports of the hunt in DIR from its run files.
    #[arg(long, value_name = "DIR", conflicts_with_all = ["out", "resume", "ty", "all", "budget_per_method", "max_programs_per_method", "partition", "partition_count", "strategy", "seed", "workers", "no_loops", "no_mined_values", "no_fragment_credit", "no_span_shapes"])]
    pub report: Option<PathBuf>,
    /// Print the summary as JSON on stdout (the document DIR/summary.json holds: every
    /// method's verdict, class and key figures) instead of the text.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub outputs: super::outputs::FindingOutputs,
    #[command(flatten)]
    pub worker: WorkerArgs,
}

pub fn run(a: HuntArgs) -> Result<()> {
    use crate::commands::hunt::{self, dir, report};
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Arc;
    if let Some(d) = &a.report {
        let s = report::regenerate(d)?;
        a.outputs.write_hunt(&s, a.worker.harness().ok().as_ref())?;
        return super::outputs::print_summary(&s, d, a.json);
    }
    let partition = a
        .partition
        .map(|p| {
            p.resolve(a.partition_count.map(|n| n as usize), &|v| {
                std::env::var(v).ok()
            })
        })
        .transpose()?;
    let out = a.out.clone().expect("clap requires --out");
    let hunt_dir = if a.resume {
        let d = dir::HuntDir::open(&out)?;
        check_resume_settings(&a, partition, &d.manifest, &out)?;
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
    let identity = crate::explore::runfile::worker_identity(&worker)
        .map_err(|e| anyhow::anyhow!("cannot read the worker {}: {e}", worker.display()))?;
    let pool = WorkerPool::start(
        &worker,
        super::common::workers_or_cores(a.workers),
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
                seed: super::common::seed_or_clock(a.seed),
                t_rel: 1.2,
                switches: a.switches.switches(),
            };
            let methods = hunt::plan(pool.pool().schema(), a.ty.as_deref())?;
            dir::HuntDir::create(
                &out,
                dir::Manifest::new(
                    std::env::args().collect(),
                    schema_hash,
                    settings,
                    methods,
                    partition,
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
        status: super::status::Status::new(bar.clone()),
        findings: findings_before.relative.len() + findings_before.asymptotic.len(),
    };
    observer
        .bar
        .set_message(report::count(observer.findings, "finding"));
    let no_mined_values = hunt_dir.manifest.settings.switches.no_mined_values;
    let hunt_dir = Arc::new(hunt_dir);
    let mined = Arc::new(crate::harness::mine::Retriever::new(if no_mined_values {
        Default::default()
    } else {
        crate::harness::mine::load(&a.worker.harness()?)?
    }));
    let outcome = hunt::run(
        hunt_dir.clone(),
        pool,
        identity,
        mined,
        stop,
        Box::new(observer),
    )?;
    bar.finish_and_clear();
    let s = report::write_reports(&hunt_dir, &shown)?;
    a.outputs.write_hunt(&s, a.worker.harness().ok().as_ref())?;
    super::outputs::print_summary(&s, &out, a.json)?;
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
    given: Option<crate::commands::partition::Partition>,
    m: &crate::commands::hunt::dir::Manifest,
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
    if given.is_some() && given != partition {
        clash.push("--partition".into());
    }
    if a.strategy.is_some_and(|k| k.name() != s.strategy) {
        clash.push("--strategy".into());
    }
    if a.seed.is_some_and(|x| x != s.seed) {
        clash.push("--seed".into());
    }
    // A switch given on resume must be the hunt's; one left out keeps the hunt's.
    let given = a.switches.switches();
    for (on, hunt, flag) in [
        (given.no_loops, s.switches.no_loops, "--no-loops"),
        (
            given.no_mined_values,
            s.switches.no_mined_values,
            "--no-mined-values",
        ),
        (
            given.no_fragment_credit,
            s.switches.no_fragment_credit,
            "--no-fragment-credit",
        ),
        (
            given.no_span_shapes,
            s.switches.no_span_shapes,
            "--no-span-shapes",
        ),
    ] {
        if on && !hunt {
            clash.push(flag.into());
        }
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
    /// Plain lines every few seconds during a method when stderr is not a terminal.
    status: super::status::Status,
    findings: usize,
}

impl crate::commands::hunt::HuntObserver for HuntBar {
    fn started(
        &mut self,
        _done: usize,
        _total: usize,
        m: &crate::commands::hunt::dir::PlannedMethod,
    ) {
        self.bar.set_message(format!(
            "{}; {}",
            crate::commands::hunt::report::count(self.findings, "finding"),
            m.method
        ));
    }

    fn finished(
        &mut self,
        m: &crate::commands::hunt::dir::PlannedMethod,
        r: &ExploreReport,
        finding: bool,
    ) {
        self.findings += finding as usize;
        self.bar.inc(1);
        self.bar.set_message(crate::commands::hunt::report::count(
            self.findings,
            "finding",
        ));
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

    fn searching(
        &mut self,
        m: &crate::commands::hunt::dir::PlannedMethod,
        p: &crate::search::Progress,
    ) {
        self.status.set(format!(
            "{}: {} programs, {} valid, {:.1}s",
            m.method,
            p.programs,
            p.valid,
            p.elapsed.as_secs_f64()
        ));
    }
}
