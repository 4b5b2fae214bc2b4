//! The program a run reports (its best, its top k, a side of a relative run), as data and as
//! Rust, with what shrinking did to it. Exchanged by the search (which finds it), the judges
//! (which shrink it) and every report above.

use perfsyn_profiler_ipc::{Feedback, Program};
use serde::{Deserialize, Serialize};

/// The best program of a run, as reported.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct BestProgram {
    pub rust: String,
    pub mutations: usize,
    pub path: Vec<String>,
    pub input_size: u64,
    pub cost: f64,
    pub cost_ref: Option<f64>,
    /// The optimized metric's value (`--metric`) for this program.
    #[serde(default)]
    pub metric_value: f64,
    /// Milliseconds from the start of the search until this program had run.
    #[serde(default)]
    pub found_ms: Option<u64>,
    pub score: f64,
    pub program: Program,
    /// The worker's feedback for this program (the version under analysis); `replay`
    /// compares a new run against it.
    #[serde(default)]
    pub feedback: Option<Feedback>,
    /// The reference version's feedback (relative runs).
    #[serde(default)]
    pub feedback_ref: Option<Feedback>,
    /// Statements of `program`, loop bodies counted.
    #[serde(default)]
    pub statements: usize,
    /// The program before shrinking, when the best program was shrunk (`shrink.rs`).
    #[serde(default)]
    pub shrunk_from: Option<ShrinkRecord>,
}

/// What shrinking did to a reported program; stored in the run file beside the shrunk one.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ShrinkRecord {
    /// Statements of the program before shrinking (loop bodies counted).
    pub statements: usize,
    /// The program before shrinking, as data and as Rust.
    pub program: Program,
    pub rust: String,
    pub input_size: u64,
    pub cost: f64,
    /// Verdict checks spent.
    pub checks: usize,
    /// The budget (`--shrink-budget`) in force.
    pub budget: usize,
    /// The budget ran out before the program was 1-minimal.
    pub stopped_by_budget: bool,
}
