//! The command line: one file per subcommand (its clap options and its `run`), shared options
//! in `common`. Only this module knows clap, the terminal and JSON output.

mod bench;
mod check;
mod common;
mod compare;
pub mod exit;
mod explore;
mod export;
mod fit;
mod hunt;
mod init;
mod list;
mod outputs;
mod replay;
mod report;
mod status;
mod suite;

use anyhow::Result;
use clap::{Parser, Subcommand};

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
    List(list::ListArgs),
    /// Benchmarks of perfsyn itself (`bench ipc`: the cost of the worker boundary).
    #[command(subcommand)]
    Bench(bench::BenchCommand),
    /// Write a harness (`perfsyn/`) into your crate, registering its public API, so that
    /// every other command explores your crate.
    Init(init::InitArgs),
    /// Search for a program that exposes a bottleneck in one method.
    Explore(explore::ExploreArgs),
    /// Compare two versions of a thread-safe type with generated multi-threaded tests
    /// (SpeedGun) and report a regression, an improvement or none.
    Compare(compare::CompareArgs),
    /// Re-run a saved program of a run file on the current worker and compare.
    Replay(replay::ReplayArgs),
    /// Run the bottleneck corpus (Table 3.2, Listing 3.1, Toddler, negative controls) and
    /// print which cases each strategy detects.
    Suite(suite::SuiteArgs),
    /// Turn a saved program of a run file into a Rust regression test, benchmark or program.
    Export(export::ExportArgs),
    /// Explore every method of an API (or of one type) into a directory, resumably, and
    /// write a ranked HTML report of the findings.
    Hunt(hunt::HuntArgs),
    /// Merge the result directories of a partitioned hunt (`hunt --partition k/N`) into one
    /// hunt directory and its report, or regenerate the report of one directory.
    Report(report::ReportArgs),
    /// Judge (size, cost) pairs you already have (CSV, JSON lines or a criterion group):
    /// the complexity class with its evidence.
    Fit(fit::FitArgs),
    /// Gate a change: explore the public methods it touched (riskiest first) against the
    /// baseline revision; exit 1 on a confirmed regression, 0 when none, 2 on an error.
    Check(check::CheckArgs),
}

/// Runs the parsed command line.
pub fn run(cli: Cli) -> Result<()> {
    match cli.command {
        Command::List(a) => list::run(a),
        Command::Bench(b) => bench::run(b),
        Command::Init(a) => init::run(a),
        Command::Explore(a) => explore::run(a),
        Command::Compare(a) => compare::run(a),
        Command::Replay(a) => replay::run(a),
        Command::Suite(a) => suite::run(a),
        Command::Export(a) => export::run(a),
        Command::Hunt(a) => hunt::run(a),
        Command::Report(a) => report::run(a),
        Command::Fit(a) => fit::run(a),
        Command::Check(a) => check::run(a),
    }
}
