//! `perfsyn check`: explore the methods a change touched, riskiest first, and gate on
//! confirmed regressions.
//!
//! The baseline revision and its workers are `commands::baseline` (explore `--baseline`
//! uses them too).
//!
//! - `risk.rs`: which public methods the change touched and how risky each change is
//!   (PerfScope's performance risk analysis).
//! - `report.rs`: findings as a table, JSON and Markdown, and the exit code.
//! - `compare.rs`: an explain step on both revisions, and what only the working tree shows.
//! - `traversals.rs`: repeated traversals (Toddler) the change introduced, beside a verdict.
//! - `memoization.rs`: repeated computations (MemoizeIt) the change introduced, likewise.

pub mod compare;
pub mod memoization;
pub mod report;
pub mod risk;
pub mod run;
pub mod traversals;
