//! perfsyn's target corpus: the registered APIs a worker can run, and the worker binary.
//!
//! Each module registers a family of types with the
//! [`register_type!`](perfsyn_profiler_ipc::register_type) DSL; [`registry`] is the one list
//! that collects them. The corpus knows nothing of profiling, search or oracles.

pub mod probe;
pub mod std_vec;

use perfsyn_profiler_ipc::Registry;

/// Every registered type of this corpus.
pub fn registry() -> Registry {
    Registry::new(vec![probe::key(), probe::name(), std_vec::vec_key()])
}
