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
//! addresses the same instruction read in an earlier iteration, and that this iteration did
//! not write before reading them. A scan of the same collection re-reads; a pass over fresh
//! input does not; nor does a read of a temporary the iteration itself filled (a parser
//! copying each element into one reused buffer: the allocator hands back the same block, and
//! its bytes repeat because the input does). A loop rebuilding the same temporary from the
//! same data every iteration (Toddler's Solr bug) is still found, at the reads that rebuild
//! it, which re-read the source.
//!
//! The address of a read comes from the activation trace (its `Load` event, which the read
//! recorder records just before the read). An instruction with too few located reads (stack
//! reads have no `Load` event) is judged on values alone, as the paper does. Reads past the
//! activation trace's cap ([`EVENT_CAP`](perfsyn_profiler_ipc::activations::EVENT_CAP)
//! events) are left out of the share instead: on a large program (a parser over a document
//! repeated 512 times) most reads come after the cut, and judging those on values alone
//! brought back the repeated-input reports this rule exists to drop. The share is then the
//! located prefix's; an instruction read only past the cut shows no re-read.

use std::collections::HashSet;

use perfsyn_profiler_ipc::activations::{Event, Kind};
use perfsyn_profiler_ipc::readtrace::ReadTrace;

/// Least share of an instruction's reads (second iteration on) at memory it read in an
/// earlier iteration, for its similar values to be a repeated traversal.
pub const MIN_REREAD_RATIO: f64 = 0.5;

/// Least share of an instruction's reads whose address is known for the rule to apply.
const MIN_LOCATED: f64 = 0.5;

/// Bytes of one store past which its words are not all kept (a large copy's tail is rarely
/// read back within the iteration; the set stays small).
const STORE_SPAN_CAP: u64 = 1 << 15;

/// Where a read was, as far as the activation trace says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Located {
    /// At this address; the index of its `Load` event in the activation trace.
    At(u64, u32),
    /// No address: a stack read, or one whose event is another instruction's.
    Unknown,
    /// Read after the activation trace was cut: nothing is known of it.
    PastCut,
}

/// Per call of `trace`, per read: the address it read and its `Load` event, where that event
/// was recorded.
pub fn read_addresses(trace: &ReadTrace) -> Vec<Vec<Located>> {
    let events = &trace.activations.events;
    trace
        .calls
        .iter()
        .enumerate()
        .map(|(c, reads)| {
            let at = trace.read_events.get(c).map_or(&[][..], Vec::as_slice);
            let capped = trace.activations.capped;
            reads
                .iter()
                .enumerate()
                .map(|(k, &(i, _))| {
                    let event = at.get(k).map_or(u32::MAX, |&e| e) as usize;
                    let own = event.checked_sub(1).and_then(|index| {
                        let e = events.get(index)?;
                        let pc = trace.ipcs.get(i as usize)?.pc;
                        (e.kind == Kind::Load && !e.stack && e.pc == pc)
                            .then_some(Located::At(e.a, index as u32))
                    });
                    match own {
                        Some(at) => at,
                        // The event count stopped at the cap: the read came after it.
                        None if capped && event >= events.len() => Located::PastCut,
                        None => Located::Unknown,
                    }
                })
                .collect()
        })
        .collect()
}

/// The share of `ipcs`'s reads, from the second iteration on, at an address `ipcs` read in
/// an earlier iteration and not written in this one before the read; `None` when too few of
/// its reads have an address (judge on values alone); reads past the activation trace's cut
/// are left out (none left: 0, no re-read shown). `iterations` are a loop's reads
/// `(ipcs, value)`, `addresses` the same reads located, and `spans` each iteration's
/// range of `events` (the activation trace's, whose stores say what it wrote).
pub fn reread_ratio(
    iterations: &[Vec<(u32, u64)>],
    addresses: &[Vec<Located>],
    spans: &[std::ops::Range<usize>],
    events: &[Event],
    ipcs: u32,
) -> Option<f64> {
    let mut seen: HashSet<u64> = HashSet::new();
    let (mut reads, mut located, mut again, mut past_cut) = (0usize, 0usize, 0usize, 0usize);
    for (k, (it, at)) in iterations.iter().zip(addresses).enumerate() {
        let mut here: Vec<u64> = Vec::new();
        // 8-byte words this iteration stored to, up to the read at hand.
        let mut written: HashSet<u64> = HashSet::new();
        let span = spans.get(k).cloned().unwrap_or(0..0);
        let mut next = span.start;
        for (&(i, _), a) in it.iter().zip(at) {
            if i != ipcs {
                continue;
            }
            if *a == Located::PastCut {
                past_cut += 1;
                continue;
            }
            if k > 0 {
                reads += 1;
            }
            let Located::At(a, event) = *a else { continue };
            let upto = (event as usize).min(span.end).min(events.len());
            for e in events.get(next..upto).unwrap_or(&[]) {
                if e.kind == Kind::Store && !e.stack {
                    let end = e.a.saturating_add((e.len as u64).clamp(1, STORE_SPAN_CAP));
                    written.extend(e.a / 8..end.div_ceil(8));
                }
            }
            next = next.max(upto);
            if k > 0 {
                located += 1;
                again += (seen.contains(&a) && !written.contains(&(a / 8))) as usize;
            }
            here.push(a);
        }
        seen.extend(here);
    }
    if reads == 0 && past_cut > 0 {
        return Some(0.0);
    }
    (reads > 0 && located as f64 >= MIN_LOCATED * reads as f64)
        .then(|| again as f64 / located as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ev(kind: Kind, stack: bool, a: u64, len: u32, pc: u64) -> Event {
        Event {
            kind,
            stack,
            fp: 0,
            a,
            b: 0,
            edges: 0,
            len,
            pc,
        }
    }

    /// A loop of 12 iterations reading 20 values each at `addr(k, v)`; each read's `Load`
    /// event is its own (the iteration stores nothing).
    fn loop_of(addr: impl Fn(usize, u64) -> u64) -> (Vec<Vec<(u32, u64)>>, Vec<Vec<Located>>) {
        (0..12)
            .map(|k| {
                (0..20u64)
                    .map(|v| ((0, v), Located::At(addr(k, v), (20 * k as u64 + v) as u32)))
                    .unzip::<_, _, Vec<_>, Vec<_>>()
            })
            .unzip()
    }

    /// Each iteration's span of events and the events: the loads of `loop_of`.
    fn loads(at: &[Vec<Located>]) -> (Vec<std::ops::Range<usize>>, Vec<Event>) {
        let events: Vec<Event> = at
            .iter()
            .flatten()
            .map(|a| match a {
                Located::At(addr, _) => ev(Kind::Load, false, *addr, 0, 0),
                _ => ev(Kind::Load, false, 0, 0, 0),
            })
            .collect();
        ((0..at.len()).map(|k| 20 * k..20 * k + 20).collect(), events)
    }

    #[test]
    fn a_scan_of_the_same_memory_every_iteration_rereads_all_of_it() {
        let (reads, at) = loop_of(|_, v| 0x1000 + 8 * v);
        let (spans, events) = loads(&at);
        assert_eq!(reread_ratio(&reads, &at, &spans, &events, 0), Some(1.0));
    }

    #[test]
    fn equal_values_at_fresh_addresses_are_no_reread() {
        // The k-th copy of a repeated element, read in the k-th iteration.
        let (reads, at) = loop_of(|k, v| 0x1000 + 160 * k as u64 + 8 * v);
        let (spans, events) = loads(&at);
        assert_eq!(reread_ratio(&reads, &at, &spans, &events, 0), Some(0.0));
    }

    #[test]
    fn a_temporary_the_iteration_filled_before_reading_it_is_no_reread() {
        // Every iteration copies its element into one buffer (one store event of 160 bytes
        // before its reads), then reads the buffer: the same addresses each time.
        let (reads, at) = loop_of(|_, v| 0x1000 + 8 * v);
        let mut events = Vec::new();
        let mut spans = Vec::new();
        let mut relocated = Vec::new();
        for it in &at {
            let start = events.len();
            events.push(ev(Kind::Store, false, 0x1000, 160, 0));
            relocated.push(
                it.iter()
                    .map(|a| {
                        let Located::At(addr, _) = *a else {
                            panic!("located")
                        };
                        events.push(ev(Kind::Load, false, addr, 0, 0));
                        Located::At(addr, events.len() as u32 - 1)
                    })
                    .collect::<Vec<_>>(),
            );
            spans.push(start..events.len());
        }
        assert_eq!(
            reread_ratio(&reads, &relocated, &spans, &events, 0),
            Some(0.0)
        );
        // The same reads with the copy made before the loop: the buffer is re-read.
        let before: Vec<Event> = events
            .iter()
            .map(|e| match e.kind {
                Kind::Store => ev(Kind::Cmp, false, 0, 0, 0),
                _ => *e,
            })
            .collect();
        assert_eq!(
            reread_ratio(&reads, &relocated, &spans, &before, 0),
            Some(1.0)
        );
    }

    #[test]
    fn reads_without_addresses_leave_the_judgement_to_values() {
        let (reads, mut at) = loop_of(|k, v| 0x1000 + 160 * k as u64 + 8 * v);
        let (spans, events) = loads(&at);
        at.iter_mut().flatten().for_each(|a| *a = Located::Unknown);
        assert_eq!(reread_ratio(&reads, &at, &spans, &events, 0), None);
        assert_eq!(
            reread_ratio(&reads, &at, &spans, &events, 7),
            None,
            "an instruction that never read"
        );
    }

    #[test]
    fn reads_past_the_traces_cut_are_left_out_of_the_share() {
        // Equal values at fresh addresses in the first 3 iterations; the other 9 iterations
        // came after the cut (judged on values alone, they would be a repeated traversal).
        let (reads, mut at) = loop_of(|k, v| 0x1000 + 160 * k as u64 + 8 * v);
        let (spans, events) = loads(&at);
        at.iter_mut()
            .skip(3)
            .flatten()
            .for_each(|a| *a = Located::PastCut);
        assert_eq!(reread_ratio(&reads, &at, &spans, &events, 0), Some(0.0));
        // A scan of the same memory is still one, on the located prefix.
        let (reads, mut at) = loop_of(|_, v| 0x1000 + 8 * v);
        let (spans, events) = loads(&at);
        at.iter_mut()
            .skip(3)
            .flatten()
            .for_each(|a| *a = Located::PastCut);
        assert_eq!(reread_ratio(&reads, &at, &spans, &events, 0), Some(1.0));
        // Read only after the cut: no re-read shown.
        at.iter_mut().flatten().for_each(|a| *a = Located::PastCut);
        assert_eq!(reread_ratio(&reads, &at, &spans, &events, 0), Some(0.0));
    }

    #[test]
    fn a_read_is_located_by_its_own_load_event_only() {
        use perfsyn_profiler_ipc::activations::ActivationTrace;
        use perfsyn_profiler_ipc::readtrace::Ipcs;
        let trace = ReadTrace {
            calls: vec![vec![(0, 1), (0, 2), (0, 3), (0, 4)]],
            ipcs: vec![Ipcs {
                pc: 0x40,
                stack: vec![],
            }],
            read_events: vec![vec![2, 3, 4, 9]],
            activations: ActivationTrace {
                events: vec![
                    ev(Kind::Call, false, 0, 0, 0),
                    ev(Kind::Load, false, 0x1000, 0, 0x40),
                    ev(Kind::Load, false, 0x1008, 0, 0x50),
                    ev(Kind::Store, false, 0x1010, 8, 0x40),
                ],
                ..ActivationTrace::default()
            },
            ..ReadTrace::default()
        };
        // Its own load; another instruction's load; a store; past the event trace's end.
        let own = Located::At(0x1000, 1);
        let unknown = Located::Unknown;
        assert_eq!(
            read_addresses(&trace),
            vec![vec![own, unknown, unknown, unknown]]
        );
        // The same trace cut at its cap: past the cut the event count stays at the last
        // event, so a read not its own from there on came after the cut.
        let mut cut = trace;
        cut.activations.capped = true;
        assert_eq!(
            read_addresses(&cut),
            vec![vec![own, unknown, Located::PastCut, Located::PastCut]]
        );
    }
}
