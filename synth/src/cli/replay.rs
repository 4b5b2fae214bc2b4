//! `perfsyn replay`: re-run a saved program and gate on the difference.

use std::path::PathBuf;

use anyhow::Result;
use clap::Args;

use super::common::{parse_positive, WorkerArgs};
use crate::run::pool::WorkerPool;

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

pub fn run(a: ReplayArgs) -> Result<()> {
    let run = crate::explore::runfile::RunFile::load(&a.run)?;
    // Check the rank before building or starting anything.
    crate::commands::replay::program_of(&run, a.rank as usize)
        .map_err(|e| anyhow::anyhow!("{}: {e}", a.run.display()))?;
    let worker = a.worker.resolve(a.json)?;
    let identity = crate::explore::runfile::worker_identity(&worker)
        .map_err(|e| anyhow::anyhow!("cannot read the worker {}: {e}", worker.display()))?;
    // The replay table shows the thread CPU time too.
    crate::run::pool::time_thread_cpu(true);
    let mut pool = WorkerPool::start(&worker, 1, std::time::Duration::from_secs(10))?;
    let mut pair = crate::explore::versions::for_saved_run(&run, &pool)
        .map_err(|e| anyhow::anyhow!("{}: {e}", a.run.display()))?;
    let exec: &mut dyn crate::run::exec::Executor = match pair.as_mut() {
        Some(p) => p,
        None => &mut pool,
    };
    let r = crate::commands::replay::replay(exec, &run, a.rank as usize, &identity.hash)?;
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
            crate::commands::replay::render(&r, &a.run.display().to_string())
        );
    }
    crate::commands::replay::gate(&r)
        .map_err(|e| super::exit::Finding(format!("{}: {e}", a.run.display())).into())
}
