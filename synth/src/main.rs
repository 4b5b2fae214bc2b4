//! The `perfsyn` binary: parses arguments and hands them to the library.

use clap::Parser;

fn main() {
    let cli = perfsyn::cli::Cli::parse();
    if let Err(e) = perfsyn::cli::run(cli) {
        eprintln!("error: {e:#}");
        std::process::exit(perfsyn::cli::exit::code(&e));
    }
}
