//! The labeled loops *inside one call* of `perfsyn bench toddler` (`cases/toddler.json`, the
//! cases with `"calls": 1`): each method below is called once, and its own loop calls a
//! helper once per element, so Toddler's outer loop is that loop (its call site), not the
//! program's `repeat`. Tuning split; the held-out ones are in `traversals_heldout.rs`.
//!
//! [`InnerLoops`] holds both labels: bugs (a set's `is_subset` asking a list-backed set
//! whether it contains each element; a dedup that scans its result per element: quadratic
//! in one call, fixed by a hashed set) and non-bugs of the same shape (a helper per element
//! that reads only its element; a helper over a small constant table; a helper per element
//! that writes a whole row of new results, output-bound), plus one loop across calls whose
//! every result is kept (a row of pairwise products per call: output-bound).

use perfsyn_profiler_ipc::register_type;

/// Helper-calling loops, bugs and not.
#[derive(Debug, Clone, Default)]
pub struct InnerLoops {
    /// A list-backed set's elements, in insertion order.
    items: Vec<u64>,
    /// Another list-backed set holding the same elements (inserted in the same order).
    other: Vec<u64>,
    /// A matrix filled by [`InnerLoops::products`] (row-major), kept as output.
    matrix: Vec<u64>,
    /// The last row of [`InnerLoops::product_row`], kept as output.
    row: Vec<u64>,
}

/// Five constant (upper bound, class) brackets (fewer than Toddler's minLCS of 7).
const BANDS: [(u64, u64); 5] = [
    (1 << 8, 1),
    (1 << 12, 2),
    (1 << 16, 3),
    (1 << 18, 4),
    (u64::MAX, 5),
];

impl InnerLoops {
    /// Empty.
    pub fn new() -> InnerLoops {
        InnerLoops::default()
    }

    /// Adds `x` to both sets. O(1) amortized.
    pub fn add(&mut self, x: u64) {
        self.items.push(x);
        self.other.push(x);
    }

    /// The number of elements.
    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// Whether empty.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// Whether the list-backed set `other` holds `x`: a linear search.
    fn other_contains(&self, x: u64) -> bool {
        self.other.iter().any(|&v| v == x)
    }

    /// BUG: whether every element is in `other`, asking `other` per element (Toddler's GCL
    /// `removeAll`, Figure 2): quadratic in one call.
    pub fn is_subset(&self, _x: u64) -> u64 {
        self.items.iter().all(|&v| self.other_contains(v)) as u64
    }

    /// Whether `x` is among `kept`: a linear search.
    fn seen(kept: &[u64], x: u64) -> bool {
        kept.contains(&x)
    }

    /// BUG: the distinct elements, keeping each after a scan of those kept so far (Groovy's
    /// `unique()`, Toddler's bug #3): quadratic in one call.
    pub fn dedup_count(&self, _x: u64) -> u64 {
        let mut kept: Vec<u64> = Vec::new();
        for &v in &self.items {
            if !Self::seen(&kept, v) {
                kept.push(v);
            }
        }
        kept.len() as u64
    }

    /// Element `k`'s weight: reads that element only.
    fn weight(&self, k: usize) -> u64 {
        let v = self.items[k];
        v.rotate_left(7) ^ (v >> 3)
    }

    /// NOT A BUG: a helper per element that reads only its element: linear.
    pub fn checksum(&self, _x: u64) -> u64 {
        let mut s = 0u64;
        for k in 0..self.items.len() {
            s = s.wrapping_add(self.weight(k));
        }
        s
    }

    /// The band of `v` in a five-entry constant table.
    fn band(v: u64) -> u64 {
        for &(upper, class) in &BANDS {
            if v < upper {
                return class;
            }
        }
        0
    }

    /// NOT A BUG: a helper per element scanning a small constant table: linear.
    pub fn band_total(&self, _x: u64) -> u64 {
        self.items
            .iter()
            .fold(0u64, |a, &v| a.wrapping_add(Self::band(v)))
    }

    /// Writes row `i` of the pairwise products into the matrix.
    fn fill_row(&mut self, i: usize) {
        let n = self.items.len();
        let x = self.items[i];
        for k in 0..n {
            self.matrix[i * n + k] = self.other[k].wrapping_mul(x) >> 7;
        }
    }

    /// NOT A BUG: the matrix of pairwise products, one row per element by a helper: every
    /// row re-reads `other` and writes n new results (output-bound; the output is n^2).
    pub fn products(&mut self, _x: u64) -> u64 {
        let n = self.items.len();
        self.matrix.clear();
        self.matrix.resize(n * n, 0);
        for i in 0..n {
            self.fill_row(i);
        }
        self.matrix.iter().fold(0u64, |a, &v| a ^ v)
    }

    /// NOT A BUG (a loop across calls): row `i` of the pairwise products, kept as output;
    /// every call re-reads all elements and writes n new results.
    pub fn product_row(&mut self, i: u64) -> u64 {
        let x = self.items[i as usize % self.items.len().max(1)];
        self.row = self.other.iter().map(|&v| v.wrapping_mul(x) >> 7).collect();
        self.row.len() as u64
    }
}

register_type! {
    /// The helper-calling loops of `bench toddler` (tuning split): bugs and non-bugs whose
    /// loop is inside one call.
    pub fn inner_loops() -> InnerLoops {
        path: "InnerLoops",
        imports: ["perfsyn_corpus::traversals_inner::InnerLoops"],
        version: None,
        size: [|r| r.len() as u64],
        ctors { new() => InnerLoops::new(); }
        methods {
            add(mut self, x: copy u64);
            // PLANTED: quadratic through a helper called per element (undocumented).
            is_subset(ref self, x: copy u64) -> u64;
            // PLANTED: quadratic through a helper called per element (undocumented).
            dedup_count(ref self, x: copy u64) -> u64;
            checksum(ref self, x: copy u64) -> u64;
            band_total(ref self, x: copy u64) -> u64;
            products(mut self, x: copy u64) -> u64;
            product_row(mut self, x: copy u64) -> u64;
        }
        fields {}
    }
}
