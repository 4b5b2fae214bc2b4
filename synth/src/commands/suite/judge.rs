//! Judging one run against its case: a pure function of the explore report (or its error)
//! and the case, shared by `perfsyn suite` and `perfsyn bench search`.
//!
//! What counts, exactly:
//! - Asymptotic positive case: `detected` when the verdict is `bottleneck` and the fitted
//!   (empirical) class equals the case's true class; `wrong-class` when a bottleneck is
//!   reported with any other class.
//! - Relative positive case: the two-sided verdict reports the largest regression and the
//!   largest improvement separately; `detected` when the side the case names passes t_rel,
//!   `wrong-direction` when only the other side does.
//! - Either kind: `inconclusive` when the oracle could not decide, `missed` when nothing was
//!   reported, `error` when the run itself failed.
//! - Negative control: `false-positive` when anything is reported, `correct-negative` when
//!   the verdict is a clean `no-bottleneck`; an inconclusive verdict or an error is neither.
//!
//! Only `detected` counts as a detection and only `correct-negative` as a correct negative.

use serde::{Deserialize, Serialize};

use super::case::{Case, CaseOracle, Expected};
use crate::explore::report::ExploreReport;
use crate::judge::oracle::relative::{self, Direction};
use crate::report::verdict::Verdict;

/// The outcome of one case with one strategy.
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    Hash,
    Serialize,
    Deserialize,
    strum::EnumString,
    strum::Display,
)]
#[serde(rename_all = "kebab-case")]
#[strum(serialize_all = "kebab-case")]
pub enum Outcome {
    Detected,
    WrongClass,
    WrongDirection,
    Missed,
    Inconclusive,
    Error,
    CorrectNegative,
    FalsePositive,
}

impl Outcome {
    /// The short mark of the table.
    pub fn mark(self) -> &'static str {
        match self {
            Outcome::Detected => "ok",
            Outcome::WrongClass => "CLASS",
            Outcome::WrongDirection => "DIR",
            Outcome::Missed => "MISS",
            Outcome::Inconclusive => "INC",
            Outcome::Error => "ERR",
            Outcome::CorrectNegative => "ok-",
            Outcome::FalsePositive => "FP",
        }
    }
}

/// The outcome of `case` given its run: the report, or the error message of a failed run.
pub fn outcome(case: &Case, run: Result<&ExploreReport, &str>, t_rel: f64) -> Outcome {
    let Ok(r) = run else {
        return Outcome::Error;
    };
    let reported = r.verdict == Verdict::Bottleneck;
    let undecided = r.verdict == Verdict::Inconclusive;
    match case.expected {
        Expected::None => match (reported, undecided) {
            (true, _) => Outcome::FalsePositive,
            (false, true) => Outcome::Inconclusive,
            (false, false) => Outcome::CorrectNegative,
        },
        _ if undecided => Outcome::Inconclusive,
        _ if !reported => Outcome::Missed,
        Expected::Class(want) => match r.empirical {
            Some(got) if got == want => Outcome::Detected,
            _ => Outcome::WrongClass,
        },
        Expected::Slower | Expected::Faster => {
            let (slower, faster) = sides_found(r, t_rel);
            relative_outcome(case.expected, slower, faster)
        }
    }
}

/// The outcome of a relative case (or control) whose run reported a regression (`slower`)
/// and an improvement (`faster`) passing t_rel, or not.
pub fn relative_outcome(expected: Expected, slower: bool, faster: bool) -> Outcome {
    let (want, other) = match expected {
        Expected::Slower => (slower, faster),
        Expected::Faster => (faster, slower),
        _ if slower || faster => return Outcome::FalsePositive,
        _ => return Outcome::CorrectNegative,
    };
    match (want, other) {
        (true, _) => Outcome::Detected,
        (false, true) => Outcome::WrongDirection,
        (false, false) => Outcome::Missed,
    }
}

/// Whether the run reported a regression and an improvement passing t_rel: from the
/// two-sided verdict when there is one, else from the best program's ratio.
fn sides_found(r: &ExploreReport, t_rel: f64) -> (bool, bool) {
    match &r.sides {
        Some(s) => (
            s.regression.as_ref().is_some_and(|x| x.passes),
            s.improvement.as_ref().is_some_and(|x| x.passes),
        ),
        None => {
            let ratio = r.ratio.unwrap_or(1.0);
            (
                relative::passes(ratio, t_rel, Direction::Slower),
                relative::passes(ratio, t_rel, Direction::Faster),
            )
        }
    }
}

/// Milliseconds until the search first ran a program passing t_rel on the side the case
/// names (relative; either side for a control), or ran the best program (asymptotic);
/// `None` unless detected or falsely reported.
pub fn time_to_expose(case: &Case, r: &ExploreReport, o: Outcome) -> Option<u64> {
    if !matches!(o, Outcome::Detected | Outcome::FalsePositive) {
        return None;
    }
    let (slower, faster) = (r.stats.expose_slower_ms, r.stats.expose_faster_ms);
    let first = match case.expected {
        Expected::Slower => slower,
        Expected::Faster => faster,
        _ => slower.into_iter().chain(faster).min(),
    };
    match case.oracle {
        CaseOracle::Relative => first,
        CaseOracle::Asymptotic => r.best.as_ref().and_then(|b| b.found_ms),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judge::oracle::relative::{Side, Sides};
    use crate::report::best::BestProgram;
    use crate::report::class::Class;

    fn case(oracle: &str, expected: &str) -> Case {
        serde_json::from_value(serde_json::json!({
            "id": "X", "method": "A::f", "oracle": oracle, "expected": expected, "source": "test"
        }))
        .unwrap()
    }

    fn report(verdict: &str, empirical: Option<&str>) -> ExploreReport {
        let mut r: ExploreReport = serde_json::from_value(serde_json::json!({
            "method": "A::f", "type": "A", "oracle": "asymptotic", "strategy": "astar",
            "seed": 1, "metric": "cost", "verdict": verdict, "reason": "",
            "expected": null, "empirical": null, "fit_error": null, "ratio": null,
            "best": null, "others": [], "points": [], "points_from": "path",
            "stats": serde_json::to_value(crate::search::Stats::default()).unwrap(),
            "tree": {"nodes": 1, "depth_histogram": [1], "learning_top": []}
        }))
        .unwrap();
        r.empirical = empirical.and_then(Class::parse);
        r
    }

    fn program(found_ms: u64) -> BestProgram {
        serde_json::from_value(serde_json::json!({
            "rust": "", "mutations": 1, "path": [], "input_size": 1, "cost": 1.0,
            "cost_ref": null, "score": 1.0, "program": serde_json::to_value(
                perfsyn_profiler_ipc::Program::default()).unwrap(),
            "found_ms": found_ms
        }))
        .unwrap()
    }

    fn side(ratio: f64, passes: bool, found_ms: u64) -> Option<Side<BestProgram>> {
        Some(Side {
            ratio,
            passes,
            time_ratio: None,
            time_significant: None,
            program: program(found_ms),
        })
    }

    fn relative_report(slower: Option<(f64, bool)>, faster: Option<(f64, bool)>) -> ExploreReport {
        let mut r = report("no-bottleneck", None);
        let sides = Sides {
            regression: slower.and_then(|(x, p)| side(x, p, 100)),
            improvement: faster.and_then(|(x, p)| side(x, p, 200)),
        };
        if sides.any_passes() {
            r.verdict = Verdict::Bottleneck;
        }
        r.stats.expose_slower_ms = Some(100);
        r.stats.expose_faster_ms = Some(200);
        r.sides = Some(sides);
        r
    }

    /// (case oracle, case expectation, verdict, empirical class, outcome).
    const ASYMPTOTIC: &[(&str, &str, Option<&str>, Outcome)] = &[
        ("O(n)", "bottleneck", Some("O(n)"), Outcome::Detected),
        ("O(n^2)", "bottleneck", Some("O(n^3)"), Outcome::WrongClass),
        ("O(n^2)", "bottleneck", Some("O(n)"), Outcome::WrongClass),
        ("O(n)", "bottleneck", None, Outcome::WrongClass),
        ("O(n)", "no-bottleneck", Some("O(1)"), Outcome::Missed),
        ("O(n)", "no-initial-program", None, Outcome::Missed),
        ("O(n)", "inconclusive", Some("O(n)"), Outcome::Inconclusive),
        ("none", "bottleneck", Some("O(n)"), Outcome::FalsePositive),
        (
            "none",
            "no-bottleneck",
            Some("O(n)"),
            Outcome::CorrectNegative,
        ),
        ("none", "inconclusive", None, Outcome::Inconclusive),
    ];

    #[test]
    fn asymptotic_cases_need_the_true_class() {
        for &(expected, verdict, empirical, want) in ASYMPTOTIC {
            let c = case("asymptotic", expected);
            let r = report(verdict, empirical);
            assert_eq!(
                outcome(&c, Ok(&r), 1.2),
                want,
                "{expected} {verdict} {empirical:?}"
            );
        }
    }

    type Sided = Option<(f64, bool)>;
    /// (case expectation, regression, improvement, outcome).
    const RELATIVE: &[(&str, Sided, Sided, Outcome)] = &[
        ("slower", Some((2.0, true)), None, Outcome::Detected),
        (
            "slower",
            Some((2.0, true)),
            Some((0.1, true)),
            Outcome::Detected,
        ),
        (
            "slower",
            Some((1.1, false)),
            Some((0.1, true)),
            Outcome::WrongDirection,
        ),
        ("slower", None, None, Outcome::Missed),
        (
            "faster",
            Some((2.0, true)),
            Some((0.9, false)),
            Outcome::WrongDirection,
        ),
        ("faster", None, Some((0.5, true)), Outcome::Detected),
        (
            "none",
            Some((1.1, false)),
            Some((0.9, false)),
            Outcome::CorrectNegative,
        ),
        ("none", None, Some((0.5, true)), Outcome::FalsePositive),
    ];

    #[test]
    fn relative_cases_need_the_named_side() {
        for &(expected, slower, faster, want) in RELATIVE {
            let c = case("relative", expected);
            let r = relative_report(slower, faster);
            assert_eq!(
                outcome(&c, Ok(&r), 1.2),
                want,
                "{expected} {slower:?} {faster:?}"
            );
        }
    }

    #[test]
    fn an_error_is_never_a_detection_or_a_correct_negative() {
        for expected in ["slower", "none"] {
            assert_eq!(
                outcome(&case("relative", expected), Err("worker died"), 1.2),
                Outcome::Error
            );
        }
    }

    #[test]
    fn time_to_expose_is_when_the_named_side_was_found() {
        let c = case("relative", "faster");
        let r = relative_report(Some((2.0, true)), Some((0.5, true)));
        let o = outcome(&c, Ok(&r), 1.2);
        assert_eq!(time_to_expose(&c, &r, o), Some(200));
        let c = case("relative", "slower");
        assert_eq!(time_to_expose(&c, &r, o), Some(100));
        let missed = relative_report(None, None);
        assert_eq!(time_to_expose(&c, &missed, Outcome::Missed), None);
    }
}
