//! Two mutations at once: programs that reached new coverage are kept as *explorers*, even
//! when their score fell, and one explorer's mutations are replayed onto another's program.
//!
//! Why: some costs need two mutations that each change nothing measurable alone. A new
//! version of a lookup table that scans its slot bounds instead of bisecting them is slower
//! only when the table is large (a constructor argument) *and* the looked-up value lies far
//! along the scan (a call argument). A large table with a small value is, if anything,
//! faster than the old version; a far value in a small table scans a handful of slots. Each
//! half lowers the relative score, so neither path is followed to the other, and
//! `explore --baseline HEAD~1` ran 8752 programs and kept the initial program as its best.
//! But each half does reach behaviour its parent did not have: the scan ran longer on the
//! new version, the bisection went deeper on the old one.
//!
//! Coverage here is what the worker measures without extra instrumentation: the edges of
//! the calls under test on each version, bucketed on a log scale ([`BUCKETS_PER_OCTAVE`]),
//! as AFL buckets hit counts. A node whose bucket on either version was never reached is
//! an explorer. A crossover takes two explorers that are not one another's ancestor, and
//! applies the second's mutations since their common ancestor to the first's program, in
//! order, skipping those that no longer apply: the first's large table with the second's far
//! value. Strategies evaluate a few such children alongside their own (see
//! [`CROSSOVERS_PER_ROUND`]); a child that shows the gap scores and is kept like any other.

use std::collections::BTreeSet;

use perfsyn_profiler_ipc::check::check;
use perfsyn_profiler_ipc::Program;
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

use super::{Candidate, Search};
use crate::search::mutate::apply;

/// Coverage buckets per doubling of a call's edges.
pub const BUCKETS_PER_OCTAVE: f64 = 2.0;
/// Explorers kept (the newest), so that a crossover's pair is drawn among recent finds.
pub const MAX_EXPLORERS: usize = 256;
/// Crossover children a strategy adds to a round that asks for them.
pub const CROSSOVERS_PER_ROUND: usize = 4;

/// The coverage buckets reached on each version, and the explorers that reached them.
#[derive(Clone, Debug, Default)]
pub struct Explorers {
    seen_new: BTreeSet<u32>,
    seen_old: BTreeSet<u32>,
    /// Node ids, oldest first.
    ids: Vec<usize>,
}

/// The bucket of a call cost of `edges` edges.
pub fn bucket(edges: u64) -> u32 {
    ((edges as f64 + 1.0).log2() * BUCKETS_PER_OCTAVE).floor() as u32
}

impl Explorers {
    /// Offers node `id` whose calls under test ran `edges` edges (and `edges_ref` on the old
    /// version of a pair); true when it reached a bucket not reached before on either.
    pub fn offer(&mut self, id: usize, edges: u64, edges_ref: Option<u64>) -> bool {
        let mut new = self.seen_new.insert(bucket(edges));
        if let Some(r) = edges_ref {
            new |= self.seen_old.insert(bucket(r));
        }
        if new {
            self.ids.push(id);
            if self.ids.len() > MAX_EXPLORERS {
                self.ids.remove(0);
            }
        }
        new
    }

    /// The explorers, oldest first.
    pub fn ids(&self) -> &[usize] {
        &self.ids
    }
}

impl Search<'_> {
    /// Up to `k` crossover children of two explorers each (see the module doc), as
    /// candidates of the first explorer. Draws from the search's generator, so a seeded
    /// search stays deterministic.
    pub fn crossovers(&mut self, k: usize) -> Vec<Candidate> {
        let mut out: Vec<Candidate> = Vec::new();
        let n = self.explorers.ids().len();
        if n < 2 {
            return out;
        }
        for _ in 0..4 * k {
            if out.len() >= k {
                break;
            }
            let a = self.explorers.ids()[self.rng.random_range(0..n)];
            let b = self.explorers.ids()[self.rng.random_range(0..n)];
            if let Some(c) = self.cross(a, b) {
                if !out.iter().any(|o| o.program == c.program) {
                    out.push(c);
                }
            }
        }
        out
    }

    /// `b`'s mutations since its common ancestor with `a`, applied to `a`'s program; `None`
    /// when one is the other's ancestor, none applies, or the program was already run.
    fn cross(&mut self, a: usize, b: usize) -> Option<Candidate> {
        let (pa, pb) = (self.path(a), self.path(b));
        if a == b || pa.contains(&b) || pb.contains(&a) {
            return None;
        }
        let common = pa.iter().zip(&pb).take_while(|(x, y)| x == y).count();
        let mut rng = StdRng::seed_from_u64(self.rng.random());
        let mut program: Program = self.nodes[a].program.clone();
        let mut last = None;
        for &i in &pb[common..] {
            let Some(m) = self.nodes[i].mutation.clone() else {
                continue;
            };
            if let Some(q) = apply(&program, &m, &self.schema, &self.cfg.mutation, &mut rng) {
                if check(&q, &self.schema).is_ok() {
                    program = q;
                    last = Some(m);
                }
            }
        }
        let mutation = last?;
        if self.known.contains_key(&program.stable_hash()) {
            return None;
        }
        Some(Candidate {
            parent: a,
            mutation,
            program,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_new_bucket_on_either_version_makes_an_explorer() {
        let mut e = Explorers::default();
        assert!(e.offer(0, 100, Some(100)));
        assert!(!e.offer(1, 100, Some(100)), "same buckets");
        assert!(!e.offer(2, 101, Some(100)), "within the bucket");
        assert!(e.offer(3, 100, Some(400)), "new on the old version only");
        assert!(e.offer(4, 400, None), "new on the version under analysis");
        assert_eq!(e.ids(), &[0, 3, 4]);
    }
}
