//! The result of one `explore`: every phase's evidence in one document, printed with
//! `--json`, saved in run files and read by every command above explore.
//!
//! Why here and not in `report/`: it names the evidence of every phase (the search's
//! statistics, the judges' fits, sides and hot lines, the confirmation), so it sits above
//! all of them; the bottom floor keeps only what the phases themselves exchange (verdicts,
//! classes, the reported program).

use serde::{Deserialize, Serialize};

use crate::explore::OracleKind;
use crate::judge::confirm::ConfirmReport;
use crate::judge::oracle::relative;
use crate::judge::swept::PointsFrom;
use crate::report::best::BestProgram;
use crate::report::class::Class;
use crate::report::verdict::Verdict;
use crate::search::learn::LearnRow;
use crate::search::{Metric, Stats, StrategyKind};

/// The result of `explore`, printed as JSON with `--json`.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ExploreReport {
    pub method: String,
    #[serde(rename = "type")]
    pub ty: String,
    /// The oracle that judged the run: `asymptotic` or `relative` (never `auto`).
    pub oracle: OracleKind,
    pub strategy: StrategyKind,
    pub seed: u64,
    pub metric: Metric,
    /// What the run concluded.
    pub verdict: Verdict,
    pub reason: String,
    /// The documented (or `--expect`ed) class, written as its label (`O(n)`). Every run file
    /// ever written holds a label or null here: explore refuses a class it cannot parse.
    #[serde(default, with = "crate::report::class::label")]
    pub expected: Option<Class>,
    /// The class the verdict's fit found, written as its label.
    #[serde(default, with = "crate::report::class::label")]
    pub empirical: Option<Class>,
    pub fit_error: Option<f64>,
    /// Relative oracle: cost new / old of the best program.
    pub ratio: Option<f64>,
    /// Relative oracle: the Rust type the old version's worker runs the programs on.
    #[serde(default)]
    pub ref_type: Option<String>,
    /// Relative oracle: the Rust type the new version's worker runs them on (`type` is the
    /// name the programs use, a version group's name). Absent in run files written when a
    /// version group was compared by renaming the program's types.
    #[serde(default)]
    pub new_type: Option<String>,
    /// Measured wall-clock ratio of the best program's confirmation (new/old for relative
    /// runs, largest/smallest size for asymptotic ones).
    #[serde(default)]
    pub time_ratio: Option<f64>,
    /// Whether that time difference is significant (see `confirm`).
    #[serde(default)]
    pub time_significant: Option<bool>,
    /// The wall-clock confirmation of the top programs.
    #[serde(default)]
    pub confirmation: Option<ConfirmReport>,
    /// Asymptotic oracle: the cost showed a bottleneck, but the confirmation's clock did not
    /// grow faster than the documented class, so the verdict is inconclusive (see
    /// `oracle::clock`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub withdrawn_by_clock: bool,
    pub best: Option<BestProgram>,
    /// Top programs after the best (ranks 2..k).
    pub others: Vec<BestProgram>,
    /// [size, cost] points the verdict was fitted on.
    pub points: Vec<(u64, f64)>,
    /// Where the points come from: the best program's sweep (sized by its registered size or
    /// by the heap bytes it holds, or above a change of regime) or its mutation path.
    pub points_from: PointsFrom,
    /// Points left out of the fit (one amortized spike at most; see `oracle::asymptotic::judge`).
    #[serde(default)]
    pub outliers: Vec<(u64, f64)>,
    /// How the verdict's sweep scaled each size-like quantity of the program, in words.
    #[serde(default)]
    pub sweep_scaled: Vec<String>,
    /// Asymptotic oracle: the statistics behind the verdict (range used, log-log slope
    /// interval, runner-up class, BIC per class; see `oracle::model_select`).
    #[serde(default)]
    pub evidence: Option<crate::judge::oracle::model_select::Selection>,
    /// Relative oracle: [size, reference cost] along the same path as `points`.
    #[serde(default)]
    pub ref_points: Vec<(u64, f64)>,
    /// Relative oracle with `--direction both`: the largest regression and the largest
    /// improvement found, each judged and confirmed on its own.
    #[serde(default)]
    pub sides: Option<relative::Sides<BestProgram>>,
    /// Asymptotic oracle: the lines of the call under test whose hits grow fastest over the
    /// sweep, fastest first (see `hotlines`).
    #[serde(default)]
    pub hot_lines: Vec<crate::judge::hotlines::HotLine>,
    /// Toddler's repeated traversals of the best programs (`explore/toddler.rs`), beside the
    /// verdict; empty for a relative explore.
    #[serde(default)]
    pub repeated_traversals: Vec<crate::judge::oracle::toddler::RepeatedTraversal>,
    /// Why the repeated-traversal check did not run (its trace build failed), when it did not.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub repeated_traversals_skipped: Option<String>,
    /// Wall time of the repeated-traversal check (trace runs and the rule), when it ran: what
    /// the oracle adds to an explore.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub repeated_traversals_ms: Option<u64>,
    /// MemoizeIt's repeated computations in the best programs (`explore/memoize.rs`), most
    /// edges saved first; empty for a relative explore.
    #[serde(default)]
    pub memoization: Vec<crate::judge::oracle::memoize::Opportunity>,
    /// Why the repeated-computation check did not run, when it did not.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub memoization_skipped: Option<String>,
    pub stats: Stats,
    pub tree: TreeSummary,
    /// Relative oracle: every explored program's observation, in the order `sides` are
    /// picked from (for `bench search`'s gap-floor table); not written out.
    #[serde(skip)]
    pub observations: Vec<crate::search::objective::Obs>,
}

impl ExploreReport {
    /// The report of a run that has just started: what it explores and how, nothing found
    /// yet (verdict `no-initial-program`, no reason, no points, empty statistics). Explore
    /// fills it in phase by phase; hunt records it with an error when a method fails.
    pub fn started(
        method: String,
        ty: String,
        oracle: OracleKind,
        strategy: StrategyKind,
        seed: u64,
        metric: Metric,
    ) -> ExploreReport {
        ExploreReport {
            method,
            ty,
            oracle,
            strategy,
            seed,
            metric,
            verdict: Verdict::NoInitialProgram,
            reason: String::new(),
            expected: None,
            empirical: None,
            fit_error: None,
            ratio: None,
            ref_type: None,
            new_type: None,
            time_ratio: None,
            time_significant: None,
            confirmation: None,
            withdrawn_by_clock: false,
            best: None,
            others: Vec::new(),
            points: Vec::new(),
            points_from: PointsFrom::Path,
            outliers: Vec::new(),
            sweep_scaled: Vec::new(),
            evidence: None,
            ref_points: Vec::new(),
            sides: None,
            hot_lines: Vec::new(),
            repeated_traversals: Vec::new(),
            repeated_traversals_skipped: None,
            repeated_traversals_ms: None,
            memoization: Vec::new(),
            memoization_skipped: None,
            stats: Stats::default(),
            tree: TreeSummary::default(),
            observations: Vec::new(),
        }
    }
}

/// A summary of the explored mutation tree.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct TreeSummary {
    pub nodes: usize,
    /// Number of nodes per depth.
    pub depth_histogram: Vec<usize>,
    pub learning_top: Vec<LearnRow>,
}
