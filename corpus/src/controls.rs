//! Negative controls for `perfsyn suite`: targets the oracles must NOT report. A suite that
//! detects every bottleneck but also flags correct code would be worthless; these cases
//! measure its false positives.
//!
//! * Version groups with behaviour-preserving refactors of the same cost: `RingBuffer`
//!   (index arithmetic extracted into a helper) and `SortedKeys` (a `match` on
//!   `binary_search` rewritten as `if let`, a loop rewritten with an iterator adaptor that
//!   compiles to the same loop). The relative oracle must find no program where one version
//!   costs 1.2x the other.
//! * Methods that meet their documented class: [`PrefixSums`] (`total` O(1), `range_sum`
//!   O(1), `rebuild` O(n) documented O(n)).
//!
//! The suite also uses existing methods as controls (std collections with their documented
//! classes, `MinStack`, the planted types' correct methods, and the unchanged methods of the
//! Table 3.2 groups); see `synth/src/commands/suite/`.

use std::marker::PhantomData;

use perfsyn_profiler_ipc::probe::Key;
use perfsyn_profiler_ipc::register_type;

use crate::table32::{New, Old, Version};

/// A bounded FIFO queue over a fixed ring of slots; `push` on a full ring drops the oldest.
///
/// CONTROL: the new version extracts the wrap-around arithmetic into [`wrap`] (inlined), a
/// refactor with the same behaviour and the same cost.
#[derive(Debug, Clone)]
pub struct RingBuffer<V> {
    slots: Vec<Option<Key>>,
    head: usize,
    len: usize,
    _v: PhantomData<V>,
}

/// The ring buffer before the refactor.
pub type OldRingBuffer = RingBuffer<Old>;
/// The ring buffer after the refactor.
pub type NewRingBuffer = RingBuffer<New>;

/// The capacity of every ring buffer.
pub const RING_CAPACITY: usize = 1024;

impl<V: Version> Default for RingBuffer<V> {
    fn default() -> Self {
        RingBuffer {
            slots: vec![None; RING_CAPACITY],
            head: 0,
            len: 0,
            _v: PhantomData,
        }
    }
}

#[inline(always)]
fn wrap(i: usize, cap: usize) -> usize {
    if i >= cap {
        i - cap
    } else {
        i
    }
}

impl<V: Version> RingBuffer<V> {
    /// An empty ring.
    pub fn new() -> Self {
        Self::default()
    }

    /// Appends `x`, dropping the oldest element when full. O(1).
    pub fn push(&mut self, x: Key) {
        let cap = self.slots.len();
        let tail = if V::NEW {
            wrap(self.head + self.len, cap)
        } else {
            let t = self.head + self.len;
            if t >= cap {
                t - cap
            } else {
                t
            }
        };
        self.slots[tail] = Some(x);
        if self.len == cap {
            self.head = if V::NEW {
                wrap(self.head + 1, cap)
            } else {
                let h = self.head + 1;
                if h >= cap {
                    h - cap
                } else {
                    h
                }
            };
        } else {
            self.len += 1;
        }
    }

    /// Removes the oldest element. O(1).
    pub fn pop(&mut self) -> Option<Key> {
        if self.len == 0 {
            return None;
        }
        let cap = self.slots.len();
        let x = self.slots[self.head].take();
        self.head = if V::NEW {
            wrap(self.head + 1, cap)
        } else {
            let h = self.head + 1;
            if h >= cap {
                h - cap
            } else {
                h
            }
        };
        self.len -= 1;
        x
    }

    /// The number of elements. O(1).
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the ring is empty. O(1).
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

/// A sorted vector of distinct keys.
///
/// CONTROL: the new version rewrites `insert`'s `match` as `if let` and `count_below`'s
/// explicit loop as `take_while().count()`; same behaviour, same cost.
#[derive(Debug, Clone, Default)]
pub struct SortedKeys<V> {
    keys: Vec<Key>,
    _v: PhantomData<V>,
}

/// Sorted keys before the refactor.
pub type OldSortedKeys = SortedKeys<Old>;
/// Sorted keys after the refactor.
pub type NewSortedKeys = SortedKeys<New>;

impl<V: Version> SortedKeys<V> {
    /// No keys.
    pub fn new() -> Self {
        Self::default()
    }

    /// Inserts `x` at its place; false if present. O(n) (the shift).
    pub fn insert(&mut self, x: Key) -> bool {
        if V::NEW {
            if let Err(i) = self.keys.binary_search(&x) {
                self.keys.insert(i, x);
                true
            } else {
                false
            }
        } else {
            match self.keys.binary_search(&x) {
                Ok(_) => false,
                Err(i) => {
                    self.keys.insert(i, x);
                    true
                }
            }
        }
    }

    /// Whether `x` is present. O(log n).
    pub fn contains(&self, x: &Key) -> bool {
        self.keys.binary_search(x).is_ok()
    }

    /// The number of keys below `x`, counted from the front. O(n).
    pub fn count_below(&self, x: &Key) -> usize {
        if V::NEW {
            self.keys.iter().take_while(|k| *k < x).count()
        } else {
            let mut n = 0;
            for k in &self.keys {
                if k >= x {
                    break;
                }
                n += 1;
            }
            n
        }
    }

    /// The number of keys. O(1).
    pub fn len(&self) -> usize {
        self.keys.len()
    }

    /// Whether there is no key. O(1).
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }
}

/// Prefix sums over a growing sequence of `u64`s, rebuilt on demand.
///
/// CONTROL: every method meets its documented class, including an O(n) method documented
/// O(n) (`rebuild`).
#[derive(Debug, Clone, Default)]
pub struct PrefixSums {
    values: Vec<u64>,
    /// `sums[i]` is the sum of `values[..i]`; valid up to `values.len()` after `rebuild`.
    sums: Vec<u64>,
    total: u64,
}

impl PrefixSums {
    /// No values.
    pub fn new() -> PrefixSums {
        PrefixSums {
            values: Vec::new(),
            sums: vec![0],
            total: 0,
        }
    }

    /// Appends `x`, keeping the running total and the prefix sums. O(1) amortized.
    pub fn push(&mut self, x: u64) {
        self.values.push(x);
        self.total = self.total.wrapping_add(x);
        self.sums.push(self.total);
    }

    /// The sum of all values. O(1).
    pub fn total(&self) -> u64 {
        self.total
    }

    /// The sum of `values[from..to]` (indices clamped). O(1).
    pub fn range_sum(&self, from: usize, to: usize) -> u64 {
        let n = self.values.len();
        let (a, b) = (from.min(n), to.min(n));
        if a >= b {
            return 0;
        }
        self.sums[b].wrapping_sub(self.sums[a])
    }

    /// Recomputes every prefix sum from the values. O(n).
    pub fn rebuild(&mut self) {
        self.sums.clear();
        self.sums.push(0);
        let mut s = 0u64;
        for &v in &self.values {
            s = s.wrapping_add(v);
            self.sums.push(s);
        }
        self.total = s;
    }

    /// The number of values.
    pub fn len(&self) -> usize {
        self.values.len()
    }

    /// Whether there is no value.
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }
}

register_type! {
    /// A ring buffer before a behaviour-preserving refactor (negative control).
    pub fn ring_buffer_old() -> OldRingBuffer {
        path: "RingBuffer",
        imports: ["perfsyn_corpus::controls::OldRingBuffer"],
        version: Some(("RingBuffer", "old")),
        size: [|r| r.len() as u64],
        ctors { new() => OldRingBuffer::new(); }
        methods {
            push(mut self, x: val Key) ["O(1)"];
            pop(mut self) ["O(1)"];
            len(ref self) -> usize ["O(1)"];
        }
        fields {}
    }

    /// A ring buffer after a behaviour-preserving refactor (negative control).
    pub fn ring_buffer_new() -> NewRingBuffer {
        path: "RingBuffer",
        imports: ["perfsyn_corpus::controls::NewRingBuffer"],
        version: Some(("RingBuffer", "new")),
        size: [|r| r.len() as u64],
        ctors { new() => NewRingBuffer::new(); }
        methods {
            push(mut self, x: val Key) ["O(1)"];
            pop(mut self) ["O(1)"];
            len(ref self) -> usize ["O(1)"];
        }
        fields {}
    }

    /// Sorted keys before a behaviour-preserving refactor (negative control).
    pub fn sorted_keys_old() -> OldSortedKeys {
        path: "SortedKeys",
        imports: ["perfsyn_corpus::controls::OldSortedKeys"],
        version: Some(("SortedKeys", "old")),
        size: [|s| s.len() as u64],
        ctors { new() => OldSortedKeys::new(); }
        methods {
            insert(mut self, x: val Key) -> bool ["O(n)"];
            contains(ref self, x: ref Key) -> bool ["O(log n)"];
            count_below(ref self, x: ref Key) -> usize ["O(n)"];
            len(ref self) -> usize ["O(1)"];
        }
        fields {}
    }

    /// Sorted keys after a behaviour-preserving refactor (negative control).
    pub fn sorted_keys_new() -> NewSortedKeys {
        path: "SortedKeys",
        imports: ["perfsyn_corpus::controls::NewSortedKeys"],
        version: Some(("SortedKeys", "new")),
        size: [|s| s.len() as u64],
        ctors { new() => NewSortedKeys::new(); }
        methods {
            insert(mut self, x: val Key) -> bool ["O(n)"];
            contains(ref self, x: ref Key) -> bool ["O(log n)"];
            count_below(ref self, x: ref Key) -> usize ["O(n)"];
            len(ref self) -> usize ["O(1)"];
        }
        fields {}
    }

    /// Prefix sums whose methods meet their documented classes (negative control).
    pub fn prefix_sums() -> PrefixSums {
        path: "PrefixSums",
        imports: ["perfsyn_corpus::controls::PrefixSums"],
        version: None,
        size: [|p| p.len() as u64],
        ctors { new() => PrefixSums::new(); }
        methods {
            // Documented "O(1) amortized"; it is.
            push(mut self, x: copy u64) ["O(1)"];
            // Documented "O(1)"; it is.
            total(ref self) -> u64 ["O(1)"];
            // Documented "O(1)"; it is.
            range_sum(ref self, from: copy usize, to: copy usize) -> u64 ["O(1)"];
            // Documented "O(n)"; it is.
            rebuild(mut self) ["O(n)"];
        }
        fields {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refactors_preserve_behaviour() {
        let mut a = OldRingBuffer::new();
        let mut b = NewRingBuffer::new();
        for i in 0..(RING_CAPACITY as u64 + 10) {
            a.push(Key(i));
            b.push(Key(i));
        }
        assert_eq!(a.pop().map(|k| k.get()), b.pop().map(|k| k.get()));
        assert_eq!(a.len(), b.len());

        let mut s = OldSortedKeys::new();
        let mut t = NewSortedKeys::new();
        for i in [5, 3, 9, 3, 1] {
            assert_eq!(s.insert(Key(i)), t.insert(Key(i)));
        }
        assert_eq!(s.count_below(&Key(6)), 3);
        assert_eq!(t.count_below(&Key(6)), 3);

        let mut p = PrefixSums::new();
        for i in 1..=4 {
            p.push(i);
        }
        p.rebuild();
        assert_eq!(p.range_sum(1, 3), 5);
        assert_eq!(p.total(), 10);
    }
}
