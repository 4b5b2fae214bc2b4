//! The relative-performance oracle (eq. 3.3, 3.4): the cost gap between the version under
//! analysis (`new`) and the reference version (`old`) on the same program.

use serde::{Deserialize, Serialize};

use super::{Obs, Oracle};

/// Which gaps count.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
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

impl Oracle for Relative {
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

/// The cost ratio new/old of an observation (1 when both are 0).
pub fn ratio(o: &Obs) -> f64 {
    let r = o.cost_ref.unwrap_or(o.cost);
    (o.cost + 1.0) / (r + 1.0)
}

/// Whether `ratio` passes t_rel in `direction`.
pub fn passes(ratio: f64, t_rel: f64, direction: Direction) -> bool {
    match direction {
        Direction::Both => ratio >= t_rel || ratio <= 1.0 / t_rel,
        Direction::Slower => ratio >= t_rel,
        Direction::Faster => ratio <= 1.0 / t_rel,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn oracle_contract_holds() {
        for direction in [Direction::Both, Direction::Slower, Direction::Faster] {
            super::super::check_oracle_contract(&Relative { direction });
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
