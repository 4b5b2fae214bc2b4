//! `perfsyn bench`: the evaluations that print figures (fit accuracy, the process boundary,
//! search quality, throughput, reproducers, repeated traversals, repeated computations,
//! init's registration share, mined values), one file each.

pub mod fit;
pub mod init;
pub mod ipc;
pub mod memoize;
pub mod relative;
pub mod repro;
pub mod search;
pub mod throughput;
pub mod toddler;
pub mod values;
