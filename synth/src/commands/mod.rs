//! One module per subcommand's work, above the explore pipeline they run: hunt, check,
//! suite, compare, the benches, fit, replay, list and export, and the output formats they
//! share (SARIF, BMF, plots). `cli/` parses arguments and calls into these.

pub mod baseline;
pub mod bench;
pub mod bmf;
pub mod check;
pub mod compare;
pub mod definition;
pub mod export;
pub mod fit;
pub mod hunt;
pub mod list;
pub mod partition;
pub mod plot;
pub mod rank;
pub mod replay;
pub mod sarif;
pub mod suite;
