//! The novelty archive: for each niche (a band of similar input sizes, and for the relative
//! oracle the side of the gap), the node with the highest cost seen there.
//!
//! Why: the oracle's score alone stalls the search whenever the step toward a bottleneck
//! first lowers the score. Growing an input is penalized when the documented class already
//! predicts the growth (an insertion sort documented O(n^2) scores less at 16 sorted keys
//! than at none), and a bug that needs two mutations at once gives nothing for the first.
//! A node that opens a niche (a size not reached before) or beats the niche's cost (more
//! work at the same size) is novel; strategies expand novel nodes even when their score is
//! below their parent's, and restart from niche elites, so the search keeps moving.

use std::collections::BTreeMap;

use crate::search::objective::Obs;

/// Niches per doubling of the input size.
pub const BANDS_PER_OCTAVE: f64 = 4.0;

/// A niche: the size band and, for the relative oracle, the side of the gap
/// (`Some(true)`: the version under analysis costs more).
pub type Niche = (u32, Option<bool>);

/// The niche of an observation.
pub fn niche(o: &Obs) -> Niche {
    let band = ((o.size as f64 + 1.0).log2() * BANDS_PER_OCTAVE).floor() as u32;
    (band, o.cost_ref.map(|r| o.cost >= r))
}

/// What an observation's niche ranks by: the cost, or the size of the gap between the
/// versions (relative oracle).
pub fn value(o: &Obs) -> f64 {
    match o.cost_ref {
        Some(r) => (o.cost - r).abs(),
        None => o.cost,
    }
}

/// The elite of each niche.
#[derive(Clone, Debug, Default)]
pub struct Archive {
    elites: BTreeMap<Niche, (f64, usize)>,
}

impl Archive {
    /// Offers node `id` with observation `o`; true when it becomes its niche's elite (a new
    /// niche, or a strictly higher value than the elite's).
    pub fn offer(&mut self, o: &Obs, id: usize) -> bool {
        let v = value(o);
        if !v.is_finite() {
            return false;
        }
        match self.elites.get(&niche(o)) {
            Some((best, _)) if *best >= v => false,
            _ => {
                self.elites.insert(niche(o), (v, id));
                true
            }
        }
    }

    /// The current elites, in niche order (deterministic).
    pub fn elites(&self) -> Vec<usize> {
        self.elites.values().map(|(_, id)| *id).collect()
    }

    /// Whether `id` is currently the elite of a niche.
    pub fn is_elite(&self, o: &Obs, id: usize) -> bool {
        self.elites.get(&niche(o)).is_some_and(|(_, e)| *e == id)
    }

    /// Number of niches reached.
    pub fn len(&self) -> usize {
        self.elites.len()
    }

    /// True before any offer succeeded.
    pub fn is_empty(&self) -> bool {
        self.elites.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn obs(size: u64, cost: f64) -> Obs {
        Obs {
            size,
            cost,
            cost_ref: None,
        }
    }

    #[test]
    fn new_sizes_and_higher_costs_are_novel() {
        let mut a = Archive::default();
        assert!(a.offer(&obs(0, 0.0), 0));
        assert!(a.offer(&obs(16, 15.0), 1), "a new size band");
        assert!(!a.offer(&obs(16, 15.0), 2), "equal cost is not novel");
        assert!(!a.offer(&obs(16, 3.0), 3));
        assert!(a.offer(&obs(16, 120.0), 4), "more work at the same size");
        assert_eq!(a.elites(), vec![0, 4]);
        assert!(a.is_elite(&obs(16, 120.0), 4));
        assert!(!a.is_elite(&obs(16, 15.0), 1));
    }

    #[test]
    fn relative_niches_keep_both_sides() {
        let mut a = Archive::default();
        let slower = Obs {
            size: 8,
            cost: 30.0,
            cost_ref: Some(10.0),
        };
        let faster = Obs {
            size: 8,
            cost: 10.0,
            cost_ref: Some(25.0),
        };
        assert!(a.offer(&slower, 0));
        assert!(a.offer(&faster, 1), "the other side is its own niche");
        assert_eq!(a.len(), 2);
    }
}
