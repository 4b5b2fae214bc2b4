//! Every target is a harness (DESIGN.md, "Every target is a harness"): the code under test
//! stays where it is, and a small crate beside it (`perfsyn/`, written by `perfsyn init`)
//! registers its API and is built into the worker. perfsyn's own corpus is one such harness.
//!
//! [`discovery`] finds the harness a command works on; [`init`] writes one for a user's crate;
//! [`spec`] resolves what a user types (`Vec::dedup`) to what the harness registers.

pub mod discovery;
pub mod init;
pub mod spec;

pub use discovery::Harness;
