//! perfsyn's engine: search, oracles, reports, and the thin CLI over them.
//!
//! The engine never links target code: it learns the API from the worker's schema and runs
//! programs through `perfsyn_profiler_ipc`'s supervisor. Layering: this crate depends on
//! `perfsyn-profiler-ipc`, never on `perfsyn-corpus`.

pub mod amortized;
pub mod bench_fit;
pub mod bench_ipc;
pub mod bench_relative;
pub mod bench_repro;
pub mod bench_search;
pub mod bench_throughput;
pub mod bmf;
pub mod check;
pub mod cli;
pub mod compare;
pub mod confirm;
pub mod definition;
pub mod exec;
pub mod explore;
pub mod export;
pub mod export_gungraun;
pub mod export_into;
pub mod fit_cmd;
pub mod fuelcap;
pub mod grow;
pub mod handles;
pub mod harness;
pub mod hotlines;
pub mod hunt;
pub mod init;
pub mod lasting_spike;
pub mod learn;
pub mod list;
pub mod mutate;
pub mod oracle;
pub mod pair;
pub mod partition;
pub mod plot;
pub mod pool;
pub mod rank;
pub mod regime;
pub mod replay;
pub mod runfile;
pub mod sarif;
pub mod search;
pub mod shrink;
pub mod size_measure;
pub mod spec;
pub mod suite;
pub mod sweep;
pub mod verdict;
pub mod verdict_program;
