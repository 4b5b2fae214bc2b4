//! Fixed versions of planted bottlenecks (`EnumeratedDistribution`, `TombstoneSet`), for checking that exported regression tests pass
//! once a bottleneck is fixed (`tests/export.rs` points an exported test's `Subject` alias
//! at them). They are not registered: the search never sees them.

use std::collections::HashMap;

use perfsyn_profiler_ipc::probe::FixedState;

/// [`EnumeratedDistribution`](crate::planted::EnumeratedDistribution) with the O(1)
/// `probability` its documentation promises: one lookup in the count map instead of a scan
/// over the distinct values. Same constructors and methods.
#[derive(Debug, Clone, Default)]
pub struct FixedEnumeratedDistribution {
    counts: HashMap<i64, u64, FixedState>,
    total: u64,
}

impl FixedEnumeratedDistribution {
    /// An empty distribution (no observations).
    pub fn new() -> FixedEnumeratedDistribution {
        FixedEnumeratedDistribution::default()
    }

    /// Records one observation of `x`. Expected O(1) (amortized).
    pub fn add(&mut self, x: i64) {
        *self.counts.entry(x).or_insert(0) += 1;
        self.total += 1;
    }

    /// The probability that the distribution takes the value `x`: P(X = x). O(1).
    ///
    /// The lookup's comparison counts as one probe operation, as each comparison of the
    /// planted version's scan does, so the two are measured alike.
    pub fn probability(&self, x: i64) -> f64 {
        if self.total == 0 {
            return 0.0;
        }
        perfsyn_profiler_ipc::probe::count_op();
        self.counts
            .get(&x)
            .map_or(0.0, |&c| c as f64 / self.total as f64)
    }

    /// The number of observations. O(1).
    pub fn sample_size(&self) -> u64 {
        self.total
    }

    /// The number of distinct values.
    pub fn support_size(&self) -> usize {
        self.counts.len()
    }
}

/// [`TombstoneSet`](crate::planted::TombstoneSet) with the O(1) `is_empty` its
/// documentation promises: a count of live values kept beside the slots. Same constructors
/// and methods.
#[derive(Debug, Clone, Default)]
pub struct FixedTombstoneSet {
    slots: Vec<Option<u64>>,
    index: HashMap<u64, usize, FixedState>,
    live: usize,
}

impl FixedTombstoneSet {
    /// An empty set.
    pub fn new() -> FixedTombstoneSet {
        FixedTombstoneSet::default()
    }

    /// Adds `x`; false if it was present.
    pub fn insert(&mut self, x: u64) -> bool {
        if self.index.contains_key(&x) {
            return false;
        }
        self.index.insert(x, self.slots.len());
        self.slots.push(Some(x));
        self.live += 1;
        true
    }

    /// Removes `x`, leaving a tombstone; false if it was absent.
    pub fn remove(&mut self, x: u64) -> bool {
        match self.index.remove(&x) {
            Some(i) => {
                self.slots[i] = None;
                self.live -= 1;
                true
            }
            None => false,
        }
    }

    /// Whether `x` is in the set.
    pub fn contains(&self, x: u64) -> bool {
        self.index.contains_key(&x)
    }

    /// The number of live values. O(1).
    pub fn len(&self) -> usize {
        self.live
    }

    /// Whether the set has no live value. O(1).
    pub fn is_empty(&self) -> bool {
        self.live == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::planted::EnumeratedDistribution;

    #[test]
    fn fixed_distribution_agrees_with_the_planted_one() {
        let mut a = EnumeratedDistribution::new();
        let mut b = FixedEnumeratedDistribution::new();
        for i in 0..100i64 {
            a.add(i % 7);
            b.add(i % 7);
        }
        for x in -1..9 {
            assert_eq!(a.probability(x), b.probability(x), "x = {x}");
        }
        assert_eq!(a.sample_size(), b.sample_size());
        assert_eq!(a.support_size(), b.support_size());
    }

    #[test]
    fn fixed_tombstone_set_agrees_with_the_planted_one() {
        let mut a = crate::planted::TombstoneSet::new();
        let mut b = FixedTombstoneSet::new();
        for x in [3u64, 5, 3, 9] {
            assert_eq!(a.insert(x), b.insert(x));
        }
        for x in [5u64, 5, 7] {
            assert_eq!(a.remove(x), b.remove(x));
        }
        assert_eq!((a.len(), a.is_empty()), (b.len(), b.is_empty()));
        assert_eq!(a.contains(9), b.contains(9));
    }
}
