//! A program judged on its sweep: what `verdict_program` produces and `lasting_spike`
//! re-checks. Its own file so that the two import it and neither imports the other back.

use perfsyn_profiler_ipc::{Feedback, Program};
use serde::{Deserialize, Serialize};

use crate::judge::oracle::asymptotic::Judgement;
use crate::judge::size_measure::SizeMeasure;

/// A program swept and judged.
#[derive(Clone, Debug)]
pub struct Swept {
    pub sweep: Vec<Program>,
    pub sweep_fb: Vec<Feedback>,
    pub points: Vec<(u64, f64)>,
    pub points_from: PointsFrom,
    pub judgement: Judgement,
    pub measure: SizeMeasure,
    /// Why a bottleneck on the sweep was not kept: the sweep with the loops that only
    /// rearrange the input kept at their count (`sweep::Sweeps`) gave another verdict, which
    /// is the one judged here; or which sizes a sweep above a change of regime judged
    /// (`regime.rs`).
    pub rearranging_note: Option<String>,
    /// How the sweep scaled each size-like quantity, in words (`sweep::describe`).
    pub scaled: Vec<String>,
}

/// Where the points a verdict was fitted on come from; written in reports and run files as
/// its label (`sweep-heap-bytes`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum PointsFrom {
    /// The mutation path from p0 to the program (it has no loop to sweep, or its sweep gave
    /// too few sizes).
    Path,
    /// The program at several loop sizes, sized by its registered size.
    Sweep,
    /// The sweep, sized by the heap bytes the program holds, which the cost follows (see
    /// `size_measure`).
    SweepHeapBytes,
    /// The sweep's sizes above a change of regime (see `regime`).
    SweepAboveFall,
    /// The program at each capacity of its receiver's capacity ladder (see `capacity_sweep`).
    CapacityLadder,
}

impl PointsFrom {
    /// The label reports write: `path`, `sweep`, `sweep-heap-bytes`, `sweep-above-fall`,
    /// `capacity-ladder`.
    pub fn label(self) -> &'static str {
        match self {
            PointsFrom::Path => "path",
            PointsFrom::Sweep => "sweep",
            PointsFrom::SweepHeapBytes => "sweep-heap-bytes",
            PointsFrom::SweepAboveFall => "sweep-above-fall",
            PointsFrom::CapacityLadder => "capacity-ladder",
        }
    }

    /// Whether the points come from a sweep of the program (any sizing), not its path.
    pub fn is_sweep(self) -> bool {
        self != PointsFrom::Path
    }
}

impl std::fmt::Display for PointsFrom {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.label())
    }
}
