//! Robust regression for the class fits: Tukey's bisquare by iteratively reweighted least
//! squares from a least-absolute-deviations start, non-negative and weighted least squares,
//! and the robust residual scales the model selection's criterion uses.
//!
//! Why a file of its own: it is numerical machinery with no notion of a complexity class;
//! `model_select.rs` decides between classes with it.

use statrs::distribution::{ChiSquared, ContinuousCDF};

/// Relative scatter below which differences are not meaningful (deterministic costs still
/// round and quantize): 1%.
pub const SCALE_FLOOR: f64 = 0.01;

/// Confidence of the upper bound on each variant's noise scale ([`scale_upper_bound`]).
pub const SCALE_CONFIDENCE: f64 = 0.7;

/// Tukey bisquare tuning constant (95% efficiency under Gaussian noise).
pub(super) const BISQUARE_C: f64 = 4.685;

/// Tukey's bisquare rho, scaled so that `2 rho(u)` is `u^2` near 0 and `c^2 / 3` beyond c.
pub(super) fn rho(u: f64) -> f64 {
    let a = (u / BISQUARE_C).powi(2);
    BISQUARE_C * BISQUARE_C / 6.0 * (1.0 - (1.0 - a.min(1.0)).powi(3))
}

pub(super) fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// Tukey's bisquare weight of a standardized residual.
pub(super) fn bisquare(u: f64) -> f64 {
    let a = u.abs() / BISQUARE_C;
    if a < 1.0 {
        (1.0 - a * a).powi(2)
    } else {
        0.0
    }
}

/// The noise scale of relative residuals `r` of a fit with `p` coefficients, as an upper
/// [`SCALE_CONFIDENCE`] confidence bound: the root mean square over the points within
/// [`BISQUARE_C`] MAD scales (gross outliers left out) on its degrees of freedom `k`
/// (points kept minus `p`), times `sqrt(k / chi2_k(1 - SCALE_CONFIDENCE))`.
///
/// Why a bound: the criterion's one noise scale is the smallest over all variants, and a
/// 3-coefficient variant that keeps 4 or 5 of 6 points can line them up by chance (a scale
/// of 1% on series with 10% noise), which makes every small misfit of a lower class look
/// significant; the point estimate of such a scale is a minimum over noisy estimates. The
/// bound is wide when the degrees of freedom are few and close to the estimate when they
/// are many, so the scale comes from a variant that is sure of it.
pub(super) fn scale_upper_bound(r: &[f64], p: usize) -> f64 {
    let s = mad_scale(r);
    let kept: Vec<f64> = r
        .iter()
        .copied()
        .filter(|x| (x / s).abs() < BISQUARE_C)
        .collect();
    // A fit that calls more than a quarter of the points gross errors has lined the rest
    // up by chance: its scale is not the noise's.
    if (r.len() - kept.len()) * 4 > r.len() {
        return f64::INFINITY;
    }
    let k = kept.len() as f64 - p as f64;
    let Ok(chi) = ChiSquared::new(k) else {
        // No degrees of freedom left: the variant says nothing about the noise.
        return f64::INFINITY;
    };
    let rms = (kept.iter().map(|x| x * x).sum::<f64>() / k).sqrt();
    rms * (k / chi.inverse_cdf(1.0 - SCALE_CONFIDENCE)).sqrt()
}

pub(super) fn mad_scale(r: &[f64]) -> f64 {
    let mut a: Vec<f64> = r.iter().map(|x| x.abs()).collect();
    a.sort_by(f64::total_cmp);
    let m = if a.len() % 2 == 1 {
        a[a.len() / 2]
    } else {
        (a[a.len() / 2 - 1] + a[a.len() / 2]) / 2.0
    };
    (1.4826 * m).max(SCALE_FLOOR)
}

/// A bisquare-weighted scale of relative residuals, floored at [`SCALE_FLOOR`].
pub(super) fn robust_scale(r: &[f64]) -> f64 {
    let mut s = mad_scale(r);
    for _ in 0..5 {
        let (num, den) = r.iter().fold((0.0, 0.0), |(n, d), x| {
            let w = bisquare(x / s);
            (n + w * x * x, d + w)
        });
        s = if den > 0.0 {
            (num / den).sqrt().max(SCALE_FLOOR)
        } else {
            s
        };
    }
    s
}

/// Iteratively reweighted least squares on relative residuals with bisquare weights and
/// non-negative coefficients. Returns the coefficients and the relative residuals.
///
/// Bisquare reweighting only finds the fit nearest its start, and a least-squares start
/// is pulled by the very points it should reject: a noise-free n log n series with a 3x
/// spike and a 2x outlier among 8 points converged to a fit 20% off everywhere, and O(n^2)
/// won. So it starts twice, from least squares and from least absolute deviations (which
/// a few gross errors do not move), and keeps the fit with the smaller robust scale, as an
/// S-estimator would.
pub(super) fn robust_fit(
    pts: &[(f64, f64)],
    cols: &dyn Fn(f64) -> Vec<f64>,
) -> Option<(Vec<f64>, Vec<f64>)> {
    let rows: Vec<Vec<f64>> = pts.iter().map(|(x, _)| cols(*x)).collect();
    if rows.iter().flatten().any(|v| !v.is_finite()) {
        return None;
    }
    let ys: Vec<f64> = pts.iter().map(|p| p.1).collect();
    let ls = bisquare_irls(&rows, &ys, vec![1.0; pts.len()]);
    let lad = lad_weights(&rows, &ys).and_then(|w| bisquare_irls(&rows, &ys, w));
    match (ls, lad) {
        (Some(a), Some(b))
            if {
                let s = mad_scale(&a.1);
                let obj = |r: &[f64]| r.iter().map(|x| rho(x / s)).sum::<f64>();
                obj(&b.1) < obj(&a.1) - 1e-9
            } =>
        {
            Some(b)
        }
        (Some(a), _) => Some(a),
        (None, b) => b,
    }
}

/// Relative residuals of `beta`: against the fit where it is positive, else the cost.
pub(super) fn relative_residuals(
    rows: &[Vec<f64>],
    ys: &[f64],
    beta: &[f64],
) -> (Vec<f64>, Vec<f64>) {
    let tiny = ys.iter().fold(0.0f64, |m, y| m.max(*y)) * 1e-12;
    let fitted: Vec<f64> = rows.iter().map(|row| dot(beta, row)).collect();
    let base: Vec<f64> = fitted
        .iter()
        .zip(ys)
        .map(|(f, y)| {
            if *f > 0.0 {
                *f
            } else {
                y.max(tiny).max(1e-300)
            }
        })
        .collect();
    let r = ys
        .iter()
        .zip(&fitted)
        .zip(&base)
        .map(|((y, f), b)| (y - f) / b)
        .collect();
    (r, base)
}

/// Robustness weights of a least-absolute-deviations fit of the relative residuals (by
/// iteratively reweighted least squares), as a start for [`bisquare_irls`].
pub(super) fn lad_weights(rows: &[Vec<f64>], ys: &[f64]) -> Option<Vec<f64>> {
    let mut rw = vec![1.0; ys.len()];
    let mut base = ys.to_vec();
    for _ in 0..20 {
        let w: Vec<f64> = rw
            .iter()
            .zip(&base)
            .map(|(rw, y)| rw / y.max(1e-300).powi(2))
            .collect();
        let beta = nnls(rows, ys, &w)?;
        let (r, b) = relative_residuals(rows, ys, &beta);
        rw = r.iter().map(|x| 1.0 / x.abs().max(1e-3)).collect();
        base = b;
    }
    // The final weights are those of the LAD fit's residuals, as bisquare weights at its
    // own scale.
    let w: Vec<f64> = rw
        .iter()
        .zip(&base)
        .map(|(rw, y)| rw / y.max(1e-300).powi(2))
        .collect();
    let beta = nnls(rows, ys, &w)?;
    let (r, _) = relative_residuals(rows, ys, &beta);
    let s = mad_scale(&r);
    Some(r.iter().map(|x| bisquare(x / s)).collect())
}

/// Bisquare IRLS from robustness weights `rw`; returns the coefficients and the relative
/// residuals.
pub(super) fn bisquare_irls(
    rows: &[Vec<f64>],
    ys: &[f64],
    mut rw: Vec<f64>,
) -> Option<(Vec<f64>, Vec<f64>)> {
    let n = ys.len();
    let tiny = ys.iter().fold(0.0f64, |m, y| m.max(*y)) * 1e-12;
    let mut yhat = ys.to_vec();
    let mut beta = Vec::new();
    let mut r = vec![0.0; n];
    for _ in 0..30 {
        let w: Vec<f64> = rw
            .iter()
            .zip(&yhat)
            .map(|(rw, y)| rw / y.max(tiny).max(1e-300).powi(2))
            .collect();
        beta = nnls(rows, ys, &w)?;
        let fitted: Vec<f64> = rows.iter().map(|row| dot(&beta, row)).collect();
        r = relative_residuals(rows, ys, &beta).0;
        let s = mad_scale(&r);
        rw = r.iter().map(|x| bisquare(x / s)).collect();
        if rw.iter().sum::<f64>() < beta.len() as f64 + 1.0 {
            rw = vec![1.0; n];
        }
        yhat = fitted
            .iter()
            .zip(ys)
            .map(|(f, y)| if *f > 0.0 { *f } else { *y })
            .collect();
    }
    Some((beta, r))
}

/// Weighted least squares with every coefficient non-negative and the leading one (column
/// 1, when there is one) positive: the best of the unconstrained solutions over the column
/// subsets that keep the leading term and come out non-negative (with at most 3 columns,
/// this enumeration is the exact non-negative least squares solution).
pub(super) fn nnls(rows: &[Vec<f64>], ys: &[f64], w: &[f64]) -> Option<Vec<f64>> {
    let p = rows[0].len();
    let lead = usize::from(p > 1);
    let mut best: Option<(f64, Vec<f64>)> = None;
    for mask in 0u32..(1 << p) {
        if mask & (1 << lead) == 0 {
            continue;
        }
        let keep: Vec<usize> = (0..p).filter(|j| mask & (1 << j) != 0).collect();
        let Some(b) = wls(rows, &keep, ys, w) else {
            continue;
        };
        if b.iter().any(|v| *v < 0.0) {
            continue;
        }
        let mut full = vec![0.0; p];
        for (k, j) in keep.iter().enumerate() {
            full[*j] = b[k];
        }
        if p > 1 && full[lead] <= 0.0 {
            continue;
        }
        let sse: f64 = rows
            .iter()
            .zip(ys)
            .zip(w)
            .map(|((r, y), wi)| wi * (y - dot(&full, r)).powi(2))
            .sum();
        if best.as_ref().is_none_or(|(s, _)| sse < *s) {
            best = Some((sse, full));
        }
    }
    best.map(|(_, b)| b)
}

/// Weighted least squares through the normal equations on the columns `cols` of `rows`
/// (read in place: the column subsets of [`nnls`] copied the design once per subset, most
/// of a hot-line ranking's time), columns scaled to unit norm; `None` when the design is
/// rank deficient (a pivot vanishes) or not finite.
pub(super) fn wls(rows: &[Vec<f64>], cols: &[usize], ys: &[f64], w: &[f64]) -> Option<Vec<f64>> {
    let p = cols.len();
    let mut norm = vec![0.0; p];
    for (row, wi) in rows.iter().zip(w) {
        for j in 0..p {
            norm[j] += wi * row[cols[j]] * row[cols[j]];
        }
    }
    if norm.iter().any(|v| !(v.is_finite() && *v > 0.0)) {
        return None;
    }
    let sc: Vec<f64> = norm.iter().map(|v| v.sqrt()).collect();
    let mut a = vec![vec![0.0; p + 1]; p];
    for ((row, wi), y) in rows.iter().zip(w).zip(ys) {
        for j in 0..p {
            let xj = row[cols[j]] / sc[j];
            for k in 0..p {
                a[j][k] += wi * xj * row[cols[k]] / sc[k];
            }
            a[j][p] += wi * xj * y;
        }
    }
    // Gaussian elimination with partial pivoting; the scaled matrix has a unit diagonal, so
    // a pivot under 1e-10 means the columns are (nearly) collinear.
    for c in 0..p {
        let piv = (c..p).max_by(|i, j| a[*i][c].abs().total_cmp(&a[*j][c].abs()))?;
        if a[piv][c].abs() < 1e-10 {
            return None;
        }
        a.swap(c, piv);
        let pivot = a[c].clone();
        for (r, row) in a.iter_mut().enumerate() {
            if r != c {
                let f = row[c] / pivot[c];
                for (x, y) in row[c..].iter_mut().zip(&pivot[c..]) {
                    *x -= f * y;
                }
            }
        }
    }
    let beta: Vec<f64> = (0..p).map(|j| a[j][p] / a[j][j] / sc[j]).collect();
    beta.iter().all(|b| b.is_finite()).then_some(beta)
}
