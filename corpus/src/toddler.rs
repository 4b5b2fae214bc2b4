//! The two loop bugs of Figures 1 and 2 of the Toddler paper (`../shared/seeds/002_…`), as
//! targets of the asymptotic oracle: an outer loop whose inner loop redoes work that does not
//! change between iterations (Toddler's repeated memory-access pattern) shows as a documented
//! linear method that is quadratic.
//!
//! * [`CandlestickRenderer::draw`], from JFreeChart's `CandlestickRenderer` (Figure 1): the
//!   chart draws every item, and drawing one item recomputes the maximum volume over all
//!   items. Documented O(n) (one draw per item); O(n^2). The fix cached the maximum.
//! * [`JavaHashSet::remove_all`], from Java's `AbstractSet.removeAll` called by Google Core
//!   Libraries with an `ArrayList` argument (Figure 2): when the set is not larger than the
//!   argument, it iterates the set and asks the *list* `contains`, a linear search.
//!   Documented O(n) in the sizes of both (each element of the smaller side is looked up
//!   once, at the cost of a hash lookup); O(n·m) when the list is the larger side.
//!
//! From the paper: the loops, the redundant or linear inner computation, and the size test
//! of `removeAll`. Ours: Rust types, probe keys as elements, the volume as a `u64`, and the
//! drawing reduced to accumulating a scaled bar height per item.

use std::collections::HashSet;

use perfsyn_profiler_ipc::probe::{FixedState, Key};
use perfsyn_profiler_ipc::register_type;

/// The items of a candlestick chart (only their volumes), drawn one by one.
#[derive(Debug, Clone, Default)]
pub struct CandlestickRenderer {
    volumes: Vec<u64>,
}

impl CandlestickRenderer {
    /// A chart with no item.
    pub fn new() -> CandlestickRenderer {
        CandlestickRenderer::default()
    }

    /// Adds an item with `volume`. O(1) amortized.
    pub fn add_item(&mut self, volume: u64) {
        self.volumes.push(volume);
    }

    /// The number of items.
    pub fn len(&self) -> usize {
        self.volumes.len()
    }

    /// Whether the chart has no item.
    pub fn is_empty(&self) -> bool {
        self.volumes.is_empty()
    }

    /// Draws every item; returns the sum of the drawn bar heights (so the work is not dead).
    /// Documented O(n).
    ///
    /// PLANTED (Toddler, Figure 1): `draw_item` recomputes the maximum volume of all items
    /// for every item, O(n^2).
    pub fn draw(&self) -> u64 {
        let mut total = 0u64;
        for i in 0..self.volumes.len() {
            total = total.wrapping_add(self.draw_item(i));
        }
        total
    }

    /// `drawVerticalItem`: the height of item `i`'s volume bar, scaled to the largest volume.
    fn draw_item(&self, i: usize) -> u64 {
        let mut max_volume = 1u64;
        for &v in &self.volumes {
            if v > max_volume {
                max_volume = v;
            }
        }
        self.volumes[i].saturating_mul(100) / max_volume
    }
}

/// A hash set of keys with Java's `AbstractSet.removeAll`.
#[derive(Debug, Clone, Default)]
pub struct JavaHashSet {
    set: HashSet<Key, FixedState>,
}

impl JavaHashSet {
    /// An empty set.
    pub fn new() -> JavaHashSet {
        JavaHashSet::default()
    }

    /// Adds `x`; false if present. Expected O(1).
    pub fn add(&mut self, x: Key) -> bool {
        self.set.insert(x)
    }

    /// The number of elements.
    pub fn len(&self) -> usize {
        self.set.len()
    }

    /// Whether the set is empty.
    pub fn is_empty(&self) -> bool {
        self.set.is_empty()
    }

    /// Removes every element of the list `c`; whether any was removed. Documented O(n).
    ///
    /// PLANTED (Toddler, Figure 2): when the set is not larger than `c`, every element of the
    /// set is looked up in the list with a linear search, O(n·m).
    pub fn remove_all(&mut self, c: &[Key]) -> bool {
        let mut modified = false;
        if self.set.len() > c.len() {
            for x in c {
                modified |= self.set.remove(x);
            }
        } else {
            let before = self.set.len();
            self.set.retain(|x| !c.contains(x));
            modified = self.set.len() != before;
        }
        modified
    }
}

register_type! {
    /// JFreeChart's candlestick renderer (Toddler, Figure 1): draw is O(n^2).
    pub fn candlestick_renderer() -> CandlestickRenderer {
        path: "CandlestickRenderer",
        imports: ["perfsyn_corpus::toddler::CandlestickRenderer"],
        version: None,
        size: [|r| r.len() as u64],
        ctors { new() => CandlestickRenderer::new(); }
        methods {
            // Documented "O(1)" (amortized); it is.
            add_item(mut self, volume: copy u64) ["O(1)"];
            // Documented "O(n)"; PLANTED: O(n^2).
            draw(ref self) -> u64 ["O(n)"];
        }
        fields {}
    }

    /// A hash set with Java's AbstractSet.removeAll (Toddler, Figure 2): O(n·m) with a list.
    pub fn java_hash_set() -> JavaHashSet {
        path: "JavaHashSet",
        imports: ["perfsyn_corpus::toddler::JavaHashSet"],
        version: None,
        size: [|s| s.len() as u64],
        ctors { new() => JavaHashSet::new(); }
        methods {
            // Documented "Expected O(1)"; it is.
            add(mut self, x: val Key) -> bool ["O(1)"];
            // Documented "O(n)" in both sizes; PLANTED: O(n^2) when the list is the larger.
            remove_all(mut self, c: slice Key) -> bool ["O(n)"];
        }
        fields {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_branches_of_remove_all_remove_the_same() {
        let c: Vec<Key> = (0..10).map(Key).collect();
        for n in [3, 30] {
            let mut s = JavaHashSet::new();
            for i in 0..n {
                s.add(Key(i));
            }
            assert!(s.remove_all(&c));
            assert_eq!(s.len() as u64, n.saturating_sub(10));
        }
        let mut r = CandlestickRenderer::new();
        r.add_item(50);
        r.add_item(100);
        assert_eq!(r.draw(), 150);
    }
}
