//! `perfsyn explore`: one method's search, its report and its run file.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use clap::Args;

use super::common::{choice, RecordArgs, SearchArgs, WorkerArgs};
use super::export::export_run;
use crate::explore::report::ExploreReport;
use crate::explore::{explore_with, ExploreConfig, OracleKind};
use crate::judge::oracle::asymptotic::{ScoreKind, Thresholds};
use crate::judge::oracle::relative::Direction;
use crate::report::class::Class;
use crate::report::verdict::Verdict;
use crate::run::pool::WorkerPool;

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
    #[arg(long, value_parser = choice::<OracleKind>(), default_value = "auto")]
    pub oracle: OracleKind,
    /// Asymptotic score: `growth` (ours, default) or `area` (eq. 3.5 of the paper).
    #[arg(long, value_parser = choice::<ScoreKind>(), default_value = "growth")]
    pub score: ScoreKind,
    /// Relative oracle: which cost gaps count.
    #[arg(long, value_parser = choice::<Direction>(), default_value = "both")]
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
    #[arg(long, value_parser = choice::<crate::commands::export::Format>(), default_value = "test", requires = "export")]
    pub export_format: crate::commands::export::Format,
    /// Verdict checks that shrinking the reported program may spend (0: do not shrink).
    #[arg(long, default_value_t = crate::judge::shrink::DEFAULT_BUDGET, value_name = "N")]
    pub shrink_budget: usize,
    /// Skip the repeated-traversal check (Toddler: the best programs run once more on the
    /// harness's read-tracing build, built on first use).
    #[arg(long)]
    pub no_repeated_traversals: bool,
    /// Skip the repeated-computation check (MemoizeIt: the best program runs once more on
    /// the same trace build).
    #[arg(long)]
    pub no_repeated_computations: bool,
    /// Compare the working tree with this git revision of your crate (relative oracle over
    /// two workers: the harness built against REV and against the working tree).
    #[arg(long, value_name = "REV", conflicts_with = "worker")]
    pub baseline: Option<String>,
}
/// The program of rank `rank` (1 = best) in the run file at `path`, which must be a run of
/// `method`.
fn saved_program(
    path: &std::path::Path,
    rank: usize,
    method: &str,
) -> Result<perfsyn_profiler_ipc::Program> {
    let run = crate::explore::runfile::RunFile::load(path)?;
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

pub fn run(a: ExploreArgs) -> Result<()> {
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
    crate::run::pool::time_thread_cpu(a.search.metric == crate::search::Metric::CpuNs);
    // The uninstrumented twin confirmation times builds while the search runs.
    let _twin =
        (a.record.confirm().top > 0).then(|| crate::harness::worker_build::prebuild_plain(&worker));
    let mut baseline = match &a.baseline {
        Some(rev) => {
            let open = crate::commands::baseline::open(
                &a.worker.harness()?,
                rev,
                a.search.worker_count(),
                a.search.deadline,
                a.json,
            )?;
            crate::commands::baseline::check_comparable(&open, &a.method)?;
            Some(open)
        }
        None => None,
    };
    let mut pool = WorkerPool::start(&worker, a.search.worker_count(), a.search.deadline)?;
    // A version group's method runs on the pair of workers binding each version.
    let group = (baseline.is_none() && a.oracle != OracleKind::Asymptotic)
        .then(|| crate::run::pair::group_spec(pool.pool().schema(), &a.method))
        .flatten();
    let mut versions = match &group {
        Some(_) => Some(crate::run::pair::PairExecutor::of_pool(&pool)?),
        None => None,
    };
    let cfg = ExploreConfig {
        method: group.unwrap_or_else(|| a.method.clone()),
        strategy: a.search.strategy,
        oracle: if baseline.is_some() {
            OracleKind::Relative
        } else {
            a.oracle
        },
        score: a.score,
        direction: a.direction,
        t_rel: a.t_rel,
        thresholds: Thresholds::default(),
        expect: a.expect.clone(),
        search: a.search.config_for(&a.worker.harness()?)?,
        start,
        confirm: a.record.confirm(),
        repeated_traversals: !a.no_repeated_traversals,
        repeated_computations: !a.no_repeated_computations,
    };
    let mut bar = (!a.json).then(|| {
        let b = indicatif::ProgressBar::new_spinner();
        b.set_style(
            indicatif::ProgressStyle::with_template("{spinner} {msg}").expect("static template"),
        );
        super::status::Status::new(b)
    });
    let shrink = crate::judge::shrink::ShrinkConfig {
        budget: a.shrink_budget,
    };
    let labels = baseline.as_ref().map(|o| o.version_labels());
    let exec: &mut dyn crate::run::exec::Executor = match (baseline.as_mut(), versions.as_mut()) {
        (Some(open), _) => &mut open.pair,
        (None, Some(pair)) => pair,
        (None, None) => &mut pool,
    };
    let mut report = explore_with(exec, &cfg, shrink, &mut |p| {
        if let Some(b) = &mut bar {
            use crate::search::Phase;
            match p.phase {
                Phase::Search => b.set(format!(
                    "{} programs, {} valid, best score {:.3} (higher: costlier), {:.1}s",
                    p.programs,
                    p.valid,
                    p.best_score,
                    p.elapsed.as_secs_f64()
                )),
                Phase::Judge => b.announce(format!(
                    "search done ({} programs); sweeping input sizes, fitting and shrinking the best program",
                    p.programs
                )),
                Phase::Confirm => {
                    b.announce("confirming with wall-clock timing on the uninstrumented worker".into())
                }
            }
        }
    })?;
    if let Some(b) = bar {
        b.bar().finish_and_clear();
    }
    if let Some((new, old)) = labels {
        report.new_type = report.new_type.map(|t| format!("{t} {new}"));
        report.ref_type = report.ref_type.map(|t| format!("{t} {old}"));
    }
    let mined = (!cfg.search.mutation.mined.is_empty())
        .then(|| cfg.search.mutation.mined.index.stable_hash());
    let (run_path, plot_path) = record_run(&report, &a, &worker, exec.schema().hash(), mined)?;
    if let Some(file) = &a.export {
        export_run(&run_path, exec, a.export_format, 1, Some(file))?;
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
    mined_hash: Option<u64>,
) -> Result<(PathBuf, Option<PathBuf>)> {
    let path = match a.record.out.clone() {
        Some(p) => p,
        None => {
            // Under the explored crate's target/perfsyn/runs, never over an earlier run.
            let runs = a.worker.harness()?.runs_dir();
            let name =
                crate::explore::runfile::default_path(Path::new("."), &report.method, report.seed);
            let stem = name.file_stem().map(|s| s.to_string_lossy().into_owned());
            crate::harness::discovery::fresh_path(&runs, &stem.unwrap_or_default(), "json")
        }
    };
    let identity = crate::explore::runfile::worker_identity(worker)
        .with_context(|| format!("cannot read the worker {}", worker.display()))?;
    let mut run = crate::explore::runfile::RunFile::new(
        report.clone(),
        std::env::args().collect(),
        identity,
        schema_hash,
    );
    run.reproduce = Some(reproduce_explore(report, a));
    run.mined_hash = mined_hash.map(|h| format!("{h:016x}"));
    run.save(&path)?;
    let plot_path = crate::commands::plot::path_for(&path);
    let plot = match crate::commands::plot::write(report, &plot_path) {
        Ok(()) => Some(plot_path),
        Err(crate::commands::plot::PlotError::Empty) => None,
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
        let ci = |t: &crate::judge::confirm::TimeStats| {
            format!(
                "{:.0} ns [{:.0}, {:.0}]",
                t.mean_ns, t.ci95_low_ns, t.ci95_high_ns
            )
        };
        // Says what was timed: one program at two input sizes, or on two versions.
        let timed = if x.kind == "sweep" {
            // The size the points were taken in: the registered size, or heap bytes.
            let size = |a: &crate::judge::confirm::Arm| {
                if r.points_from == crate::judge::swept::PointsFrom::SweepHeapBytes {
                    format!("{} heap bytes", a.heap_bytes)
                } else {
                    format!("size {}", a.input_size)
                }
            };
            format!(
                "one run of the program took {} at its largest input ({}) and {} at its smallest ({})",
                ci(&x.a.time),
                size(&x.a),
                ci(&x.b.time),
                size(&x.b)
            )
        } else {
            format!(
                "one run of the program took {} on {} ({}) and {} on {} ({})",
                ci(&x.a.time),
                x.a.ty,
                x.a.label,
                ci(&x.b.time),
                x.b.ty,
                x.b.label
            )
        };
        s.push_str(&format!(
            "  #{} {timed}: {:.3}x the time for {:.3}x the cost (p = {:.3}), {}\n",
            x.rank,
            x.time_ratio,
            x.cost_ratio,
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
    let any_significant = c.confirmed.iter().any(|x| x.significant);
    if any_significant && r.verdict != Verdict::Bottleneck && !r.withdrawn_by_clock {
        s.push_str("  significant only says the time difference is measurable: the verdict rests on the deterministic cost, which does not show a bottleneck\n");
    }
    if r.time_significant == Some(false) {
        let cost_differs = r.verdict == Verdict::Bottleneck;
        s.push_str(&if r.oracle == OracleKind::Relative && cost_differs {
            "  the measured time difference of the best program is not significant: the method is too short for wall-clock time to show the cost difference\n".to_string()
        } else if r.oracle == OracleKind::Relative {
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
    if r.oracle == OracleKind::Asymptotic {
        s.push_str(&format!(
            "expected {}, empirical {} (fit error {})\n",
            r.expected.map_or("undeclared", Class::label),
            r.empirical.map_or("?", Class::label),
            r.fit_error
                .filter(|e| e.is_finite())
                .map(|e| format!("{:.2}%", e * 100.0))
                .unwrap_or_else(|| "-".into())
        ));
        if let Some(v) = &r.evidence {
            s.push_str(&crate::commands::fit::render_evidence(v));
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
            s.push_str(&format!(
                "{}\n",
                crate::judge::shrink::describe(r, b.statements)
            ));
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
        if !r.sweep_scaled.is_empty() {
            s.push_str(&format!(
                "sweep scaled (f: the sweep's factor): {}\n",
                r.sweep_scaled.join("; ")
            ));
        }
    }
    s.push_str(&crate::judge::hotlines::render(&r.hot_lines, 3));
    s.push_str(&crate::judge::oracle::toddler::render(
        &r.repeated_traversals,
        3,
    ));
    if let Some(why) = &r.repeated_traversals_skipped {
        s.push_str(&format!("\nrepeated traversals not checked: {why}\n"));
    }
    if let Some(ms) = r.repeated_traversals_ms {
        s.push_str(&format!(
            "repeated traversals checked in {:.1}s (trace build runs and the rule)\n",
            ms as f64 / 1000.0
        ));
    }
    s.push_str(&crate::judge::oracle::memoize::render(&r.memoization, 3));
    if let Some(why) = &r.memoization_skipped {
        s.push_str(&format!("\nrepeated computations not checked: {why}\n"));
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
    let mut c = format!(
        "perfsyn explore --method {} --strategy {} --seed {} --max-programs {} --metric {} --deadline {}s --max-muts {}",
        a.method, r.strategy, r.seed, r.stats.programs, r.metric, a.search.deadline.as_secs_f64(), a.search.max_muts
    );
    c += &format!(" --oracle {}", a.oracle);
    c += &format!(" --score {}", a.score);
    c += &format!(" --direction {} --t-rel {}", a.direction, a.t_rel);
    c += &a.search.switches.switches().flags();
    if let Some(e) = &a.expect {
        c += &format!(" --expect \"{e}\"");
    }
    if let Some(f) = &a.from {
        c += &format!(" --from {} --from-rank {}", f.display(), a.from_rank);
    }
    // These shape the reported program or what it runs on, too.
    if a.shrink_budget != crate::judge::shrink::DEFAULT_BUDGET {
        c += &format!(" --shrink-budget {}", a.shrink_budget);
    }
    if let Some(b) = &a.baseline {
        c += &format!(" --baseline {b}");
    }
    if let Some(w) = &a.worker.worker {
        c += &format!(" --worker {}", w.display());
    }
    if let Ok(h) = a.worker.harness() {
        c += &h.reproduce_flag();
    }
    c
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A report whose sweep was judged on `points_from`, with a confirmation of its two ends:
    /// registered size 0 at both, heap bytes 262184 and 8232.
    fn confirmed(points_from: &str) -> ExploreReport {
        let time = serde_json::json!({"mean_ns": 1.0, "ci95_low_ns": 1.0, "ci95_high_ns": 1.0,
            "std_dev_ns": 0.0, "n": 30, "outliers": 0});
        let arm = |label: &str, heap: u64| {
            serde_json::json!({"label": label, "type": "Slab",
            "input_size": 0, "heap_bytes": heap, "edges": 1, "cost": 1, "time": time})
        };
        serde_json::from_value(serde_json::json!({
            "method": "Slab::shrink_to_fit", "type": "Slab", "oracle": "asymptotic",
            "strategy": "astar", "seed": 1, "metric": "cost", "verdict": "no-bottleneck",
            "reason": "", "expected": null, "empirical": null, "fit_error": null, "ratio": null,
            "best": null, "others": [], "points": [], "points_from": points_from,
            "stats": serde_json::to_value(crate::search::Stats::default()).unwrap(),
            "tree": {"nodes": 1, "depth_histogram": [1], "learning_top": []},
            "confirmation": {"reps": 30, "warmup": 5, "method": "", "unconfirmed": [],
                "confirmed": [{"rank": 1, "kind": "sweep", "a": arm("largest", 262184),
                    "b": arm("smallest", 8232), "cost_ratio": 1.0, "time_ratio": 1.0,
                    "p_value": 1.0, "significant": false, "failed_runs": 0}]}
        }))
        .expect("a minimal report")
    }

    #[test]
    fn a_sweep_confirmation_names_sizes_in_the_measure_the_points_use() {
        let heap = render_confirmation(&confirmed("sweep-heap-bytes"));
        assert!(
            heap.contains("largest input (262184 heap bytes)")
                && heap.contains("smallest (8232 heap bytes)"),
            "{heap}"
        );
        let size = render_confirmation(&confirmed("sweep"));
        assert!(size.contains("largest input (size 0)"), "{size}");
    }
}
