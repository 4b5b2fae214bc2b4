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
//! - [`header_loops`]: a loop recovered from the trace binary (`harness/loop_headers.rs`:
//!   natural loops by dominators, each with the guard of a block run once per iteration).
//!   Within one activation (the marker's hits carry the frame pointer), one hit of the marker
//!   to the next is one iteration, the reads of its callees included (Toddler's iterations);
//!   an instance ends when its activation does (an entry in a frame above it, or a new call
//!   in the same frame) or when a loop around it in the same function goes round. Per loop,
//!   its largest instance with more than minIter iterations is judged. The loop is named by
//!   its header's line in the crate.
//!
//! How the three combine: entries first (a helper per iteration names the loop by the call
//! that a reader sees), then header loops, then read-marked loops only where no header loop
//! covers their reads. Why: a read-marked loop is cut at the innermost loop around its
//! marker, so a nested pair of inline loops is judged at the wrong level (the inner one, or
//! the outer one cut at every inner read), and an inline loop whose body reads fewer than
//! minIter times per call is not cut at all; a header loop has neither fault. Read markers
//! stay the fallback where the binary cannot be read (no PC table, not x86-64) or a loop has
//! no guarded marker (the corpus's trace worker: 1238 markers for 1278 natural loops).
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
    /// For a loop recovered from the binary ([`header_loops`]): true, and `pc` is its
    /// header's address (`site` 0).
    pub recovered: bool,
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
                    recovered: false,
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
            recovered: false,
        })
        .collect()
}

/// Most recovered loops judged per call (the largest first).
pub const MAX_HEADER_LOOPS: usize = 32;

/// The recovered loops of call `call` (see the module doc): per loop, its largest instance
/// with more than `min_iter` iterations of at least `min_lcs` reads on average; and the
/// spans of reads (first hit to last) of all its instances of two hits or more, the reads
/// header loops cover.
pub fn header_loops(
    trace: &ReadTrace,
    call: usize,
    min_iter: usize,
    min_lcs: usize,
) -> (Vec<InnerLoop>, Vec<Range<u32>>) {
    let (Some(hits), Some(shapes)) = (trace.loop_hits.get(call), Some(&trace.loops)) else {
        return (Vec::new(), Vec::new());
    };
    let shape: HashMap<u64, (u64, u64)> = shapes
        .iter()
        .map(|l| (l.marker, (l.header, l.parent)))
        .collect();
    // Whether marker `m` lies inside the loop of marker `around` (same function).
    let inside = |m: u64, around: u64| {
        let mut at = shape.get(&m).map_or(0, |s| s.1);
        while at != 0 {
            if at == around {
                return true;
            }
            at = shape.get(&at).map_or(0, |s| s.1);
        }
        false
    };
    let entries = trace.entered.get(call).map_or(&[][..], Vec::as_slice);
    // Instances: (marker, starts); open ones by (marker, frame).
    let mut instances: Vec<(u64, Vec<(u32, u32)>)> = Vec::new();
    let mut open: HashMap<(u64, u64), usize> = HashMap::new();
    let mut e = 0;
    for h in hits {
        // Entries up to this hit (an entry first on a tie: its own activation's hits follow).
        while e < entries.len() && entries[e].event <= h.event {
            let x = &entries[e];
            open.retain(|&(_, fp), _| !(fp < x.fp || (fp == x.fp && x.site != 0)));
            e += 1;
        }
        if !shape.contains_key(&h.pc) {
            continue;
        }
        // A loop around others went round: their instances in this frame are over.
        open.retain(|&(m, fp), _| !(fp == h.fp && inside(m, h.pc)));
        let k = *open.entry((h.pc, h.fp)).or_insert_with(|| {
            instances.push((h.pc, Vec::new()));
            instances.len() - 1
        });
        instances[k].1.push((h.at, h.event));
    }
    let spans: Vec<Range<u32>> = instances
        .iter()
        .filter(|(_, s)| s.len() >= 2)
        .map(|(_, s)| s[0].0..s[s.len() - 1].0)
        .collect();
    let mut best: HashMap<u64, usize> = HashMap::new();
    for (k, (m, s)) in instances.iter().enumerate() {
        let n = s.len();
        if n <= min_iter || ((s[n - 1].0 - s[0].0) as usize) < min_lcs * (n - 1) {
            continue;
        }
        let span = |k: usize| {
            let s = &instances[k].1;
            s[s.len() - 1].0 - s[0].0
        };
        let b = best.entry(*m).or_insert(k);
        if span(k) > span(*b) {
            *b = k;
        }
    }
    let mut chosen: Vec<usize> = best.into_values().collect();
    chosen.sort_by_key(|&k| {
        let s = &instances[k].1;
        (std::cmp::Reverse(s[s.len() - 1].0 - s[0].0), s[0].0)
    });
    chosen.truncate(MAX_HEADER_LOOPS);
    chosen.sort_by_key(|&k| instances[k].1[0].0);
    let loops = chosen
        .into_iter()
        .map(|k| InnerLoop {
            call,
            pc: shape[&instances[k].0].0,
            site: 0,
            starts: instances[k].1.clone(),
            marker: None,
            recovered: true,
        })
        .collect();
    (loops, spans)
}

/// Whether a header loop covers the read-marked loop `l`: nine in ten of its marker's reads
/// lie inside the spans of recovered loops' instances (`header_loops`).
pub fn covered(l: &InnerLoop, spans: &[Range<u32>]) -> bool {
    let inside = l
        .starts
        .iter()
        .filter(|&&(at, _)| spans.iter().any(|s| s.start <= at && at <= s.end))
        .count();
    !l.starts.is_empty() && inside * 10 >= l.starts.len() * 9
}

#[cfg(test)]
mod tests {
    use super::*;
    use perfsyn_profiler_ipc::readtrace::{Entered, LoopShape};

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

    fn hit(at: u32, pc: u64, fp: u64) -> Entered {
        Entered {
            at,
            pc,
            site: 0,
            fp,
            event: at,
        }
    }

    fn shape(marker: u64, parent: u64) -> LoopShape {
        LoopShape {
            marker,
            header: marker + 1,
            parent,
        }
    }

    /// An outer loop (marker 10) of 12 passes, each running an inner loop (marker 20, inside
    /// it) 12 times over 8 reads: the inner loop's instances end at each outer pass.
    fn nested(inner_reads: u32) -> ReadTrace {
        let mut hits = Vec::new();
        let mut at = 0;
        for _ in 0..12 {
            hits.push(hit(at, 10, 500));
            for _ in 0..12 {
                hits.push(hit(at, 20, 500));
                at += inner_reads;
            }
        }
        hits.push(hit(at, 10, 500));
        ReadTrace {
            loop_hits: vec![hits],
            loops: vec![shape(10, 0), shape(20, 10)],
            ..ReadTrace::default()
        }
    }

    #[test]
    fn a_recovered_inner_loop_restarts_at_each_pass_of_the_loop_around_it() {
        let (found, spans) = header_loops(&nested(8), 0, 10, 7);
        // The outer loop: 13 hits, 12 iterations of 96 reads; the inner one: its instances
        // have 12 hits each (11 iterations), the first of them kept.
        assert_eq!(found.len(), 2, "{found:?}");
        let outer = found.iter().find(|l| l.pc == 11).expect("outer");
        assert_eq!(outer.starts.len(), 13);
        assert_eq!(outer.iterations().next(), Some((0..96, 0..96)));
        let inner = found.iter().find(|l| l.pc == 21).expect("inner");
        assert_eq!(inner.starts.len(), 12);
        assert!(found.iter().all(|l| l.recovered && l.site == 0));
        // Spans: the outer instance and the 12 inner ones.
        assert_eq!(spans.len(), 13);
        // Too few reads per inner iteration: only the outer loop is judged.
        let (found, _) = header_loops(&nested(2), 0, 10, 7);
        assert_eq!(found.iter().map(|l| l.pc).collect::<Vec<_>>(), [11]);
    }

    #[test]
    fn a_new_call_in_the_same_frame_starts_a_new_instance() {
        // The loop's function is called twice from the same frame (fp 500 both times), each
        // time going round 8 times: no instance of 16.
        let mut hits = Vec::new();
        let mut entries = Vec::new();
        for r in 0..2u32 {
            entries.push(Entered {
                at: 100 * r,
                pc: 3,
                site: 60,
                fp: 500,
                event: 100 * r,
            });
            for k in 0..8 {
                hits.push(hit(100 * r + 1 + 10 * k, 10, 500));
            }
        }
        let t = ReadTrace {
            loop_hits: vec![hits],
            entered: vec![entries],
            loops: vec![shape(10, 0)],
            ..ReadTrace::default()
        };
        assert!(header_loops(&t, 0, 10, 7).0.is_empty());
        assert!(header_loops(&t, 0, 7, 7)
            .0
            .iter()
            .all(|l| l.starts.len() == 8));
    }

    #[test]
    fn a_read_marked_loop_inside_recovered_instances_is_covered() {
        let l = InnerLoop {
            call: 0,
            pc: 0,
            site: 0,
            starts: (0..20).map(|k| (5 * k, 0)).collect(),
            marker: Some(1),
            recovered: false,
        };
        assert!(covered(&l, &[0..50, 50..100]));
        assert!(!covered(&l, &[0..20, 20..40]));
        assert!(!covered(&l, &[]));
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
