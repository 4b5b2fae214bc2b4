//! Toddler's similar reads that read the same memory again (`judge/oracle/toddler.rs`
//! judges with it).
//!
//! Toddler compares the *values* an instruction reads across a loop's iterations
//! (`../shared/seeds/002_…`, section III), so a loop that reads new memory whose contents
//! happen to repeat looks like one that reads the same memory again. The paper names this
//! as the first cause of its false positives (section IV-C: "the test input itself contains
//! a lot of repetition"; 10 of 27 reports) and suggests less repetitive inputs. perfsyn's
//! inputs are repetitive by construction (a mined text repeated n times, a loop inserting
//! i-th values), so a parser reading the k-th copy of a repeated element in its k-th
//! iteration would be reported on every explore. Ours: an instruction's similar reads count
//! only when, from the second iteration on, at least [`MIN_REREAD_RATIO`] of them are at
//! addresses the same instruction read in an earlier iteration. A loop rebuilding a
//! temporary each iteration (the allocator hands back the freed block) and a scan of the
//! same collection both re-read; a pass over fresh input does not.
//!
//! The address of a read comes from the activation trace (its `Load` event, which the read
//! recorder records just before the read): reads past that trace's cap have none, and an
//! instruction with too few located reads is judged on values alone, as the paper does.

use std::collections::HashSet;

use perfsyn_profiler_ipc::activations::Kind;
use perfsyn_profiler_ipc::readtrace::ReadTrace;

/// Least share of an instruction's reads (second iteration on) at memory it read in an
/// earlier iteration, for its similar values to be a repeated traversal.
pub const MIN_REREAD_RATIO: f64 = 0.5;

/// Least share of an instruction's reads whose address is known for the rule to apply.
const MIN_LOCATED: f64 = 0.5;

/// Per call of `trace`, per read: the address it read, where its `Load` event was recorded.
pub fn read_addresses(trace: &ReadTrace) -> Vec<Vec<Option<u64>>> {
    let events = &trace.activations.events;
    trace
        .calls
        .iter()
        .enumerate()
        .map(|(c, reads)| {
            let at = trace.read_events.get(c).map_or(&[][..], Vec::as_slice);
            reads
                .iter()
                .enumerate()
                .map(|(k, &(i, _))| {
                    let e = events.get((*at.get(k)? as usize).checked_sub(1)?)?;
                    let pc = trace.ipcs.get(i as usize)?.pc;
                    (e.kind == Kind::Load && !e.stack && e.pc == pc).then_some(e.a)
                })
                .collect()
        })
        .collect()
}

/// The share of `ipcs`'s reads, from the second iteration on, at an address `ipcs` read in
/// an earlier iteration; `None` when too few of its reads have an address (judge on values
/// alone). `iterations` are a loop's reads `(ipcs, value)` and `addresses` the same reads'
/// addresses, iteration by iteration.
pub fn reread_ratio(
    iterations: &[Vec<(u32, u64)>],
    addresses: &[Vec<Option<u64>>],
    ipcs: u32,
) -> Option<f64> {
    let mut seen: HashSet<u64> = HashSet::new();
    let (mut reads, mut located, mut again) = (0usize, 0usize, 0usize);
    for (k, (it, at)) in iterations.iter().zip(addresses).enumerate() {
        let mut here: Vec<u64> = Vec::new();
        for (&(i, _), a) in it.iter().zip(at) {
            if i != ipcs {
                continue;
            }
            if k > 0 {
                reads += 1;
            }
            let Some(a) = *a else { continue };
            if k > 0 {
                located += 1;
                again += seen.contains(&a) as usize;
            }
            here.push(a);
        }
        seen.extend(here);
    }
    (reads > 0 && located as f64 >= MIN_LOCATED * reads as f64)
        .then(|| again as f64 / located as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn loop_of(addr: impl Fn(usize, u64) -> u64) -> (Vec<Vec<(u32, u64)>>, Vec<Vec<Option<u64>>>) {
        (0..12)
            .map(|k| {
                (0..20u64)
                    .map(|v| ((0, v), Some(addr(k, v))))
                    .unzip::<_, _, Vec<_>, Vec<_>>()
            })
            .unzip()
    }

    #[test]
    fn a_scan_of_the_same_memory_every_iteration_rereads_all_of_it() {
        let (reads, at) = loop_of(|_, v| 0x1000 + 8 * v);
        assert_eq!(reread_ratio(&reads, &at, 0), Some(1.0));
    }

    #[test]
    fn equal_values_at_fresh_addresses_are_no_reread() {
        // The k-th copy of a repeated element, read in the k-th iteration.
        let (reads, at) = loop_of(|k, v| 0x1000 + 160 * k as u64 + 8 * v);
        assert_eq!(reread_ratio(&reads, &at, 0), Some(0.0));
    }

    #[test]
    fn reads_without_addresses_leave_the_judgement_to_values() {
        let (reads, mut at) = loop_of(|k, v| 0x1000 + 160 * k as u64 + 8 * v);
        at.iter_mut().flatten().for_each(|a| *a = None);
        assert_eq!(reread_ratio(&reads, &at, 0), None);
        assert_eq!(
            reread_ratio(&reads, &at, 7),
            None,
            "an instruction that never read"
        );
    }

    #[test]
    fn a_read_is_located_by_its_own_load_event_only() {
        use perfsyn_profiler_ipc::activations::{ActivationTrace, Event};
        use perfsyn_profiler_ipc::readtrace::Ipcs;
        let ev = |kind, stack, a, pc| Event {
            kind,
            stack,
            fp: 0,
            a,
            b: 0,
            edges: 0,
            pc,
        };
        let trace = ReadTrace {
            calls: vec![vec![(0, 1), (0, 2), (0, 3), (0, 4)]],
            ipcs: vec![Ipcs {
                pc: 0x40,
                stack: vec![],
            }],
            read_events: vec![vec![2, 3, 4, 9]],
            activations: ActivationTrace {
                events: vec![
                    ev(Kind::Call, false, 0, 0),
                    ev(Kind::Load, false, 0x1000, 0x40),
                    ev(Kind::Load, false, 0x1008, 0x50),
                    ev(Kind::Store, false, 0x1010, 0x40),
                ],
                ..ActivationTrace::default()
            },
            ..ReadTrace::default()
        };
        // Its own load; another instruction's load; a store; past the event trace's end.
        assert_eq!(
            read_addresses(&trace),
            vec![vec![Some(0x1000), None, None, None]]
        );
    }
}
