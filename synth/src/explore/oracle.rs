//! The one trait every oracle implements, so that explore is a pipeline that calls each phase
//! once, in order, and never asks which oracle it runs.
//!
//! An oracle takes the search's best program ([`Found`]) through four phases: [`Oracle::judge`]
//! (the verdict from the measurements), [`Oracle::shrink`] (a reported program made small,
//! its evidence measured again), [`Oracle::explain`] (what a reader needs beside the verdict:
//! hot lines, the two sides of a comparison) and [`Oracle::confirm`] (the wall clock). What a
//! verdict rests on travels between the phases as the oracle's own [`Evidence`] variant.
//!
//! Why in `explore/` and not in `judge/`: the phases write the run's report, which names the
//! evidence of every phase and so sits above them all. The judging itself (fits, sweeps,
//! ratios, sides, the clock's rules) stays in `judge/`; an oracle here only orders it.

use anyhow::Result;
use perfsyn_profiler_ipc::Program;

use crate::explore::report::ExploreReport;
use crate::explore::{ExploreConfig, OracleKind};
use crate::judge::confirm::{self, ConfirmReport};
use crate::judge::shrink::ShrinkConfig;
use crate::judge::size_measure::SizeMeasure;
use crate::report::best::BestProgram;
use crate::report::class::Class;
use crate::run::exec::Executor;
use crate::search::objective::{Objective, Obs};

/// What the search hands to the oracle: the best program and the figures along its path.
pub struct Found {
    pub best_obs: Obs,
    pub path_points: Vec<(u64, f64)>,
    pub ref_points: Vec<(u64, f64)>,
    pub best_program: Program,
    /// The programs of the best one's mutation path, root first: the hot lines' programs when
    /// the verdict's points are the path's (a program without a loop to sweep).
    pub path_programs: Vec<Program>,
    /// With [`Needs::sides`]: the largest regression and improvement.
    pub side_programs: Option<(Option<BestProgram>, Option<BestProgram>)>,
    /// With [`Needs::widest`]: the widest program, its observation and path points, should
    /// the best one give the verdict too few sizes (see `verdict_program`).
    pub widest: Option<(BestProgram, Obs, Vec<(u64, f64)>)>,
}

/// What an oracle needs the search phase to keep from the tree besides the best program.
#[derive(Clone, Copy, Debug, Default)]
pub struct Needs {
    /// The programs of the best program's mutation path.
    pub path_programs: bool,
    /// Every explored program's observation (for `bench search`'s gap-floor table).
    pub observations: bool,
    /// The largest regression and the largest improvement.
    pub sides: bool,
    /// The widest program (the one that reached the largest input).
    pub widest: bool,
}

/// What a verdict rests on, from judging to confirmation: one variant per oracle.
pub enum Evidence {
    Asymptotic(Box<AsymptoticEvidence>),
    Relative(Box<RelativeEvidence>),
}

/// What an asymptotic verdict rests on.
pub struct AsymptoticEvidence {
    /// The sweep of the (possibly shrunk) best program, largest first; empty without loops.
    pub sweep: Vec<Program>,
    /// Which size the cost follows.
    pub measure: SizeMeasure,
    /// The judged program's observation.
    pub best_obs: Obs,
    /// The fitted class.
    pub class: Option<Class>,
    pub bottleneck: bool,
    /// The best program's mutation path, and whether the hot lines are counted on it.
    pub path_programs: Vec<Program>,
    pub hot_on_path: bool,
}

/// What a relative verdict rests on.
pub struct RelativeEvidence {
    /// The best program's cost ratio new/old (after shrinking, when it was shrunk).
    pub ratio: f64,
    /// The largest regression and improvement, with `--direction both`.
    pub side_programs: Option<(Option<BestProgram>, Option<BestProgram>)>,
}

/// A performance oracle as explore runs it.
pub trait Oracle {
    /// The oracle named in the report (never `auto`).
    fn kind(&self) -> OracleKind;
    /// What the search maximizes.
    fn objective(&self) -> &dyn Objective;
    /// Whether every program runs on both versions of a pair.
    fn runs_pairs(&self) -> bool;
    /// What the search phase keeps for this oracle.
    fn needs(&self, cfg: &ExploreConfig) -> Needs;
    /// Phase 3: the verdict on the search's best program, written into `report`.
    fn judge(
        &self,
        exec: &mut dyn Executor,
        cfg: &ExploreConfig,
        found: Found,
        report: &mut ExploreReport,
    ) -> Result<Evidence>;
    /// Phase 4: shrinks a reported best program within `shrink_cfg`, keeping its verdict,
    /// and measures what the verdict rests on again.
    fn shrink(
        &self,
        exec: &mut dyn Executor,
        cfg: &ExploreConfig,
        shrink_cfg: ShrinkConfig,
        evidence: &mut Evidence,
        report: &mut ExploreReport,
    ) -> Result<()>;
    /// Phase 5: what a reader needs beside the verdict.
    fn explain(
        &self,
        exec: &mut dyn Executor,
        cfg: &ExploreConfig,
        evidence: Evidence,
        report: &mut ExploreReport,
    ) -> Result<Evidence>;
    /// Phase 6: wall-clock confirmation.
    fn confirm(
        &self,
        exec: &mut dyn Executor,
        cfg: &ExploreConfig,
        evidence: &Evidence,
        report: &mut ExploreReport,
    ) -> Result<()>;
}

/// Records a confirmation in the report; the best program's figures become the headline.
pub fn attach(report: &mut ExploreReport, c: ConfirmReport, jobs: &[confirm::Job]) {
    if jobs.is_empty() {
        return;
    }
    if let Some(first) = c.confirmed.iter().find(|x| x.rank == 1) {
        report.time_ratio = Some(first.time_ratio);
        report.time_significant = Some(first.significant);
    }
    report.confirmation = Some(c);
}
