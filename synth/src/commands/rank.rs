//! Ranking several methods' reports (section 3.2.8), so that a developer reading the results
//! of a suite or an overnight hunt inspects the most severe bottlenecks first.
//!
//! - Relative runs: a method is filtered out when its best program's cost ratio does not pass
//!   t_rel in either direction; the rest are ordered slower-first (the new version slower
//!   than the reference: a regression), then by the oracle score of the best program,
//!   highest first.
//! - Asymptotic runs: a method is filtered out when the fit of its best program has an error
//!   above t_err or fewer than t_size distinct sizes; the rest are ordered by empirical class,
//!   highest first, then by how far it exceeds the expected class, then by fit error.
//!
//! Reports without a best program (no initial program) are filtered out with that reason.

use serde::{Deserialize, Serialize};

use crate::explore::report::ExploreReport;
use crate::explore::OracleKind;
use crate::judge::oracle::asymptotic::Thresholds;
use crate::report::class::Class;

/// The filters of section 3.2.8.
#[derive(Clone, Copy, Debug, Serialize, Deserialize)]
pub struct RankConfig {
    /// t_rel: the smallest cost ratio (or inverse ratio) kept (default 1.2).
    pub t_rel: f64,
    /// t_err and t_size.
    pub thresholds: Thresholds,
}

impl Default for RankConfig {
    fn default() -> Self {
        RankConfig {
            t_rel: 1.2,
            thresholds: Thresholds::default(),
        }
    }
}

/// The ranking of a set of reports, as indices into the slice given to [`rank`].
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Ranking {
    /// Relative runs that pass t_rel, most severe first.
    pub relative: Vec<usize>,
    /// Asymptotic runs that pass t_err and t_size, highest empirical class first.
    pub asymptotic: Vec<usize>,
    /// Reports left out, with the reason.
    pub filtered: Vec<(usize, String)>,
}

/// Ranks `reports` as section 3.2.8 describes.
pub fn rank(reports: &[ExploreReport], cfg: &RankConfig) -> Ranking {
    let mut out = Ranking::default();
    for (i, r) in reports.iter().enumerate() {
        match filter_reason(r, cfg) {
            Some(reason) => out.filtered.push((i, reason)),
            None if r.oracle == OracleKind::Relative => out.relative.push(i),
            None => out.asymptotic.push(i),
        }
    }
    out.relative.sort_by(|&a, &b| {
        let (ra, rb) = (&reports[a], &reports[b]);
        slower(rb)
            .cmp(&slower(ra))
            .then(score(rb).total_cmp(&score(ra)))
            .then(ra.method.cmp(&rb.method))
    });
    out.asymptotic.sort_by(|&a, &b| {
        let (ra, rb) = (&reports[a], &reports[b]);
        class_rank(rb.empirical)
            .cmp(&class_rank(ra.empirical))
            .then(excess(rb).cmp(&excess(ra)))
            .then(
                ra.fit_error
                    .unwrap_or(f64::INFINITY)
                    .total_cmp(&rb.fit_error.unwrap_or(f64::INFINITY)),
            )
            .then(ra.method.cmp(&rb.method))
    });
    out
}

/// Why `r` is filtered out, or `None` if it is ranked.
pub fn filter_reason(r: &ExploreReport, cfg: &RankConfig) -> Option<String> {
    if r.best.is_none() {
        return Some(format!("no program ran ({})", r.verdict));
    }
    if r.oracle == OracleKind::Relative {
        let ratio = r.ratio?;
        let gap = if ratio >= 1.0 { ratio } else { 1.0 / ratio };
        if !gap.is_finite() {
            return Some("cost ratio not measurable (a cost of zero)".into());
        }
        return (gap < cfg.t_rel).then(|| {
            format!(
                "cost ratio {ratio:.3} within t_rel = {} of the reference",
                cfg.t_rel
            )
        });
    }
    let error = r.fit_error.unwrap_or(f64::INFINITY);
    if !error.is_finite() {
        return Some("no usable fit of cost against input size".into());
    }
    if error > cfg.thresholds.max_error {
        return Some(format!(
            "fit error {:.1}% above t_err = {:.0}%",
            error * 100.0,
            cfg.thresholds.max_error * 100.0
        ));
    }
    let sizes = distinct_sizes(r);
    if sizes < cfg.thresholds.min_points {
        return Some(format!(
            "{sizes} distinct sizes, fewer than t_size = {}",
            cfg.thresholds.min_points
        ));
    }
    None
}

fn slower(r: &ExploreReport) -> bool {
    r.ratio.is_some_and(|x| x > 1.0)
}

fn score(r: &ExploreReport) -> f64 {
    r.best.as_ref().map_or(f64::NEG_INFINITY, |b| b.score)
}

fn class_rank(class: Option<Class>) -> i32 {
    class
        .and_then(|c| Class::ALL.iter().position(|x| *x == c))
        .map_or(-1, |p| p as i32)
}

fn excess(r: &ExploreReport) -> i32 {
    match r.expected {
        Some(_) => class_rank(r.empirical) - class_rank(r.expected),
        None => 0,
    }
}

fn distinct_sizes(r: &ExploreReport) -> usize {
    let mut s: Vec<u64> = r.points.iter().map(|p| p.0).collect();
    s.sort_unstable();
    s.dedup();
    s.len()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::best::BestProgram;
    use perfsyn_profiler_ipc::Program;

    fn report(method: &str, oracle: &str) -> ExploreReport {
        serde_json::from_value(serde_json::json!({
            "method": method, "type": method, "oracle": oracle, "strategy": "astar",
            "seed": 1, "metric": "cost", "verdict": "bottleneck", "reason": "",
            "expected": null, "empirical": null, "fit_error": null, "ratio": null,
            "best": null, "others": [], "points": [], "points_from": "path",
            "stats": serde_json::to_value(crate::search::Stats::default()).unwrap(),
            "tree": {"nodes": 1, "depth_histogram": [1], "learning_top": []}
        }))
        .expect("a minimal report")
    }

    fn best(score: f64) -> Option<BestProgram> {
        Some(BestProgram {
            rust: String::new(),
            mutations: 1,
            path: Vec::new(),
            input_size: 10,
            cost: 1.0,
            cost_ref: None,
            metric_value: 1.0,
            found_ms: None,
            score,
            program: Program::default(),
            feedback: None,
            feedback_ref: None,
            statements: 0,
            shrunk_from: None,
        })
    }

    fn relative(method: &str, ratio: f64, score: f64) -> ExploreReport {
        let mut r = report(method, "relative");
        r.ratio = Some(ratio);
        r.best = best(score);
        r
    }

    fn asymptotic(method: &str, emp: &str, exp: &str, err: f64, sizes: u64) -> ExploreReport {
        let mut r = report(method, "asymptotic");
        r.empirical = Class::parse(emp);
        r.expected = Class::parse(exp);
        r.fit_error = Some(err);
        r.points = (1..=sizes).map(|n| (n * 100, n as f64)).collect();
        r.best = best(1.0);
        r
    }

    fn names(reports: &[ExploreReport], ids: &[usize]) -> Vec<String> {
        ids.iter().map(|i| reports[*i].method.clone()).collect()
    }

    #[test]
    fn relative_filters_by_t_rel_and_puts_regressions_first() {
        let reports = vec![
            relative("faster_big", 0.2, 900.0),
            relative("slower_small", 1.5, 50.0),
            relative("noise", 1.1, 5.0),
            relative("slower_big", 3.0, 400.0),
            relative("noise_faster", 0.9, 5.0),
        ];
        let r = rank(&reports, &RankConfig::default());
        assert_eq!(
            names(&reports, &r.relative),
            ["slower_big", "slower_small", "faster_big"]
        );
        let filtered: Vec<usize> = r.filtered.iter().map(|f| f.0).collect();
        assert_eq!(filtered, [2, 4]);
        assert!(r.filtered[0].1.contains("t_rel"));
    }

    #[test]
    fn asymptotic_filters_by_error_and_size_and_orders_by_class() {
        let reports = vec![
            asymptotic("linear", "O(n)", "O(1)", 0.01, 6),
            asymptotic("quadratic", "O(n^2)", "O(n)", 0.02, 6),
            asymptotic("noisy", "O(n^3)", "O(1)", 0.30, 6),
            asymptotic("few", "O(n^2)", "O(1)", 0.01, 3),
            asymptotic("linear_exact", "O(n)", "O(1)", 0.001, 8),
            asymptotic("within", "O(n)", "O(n)", 0.001, 8),
        ];
        let r = rank(&reports, &RankConfig::default());
        assert_eq!(
            names(&reports, &r.asymptotic),
            ["quadratic", "linear_exact", "linear", "within"]
        );
        let reasons: Vec<&str> = r.filtered.iter().map(|f| f.1.as_str()).collect();
        assert!(reasons[0].contains("t_err"), "{reasons:?}");
        assert!(reasons[1].contains("t_size"), "{reasons:?}");
    }

    #[test]
    fn unusable_fits_and_ratios_are_filtered_in_words_not_nan() {
        let mut fit = asymptotic("nan_fit", "O(n)", "O(1)", f64::NAN, 6);
        fit.fit_error = Some(f64::NAN);
        let mut none = asymptotic("no_fit", "O(n)", "O(1)", 0.0, 6);
        none.fit_error = None;
        let ratio = relative("nan_ratio", f64::NAN, 1.0);
        for r in [&fit, &none, &ratio] {
            let why = filter_reason(r, &RankConfig::default()).expect("filtered");
            assert!(
                !why.to_lowercase().contains("nan") && !why.contains("inf"),
                "{why}"
            );
        }
    }

    #[test]
    fn reports_without_a_program_are_filtered() {
        let reports = vec![report("nothing", "asymptotic")];
        let r = rank(&reports, &RankConfig::default());
        assert!(r.asymptotic.is_empty());
        assert!(r.filtered[0].1.contains("no program ran"));
    }
}
