//! Planted bottlenecks for tuning only: `perfsyn bench search` chooses the default score and
//! strategy on these, so that the cases `perfsyn suite` evaluates (Table 3.2, Listing 3.1,
//! Toddler, the controls) never shape the defaults they are judged with.
//!
//! Each type plants one shape of bottleneck the evaluation cases do not have in this form:
//! a quadratic scan ([`UniqueLog::dedup`]), an accidental O(n) in an O(1) accessor
//! ([`RecentList::newest`]), a cost that needs two separate mutations to show
//! ([`AuditLedger::balance`]: entries and the audit switch), and a sort whose worst case
//! needs a particular order of keys ([`PivotSorter::sort`]: equal keys), and a cost that
//! shows only while a constructor argument caps what the loops fill ([`ShiftBuffer::push`]:
//! a full buffer of a given capacity). Each also has correct methods, the tuning benchmark's
//! negative controls.

use perfsyn_profiler_ipc::probe::Key;
use perfsyn_profiler_ipc::register_type;

/// An append-only log of `u64` values that can drop repeated values.
#[derive(Debug, Clone, Default)]
pub struct UniqueLog {
    items: Vec<u64>,
}

impl UniqueLog {
    /// An empty log.
    pub fn new() -> UniqueLog {
        UniqueLog::default()
    }

    /// Appends `x`. O(1) amortized.
    pub fn push(&mut self, x: u64) {
        self.items.push(x);
    }

    /// Keeps the first occurrence of each value. Documented O(n).
    ///
    /// PLANTED: each value is looked up in the values kept so far by a linear scan, O(n^2)
    /// when the values are distinct.
    pub fn dedup(&mut self) {
        let mut kept: Vec<u64> = Vec::new();
        for &x in &self.items {
            if !kept.contains(&x) {
                kept.push(x);
            }
        }
        self.items = kept;
    }

    /// The number of values (the registered input size). O(1).
    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// Whether the log is empty. O(1).
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }
}

/// A list of recently seen `u64` values, newest last.
#[derive(Debug, Clone, Default)]
pub struct RecentList {
    items: Vec<u64>,
}

impl RecentList {
    /// An empty list.
    pub fn new() -> RecentList {
        RecentList::default()
    }

    /// Records `x` as the newest value. O(1) amortized.
    pub fn see(&mut self, x: u64) {
        self.items.push(x);
    }

    /// The newest value, or 0 when empty. Documented O(1).
    ///
    /// PLANTED: walks the whole list to reach its end, O(n) (`black_box` keeps the
    /// optimizer from turning the walk into a read of the last element).
    pub fn newest(&self) -> u64 {
        self.items.iter().fold(0, |_, x| std::hint::black_box(*x))
    }

    /// The oldest value, or 0 when empty. O(1), truly.
    pub fn oldest(&self) -> u64 {
        self.items.first().copied().unwrap_or(0)
    }

    /// The number of values (the registered input size). O(1).
    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// Whether the list is empty. O(1).
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }
}

/// A ledger of amounts with a running total and an audit switch.
#[derive(Debug, Clone, Default)]
pub struct AuditLedger {
    entries: Vec<u64>,
    total: u64,
    audit: bool,
}

impl AuditLedger {
    /// An empty ledger, audit off.
    pub fn new() -> AuditLedger {
        AuditLedger::default()
    }

    /// Records an amount. O(1) amortized.
    pub fn record(&mut self, amount: u64) {
        self.entries.push(amount);
        self.total = self.total.wrapping_add(amount);
    }

    /// Switches auditing on or off. O(1).
    pub fn set_audit(&mut self, on: bool) {
        self.audit = on;
    }

    /// The sum of the amounts. Documented O(1).
    ///
    /// PLANTED: with audit on, the total is recomputed from every entry, O(n). Neither many
    /// entries alone nor the switch alone makes it slow: it takes both.
    pub fn balance(&self) -> u64 {
        if self.audit {
            self.entries.iter().fold(0u64, |a, x| a.wrapping_add(*x))
        } else {
            self.total
        }
    }

    /// The number of entries (the registered input size). O(1).
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the ledger has no entry. O(1).
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

/// Probe keys sorted by a quicksort.
#[derive(Debug, Clone, Default)]
pub struct PivotSorter {
    keys: Vec<Key>,
}

impl PivotSorter {
    /// An empty sorter.
    pub fn new() -> PivotSorter {
        PivotSorter::default()
    }

    /// Appends `k`. O(1) amortized.
    pub fn push(&mut self, k: Key) {
        self.keys.push(k);
    }

    /// Sorts the keys. Documented O(n log n).
    ///
    /// PLANTED: a quicksort with the middle key as pivot and Lomuto's partition. Sorted,
    /// reversed and scattered keys take O(n log n) comparisons; equal keys all fall on one
    /// side of every partition, O(n^2). Iterative, so the worst case cannot overflow the
    /// stack.
    pub fn sort(&mut self) {
        let mut ranges = vec![(0usize, self.keys.len())];
        while let Some((lo, hi)) = ranges.pop() {
            if hi - lo < 2 {
                continue;
            }
            let mid = lo + (hi - lo) / 2;
            self.keys.swap(mid, hi - 1);
            let mut store = lo;
            for i in lo..hi - 1 {
                if self.keys[i] <= self.keys[hi - 1] {
                    self.keys.swap(i, store);
                    store += 1;
                }
            }
            self.keys.swap(store, hi - 1);
            ranges.push((lo, store));
            ranges.push((store + 1, hi));
        }
    }

    /// The number of keys (the registered input size). O(1).
    pub fn len(&self) -> usize {
        self.keys.len()
    }

    /// Whether no key is held. O(1).
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }
}

/// The largest capacity a [`ShiftBuffer`] takes (larger requests are clamped), so that a
/// mutated capacity cannot exhaust the worker's memory.
pub const SHIFT_BUFFER_MAX: usize = 1 << 20;

/// A buffer of the newest `u64` values, at most its capacity of them.
#[derive(Debug, Clone, Default)]
pub struct ShiftBuffer {
    items: Vec<u64>,
    capacity: usize,
}

impl ShiftBuffer {
    /// An empty buffer holding at most `capacity` values (clamped to [`SHIFT_BUFFER_MAX`];
    /// 0 holds nothing). The storage grows with the values, not with the capacity.
    pub fn with_capacity(capacity: usize) -> ShiftBuffer {
        ShiftBuffer {
            items: Vec::new(),
            capacity: capacity.min(SHIFT_BUFFER_MAX),
        }
    }

    /// Appends `x`, dropping the oldest value when the buffer is full. Documented O(1).
    ///
    /// PLANTED: once full, every value moves one place toward the front (an explicit loop,
    /// so that the cost is edges), O(capacity). Below capacity it is O(1): a program shows
    /// it only when its pushes outnumber a capacity that is itself large.
    pub fn push(&mut self, x: u64) {
        if self.capacity == 0 {
            return;
        }
        if self.items.len() == self.capacity {
            for i in 1..self.items.len() {
                self.items[i - 1] = std::hint::black_box(self.items[i]);
            }
            self.items.pop();
        }
        self.items.push(x);
    }

    /// The oldest value held, or 0 when empty. O(1), truly.
    pub fn oldest(&self) -> u64 {
        self.items.first().copied().unwrap_or(0)
    }

    /// The number of values held (the registered input size). O(1).
    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// Whether no value is held. O(1).
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }
}

register_type! {
    /// Tuning: a log whose dedup scans the kept values (quadratic scan).
    pub fn unique_log() -> UniqueLog {
        path: "UniqueLog",
        imports: ["perfsyn_corpus::tuning::UniqueLog"],
        version: None,
        size: [|l| l.len() as u64],
        ctors { new() => UniqueLog::new(); }
        methods {
            push(mut self, x: copy u64) ["O(1)"];
            // Documented O(n); PLANTED: O(n^2).
            dedup(mut self) ["O(n)"];
            len(ref self) -> usize ["O(1)"];
        }
        fields {}
    }

    /// Tuning: a list whose newest-value accessor walks the list (accidental O(n)).
    pub fn recent_list() -> RecentList {
        path: "RecentList",
        imports: ["perfsyn_corpus::tuning::RecentList"],
        version: None,
        size: [|l| l.len() as u64],
        ctors { new() => RecentList::new(); }
        methods {
            see(mut self, x: copy u64) ["O(1)"];
            // Documented O(1); PLANTED: O(n).
            newest(ref self) -> u64 ["O(1)"];
            oldest(ref self) -> u64 ["O(1)"];
            len(ref self) -> usize ["O(1)"];
        }
        fields {}
    }

    /// Tuning: a ledger whose balance is linear only with entries and audit on (two steps).
    pub fn audit_ledger() -> AuditLedger {
        path: "AuditLedger",
        imports: ["perfsyn_corpus::tuning::AuditLedger"],
        version: None,
        size: [|l| l.len() as u64],
        ctors { new() => AuditLedger::new(); }
        methods {
            record(mut self, amount: copy u64) ["O(1)"];
            set_audit(mut self, on: copy bool) ["O(1)"];
            // Documented O(1); PLANTED: O(n) with audit on.
            balance(ref self) -> u64 ["O(1)"];
            len(ref self) -> usize ["O(1)"];
        }
        fields {}
    }

    /// Tuning: a quicksort that is quadratic on equal keys (sort-like worst case).
    pub fn pivot_sorter() -> PivotSorter {
        path: "PivotSorter",
        imports: ["perfsyn_corpus::tuning::PivotSorter"],
        version: None,
        size: [|s| s.len() as u64],
        ctors { new() => PivotSorter::new(); }
        methods {
            push(mut self, k: val Key) ["O(1)"];
            // Documented O(n log n); PLANTED: O(n^2) on equal keys.
            sort(mut self) ["O(n log n)"];
            len(ref self) -> usize ["O(1)"];
        }
        fields {}
    }
    /// Tuning: a bounded buffer whose push shifts every value once full (capacity-capped).
    pub fn shift_buffer() -> ShiftBuffer {
        path: "ShiftBuffer",
        imports: ["perfsyn_corpus::tuning::ShiftBuffer"],
        version: None,
        size: [|b| b.len() as u64],
        ctors { with_capacity(capacity: copy usize) => ShiftBuffer::with_capacity(capacity); }
        methods {
            // Documented O(1); PLANTED: O(capacity) once full.
            push(mut self, x: copy u64) ["O(1)"];
            oldest(ref self) -> u64 ["O(1)"];
            len(ref self) -> usize ["O(1)"];
        }
        fields {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn planted_methods_behave() {
        let mut l = UniqueLog::new();
        for x in [3, 1, 3, 2, 1] {
            l.push(x);
        }
        l.dedup();
        assert_eq!(l.items, vec![3, 1, 2]);
        let mut r = RecentList::new();
        assert_eq!(r.newest(), 0);
        r.see(4);
        r.see(9);
        assert_eq!((r.newest(), r.oldest()), (9, 4));
        let mut a = AuditLedger::new();
        a.record(5);
        a.record(7);
        assert_eq!(a.balance(), 12);
        a.set_audit(true);
        assert_eq!(a.balance(), 12);
        let mut s = PivotSorter::new();
        for v in [5u64, 1, 4, 1, 9, 2, 6] {
            s.push(Key::new(v));
        }
        s.sort();
        let got: Vec<u64> = s.keys.iter().map(Key::get).collect();
        assert_eq!(got, vec![1, 1, 2, 4, 5, 6, 9]);
        let mut b = ShiftBuffer::with_capacity(3);
        for x in 1..=5 {
            b.push(x);
        }
        assert_eq!((b.items.clone(), b.oldest()), (vec![3, 4, 5], 3));
    }
}
