//! Planted bottlenecks for the asymptotic oracle: methods documented "O(1)" whose
//! implementation is linear in the receiver's size, and one correct O(1) method as a
//! negative control.
//!
//! [`EnumeratedDistribution`] ports bottleneck 20 of Table 3.2 of the PerfSyn chapter
//! (`EnumIntDist.probability`, Apache Commons Math 3.6 `EnumeratedIntegerDistribution`,
//! expected O(1), found O(n)). [`TombstoneSet`] is reconstructed by us in the spirit of
//! bottleneck 21 (`NavigableMap.isEmpty`, expected O(1), found O(n)): an emptiness check
//! that counts.
//!
//! [`SmallSort`] is a correct method on purpose: an insertion sort over at most 64 keys,
//! documented O(n^2), whose worst case only the order of the keys reaches.

use std::collections::HashMap;

use perfsyn_profiler_ipc::probe::{FixedState, Key};
use perfsyn_profiler_ipc::register_type;

/// An empirical distribution over `i64` values: the probability of a value is the share of
/// the observations equal to it.
///
/// From the paper: the type (a port of Commons Math's `EnumeratedIntegerDistribution`), the
/// method `probability(x)`, its expected O(1) and its actual O(n). In Commons Math the
/// constructor takes the observations as an `int[]`, counts them in a map, and then stores
/// the distinct values and their probabilities in two parallel lists; `probability(x)`
/// loops over the whole list of distinct values, summing the probabilities of those equal
/// to `x`.
///
/// Reconstructed: observations are added one at a time through [`add`](Self::add) (our
/// programs have no `int[]` literals), which keeps the count map as an index so that adding
/// stays O(1); `probability` keeps Commons Math's linear scan over the parallel lists; the
/// "O(1)" documentation and [`sample_size`](Self::sample_size), the negative control.
#[derive(Debug, Clone, Default)]
pub struct EnumeratedDistribution {
    /// The distinct values, in order of first observation ("singletons" in Commons Math).
    singletons: Vec<i64>,
    /// The number of observations of each singleton, parallel to `singletons`.
    counts: Vec<u64>,
    /// Position of each value in `singletons`.
    index: HashMap<i64, usize, FixedState>,
    total: u64,
}

impl EnumeratedDistribution {
    /// An empty distribution (no observations).
    pub fn new() -> EnumeratedDistribution {
        EnumeratedDistribution::default()
    }

    /// Records one observation of `x`. Expected O(1) (amortized).
    pub fn add(&mut self, x: i64) {
        match self.index.get(&x) {
            Some(&i) => self.counts[i] += 1,
            None => {
                self.index.insert(x, self.singletons.len());
                self.singletons.push(x);
                self.counts.push(1);
            }
        }
        self.total += 1;
    }

    /// The probability that the distribution takes the value `x`: P(X = x). O(1).
    ///
    /// PLANTED: documented O(1), implemented like Commons Math as a scan over every distinct
    /// value, O(n) in the number of distinct values.
    ///
    /// Each comparison of a singleton with `x` counts as a probe operation (as comparing two
    /// [`Key`]s would), so that the scan is visible outside the
    /// instrumented worker: exported regression tests measure probe operations.
    pub fn probability(&self, x: i64) -> f64 {
        if self.total == 0 {
            return 0.0;
        }
        let mut p = 0.0;
        for (i, s) in self.singletons.iter().enumerate() {
            perfsyn_profiler_ipc::probe::count_op();
            if *s == x {
                p += self.counts[i] as f64 / self.total as f64;
            }
        }
        p
    }

    /// The number of observations. O(1), and truly so (the negative control).
    pub fn sample_size(&self) -> u64 {
        self.total
    }

    /// The number of distinct values (the registered input size).
    pub fn support_size(&self) -> usize {
        self.singletons.len()
    }
}

/// A set of `u64` with O(1) removal by tombstoning: a removed value leaves an empty slot
/// behind, and the index maps live values to their slots.
///
/// Reconstructed by us (not from the paper's corpus), modelled on bottleneck 21 of Table 3.2
/// (`NavigableMap.isEmpty`, documented O(1), found O(n)): `is_empty` is written as
/// `len() == 0`, and `len` counts the live slots.
#[derive(Debug, Clone, Default)]
pub struct TombstoneSet {
    slots: Vec<Option<u64>>,
    index: HashMap<u64, usize, FixedState>,
}

impl TombstoneSet {
    /// An empty set.
    pub fn new() -> TombstoneSet {
        TombstoneSet::default()
    }

    /// Adds `x`; false if it was present. Expected O(1) (amortized).
    pub fn insert(&mut self, x: u64) -> bool {
        if self.index.contains_key(&x) {
            return false;
        }
        self.index.insert(x, self.slots.len());
        self.slots.push(Some(x));
        true
    }

    /// Removes `x`, leaving a tombstone; false if it was absent. Expected O(1).
    pub fn remove(&mut self, x: u64) -> bool {
        match self.index.remove(&x) {
            Some(i) => {
                self.slots[i] = None;
                true
            }
            None => false,
        }
    }

    /// Whether `x` is in the set. Expected O(1).
    pub fn contains(&self, x: u64) -> bool {
        self.index.contains_key(&x)
    }

    /// The number of live values. O(n) in the number of slots (it counts them).
    ///
    /// Each slot examined counts as a probe operation (as `EnumeratedDistribution`'s scan
    /// does), so that the scan is visible outside the instrumented worker: an exported
    /// regression test then measures a deterministic count, not a ratio of times.
    pub fn len(&self) -> usize {
        self.slots
            .iter()
            .filter(|s| {
                perfsyn_profiler_ipc::probe::count_op();
                s.is_some()
            })
            .count()
    }

    /// Whether the set has no live value. O(1).
    ///
    /// PLANTED: documented O(1), but delegates to the counting [`len`](Self::len), O(n) in
    /// the number of slots.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The number of slots, live or tombstoned (the registered input size).
    pub fn slot_count(&self) -> usize {
        self.slots.len()
    }
}

register_type! {
    /// Commons Math's EnumeratedIntegerDistribution (PerfSyn bottleneck 20): probability(x) is O(n).
    pub fn enumerated_distribution() -> EnumeratedDistribution {
        path: "EnumeratedDistribution",
        imports: ["perfsyn_corpus::planted::EnumeratedDistribution"],
        version: None,
        size: [|d| d.support_size() as u64],
        ctors {
            new() => EnumeratedDistribution::new();
        }
        methods {
            // Documented "Expected O(1) (amortized)"; it is.
            add(mut self, x: copy i64) ["O(1)"];
            // Documented "O(1)" (as in the paper's expectation); PLANTED: O(n).
            probability(ref self, x: copy i64) ["O(1)"];
            // Documented "O(1)"; it is (negative control).
            sample_size(ref self) -> u64 ["O(1)"];
            // No complexity documented.
            support_size(ref self) -> usize;
        }
        fields {}
    }

    /// A tombstoning set whose is_empty counts its slots (after PerfSyn bottleneck 21).
    pub fn tombstone_set() -> TombstoneSet {
        path: "TombstoneSet",
        imports: ["perfsyn_corpus::planted::TombstoneSet"],
        version: None,
        size: [|s| s.slot_count() as u64],
        ctors {
            new() => TombstoneSet::new();
        }
        methods {
            // Documented "Expected O(1) (amortized)"; it is.
            insert(mut self, x: copy u64) -> bool ["O(1)"];
            // Documented "Expected O(1)"; it is.
            remove(mut self, x: copy u64) -> bool ["O(1)"];
            // Documented "Expected O(1)"; it is.
            contains(ref self, x: copy u64) -> bool ["O(1)"];
            // Documented "O(n)"; it is.
            len(ref self) -> usize ["O(n)"];
            // Documented "O(1)"; PLANTED: O(n).
            is_empty(ref self) -> bool ["O(1)"];
        }
        fields {}
    }
}

/// At most [`SMALL_SORT_CAPACITY`] probe keys and a textbook insertion sort over them.
///
/// Not a bottleneck: `insertion_sort` is documented O(n^2) and is. It exists to check that
/// the search drives cost up at a size it cannot exceed: with at most 64 keys the worst
/// case (keys in decreasing order) costs exactly 64 * 63 / 2 = 2016 comparisons, and only
/// the order of the keys, not their number, leads there.
#[derive(Debug, Clone, Default)]
pub struct SmallSort {
    keys: Vec<Key>,
}

/// The most keys a [`SmallSort`] holds; further pushes are ignored.
pub const SMALL_SORT_CAPACITY: usize = 64;

impl SmallSort {
    /// An empty sorter.
    pub fn new() -> SmallSort {
        SmallSort::default()
    }

    /// Appends `k`, or ignores it when [`SMALL_SORT_CAPACITY`] keys are held. O(1).
    pub fn push(&mut self, k: Key) {
        if self.keys.len() < SMALL_SORT_CAPACITY {
            self.keys.push(k);
        }
    }

    /// Sorts the keys by insertion. O(n^2) comparisons in the worst case (decreasing keys),
    /// n - 1 on sorted keys; every comparison is a counted probe operation.
    pub fn insertion_sort(&mut self) {
        for i in 1..self.keys.len() {
            let mut j = i;
            while j > 0 && self.keys[j - 1] > self.keys[j] {
                self.keys.swap(j - 1, j);
                j -= 1;
            }
        }
    }

    /// The number of keys held (the registered input size).
    pub fn len(&self) -> usize {
        self.keys.len()
    }

    /// Whether no key is held.
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }
}

register_type! {
    /// Up to 64 probe keys sorted by insertion (documented O(n^2), truly so).
    pub fn small_sort() -> SmallSort {
        path: "SmallSort",
        imports: ["perfsyn_corpus::planted::SmallSort"],
        version: None,
        size: [|s| s.len() as u64],
        ctors {
            new() => SmallSort::new();
        }
        methods {
            // Documented O(1); it is (pushes beyond 64 keys are ignored).
            push(mut self, k: val Key) ["O(1)"];
            // Documented O(n^2); it is.
            insertion_sort(mut self) ["O(n^2)"];
            // Documented O(1); it is.
            len(ref self) -> usize ["O(1)"];
        }
        fields {}
    }
}
