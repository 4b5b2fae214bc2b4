//! The search's objective: the score a performance oracle gives a path through the mutation
//! tree (section 3.2.7), and the observation it reads. The search maximizes it; the oracles
//! in `judge/oracle` implement it beside their verdicts. Here, below both, so that the
//! search never imports a judge.
//!
//! Observing is separate from scoring: the worker measures, the objective only reads
//! [`Obs`]ervations.

use serde::{Deserialize, Serialize};

/// One program's observation, as the oracles see it.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Obs {
    /// Registered input size just before the call under test.
    pub size: u64,
    /// The chosen metric for the version under analysis.
    pub cost: f64,
    /// The same metric for the reference version (relative oracle only).
    pub cost_ref: Option<f64>,
}

/// What the search maximizes: a performance oracle's score of a path (section 3.2.7).
///
/// Protocol: `score` is a pure function of the path's observations (root first, the scored
/// program last, never empty); higher means closer to exposing a bottleneck. It must be
/// finite for any finite input, so the search can order nodes by it.
pub trait Objective {
    /// Name for reports (`asymptotic`, `relative`).
    fn name(&self) -> &'static str;
    /// Score of the last program of `path`.
    fn score(&self, path: &[Obs]) -> f64;
}

/// Checks the [`Objective`] contract on a few paths: finite scores, no panic.
pub fn check_objective_contract(o: &dyn Objective) {
    let paths: [&[Obs]; 3] = [
        &[Obs {
            size: 0,
            cost: 0.0,
            cost_ref: Some(0.0),
        }],
        &[
            Obs {
                size: 1,
                cost: 10.0,
                cost_ref: Some(10.0),
            },
            Obs {
                size: 100,
                cost: 1000.0,
                cost_ref: Some(12.0),
            },
        ],
        &[
            Obs {
                size: 50,
                cost: 5.0,
                cost_ref: Some(9.0),
            },
            Obs {
                size: 10,
                cost: 1e12,
                cost_ref: Some(0.0),
            },
            Obs {
                size: 0,
                cost: 0.0,
                cost_ref: Some(1e12),
            },
        ],
    ];
    for p in paths {
        let s = o.score(p);
        assert!(s.is_finite(), "{} gave {s} for {p:?}", o.name());
    }
}

/// The cost ratio new/old of an observation (1 when both are 0).
pub fn ratio(o: &Obs) -> f64 {
    let r = o.cost_ref.unwrap_or(o.cost);
    (o.cost + 1.0) / (r + 1.0)
}
