//! examples/own-crate's `Inbox` and `Tally` with their bugs fixed: the same constructors and
//! methods, keeping the complexities their documentation states.

use std::collections::HashSet;

/// Message ids in arrival order, without duplicates; `add_unique` looks an id up in a set
/// instead of scanning every earlier message.
#[derive(Debug, Default, Clone)]
pub struct Inbox {
    ids: Vec<u64>,
    seen: HashSet<u64>,
}

impl Inbox {
    /// An empty inbox.
    pub fn new() -> Inbox {
        Inbox::default()
    }

    /// Adds message `id` unless it is already there. O(1).
    pub fn add_unique(&mut self, id: u64) {
        if self.seen.insert(id) {
            self.ids.push(id);
        }
    }

    /// The number of messages. O(1).
    pub fn len(&self) -> usize {
        self.ids.len()
    }

    /// Whether the inbox is empty.
    pub fn is_empty(&self) -> bool {
        self.ids.is_empty()
    }
}

/// A running tally of values; `total` returns a sum kept up to date by `record`.
#[derive(Debug, Default, Clone)]
pub struct Tally {
    values: Vec<u64>,
    sum: u64,
}

impl Tally {
    /// An empty tally.
    pub fn new() -> Tally {
        Tally::default()
    }

    /// Records `x`. Amortized O(1).
    pub fn record(&mut self, x: u64) {
        self.values.push(x % 1000);
        self.sum += x % 1000;
    }

    /// The sum of every recorded value. Runs in O(1) time.
    pub fn total(&self) -> u64 {
        self.sum
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_results_as_the_buggy_versions() {
        let mut inbox = Inbox::new();
        for id in [3, 5, 3, 9, 5] {
            inbox.add_unique(id);
        }
        assert_eq!(inbox.len(), 3);
        let mut tally = Tally::new();
        for x in [1, 1001, 2500] {
            tally.record(x);
        }
        assert_eq!(tally.total(), 1 + 1 + 500);
    }
}
