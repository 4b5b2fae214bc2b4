//! SpeedGun's test oracle (section 4.3): per test, 98% confidence intervals of the mean that do
//! not overlap and a difference above delta_report (eq. 4 and 5); across tests, a regression or
//! an improvement when one version wins more tests than the other and at least as many as end
//! in a tie (eq. 6 and 7).

use serde::{Deserialize, Serialize};
use statrs::distribution::{ContinuousCDF, StudentsT};

/// A series of measurements of one version in one test (ns per repetition): at least two
/// values, all finite and positive (checked at construction).
#[derive(Clone, Debug, PartialEq)]
pub struct Series(Vec<f64>);

impl Series {
    /// `None` unless there are at least two values, all finite and positive.
    pub fn new(xs: Vec<f64>) -> Option<Series> {
        (xs.len() >= 2 && xs.iter().all(|x| x.is_finite() && *x > 0.0)).then_some(Series(xs))
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Always false: a series has at least two values.
    pub fn is_empty(&self) -> bool {
        false
    }

    pub fn mean(&self) -> f64 {
        self.0.iter().sum::<f64>() / self.0.len() as f64
    }

    /// Sample standard deviation.
    pub fn sd(&self) -> f64 {
        let m = self.mean();
        (self.0.iter().map(|x| (x - m).powi(2)).sum::<f64>() / (self.0.len() - 1) as f64).sqrt()
    }

    /// The size c of the `confidence` interval of the mean (its full width), Student's t.
    pub fn interval(&self, confidence: f64) -> f64 {
        let n = self.0.len() as f64;
        2.0 * t_quantile(0.5 + confidence / 2.0, n - 1.0) * self.sd() / n.sqrt()
    }
}

fn t_quantile(p: f64, df: f64) -> f64 {
    StudentsT::new(0.0, 1.0, df)
        .map(|t| t.inverse_cdf(p))
        .unwrap_or(f64::INFINITY)
}

/// Which version a test favours.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Winner {
    /// The old version outperforms the new one (T_old, eq. 4).
    Old,
    /// The new version outperforms the old one (T_new, eq. 5).
    New,
    /// Neither (T_none).
    None,
}

/// The oracle's thresholds.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct OracleConfig {
    /// Confidence level of the intervals (paper: 0.98).
    pub confidence: f64,
    /// Smallest relative difference of the means that is reported (paper: 0.05).
    pub delta_report: f64,
}

/// Eq. 4 and 5 for one test.
pub fn judge_test(old: &Series, new: &Series, cfg: &OracleConfig) -> Winner {
    let (mo, mn) = (old.mean(), new.mean());
    let (co, cn) = (old.interval(cfg.confidence), new.interval(cfg.confidence));
    if mo + co / 2.0 < mn - cn / 2.0 && mn / mo - 1.0 > cfg.delta_report {
        Winner::Old
    } else if mn + cn / 2.0 < mo - co / 2.0 && mo / mn - 1.0 > cfg.delta_report {
        Winner::New
    } else {
        Winner::None
    }
}

/// Which way the new version changed over all tests (eq. 6 and 7); written as the
/// comparison's `verdict`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Change {
    /// Eq. 6: the new version is slower.
    Regression,
    /// Eq. 7: the new version is faster.
    Improvement,
    /// Neither equation holds.
    None,
    /// No test was conclusive, so the oracle had nothing to judge.
    Inconclusive,
}

impl Change {
    pub fn label(self) -> &'static str {
        match self {
            Change::Regression => "regression",
            Change::Improvement => "improvement",
            Change::None => "none",
            Change::Inconclusive => "inconclusive",
        }
    }
}

/// How the conclusive tests split, and how many were inconclusive.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Counts {
    /// |T_old|: tests where the old version is faster.
    pub old: usize,
    /// |T_new|: tests where the new version is faster.
    pub new: usize,
    /// |T_none|.
    pub none: usize,
    pub inconclusive: usize,
}

impl Counts {
    pub fn add(&mut self, w: Option<Winner>) {
        match w {
            Some(Winner::Old) => self.old += 1,
            Some(Winner::New) => self.new += 1,
            Some(Winner::None) => self.none += 1,
            None => self.inconclusive += 1,
        }
    }
}

/// Eq. 6 and 7.
pub fn verdict(c: &Counts) -> Change {
    if c.old + c.new + c.none == 0 {
        Change::Inconclusive
    } else if c.old >= c.none && c.old > c.new {
        Change::Regression
    } else if c.new >= c.none && c.new > c.old {
        Change::Improvement
    } else {
        Change::None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const CFG: OracleConfig = OracleConfig {
        confidence: 0.98,
        delta_report: 0.05,
    };

    fn s(xs: &[f64]) -> Series {
        Series::new(xs.to_vec()).unwrap()
    }

    #[test]
    fn a_series_refuses_too_few_or_bad_values() {
        assert!(Series::new(vec![1.0]).is_none());
        assert!(Series::new(vec![1.0, f64::NAN]).is_none());
        assert!(Series::new(vec![1.0, 0.0]).is_none());
    }

    #[test]
    fn separated_intervals_above_delta_pick_the_faster_version() {
        let fast = s(&[100.0, 101.0, 99.0]);
        let slow = s(&[150.0, 151.0, 149.0]);
        assert_eq!(judge_test(&fast, &slow, &CFG), Winner::Old);
        assert_eq!(judge_test(&slow, &fast, &CFG), Winner::New);
    }

    #[test]
    fn a_difference_below_delta_is_a_tie_even_when_significant() {
        let a = s(&[100.0, 100.1, 99.9]);
        let b = s(&[103.0, 103.1, 102.9]);
        assert_eq!(judge_test(&a, &b, &CFG), Winner::None);
    }

    #[test]
    fn overlapping_intervals_are_a_tie() {
        let a = s(&[100.0, 140.0, 60.0]);
        let b = s(&[120.0, 160.0, 80.0]);
        assert_eq!(judge_test(&a, &b, &CFG), Winner::None);
    }

    #[test]
    fn eq_6_and_7_need_a_majority_over_ties() {
        let c = |old, new, none| Counts {
            old,
            new,
            none,
            inconclusive: 0,
        };
        assert_eq!(verdict(&c(5, 0, 5)), Change::Regression);
        assert_eq!(verdict(&c(4, 0, 5)), Change::None);
        assert_eq!(verdict(&c(3, 3, 0)), Change::None);
        assert_eq!(verdict(&c(1, 6, 3)), Change::Improvement);
        assert_eq!(verdict(&Counts::default()), Change::Inconclusive);
    }
}
