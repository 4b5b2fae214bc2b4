//! Coverage-guided fragment choice: a string fragment (a mined value, a part of one, or a
//! built-in string) whose use reached new coverage or raised the cost earns weight in later
//! draws, and a fragment that reached new code is soon tried in the growing shapes.
//!
//! Why: TestMiner (seed 003, section 4.2.3) retrieves values by context alone and draws them
//! by frequency. A parser's tests hold thousands of values and parts, and the token behind a
//! slow path is often rare among them (one published markdown bug needs a two-character
//! token that is 5 in 11,515 of the weight of a crate's mined fragments): drawn by
//! frequency, it is almost never drawn, and when it is, nothing remembers it. This extends
//! the paper with the feedback coverage-guided fuzzers give their dictionaries (AFL tries
//! every token of its dictionary once; libFuzzer keeps the entries of mutations that found
//! new coverage and prefers them): a deviation from the paper, noted in ARCHITECTURE.md.
//!
//! Two signals. (1) Probes (`fragment_probe.rs`): each fragment, shortest first, is tried
//! once alone and once after the literal's text, with the code addresses its call hit
//! counted; a probe that hits a block no probe hit before wins, and its fragment is queued
//! ([`Followup`]) for the growing shapes (`fragment_shapes.rs`). (2) Every new program: the
//! fragments its top-level string literals hold that its parent's did not were used, and the
//! use won when the program reached an edge-count bucket never reached (the search's
//! coverage, `crossover.rs`) or became the best program.
//!
//! A fragment's weight in every draw is its frequency, multiplied by `1 + WIN_BOOST * wins`
//! and divided by `1 + uses without a win`: frequent fragments that change nothing fade, so
//! the draw moves on to rarer ones, and a fragment that won is preferred.
//!
//! Switched off (`--no-fragment-credit`), every weight is the frequency, nothing is probed
//! or queued, and the search draws exactly the random numbers it drew before this existed.

use std::collections::{BTreeSet, HashMap, HashSet, VecDeque};

use perfsyn_profiler_ipc::{Literal, Program, Stmt};

/// A fragment's weight is its count times this, before the credit: integer weights keep
/// the draw's arithmetic exact (the same seed, the same fragments).
pub const SCALE: u64 = 64;
/// How much each win multiplies a fragment's weight by (plus one).
pub const WIN_BOOST: u64 = 16;
/// Fragments queued for the growing shapes at most (the newest are kept).
pub const MAX_QUEUED: usize = 64;

/// A fragment that reached new code, waiting for its growing shapes: the node whose program
/// it was probed in, the top-level statement of the literal, the fragment, and the text it
/// followed in its probe (the literal's own, if any).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Followup {
    pub node: usize,
    pub at: usize,
    pub fragment: String,
    pub partner: Option<String>,
}

/// Uses and wins per fragment, what the probes reached, and the winners waiting for their
/// growing shapes.
#[derive(Clone, Debug)]
pub struct FragmentCredit {
    /// Off: weights are the frequencies, nothing is probed or queued.
    pub enabled: bool,
    entries: HashMap<String, (u32, u32)>,
    queue: VecDeque<Followup>,
    /// Fragments probed already.
    probed: HashSet<String>,
    /// Code addresses some probe's call hit.
    reached: HashSet<u64>,
}

impl Default for FragmentCredit {
    fn default() -> Self {
        FragmentCredit {
            enabled: true,
            entries: HashMap::new(),
            queue: VecDeque::new(),
            probed: HashSet::new(),
            reached: HashSet::new(),
        }
    }
}

impl FragmentCredit {
    /// A table that credits nothing (every weight is the frequency).
    pub fn disabled() -> FragmentCredit {
        FragmentCredit {
            enabled: false,
            ..FragmentCredit::default()
        }
    }

    /// The weight of `fragment` drawn among others by its frequency `count`.
    pub fn weight(&self, fragment: &str, count: u32) -> u64 {
        if !self.enabled {
            return u64::from(count);
        }
        let (uses, wins) = self.entries.get(fragment).copied().unwrap_or((0, 0));
        let fails = u64::from(uses - wins);
        (u64::from(count) * SCALE * (1 + WIN_BOOST * u64::from(wins)) / (1 + fails)).max(1)
    }

    /// Records one use of each of `fragments`, and whether it won.
    pub fn record(&mut self, fragments: &[String], won: bool) {
        if !self.enabled {
            return;
        }
        for f in fragments {
            let e = self.entries.entry(f.clone()).or_default();
            e.0 += 1;
            if won {
                e.1 += 1;
            }
        }
    }

    /// Whether `fragment` was probed already; marks it probed.
    pub fn probe(&mut self, fragment: &str) -> bool {
        !self.probed.insert(fragment.to_string())
    }

    /// Whether `fragment` was probed already.
    pub fn probe_peek(&self, fragment: &str) -> bool {
        self.probed.contains(fragment)
    }

    /// Records a probe of `followup.fragment` whose call hit the code addresses `hit`: it
    /// wins when one of them was never hit by a probe, and is then queued for its growing
    /// shapes. Returns whether it won.
    pub fn probed(&mut self, followup: Followup, hit: impl IntoIterator<Item = u64>) -> bool {
        let mut new = false;
        for a in hit {
            new |= self.reached.insert(a);
        }
        self.record(std::slice::from_ref(&followup.fragment), new);
        if new && self.enabled {
            self.queue.push_back(followup);
            if self.queue.len() > MAX_QUEUED {
                self.queue.pop_front();
            }
        }
        new
    }

    /// Records code addresses a probe hit that credits no fragment (the literal's own text).
    pub fn reach(&mut self, hit: impl IntoIterator<Item = u64>) {
        self.reached.extend(hit);
    }

    /// The oldest winner waiting for its growing shapes.
    pub fn next_winner(&mut self) -> Option<Followup> {
        self.queue.pop_front()
    }

    /// Uses and wins of `fragment`.
    pub fn tally(&self, fragment: &str) -> (u32, u32) {
        self.entries.get(fragment).copied().unwrap_or((0, 0))
    }
}

/// One of `items`, drawn with probability proportional to its credited weight
/// ([`FragmentCredit::weight`] of the text `key` gives and its count).
pub fn draw<'a, T>(
    items: &'a [(T, u32)],
    credit: &FragmentCredit,
    key: impl Fn(&T) -> Option<String>,
    pick: impl FnOnce(usize) -> usize,
) -> Option<&'a T> {
    let weights: Vec<u64> = items
        .iter()
        .map(|(v, n)| match key(v) {
            Some(k) => credit.weight(&k, *n),
            None if credit.enabled => u64::from(*n) * SCALE,
            None => u64::from(*n),
        })
        .collect();
    let total: u64 = weights.iter().sum();
    let mut k = pick(total as usize) as u64;
    for ((v, _), w) in items.iter().zip(weights) {
        if k < w {
            return Some(v);
        }
        k -= w;
    }
    None
}

/// The fragments the top-level string literals of `p` hold: a string's value, a growing
/// text's fragments (never empty).
pub fn fragments_of(p: &Program) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for s in &p.body {
        match s {
            Stmt::Lit {
                value: Literal::Str(v),
                ..
            } if !v.is_empty() => {
                out.insert(v.clone());
            }
            Stmt::Lit {
                value: Literal::Text { a, b, .. },
                ..
            } => {
                out.extend([a, b].into_iter().filter(|f| !f.is_empty()).cloned());
            }
            _ => {}
        }
    }
    out
}

/// The fragments `child` holds and `parent` does not: what the mutation between them used.
pub fn introduced(parent: &Program, child: &Program) -> Vec<String> {
    let old = fragments_of(parent);
    fragments_of(child)
        .into_iter()
        .filter(|f| !old.contains(f))
        .collect()
}

#[cfg(test)]
mod tests {
    use perfsyn_profiler_ipc::{Literal, Program, Stmt, TextShape};

    use super::*;

    fn program(lits: Vec<Literal>) -> Program {
        let mut p = Program::default();
        for value in lits {
            let out = p.fresh("String");
            p.body.push(Stmt::Lit { out, value });
        }
        p
    }

    #[test]
    fn a_use_is_the_fragments_a_program_holds_that_its_parent_did_not() {
        let parent = program(vec![Literal::Str("a".into())]);
        let child = program(vec![
            Literal::Str("a".into()),
            Literal::Text {
                shape: TextShape::Then,
                a: "x".into(),
                b: "{%".into(),
                n: 16,
            },
        ]);
        assert_eq!(introduced(&parent, &child), ["x", "{%"]);
        assert!(introduced(&child, &parent).is_empty());
    }

    #[test]
    fn a_win_raises_a_fragments_weight_and_uses_without_one_lower_it() {
        let mut c = FragmentCredit::default();
        assert_eq!(c.weight("{%", 1), SCALE);
        c.record(&["{%".into()], true);
        assert_eq!(c.weight("{%", 1), SCALE * (1 + WIN_BOOST));
        for _ in 0..3 {
            c.record(&[">".into()], false);
        }
        assert_eq!(c.weight(">", 10), 10 * SCALE / 4);
        // A rare winner now outweighs a frequent fragment that never won.
        assert!(c.weight("{%", 1) > c.weight(">", 10));
    }

    #[test]
    fn a_probe_that_hits_new_code_wins_and_is_queued_once() {
        let mut c = FragmentCredit::default();
        let f = |frag: &str| Followup {
            node: 0,
            at: 1,
            fragment: frag.into(),
            partner: Some("a".into()),
        };
        assert!(!c.probe("a"));
        assert!(c.probe("a"), "probed once");
        assert!(c.probed(f("a"), [1, 2]));
        // The same code again: no win, nothing queued; a new address: a win.
        assert!(!c.probed(f("b"), [2, 1]));
        assert!(c.probed(f("{%"), [1, 7]));
        assert_eq!(c.tally("b"), (1, 0));
        assert_eq!(c.tally("{%"), (1, 1));
        assert_eq!(c.next_winner(), Some(f("a")));
        assert_eq!(c.next_winner(), Some(f("{%")));
        assert_eq!(c.next_winner(), None);
    }

    #[test]
    fn switched_off_every_weight_is_the_frequency_and_nothing_is_queued() {
        let mut c = FragmentCredit::disabled();
        c.record(&["{%".into()], true);
        assert_eq!(c.weight("{%", 3), 3);
        let f = Followup {
            node: 0,
            at: 1,
            fragment: "{%".into(),
            partner: None,
        };
        c.probed(f, [1]);
        assert_eq!(c.next_winner(), None);
        let items = [("a", 1u32), ("b", 2)];
        // The same draw as by frequency: 0 -> a, 1 and 2 -> b.
        let key = |s: &&str| Some(s.to_string());
        assert_eq!(draw(&items, &c, key, |t| t - 1), Some(&"b"));
        assert_eq!(draw(&items, &c, key, |_| 0), Some(&"a"));
    }
}
