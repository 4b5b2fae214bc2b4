//! perfsyn's engine: search, oracles, reports, and the thin CLI over them.
//!
//! The engine never links target code: it learns the API from the worker's schema and runs
//! programs through `perfsyn_profiler_ipc`'s supervisor. Layering: this crate depends on
//! `perfsyn-profiler-ipc`, never on `perfsyn-corpus`.
//!
//! The folders are the pipeline, bottom to top: [`report`] (what every phase produces),
//! [`harness`] (the target and its workers), [`run`] (executing programs), [`search`],
//! [`judge`], [`explore`] (the pipeline that calls each phase once), [`commands`] and
//! [`cli`]. A module imports only from its own floor or the floors below (see
//! `tests/layering.rs`).

pub mod cli;
pub mod commands;
pub mod explore;
pub mod harness;
pub mod judge;
pub mod report;
pub mod run;
pub mod search;
