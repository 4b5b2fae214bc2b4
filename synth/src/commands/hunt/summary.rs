//! One row per explored method, with its key figures, for `summary.json`'s `methods` list and
//! `perfsyn hunt --json` / `perfsyn report --json`.
//!
//! Why: `hunt.json` (the manifest) lists run files but no verdicts, and `summary.json`'s
//! finding lists hold only what passed the ranking; a script that wanted every method's
//! verdict and figures (the class, the largest size swept, the cost there, the fitted
//! exponent) had to open every `runs/*.json`. These rows are built from the same run files as
//! the ranked lists, so the two never disagree. The SARIF and Bencher outputs read them too.

use serde::{Deserialize, Serialize};

use crate::explore::report::ExploreReport;
use crate::explore::OracleKind;
use crate::report::class::Class;
use crate::report::verdict::Verdict;

/// One explored method's verdict and key figures.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MethodSummary {
    pub method: String,
    #[serde(rename = "type")]
    pub ty: String,
    pub oracle: OracleKind,
    pub verdict: Verdict,
    /// Reported as a finding (a bottleneck kept by the ranking filters).
    pub finding: bool,
    /// The measured class (`O(n^2)`), when the sweep fitted one.
    #[serde(default, with = "crate::report::class::label")]
    pub class: Option<Class>,
    /// The documented (or `--expect`ed) class.
    #[serde(default, with = "crate::report::class::label")]
    pub expected: Option<Class>,
    /// Programs the search ran.
    pub programs: u64,
    /// The largest input size of the points the verdict was fitted on.
    pub largest_size: Option<u64>,
    /// The deterministic cost at that size (the version under analysis for relative runs).
    pub cost_at_largest_size: Option<f64>,
    /// The log-log slope of cost against size (asymptotic runs): the fitted exponent.
    pub fitted_exponent: Option<f64>,
    /// Relative runs: cost new/old of the best program.
    pub cost_ratio: Option<f64>,
    /// The wall-clock ratio of the confirmation (new/old, or largest/smallest size).
    pub time_ratio: Option<f64>,
    /// The top hot line in the crate under test (`src/lib.rs:42`), when the run has one.
    pub hot_line: Option<SourceLine>,
    /// The run file, as a path under the hunt directory given on the command line.
    pub run_file: String,
}

/// A file and 1-based line.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SourceLine {
    pub file: String,
    pub line: u32,
}

/// A finite number, else `None` (JSON has no NaN).
fn finite(x: Option<f64>) -> Option<f64> {
    x.filter(|v| v.is_finite())
}

/// The row of one run. `finding`: whether the ranking reports it; `run_file`: its path as
/// shown to the user.
pub fn method_summary(r: &ExploreReport, finding: bool, run_file: String) -> MethodSummary {
    let largest = r.points.iter().copied().max_by_key(|p| p.0);
    MethodSummary {
        method: r.method.clone(),
        ty: r.ty.clone(),
        oracle: r.oracle,
        verdict: r.verdict,
        finding,
        class: r.empirical,
        expected: r.expected,
        programs: r.stats.programs,
        largest_size: largest.map(|p| p.0),
        cost_at_largest_size: finite(largest.map(|p| p.1)),
        fitted_exponent: finite(
            r.evidence
                .as_ref()
                .and_then(|v| v.evidence.slope)
                .map(|i| i.estimate),
        ),
        cost_ratio: finite(r.ratio),
        time_ratio: finite(r.time_ratio),
        hot_line: r.hot_lines.iter().find(|h| !h.library).map(|h| SourceLine {
            file: h.file.clone(),
            line: h.line,
        }),
        run_file,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn not_a_number_is_left_out() {
        assert_eq!(finite(Some(f64::NAN)), None);
        assert_eq!(finite(Some(2.0)), Some(2.0));
    }
}
