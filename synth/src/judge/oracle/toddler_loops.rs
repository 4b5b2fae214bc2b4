//! Toddler's loops inside one call under test (`judge/oracle/toddler.rs` judges them), so
//! that `is_subset` calling `contains` per element is a loop of n iterations even when the
//! program calls `is_subset` once. Two kinds of iteration markers, both from the trace:
//!
//! - [`loops`]: a called helper. A loop that calls a function once per iteration shows as
//!   that function entered again and again from one call site (its return address) within
//!   one activation of the caller (`readtrace::Entered`; the caller's activation rebuilt
//!   from frame pointers, as MemoizeIt's are). The loop is named by the call site's line.
//! - [`read_loops`]: an inlined helper, or a loop with no call. The trace build's coverage
//!   pass runs after inlining (an inlined helper has no entry guard of its own: measured,
//!   7 entries per call of a method whose loop calls a closure per element), so a helper
//!   inlined into the loop leaves no entry. Instead, every reading instruction (with its
//!   call stack: Toddler's IPCS) that runs more than minIter times in one call marks the
//!   iterations of the innermost loop around it: from one of its reads to the next is one
//!   iteration (rotated). A marker whose iterations hold fewer than minLCS reads on average
//!   cannot show a similar sequence and is skipped; markers whose reads interleave with a
//!   kept one's (the same loop) are skipped too. The loop is named by the marker's line.
//!
//! Why not loop headers from the binary (DESIGN.md's other design, back edges from the PC
//! table): it needs a disassembler, and a loop whose body reads nothing cannot repeat a read.
//!
//! Ours against the paper: an iteration runs from one marker to the next, so the last one's
//! iteration (whose end nothing marks) is left out: a loop of n iterations gives n - 1.

use std::collections::HashMap;
use std::ops::Range;

use perfsyn_profiler_ipc::readtrace::ReadTrace;

/// A loop inside one call under test: the entries of one function from one call site within
/// one activation of the caller.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InnerLoop {
    /// Which call under test (index into the trace's calls).
    pub call: usize,
    /// The entered function's entry guard (for an inlined function, of its inlined copy).
    pub pc: u64,
    /// The call site's return address; 0 when the function was inlined (then `pc` says where).
    pub site: u64,
    /// Per entry, in order: reads of the call before it, activation events before it.
    pub starts: Vec<(u32, u32)>,
    /// For a loop marked by a read ([`read_loops`]): the marking IPCS (then `pc` and `site`
    /// are 0).
    pub marker: Option<u32>,
}

impl InnerLoop {
    /// The iterations: reads of the call and activation events, from each entry to the next.
    pub fn iterations(&self) -> impl Iterator<Item = (Range<usize>, Range<usize>)> + '_ {
        self.starts.windows(2).map(|w| {
            (
                w[0].0 as usize..w[1].0 as usize,
                w[0].1 as usize..w[1].1 as usize,
            )
        })
    }
}

/// The loops inside the calls of `trace` with more than `min_iter` entries (so at least
/// `min_iter` iterations) and at least `min_lcs` reads per iteration on average (fewer
/// cannot repeat a sequence: a comparison helper called per element), in order of first
/// entry.
pub fn loops(trace: &ReadTrace, min_iter: usize, min_lcs: usize) -> Vec<InnerLoop> {
    let mut out = Vec::new();
    for (call, entries) in trace.entered.iter().enumerate() {
        // Open activations, innermost last: (frame pointer, serial number).
        let mut open: Vec<(u64, u32)> = Vec::new();
        let mut serial = 0u32;
        let mut groups: HashMap<(u64, u64, u32), usize> = HashMap::new();
        let mut found: Vec<InnerLoop> = Vec::new();
        for e in entries {
            let parent = if e.site != 0 {
                // A call: the activations at or below its frame have returned.
                while open.last().is_some_and(|&(fp, _)| fp <= e.fp) {
                    open.pop();
                }
                let parent = open.last().map_or(0, |o| o.1);
                serial += 1;
                open.push((e.fp, serial));
                parent
            } else {
                // Inlined into the frame `fp`: the activation of that frame is the caller.
                while open.last().is_some_and(|&(fp, _)| fp < e.fp) {
                    open.pop();
                }
                open.last().map_or(0, |o| o.1)
            };
            let at = *groups.entry((e.pc, e.site, parent)).or_insert_with(|| {
                found.push(InnerLoop {
                    call,
                    pc: e.pc,
                    site: e.site,
                    starts: Vec::new(),
                    marker: None,
                });
                found.len() - 1
            });
            found[at].starts.push((e.at, e.event));
        }
        out.extend(found.into_iter().filter(|l| {
            let n = l.starts.len();
            n > min_iter && (l.starts[n - 1].0 - l.starts[0].0) as usize >= min_lcs * (n - 1)
        }));
    }
    out
}

/// Most loops marked by reads judged per call (the markers first read earliest).
pub const MAX_READ_LOOPS: usize = 32;

/// The loops inside call `call` marked by its reads (see the module doc): `reads` its reads,
/// `events` the activation events before each, `keep` which IPCSs are the crate's.
pub fn read_loops(
    call: usize,
    reads: &[(u32, u64)],
    events: &[u32],
    min_iter: usize,
    min_lcs: usize,
    keep: &dyn Fn(u32) -> bool,
) -> Vec<InnerLoop> {
    let mut at: HashMap<u32, Vec<u32>> = HashMap::new();
    for (k, &(i, _)) in reads.iter().enumerate() {
        at.entry(i).or_default().push(k as u32);
    }
    let mut candidates: Vec<(u32, Vec<u32>)> = at
        .into_iter()
        .filter(|(i, pos)| {
            let n = pos.len();
            n > min_iter && keep(*i) && (pos[n - 1] - pos[0]) as usize >= min_lcs * (n - 1)
        })
        .collect();
    candidates.sort_by_key(|(_, pos)| pos[0]);
    let mut kept: Vec<(u32, Vec<u32>)> = Vec::new();
    for (i, pos) in candidates {
        if kept.len() >= MAX_READ_LOOPS {
            break;
        }
        let same_loop = kept.iter().any(|(_, k)| {
            k.len() == pos.len()
                && (0..pos.len()).all(|j| {
                    k[j] < pos[j] && pos.get(j).zip(k.get(j + 1)).is_none_or(|(p, n)| p < n)
                })
        });
        if !same_loop {
            kept.push((i, pos));
        }
    }
    kept.into_iter()
        .map(|(i, pos)| InnerLoop {
            call,
            pc: 0,
            site: 0,
            starts: pos
                .iter()
                .map(|&p| (p, events.get(p as usize).copied().unwrap_or(0)))
                .collect(),
            marker: Some(i),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use perfsyn_profiler_ipc::readtrace::Entered;

    fn entry(at: u32, pc: u64, site: u64, fp: u64) -> Entered {
        Entered {
            at,
            pc,
            site,
            fp,
            event: at,
        }
    }

    #[test]
    fn a_helper_called_from_one_site_in_one_activation_is_one_loop() {
        // The method (fp 1000) calls `contains` (pc 7) from site 50, twelve times; each
        // `contains` inlines a helper (pc 9) once.
        let mut calls = vec![entry(0, 1, 40, 1000)];
        for k in 0..12 {
            calls.push(entry(1 + 10 * k, 7, 50, 900));
            calls.push(entry(2 + 10 * k, 9, 0, 900));
        }
        let t = ReadTrace {
            entered: vec![calls],
            ..ReadTrace::default()
        };
        let found = loops(&t, 10, 7);
        // `contains` from site 50 in the method's activation: one loop of 12 entries; the
        // inlined helper runs in twelve activations of `contains`, once each: no loop.
        assert_eq!(found.len(), 1);
        assert_eq!((found[0].pc, found[0].site), (7, 50));
        assert_eq!(found[0].starts.len(), 12);
        assert_eq!(found[0].iterations().next(), Some((1..11, 1..11)));
    }

    #[test]
    fn entries_from_two_activations_of_the_caller_are_two_loops() {
        // The caller (pc 3) runs twice from site 60; each time it calls pc 7 six times.
        let mut calls = Vec::new();
        for r in 0..2u32 {
            calls.push(entry(100 * r, 3, 60, 1000));
            for k in 0..6 {
                calls.push(entry(100 * r + 1 + k, 7, 50, 900));
            }
        }
        let t = ReadTrace {
            entered: vec![calls],
            ..ReadTrace::default()
        };
        assert!(loops(&t, 5, 1)
            .iter()
            .all(|l| l.pc != 7 || l.starts.len() == 6));
        assert!(loops(&t, 6, 1).iter().all(|l| l.pc != 7));
    }
}
