//! MemoizeIt's rule (`../shared/seeds/003_…`, chapter 2, section 2.2, Algorithm 1, Table
//! 2.1): a function that is called with the same input and produces the same output in most
//! of its calls is a memoization opportunity, worth the cost a cache would save.
//!
//! Input: one program's activation events from the trace build
//! (`perfsyn_profiler_ipc::activations`). The activations are rebuilt from frame pointers (an
//! entry pushes one; an event from a frame at or above an open activation's frame closes
//! the ones below it). An activation's *input* is every value it (or its callees) loads from
//! memory it did not write first, outside its own frame, and every compared value; its
//! *output* every store outside its own frame and its result in `rax` (recorded at its
//! return: a trampoline on the trace build). Both are hashed in order, canonically:
//! values that are addresses of memory the program touched are renumbered by first
//! appearance within the activation (the paper's flattening, which names objects by
//! position, not location).
//!
//! The paper's steps, with edges standing in for time: candidates are functions whose
//! activations take at least [`Params::r_min`] of the calls' edges, with at least two
//! activations; a first pass hashes every activation coarsely (every address one symbol) and
//! keeps the functions whose coarse hit ratio reaches [`Params::h_min`]; only those are
//! hashed exactly (the paper's iterative deepening in spirit: coarse equality is implied by
//! exact equality, so nothing is lost). The hit ratio is the share of activations whose
//! (input, output) pair was seen before; a function at [`Params::h_min`] or above is
//! reported, with the four caches of Table 2.1 simulated and the simplest reaching
//! [`Params::h_min`] suggested, ranked by the edges that cache saves.
//!
//! Ours: the outermost activation of each call (the harness's adapter calling the method)
//! is never a candidate; a function whose activations observed nothing (no input, no
//! output) is not judged; an opportunity whose activations all run inside another reported
//! one is folded into it (the paper's clusters: the outer one is reported, its saving
//! includes the inner's); the receiver of a per-receiver cache is the first object an
//! activation reads (a method's `self`, a function's first argument), since arguments in
//! registers are not seen.

use std::collections::{HashMap, HashSet};

use perfsyn_profiler_ipc::activations::{ActivationTrace, Kind};
use serde::{Deserialize, Serialize};

/// Open activations an event is charged to, innermost first (deeper ones are charged to the
/// innermost [`DEPTH_CAP`] only).
pub const DEPTH_CAP: usize = 48;

/// MemoizeIt's thresholds (section 2.2.1 and 2.2.4; the paper's defaults).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Params {
    /// Least share of the calls' cost (edges) a candidate's activations take.
    pub r_min: f64,
    /// Least hit ratio reported, and least simulated hit ratio of a suggested cache.
    pub h_min: f64,
    /// Least activations of a candidate.
    pub min_calls: usize,
}

impl Default for Params {
    fn default() -> Params {
        Params {
            r_min: 0.01,
            h_min: 0.5,
            min_calls: 2,
        }
    }
}

/// One simulated cache (Table 2.1).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CacheSim {
    /// `single, global`, `single, per receiver`, `multi, global`, `multi, per receiver`.
    pub kind: String,
    pub hit_ratio: f64,
    /// Entries a multi-entry cache would hold (never evicting); 1 per scope for single.
    pub size: usize,
}

/// A memoization opportunity.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Opportunity {
    /// The function, demangled, when the line tables name it.
    pub function: String,
    /// Its entry, `file:line`.
    pub at: String,
    /// Its callers' lines, most frequent first (at most three).
    pub callers: Vec<String>,
    pub activations: usize,
    /// Share of activations whose (input, output) pair was seen before (a global, multi-entry
    /// cache's hits).
    pub hit_ratio: f64,
    /// Share of the calls' edges its activations take.
    pub cost_share: f64,
    /// Edges of its activations (nested activations of itself counted once).
    pub edges: u64,
    /// Edges of the activations the suggested cache answers: the saving predicted.
    pub edges_saved: u64,
    /// Edges of the calls under test.
    pub total_edges: u64,
    /// Activations that wrote memory outside their frame (side effects a cache must redo
    /// or that are redundant).
    pub writes: bool,
    pub caches: Vec<CacheSim>,
    /// The simplest cache at `h_min` hits or more (`None`: none reaches it).
    pub suggestion: Option<String>,
    /// Which program showed it (`best`, `best, calls in a row`, ...).
    #[serde(default)]
    pub program_kind: String,
}

impl Opportunity {
    /// One line: the function, its hits, its cost and the cache.
    pub fn describe(&self) -> String {
        format!(
            "{} at {}: {} of {} activations repeat an earlier (input, output) ({:.0}% hits), {:.0}% of the calls' edges; {} would save {} edges ({:.0}%)",
            self.function,
            self.at,
            (self.hit_ratio * self.activations as f64).round() as usize,
            self.activations,
            100.0 * self.hit_ratio,
            100.0 * self.cost_share,
            self.suggestion
                .as_deref()
                .map(|s| format!("a {s} cache"))
                .unwrap_or_else(|| "no simple cache".to_string()),
            self.edges_saved,
            100.0 * self.edges_saved as f64 / self.total_edges.max(1) as f64
        )
    }
}

/// What a function's entry PC is: its name, `file:line`, and whether it is std's.
#[derive(Clone, Debug)]
pub struct FnLoc {
    pub name: String,
    pub at: String,
}

/// Renders the opportunities for explore's text output.
pub fn render(found: &[Opportunity], top: usize) -> String {
    if found.is_empty() {
        return String::new();
    }
    let mut s = String::from(
        "\nrepeated computations (MemoizeIt: activations with the same input and output):\n",
    );
    for o in found.iter().take(top) {
        s.push_str(&format!("    {}\n", o.describe()));
        if !o.callers.is_empty() {
            s.push_str(&format!("        called from {}\n", o.callers.join(", ")));
        }
        let sims: Vec<String> = o
            .caches
            .iter()
            .map(|c| format!("{} {:.0}%", c.kind, 100.0 * c.hit_ratio))
            .collect();
        s.push_str(&format!(
            "        simulated caches: {} (in the {} program)\n",
            sims.join(", "),
            o.program_kind
        ));
    }
    s
}

/// One closed activation.
#[derive(Clone, Debug)]
struct Done {
    pc: u64,
    caller: u64,
    edges: u64,
    /// Inside an activation of the same function (its edges are counted there).
    nested_in_self: bool,
    /// The functions of the activations it ran inside.
    ancestors: Vec<u64>,
    coarse: (u64, u64),
    exact: Option<(u64, u64)>,
    receiver: Option<u64>,
    observed: bool,
    writes: bool,
}

struct Open {
    pc: u64,
    caller: u64,
    fp: u64,
    start: usize,
    start_edges: u64,
    depth: usize,
    nested_in_self: bool,
    ancestors: Vec<u64>,
    coarse_in: u64,
    coarse_out: u64,
    exact: Option<(u64, u64, HashMap<u64, u64>)>,
    receiver: Option<u64>,
    observed: bool,
    writes: bool,
}

fn mix(h: u64, x: u64) -> u64 {
    (h ^ x)
        .wrapping_mul(0x9e37_79b9_7f4a_7c15)
        .rotate_left(23)
        .wrapping_add(0x632b_e59b_d9b4_e019)
}

/// Which values are addresses: those in a 64 KiB page some access touched, or in the stack.
struct Addresses {
    pages: HashSet<u64>,
    stack: (u64, u64),
}

impl Addresses {
    fn of(t: &ActivationTrace) -> Addresses {
        let pages = t
            .events
            .iter()
            .filter(|e| matches!(e.kind, Kind::Load | Kind::Store) && !e.stack)
            .map(|e| e.a >> 16)
            .collect();
        Addresses {
            pages,
            stack: (t.stack_lo, t.stack_hi),
        }
    }

    fn is(&self, v: u64) -> bool {
        (v >= self.stack.0 && v < self.stack.1)
            || (v > 0x10000
                && (self.pages.contains(&(v >> 16)) || self.pages.contains(&((v - 1) >> 16))))
    }
}

const ADDRESS: u64 = 0xadd7_e55a_dd7e_55ad;

/// The canonical form of `v` within an activation: addresses renumbered by first appearance.
fn canon(map: &mut HashMap<u64, u64>, addrs: &Addresses, v: u64) -> u64 {
    if addrs.is(v) {
        let n = map.len() as u64;
        ADDRESS ^ *map.entry(v).or_insert(n + 1)
    } else {
        v
    }
}

/// Rebuilds the activations of `t`; activations of functions in `exact` get exact hashes.
/// Returns them and the calls' edges.
fn activations(
    t: &ActivationTrace,
    exact: &HashSet<u64>,
    dropped: &HashSet<u64>,
) -> (Vec<Done>, u64) {
    let addrs = Addresses::of(t);
    let mut open: Vec<Open> = Vec::new();
    let mut done: Vec<Done> = Vec::new();
    let mut last_write: HashMap<u64, usize> = HashMap::new();
    let close = |o: Open, edges: u64, done: &mut Vec<Done>| {
        if o.depth == 0 {
            return; // the harness's adapter
        }
        done.push(Done {
            pc: o.pc,
            caller: o.caller,
            edges: edges.saturating_sub(o.start_edges),
            nested_in_self: o.nested_in_self,
            ancestors: o.ancestors,
            coarse: (o.coarse_in, o.coarse_out),
            exact: o.exact.map(|(i, out, _)| (i, out)),
            receiver: o.receiver,
            observed: o.observed,
            writes: o.writes,
        });
    };
    for (i, e) in t.events.iter().enumerate() {
        match e.kind {
            Kind::Call => {
                while let Some(o) = open.pop() {
                    close(o, e.edges, &mut done);
                }
                continue;
            }
            Kind::Entry => {
                if open.last().is_some_and(|o| o.fp == e.fp) {
                    continue; // an inlined function's entry guard, in its caller's frame
                }
                while open.last().is_some_and(|o| o.fp <= e.fp) {
                    let o = open.pop().expect("checked");
                    close(o, e.edges, &mut done);
                }
                let ancestors: Vec<u64> = open.iter().map(|o| o.pc).collect();
                open.push(Open {
                    pc: e.a,
                    caller: e.b,
                    fp: e.fp,
                    start: i,
                    start_edges: e.edges,
                    depth: open.len(),
                    nested_in_self: ancestors.contains(&e.a),
                    ancestors,
                    coarse_in: 0,
                    coarse_out: 0,
                    exact: exact.contains(&e.a).then(|| (0, 0, HashMap::new())),
                    receiver: None,
                    observed: false,
                    writes: false,
                });
                continue;
            }
            Kind::Return => {
                while open.last().is_some_and(|o| o.fp < e.fp) {
                    let o = open.pop().expect("checked");
                    close(o, e.edges, &mut done);
                }
                if open.last().is_some_and(|o| o.fp == e.fp) {
                    let mut o = open.pop().expect("checked");
                    o.observed = true;
                    o.coarse_out = mix(o.coarse_out, if addrs.is(e.a) { ADDRESS } else { e.a });
                    if let Some((_, out, map)) = &mut o.exact {
                        *out = mix(*out, canon(map, &addrs, e.a));
                    }
                    close(o, e.edges, &mut done);
                }
                continue;
            }
            _ => {}
        }
        if dropped.contains(&e.pc) {
            continue; // perfsyn's runtime (its allocation counters), not the code under test
        }
        while open.last().is_some_and(|o| o.fp < e.fp) {
            let o = open.pop().expect("checked");
            close(o, e.edges, &mut done);
        }
        let n = open.len();
        let lo = n.saturating_sub(DEPTH_CAP);
        match e.kind {
            Kind::Load => {
                let lw = last_write.get(&e.a).copied();
                for o in open[lo..].iter_mut().rev() {
                    if lw.is_some_and(|w| w >= o.start) {
                        break; // written inside: not an input of it nor of its callers
                    }
                    if e.stack && e.a < o.fp.wrapping_add(16) {
                        break; // its own frame (or a callee's): not an input of it
                    }
                    feed_in(o, &addrs, 1, e.b);
                    if o.receiver.is_none() && !e.stack {
                        o.receiver = Some(e.a);
                    }
                }
            }
            Kind::Store => {
                last_write.insert(e.a, i);
                for o in open[lo..].iter_mut().rev() {
                    if e.stack && e.a < o.fp.wrapping_add(16) {
                        break;
                    }
                    o.observed = true;
                    o.writes = true;
                    o.coarse_out = mix(o.coarse_out, if addrs.is(e.b) { ADDRESS } else { e.b });
                    if let Some((_, out, map)) = &mut o.exact {
                        let a = canon(map, &addrs, e.a);
                        let v = canon(map, &addrs, e.b);
                        *out = mix(mix(*out, a), v);
                    }
                }
            }
            Kind::Cmp => {
                for o in open[lo..].iter_mut().rev() {
                    feed_in(o, &addrs, 2, e.a);
                    feed_in(o, &addrs, 3, e.b);
                }
            }
            Kind::Call | Kind::Entry | Kind::Return => {}
        }
    }
    let end = t.events.last().map_or(0, |e| e.edges);
    while let Some(o) = open.pop() {
        close(o, end, &mut done);
    }
    // The edge counter runs only inside calls under test: its last value is their cost.
    (done, end)
}

fn feed_in(o: &mut Open, addrs: &Addresses, tag: u64, v: u64) {
    o.observed = true;
    o.coarse_in = mix(mix(o.coarse_in, tag), if addrs.is(v) { ADDRESS } else { v });
    if let Some((inp, _, map)) = &mut o.exact {
        let c = canon(map, addrs, v);
        *inp = mix(mix(*inp, tag), c);
    }
}

/// Share of `pairs` seen before (by the cache scope `key`), and the entries kept.
fn simulate(
    acts: &[&Done],
    pair: impl Fn(&Done) -> (u64, u64),
    per_receiver: bool,
    single: bool,
) -> (f64, usize, Vec<bool>) {
    let mut last: HashMap<Option<u64>, (u64, u64)> = HashMap::new();
    let mut seen: HashSet<(Option<u64>, (u64, u64))> = HashSet::new();
    let mut hits = Vec::with_capacity(acts.len());
    for a in acts {
        let scope = if per_receiver { a.receiver } else { None };
        let p = pair(a);
        let hit = if single {
            last.insert(scope, p) == Some(p)
        } else {
            !seen.insert((scope, p))
        };
        hits.push(hit);
    }
    let n = hits.iter().filter(|h| **h).count();
    let size = if single { last.len() } else { seen.len() };
    (n as f64 / acts.len().max(1) as f64, size, hits)
}

/// The memoization opportunities of one program's activations, best saving first.
/// `locate` names a function entry (`None`: perfsyn's runtime, never reported); `line`
/// gives a caller's `file:line`; `runtime` says whether an access's instruction is perfsyn's
/// runtime (left out of every activation: its counters change on every allocation).
pub fn opportunities(
    t: &ActivationTrace,
    p: &Params,
    locate: &mut dyn FnMut(u64) -> Option<FnLoc>,
    line: &mut dyn FnMut(u64) -> Option<String>,
    runtime: &mut dyn FnMut(u64) -> bool,
) -> Vec<Opportunity> {
    let mut dropped = HashSet::new();
    let mut asked = HashSet::new();
    for e in &t.events {
        if matches!(e.kind, Kind::Load | Kind::Store | Kind::Cmp)
            && asked.insert(e.pc)
            && runtime(e.pc)
        {
            dropped.insert(e.pc);
        }
    }
    // Pass 1: coarse hashes of every activation.
    let (acts, total) = activations(t, &HashSet::new(), &dropped);
    if total == 0 {
        return Vec::new();
    }
    let survivors: HashSet<u64> = candidates(&acts, total, p, |a| a.coarse)
        .into_iter()
        .map(|(pc, _)| pc)
        .collect();
    if survivors.is_empty() {
        return Vec::new();
    }
    // Pass 2: exact hashes of the survivors only.
    let (acts, total) = activations(t, &survivors, &dropped);
    let found = candidates(&acts, total, p, |a| a.exact.unwrap_or(a.coarse));
    let reported: HashSet<u64> = found.iter().map(|(pc, _)| *pc).collect();
    let mut out = Vec::new();
    for (pc, ratio) in found {
        let mine: Vec<&Done> = acts.iter().filter(|a| a.pc == pc).collect();
        // Folded into an enclosing reported function.
        if mine
            .iter()
            .all(|a| a.ancestors.iter().any(|x| *x != pc && reported.contains(x)))
        {
            continue;
        }
        let Some(loc) = locate(pc) else { continue };
        let pair = |a: &Done| a.exact.unwrap_or(a.coarse);
        let kinds = [
            ("single, global", false, true),
            ("single, per receiver", true, true),
            ("multi, global", false, false),
            ("multi, per receiver", true, false),
        ];
        let mut caches = Vec::new();
        let mut suggestion = None;
        let mut saved = 0;
        for (kind, per, single) in kinds {
            let (h, size, hits) = simulate(&mine, pair, per, single);
            caches.push(CacheSim {
                kind: kind.to_string(),
                hit_ratio: h,
                size,
            });
            if suggestion.is_none() && h >= p.h_min {
                suggestion = Some(kind.to_string());
                saved = mine
                    .iter()
                    .zip(&hits)
                    .filter(|(a, h)| **h && !a.nested_in_self)
                    .map(|(a, _)| a.edges)
                    .sum();
            }
        }
        let edges: u64 = mine
            .iter()
            .filter(|a| !a.nested_in_self)
            .map(|a| a.edges)
            .sum();
        let mut callers: HashMap<u64, usize> = HashMap::new();
        for a in &mine {
            *callers.entry(a.caller).or_default() += 1;
        }
        let mut callers: Vec<(u64, usize)> = callers.into_iter().collect();
        callers.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        let mut lines: Vec<String> = Vec::new();
        for (c, _) in callers {
            if let Some(l) = line(c) {
                if !lines.contains(&l) {
                    lines.push(l);
                }
            }
            if lines.len() == 3 {
                break;
            }
        }
        out.push(Opportunity {
            function: loc.name,
            at: loc.at,
            callers: lines,
            activations: mine.len(),
            hit_ratio: ratio,
            cost_share: edges as f64 / total as f64,
            edges,
            edges_saved: saved,
            total_edges: total,
            writes: mine.iter().any(|a| a.writes),
            caches,
            suggestion,
            program_kind: String::new(),
        });
    }
    out.sort_by(|a, b| b.edges_saved.cmp(&a.edges_saved).then(a.at.cmp(&b.at)));
    out
}

/// Functions at `r_min` of the cost with `min_calls` activations, some observed, whose
/// global multi-entry hit ratio under `pair` reaches `h_min`; with that ratio.
fn candidates(
    acts: &[Done],
    total: u64,
    p: &Params,
    pair: impl Fn(&Done) -> (u64, u64) + Copy,
) -> Vec<(u64, f64)> {
    let mut by: HashMap<u64, Vec<&Done>> = HashMap::new();
    for a in acts {
        by.entry(a.pc).or_default().push(a);
    }
    let mut out = Vec::new();
    for (pc, mine) in by {
        if mine.len() < p.min_calls || !mine.iter().any(|a| a.observed) {
            continue;
        }
        let edges: u64 = mine
            .iter()
            .filter(|a| !a.nested_in_self)
            .map(|a| a.edges)
            .sum();
        if (edges as f64) < p.r_min * total as f64 {
            continue;
        }
        let (h, _, _) = simulate(&mine, pair, false, false);
        if h >= p.h_min {
            out.push((pc, h));
        }
    }
    out.sort_by_key(|a| a.0);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use perfsyn_profiler_ipc::activations::Event;

    fn ev(kind: Kind, fp: u64, a: u64, b: u64, edges: u64) -> Event {
        Event {
            kind,
            stack: false,
            fp,
            a,
            b,
            edges,
            len: 0,
            pc: 0,
        }
    }

    /// A call under test whose adapter (fp 1000) calls `f` (pc 7, fp 900) `n` times, each
    /// activation reading `input(k)` at a heap address and storing nothing.
    fn trace(n: u64, input: impl Fn(u64) -> u64) -> ActivationTrace {
        let mut events = vec![
            ev(Kind::Call, 2000, 0, 0, 0),
            ev(Kind::Entry, 1000, 1, 0, 0),
        ];
        let mut edges = 1;
        for k in 0..n {
            events.push(ev(Kind::Entry, 900, 7, 55, edges));
            events.push(ev(
                Kind::Load,
                900,
                0x5000_0000 + 8 * k,
                input(k),
                edges + 1,
            ));
            edges += 10;
            events.push(ev(Kind::Load, 1000, 0x6000_0000, 1, edges));
        }
        ActivationTrace {
            events,
            capped: false,
            heap_lo: 0,
            heap_hi: 0,
            stack_lo: 1,
            stack_hi: 1,
        }
    }

    fn found(t: &ActivationTrace) -> Vec<Opportunity> {
        opportunities(
            t,
            &Params::default(),
            &mut |pc| {
                Some(FnLoc {
                    name: format!("f{pc}"),
                    at: format!("src/lib.rs:{pc}"),
                })
            },
            &mut |_| Some("src/lib.rs:1".into()),
            &mut |_| false,
        )
    }

    #[test]
    fn a_function_reading_the_same_value_every_call_is_reported() {
        let f = found(&trace(10, |_| 42));
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].at, "src/lib.rs:7");
        assert_eq!(f[0].activations, 10);
        assert!((f[0].hit_ratio - 0.9).abs() < 1e-9);
        assert_eq!(f[0].suggestion.as_deref(), Some("single, global"));
        assert_eq!(f[0].edges_saved, 9 * 10);
    }

    #[test]
    fn a_function_reading_a_new_value_every_call_is_not_reported() {
        assert!(found(&trace(10, |k| 1000 + k)).is_empty());
    }

    #[test]
    fn values_that_alternate_need_a_multi_entry_cache() {
        let f = found(&trace(10, |k| k % 2));
        assert_eq!(f[0].suggestion.as_deref(), Some("multi, global"));
        assert_eq!(f[0].caches[0].hit_ratio, 0.0);
    }

    #[test]
    fn the_adapter_activation_is_never_a_candidate() {
        // Only the adapter (depth 0) runs, over many calls with the same input.
        let mut events = Vec::new();
        for k in 0..10 {
            events.push(ev(Kind::Call, 2000, 0, 0, 10 * k));
            events.push(ev(Kind::Entry, 1000, 1, 0, 10 * k));
            events.push(ev(Kind::Load, 1000, 0x5000_0000, 3, 10 * k + 9));
        }
        let t = ActivationTrace {
            events,
            ..Default::default()
        };
        assert!(found(&t).is_empty());
    }
}
