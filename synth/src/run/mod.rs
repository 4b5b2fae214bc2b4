//! Running programs: the engine's view of execution ([`exec::Executor`]), the worker pool
//! that implements it, and the two-version pair. Above the harness (whose workers it starts),
//! below the search and the judges (which submit programs through it).

pub mod exec;
pub mod pair;
pub mod pool;
pub mod reads;
