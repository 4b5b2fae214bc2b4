//! `perfsyn bench`: the evaluations that print figures (fit accuracy, the process boundary,
//! search quality, throughput, reproducers, repeated traversals,
//! init's registration share, mined values), one file each.

pub mod fit;
pub mod init;
pub mod ipc;
pub mod relative;
pub mod repro;
pub mod search;
pub mod throughput;
pub mod toddler;
pub mod values;
