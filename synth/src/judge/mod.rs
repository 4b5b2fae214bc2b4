//! From measurements to a verdict: the oracles, the verdict sweep and its program, the fits,
//! wall-clock confirmation, hot lines, shrinking and ranking. Above the search, whose best
//! programs it judges; below explore, the pipeline that calls each phase once.

pub mod amortized;
pub mod capacity_sweep;
#[cfg(test)]
mod capacity_sweep_tests;
pub mod confirm;
pub mod hotlines;
pub mod lasting_spike;
pub mod oracle;
pub mod regime;
pub mod shrink;
pub mod size_measure;
pub mod sweep;
pub mod swept;
pub mod verdict_program;
