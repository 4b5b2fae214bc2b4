//! perfsyn's process boundary: what crosses it and both ends of it.
//!
//! This crate defines the synthesized [`program`] model, the API [`registry`] (and its
//! serializable [`schema`]), the [`check`]er and Rust [`print`]er for programs, the in-process
//! [`interp`]reter with its cost [`meter`], and the [`feedback`] it returns. The wire encoding
//! lives only in [`wire`]. It knows nothing of mutation trees, search or oracles (that is the
//! engine, `perfsyn`), and nothing of concrete target types (that is `perfsyn-corpus`).

pub mod activations;
pub mod affinity;
pub mod bind;
pub mod check;
pub mod concurrent;
pub mod deathwatch;
pub mod endflags;
pub mod entropy;
pub mod fastwire;
pub mod feedback;
pub mod forkserver;
pub mod hot;
pub mod interp;
pub mod meter;
pub mod print;
pub mod probe;
pub mod progcache;
pub mod program;
pub mod progwire;
pub mod protocol;
pub mod readtrace;
pub mod registry;
pub mod regress;
pub mod rescue;
pub mod sandbox;
pub mod schedule;
pub mod schema;
pub mod seen;
pub mod shm;
pub mod supervisor;
pub mod trace;
pub mod wire;
pub mod worker;

pub use feedback::{Cost, Feedback, HotPc, Outcome};
pub use program::{IntTy, Literal, Op, Pattern, Program, Stmt, TextShape, Var};
pub use registry::{Registry, TypeDef};
pub use schema::{ApiSchema, Mode};
pub use supervisor::{Pool, PoolConfig, PoolError, PoolStats};
