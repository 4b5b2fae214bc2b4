//! `perfsyn bench repro`: do perfsyn's reproducers hold? For every positive case of the suite
//! (its case list, `corpus/cases/suite.json`), the tuning case with a fixed version
//! (`TombstoneSet::is_empty`) and the two bugs of the example crate, it explores with a fixed
//! seed and program budget (the suite's settings otherwise; no wall-clock confirmation, so the
//! run is deterministic), and for each detection:
//!
//! - records the best program's statements before and after shrinking;
//! - exports the regression test and the criterion bench with `export --into` a scratch crate
//!   ([`scratch`]), and a copy of the test with its `Subject` pointed at the fixed version
//!   where one exists ([`fixed`]);
//! - builds them all with cargo (the real criterion from the registry), runs the test on the
//!   bug (it must fail, naming the method), on the fix (it must pass) and the bench once
//!   (criterion's test mode), and runs `cargo clippy --all-targets -- -D warnings`.
//!
//! Nothing of a case's expectation reaches the search: it is read by the suite's judge only,
//! to say whether the case was detected.

mod fixed;
mod scratch;

use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{Context, Result};
use serde::Serialize;

use crate::commands::export::{self, ExportConfig, Format};
use crate::commands::suite::case::{self, Case, CaseOracle};
use crate::commands::suite::judge::Outcome;
use crate::explore::explore;
use crate::explore::report::ExploreReport;
use crate::explore::runfile::RunFile;
use crate::explore::OracleKind;
use crate::harness::Harness;
use crate::run::exec::Executor;
use crate::run::pool::WorkerPool;
use crate::search::{Budget, StrategyKind};

/// t_rel of the relative oracle, as in `perfsyn suite`.
const T_REL: f64 = 1.2;

/// Settings of the benchmark.
#[derive(Clone, Debug)]
pub struct ReproConfig {
    pub max_programs: u64,
    pub seed: u64,
    /// Only cases whose ID or method matches (as `perfsyn suite --cases`).
    pub cases: Option<String>,
    /// Include the example crate's bugs (builds its harness the first time).
    pub examples: bool,
    /// The built-in corpus's instrumented worker.
    pub corpus_worker: PathBuf,
    pub workers: usize,
    /// Longest run of one exported test or bench executable.
    pub exe_limit: Duration,
}

/// One case's row.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Row {
    pub id: String,
    pub method: String,
    /// The suite's judgement of the run (`detected`, `missed`, ...).
    pub outcome: Option<Outcome>,
    pub statements_before: Option<usize>,
    pub statements_after: Option<usize>,
    /// What the exported test measures (`probe operations`, `time ratio`, ...).
    pub measure: Option<String>,
    /// The exported test compiled.
    pub compiles: Option<bool>,
    pub fails_on_bug: Option<bool>,
    /// The fixed version the test was pointed at (none: no fixed version exists).
    pub fixed: Option<String>,
    pub passes_on_fix: Option<bool>,
    /// The exported bench built and ran once against the real criterion.
    pub bench_runs: Option<bool>,
    /// `cargo clippy --all-targets -- -D warnings` found nothing in the case's files.
    pub clippy_clean: Option<bool>,
    /// Why a check failed, one line each.
    pub notes: Vec<String>,
}

impl Row {
    /// Every check that applies passed.
    pub fn holds(&self) -> bool {
        self.outcome == Some(Outcome::Detected)
            && self.compiles == Some(true)
            && self.fails_on_bug == Some(true)
            && self.passes_on_fix != Some(false)
            && self.bench_runs == Some(true)
            && self.clippy_clean == Some(true)
    }
}

/// The benchmark's result.
#[derive(Clone, Debug, Serialize)]
pub struct ReproReport {
    pub seed: u64,
    pub max_programs: u64,
    pub scratch_crate: PathBuf,
    pub rows: Vec<Row>,
    /// Rows whose every check passed.
    pub holds: usize,
    /// Median statements of the suite's detected cases' best programs, before and after
    /// shrinking, and how many cases that is.
    pub median_statements_before: Option<f64>,
    pub median_statements_after: Option<f64>,
    pub median_over: usize,
}

/// A case in progress: its row and the scratch crate's target names of its files.
struct Work {
    row: Row,
    suite: bool,
    test: Option<String>,
    fix: Option<String>,
    bench: Option<String>,
}

/// Runs the benchmark; `progress` gets one line per step.
pub fn run(cfg: &ReproConfig, progress: &mut dyn FnMut(&str)) -> Result<ReproReport> {
    let root = crate::harness::worker_build::workspace_root();
    let fixtures = fixed::fixtures(&root)?;
    let scratch_root = Harness::builtin()
        .target_dir()
        .join("perfsyn")
        .join("bench-repro");
    let example_dir = root.join("examples").join("own-crate");
    let mut deps = Vec::new();
    if cfg.examples {
        deps.push(("own-crate".to_string(), example_dir.clone()));
        deps.push(fixed::example_fixed_crate(&root));
    }
    let krate = scratch::Scratch::reset(&scratch_root, &deps)?;
    let runs = scratch_root.join("runs");
    std::fs::create_dir_all(&runs)?;

    // The suite's positive cases and the tuning cases with a fixed version, on the corpus.
    let mut pool = WorkerPool::start(&cfg.corpus_worker, cfg.workers, Duration::from_millis(500))?;
    let schema = pool.schema().clone();
    let mut versions: Option<crate::run::pair::PairExecutor> = None;
    // `--cases` must match somewhere (one error line naming the IDs), not in every list:
    // `--cases E1` picks the example crate's case alone.
    let example_cases = if cfg.examples {
        // The example crate's planted bugs (its crate docs), in the suite's case format, as
        // data beside the crate; read by the judge only.
        case::read(&example_dir.join("cases.json"))?
    } else {
        Vec::new()
    };
    let every: Vec<Case> = [
        case::suite_cases()?,
        case::tuning_cases()?,
        example_cases.clone(),
    ]
    .concat();
    case::select(&every, cfg.cases.as_deref())?;
    let pick = |all: &[Case]| case::select(all, cfg.cases.as_deref()).unwrap_or_default();
    let suite: Vec<Case> = pick(&case::suite_cases()?)
        .into_iter()
        .filter(|c| c.expected.is_positive())
        .collect();
    let tuning: Vec<Case> = pick(&case::tuning_cases()?)
        .into_iter()
        .filter(|c| c.expected.is_positive())
        .filter(|c| {
            let ty = c.method.split("::").next().unwrap_or_default();
            schema.ty(ty).is_some_and(|t| {
                t.imports
                    .iter()
                    .any(|i| fixed::fixed_type(&fixtures, i).is_some())
            })
        })
        .collect();
    case::check_cases(&schema, &suite)?;
    case::check_cases(&schema, &tuning)?;
    let mut work = Vec::new();
    for (c, is_suite) in suite
        .iter()
        .map(|c| (c, true))
        .chain(tuning.iter().map(|c| (c, false)))
    {
        progress(&format!("explore {} {}", c.id, c.method));
        // A version group's case runs on the pair of workers binding each version (as in
        // `perfsyn suite`): on one pool its method names two types.
        if c.oracle == CaseOracle::Relative && versions.is_none() {
            versions = Some(crate::run::pair::PairExecutor::of_pool(&pool)?);
        }
        let on: &mut dyn Executor = match (c.oracle, versions.as_mut()) {
            (CaseOracle::Relative, Some(pair)) => pair,
            _ => &mut pool,
        };
        let w = explore_and_export(
            on,
            &cfg.corpus_worker,
            c,
            cfg,
            &[],
            &krate,
            &runs,
            &fixtures,
        )?;
        work.push(Work {
            suite: is_suite,
            ..w
        });
    }
    drop(versions);
    drop(pool);

    if cfg.examples {
        let examples = pick(&example_cases);
        if !examples.is_empty() {
            progress("perfsyn init on a copy of examples/own-crate");
            let (worker, manifest) = example_worker(&example_dir, &scratch_root)?;
            let mut pool = WorkerPool::start(&worker, cfg.workers, Duration::from_millis(500))?;
            case::check_cases(pool.schema(), &examples)?;
            let flag = [
                "--manifest-path".to_string(),
                manifest.display().to_string(),
            ];
            for c in &examples {
                progress(&format!("explore {} {}", c.id, c.method));
                let w = explore_and_export(
                    &mut pool, &worker, c, cfg, &flag, &krate, &runs, &fixtures,
                )?;
                work.push(w);
            }
        }
    }

    progress("cargo build --tests --benches (the scratch crate)");
    let built = krate.build()?;
    for w in &mut work {
        check_executables(w, &built, &krate, cfg.exe_limit, progress)?;
    }
    progress("cargo clippy --all-targets -- -D warnings (the scratch crate)");
    let clippy = krate.clippy()?;
    for w in &mut work {
        let targets: Vec<&String> = [&w.test, &w.fix, &w.bench].into_iter().flatten().collect();
        if targets.is_empty() {
            continue;
        }
        let found: Vec<String> = targets
            .iter()
            .filter_map(|t| {
                clippy
                    .diagnostics
                    .get(*t)
                    .map(|d| format!("clippy {t}: {d}"))
            })
            .collect();
        w.row.clippy_clean = Some(found.is_empty());
        w.row.notes.extend(found);
    }

    let suite_rows: Vec<&Row> = work
        .iter()
        .filter(|w| w.suite && w.row.outcome == Some(Outcome::Detected))
        .map(|w| &w.row)
        .collect();
    let before: Vec<f64> = suite_rows
        .iter()
        .filter_map(|r| r.statements_before.map(|s| s as f64))
        .collect();
    let after: Vec<f64> = suite_rows
        .iter()
        .filter_map(|r| r.statements_after.map(|s| s as f64))
        .collect();
    let rows: Vec<Row> = work.into_iter().map(|w| w.row).collect();
    Ok(ReproReport {
        seed: cfg.seed,
        max_programs: cfg.max_programs,
        scratch_crate: krate.dir.clone(),
        holds: rows.iter().filter(|r| r.holds()).count(),
        median_statements_before: median(&before),
        median_statements_after: median(&after),
        median_over: before.len(),
        rows,
    })
}

/// Explores case `c` on `exec` and, when detected, exports its test, fixed test and bench
/// into the scratch crate.
#[allow(clippy::too_many_arguments)]
fn explore_and_export(
    exec: &mut dyn Executor,
    worker: &Path,
    c: &Case,
    cfg: &ReproConfig,
    extra_flags: &[String],
    krate: &scratch::Scratch,
    runs: &Path,
    fixtures: &[fixed::Fixtures],
) -> Result<Work> {
    let suite_cfg = crate::commands::suite::SuiteConfig {
        strategies: vec![StrategyKind::Astar],
        budget_per_case: Duration::ZERO,
        cases: None,
        no_loops: false,
        seed: cfg.seed,
        t_rel: T_REL,
    };
    let mut ecfg = crate::commands::suite::explore_config(c, StrategyKind::Astar, &suite_cfg);
    ecfg.search.budget = Budget::Programs(cfg.max_programs);
    ecfg.confirm.top = 0;
    let mut w = Work {
        row: Row {
            id: c.id.clone(),
            method: c.method.clone(),
            ..Row::default()
        },
        suite: false,
        test: None,
        fix: None,
        bench: None,
    };
    let report = match explore(exec, &ecfg, &mut |_| {}) {
        Ok(r) => r,
        Err(e) => {
            w.row.outcome = Some(Outcome::Error);
            w.row.notes.push(format!("explore: {e:#}"));
            return Ok(w);
        }
    };
    w.row.outcome = Some(crate::commands::suite::judge(c, Ok(&report), T_REL).outcome);
    if let Some(b) = &report.best {
        w.row.statements_after = Some(b.statements);
        w.row.statements_before = Some(
            b.shrunk_from
                .as_ref()
                .map_or(b.statements, |s| s.statements),
        );
    }
    if w.row.outcome != Some(Outcome::Detected) {
        return Ok(w);
    }
    let run = run_file(report, c, cfg, extra_flags, worker, exec)?;
    let run_path = runs.join(format!("{}.json", c.id));
    run.save(&run_path)?;
    let stem = format!(
        "c{}_{}",
        c.id.to_lowercase(),
        crate::commands::export::snake(&c.method)
    );
    for format in [Format::Test, Format::Bench] {
        let name = format!("{stem}_{}", format.name());
        let ecfg = ExportConfig {
            format,
            rank: 1,
            run_path: Some(run_path.clone()),
            target_name: Some(name.clone()),
        };
        let exported = match export::export(&run, exec, &ecfg) {
            Ok(e) => e,
            Err(e) => {
                w.row.notes.push(format!("export --format {format}: {e}"));
                continue;
            }
        };
        if let Err(e) =
            crate::commands::export::into::place(&krate.dir, format, &name, &exported.source, true)
        {
            w.row.notes.push(format!("export --into: {e}"));
            continue;
        }
        if format == Format::Bench {
            w.bench = Some(name);
            continue;
        }
        w.row.measure = exported.measure.clone();
        w.test = Some(name);
        let fixed = match (run.report.oracle, &exported.source) {
            (OracleKind::Relative, src) => fixed::alias_target(src, "Reference"),
            (_, src) => {
                fixed::alias_target(src, "Subject").and_then(|s| fixed::fixed_type(fixtures, &s))
            }
        };
        if let Some(f) = fixed {
            let Some(src) = fixed::point_subject_at(&exported.source, &f) else {
                w.row
                    .notes
                    .push("the exported test has no `type Subject` line".into());
                continue;
            };
            let fix_name = format!("{stem}_fixed");
            let path = krate.dir.join("tests").join(format!("{fix_name}.rs"));
            std::fs::write(&path, src)
                .with_context(|| format!("cannot write {}", path.display()))?;
            w.fix = Some(fix_name);
            w.row.fixed = Some(f);
        }
    }
    Ok(w)
}

/// The run file of `report`, with the `perfsyn explore` command line that reproduces it.
fn run_file(
    report: ExploreReport,
    c: &Case,
    cfg: &ReproConfig,
    extra_flags: &[String],
    worker: &Path,
    exec: &mut dyn Executor,
) -> Result<RunFile> {
    let mut cmd: Vec<String> = [
        "perfsyn",
        "explore",
        "--method",
        &c.method,
        "--oracle",
        match c.oracle {
            CaseOracle::Relative => "relative",
            CaseOracle::Asymptotic => "asymptotic",
        },
        "--strategy",
        "astar",
        "--seed",
        &cfg.seed.to_string(),
        "--max-programs",
        &cfg.max_programs.to_string(),
        "--direction",
        "both",
        "--t-rel",
        &T_REL.to_string(),
        "--confirm-top",
        "0",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    cmd.extend(extra_flags.iter().cloned());
    let identity = crate::explore::runfile::worker_identity(worker)
        .with_context(|| format!("cannot read the worker {}", worker.display()))?;
    Ok(RunFile::new(report, cmd, identity, exec.schema().hash()))
}

/// Runs the case's test on the bug, on the fix and its bench once; records what happened.
fn check_executables(
    w: &mut Work,
    built: &scratch::CargoOutcome,
    krate: &scratch::Scratch,
    limit: Duration,
    progress: &mut dyn FnMut(&str),
) -> Result<()> {
    let compile_note = |t: &str| {
        built.diagnostics.get(t).map_or_else(
            || format!("{t} did not build"),
            |d| format!("{t} does not compile: {d}"),
        )
    };
    if let Some(t) = &w.test {
        match built.executables.get(t) {
            None => {
                w.row.compiles = Some(false);
                w.row.notes.push(compile_note(t));
            }
            Some(exe) => {
                w.row.compiles = Some(true);
                progress(&format!("run {t} (on the bug)"));
                let r = scratch::run_exe(exe, &[], &krate.dir, limit)?;
                let failed_on_assertion = r.code.is_some_and(|c| c != 0)
                    && r.output.contains("panicked")
                    && r.output.contains(&w.row.method);
                w.row.fails_on_bug = Some(failed_on_assertion);
                if !failed_on_assertion {
                    w.row.notes.push(if r.code == Some(0) {
                        format!("{t} passes on the bug")
                    } else {
                        format!("{t} fails without naming the method: {}", ending(&r))
                    });
                }
            }
        }
    }
    if let Some(t) = &w.fix {
        match built.executables.get(t) {
            None => {
                w.row.passes_on_fix = Some(false);
                w.row.notes.push(compile_note(t));
            }
            Some(exe) => {
                progress(&format!("run {t} (on the fix)"));
                let r = scratch::run_exe(exe, &[], &krate.dir, limit)?;
                w.row.passes_on_fix = Some(r.code == Some(0));
                if r.code != Some(0) {
                    w.row
                        .notes
                        .push(format!("{t} fails on the fixed version: {}", ending(&r)));
                }
            }
        }
    }
    if let Some(t) = &w.bench {
        match built.executables.get(t) {
            None => {
                w.row.bench_runs = Some(false);
                w.row.notes.push(compile_note(t));
            }
            Some(exe) => {
                // Without `--bench`, criterion runs every benchmark once (its test mode).
                progress(&format!("run {t} (criterion, once)"));
                let r = scratch::run_exe(exe, &[], &krate.dir, limit)?;
                let ok = r.code == Some(0) && r.output.contains("Success");
                w.row.bench_runs = Some(ok);
                if !ok {
                    w.row.notes.push(format!("{t}: {}", ending(&r)));
                }
            }
        }
    }
    Ok(())
}

/// How an executable ended, in one line: its exit and its last meaningful output line.
fn ending(r: &scratch::Ran) -> String {
    let exit = match (r.timed_out, r.code) {
        (true, _) => "timed out".to_string(),
        (_, Some(c)) => format!("exit {c}"),
        (_, None) => "killed by a signal".to_string(),
    };
    let last = r
        .output
        .lines()
        .rev()
        .find(|l| {
            let l = l.trim();
            !l.is_empty() && !l.starts_with("error: test failed") && !l.starts_with("note:")
        })
        .unwrap_or("")
        .trim();
    format!("{exit}: {last}")
}

/// Copies the example crate (without `target/` and `perfsyn/`) under `scratch_root`, writes its
/// harness as `perfsyn init` does and builds its worker. Returns the worker and the copy's
/// manifest.
fn example_worker(example: &Path, scratch_root: &Path) -> Result<(PathBuf, PathBuf)> {
    let copy = scratch_root.join("own-crate");
    copy_dir(example, &copy)?;
    let manifest = copy.join("Cargo.toml");
    crate::harness::init::run(&crate::harness::init::InitConfig {
        manifest_path: Some(manifest.clone()),
        force: true,
        build: false,
        quiet: true,
    })?;
    let h = Harness::of_manifest(&manifest)?;
    let worker = crate::harness::worker_build::ensure_harness_worker(&h, true)?;
    Ok((worker, manifest))
}

fn copy_dir(from: &Path, to: &Path) -> Result<()> {
    std::fs::create_dir_all(to)?;
    for e in std::fs::read_dir(from).with_context(|| format!("cannot read {}", from.display()))? {
        let e = e?;
        let dst = to.join(e.file_name());
        if e.file_type()?.is_dir() {
            if e.file_name() != "target" && e.file_name() != "perfsyn" {
                copy_dir(&e.path(), &dst)?;
            }
        } else {
            // Unchanged files keep their modification time, so cargo does not rebuild them.
            let same = std::fs::read(&dst).ok() == std::fs::read(e.path()).ok();
            if !same {
                std::fs::copy(e.path(), &dst)?;
            }
        }
    }
    Ok(())
}

fn median(v: &[f64]) -> Option<f64> {
    if v.is_empty() {
        return None;
    }
    let mut s = v.to_vec();
    s.sort_by(f64::total_cmp);
    let m = s.len() / 2;
    Some(if s.len() % 2 == 0 {
        (s[m - 1] + s[m]) / 2.0
    } else {
        s[m]
    })
}

/// The table: one row per case, then the medians and how many reproducers hold.
pub fn render(r: &ReproReport) -> String {
    let mark = |b: Option<bool>| match b {
        Some(true) => "yes",
        Some(false) => "NO",
        None => "-",
    };
    let mut s = format!(
        "perfsyn bench repro: seed {}, {} programs per case, scratch crate {}\n\n",
        r.seed,
        r.max_programs,
        r.scratch_crate.display()
    );
    s.push_str(&format!(
        "{:<4} {:<38} {:<10} {:>11} {:<17} {:>6} {:>6} {:>6} {:>6} {:>6}\n",
        "case",
        "method",
        "outcome",
        "statements",
        "test measures",
        "builds",
        "fails",
        "fixed",
        "bench",
        "clippy"
    ));
    s.push_str(&format!(
        "{:<4} {:<38} {:<10} {:>11} {:<17} {:>6} {:>6} {:>6} {:>6} {:>6}\n",
        "", "", "", "before->aft", "", "", "on bug", "passes", "runs", "clean"
    ));
    for row in &r.rows {
        let stmts = match (row.statements_before, row.statements_after) {
            (Some(b), Some(a)) => format!("{b} -> {a}"),
            _ => "-".into(),
        };
        let fixed = if row.fixed.is_none() && row.compiles.is_some() {
            "none".to_string()
        } else {
            mark(row.passes_on_fix).to_string()
        };
        s.push_str(&format!(
            "{:<4} {:<38} {:<10} {:>11} {:<17} {:>6} {:>6} {:>6} {:>6} {:>6}\n",
            row.id,
            row.method,
            row.outcome.map(|o| o.to_string()).unwrap_or_default(),
            stmts,
            row.measure.as_deref().unwrap_or("-"),
            mark(row.compiles),
            mark(row.fails_on_bug),
            fixed,
            mark(row.bench_runs),
            mark(row.clippy_clean),
        ));
    }
    let f = |m: Option<f64>| m.map_or("-".into(), |m| format!("{m}"));
    s.push_str(&format!(
        "\nmedian statements of the suite's detected best programs ({} cases): {} before shrinking, {} after\n",
        r.median_over,
        f(r.median_statements_before),
        f(r.median_statements_after)
    ));
    let detected = r
        .rows
        .iter()
        .filter(|x| x.outcome == Some(Outcome::Detected))
        .count();
    s.push_str(&format!(
        "reproducers that hold (build, fail on the bug, pass on the fix, bench runs, clippy clean): {} of {} detected\n",
        r.holds, detected
    ));
    let notes: Vec<String> = r
        .rows
        .iter()
        .flat_map(|x| {
            x.notes
                .iter()
                .map(move |n| format!("  {} {}: {n}", x.id, x.method))
        })
        .collect();
    if !notes.is_empty() {
        s.push_str("\nnotes:\n");
        for n in notes {
            s.push_str(&n);
            s.push('\n');
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn example_cases_parse_and_medians() {
        let dir = crate::harness::worker_build::workspace_root().join("examples/own-crate");
        let c = case::read(&dir.join("cases.json")).unwrap();
        assert_eq!(c.len(), 2);
        assert!(c.iter().all(|c| c.expected.is_positive()));
        assert_eq!(median(&[3.0, 1.0, 2.0]), Some(2.0));
        assert_eq!(median(&[4.0, 1.0, 2.0, 3.0]), Some(2.5));
        assert_eq!(median(&[]), None);
    }
}
