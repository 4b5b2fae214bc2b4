//! `perfsyn list`: the registered methods.

use anyhow::Result;
use clap::Args;

use super::common::WorkerArgs;
use crate::commands::list;
use crate::harness::worker_build;

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

pub fn run(a: ListArgs) -> Result<()> {
    let worker = a.worker.resolve(false)?;
    let schema = worker_build::read_schema(&worker)?;
    let mut entries = list::entries(&schema, a.ty.as_deref())?;
    let harness = a.worker.harness()?;
    let index = crate::harness::mine::load(&harness)?;
    list::count_mined(
        &mut entries,
        &schema,
        &crate::harness::mine::Retriever::new(index),
    );
    list::with_sources(&mut entries, &crate::harness::init::class_sources(&harness));
    if a.json {
        println!("{}", serde_json::to_string_pretty(&entries)?);
    } else {
        print!("{}", list::render(&entries));
    }
    Ok(())
}
