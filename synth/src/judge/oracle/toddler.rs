//! Toddler's repeated-traversal rule (`../shared/seeds/002_…`, section III, Figures 5-7):
//! a loop whose iterations read similar sequences of values at the same instruction in the
//! same call stack (IPCS) is redoing work, whatever its documented class.
//!
//! Input: one program's reads from the trace build (`perfsyn_profiler_ipc::readtrace`),
//! grouped into the iterations of a loop. Two kinds of loops: the one the interpreter knows,
//! whose iterations are the calls under test (successive calls, in a `repeat` or in a row),
//! so a method that walks all of its data on every call is a repeated traversal across
//! calls; and the loops inside one call (`toddler_loops`: a helper called per iteration,
//! `is_subset` calling `contains` per element, quadratic in one call; a loop recovered from
//! the binary, its iterations from one pass through its marker block to the next; a loop
//! around a read run more than minIter times, where no recovered loop covers it).
//! Loops whose iterations each write new results for what they re-read are output-bound,
//! not redundant, and are not reported (`toddler_output`).
//!
//! The paper's defaults ([`Params::default`]): minIter 10, minSeqRatio 45%, minLCS 7,
//! minLCSRatio 70%, minSimRatio 70%; sequences that repeat a single value are filtered.
//! Ours: heap addresses among the values are renumbered by first appearance (the paper's
//! `identityHashCode`); a sequence longer than [`SEQ_CAP`] values is compared on its first
//! [`SEQ_CAP`] (the longest common substring is O(n·m)); at most [`MAX_PAIRS`] consecutive
//! pairs, evenly spread, are compared per IPCS.

use std::collections::HashMap;

use perfsyn_profiler_ipc::readtrace::ReadTrace;
use serde::{Deserialize, Serialize};

/// Longest prefix of a sequence the similarity compares.
pub const SEQ_CAP: usize = 1024;
/// Most consecutive pairs of sequences compared per IPCS.
pub const MAX_PAIRS: usize = 128;
/// LCS table cells (pairs of values compared) that the loops inside one call may cost
/// together, per program judged. Why: a method that reads much (a sort) has many reading
/// instructions run more than minIter times, each marking a loop judged over every IPCS, and
/// without a bound the oracle took over ten minutes on `Vec::sort` (debug build). Past the
/// budget an inner loop's read is not judged (no finding); the loop across the calls never
/// draws on it.
const INNER_LCS_BUDGET: u64 = 100_000_000;

thread_local! {
    /// LCS cells left to the loop being judged (`u64::MAX`: unbounded).
    static LCS_BUDGET: std::cell::Cell<u64> = const { std::cell::Cell::new(u64::MAX) };
}

/// The five thresholds of Toddler (section III-D, III-E).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Params {
    pub min_iter: usize,
    pub min_seq_ratio: f64,
    pub min_lcs: usize,
    pub min_lcs_ratio: f64,
    pub min_sim_ratio: f64,
}

impl Default for Params {
    fn default() -> Params {
        Params {
            min_iter: 10,
            min_seq_ratio: 0.45,
            min_lcs: 7,
            min_lcs_ratio: 0.70,
            min_sim_ratio: 0.70,
        }
    }
}

/// An IPCS whose sequences are similar across the loop's iterations.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SimilarRead {
    /// Index into the trace's IPCS list.
    pub ipcs: u32,
    /// Iterations of the loop.
    pub iterations: usize,
    /// Iterations with a (multi-valued) sequence of this IPCS.
    pub sequences: usize,
    /// Share of compared consecutive pairs that are similar.
    pub similar_ratio: f64,
    /// Mean longest common substring over the similar pairs, in values.
    pub mean_lcs: f64,
    /// Mean of the longest common substring over the shorter sequence, similar pairs.
    pub mean_lcs_ratio: f64,
    /// Reads of this IPCS per iteration, on average.
    pub reads_per_iteration: f64,
}

/// A repeated traversal: a loop of the program whose iterations read similar sequences at
/// one instruction, as an explore report lists it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RepeatedTraversal {
    /// The outer loop: which calls are its iterations (`successive calls of Type::method`),
    /// or a loop inside one call (`iterations of the loop at src/lib.rs:12 ...`).
    #[serde(rename = "loop")]
    pub outer: String,
    /// A loop inside one call: the line of its call site, `file:line`, whose calls are its
    /// iterations (`None`: the loop across calls).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub loop_at: Option<String>,
    /// Which program ran: `best`, `shrunk`, or either with `, calls in a row` (its call under
    /// test repeated, as amortized classes are judged).
    pub program_kind: String,
    /// The program, as Rust.
    pub program: String,
    /// The repeated read, `file:line`.
    pub read: String,
    /// Its callers in the crate under test, innermost first, `file:line` each (library and
    /// perfsyn runtime frames are left out).
    pub stack: Vec<String>,
    pub iterations: usize,
    /// Iterations in which the read saw more than one value.
    pub sequences: usize,
    /// Share of consecutive sequences that are similar (minSimRatio's figure).
    pub similar_ratio: f64,
    /// Mean longest common substring of similar consecutive sequences, and its mean share of
    /// the shorter sequence.
    pub mean_lcs: f64,
    pub mean_lcs_ratio: f64,
    /// Reads at this instruction per call under test, and of them the ones that repeat the
    /// previous iteration's (reads × mean LCS ratio × similar ratio; the ratio is measured
    /// on the sequences' first `SEQ_CAP` values): what a hunt ranks by. For a loop inside a
    /// call, its iterations' reads summed over one call.
    pub reads_per_call: f64,
    pub redundant_reads_per_call: f64,
    /// The trace was cut at its bound (`readtrace::TRACE_CAP`), or, for a loop inside one
    /// call, its entries and loop-marker hits at theirs: figures are over a prefix.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub capped: bool,
    /// Redundant reads per call in each traced program where this read repeats, in the order
    /// run (`best` before `shrunk`, each before its calls-in-a-row variant): how the repeated
    /// reads grow with the program's size.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub growth: Vec<(String, f64)>,
}

impl RepeatedTraversal {
    /// One line: `corpus/src/x.rs:12 read again in 95% of 20 successive calls of T::m (mean
    /// common run 64 values, 100%)`.
    pub fn describe(&self) -> String {
        format!(
            "{} read again in {:.0}% of {} {} (mean common run {:.0} values, {:.0}% of a call's; {:.0} redundant reads per call){}",
            self.read,
            100.0 * self.similar_ratio,
            self.iterations,
            self.outer,
            self.mean_lcs,
            100.0 * self.mean_lcs_ratio,
            self.redundant_reads_per_call,
            if self.capped { "; trace capped" } else { "" }
        )
    }
}

/// The text report's section: the top `top` findings, most redundant reads first ("" when
/// none), each with its call stack and program.
pub fn render(found: &[RepeatedTraversal], top: usize) -> String {
    if found.is_empty() {
        return String::new();
    }
    let mut s = String::from(
        "\nrepeated traversals (Toddler: similar reads across the iterations of a loop):\n",
    );
    for f in found.iter().take(top) {
        s.push_str(&format!("    {}\n", f.describe()));
        if !f.stack.is_empty() {
            s.push_str(&format!("        called from {}\n", f.stack.join(" <- ")));
        }
        if f.growth.len() > 1 {
            let by: Vec<String> = f
                .growth
                .iter()
                .map(|(kind, n)| format!("{n:.0} in the {kind} program"))
                .collect();
            s.push_str(&format!(
                "        redundant reads per call: {}\n",
                by.join(", ")
            ));
        }
        s.push_str(&format!("        in the {} program:\n", f.program_kind));
        for line in f.program.lines() {
            s.push_str(&format!("            {line}\n"));
        }
    }
    s
}

/// Source lines of the trace build's addresses: a line and whether it is a library's
/// (`None`: only perfsyn's runtime; such reads are not judged).
pub trait Lines {
    /// The line `addr` is charged to.
    fn line(&mut self, addr: u64) -> Option<(String, bool)>;
    /// Where the function inlined at `addr` was called (its caller's line).
    fn inlined_at(&mut self, addr: u64) -> Option<(String, bool)>;
    /// The crate's lines of `addr`'s inlined frames, innermost first.
    fn crate_lines(&mut self, addr: u64) -> Vec<String>;
    /// Whether the access at `addr` is perfsyn's own doing: any of its frames is perfsyn's
    /// runtime (an allocation counter, a probe key's operation counter), or it has no line.
    fn perfsyns(&mut self, addr: u64) -> bool;
}

impl Lines for crate::judge::hotlines::Symbolizer {
    fn line(&mut self, addr: u64) -> Option<(String, bool)> {
        self.line_of(addr)
            .map(|(f, l, lib)| (format!("{f}:{l}"), lib))
    }

    fn inlined_at(&mut self, addr: u64) -> Option<(String, bool)> {
        crate::judge::hotlines::Symbolizer::inlined_at(self, addr)
            .map(|(f, l, lib)| (format!("{f}:{l}"), lib))
    }

    fn crate_lines(&mut self, addr: u64) -> Vec<String> {
        crate::judge::hotlines::Symbolizer::crate_lines(self, addr)
    }

    fn perfsyns(&mut self, addr: u64) -> bool {
        self.frame_files(addr)
            .iter()
            .any(|f| crate::judge::hotlines::is_perfsyn(f))
            || self.line_of(addr).is_none()
    }
}

/// One loop to judge: its iterations as ranges of one call's reads (or whole calls) and of
/// the activation events.
struct Judged {
    outer: String,
    loop_at: Option<String>,
    reads: Vec<Vec<(u32, u64)>>,
    /// The same reads' addresses (`toddler_memory`), iteration by iteration.
    addresses: Vec<Vec<super::toddler_memory::Located>>,
    events: Vec<std::ops::Range<usize>>,
    /// Iterations per call under test (1 for the loop across calls, all of a loop inside one).
    per_call: f64,
}

/// Toddler on one traced program: the loop across its calls under test (`outer` names it:
/// successive calls, in a `repeat` or in a row) and the loops inside each call that call a
/// helper per iteration (`toddler_loops`). One finding per repeated read (the same line in
/// several call stacks or loops counts once, the strongest kept; a loop inside one call
/// before the loop across calls, as it holds from one call); output-bound loops
/// (`toddler_output`) are not reported.
pub fn findings(
    trace: &ReadTrace,
    outer: &str,
    program_kind: &str,
    program: &str,
    p: &Params,
    lines: &mut dyn Lines,
) -> Vec<RepeatedTraversal> {
    findings_and_loops(trace, outer, program_kind, program, p, lines).0
}

/// A loop inside one call that [`findings`] judged, as a bench lists it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct JudgedLoop {
    /// Its line, `file:line`.
    pub at: String,
    /// How its iterations were cut: `call` (a helper's entries), `header` (recovered from
    /// the binary), `read` (a read run more than minIter times).
    pub marked_by: String,
    pub iterations: usize,
}

/// [`findings`], and the loops inside one call it judged.
pub fn findings_and_loops(
    trace: &ReadTrace,
    outer: &str,
    program_kind: &str,
    program: &str,
    p: &Params,
    lines: &mut dyn Lines,
) -> (Vec<RepeatedTraversal>, Vec<JudgedLoop>) {
    let mut judged_loops: Vec<JudgedLoop> = Vec::new();
    // A read in perfsyn's runtime alone (a probe key's comparison, out of line) is charged
    // to its innermost caller that has a line, as hot lines charge an inlined block; a
    // read with no such caller (a registered wrapper's own) is not judged.
    // A read inlined from a library (std's slice iterator under `iter().position(..)`) is
    // named by its innermost caller in the crate under test, the line a reader can change;
    // only a read with no such caller keeps the library's line.
    // Toddler's IP is one instruction of the source (a bytecode); a compiled loop unrolled
    // or vectorized reads one source-level value through several machine instructions, each
    // seeing every eighth value (a slice's `contains` on u64). The IPCSs whose instruction
    // and callers have the same lines are one IPCS here, their reads in the order made.
    let mut read_lines: HashMap<u32, Option<String>> = HashMap::new();
    let mut same: HashMap<Vec<String>, u32> = HashMap::new();
    let mut rep: Vec<u32> = Vec::with_capacity(trace.ipcs.len());
    for (i, ipcs) in trace.ipcs.iter().enumerate() {
        let located: Vec<(String, bool)> = std::iter::once(ipcs.pc)
            .chain(ipcs.stack.iter().copied())
            .filter_map(|a| lines.line(a.saturating_sub(1)))
            .collect();
        let line = located
            .iter()
            .find(|(_, library)| !library)
            .or(located.first())
            .map(|(l, _)| l.clone());
        read_lines.insert(i as u32, line);
        let key = located.into_iter().map(|(l, _)| l).collect();
        rep.push(*same.entry(key).or_insert(i as u32));
    }
    let merged = rep.iter().enumerate().any(|(i, &r)| r != i as u32);
    let merge = |it: &[(u32, u64)]| -> Vec<(u32, u64)> {
        it.iter()
            .map(|&(i, v)| (rep.get(i as usize).copied().unwrap_or(i), v))
            .collect()
    };
    let calls = canonical(trace);
    let addresses = super::toddler_memory::read_addresses(trace);
    let mut judged: Vec<Judged> = Vec::new();
    // Loops inside a call are judged in the first and the last call only: calls repeated in
    // a row run the same loops (judging all 16 took 6x the rule's time on a registry set's
    // `is_subset`), and the last call sees the program's largest data.
    let judged_call = |c: usize| c == 0 || c + 1 == calls.len();
    let mut inner = super::toddler_loops::loops(trace, p.min_iter, p.min_lcs);
    inner.retain(|l| judged_call(l.call));
    let crate_read = |i: u32| read_lines.get(&i).is_some_and(Option::is_some);
    for (c, reads) in calls.iter().enumerate().filter(|(c, _)| judged_call(*c)) {
        let events = trace.read_events.get(c).map_or(&[][..], Vec::as_slice);
        // Loops recovered from the binary, then read-marked loops where none covers their
        // reads (`toddler_loops`' module doc).
        let (recovered, spans) =
            super::toddler_loops::header_loops(trace, c, p.min_iter, p.min_lcs);
        inner.extend(recovered);
        inner.extend(
            super::toddler_loops::read_loops(c, reads, events, p.min_iter, p.min_lcs, &crate_read)
                .into_iter()
                .filter(|l| !super::toddler_loops::covered(l, &spans)),
        );
    }
    for l in inner {
        let site = match l.marker {
            Some(i) => read_lines[&i].clone().map(|l| (l, false)),
            // A recovered loop: its header's innermost line in the crate (a loop of std's
            // iterator code inlined into the crate's is named by the crate's line).
            None if l.recovered => {
                let own = lines.crate_lines(l.pc).into_iter().next();
                own.map(|l| (l, false)).or_else(|| lines.line(l.pc))
            }
            None if l.site != 0 => lines.line(l.site.saturating_sub(1)),
            None => lines.inlined_at(l.pc.saturating_sub(1)),
        };
        // A loop in perfsyn's runtime (the harness's adapter) is none of the crate's.
        let Some((site, _)) = site else { continue };
        let reads = &calls[l.call];
        let at = &addresses[l.call];
        let mut a = Vec::new();
        let (r, e): (Vec<_>, Vec<_>) = l
            .iterations()
            .map(|(r, e)| {
                let r = r.start.min(reads.len())..r.end.min(reads.len());
                a.push(at[r.clone()].to_vec());
                (reads[r].to_vec(), e)
            })
            .unzip();
        let what = if l.marker.is_some() {
            "one per read there"
        } else if l.recovered {
            "one per pass through its header"
        } else {
            "one per call made there"
        };
        // The loop may be in a function the call site was inlined into (`contains_key`
        // calling `get`, inlined into `is_subset`'s loop): its enclosing crate lines.
        let at = match l.marker {
            Some(i) => trace.ipcs[i as usize].pc,
            None if l.recovered => l.pc + 1,
            None if l.site != 0 => l.site,
            None => 0,
        };
        let mut around: Vec<String> = lines
            .crate_lines(at.saturating_sub(1))
            .into_iter()
            .filter(|l| *l != site)
            .collect();
        // A closure and the call taking it often share a line.
        around.dedup();
        let within = if around.is_empty() {
            String::new()
        } else {
            format!(", inside {}", around.join(" <- "))
        };
        judged_loops.push(JudgedLoop {
            at: site.clone(),
            marked_by: match (l.marker, l.recovered) {
                (Some(_), _) => "read",
                (None, true) => "header",
                (None, false) => "call",
            }
            .to_string(),
            iterations: r.len(),
        });
        judged.push(Judged {
            outer: format!("iterations of the loop at {site} ({what}{within}), in one call"),
            loop_at: Some(site),
            // Its iterations all run in one call.
            per_call: r.len() as f64,
            reads: r,
            addresses: a,
            events: e,
        });
    }
    judged.push(Judged {
        outer: outer.to_string(),
        loop_at: None,
        reads: calls.clone(),
        addresses,
        events: super::toddler_output::call_ranges(&trace.activations),
        per_call: 1.0,
    });
    let acts = &trace.activations;
    // A probe key counting its comparisons stores on every compare: perfsyn's, not output.
    let mut runtime = |pc: u64| lines.perfsyns(pc.saturating_sub(1));
    let mut out: Vec<(RepeatedTraversal, u32)> = Vec::new();
    let mut seen: std::collections::HashSet<String> = std::collections::HashSet::new();
    // Loops inside one call share one budget of LCS work; the loop across the calls
    // (Toddler's own) is judged in full.
    let mut inner_left = INNER_LCS_BUDGET;
    for j in &judged {
        let inner = j.loop_at.is_some();
        LCS_BUDGET.with(|b| b.set(if inner { inner_left } else { u64::MAX }));
        // Each instruction alone, then the instructions of one line and call stack as one
        // (an unrolled scan); a line that both find counts once (below).
        // Similar values at memory read for the first time (a repeated input) are no
        // traversal (`toddler_memory`).
        let rereads = |iterations: &[Vec<(u32, u64)>], r: &SimilarRead| {
            super::toddler_memory::reread_ratio(
                iterations,
                &j.addresses,
                &j.events,
                &trace.activations.events,
                r.ipcs,
            )
            .is_none_or(|x| x >= super::toddler_memory::MIN_REREAD_RATIO)
        };
        let mut similar = similar_reads(&j.reads, p, &crate_read);
        similar.retain(|r| rereads(&j.reads, r));
        let one: f64 = similar.iter().map(|r| r.reads_per_iteration).sum();
        let mut by_line = 0f64;
        if merged {
            let iterations: Vec<Vec<(u32, u64)>> = j.reads.iter().map(|it| merge(it)).collect();
            for r in similar_reads(&iterations, p, &crate_read) {
                if !rereads(&iterations, &r) {
                    continue;
                }
                by_line += r.reads_per_iteration;
                if !similar.iter().any(|s| s.ipcs == r.ipcs) {
                    similar.push(r);
                }
            }
        }
        if inner {
            inner_left = LCS_BUDGET.with(|b| b.get());
        }
        LCS_BUDGET.with(|b| b.set(u64::MAX));
        // Output-bound (`toddler_output`): the loop as a whole stores a new value for about
        // every value its similar reads re-read (all of them: an unrolled scan reads through
        // several instructions).
        let bound = !similar.is_empty() && !acts.capped && j.events.len() == j.reads.len() && {
            let outputs: Vec<Vec<u64>> = j
                .events
                .iter()
                .map(|e| super::toddler_output::stores(acts, e.clone(), &mut runtime))
                .collect();
            let reread = one.max(by_line);
            let similar = |a: &[u64], b: &[u64]| similar_sequences(cap(a), cap(b), p);
            let rule = super::toddler_output::Rule {
                min_lcs_ratio: p.min_lcs_ratio,
                min_sim_ratio: p.min_sim_ratio,
                similar: &similar,
            };
            super::toddler_output::output_bound(&outputs, reread, &rule)
        };
        for r in similar {
            let Some(read) = read_lines[&r.ipcs].clone() else {
                continue;
            };
            if !seen.insert(read.clone()) {
                continue;
            }
            let redundant = r.reads_per_iteration * r.mean_lcs_ratio * r.similar_ratio;
            let f = RepeatedTraversal {
                outer: j.outer.clone(),
                loop_at: j.loop_at.clone(),
                program_kind: program_kind.to_string(),
                program: program.to_string(),
                read,
                stack: Vec::new(),
                iterations: r.iterations,
                sequences: r.sequences,
                similar_ratio: r.similar_ratio,
                mean_lcs: r.mean_lcs,
                mean_lcs_ratio: r.mean_lcs_ratio,
                reads_per_call: r.reads_per_iteration * j.per_call,
                redundant_reads_per_call: redundant * j.per_call,
                // A loop inside one call is cut by entries and loop-marker hits, bounded too.
                capped: trace.capped || (inner && trace.entered_capped),
                growth: Vec::new(),
            };
            if !bound {
                out.push((f, r.ipcs));
            }
        }
    }
    let found = out
        .into_iter()
        .map(|(mut f, i)| {
            // Callers in libraries (std's closure shims between a registered wrapper and the
            // method) say nothing a reader can act on.
            f.stack = trace.ipcs[i as usize]
                .stack
                .iter()
                .filter_map(|&ret| lines.line(ret.saturating_sub(1)))
                .filter(|(_, library)| !library)
                .map(|(l, _)| l)
                .collect();
            f
        })
        .collect();
    (found, judged_loops)
}

/// The calls of `trace` with heap addresses renumbered by first appearance: a value in the
/// range of addresses the calls read becomes `1 << 63 | rank`.
pub fn canonical(trace: &ReadTrace) -> Vec<Vec<(u32, u64)>> {
    let mut seen: HashMap<u64, u64> = HashMap::new();
    let (lo, hi) = (trace.addr_lo, trace.addr_hi);
    trace
        .calls
        .iter()
        .map(|call| {
            call.iter()
                .map(|&(i, v)| {
                    if lo > 0 && v >= lo && v <= hi {
                        let next = seen.len() as u64;
                        (i, 1 << 63 | *seen.entry(v).or_insert(next))
                    } else {
                        (i, v)
                    }
                })
                .collect()
        })
        .collect()
}

/// Toddler's `computeSimilarIPCSs` (Figure 5) on one loop given as its iterations' reads;
/// `keep` says which IPCSs count at all (the caller drops perfsyn's own runtime).
pub fn similar_reads<S: AsRef<[(u32, u64)]>>(
    iterations: &[S],
    p: &Params,
    keep: &dyn Fn(u32) -> bool,
) -> Vec<SimilarRead> {
    let n = iterations.len();
    if n < p.min_iter {
        return Vec::new();
    }
    // Per IPCS: its sequence in each iteration where it read, in iteration order.
    let mut seqs: HashMap<u32, Vec<Vec<u64>>> = HashMap::new();
    let mut reads: HashMap<u32, u64> = HashMap::new();
    for it in iterations {
        let mut here: HashMap<u32, Vec<u64>> = HashMap::new();
        for &(i, v) in it.as_ref() {
            here.entry(i).or_default().push(v);
        }
        for (i, s) in here {
            *reads.entry(i).or_default() += s.len() as u64;
            // Section III-F: a sequence that repeats one value (`this.size`) is no traversal.
            if s.iter().all(|&x| x == s[0]) {
                continue;
            }
            seqs.entry(i).or_default().push(s);
        }
    }
    let mut out: Vec<SimilarRead> = seqs
        .into_iter()
        .filter(|(i, _)| keep(*i))
        .filter_map(|(i, s)| {
            similar_iterations(&s, n, p).map(|(ratio, lcs, lcs_ratio)| SimilarRead {
                ipcs: i,
                iterations: n,
                sequences: s.len(),
                similar_ratio: ratio,
                mean_lcs: lcs,
                mean_lcs_ratio: lcs_ratio,
                reads_per_iteration: reads[&i] as f64 / n as f64,
            })
        })
        .collect();
    out.sort_by(|a, b| {
        b.reads_per_iteration
            .total_cmp(&a.reads_per_iteration)
            .then(a.ipcs.cmp(&b.ipcs))
    });
    out
}

/// Toddler's `areSimilarIterations` (Figure 6): `Some((similar ratio, mean LCS, mean LCS
/// ratio))` when the IPCS's consecutive sequences are similar throughout the loop.
fn similar_iterations(seqs: &[Vec<u64>], iterations: usize, p: &Params) -> Option<(f64, f64, f64)> {
    if (seqs.len() as f64 / iterations as f64) < p.min_seq_ratio || seqs.len() < 2 {
        return None;
    }
    let pairs = seqs.len() - 1;
    let step = pairs.div_ceil(MAX_PAIRS).max(1);
    let (mut compared, mut similar) = (0usize, 0usize);
    let (mut lcs_sum, mut ratio_sum) = (0f64, 0f64);
    for k in (0..pairs).step_by(step) {
        let (a, b) = (cap(&seqs[k]), cap(&seqs[k + 1]));
        let cells = (a.len() * b.len()) as u64;
        if !LCS_BUDGET.with(|left| {
            let ok = left.get() >= cells;
            left.set(left.get().saturating_sub(cells));
            ok
        }) {
            return None;
        }
        let lcs = longest_common_substring(a, b);
        let ratio = lcs as f64 / a.len().min(b.len()) as f64;
        compared += 1;
        if lcs >= p.min_lcs && ratio >= p.min_lcs_ratio {
            similar += 1;
            lcs_sum += lcs as f64;
            ratio_sum += ratio;
        }
    }
    let share = similar as f64 / compared as f64;
    (share >= p.min_sim_ratio)
        .then(|| (share, lcs_sum / similar as f64, ratio_sum / similar as f64))
}

/// Toddler's `areSimilarSequences` (Figure 7).
fn similar_sequences(a: &[u64], b: &[u64], p: &Params) -> bool {
    let shorter = a.len().min(b.len());
    let lcs = longest_common_substring(a, b);
    shorter > 0 && lcs >= p.min_lcs && lcs as f64 >= p.min_lcs_ratio * shorter as f64
}

fn cap(s: &[u64]) -> &[u64] {
    &s[..s.len().min(SEQ_CAP)]
}

/// Length of the longest common substring (consecutive values) of `a` and `b`, O(|a|·|b|).
pub fn longest_common_substring(a: &[u64], b: &[u64]) -> usize {
    let mut prev = vec![0usize; b.len() + 1];
    let mut cur = vec![0usize; b.len() + 1];
    let mut best = 0;
    for &x in a {
        for (j, &y) in b.iter().enumerate() {
            cur[j + 1] = if x == y { prev[j] + 1 } else { 0 };
            best = best.max(cur[j + 1]);
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    fn iters(f: impl Fn(usize) -> Vec<u64>, n: usize) -> Vec<Vec<(u32, u64)>> {
        (0..n)
            .map(|k| f(k).into_iter().map(|v| (0, v)).collect())
            .collect()
    }

    #[test]
    fn longest_common_substring_counts_consecutive_values_only() {
        assert_eq!(longest_common_substring(&[1, 2, 3, 4], &[9, 2, 3, 4, 8]), 3);
        assert_eq!(longest_common_substring(&[1, 9, 2, 9, 3], &[1, 2, 3]), 1);
        assert_eq!(longest_common_substring(&[], &[1]), 0);
    }

    #[test]
    fn a_scan_of_the_same_data_every_iteration_is_similar() {
        let found = similar_reads(
            &iters(|_| (0..20).collect(), 12),
            &Params::default(),
            &|_| true,
        );
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].mean_lcs, 20.0);
    }

    #[test]
    fn fewer_than_min_iter_iterations_are_no_loop() {
        let found = similar_reads(
            &iters(|_| (0..20).collect(), 9),
            &Params::default(),
            &|_| true,
        );
        assert!(found.is_empty());
    }

    #[test]
    fn disjoint_reads_per_iteration_are_not_similar() {
        let found = similar_reads(
            &iters(|k| (0..20).map(|v| v + 100 * k as u64).collect(), 30),
            &Params::default(),
            &|_| true,
        );
        assert!(found.is_empty());
    }

    #[test]
    fn short_and_single_valued_sequences_are_filtered() {
        let p = Params::default();
        assert!(similar_reads(&iters(|_| (0..6).collect(), 30), &p, &|_| true).is_empty());
        assert!(similar_reads(&iters(|_| vec![5; 40], 30), &p, &|_| true).is_empty());
    }

    #[test]
    fn heap_addresses_are_renumbered_by_first_appearance() {
        let t = ReadTrace {
            calls: vec![vec![(0, 0x5000), (0, 7), (0, 0x4000)], vec![(0, 0x4000)]],
            addr_lo: 0x1000,
            addr_hi: 0x9000,
            ..ReadTrace::default()
        };
        assert_eq!(
            canonical(&t),
            vec![
                vec![(0, 1 << 63), (0, 7), (0, 1 << 63 | 1)],
                vec![(0, 1 << 63 | 1)]
            ]
        );
    }
}
