//! A program judged on its sweep: what `verdict_program` produces and `lasting_spike`
//! re-checks. Its own file so that the two import it and neither imports the other back.

use perfsyn_profiler_ipc::{Feedback, Program};

use crate::judge::oracle::asymptotic::Judgement;
use crate::judge::size_measure::SizeMeasure;

/// A program swept and judged.
#[derive(Clone, Debug)]
pub struct Swept {
    pub sweep: Vec<Program>,
    pub sweep_fb: Vec<Feedback>,
    pub points: Vec<(u64, f64)>,
    pub points_from: &'static str,
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
