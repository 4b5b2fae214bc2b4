//! perfsyn's engine: search, oracles, reports, and the thin CLI over them.
//!
//! The engine never links target code: it learns the API from the worker's schema and runs
//! programs through `perfsyn_profiler_ipc`'s supervisor. Layering: this crate depends on
//! `perfsyn-profiler-ipc`, never on `perfsyn-corpus`.

pub mod cli;
pub mod list;
pub mod spec;
pub mod worker_build;
