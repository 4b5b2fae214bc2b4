//! The labeled loops of `perfsyn bench toddler` (case list: `cases/toddler.json`): each method
//! below is the inner computation of a loop whose outer loop is the program's `repeat` (one
//! call per outer iteration), so Toddler's oracle sees the loop's iterations as the calls.
//!
//! [`TraversalBugs`] ports the loop shapes of the 11 known bugs of the Toddler paper
//! (`../shared/seeds/002_…`, sections II and IV-A, Figure 9) and four of the collection bugs
//! of section IV-B: every call re-reads data that did not change since the previous call.
//! [`TraversalNonBugs`] holds loops that look redundant and are not bugs: all-pairs
//! computations (each call needs all the data; the paper's own false positives), single
//! passes (each call reads what the previous did not), loops over small constant data, and
//! lookups that read a few values.
//!
//! Ours: one receiver per family holding every structure its methods use (filled by `add`),
//! values as `u64`, and the Java code reduced to its loop.

use std::collections::{BTreeMap, HashMap, HashSet, VecDeque};

use perfsyn_profiler_ipc::probe::FixedState;
use perfsyn_profiler_ipc::register_type;

/// Loops that redo work across iterations (bugs).
#[derive(Debug, Clone, Default)]
pub struct TraversalBugs {
    values: Vec<u64>,
    /// A singly linked list over `values`: (value, next index; `usize::MAX` ends it).
    nodes: Vec<(u64, usize)>,
    /// Parallel to `values`: names (keys) of the entries of list-backed maps.
    keys: Vec<u64>,
    /// A recency list of the values, most recent first, and the set of values it holds.
    recent: Vec<u64>,
    held: HashSet<u64, FixedState>,
}

impl TraversalBugs {
    /// Empty.
    pub fn new() -> TraversalBugs {
        TraversalBugs::default()
    }

    /// Adds `x` everywhere. O(1) amortized.
    pub fn add(&mut self, x: u64) {
        let n = self.nodes.len();
        if let Some(last) = self.nodes.last_mut() {
            last.1 = n;
        }
        self.nodes.push((x, usize::MAX));
        self.keys.push(x.wrapping_mul(31) ^ 7);
        self.values.push(x);
        if self.held.insert(x) {
            self.recent.push(x);
        }
    }

    /// The number of values.
    pub fn len(&self) -> usize {
        self.values.len()
    }

    /// Whether empty.
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// JFreeChart #5 (Figure 1): the bar height of item `i` recomputes the maximum volume of
    /// all items, for every item drawn.
    pub fn bar_height(&self, i: u64) -> u64 {
        let mut max = 1;
        for &v in &self.values {
            if v > max {
                max = v;
            }
        }
        let v = self
            .values
            .get(i as usize % self.values.len().max(1))
            .copied()
            .unwrap_or(0);
        v.saturating_mul(100) / max
    }

    /// Google Core Libraries #4.1 (Figure 2): `set.removeAll(list)` asks the list whether it
    /// contains each element of the set, a linear search per element.
    pub fn list_contains(&self, x: u64) -> u64 {
        self.values.contains(&x) as u64
    }

    /// Apache Collections #2: indexed access to a linked list inside a loop over indices,
    /// each `get(i)` walking from the head.
    pub fn linked_get(&self, i: u64) -> u64 {
        let mut at = 0usize;
        let mut k = 0u64;
        while at < self.nodes.len() {
            if k == i {
                return self.nodes[at].0;
            }
            at = self.nodes[at].1;
            k += 1;
        }
        0
    }

    /// Groovy #3: `unique()` adds each element after scanning the result for it.
    pub fn add_unique(&mut self, x: u64) -> u64 {
        if self.values.contains(&x) {
            return 0;
        }
        self.add(x);
        1
    }

    /// Google Core Libraries #4.2: the count of an element by a scan of the whole
    /// collection, asked for each element.
    pub fn frequency(&self, x: u64) -> u64 {
        self.values.iter().filter(|&&v| v == x).count() as u64
    }

    /// JMeter #6: the running mean of all samples recomputed after each sample.
    pub fn mean(&self, _x: u64) -> u64 {
        let sum: u64 = self.values.iter().fold(0u64, |a, &v| a.wrapping_add(v));
        sum / self.values.len().max(1) as u64
    }

    /// Lucene #7.1: the norm of document `d` recomputes the total length of all documents.
    pub fn norm(&self, d: u64) -> u64 {
        let total = self
            .values
            .iter()
            .fold(0u64, |a, &v| a.wrapping_add(v & 0xff))
            .max(1);
        let len = self
            .values
            .get(d as usize % self.values.len().max(1))
            .copied()
            .unwrap_or(0);
        (len & 0xff).saturating_mul(1000) / total
    }

    /// Lucene #7.2: the first position after `p` found by scanning the positions from the
    /// start for each query position, instead of continuing from the last one.
    pub fn next_after(&self, p: u64) -> u64 {
        for (k, &v) in self.values.iter().enumerate() {
            if k as u64 > p && v & 1 == 0 {
                return v;
            }
        }
        0
    }

    /// PDFBox #8: the index of a page by a linear search of the page list, for each page.
    pub fn index_of(&self, page: u64) -> u64 {
        let want = self
            .values
            .get(page as usize % self.values.len().max(1))
            .copied();
        self.values
            .iter()
            .position(|&v| Some(v) == want)
            .unwrap_or(usize::MAX) as u64
    }

    /// Solr #9: the set of filter keywords rebuilt from every configured string on each call.
    pub fn is_filtered(&self, w: u64) -> u64 {
        let keywords: Vec<u64> = self.values.iter().map(|&v| v | 1).collect();
        keywords.contains(&(w | 1)) as u64
    }

    /// Ant #1: a target found by name by scanning every target, for each dependency.
    pub fn find_target(&self, name: u64) -> u64 {
        let want = name.wrapping_mul(31) ^ 7;
        self.keys
            .iter()
            .position(|&k| k == want)
            .unwrap_or(usize::MAX) as u64
    }

    /// A cache whose `get` walks the list of all entries (section IV-B's collections).
    pub fn cache_get(&self, k: u64) -> u64 {
        for (i, &key) in self.keys.iter().enumerate() {
            if key == k {
                return self.values[i];
            }
        }
        0
    }

    /// A recency cache's `get` (a size-bounded cache's): a key it holds is found in the hashed
    /// set, then searched for in the recency list to move it to the front, a walk of the
    /// list per hit; a miss reads nothing.
    pub fn recent_get(&mut self, k: u64) -> u64 {
        if !self.held.contains(&k) {
            return 0;
        }
        let Some(at) = self.recent.iter().position(|&v| v == k) else {
            return 0;
        };
        let v = self.recent.remove(at);
        self.recent.insert(0, v);
        at as u64
    }

    /// A sorted insert that finds its position by a scan from the start.
    pub fn insert_sorted(&mut self, x: u64) -> u64 {
        let at = self
            .values
            .iter()
            .position(|&v| v > x)
            .unwrap_or(self.values.len());
        self.values.insert(at, x);
        at as u64
    }

    /// The most frequent low byte, recounted over all values on each call.
    pub fn mode(&self, _x: u64) -> u64 {
        let mut counts = [0u32; 16];
        for &v in &self.values {
            counts[(v & 15) as usize] += 1;
        }
        (0..16).max_by_key(|&b| counts[b]).unwrap_or(0) as u64
    }

    /// A list-backed map's `containsValue`, asked for each value of another map.
    pub fn contains_value(&self, v: u64) -> u64 {
        self.keys.iter().zip(&self.values).any(|(_, &x)| x == v) as u64
    }
}

/// Loops that look redundant and are not bugs.
#[derive(Debug, Clone, Default)]
pub struct TraversalNonBugs {
    values: Vec<u64>,
    sorted: Vec<u64>,
    prefix: Vec<u64>,
    queue: VecDeque<u64>,
    hashed: HashMap<u64, u64, FixedState>,
    ordered: BTreeMap<u64, u64>,
    window: [u64; 4],
    pos: usize,
    /// A document of one record repeated: every `add` appends [`RECORD`] (a parser's input
    /// made of a repeated element, as perfsyn's programs build them).
    records: Vec<u64>,
}

/// One record of the repeated document.
const RECORD: &[u8] = b"<item id=\"7\"/>\n";

/// Five constant entries (fewer than Toddler's minLCS of 7).
const WEEKDAYS: [u64; 5] = [6, 7, 9, 8, 6];
/// Four constant brackets: (upper bound, rate).
const BRACKETS: [(u64, u64); 4] = [(1 << 10, 1), (1 << 20, 2), (1 << 30, 3), (u64::MAX, 4)];

impl TraversalNonBugs {
    /// Empty.
    pub fn new() -> TraversalNonBugs {
        TraversalNonBugs::default()
    }

    /// Adds `x` everywhere. O(log n) amortized (the sorted copy's insert aside).
    pub fn add(&mut self, x: u64) {
        self.values.push(x);
        let at = self.sorted.partition_point(|&v| v < x);
        self.sorted.insert(at, x);
        let last = self.prefix.last().copied().unwrap_or(0);
        self.prefix.push(last.wrapping_add(x));
        self.queue.push_back(x);
        self.hashed.insert(x, x / 2);
        self.ordered.insert(x, x / 3);
        self.records.extend(RECORD.iter().map(|&b| b as u64));
    }

    /// The number of values.
    pub fn len(&self) -> usize {
        self.values.len()
    }

    /// Whether empty.
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    fn at(&self, i: u64) -> u64 {
        self.values
            .get(i as usize % self.values.len().max(1))
            .copied()
            .unwrap_or(0)
    }

    /// All pairs: the rank of value `i` among all values (each call needs every value).
    pub fn rank(&self, i: u64) -> u64 {
        let x = self.at(i);
        self.values.iter().filter(|&&v| v < x).count() as u64
    }

    /// All pairs: the distance from value `i` to its nearest other value.
    pub fn nearest(&self, i: u64) -> u64 {
        let x = self.at(i);
        let mut best = u64::MAX;
        for (k, &v) in self.values.iter().enumerate() {
            if k as u64 != i % self.values.len().max(1) as u64 {
                best = best.min(v.abs_diff(x));
            }
        }
        best
    }

    /// A single pass: the next value of a cursor.
    pub fn next_value(&mut self, _x: u64) -> u64 {
        let v = self.values.get(self.pos).copied().unwrap_or(0);
        self.pos += 1;
        v
    }

    /// A single pass in chunks: the sum of the `k`th chunk of 8 values (chunks are disjoint;
    /// `k` wraps around).
    pub fn chunk_sum(&self, k: u64) -> u64 {
        let chunks = (self.values.len() / 8).max(1);
        self.values
            .iter()
            .skip(k as usize % chunks * 8)
            .take(8)
            .fold(0u64, |a, &v| a.wrapping_add(v))
    }

    /// A single pass over a repeated input: the tags of record `k` of the document (`k` wraps
    /// around). Each call reads a record no call read before, whose bytes equal every other
    /// record's: the values repeat, the memory does not.
    pub fn record_tags(&self, k: u64) -> u64 {
        let records = (self.records.len() / RECORD.len()).max(1);
        self.records
            .iter()
            .skip(k as usize % records * RECORD.len())
            .take(RECORD.len())
            .filter(|&&b| b == b'<' as u64 || b == b'/' as u64)
            .count() as u64
    }

    /// Row `r` of the values as an 8-row matrix, summed: a nested loop over rows and columns
    /// that reads each cell once (`r` wraps around; the width is only known at run time, so
    /// the column loop stays a loop).
    pub fn row_sum(&self, r: u64) -> u64 {
        let width = self.values.len() / 8;
        let r = r as usize % 8;
        let mut s = 0u64;
        for c in 0..width {
            s = s.wrapping_add(self.values[r * width + c]);
        }
        s
    }

    /// Indexed access, O(1).
    pub fn get(&self, i: u64) -> u64 {
        self.at(i)
    }

    /// A queue drained one value per call.
    pub fn pop_front(&mut self, _x: u64) -> u64 {
        self.queue.pop_front().unwrap_or(0)
    }

    /// A scan of a five-entry constant table.
    pub fn weekday_len(&self, i: u64) -> u64 {
        let mut n = 0;
        for (k, &w) in WEEKDAYS.iter().enumerate() {
            if k as u64 <= i % 5 {
                n += w;
            }
        }
        n
    }

    /// A scan of a four-bracket constant table.
    pub fn rate(&self, x: u64) -> u64 {
        let x = self.at(x);
        for &(upper, rate) in &BRACKETS {
            if x < upper {
                return rate;
            }
        }
        0
    }

    /// A hash lookup.
    pub fn hashed_get(&self, i: u64) -> u64 {
        self.hashed.get(&self.at(i)).copied().unwrap_or(0)
    }

    /// A B-tree lookup.
    pub fn ordered_get(&self, i: u64) -> u64 {
        self.ordered.get(&self.at(i)).copied().unwrap_or(0)
    }

    /// A binary search.
    pub fn sorted_contains(&self, i: u64) -> u64 {
        self.sorted.binary_search(&self.at(i)).is_ok() as u64
    }

    /// The length: one value read again and again.
    pub fn count(&self, _x: u64) -> u64 {
        self.values.len() as u64
    }

    /// A push: amortized O(1).
    pub fn push(&mut self, x: u64) -> u64 {
        self.values.push(x);
        self.values.len() as u64
    }

    /// The last value.
    pub fn peek(&self, _x: u64) -> u64 {
        self.values.last().copied().unwrap_or(0)
    }

    /// The digit sum of the argument: a loop over no data.
    pub fn digit_sum(&self, x: u64) -> u64 {
        let (mut x, mut s) = (x.wrapping_mul(2_654_435_761), 0);
        while x > 0 {
            s += x % 10;
            x /= 10;
        }
        s
    }

    /// The sum of the first `i` values from prefix sums, O(1).
    pub fn sum_to(&self, i: u64) -> u64 {
        self.prefix
            .get(i as usize % self.prefix.len().max(1))
            .copied()
            .unwrap_or(0)
    }

    /// A sliding window of four values: each call shifts it and sums it.
    pub fn slide(&mut self, x: u64) -> u64 {
        self.window.rotate_left(1);
        self.window[3] = x;
        self.window.iter().fold(0u64, |a, &v| a.wrapping_add(v))
    }
}

register_type! {
    /// The bug patterns of Toddler's labeled set (`bench toddler`): each method redoes a
    /// traversal across the calls of a loop.
    pub fn traversal_bugs() -> TraversalBugs {
        path: "TraversalBugs",
        imports: ["perfsyn_corpus::traversals::TraversalBugs"],
        version: None,
        size: [|r| r.len() as u64],
        ctors { new() => TraversalBugs::new(); }
        methods {
            add(mut self, x: copy u64);
            bar_height(ref self, x: copy u64) -> u64;
            list_contains(ref self, x: copy u64) -> u64;
            linked_get(ref self, x: copy u64) -> u64;
            add_unique(mut self, x: copy u64) -> u64;
            frequency(ref self, x: copy u64) -> u64;
            mean(ref self, x: copy u64) -> u64;
            norm(ref self, x: copy u64) -> u64;
            next_after(ref self, x: copy u64) -> u64;
            index_of(ref self, x: copy u64) -> u64;
            is_filtered(ref self, x: copy u64) -> u64;
            find_target(ref self, x: copy u64) -> u64;
            // Documented "O(1)": a cache lookup; PLANTED: it walks every entry.
            cache_get(ref self, x: copy u64) -> u64 ["O(1)"];
            // PLANTED: walks its recency list on a hit only (undocumented).
            recent_get(mut self, x: copy u64) -> u64;
            insert_sorted(mut self, x: copy u64) -> u64;
            mode(ref self, x: copy u64) -> u64;
            contains_value(ref self, x: copy u64) -> u64;
        }
        fields {}
    }

    /// The non-bugs of Toddler's labeled set (`bench toddler`): loops that look redundant.
    pub fn traversal_non_bugs() -> TraversalNonBugs {
        path: "TraversalNonBugs",
        imports: ["perfsyn_corpus::traversals::TraversalNonBugs"],
        version: None,
        size: [|r| r.len() as u64],
        ctors { new() => TraversalNonBugs::new(); }
        methods {
            add(mut self, x: copy u64);
            rank(ref self, x: copy u64) -> u64;
            nearest(ref self, x: copy u64) -> u64;
            next_value(mut self, x: copy u64) -> u64;
            chunk_sum(ref self, x: copy u64) -> u64;
            record_tags(ref self, x: copy u64) -> u64;
            row_sum(ref self, x: copy u64) -> u64;
            get(ref self, x: copy u64) -> u64;
            pop_front(mut self, x: copy u64) -> u64;
            weekday_len(ref self, x: copy u64) -> u64;
            rate(ref self, x: copy u64) -> u64;
            hashed_get(ref self, x: copy u64) -> u64;
            ordered_get(ref self, x: copy u64) -> u64;
            sorted_contains(ref self, x: copy u64) -> u64;
            count(ref self, x: copy u64) -> u64;
            push(mut self, x: copy u64) -> u64;
            peek(ref self, x: copy u64) -> u64;
            digit_sum(ref self, x: copy u64) -> u64;
            sum_to(ref self, x: copy u64) -> u64;
            slide(mut self, x: copy u64) -> u64;
        }
        fields {}
    }
}
