//! The relative-performance oracle (eq. 3.3, 3.4): the cost gap between the version under
//! analysis (`new`) and the reference version (`old`) on the same program.
//!
//! With [`Direction::Both`] the search maximizes |c_new - c_old| and the verdict reads both
//! sides of the explored tree separately ([`sides`]): the largest regression and the largest
//! improvement, each with its own ratio (and, in `explore`, its own wall-clock
//! confirmation), so nobody has to say beforehand which side to look for.

use serde::{Deserialize, Serialize};

use crate::search::objective::{Objective, Obs};

/// Which gaps count.
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    Serialize,
    Deserialize,
    strum::EnumString,
    strum::Display,
    strum::IntoStaticStr,
    strum::VariantArray,
    strum::EnumMessage,
)]
#[serde(rename_all = "lowercase")]
#[strum(serialize_all = "lowercase")]
pub enum Direction {
    /// |c_new - c_old| (eq. 3.3): regressions and improvements.
    Both,
    /// max(0, c_new - c_old): only programs where the new version is slower.
    Slower,
    /// max(0, c_old - c_new) (eq. 3.4): only programs where the new version is faster.
    Faster,
}

/// The relative oracle.
#[derive(Clone, Debug)]
pub struct Relative {
    pub direction: Direction,
}

impl Objective for Relative {
    fn name(&self) -> &'static str {
        "relative"
    }

    fn score(&self, path: &[Obs]) -> f64 {
        let last = path.last().expect("non-empty path");
        let (c, r) = (last.cost, last.cost_ref.unwrap_or(last.cost));
        match self.direction {
            Direction::Both => (c - r).abs(),
            Direction::Slower => (c - r).max(0.0),
            Direction::Faster => (r - c).max(0.0),
        }
    }
}

/// Whether `ratio` passes t_rel in `direction`.
pub fn passes(ratio: f64, t_rel: f64, direction: Direction) -> bool {
    match direction {
        Direction::Both => ratio >= t_rel || ratio <= 1.0 / t_rel,
        Direction::Slower => ratio >= t_rel,
        Direction::Faster => ratio <= 1.0 / t_rel,
    }
}

/// The programs with the largest gap on each side among `obs` (index, observation):
/// `(regression, improvement)`, where a regression costs more on the version under
/// analysis (largest c_new - c_old > 0) and an improvement less (largest c_old - c_new > 0).
/// Ties go to the first index, so the choice is deterministic.
pub fn sides(obs: impl IntoIterator<Item = (usize, Obs)>) -> (Option<usize>, Option<usize>) {
    let mut slower: Option<(usize, f64)> = None;
    let mut faster: Option<(usize, f64)> = None;
    for (i, o) in obs {
        let Some(r) = o.cost_ref else { continue };
        let gap = o.cost - r;
        if gap > 0.0 && slower.is_none_or(|(_, g)| gap > g) {
            slower = Some((i, gap));
        }
        if gap < 0.0 && faster.is_none_or(|(_, g)| -gap > g) {
            faster = Some((i, -gap));
        }
    }
    (slower.map(|x| x.0), faster.map(|x| x.0))
}

/// One side of a two-sided verdict: its program, cost ratio new/old, whether the ratio
/// passes t_rel on that side, and its wall-clock confirmation (null when not confirmed).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Side<P> {
    pub ratio: f64,
    pub passes: bool,
    pub time_ratio: Option<f64>,
    pub time_significant: Option<bool>,
    pub program: P,
}

/// The largest regression and the largest improvement of a two-sided run.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Sides<P> {
    pub regression: Option<Side<P>>,
    pub improvement: Option<Side<P>>,
}

/// Wall-clock confirmation of one program: `(time ratio new/old, significant)`.
pub type ConfirmSide<'a, P> = dyn FnMut(&P) -> anyhow::Result<Option<(f64, bool)>> + 'a;

impl<P> Sides<P> {
    /// Judges each side's program against t_rel on its own side and confirms it.
    pub fn judge(
        slower: Option<P>,
        faster: Option<P>,
        t_rel: f64,
        ratio_of: &dyn Fn(&P) -> f64,
        confirm: &mut ConfirmSide<'_, P>,
    ) -> anyhow::Result<Sides<P>> {
        let mut side = |p: Option<P>, d: Direction| -> anyhow::Result<Option<Side<P>>> {
            let Some(program) = p else { return Ok(None) };
            let ratio = ratio_of(&program);
            let c = confirm(&program)?;
            Ok(Some(Side {
                ratio,
                passes: passes(ratio, t_rel, d),
                time_ratio: c.map(|x| x.0),
                time_significant: c.map(|x| x.1),
                program,
            }))
        };
        Ok(Sides {
            regression: side(slower, Direction::Slower)?,
            improvement: side(faster, Direction::Faster)?,
        })
    }

    /// Whether either side passes t_rel.
    pub fn any_passes(&self) -> bool {
        self.regression.as_ref().is_some_and(|s| s.passes)
            || self.improvement.as_ref().is_some_and(|s| s.passes)
    }

    /// One sentence on both sides, for the verdict's reason.
    pub fn describe(&self, t_rel: f64) -> String {
        let one = |name: &str, s: &Option<Side<P>>| match s {
            None => format!("no {name} found"),
            Some(s) => format!(
                "largest {name}: cost new/old = {:.3}{}{}",
                s.ratio,
                if s.passes { " (passes)" } else { "" },
                match (s.time_ratio, s.time_significant) {
                    (Some(t), Some(true)) => format!(", time new/old = {t:.3}, significant"),
                    (Some(t), _) => format!(", time new/old = {t:.3}, not significant"),
                    _ => String::new(),
                }
            ),
        };
        format!(
            "{}; {} (threshold t_rel = {t_rel})",
            one("regression", &self.regression),
            one("improvement", &self.improvement)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sides_are_the_largest_gap_on_each_side() {
        let o = |cost: f64, r: f64| Obs {
            size: 1,
            cost,
            cost_ref: Some(r),
        };
        let obs = [
            o(10.0, 10.0),
            o(50.0, 10.0),
            o(5.0, 30.0),
            o(90.0, 60.0),
            o(1.0, 26.0),
        ];
        assert_eq!(sides(obs.iter().copied().enumerate()), (Some(1), Some(2)));
        assert_eq!(sides([(0, o(3.0, 3.0))]), (None, None));
        // Without a reference version there is no side at all.
        let solo = Obs {
            size: 1,
            cost: 5.0,
            cost_ref: None,
        };
        assert_eq!(sides([(0, solo)]), (None, None));
    }

    #[test]
    fn oracle_contract_holds() {
        for direction in [Direction::Both, Direction::Slower, Direction::Faster] {
            crate::search::objective::check_objective_contract(&Relative { direction });
        }
    }

    #[test]
    fn one_sided_scores_ignore_the_other_side() {
        let o = Obs {
            size: 1,
            cost: 10.0,
            cost_ref: Some(30.0),
        };
        assert_eq!(
            Relative {
                direction: Direction::Both
            }
            .score(&[o]),
            20.0
        );
        assert_eq!(
            Relative {
                direction: Direction::Slower
            }
            .score(&[o]),
            0.0
        );
        assert_eq!(
            Relative {
                direction: Direction::Faster
            }
            .score(&[o]),
            20.0
        );
        assert!(passes(1.3, 1.2, Direction::Slower));
        assert!(!passes(1.3, 1.2, Direction::Faster));
    }
}
