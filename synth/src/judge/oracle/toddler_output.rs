//! Output-bound loops, which Toddler's rule (`judge/oracle/toddler.rs`) does not report: a
//! loop whose iterations re-read the same data but each write, for about every value they
//! re-read, a value no earlier iteration wrote (a distance matrix filled row by row: each
//! row needs every value again, and its results are new). Such work is bounded below by its
//! output, so no cache or index removes it; the paper lists all-pairs loops among its false
//! positives and names the missing analysis, the data flow of the results (section IV-C).
//!
//! Input: the trace build's stores (`activations`, heap stores outside perfsyn's runtime,
//! whose counters, a probe key's comparison count among them, change on every operation)
//! in each iteration. A loop is output-bound for a repeated read when its iterations store,
//! on average, at least minLCSRatio times as many values as the read reads per iteration,
//! and the stored sequences of consecutive iterations are *not* similar by Toddler's own
//! test (longest common substring) in minSimRatio of the pairs. A loop that rebuilds the
//! same temporary every iteration (a keyword set rebuilt per call: Toddler's Solr bug) stores
//! as much, but the same values, and stays reported.
//!
//! Not output-bound when the stores are unknown (the activation trace was cut): a finding
//! is dropped only on evidence.

use std::ops::Range;

use perfsyn_profiler_ipc::activations::{ActivationTrace, Kind};

/// Most consecutive pairs of iterations compared (evenly spread).
const MAX_PAIRS: usize = 128;

/// What the test needs of Toddler's rule: its ratios and its similarity of two sequences.
pub struct Rule<'a> {
    /// minLCSRatio: stores per re-read value that make a loop output-bound.
    pub min_lcs_ratio: f64,
    /// minSimRatio: share of similar consecutive store sequences that make them repeated.
    pub min_sim_ratio: f64,
    /// Whether two sequences are similar (Toddler's `areSimilarSequences`).
    pub similar: &'a dyn Fn(&[u64], &[u64]) -> bool,
}

/// The heap stores of `events`, values in order, leaving out those `runtime` says are
/// perfsyn's own (allocation counters).
pub fn stores(
    t: &ActivationTrace,
    events: Range<usize>,
    runtime: &mut dyn FnMut(u64) -> bool,
) -> Vec<u64> {
    let end = events.end.min(t.events.len());
    let start = events.start.min(end);
    t.events[start..end]
        .iter()
        .filter(|e| e.kind == Kind::Store && !e.stack && !runtime(e.pc))
        .map(|e| e.b)
        .collect()
}

/// Whether iterations with these stores are output-bound for a read of `reads_per_iteration`
/// values per iteration (see the module doc).
pub fn output_bound(outputs: &[Vec<u64>], reads_per_iteration: f64, rule: &Rule<'_>) -> bool {
    if outputs.len() < 2 {
        return false;
    }
    let stored = outputs.iter().map(Vec::len).sum::<usize>() as f64 / outputs.len() as f64;
    if stored < rule.min_lcs_ratio * reads_per_iteration {
        return false;
    }
    let pairs = outputs.len() - 1;
    let step = pairs.div_ceil(MAX_PAIRS).max(1);
    let (mut compared, mut similar) = (0usize, 0usize);
    for k in (0..pairs).step_by(step) {
        compared += 1;
        if (rule.similar)(&outputs[k], &outputs[k + 1]) {
            similar += 1;
        }
    }
    (similar as f64) < rule.min_sim_ratio * compared as f64
}

/// The activation events of each call under test: from its `Call` event to the next.
pub fn call_ranges(t: &ActivationTrace) -> Vec<Range<usize>> {
    let starts: Vec<usize> = t
        .events
        .iter()
        .enumerate()
        .filter(|(_, e)| e.kind == Kind::Call)
        .map(|(i, _)| i)
        .collect();
    starts
        .iter()
        .enumerate()
        .map(|(k, &s)| s + 1..starts.get(k + 1).copied().unwrap_or(t.events.len()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Toddler's defaults, with its similarity (minLCS 7, minLCSRatio 70%).
    fn rule_check(rows: &[Vec<u64>]) -> bool {
        // Equal in a common run of at least 7 values and 70% of the shorter (the rule's own
        // test lives in `toddler.rs`, which calls this file).
        let similar = |a: &[u64], b: &[u64]| {
            let shorter = a.len().min(b.len());
            let mut lcs = 0;
            for i in 0..a.len() {
                for j in 0..b.len() {
                    let run = a[i..]
                        .iter()
                        .zip(&b[j..])
                        .take_while(|(x, y)| x == y)
                        .count();
                    lcs = lcs.max(run);
                }
            }
            shorter > 0 && lcs >= 7 && lcs as f64 >= 0.7 * shorter as f64
        };
        output_bound(
            rows,
            20.0,
            &Rule {
                min_lcs_ratio: 0.7,
                min_sim_ratio: 0.7,
                similar: &similar,
            },
        )
    }

    #[test]
    fn new_results_for_every_value_read_are_output_bound() {
        // Rows of a distance matrix: 20 values per iteration, different each time.
        let rows: Vec<Vec<u64>> = (0..12)
            .map(|i| {
                (0..20u64)
                    .map(|v| (v * 2_654_435_761 % 1_000_003).abs_diff(i * 77_777))
                    .collect()
            })
            .collect();
        assert!(rule_check(&rows));
    }

    #[test]
    fn the_same_temporary_rebuilt_every_iteration_is_not_output_bound() {
        let rows: Vec<Vec<u64>> = (0..12).map(|_| (0..20).map(|v| v | 1).collect()).collect();
        assert!(!rule_check(&rows));
    }

    #[test]
    fn a_few_new_results_per_scan_are_not_output_bound() {
        // A rank: one count per iteration of a scan of 20 values.
        let rows: Vec<Vec<u64>> = (0..12).map(|i| vec![i]).collect();
        assert!(!rule_check(&rows));
    }
}
