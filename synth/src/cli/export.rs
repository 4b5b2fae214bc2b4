//! `perfsyn export`: a saved program as a test, a benchmark or a program.

use std::path::PathBuf;

use anyhow::{Context, Result};
use clap::Args;

use super::common::{choice, parse_positive, WorkerArgs};
use crate::run::pool::WorkerPool;

#[derive(Debug, Args)]
pub struct ExportArgs {
    /// The run file written by `perfsyn explore`.
    #[arg(value_name = "RUN.json")]
    pub run: PathBuf,
    /// Which saved program: 1 is the best, 2.. the following ones.
    #[arg(long, default_value_t = 1, value_parser = parse_positive)]
    pub rank: u64,
    /// `test`: a regression test that fails while the bottleneck is there; `bench`: a
    /// criterion benchmark; `program`: the program as a #[test] that runs it once;
    /// `gungraun`: a callgrind benchmark that fails when instructions grow above a limit
    /// derived from the finding (for findings a plain test cannot gate).
    #[arg(long, value_parser = choice::<crate::commands::export::Format>())]
    pub format: crate::commands::export::Format,
    /// Write the file here instead of stdout.
    #[arg(
        short = 'o',
        long = "output",
        value_name = "FILE",
        conflicts_with = "into"
    )]
    pub output: Option<PathBuf>,
    /// Place the file in this crate's `tests/` or `benches/` and add the dev-dependencies
    /// (and `[[bench]]` entry) it needs to its Cargo.toml.
    #[arg(long, value_name = "CRATE_DIR")]
    pub into: Option<PathBuf>,
    /// With --into: overwrite an existing file.
    #[arg(long, requires = "into")]
    pub force: bool,
    #[command(flatten)]
    pub worker: WorkerArgs,
}

/// Exports program `rank` of the run file at `run_path` to `output` (or stdout); warnings on
/// stderr. The schema comes from the worker (run files do not carry it), which also runs the
/// program at the test's sizes to pick what the test measures.
pub(super) fn export_run(
    run_path: &std::path::Path,
    exec: &mut dyn crate::run::exec::Executor,
    format: crate::commands::export::Format,
    rank: usize,
    output: Option<&std::path::Path>,
) -> Result<()> {
    let run = crate::explore::runfile::RunFile::load(run_path)?;
    if run.schema_hash_value() != Some(exec.schema().hash()) {
        eprintln!(
            "warning: {} was made with a worker whose API schema differs from this one",
            run_path.display()
        );
    }
    let cfg = crate::commands::export::ExportConfig {
        format,
        rank,
        run_path: Some(run_path.to_path_buf()),
        target_name: output
            .and_then(|p| p.file_stem())
            .map(|s| s.to_string_lossy().into_owned()),
    };
    let exported = crate::commands::export::export(&run, exec, &cfg)
        .map_err(|e| anyhow::anyhow!("{}: {e}", run_path.display()))?;
    for w in &exported.warnings {
        eprintln!("warning: {w}");
    }
    crate::commands::export::write(&exported, output).with_context(|| match output {
        Some(p) => format!("cannot write {}", p.display()),
        None => "cannot write to stdout".into(),
    })?;
    if let Some(p) = output {
        eprintln!("exported ({}): {}", format.name(), p.display());
    }
    runner_hint(format);
    Ok(())
}

/// After a gungraun export: how to install the runner it needs (stderr, as the other notes).
fn runner_hint(format: crate::commands::export::Format) {
    if format == crate::commands::export::Format::Gungraun {
        eprintln!(
            "run it with valgrind and gungraun's runner of the same version: cargo install gungraun-runner --version {}",
            crate::commands::export::gungraun::VERSION
        );
    }
}

pub fn run(a: ExportArgs) -> Result<()> {
    // Read the run file (and check the rank) before building or starting anything.
    let run = crate::explore::runfile::RunFile::load(&a.run)?;
    crate::commands::replay::program_of(&run, a.rank as usize)
        .map_err(|e| anyhow::anyhow!("{}: {e}", a.run.display()))?;
    let worker = a.worker.resolve(true)?;
    let mut pool = WorkerPool::start(&worker, 1, std::time::Duration::from_secs(10))?;
    let mut pair = crate::explore::versions::for_saved_run(&run, &pool)
        .map_err(|e| anyhow::anyhow!("{}: {e}", a.run.display()))?;
    let exec: &mut dyn crate::run::exec::Executor = match pair.as_mut() {
        Some(p) => p,
        None => &mut pool,
    };
    if let Some(dir) = &a.into {
        return export_into(&a, dir, &run, exec);
    }
    export_run(&a.run, exec, a.format, a.rank as usize, a.output.as_deref())
}

/// `export --into CRATE_DIR`: the file goes to the crate's `tests/` or `benches/`, named after
/// the method, and the manifest gets what the file needs.
fn export_into(
    a: &ExportArgs,
    dir: &std::path::Path,
    run: &crate::explore::runfile::RunFile,
    exec: &mut dyn crate::run::exec::Executor,
) -> Result<()> {
    if !dir.join("Cargo.toml").is_file() {
        anyhow::bail!(
            "{} has no Cargo.toml: --into needs a crate directory",
            dir.display()
        );
    }
    let name = format!(
        "perfsyn_{}_{}",
        crate::commands::export::snake(&run.report.method),
        a.format.name()
    );
    let cfg = crate::commands::export::ExportConfig {
        format: a.format,
        rank: a.rank as usize,
        run_path: Some(a.run.clone()),
        target_name: Some(name.clone()),
    };
    let exported = crate::commands::export::export(run, exec, &cfg)
        .map_err(|e| anyhow::anyhow!("{}: {e}", a.run.display()))?;
    for w in &exported.warnings {
        eprintln!("warning: {w}");
    }
    let placed =
        crate::commands::export::into::place(dir, a.format, &name, &exported.source, a.force)
            .map_err(|e| anyhow::anyhow!(e))?;
    eprintln!("exported ({}): {}", a.format.name(), placed.file.display());
    for added in &placed.added {
        eprintln!("added to Cargo.toml: {added}");
    }
    runner_hint(a.format);
    Ok(())
}
