//! `perfsyn init`: write a harness into the user's crate.

use std::path::PathBuf;

use anyhow::Result;
use clap::Args;

#[derive(Debug, Args)]
pub struct InitArgs {
    /// The crate's Cargo.toml (default: the one in the current directory).
    #[arg(long, value_name = "PATH")]
    pub manifest_path: Option<PathBuf>,
    /// Regenerate an existing perfsyn/ directory.
    #[arg(long)]
    pub force: bool,
}

pub fn run(a: InitArgs) -> Result<()> {
    let s = crate::harness::init::run(&crate::harness::init::InitConfig {
        manifest_path: a.manifest_path,
        force: a.force,
        build: true,
        quiet: false,
    })?;
    print!("{}", crate::harness::init::render(&s));
    Ok(())
}
