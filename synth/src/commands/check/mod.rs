//! `perfsyn check`: explore the methods a change touched, riskiest first, and gate on
//! confirmed regressions.
//!
//! - `git.rs`: the baseline revision, checked out beside the working tree.
//! - `risk.rs`: which public methods the change touched and how risky each change is
//!   (PerfScope's performance risk analysis).
//! - `report.rs`: findings as a table, JSON and Markdown, and the exit code.

pub mod baseline;
pub mod git;
pub mod report;
pub mod risk;
pub mod run;
