//! The command line: clap options per subcommand and one `run` function each. Only this
//! module knows clap, the terminal and JSON output.

use std::path::PathBuf;

use anyhow::Result;
use clap::{Args, Parser, Subcommand};

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
}

/// Options shared by every command that needs a worker.
#[derive(Debug, Clone, Args)]
pub struct WorkerArgs {
    /// Use this worker binary instead of building the instrumented one.
    #[arg(long, value_name = "PATH")]
    pub worker: Option<PathBuf>,
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
    }
}

fn run_list(a: ListArgs) -> Result<()> {
    let worker = worker_build::resolve_worker(a.worker.worker.as_deref(), false)?;
    let schema = worker_build::read_schema(&worker)?;
    let entries = list::entries(&schema, a.ty.as_deref())?;
    if a.json {
        println!("{}", serde_json::to_string_pretty(&entries)?);
    } else {
        print!("{}", list::render(&entries));
    }
    Ok(())
}
