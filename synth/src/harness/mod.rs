//! Every target is a harness (DESIGN.md, "Every target is a harness"): the code under test
//! stays where it is, and a small crate beside it (`perfsyn/`, written by `perfsyn init`)
//! registers its API and is built into the worker. perfsyn's own corpus is one such harness.
//!
//! [`discovery`] finds the harness a command works on; [`init`] writes one for a user's crate;
//! [`spec`] resolves what a user types (`Vec::dedup`) to what the harness registers.
//! [`worker_build`] builds its worker, reading the compiler's messages with [`diagnostics`];
//! [`generated`] reads a generated file back; [`legacy_syntax`] reads a source file syn alone
//! refuses (a pre-2021 bare closure-trait object, `&'a Fn() -> T`); [`loop_headers`] recovers
//! the natural loops of a trace worker binary ([`cfg_loops`]: one function's).

pub mod cfg_loops;
pub mod diagnostics;
pub mod discovery;
pub mod generated;
pub mod init;
pub mod legacy_syntax;
pub mod loop_headers;
pub mod mine;
pub mod rungs;
pub mod spec;
pub mod worker_build;

pub use discovery::Harness;
