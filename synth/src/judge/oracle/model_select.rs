//! A statistically guarded choice of complexity class for (size, cost) points.
//!
//! `fit::best_fit` picks the class with the smallest error, which one high point or a
//! lower-order term can move (a flat series with one point 30% high came out O(n^3)). This
//! module is the verdict's evidence instead:
//!
//! - every class is fitted as `a + b g(n)` and, where a lower-order term is usual, as
//!   `a + b g(n) + d h(n)` (n log n + 10n, n^2 + 10^4 n), by weighted least squares on
//!   *relative* residuals (costs span decades; an error of 10 at cost 100 matters, at 10^6
//!   not), made robust by Tukey-bisquare reweighting so that one spike gets no weight,
//!   started from both least squares and least absolute deviations (a plateau or two gross
//!   errors pull the least-squares start away from the fit the other points follow);
//! - every coefficient is non-negative (a cost is a fixed overhead plus work): a negative
//!   intercept let `b (n - n0)` pass for n log n, and n log n minus an offset for n^2;
//! - classes are compared by a robust BIC, `sum 2 rho(r / sigma) + p ln n` with Tukey's
//!   bounded rho and *one* noise scale sigma for all classes (Machado 1993; Ronchetti's
//!   robust AIC). A scale per class let a flexible class fit most points tightly and
//!   nearly ignore the rest; with a common scale each point's misfit costs the same in
//!   every class, and one point costs at most [`ONE_POINT_COST`]. The lowest class within
//!   [`SIMPLICITY_DELTA`] of the best is chosen, so a higher class needs real support;
//! - that scale is an upper confidence bound ([`SCALE_CONFIDENCE`](super::robust::SCALE_CONFIDENCE)), not a point estimate,
//!   so a flexible variant that lines up a few points by chance does not shrink it (nor
//!   does a variant that calls more than a quarter of the points gross errors); and a
//!   variant with a lower-order term counts for its class only when the class's own term
//!   is not dwarfed by the lower one at the largest size measured;
//! - no single size decides the class: when the full fit prefers the class by less than
//!   one point can be worth ([`ONE_POINT_COST`]), the choice is repeated with each size left
//!   out and the lowest answer is kept;
//! - the chosen class must agree with the log-log slope over the points its fit keeps: a
//!   class whose own slope on those sizes is far above the slope interval
//!   ([`MAX_FLATTENING`]) rests on a few of the largest sizes and is refused, and one whose
//!   own slope is below the slope's lower [`SLOPE_RAISE_CONFIDENCE`] bound cannot be the
//!   cost's class (an offset or a lower term only flattens a class) and is raised one class;
//! - a log-log slope with a Student-t 95% interval (over the points the chosen fit keeps)
//!   is reported, and a class above the expected one counts only when the expected class
//!   is worse by [`BOTTLENECK_DELTA`] in BIC *and* the slope interval excludes the expected
//!   class's slope;
//! - too few sizes, under [`MIN_DECADES`] of range (unless the range spans
//!   [`MIN_EXP_SPAN`] and the class is O(2^n)), more than a third of the points off
//!   the fit, or scatter above [`MAX_SCATTER`] give no class, with the reason in words.
//!
//! linregress is not used here: it always adds its own intercept and has no weights, and
//! these fits need both; the 2- and 3-column normal equations are solved directly, with
//! column scaling and a rank check.

use serde::{Deserialize, Serialize};
use statrs::distribution::{ContinuousCDF, StudentsT};

use super::fit::growth;
use super::robust::{
    dot, mad_scale, rho, robust_fit, robust_scale, scale_upper_bound, BISQUARE_C, SCALE_FLOOR,
};
use crate::report::class::Class;

/// Fewest distinct sizes a verdict needs.
pub const MIN_SIZES: usize = 4;
/// Narrowest size range (in decades, log10(max/min)) a verdict needs. Under one decade, n
/// and n log n (or n^2 + 10^4 n and n) cannot be told apart.
pub const MIN_DECADES: f64 = 0.95;
/// Largest robust relative scatter of the chosen fit (30%): above it, noise decides.
pub const MAX_SCATTER: f64 = 0.3;
/// BIC margin within which the lower class is preferred (2: "positive" evidence needed).
pub const SIMPLICITY_DELTA: f64 = 2.0;
/// BIC margin by which the expected class must be worse for a bottleneck (10: "very
/// strong" evidence on Kass and Raftery's scale).
pub const BOTTLENECK_DELTA: f64 = 10.0;
/// In a variant `a + b g(n) + d h(n)`, the most the lower-order term `d h` may be, as a
/// multiple of the class's term `b g`, at the largest size measured. A noisy O(log n)
/// series passed for O(n) as `a + b n + d log n` with a tiny `b`; a real log factor that is
/// still small beside the linear cost (5 n + 0.1 n log n up to n = 62080: 3.1 times) must
/// stay a finding.
pub const LOWER_TERM_MAX_RATIO: f64 = 4.0;
/// Largest size for which O(2^n) is a candidate (2^60 operations never finish).
pub const MAX_EXP_SIZE: f64 = 60.0;
/// Smallest additive span of sizes (max - min) on which a range under [`MIN_DECADES`] may
/// still be judged O(2^n): 2^10 is a thousandfold growth, more than any polynomial class
/// shows over sizes this small (n^3 from 2 to 12 is 216-fold), and 2^n grows by the same
/// factor over the same span at any size, so a ratio of sizes says nothing about it. Only
/// O(2^n) is claimed on such a range; any other class stays inconclusive.
pub const MIN_EXP_SPAN: f64 = 10.0;
/// The most one point can add to a class's criterion: `2 rho` at and beyond
/// [`BISQUARE_C`] standard deviations, `c^2 / 3`. A class preferred by less than this may
/// owe the preference to one point.
pub const ONE_POINT_COST: f64 = BISQUARE_C * BISQUARE_C / 3.0;

/// A slope estimate with its 95% confidence interval.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Interval {
    pub estimate: f64,
    pub low: f64,
    pub high: f64,
}

/// The evidence for a class choice.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Evidence {
    /// The chosen class; `None` when the evidence is short (see `reason`).
    pub class: Option<Class>,
    /// The next-best class by BIC.
    pub runner_up: Option<Class>,
    /// Why there is no class, in words.
    pub reason: Option<String>,
    /// Smallest and largest size used.
    pub min_size: f64,
    pub max_size: f64,
    /// log10(max/min) over positive sizes (0 when undefined).
    pub decades: f64,
    pub distinct_sizes: usize,
    /// Slope of ln(cost) against ln(size), with its 95% interval.
    pub slope: Option<Interval>,
    /// Robust relative scatter of the chosen class's fit (0.05 = 5%).
    pub scatter: Option<f64>,
    /// BIC of each class that could be fitted (lower is better).
    pub bic: Vec<(Class, f64)>,
    /// Sizes whose points got no weight in the chosen fit (spikes, outliers).
    pub outlier_sizes: Vec<f64>,
    /// Why the class was moved to agree with the log-log slope interval, in words
    /// ([`MAX_FLATTENING`], [`SLOPE_RAISE_CONFIDENCE`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub slope_note: Option<String>,
    /// The fitted base `c` of an exponential class's `c^n` (see [`EXP_BASES`]), when the
    /// chosen class is exponential.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub base: Option<f64>,
}

impl Evidence {
    /// The BIC of `c`, if it was fitted.
    pub fn bic_of(&self, c: Class) -> Option<f64> {
        self.bic.iter().find(|(k, _)| *k == c).map(|(_, b)| *b)
    }

    /// "sizes 100..10000 (2.0 decades), slope 1.02 [0.98, 1.06], runner-up O(n log n)".
    pub fn describe(&self) -> String {
        let mut s = format!(
            "sizes {}..{} ({:.1} decades, {} sizes)",
            self.min_size, self.max_size, self.decades, self.distinct_sizes
        );
        if let Some(i) = self.slope {
            s.push_str(&format!(
                ", log-log slope {:.2} [{:.2}, {:.2}]",
                i.estimate, i.low, i.high
            ));
        }
        if let Some(b) = self.base {
            s.push_str(&format!(", grows as {b:.2}^n"));
        }
        if let Some(r) = self.runner_up {
            s.push_str(&format!(", runner-up {r}"));
        }
        s
    }
}

/// The class selected for the points, weighed against an expected class: the fit's
/// statistical evidence, not the run's verdict (that is [`crate::report::verdict::Verdict`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Selection {
    pub evidence: Evidence,
    /// The class reported: the chosen one, or the expected one when a higher class was
    /// chosen without significance.
    pub class: Option<Class>,
    /// Chosen above the expected class, significantly (BIC and slope interval).
    pub above_expected: bool,
    /// Why a higher class was not significant, or why it was; in words.
    pub note: Option<String>,
}

/// Chooses a class for `points` (size, cost) and compares it with `expected`.
pub fn judge(points: &[(f64, f64)], expected: Option<Class>) -> Selection {
    let evidence = select(points);
    let Some(chosen) = evidence.class else {
        return Selection {
            class: None,
            above_expected: false,
            note: None,
            evidence,
        };
    };
    let Some(e) = expected.filter(|e| chosen > *e) else {
        return Selection {
            class: Some(chosen),
            above_expected: false,
            note: None,
            evidence,
        };
    };
    let gap = match (evidence.bic_of(e), evidence.bic_of(chosen)) {
        (Some(be), Some(bc)) => be - bc,
        (None, Some(_)) => f64::INFINITY,
        _ => 0.0,
    };
    let mid = (evidence.min_size.max(1.0) * evidence.max_size.max(1.0)).sqrt();
    let e_slope = class_slope(e, mid);
    let slope_excludes = evidence.slope.is_some_and(|i| i.low > e_slope);
    let step = if gap > BOTTLENECK_DELTA && slope_excludes {
        log_factor_is_a_step(&evidence, points, e, chosen)
    } else {
        None
    };
    let significant = gap > BOTTLENECK_DELTA && slope_excludes && step.is_none();
    let gap_txt = if gap.is_finite() {
        format!("{gap:.1}")
    } else {
        "unbounded".into()
    };
    let note = if let Some(step) = step {
        step
    } else if significant {
        format!(
            "{e} fits worse by {gap_txt} in BIC (threshold {BOTTLENECK_DELTA}) and the slope interval excludes {e}'s slope {e_slope:.2}"
        )
    } else {
        format!(
            "{chosen} fits best but not significantly better than the expected {e} (BIC difference {gap_txt}, threshold {BOTTLENECK_DELTA}; {e}'s slope {e_slope:.2} {} the slope interval)",
            if slope_excludes { "is below" } else { "is within" }
        )
    };
    Selection {
        class: Some(if significant { chosen } else { e }),
        above_expected: significant,
        note: Some(note),
        evidence,
    }
}

/// Whether `chosen` is `expected` times a log factor that a change of input shape along the
/// sweep can fake: O(n log n) over O(n).
///
/// Why not O(log n) over O(1) too: on `bench fit`'s generated series (tuning seeds 1-5) the
/// step test took 1 to 2 true O(log n) series per seed out of detection (plateaus and spikes
/// make steps in a flat-plus-log series), and a sweep's shape change has only been seen to
/// fake a log factor over a linear cost.
fn log_factor_above(expected: Class, chosen: Class) -> bool {
    matches!((expected, chosen), (Class::Linear, Class::Linearithmic))
}

/// When `chosen` is `expected` times a log factor, whether a linear cost whose cost per
/// element *steps* between two values explains the points better than the log factor does
/// (by [`SIMPLICITY_DELTA`] in BIC); then the claim is not established and the reason is
/// returned in words.
///
/// Why: a log factor makes `cost / n` keep rising, by the same amount per decade. A sweep
/// can change the input's make-up with its size instead: `Vec::dedup` costs 2 edges per
/// element before the first duplicate and 3 after it, and a sweep that moved the first
/// duplicate made `cost / n` step from 2.06 to 3.0 (n log n won the BIC; the log-log slope
/// interval excluded 1). The step has one parameter more than the log model, its break
/// point, charged in the BIC.
///
/// A make-up that shifts gradually (`vec![k; i]` appended per loop index beside distinct
/// keys: `a f` and `b f^2` elements at sweep factor f) made `cost / n` rise along an
/// S-shaped path that no step fits; the sweep now scales each part of the input alike
/// (`sweep.rs`), which removes it. This test is still needed for what the sweep cannot see
/// in sizes: a loop that only moves positions (`rotate_right(i % len)` 16 times, `Vec::dedup`
/// seed 5 at 300 programs) moves the first duplicate, and without this test that sweep is
/// judged O(n log n). On `bench fit` (seeds 1-5, 42, 43) it changes no verdict.
fn log_factor_is_a_step(
    evidence: &Evidence,
    points: &[(f64, f64)],
    expected: Class,
    chosen: Class,
) -> Option<String> {
    if !log_factor_above(expected, chosen) {
        return None;
    }
    let pts: Vec<(f64, f64)> = points
        .iter()
        .copied()
        .filter(|p| !evidence.outlier_sizes.contains(&p.0))
        .collect();
    let mut sizes: Vec<f64> = pts.iter().map(|p| p.0).collect();
    sizes.sort_by(f64::total_cmp);
    sizes.dedup();
    if sizes.len() < 2 * MIN_STEP_SIDE {
        return None;
    }
    let g = |x: f64| expected.g(x);
    let log_cols = |x: f64| vec![1.0, chosen.g(x), g(x)];
    let (_, log_r) = robust_fit(&pts, &log_cols)?;
    // (sse, residuals, description) of the best alternative.
    let mut best: Option<(f64, Vec<f64>, String)> = None;
    let mut consider = |r: Vec<f64>, what: String| {
        let sse: f64 = r.iter().map(|x| x * x).sum();
        if best.as_ref().is_none_or(|b| sse < b.0) {
            best = Some((sse, r, what));
        }
    };
    for w in sizes.windows(2).skip(MIN_STEP_SIDE - 1) {
        let at = w[1];
        if sizes.iter().filter(|s| **s >= at).count() < MIN_STEP_SIDE {
            break;
        }
        let cols = |x: f64| {
            let up = if x >= at { 1.0 } else { 0.0 };
            vec![1.0, g(x) * (1.0 - up), g(x) * up]
        };
        if let Some((beta, r)) = robust_fit(&pts, &cols) {
            consider(
                r,
                format!("steps from {:.3} to {:.3} at size {at}", beta[1], beta[2]),
            );
        }
    }
    let (_, alt_r, what) = best?;
    let n = pts.len() as f64;
    let p_log = 3.0;
    // Three coefficients and the break point of the step.
    let p_alt = 4.0;
    let sigma = [(&log_r, p_log), (&alt_r, p_alt)]
        .iter()
        .map(|(r, p)| mad_scale(r) * (n / (n - p).max(1.0)).sqrt())
        .fold(f64::INFINITY, f64::min)
        .max(SCALE_FLOOR);
    let bic = |r: &[f64], p: f64| r.iter().map(|x| 2.0 * rho(x / sigma)).sum::<f64>() + p * n.ln();
    let (b_log, b_alt) = (bic(&log_r, p_log), bic(&alt_r, p_alt));
    (b_alt + SIMPLICITY_DELTA <= b_log).then(|| {
        format!(
            "{chosen} fits better than the expected {expected}, but no log factor is established: the cost per unit of size {what}, which explains the points better (BIC {b_alt:.1} against {b_log:.1} for {chosen})"
        )
    })
}

/// Fewest sizes on each side of a step in [`log_factor_is_a_step`].
const MIN_STEP_SIDE: usize = 2;

/// The d ln g / d ln n of a class at size `n`: what its log-log slope looks like there.
pub fn class_slope(c: Class, n: f64) -> f64 {
    let l = (n + 1.0).ln();
    match c {
        Class::Constant => 0.0,
        Class::Log => n / ((n + 1.0) * l),
        Class::Linear => 1.0,
        Class::Linearithmic => 1.0 + n / ((n + 1.0) * l),
        Class::Quadratic => 2.0,
        Class::Cubic => 3.0,
        Class::Exponential => n * std::f64::consts::LN_2,
    }
}

/// Chooses a class for `points` with the guards of this module.
pub fn select(points: &[(f64, f64)]) -> Evidence {
    let pts: Vec<(f64, f64)> = points
        .iter()
        .copied()
        .filter(|(n, c)| n.is_finite() && c.is_finite() && *n >= 0.0 && *c >= 0.0)
        .collect();
    let mut sizes: Vec<f64> = pts.iter().map(|p| p.0).collect();
    sizes.sort_by(f64::total_cmp);
    sizes.dedup();
    let pos: Vec<f64> = sizes.iter().copied().filter(|n| *n > 0.0).collect();
    let (min_size, max_size) = (
        sizes.first().copied().unwrap_or(0.0),
        sizes.last().copied().unwrap_or(0.0),
    );
    let decades = match (pos.first(), pos.last()) {
        (Some(a), Some(b)) => (b / a).log10(),
        _ => 0.0,
    };
    let mut ev = Evidence {
        class: None,
        runner_up: None,
        reason: None,
        min_size,
        max_size,
        decades,
        distinct_sizes: sizes.len(),
        slope: log_log_slope(&pts),
        scatter: None,
        bic: Vec::new(),
        outlier_sizes: Vec::new(),
        slope_note: None,
        base: None,
    };
    if pts.len() != points.len() {
        ev.reason = Some("some points are not finite non-negative numbers".into());
        return ev;
    }
    if sizes.len() < MIN_SIZES {
        ev.reason = Some(format!(
            "only {} distinct sizes; a class needs at least {MIN_SIZES}",
            sizes.len()
        ));
        return ev;
    }
    let narrow = format!(
        "the sizes span only {min_size}..{max_size} ({decades:.2} decades); a class needs at least one decade"
    );
    // Exponential growth shows over an additive span of sizes, whatever their ratio.
    let exp_span = max_size <= MAX_EXP_SIZE && max_size - min_size >= MIN_EXP_SPAN;
    if decades < MIN_DECADES && !exp_span {
        ev.reason = Some(narrow);
        return ev;
    }
    if pts.iter().all(|p| p.1 == 0.0) {
        ev.class = Some(Class::Constant);
        ev.scatter = Some(0.0);
        return ev;
    }
    let variants = fit_variants(&pts);
    let full = score(&pts, &variants, None);
    if full.is_empty() {
        ev.reason = Some("no class could be fitted (degenerate points)".into());
        return ev;
    }
    let full_pick = pick(&full);
    let mut chosen = full_pick;
    // No single size decides: leave each size out and keep the lowest choice, unless the
    // full fit prefers its class over that choice by more than one point can be worth.
    if sizes.len() > MIN_SIZES {
        let bic = |c: Class| full.iter().find(|f| f.class == c).map(|f| f.bic);
        for s in &sizes {
            let rest: Vec<(f64, f64)> = pts.iter().copied().filter(|p| p.0 != *s).collect();
            let fits = fit_classes(&rest);
            if fits.is_empty() {
                continue;
            }
            let sub = pick(&fits);
            let gap = match (bic(sub), bic(full_pick)) {
                (Some(a), Some(b)) => a - b,
                _ => f64::INFINITY,
            };
            if gap < ONE_POINT_COST {
                chosen = chosen.min(sub);
            }
        }
    }
    // A subset may choose a class the full set could not fit (a positive coefficient
    // fails): fall back to the highest fitted class not above it, else the lowest fitted.
    let chosen_fit = full
        .iter()
        .filter(|f| f.class <= chosen)
        .max_by_key(|f| f.class)
        .or_else(|| full.iter().min_by_key(|f| f.class))
        .expect("non-empty");
    ev.bic = full.iter().map(|f| (f.class, f.bic)).collect();
    // The slope over the points the chosen fit keeps: one spike must not widen the
    // interval over 0 (and hide a real O(log n)) or tilt it.
    let (chosen_fit, slope, note) = agree_with_slope(&pts, &full, chosen_fit);
    let chosen = chosen_fit.class;
    ev.slope = slope;
    ev.slope_note = note;
    ev.runner_up = score(&pts, &variants, Some(chosen))
        .iter()
        .min_by(|a, b| a.bic.total_cmp(&b.bic))
        .map(|f| f.class);
    ev.scatter = Some(chosen_fit.scale);
    ev.base = chosen_fit.base;
    ev.outlier_sizes = chosen_fit.zero_weight.clone();
    ev.outlier_sizes.dedup();
    if chosen_fit.zero_weight.len() * 3 > pts.len() {
        ev.reason = Some(format!(
            "{} of {} points do not follow the best fit ({chosen}): the series has no single class",
            chosen_fit.zero_weight.len(),
            pts.len()
        ));
        return ev;
    }
    if chosen_fit.scale > MAX_SCATTER {
        ev.reason = Some(format!(
            "the cost scatters by {:.0}% around the best fit ({chosen}); at most {:.0}% is judged",
            chosen_fit.scale * 100.0,
            MAX_SCATTER * 100.0
        ));
        return ev;
    }
    if decades < MIN_DECADES && chosen != Class::Exponential {
        ev.reason = Some(narrow);
        return ev;
    }
    // A log-log slope interval that contains 0 is consistent with a flat cost: no growth
    // class is claimed on it.
    if chosen > Class::Constant && ev.slope.is_some_and(|i| i.low <= 0.0) {
        ev.runner_up = Some(chosen);
        ev.class = Some(Class::Constant);
        return ev;
    }
    ev.class = Some(chosen);
    ev
}

/// The most a log-log slope may sit below the slope of the chosen class itself on the same
/// sizes (as a factor on the interval's upper end). An overhead `a` flattens `a + b g(n)`,
/// so a measured slope under the class's own is normal; but when the class's own slope is
/// more than this many times the whole interval, its term is a small share of the cost at
/// most sizes and its growth rests on a few of the largest. A step series (27 at small
/// sizes, 32, then 58 at the largest: rpds `Vector::drop_last_mut`) came out O(n^2), and
/// O(log n) series with an offset came out O(n). On `bench fit` (tuning seeds 1-8 and
/// 100-119, 9800 series) series judged right had their class's own slope at most 5.3 times
/// the interval's upper end; with 5 (and each size left out, [`lowest_high`]) the check
/// alone turns 10 of 43 false bottlenecks into 9 right answers and one class below, and
/// one right answer into a class below.
pub const MAX_FLATTENING: f64 = 5.0;
/// One-sided confidence with which the log-log slope must exceed the chosen class's own
/// slope on the same sizes for the next class up to be taken instead (99.5%). On the same
/// 9800 series this alone turns 22 misses (18 a class below, 4 inconclusive) into right
/// answers, one right answer into a false bottleneck and one into inconclusive; at 99%,
/// 14 more right answers cost 7 more false bottlenecks.
pub const SLOPE_RAISE_CONFIDENCE: f64 = 0.995;
/// The most BIC the next class up may lose against the chosen one for the slope to raise
/// the class to it ([`agree_with_slope`]): [`BOTTLENECK_DELTA`], the margin that counts as
/// very strong evidence everywhere else. The raise argues that no cost `a + b g(n) + d h(n)`
/// of the chosen class grows as fast as the slope; a real cost is not always of that form.
/// priority-queue's `DoublePriorityQueue::into_ascending_sorted_vec` (a heap sort) grew 8%
/// faster than n log n over 312..16385 (slope 1.15 [1.14, 1.16], n log n's own 1.14) and was
/// called O(n^2), whose own slope is 2.0 and whose fit was worse by 39 in BIC. The slope
/// sits next to the chosen class and far from the next one: the chosen class stays, named
/// as growing a little faster. On `bench fit`'s tuning seeds (1-8, 100-119, 9800 series) the
/// guard changes one answer, a miss made right; a rule on the slope's distance to both
/// classes' own slopes instead broke the raise's own tuning cases.
pub const RAISE_MAX_BIC_LOSS: f64 = BOTTLENECK_DELTA;

/// The log-log slope that `c`'s own growth function shows over `sizes`: the most any cost
/// `a + b g(n) + d h(n)` (non-negative coefficients, `h` growing no faster than `g`) can
/// show there, since its local slope is `g`'s times a share under 1 and the least-squares
/// slope is a positive average of local slopes.
fn own_slope(c: Class, sizes: &[f64]) -> f64 {
    if c == Class::Constant {
        return 0.0;
    }
    let pts: Vec<(f64, f64)> = sizes.iter().map(|&n| (n, c.g(n))).collect();
    log_log_fit(&pts).map_or(0.0, |f| f.slope)
}

/// Moves the chosen class to agree with the log-log slope over the points its fit keeps,
/// and returns the fit, that slope's interval, and why it moved (in words).
///
/// - Down, while the class's own slope is more than [`MAX_FLATTENING`] times the interval's
///   upper end: to the highest lower class that was fitted.
/// - Then up one class, when the slope's lower [`SLOPE_RAISE_CONFIDENCE`] bound is above
///   the class's own slope (no cost of the class can grow that fast, see [`own_slope`]) and
///   the next class's own slope is not below that bound. The criterion's simplicity margin
///   and its leave-one-out guard keep a class whose log factor is small beside the noise
///   (n log n over a decade with 12% noise) at the lower class; the slope, which averages
///   over every point, shows it. Not when the next class fits worse by more than
///   [`RAISE_MAX_BIC_LOSS`]: the cost grows a little faster than the chosen class, and the
///   note says so.
fn agree_with_slope<'a>(
    pts: &[(f64, f64)],
    full: &'a [ClassFit],
    start: &'a ClassFit,
) -> (&'a ClassFit, Option<Interval>, Option<String>) {
    let kept_of = |f: &ClassFit| -> Vec<(f64, f64)> {
        pts.iter()
            .copied()
            .filter(|p| !f.zero_weight.contains(&p.0))
            .collect()
    };
    let sizes_of = |k: &[(f64, f64)]| -> Vec<f64> { k.iter().map(|p| p.0).collect() };
    let mut fit = start;
    let mut kept = kept_of(fit);
    let mut slope = log_log_slope(&kept);
    let mut refused: Option<(Class, Interval, f64)> = None;
    while let Some(i) = slope {
        let own = own_slope(fit.class, &sizes_of(&kept));
        if fit.class == Class::Constant || own <= MAX_FLATTENING * lowest_high(&kept).max(0.0) {
            break;
        }
        let Some(lower) = full
            .iter()
            .filter(|f| f.class < fit.class)
            .max_by_key(|f| f.class)
        else {
            break;
        };
        // The first class refused and its evidence; the class judged is the last one.
        refused.get_or_insert((fit.class, i, own));
        fit = lower;
        kept = kept_of(fit);
        slope = log_log_slope(&kept);
    }
    let note = refused.map(|(class, i, own)| {
        format!(
            "{class} fits best, but the log-log slope interval [{:.2}, {:.2}] is far below its own slope {own:.2} on these sizes (more than {MAX_FLATTENING} times the upper end, with any one size left out): its growth would rest on a few of the largest sizes; judged {} instead",
            i.low, i.high, fit.class
        )
    });
    let Some(lf) = log_log_fit(&kept) else {
        return (fit, slope, note);
    };
    let Ok(t) = StudentsT::new(0.0, 1.0, lf.df) else {
        return (fit, slope, note);
    };
    let low = lf.slope - t.inverse_cdf(SLOPE_RAISE_CONFIDENCE) * lf.se;
    let sizes = sizes_of(&kept);
    let own = own_slope(fit.class, &sizes);
    if own >= low {
        return (fit, slope, note);
    }
    let higher = full
        .iter()
        .filter(|f| f.class > fit.class && own_slope(f.class, &sizes) >= low)
        .min_by_key(|f| f.class);
    let next = Class::ALL.iter().find(|c| **c > fit.class);
    match higher {
        Some(h) if Some(&h.class) == next && h.bic > fit.bic + RAISE_MAX_BIC_LOSS => {
            let kept_class = format!(
                "the log-log slope is above {}'s own slope {own:.2} on these sizes (lower {:.1}% bound {low:.2}), but {} fits far worse (BIC {:+.1}): judged {}, growing a little faster than it",
                fit.class,
                SLOPE_RAISE_CONFIDENCE * 100.0,
                h.class,
                h.bic - fit.bic,
                fit.class
            );
            let note = joined(note, kept_class);
            (fit, slope, Some(note))
        }
        Some(h) if Some(&h.class) == next => {
            let raised = format!(
                "{} fits best by the criterion, but the log-log slope is above its own slope {own:.2} on these sizes (lower {:.1}% bound {low:.2}): judged {}",
                fit.class,
                SLOPE_RAISE_CONFIDENCE * 100.0,
                h.class
            );
            let note = joined(note, raised);
            let kept = kept_of(h);
            (h, log_log_slope(&kept).or(slope), Some(note))
        }
        _ => (fit, slope, note),
    }
}

/// `extra` after the note already given, if any.
fn joined(note: Option<String>, extra: String) -> String {
    match note {
        Some(n) => format!("{n}; {extra}"),
        None => extra,
    }
}

/// The upper end of the log-log slope interval over `pts`, lowest over the full set and
/// each size left out (when more than [`MIN_SIZES`] remain): no single size may be what
/// makes a slope steep enough for a class ([`agree_with_slope`]). A step series whose
/// largest size alone jumps (27, .., 32, 32, 58) kept O(n log n) on its slope interval
/// [0.03, 0.28]; without that size the interval is about half as wide.
fn lowest_high(pts: &[(f64, f64)]) -> f64 {
    let mut sizes: Vec<f64> = pts.iter().map(|p| p.0).collect();
    sizes.sort_by(f64::total_cmp);
    sizes.dedup();
    let mut high = log_log_slope(pts).map_or(f64::INFINITY, |i| i.high);
    if sizes.len() > MIN_SIZES {
        for s in &sizes {
            let rest: Vec<(f64, f64)> = pts.iter().copied().filter(|p| p.0 != *s).collect();
            if let Some(i) = log_log_slope(&rest) {
                high = high.min(i.high);
            }
        }
    }
    high
}

/// One class's best robust fit.
#[derive(Clone, Debug)]
struct ClassFit {
    class: Class,
    bic: f64,
    scale: f64,
    zero_weight: Vec<f64>,
    /// The fitted base of an exponential class.
    base: Option<f64>,
}

/// The lowest class within [`SIMPLICITY_DELTA`] of the best BIC.
fn pick(fits: &[ClassFit]) -> Class {
    let best = fits.iter().map(|f| f.bic).fold(f64::INFINITY, f64::min);
    fits.iter()
        .filter(|f| f.bic <= best + SIMPLICITY_DELTA)
        .map(|f| f.class)
        .min()
        .expect("non-empty")
}

/// The lower-order term usually found beside each class's leading term.
fn lower_term(c: Class) -> Option<Class> {
    match c {
        Class::Constant | Class::Log => None,
        Class::Linear => Some(Class::Log),
        Class::Linearithmic | Class::Quadratic => Some(Class::Linear),
        Class::Cubic => Some(Class::Quadratic),
        Class::Exponential => Some(Class::Cubic),
    }
}

/// One fitted variant of a class (with or without its lower-order term).
struct Variant {
    class: Class,
    /// Number of coefficients (an exponential's base among them).
    p: usize,
    /// Relative residuals.
    r: Vec<f64>,
    /// The fitted base of an exponential class.
    base: Option<f64>,
}

/// Bases an exponential class `c^n` is fitted with, lowest first: the growth function is
/// `c^n` with the `c` that fits best, charged as one more coefficient in the criterion.
///
/// Why: a fixed 2^n fitted naive Fibonacci recursion (1.618^n, a planted `fib` documented
/// O(n)) with 49% scatter, past [`MAX_SCATTER`], so the blowup was inconclusive; a
/// backtracking search or a recursion with three calls grows as yet another base. The grid
/// runs from 1.25 (below it, c^n over the at most 60 sizes it is a candidate on is close to
/// a polynomial) to 4, each step 2.5% above the last, then finer around the best.
pub const EXP_BASES: (f64, f64, f64) = (1.25, 4.0, 1.025);

/// The relative residual past which a point counts no more against a base (a spike).
const EXP_BASE_CAP: f64 = 0.5;

/// Fits `a + b c^n` (and, with `low`, `+ d low(n)`) over the bases of [`EXP_BASES`]; the
/// coefficients and residuals of the base whose fit scatters least, with that base.
fn fit_exponential(pts: &[(f64, f64)], low: Option<Class>) -> Option<(Vec<f64>, Vec<f64>, f64)> {
    let fit = |base: f64| {
        let cols = |x: f64| -> Vec<f64> {
            let mut v = vec![1.0, growth(Class::Exponential, Some(base), x)];
            if let Some(l) = low {
                v.push(l.g(x));
            }
            v
        };
        let (beta, r) = robust_fit(pts, &cols)?;
        let valid = beta[1] > 0.0 && pts.iter().all(|(x, _)| dot(&beta, &cols(*x)) > 0.0);
        valid.then_some((beta, r, base))
    };
    // The base is chosen by the squared relative residuals, each capped at
    // [`EXP_BASE_CAP`]: a robust scale alone let a base line up half of the points and call
    // the rest outliers.
    let misfit = |r: &[f64]| -> f64 {
        r.iter()
            .map(|x| (x * x).min(EXP_BASE_CAP * EXP_BASE_CAP))
            .sum()
    };
    let best =
        |a: Option<(Vec<f64>, Vec<f64>, f64)>, b: Option<(Vec<f64>, Vec<f64>, f64)>| match (a, b) {
            (Some(a), Some(b)) => Some(if misfit(&b.1) < misfit(&a.1) { b } else { a }),
            (a, b) => a.or(b),
        };
    let (lo, hi, step) = EXP_BASES;
    let mut coarse = None;
    let mut base = lo;
    while base <= hi {
        coarse = best(coarse, fit(base));
        base *= step;
    }
    let around = coarse.as_ref()?.2;
    let mut fine = coarse;
    for k in -4..=4 {
        let b = around * step.powf(f64::from(k) / 5.0);
        if (lo..=hi).contains(&b) && k != 0 {
            fine = best(fine, fit(b));
        }
    }
    fine
}

/// Every class (each with and without its lower-order term) fitted robustly, then scored by
/// the robust BIC against one noise scale: the smallest upper confidence bound on the scale
/// of any variant ([`scale_upper_bound`]; the most flexible model's noise, as in Ronchetti's
/// criterion). A variant whose lower-order term dwarfs its class's term at the largest size
/// ([`LOWER_TERM_MAX_RATIO`]) is not the class: it is the lower class with a trace of the
/// higher one.
fn fit_classes(pts: &[(f64, f64)]) -> Vec<ClassFit> {
    score(pts, &fit_variants(pts), None)
}

/// Every class's variants (each with and without its lower-order term) fitted robustly,
/// before scoring ([`fit_classes`]).
fn fit_variants(pts: &[(f64, f64)]) -> Vec<Variant> {
    let max_size = pts.iter().map(|p| p.0).fold(0.0, f64::max);
    let mut variants: Vec<Variant> = Vec::new();
    for class in Class::ALL {
        if class == Class::Exponential && max_size > MAX_EXP_SIZE {
            continue;
        }
        for low in [None, lower_term(class)] {
            if class == Class::Exponential {
                // The coefficients and the base.
                if 4 + usize::from(low.is_some()) >= pts.len() {
                    continue;
                }
                let Some((beta, r, base)) = fit_exponential(pts, low) else {
                    continue;
                };
                if low.is_some_and(|l| {
                    beta[2] * l.g(max_size)
                        > LOWER_TERM_MAX_RATIO
                            * beta[1]
                            * growth(Class::Exponential, Some(base), max_size)
                }) {
                    continue;
                }
                let p = beta.len() + 1;
                variants.push(Variant {
                    class,
                    p,
                    r,
                    base: Some(base),
                });
                continue;
            }
            let cols = |x: f64| -> Vec<f64> {
                let mut v = vec![1.0];
                if class != Class::Constant {
                    v.push(class.g(x));
                }
                if let Some(l) = low {
                    v.push(l.g(x));
                }
                v
            };
            let p = cols(1.0).len();
            if p + 1 >= pts.len() {
                continue;
            }
            let Some((beta, r)) = robust_fit(pts, &cols) else {
                continue;
            };
            if class != Class::Constant && beta[1] <= 0.0 {
                continue;
            }
            if pts.iter().any(|(x, _)| dot(&beta, &cols(*x)) <= 0.0) {
                continue;
            }
            // The class must show where the cost was measured: at the largest size its
            // term is not dwarfed by the lower-order one.
            if low.is_some_and(|l| {
                beta[2] * l.g(max_size) > LOWER_TERM_MAX_RATIO * beta[1] * class.g(max_size)
            }) {
                continue;
            }
            variants.push(Variant {
                class,
                p,
                r,
                base: None,
            });
        }
    }
    variants
}

/// The robust BIC of each class's best variant against one noise scale, the smallest upper
/// bound of any variant's scale (see [`fit_classes`]); the variants of `without` take no
/// part, not even in the scale.
///
/// Why `without`: the runner-up is the class the criterion would choose if the chosen one
/// were not there. Ranked against the chosen class's own scale instead, a clean series
/// (1% scale floor) put every other class's points beyond the bisquare's reach, each at
/// [`ONE_POINT_COST`], so the criterion only counted coefficients and O(1), with the
/// fewest, came second: `fit` named O(1) the runner-up of a clean n^2 series.
fn score(pts: &[(f64, f64)], all: &[Variant], without: Option<Class>) -> Vec<ClassFit> {
    let n = pts.len() as f64;
    let variants: Vec<&Variant> = all.iter().filter(|v| Some(v.class) != without).collect();
    let mut sigma = variants
        .iter()
        .map(|v| scale_upper_bound(&v.r, v.p))
        .fold(f64::INFINITY, f64::min);
    if !sigma.is_finite() {
        sigma = variants
            .iter()
            .map(|v| mad_scale(&v.r))
            .fold(f64::INFINITY, f64::min);
    }
    let sigma = sigma.max(SCALE_FLOOR);
    let mut out: Vec<ClassFit> = Vec::new();
    for v in variants {
        let deviance: f64 = v.r.iter().map(|x| 2.0 * rho(x / sigma)).sum();
        let bic = deviance + v.p as f64 * n.ln();
        if out.iter().any(|f| f.class == v.class && f.bic <= bic) {
            continue;
        }
        let zero_weight = pts
            .iter()
            .zip(&v.r)
            .filter(|(_, r)| (*r / sigma).abs() >= BISQUARE_C)
            .map(|(p, _)| p.0)
            .collect();
        let fit = ClassFit {
            class: v.class,
            bic,
            scale: robust_scale(&v.r),
            zero_weight,
            base: v.base,
        };
        match out.iter_mut().find(|f| f.class == v.class) {
            Some(f) => *f = fit,
            None => out.push(fit),
        }
    }
    out
}

/// An OLS slope of ln(cost) on ln(size) with its standard error and degrees of freedom.
struct LogLogFit {
    slope: f64,
    se: f64,
    df: f64,
}

/// OLS slope of ln(cost) on ln(size) over positive points, with a Student-t 95% interval.
fn log_log_slope(pts: &[(f64, f64)]) -> Option<Interval> {
    let f = log_log_fit(pts)?;
    let t = StudentsT::new(0.0, 1.0, f.df).ok()?.inverse_cdf(0.975);
    let half = t * f.se;
    (f.slope.is_finite() && half.is_finite()).then_some(Interval {
        estimate: f.slope,
        low: f.slope - half,
        high: f.slope + half,
    })
}

/// The OLS fit behind [`log_log_slope`]; `None` under 3 positive points or one size.
fn log_log_fit(pts: &[(f64, f64)]) -> Option<LogLogFit> {
    let lp: Vec<(f64, f64)> = pts
        .iter()
        .filter(|(n, c)| *n > 0.0 && *c > 0.0)
        .map(|(n, c)| (n.ln(), c.ln()))
        .collect();
    let m = lp.len();
    if m < 3 {
        return None;
    }
    let mx = lp.iter().map(|p| p.0).sum::<f64>() / m as f64;
    let my = lp.iter().map(|p| p.1).sum::<f64>() / m as f64;
    let sxx: f64 = lp.iter().map(|p| (p.0 - mx).powi(2)).sum();
    if sxx <= 1e-12 {
        return None;
    }
    let sxy: f64 = lp.iter().map(|p| (p.0 - mx) * (p.1 - my)).sum();
    let b = sxy / sxx;
    let a = my - b * mx;
    let sse: f64 = lp.iter().map(|p| (p.1 - a - b * p.0).powi(2)).sum();
    let se = (sse / (m - 2) as f64 / sxx).sqrt();
    (b.is_finite() && se.is_finite()).then_some(LogLogFit {
        slope: b,
        se,
        df: (m - 2) as f64,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn series(sizes: &[f64], f: impl Fn(f64) -> f64) -> Vec<(f64, f64)> {
        sizes.iter().map(|&n| (n, f(n))).collect()
    }

    fn geo(lo: f64, hi: f64, k: usize) -> Vec<f64> {
        (0..k)
            .map(|i| (lo * (hi / lo).powf(i as f64 / (k - 1) as f64)).round())
            .collect()
    }

    /// Deterministic multiplicative noise of about +-`amp`.
    fn wobble(i: usize, amp: f64) -> f64 {
        1.0 + amp * (((i * 7919 + 13) % 17) as f64 / 8.0 - 1.0)
    }

    #[test]
    fn flat_series_with_one_point_30_percent_high_is_constant() {
        let sizes = geo(100.0, 10_000.0, 8);
        let mut pts = series(&sizes, |_| 500.0);
        pts[7].1 *= 1.3;
        let v = judge(&pts, Some(Class::Constant));
        assert_eq!(v.evidence.class, Some(Class::Constant), "{v:?}");
        assert!(!v.above_expected);
        // Without an expectation too, and wherever the high point is.
        for i in 0..8 {
            let mut pts = series(&sizes, |_| 500.0);
            pts[i].1 *= 1.3;
            assert_eq!(select(&pts).class, Some(Class::Constant), "point {i}");
        }
    }

    #[test]
    fn n_log_n_plus_10n_is_n_log_n_on_a_wide_range() {
        let sizes = geo(100.0, 100_000.0, 12);
        let pts = series(&sizes, |n| n * (n + 1.0).log2() + 10.0 * n);
        let ev = select(&pts);
        assert_eq!(ev.class, Some(Class::Linearithmic), "{ev:?}");
        let v = judge(&pts, Some(Class::Linear));
        assert!(v.above_expected, "{v:?}");
    }

    #[test]
    fn a_step_in_cost_per_element_is_not_a_log_factor() {
        // A real sweep of `Vec::dedup` (seed 5): the edges per element step from 5.3 to 6.0
        // where the first duplicate moves to the front; the log-log slope interval excludes
        // 1 and n log n wins the BIC by 46, but two levels fit better than any log factor.
        let pts = [
            (299.0, 1580.0),
            (570.0, 3018.0),
            (941.0, 4992.0),
            (1608.0, 8554.0),
            (2734.0, 14616.0),
            (4751.0, 25563.0),
            (8482.0, 50890.0),
            (15841.0, 95044.0),
            (30816.0, 184894.0),
            (62080.0, 372478.0),
        ];
        let v = judge(&pts, Some(Class::Linear));
        assert!(!v.above_expected, "{v:?}");
        assert_eq!(v.class, Some(Class::Linear));
        // The class choice itself now says O(n) here (the n log n + n fit is mostly its
        // linear term); the step test is checked on its own, as the guard it still is.
        let ev = select(&pts);
        let step = log_factor_is_a_step(&ev, &pts, Class::Linear, Class::Linearithmic);
        assert!(step.is_some_and(|s| s.contains("no log factor")), "{ev:?}");
        // The same cost per element rising by a log factor instead stays a finding.
        let real: Vec<(f64, f64)> = pts
            .iter()
            .map(|&(n, _)| (n, n * (5.0 + 0.1 * (n + 1.0).log2())))
            .collect();
        assert!(judge(&real, Some(Class::Linear)).above_expected);
        let ev = select(&real);
        assert!(log_factor_is_a_step(&ev, &real, Class::Linear, Class::Linearithmic).is_none());
    }

    #[test]
    fn n_squared_plus_1e4_n_is_never_judged_above_n_squared() {
        let wide = series(&geo(1000.0, 1_000_000.0, 12), |n| n * n + 1e4 * n);
        assert_eq!(select(&wide).class, Some(Class::Quadratic));
        let narrow = series(&geo(500.0, 6000.0, 8), |n| n * n + 1e4 * n);
        assert!(select(&narrow).class.is_none_or(|c| c <= Class::Quadratic));
    }

    #[test]
    fn linear_with_amortized_spikes_is_linear() {
        let sizes = geo(50.0, 20_000.0, 10);
        let mut pts: Vec<(f64, f64)> = sizes
            .iter()
            .enumerate()
            .map(|(i, &n)| (n, (40.0 + 3.0 * n) * wobble(i, 0.03)))
            .collect();
        pts[6].1 += 2.5 * pts[6].0 * 3.0;
        let v = judge(&pts, Some(Class::Linear));
        assert_eq!(v.class, Some(Class::Linear), "{v:?}");
        assert!(!v.above_expected);
        assert!(v.evidence.outlier_sizes.contains(&pts[6].0), "{v:?}");
    }

    #[test]
    fn each_class_is_recognized_with_noise_and_offsets() {
        let sizes = geo(20.0, 20_000.0, 10);
        let exp_sizes: Vec<f64> = (0..10).map(|i| 3.0 + 3.0 * i as f64).collect();
        for c in Class::ALL {
            let s = if c == Class::Exponential {
                &exp_sizes
            } else {
                &sizes
            };
            let pts: Vec<(f64, f64)> = s
                .iter()
                .enumerate()
                .map(|(i, &n)| (n, (50.0 + 2.0 * c.g(n)) * wobble(i, 0.04)))
                .collect();
            assert_eq!(select(&pts).class, Some(c), "{c}");
        }
    }

    #[test]
    fn noisy_n_log_n_with_offset_is_not_linear() {
        // A negative intercept let `a + b n` pass for this; coefficients are non-negative.
        let sizes = geo(80.0, 25_000.0, 8);
        let pts: Vec<(f64, f64)> = sizes
            .iter()
            .enumerate()
            .map(|(i, &n)| {
                (
                    n,
                    (2000.0 + n * (n + 1.0).log2() + 10.0 * n) * wobble(i, 0.05),
                )
            })
            .collect();
        let ev = select(&pts);
        assert_eq!(ev.class, Some(Class::Linearithmic), "{ev:?}");
    }

    #[test]
    fn noisy_log_series_is_log_not_linear_with_a_log_term() {
        // A generated O(log n) series with 4% noise: a per-class scale let `a + b n + d log n`
        // fit 8 points tightly, nearly ignore 2 and win; one common scale judges it O(log n).
        let pts = [
            (55.0, 7.96),
            (75.0, 8.28),
            (108.0, 9.09),
            (147.0, 9.55),
            (204.0, 9.57),
            (274.0, 12.06),
            (380.0, 12.75),
            (550.0, 11.93),
            (760.0, 13.73),
            (1031.0, 14.74),
        ];
        assert_eq!(select(&pts).class, Some(Class::Log));
    }

    #[test]
    fn one_spike_does_not_hide_a_log_series() {
        let sizes = geo(500.0, 500_000.0, 9);
        let mut pts = series(&sizes, |n| 40.0 + 3.0 * (n + 1.0).log2());
        pts[4].1 *= 1.8;
        let ev = select(&pts);
        assert_eq!(ev.class, Some(Class::Log), "{ev:?}");
        assert_eq!(ev.outlier_sizes, vec![sizes[4]]);
        assert!(ev.slope.unwrap().low > 0.0, "{ev:?}");
    }

    #[test]
    fn a_few_points_lined_up_by_chance_do_not_set_the_noise_scale() {
        // Generated by `bench fit` (tuning seeds 105 and 103): a flat series with 11% noise
        // and a linear one with 6% noise and an outlier. A 3-coefficient variant that kept
        // a few points in line gave a noise scale far below the noise, and O(log n), then
        // O(n log n), won on misfits of the true class that were only noise.
        let flat = [
            (35.0, 21.422),
            (53.0, 21.417),
            (78.0, 17.807),
            (113.0, 22.436),
            (168.0, 21.284),
            (243.0, 21.496),
            (375.0, 23.522),
            (560.0, 25.307),
            (784.0, 24.974),
            (1192.0, 23.639),
        ];
        assert_eq!(select(&flat).class, Some(Class::Constant));
        let linear = [
            (13.0, 18.777),
            (19.0, 18.221),
            (30.0, 31.236),
            (43.0, 40.359),
            (64.0, 63.79),
            (89.0, 86.135),
            (136.0, 137.103),
            (197.0, 201.569),
        ];
        assert_eq!(select(&linear).class, Some(Class::Linear));
    }

    #[test]
    fn a_lower_order_term_that_dwarfs_the_class_is_not_the_class() {
        // Generated by `bench fit` (tuning seed 103): an O(log n) series with 14% noise, a
        // spike and a plateau came out O(n) as `a + b n + d log n` with the log term the
        // larger one at the largest size; an n log n + 10 n series came out O(n^2) as
        // `a + b n^2 + d n` with the linear term the larger.
        let log = [
            (12.0, 1.02),
            (35.0, 1.209),
            (106.0, 1.489),
            (325.0, 1.489),
            (982.0, 1.983),
            (3016.0, 3.353),
            (8766.0, 2.715),
            (26611.0, 3.246),
        ];
        assert_eq!(select(&log).class, Some(Class::Log));
        let n_log_n = [
            (25.0, 2337.159),
            (65.0, 4662.872),
            (183.0, 11060.468),
            (532.0, 27259.907),
            (1419.0, 81961.969),
            (3984.0, 242658.911),
            (9577.0, 641867.017),
        ];
        let got = select(&n_log_n).class;
        assert!(got.is_some_and(|c| c <= Class::Linearithmic), "{got:?}");
    }

    #[test]
    fn a_plateau_does_not_hide_exponential_growth() {
        // Generated by `bench fit` (tuning seed 106): 2^n with three sizes stuck at one
        // value. Started from least squares, the robust fit was pulled by the plateau and
        // left 4 of 12 points off every class (inconclusive); a least-absolute-deviations
        // start finds the 2^n the other points follow.
        let pts = [
            (3.0, 2.977901933165059),
            (4.0, 5.955803866330118),
            (5.0, 11.911607732660237),
            (6.0, 23.823215465320473),
            (7.0, 47.646430930640946),
            (9.0, 190.58572372256378),
            (11.0, 762.3428948902551),
            (14.0, 6098.743159122041),
            (19.0, 195159.78109190532),
            (23.0, 195159.78109190532),
            (27.0, 195159.78109190532),
            (34.0, 6394995706.819553),
        ];
        let ev = select(&pts);
        assert_eq!(ev.class, Some(Class::Exponential), "{ev:?}");
    }

    #[test]
    fn a_scale_that_rejects_many_points_is_not_the_noise() {
        // Generated by `bench fit` (tuning seed 114): O(log n) with 9% noise. The variant
        // `a + b n + d log n` lined up 6 of 9 points to 2% and called the other 3 gross
        // errors; with that as the common noise scale, O(n) won by 18 in BIC.
        let pts = [
            (300.0, 190.9657150604187),
            (581.0, 151.53255500552234),
            (1252.0, 207.96772592706301),
            (2257.0, 221.4782542520059),
            (4657.0, 221.7207950379329),
            (8830.0, 308.02560806858054),
            (18319.0, 312.2326132135826),
            (32529.0, 262.59856246572514),
            (70994.0, 300.2901092296239),
        ];
        let ev = select(&pts);
        assert_eq!(ev.class, Some(Class::Log), "{ev:?}");
    }

    #[test]
    fn exponential_growth_of_another_base_is_exponential() {
        // A planted naive Fibonacci recursion documented O(n), as `hunt` swept it (sizes 0 to
        // 32, the cost in edges): 1.618^n. Fitted as 2^n it scattered by 49% (inconclusive).
        let fib = [
            (0.0, 15.0),
            (1.0, 15.0),
            (2.0, 17.0),
            (4.0, 24.0),
            (8.0, 93.0),
            (16.0, 3816.0),
            (17.0, 6167.0),
            (18.0, 9971.0),
            (19.0, 16126.0),
            (20.0, 26085.0),
            (21.0, 42199.0),
            (22.0, 68272.0),
            (23.0, 110459.0),
            (24.0, 178719.0),
            (25.0, 289166.0),
            (26.0, 467873.0),
            (27.0, 757027.0),
            (28.0, 1224888.0),
            (29.0, 1981903.0),
            (30.0, 3206779.0),
            (31.0, 5188670.0),
            (31.0, 5188670.0),
            (32.0, 8395437.0),
        ];
        let v = judge(&fib, Some(Class::Linear));
        assert!(v.above_expected, "{v:?}");
        assert_eq!(v.class, Some(Class::Exponential));
        let base = v.evidence.base.expect("a fitted base");
        assert!((base - 1.618).abs() < 0.02, "{base}");
        // Three calls per level: 1.839^n (tribonacci), with noise.
        let sizes: Vec<f64> = (6..=26).step_by(2).map(f64::from).collect();
        let pts: Vec<(f64, f64)> = sizes
            .iter()
            .enumerate()
            .map(|(i, &n)| (n, (40.0 + 1.839f64.powf(n)) * wobble(i, 0.05)))
            .collect();
        assert_eq!(select(&pts).class, Some(Class::Exponential));
    }

    #[test]
    fn exponential_growth_is_judged_on_a_short_ratio_of_sizes() {
        // 2 to 16 is 0.9 decades, but 2^n grows 16384-fold over it.
        let sizes: Vec<f64> = (2..=16).step_by(2).map(f64::from).collect();
        let exp = series(&sizes, |n| 30.0 + 2f64.powf(n));
        assert_eq!(select(&exp).class, Some(Class::Exponential));
        // Any other class on the same sizes stays inconclusive.
        let cubic = series(&sizes, |n| 5.0 + n * n * n);
        let ev = select(&cubic);
        assert!(ev.class.is_none(), "{ev:?}");
        assert!(ev.reason.unwrap().contains("decade"));
    }

    #[test]
    fn a_class_far_above_the_slope_interval_is_refused() {
        // A step, as rpds `Vector::drop_last_mut` costs when its tree grows a level: flat,
        // one step, then one high point at the largest size. `a + b n^2` fitted it best
        // (O(n^2), log-log slope 0.16 [0.02, 0.30]): a class whose growth rests on the
        // largest sizes.
        let step = [
            (42.0, 27.0),
            (70.0, 27.0),
            (130.0, 27.0),
            (250.0, 27.0),
            (500.0, 27.0),
            (1000.0, 32.0),
            (2000.0, 32.0),
            (4097.0, 58.0),
        ];
        let ev = select(&step);
        assert!(ev.class.is_none_or(|c| c <= Class::Log), "{ev:?}");
        let note = ev.slope_note.clone().unwrap_or_default();
        assert!(note.contains("far below its own slope"), "{ev:?}");
        assert!(!judge(&step, Some(Class::Constant)).above_expected);
        // Generated by `bench fit` (tuning seed 6): O(log n) with an offset and 5% noise
        // came out O(n), slope 0.07 [0.04, 0.09] against O(n)'s 1.
        let log = [
            (468.0, 1.501),
            (672.0, 1.814),
            (943.0, 1.761),
            (1355.0, 1.787),
            (1939.0, 1.85),
            (2766.0, 1.831),
            (4017.0, 1.936),
            (5718.0, 1.938),
            (8374.0, 1.991),
            (11723.0, 2.031),
            (16137.0, 1.878),
            (25284.0, 2.336),
        ];
        assert_eq!(select(&log).class, Some(Class::Log));
    }

    #[test]
    fn a_slope_above_the_class_s_own_raises_it_one_class() {
        // Generated by `bench fit` (tuning seeds 116 and 6): n log n + 10 n with 11% noise,
        // and O(log n) with an offset and 6% noise over half a decade more than one. The
        // criterion kept O(n) and O(1); the slope's 99.5% lower bound is above their own
        // slopes.
        let n_log_n = [
            (51.0, 55478.74),
            (113.0, 96625.482),
            (263.0, 326118.581),
            (630.0, 1153698.364),
            (1478.0, 1964049.705),
            (3435.0, 4849338.708),
            (8304.0, 11011004.257),
            (18327.0, 26627431.847),
        ];
        let ev = select(&n_log_n);
        assert_eq!(ev.class, Some(Class::Linearithmic), "{ev:?}");
        assert!(ev
            .slope_note
            .is_some_and(|n| n.contains("judged O(n log n)")));
        let log = [
            (290.0, 1401.575),
            (353.0, 1336.811),
            (425.0, 1405.715),
            (539.0, 1318.219),
            (664.0, 1589.3),
            (865.0, 1491.703),
            (1066.0, 1436.921),
            (1224.0, 1432.713),
            (1467.0, 1627.842),
            (1835.0, 1409.709),
            (2255.0, 1543.674),
            (2798.0, 1597.832),
            (3408.0, 1618.363),
        ];
        assert_eq!(select(&log).class, Some(Class::Log));
        // No cost of a class shows a log-log slope above the class's own on its sizes.
        let sizes = geo(10.0, 10_000.0, 9);
        let own = own_slope(Class::Linearithmic, &sizes);
        let with_terms = series(&sizes, |n| 300.0 + n * (n + 1.0).log2() + 10.0 * n);
        assert!(log_log_slope(&with_terms).unwrap().estimate < own);
    }

    #[test]
    fn a_slope_just_above_the_class_s_own_and_far_below_the_next_keeps_the_class() {
        // Real sweeps of registry crates (costs are edges, no noise): priority-queue's
        // `DoublePriorityQueue::into_ascending_sorted_vec` (a heap sort) and indexmap's
        // `IndexMap::sorted_unstable_by_as_slice`. Both grow a little faster than n log n
        // (slopes 1.16 and 1.22 over n log n's own 1.14 and 1.17) and were judged O(n^2),
        // whose own slope is 2.
        let heap_sort = [
            (165.0, 10021.0),
            (312.0, 21391.0),
            (509.0, 38878.0),
            (853.0, 71386.0),
            (1394.0, 125181.0),
            (2295.0, 224584.0),
            (3769.0, 395053.0),
            (6227.0, 694651.0),
            (10159.0, 1211254.0),
            (16385.0, 2062216.0),
        ];
        let sort = [
            (42.0, 714.0),
            (79.0, 1363.0),
            (127.0, 2469.0),
            (213.0, 4690.0),
            (348.0, 9193.0),
            (573.0, 16568.0),
            (942.0, 30409.0),
            (1556.0, 55593.0),
            (2540.0, 99090.0),
            (4096.0, 171503.0),
        ];
        for pts in [&heap_sort[..], &sort[..]] {
            let ev = select(pts);
            assert_eq!(ev.class, Some(Class::Linearithmic), "{ev:?}");
            assert!(
                ev.slope_note
                    .as_deref()
                    .is_some_and(|n| n.contains("growing a little faster")),
                "{ev:?}"
            );
            let v = judge(pts, Some(Class::Linearithmic));
            assert!(!v.above_expected, "{v:?}");
        }
    }

    #[test]
    fn short_evidence_is_inconclusive_with_a_reason() {
        let few = series(&[10.0, 100.0, 1000.0], |n| n);
        let ev = select(&few);
        assert!(ev.class.is_none());
        assert!(ev.reason.unwrap().contains("distinct sizes"));
        let narrow = series(&geo(1000.0, 3000.0, 8), |n| n);
        let ev = select(&narrow);
        assert!(ev.class.is_none());
        assert!(ev.reason.unwrap().contains("decade"));
        let noisy: Vec<(f64, f64)> = geo(10.0, 10_000.0, 10)
            .iter()
            .enumerate()
            .map(|(i, &n)| (n, 100.0 * if i % 2 == 0 { 1.0 } else { 3.0 }))
            .collect();
        let ev = select(&noisy);
        assert!(ev.class.is_none(), "{ev:?}");
        let reason = ev.reason.unwrap();
        assert!(reason.contains("scatters") || reason.contains("no single class"));
    }
}
