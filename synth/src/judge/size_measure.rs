//! Which size the cost follows: the registered size (a collection's `len()`), or the heap
//! bytes the program's values hold when the call under test starts, counted by the worker's
//! allocator (`Feedback::heap_bytes`).
//!
//! Why: some costs follow capacity, not length. Clearing, retaining or iterating a hash table
//! after it shrank costs O(capacity); the registered size stays small (or constant) while the
//! cost grows, so a fit over the length has nothing to fit and the verdict is inconclusive.
//! The heap bytes grow with the capacity, and the worker observes them on its own, whatever
//! the type registers. When the length gives no verdict, the same statistics are run over the
//! heap bytes, and the report names the measure the cost follows. A cost that follows the
//! capacity while the length stays put is itself worth reporting: a method documented O(1)
//! that costs O(capacity) is a bottleneck in heap bytes.

use perfsyn_profiler_ipc::Feedback;
use serde::{Deserialize, Serialize};

use crate::judge::oracle::asymptotic::{judge, Judgement, Thresholds};
use crate::report::class::Class;
use crate::search::Metric;

/// A size measure of a program's input.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SizeMeasure {
    /// The size the type registers (its length): what documented classes speak of.
    #[default]
    Len,
    /// Heap bytes the program's values hold just before the call under test.
    HeapBytes,
}

impl SizeMeasure {
    /// This measure of one execution.
    pub fn of(self, f: &Feedback) -> u64 {
        match self {
            SizeMeasure::Len => f.input_size,
            SizeMeasure::HeapBytes => f.heap_bytes,
        }
    }

    /// The measure in words, for reasons.
    pub fn describe(self) -> &'static str {
        match self {
            SizeMeasure::Len => "the registered size",
            SizeMeasure::HeapBytes => "the heap bytes the program holds",
        }
    }
}

/// (size, cost) points of the executions that ran the call under test, by `measure`, sorted.
pub fn points(fb: &[Feedback], measure: SizeMeasure, metric: Metric) -> Vec<(u64, f64)> {
    let mut pts: Vec<(u64, f64)> = fb
        .iter()
        .filter(|f| f.is_ok() && f.calls > 0)
        .map(|f| (measure.of(f), metric.of(f)))
        .collect();
    pts.sort_by(|a, b| a.0.cmp(&b.0).then(a.1.total_cmp(&b.1)));
    pts
}

/// The judgement the verdict rests on: the one over the registered size when it is
/// reliable; else, when the heap bytes give a reliable one, that one (with its points).
pub fn choose(
    by_len: Judgement,
    sweep: &[Feedback],
    metric: Metric,
    expected: Option<Class>,
    t: &Thresholds,
) -> (Judgement, SizeMeasure, Option<Vec<(u64, f64)>>) {
    if by_len.reliable {
        return (by_len, SizeMeasure::Len, None);
    }
    let heap = points(sweep, SizeMeasure::HeapBytes, metric);
    if heap.iter().all(|p| p.0 == 0) {
        return (by_len, SizeMeasure::Len, None);
    }
    let by_heap = judge(&heap, expected, t);
    if by_heap.reliable {
        (by_heap, SizeMeasure::HeapBytes, Some(heap))
    } else {
        (by_len, SizeMeasure::Len, None)
    }
}

/// Whether the registered size stays the same over executions whose cost differs (the cost
/// follows something the length does not show).
pub fn len_is_flat(sweep: &[Feedback]) -> Option<u64> {
    let mut ok = sweep.iter().filter(|f| f.is_ok() && f.calls > 0);
    let first = ok.next()?.input_size;
    ok.all(|f| f.input_size == first).then_some(first)
}

/// The fitted class with the measure it is in, for a reason: `O(n)` as it is for the
/// registered size, `O(n) in the heap bytes the program holds (...)` otherwise.
pub fn name_class(class: &str, measure: SizeMeasure, sweep: &[Feedback]) -> String {
    match measure {
        SizeMeasure::Len => class.to_string(),
        SizeMeasure::HeapBytes => match len_is_flat(sweep) {
            Some(n) => format!(
                "{class} in {} (capacity), while the registered size stays {n}",
                measure.describe()
            ),
            None => format!(
                "{class} in {} (capacity), not in the registered size",
                measure.describe()
            ),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use perfsyn_profiler_ipc::{Cost, Outcome};

    fn fb(len: u64, heap: u64, cost: u64) -> Feedback {
        Feedback {
            outcome: Outcome::Ok,
            cost: Cost {
                edges: cost,
                ..Cost::default()
            },
            input_size: len,
            heap_bytes: heap,
            calls: 1,
            hot: Vec::new(),
            fuel_spent: 0,
        }
    }

    /// A table cleared after it shrank: the length is 0 at every size of the sweep, the
    /// capacity (and the cost) grow with the loop that filled it.
    fn after_shrink() -> Vec<Feedback> {
        [16u64, 64, 256, 1024, 4096, 16384]
            .iter()
            .map(|&n| fb(0, 40 * n + 64, 3 * n + 20))
            .collect()
    }

    #[test]
    fn a_cost_that_follows_capacity_is_judged_in_heap_bytes() {
        let sweep = after_shrink();
        let t = Thresholds::default();
        let by_len = judge(
            &points(&sweep, SizeMeasure::Len, Metric::Cost),
            Some(Class::Linear),
            &t,
        );
        assert!(!by_len.reliable, "one length only: {by_len:?}");
        let (j, m, pts) = choose(by_len, &sweep, Metric::Cost, Some(Class::Linear), &t);
        assert_eq!(m, SizeMeasure::HeapBytes);
        assert!(j.reliable && !j.bottleneck, "{j:?}");
        assert_eq!(j.verdict.class, Some(Class::Linear));
        assert_eq!(pts.map(|p| p.len()), Some(6));
        assert_eq!(len_is_flat(&sweep), Some(0));
    }

    #[test]
    fn documented_constant_but_linear_in_capacity_is_a_bottleneck() {
        let sweep = after_shrink();
        let t = Thresholds::default();
        let by_len = judge(
            &points(&sweep, SizeMeasure::Len, Metric::Cost),
            Some(Class::Constant),
            &t,
        );
        let (j, m, _) = choose(by_len, &sweep, Metric::Cost, Some(Class::Constant), &t);
        assert_eq!(m, SizeMeasure::HeapBytes);
        assert!(j.bottleneck, "{j:?}");
    }

    #[test]
    fn a_reliable_length_verdict_is_kept() {
        let sweep: Vec<Feedback> = [16u64, 64, 256, 1024, 4096]
            .iter()
            .map(|&n| fb(n, 8 * n, 5 * n))
            .collect();
        let t = Thresholds::default();
        let by_len = judge(
            &points(&sweep, SizeMeasure::Len, Metric::Cost),
            Some(Class::Linear),
            &t,
        );
        let (_, m, pts) = choose(by_len, &sweep, Metric::Cost, Some(Class::Linear), &t);
        assert_eq!(m, SizeMeasure::Len);
        assert!(pts.is_none());
        assert_eq!(len_is_flat(&sweep), None);
    }

    #[test]
    fn without_heap_figures_nothing_changes() {
        let sweep: Vec<Feedback> = [16u64, 64].iter().map(|&n| fb(0, 0, n)).collect();
        let t = Thresholds::default();
        let by_len = judge(&points(&sweep, SizeMeasure::Len, Metric::Cost), None, &t);
        let (j, m, _) = choose(by_len, &sweep, Metric::Cost, None, &t);
        assert_eq!(m, SizeMeasure::Len);
        assert!(!j.reliable);
    }
}
