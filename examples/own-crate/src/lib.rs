//! A small collections crate, written as ordinary Rust with documented complexities. Two of
//! its methods do not keep their promise: `Inbox::add_unique` is accidentally quadratic over
//! a series of calls (each call scans every earlier message), and `Tally::total` is
//! documented O(1) but sums every value.

pub mod inbox;

pub use inbox::Inbox;

/// A set of small integers kept sorted.
#[derive(Debug, Default, Clone)]
pub struct SortedSet {
    items: Vec<u64>,
}

impl SortedSet {
    /// An empty set.
    pub fn new() -> SortedSet {
        SortedSet::default()
    }

    /// Inserts `x`; returns whether it was new. Runs in O(n) time (binary search, then a shift).
    pub fn insert(&mut self, x: u64) -> bool {
        match self.items.binary_search(&x) {
            Ok(_) => false,
            Err(i) => {
                self.items.insert(i, x);
                true
            }
        }
    }

    /// Whether `x` is in the set. Runs in O(log n) time.
    pub fn contains(&self, x: u64) -> bool {
        self.items.binary_search(&x).is_ok()
    }

    /// The number of elements. O(1).
    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// Whether the set is empty. O(1).
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }
}

/// A running tally of values.
#[derive(Debug, Default, Clone)]
pub struct Tally {
    values: Vec<u64>,
}

impl Tally {
    /// An empty tally.
    pub fn new() -> Tally {
        Tally::default()
    }

    /// Records `x`. Amortized O(1).
    pub fn record(&mut self, x: u64) {
        self.values.push(x % 1000);
    }

    /// The sum of every recorded value. Runs in O(1) time.
    pub fn total(&self) -> u64 {
        // The bug: sums on every call instead of keeping a running total.
        self.values.iter().sum()
    }
}
