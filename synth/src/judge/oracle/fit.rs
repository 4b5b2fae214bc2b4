//! Fitting (size, cost) points to complexity classes (section 3.2.7, "Exposing unexpected
//! asymptotic complexity"): least squares of `cost = a + b * g(n)` for each candidate class
//! `g`, chosen by normalized root-mean-square error.
//!
//! Unlike the paper's polynomial-only matching, O(log n) and O(n log n) are candidates too.
//! Among classes whose error is within [`TIE_TOLERANCE`] of the best, the lowest class wins, so
//! flat data is O(1) and not "O(n^3) with a tiny coefficient"; a class whose fitted
//! coefficient is not positive does not count.

use serde::{Deserialize, Serialize};

use crate::report::class::Class;

/// Errors within this much (absolute NRMSE) of the best fit count as ties.
pub const TIE_TOLERANCE: f64 = 0.01;

/// A fitted curve `cost = a + b * g(n)`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Fit {
    pub class: Class,
    pub a: f64,
    pub b: f64,
    /// Root-mean-square error divided by the mean cost.
    pub nrmse: f64,
    /// An exponential class's fitted base (`b c^n`; see `model_select::EXP_BASES`); 2 when
    /// absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub base: Option<f64>,
}

impl Fit {
    /// The fitted cost at size `n`.
    pub fn at(&self, n: f64) -> f64 {
        self.a + self.b * growth(self.class, self.base, n)
    }
}

/// `class`'s growth function, an exponential one with `base` when given.
pub fn growth(class: Class, base: Option<f64>, n: f64) -> f64 {
    match (class, base) {
        (Class::Exponential, Some(c)) => c.powf(n.clamp(0.0, 1000.0)),
        _ => class.g(n),
    }
}

/// Points checked at construction: at least two, finite, non-negative.
#[derive(Clone, Debug)]
pub struct Points(Vec<(f64, f64)>);

impl Points {
    /// Validates `pts`; `None` if fewer than two points or any is not finite.
    pub fn new(pts: Vec<(f64, f64)>) -> Option<Points> {
        (pts.len() >= 2 && pts.iter().all(|(x, y)| x.is_finite() && y.is_finite()))
            .then_some(Points(pts))
    }

    /// Number of distinct sizes.
    pub fn distinct_sizes(&self) -> usize {
        let mut xs: Vec<u64> = self.0.iter().map(|p| p.0 as u64).collect();
        xs.sort_unstable();
        xs.dedup();
        xs.len()
    }

    /// The points.
    pub fn as_slice(&self) -> &[(f64, f64)] {
        &self.0
    }
}

/// Fits one class; `None` when the class cannot be fitted (e.g. 2^n on huge sizes).
pub fn fit_class(pts: &Points, class: Class) -> Option<Fit> {
    fit_class_with_base(pts, class, None)
}

/// As [`fit_class`], an exponential class with the fitted `base` when given (see
/// `model_select::Evidence::base`).
pub fn fit_class_with_base(pts: &Points, class: Class, base: Option<f64>) -> Option<Fit> {
    let base = base.filter(|_| class == Class::Exponential);
    let xs: Vec<f64> = pts.0.iter().map(|p| growth(class, base, p.0)).collect();
    let ys: Vec<f64> = pts.0.iter().map(|p| p.1).collect();
    if xs.iter().any(|x| !x.is_finite()) {
        return None;
    }
    let mean_y = ys.iter().sum::<f64>() / ys.len() as f64;
    let (a, b) = if class == Class::Constant {
        (mean_y, 0.0)
    } else {
        regress(&xs, &ys)?
    };
    let rmse = (xs
        .iter()
        .zip(&ys)
        .map(|(x, y)| (a + b * x - y).powi(2))
        .sum::<f64>()
        / ys.len() as f64)
        .sqrt();
    let nrmse = if mean_y.abs() < 1e-12 {
        0.0
    } else {
        rmse / mean_y.abs()
    };
    Some(Fit {
        class,
        a,
        b,
        nrmse,
        base,
    })
}

/// Least squares `y = a + b x` through linregress; `None` for a rank-deficient design
/// (all x equal), which linregress would answer with nonsense instead of an error.
fn regress(xs: &[f64], ys: &[f64]) -> Option<(f64, f64)> {
    let first = xs[0];
    if xs
        .iter()
        .all(|x| (x - first).abs() <= 1e-12 * first.abs().max(1.0))
    {
        return None;
    }
    // Scale x to keep the normal equations well conditioned for n^3 and 2^n.
    let scale = xs.iter().fold(0.0f64, |m, x| m.max(x.abs())).max(1e-300);
    let data = vec![
        ("y".to_string(), ys.to_vec()),
        ("x".to_string(), xs.iter().map(|x| x / scale).collect()),
    ];
    let data = linregress::RegressionDataBuilder::new()
        .build_from(data)
        .ok()?;
    let model = linregress::FormulaRegressionBuilder::new()
        .data(&data)
        .formula("y ~ x")
        .fit_without_statistics()
        .ok()?;
    let p = model;
    if p.len() != 2 || !p[0].is_finite() || !p[1].is_finite() {
        return None;
    }
    Some((p[0], p[1] / scale))
}

/// The best-fitting class (lowest class among near-ties; non-constant classes need a
/// positive coefficient).
pub fn best_fit(pts: &Points) -> Option<Fit> {
    let fits: Vec<Fit> = Class::ALL
        .iter()
        .filter_map(|c| fit_class(pts, *c))
        .filter(|f| f.class == Class::Constant || f.b > 0.0)
        .collect();
    let best = fits.iter().map(|f| f.nrmse).fold(f64::INFINITY, f64::min);
    fits.into_iter().find(|f| f.nrmse <= best + TIE_TOLERANCE)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pts(f: impl Fn(f64) -> f64) -> Points {
        Points::new(
            [1.0, 16.0, 128.0, 1024.0, 8192.0]
                .iter()
                .map(|&n| (n, f(n)))
                .collect(),
        )
        .unwrap()
    }

    #[test]
    fn recognizes_each_class_from_exact_data() {
        let cases: [(Class, fn(f64) -> f64); 6] = [
            (Class::Constant, |_| 40.0),
            (Class::Log, |n| 10.0 + 7.0 * (n + 1.0).log2()),
            (Class::Linear, |n| 30.0 + 3.0 * n),
            (Class::Linearithmic, |n| 5.0 + 2.0 * n * (n + 1.0).log2()),
            (Class::Quadratic, |n| 9.0 + n * n),
            (Class::Cubic, |n| 1.0 + n * n * n),
        ];
        for (class, f) in cases {
            let fit = best_fit(&pts(f)).unwrap();
            assert_eq!(fit.class, class, "{fit:?}");
            assert!(fit.nrmse < 0.01);
        }
    }

    #[test]
    fn parses_documented_classes() {
        assert_eq!(Class::parse("O(n log n)"), Some(Class::Linearithmic));
        assert_eq!(Class::parse("O(1) amortized"), Some(Class::Constant));
        assert_eq!(Class::parse("O(n²)"), Some(Class::Quadratic));
        assert_eq!(Class::parse("O(log n)"), Some(Class::Log));
        assert_eq!(Class::parse("fast"), None);
    }
}
