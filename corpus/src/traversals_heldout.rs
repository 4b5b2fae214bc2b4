//! The held-out part of `perfsyn bench toddler`'s labeled loops (`cases/toddler.json`, the
//! cases with `"split": "held-out"`). Written and labeled before the oracle ever ran on them,
//! after the rule's last change; the rule is not to be tuned on them (the cases in
//! `traversals.rs` are the tuning part). Shapes differ from the tuning part on purpose: real
//! pointers (boxed lists), string keys, data that grows during the loop, strided access,
//! and an all-pairs computation whose output needs every pair.
//!
//! Labels follow the paper (`../shared/seeds/002_…`, sections II and IV-C): a bug is a loop
//! whose iterations redo a traversal a simple change removes (an index, a running value);
//! a non-bug reads each datum once over the loop, reads a few values, or needs every pair.

use std::collections::{BinaryHeap, HashSet};

use perfsyn_profiler_ipc::probe::FixedState;
use perfsyn_profiler_ipc::register_type;

/// A boxed singly linked list node.
#[derive(Debug, Clone)]
struct Node {
    value: u64,
    next: Option<Box<Node>>,
}

/// Held-out loops that redo work across iterations (bugs).
#[derive(Debug, Clone, Default)]
pub struct HeldOutBugs {
    /// An association list: (key, value) pairs searched linearly.
    pairs: Vec<(u64, u64)>,
    /// Names, searched by string equality.
    names: Vec<String>,
    /// A boxed linked list (newest first).
    head: Option<Box<Node>>,
    len: usize,
    /// Samples; `record` appends one per call.
    samples: Vec<u64>,
}

impl HeldOutBugs {
    /// Empty.
    pub fn new() -> HeldOutBugs {
        HeldOutBugs::default()
    }

    /// Adds `x` to every structure. O(1) amortized.
    pub fn add(&mut self, x: u64) {
        self.pairs.push((x, x ^ 0x55));
        self.names.push(format!("item-{x:08}"));
        let next = self.head.take();
        self.head = Some(Box::new(Node { value: x, next }));
        self.len += 1;
        self.samples.push(x);
    }

    /// The number of values.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether empty.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// An association list's update: the key's pair is found by a scan of all pairs per call.
    pub fn assoc_bump(&mut self, k: u64) -> u64 {
        for p in self.pairs.iter_mut() {
            if p.0 == k {
                p.1 += 1;
                return p.1;
            }
        }
        0
    }

    /// A name's position by a scan of every name, per call (string keys).
    pub fn name_position(&self, i: u64) -> u64 {
        let want = format!("item-{:08}", i.wrapping_mul(7919));
        self.names
            .iter()
            .position(|n| *n == want)
            .unwrap_or(usize::MAX) as u64
    }

    /// The `i`th node of a boxed linked list, walked from the head per call.
    pub fn boxed_nth(&self, i: u64) -> u64 {
        let mut at = self.head.as_deref();
        let mut k = 0;
        while let Some(n) = at {
            if k == i {
                return n.value;
            }
            k += 1;
            at = n.next.as_deref();
        }
        0
    }

    /// A running minimum recomputed over every sample after each new sample.
    pub fn record(&mut self, x: u64) -> u64 {
        self.samples.push(x);
        self.samples.iter().copied().min().unwrap_or(0)
    }

    /// The sum of the first `i` samples, recomputed from the start per `i` (a running sum
    /// would do).
    pub fn sum_first(&self, i: u64) -> u64 {
        self.samples
            .iter()
            .take(i as usize + 16)
            .fold(0u64, |a, &v| a.wrapping_add(v))
    }
}

/// Held-out loops that look redundant and are not bugs.
#[derive(Debug, Clone, Default)]
pub struct HeldOutNonBugs {
    values: Vec<u64>,
    sorted_a: Vec<u64>,
    sorted_b: Vec<u64>,
    merge_at: (usize, usize),
    back: usize,
    set: HashSet<u64, FixedState>,
    heap: BinaryHeap<u64>,
    bits: Vec<u64>,
}

/// Six constant (code, weight) entries, fewer than Toddler's minLCS of 7.
const CODES: [(u64, u64); 6] = [(3, 10), (5, 20), (8, 30), (13, 40), (21, 50), (34, 60)];

impl HeldOutNonBugs {
    /// Empty.
    pub fn new() -> HeldOutNonBugs {
        HeldOutNonBugs::default()
    }

    /// Adds `x` to every structure. O(n) for the sorted copies.
    pub fn add(&mut self, x: u64) {
        self.values.push(x);
        let into = if x & 1 == 0 {
            &mut self.sorted_a
        } else {
            &mut self.sorted_b
        };
        let at = into.partition_point(|&v| v < x);
        into.insert(at, x);
        self.set.insert(x);
        self.heap.push(x);
        let bit = (x % 4096) as usize;
        if self.bits.len() <= bit / 64 {
            self.bits.resize(bit / 64 + 1, 0);
        }
        self.bits[bit / 64] |= 1 << (bit % 64);
    }

    /// The number of values.
    pub fn len(&self) -> usize {
        self.values.len()
    }

    /// Whether empty.
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// All pairs whose every result is output: the distances from value `i` to every value,
    /// as a row of a distance matrix (each call returns a different row; a checksum stands in
    /// for the row).
    pub fn distance_row(&self, i: u64) -> u64 {
        let x = self.values[i as usize % self.values.len().max(1)];
        let row: Vec<u64> = self.values.iter().map(|&v| v.abs_diff(x)).collect();
        row.iter()
            .enumerate()
            .fold(0u64, |a, (k, &d)| a ^ d.rotate_left(k as u32 % 64))
    }

    /// One step of a merge of two sorted vectors: each call reads one value of each.
    pub fn merge_next(&mut self, _x: u64) -> u64 {
        let (i, j) = self.merge_at;
        let (a, b) = (self.sorted_a.get(i), self.sorted_b.get(j));
        match (a, b) {
            (Some(&x), Some(&y)) if x <= y => {
                self.merge_at.0 += 1;
                x
            }
            (_, Some(&y)) => {
                self.merge_at.1 += 1;
                y
            }
            (Some(&x), None) => {
                self.merge_at.0 += 1;
                x
            }
            (None, None) => 0,
        }
    }

    /// A cursor walking from the end, one value per call.
    pub fn next_back(&mut self, _x: u64) -> u64 {
        self.back += 1;
        let n = self.values.len();
        if self.back > n {
            return 0;
        }
        self.values[n - self.back]
    }

    /// Column `c` of the values as an 8-column row-major matrix, summed: each call reads a
    /// different column (strided), each cell once over 8 calls.
    pub fn column_sum(&self, c: u64) -> u64 {
        let c = c as usize % 8;
        self.values
            .iter()
            .skip(c)
            .step_by(8)
            .fold(0u64, |a, &v| a.wrapping_add(v))
    }

    /// A scan of a six-entry constant table.
    pub fn code_weight(&self, x: u64) -> u64 {
        let key = CODES[x as usize % CODES.len()].0;
        CODES
            .iter()
            .find(|&&(c, _)| c == key)
            .map(|&(_, w)| w)
            .unwrap_or(0)
    }

    /// A hash-set membership test.
    pub fn set_contains(&self, x: u64) -> u64 {
        self.set.contains(&x) as u64
    }

    /// The heap's top.
    pub fn heap_top(&self, _x: u64) -> u64 {
        self.heap.peek().copied().unwrap_or(0)
    }

    /// One bit of a bitset.
    pub fn bit(&self, i: u64) -> u64 {
        let b = (i.wrapping_mul(97) % 4096) as usize;
        self.bits.get(b / 64).map_or(0, |w| (w >> (b % 64)) & 1)
    }
}

/// Held-out loops inside one call (called once: `"calls": 1`), each calling a helper per
/// element: bugs and non-bugs. Written and labeled before the oracle ran on them.
#[derive(Debug, Clone, Default)]
pub struct HeldOutInner {
    values: Vec<u64>,
    /// A singly linked list over the values, newest first: (value, next index; MAX ends).
    list: Vec<(u64, usize)>,
    head: usize,
    names: Vec<String>,
    factor: u64,
    /// A distance matrix filled by [`HeldOutInner::distances`], kept as output.
    dist: Vec<u64>,
}

/// Six constant bucket bounds (fewer than Toddler's minLCS of 7).
const BOUNDS: [u64; 6] = [1 << 4, 1 << 8, 1 << 12, 1 << 16, 1 << 19, u64::MAX];

impl HeldOutInner {
    /// Empty.
    pub fn new() -> HeldOutInner {
        HeldOutInner {
            head: usize::MAX,
            factor: 3,
            ..HeldOutInner::default()
        }
    }

    /// Adds `x` everywhere. O(1) amortized.
    pub fn add(&mut self, x: u64) {
        self.values.push(x);
        self.list.push((x, self.head));
        self.head = self.list.len() - 1;
        self.names.push(format!("name-{:06}", x % 1000));
    }

    /// The number of values.
    pub fn len(&self) -> usize {
        self.values.len()
    }

    /// Whether empty.
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// Whether the linked list holds `x`: a walk from the head.
    fn in_list(&self, x: u64) -> bool {
        let mut at = self.head;
        while at != usize::MAX {
            if self.list[at].0 == x {
                return true;
            }
            at = self.list[at].1;
        }
        false
    }

    /// BUG: how many values the linked list holds, walking it per value: quadratic in one call.
    pub fn common(&self, _x: u64) -> u64 {
        self.values.iter().filter(|&&v| self.in_list(v)).count() as u64
    }

    /// Whether `name` is among `kept` (string equality).
    fn known(kept: &[&str], name: &str) -> bool {
        kept.iter().any(|k| *k == name)
    }

    /// BUG: the distinct names, each checked against those kept so far: quadratic in one call.
    pub fn distinct_names(&self, _x: u64) -> u64 {
        let mut kept: Vec<&str> = Vec::new();
        for n in &self.names {
            if !Self::known(&kept, n) {
                kept.push(n);
            }
        }
        kept.len() as u64
    }

    /// Value `k` scaled: reads that value and the factor.
    fn scaled(&self, k: usize) -> u64 {
        self.values[k].wrapping_mul(self.factor)
    }

    /// NOT A BUG: a helper per value reading its value (and one constant field): linear.
    pub fn scaled_sum(&self, _x: u64) -> u64 {
        (0..self.values.len()).fold(0u64, |a, k| a.wrapping_add(self.scaled(k)))
    }

    /// The bucket of `v`: a binary search of six constant bounds.
    fn bucket(v: u64) -> usize {
        BOUNDS.partition_point(|&b| b <= v)
    }

    /// NOT A BUG: a histogram, a helper per value over a small constant table: linear.
    pub fn histogram(&self, _x: u64) -> u64 {
        let mut h = [0u64; 7];
        for &v in &self.values {
            h[Self::bucket(v)] += 1;
        }
        h.iter().enumerate().fold(0, |a, (k, &c)| a ^ (c << k))
    }

    /// Writes row `i` of the distance matrix.
    fn distance_row(&mut self, i: usize) {
        let n = self.values.len();
        let x = self.values[i];
        for k in 0..n {
            self.dist[i * n + k] = self.values[k].abs_diff(x);
        }
    }

    /// NOT A BUG: the distance matrix, a row per value by a helper (output-bound: n^2
    /// results kept).
    pub fn distances(&mut self, _x: u64) -> u64 {
        let n = self.values.len();
        self.dist.clear();
        self.dist.resize(n * n, 0);
        for i in 0..n {
            self.distance_row(i);
        }
        self.dist.iter().fold(0u64, |a, &d| a.wrapping_add(d))
    }
}

register_type! {
    /// The held-out bug patterns of `bench toddler`: each method redoes a traversal across
    /// the calls of a loop.
    pub fn held_out_bugs() -> HeldOutBugs {
        path: "HeldOutBugs",
        imports: ["perfsyn_corpus::traversals_heldout::HeldOutBugs"],
        version: None,
        size: [|r| r.len() as u64],
        ctors { new() => HeldOutBugs::new(); }
        methods {
            add(mut self, x: copy u64);
            assoc_bump(mut self, x: copy u64) -> u64;
            name_position(ref self, x: copy u64) -> u64;
            boxed_nth(ref self, x: copy u64) -> u64;
            record(mut self, x: copy u64) -> u64;
            sum_first(ref self, x: copy u64) -> u64;
        }
        fields {}
    }

    /// The held-out non-bugs of `bench toddler`: loops that look redundant.
    pub fn held_out_non_bugs() -> HeldOutNonBugs {
        path: "HeldOutNonBugs",
        imports: ["perfsyn_corpus::traversals_heldout::HeldOutNonBugs"],
        version: None,
        size: [|r| r.len() as u64],
        ctors { new() => HeldOutNonBugs::new(); }
        methods {
            add(mut self, x: copy u64);
            distance_row(ref self, x: copy u64) -> u64;
            merge_next(mut self, x: copy u64) -> u64;
            next_back(mut self, x: copy u64) -> u64;
            column_sum(ref self, x: copy u64) -> u64;
            code_weight(ref self, x: copy u64) -> u64;
            set_contains(ref self, x: copy u64) -> u64;
            heap_top(ref self, x: copy u64) -> u64;
            bit(ref self, x: copy u64) -> u64;
        }
        fields {}
    }

    /// The held-out loops inside one call of `bench toddler`.
    pub fn held_out_inner() -> HeldOutInner {
        path: "HeldOutInner",
        imports: ["perfsyn_corpus::traversals_heldout::HeldOutInner"],
        version: None,
        size: [|r| r.len() as u64],
        ctors { new() => HeldOutInner::new(); }
        methods {
            add(mut self, x: copy u64);
            common(ref self, x: copy u64) -> u64;
            distinct_names(ref self, x: copy u64) -> u64;
            scaled_sum(ref self, x: copy u64) -> u64;
            histogram(ref self, x: copy u64) -> u64;
            distances(mut self, x: copy u64) -> u64;
        }
        fields {}
    }
}
