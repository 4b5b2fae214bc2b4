//! A*-based mutation selection (Algorithm 5) with SMA*-style memory bound.
//!
//! Nodes are ordered by the oracle's score alone (the paper uses no heuristic h). The
//! open set lives in a `DoublePriorityQueue` so pruning pops the worst. Deviation: the
//! paper scores every mutation of an expanded node; here at most [`AStar::children`] of them,
//! sampled with probability proportional to the learning table's prediction, because a
//! program with a few variables already has hundreds of mutations and evaluating all of them
//! would spend the budget on the first levels of the tree. Unsampled mutations stay
//! reachable: a node is re-expanded when the open set runs dry.
//!
//! Ordering by score alone stalls wherever the way to a bottleneck first lowers the score
//! (see [`super::novelty`]), so every [`AStar::novelty_every`]-th expansion takes a niche
//! elite of the novelty archive instead of the open set's best: a node that reached a new
//! input size, or more cost at a size already reached, is expanded whatever its score.
//! Every second round also evaluates a few crossovers of nodes that reached new coverage
//! ([`super::crossover`]): bugs that need two mutations at once.

use anyhow::Result;
use ordered_float::OrderedFloat;
use priority_queue::DoublePriorityQueue;
use rand::RngExt;

use super::{sample_weighted, Mutant, Search, Strategy};

/// The A* strategy.
#[derive(Debug)]
pub struct AStar {
    open: DoublePriorityQueue<usize, OrderedFloat<f64>>,
    /// maxOpenSize: prune when the open set reaches this many nodes.
    pub max_open: usize,
    /// bestOpenSize: how many nodes survive pruning.
    pub best_open: usize,
    /// Mutations evaluated per expansion.
    pub children: usize,
    /// Every this many expansions, one is a niche elite of the novelty archive (0: never).
    pub novelty_every: u64,
    started: bool,
    reseeds: usize,
    rounds: u64,
}

impl Default for AStar {
    fn default() -> Self {
        AStar {
            open: DoublePriorityQueue::new(),
            max_open: 8192,
            best_open: 16,
            children: 32,
            novelty_every: 2,
            started: false,
            reseeds: 0,
            rounds: 0,
        }
    }
}

impl Strategy for AStar {
    fn name(&self) -> &'static str {
        "astar"
    }

    fn round(&mut self, s: &mut Search<'_>) -> Result<()> {
        if !self.started {
            self.open.push(0, OrderedFloat(s.nodes[0].score));
            self.started = true;
        }
        self.rounds += 1;
        let mut found = None;
        if self.novelty_every > 0 && self.rounds % self.novelty_every == 0 {
            if let Some(node) = s.novelty_pick() {
                let muts = s.mutations_of(node);
                if !muts.is_empty() {
                    found = Some((node, muts));
                }
            }
        }
        // The next node with mutations left (nodes at maxMuts have none).
        for _ in 0..64 {
            if found.is_some() {
                break;
            }
            let node = match self.open.pop_max() {
                Some((n, _)) => n,
                None => {
                    // The open set ran dry (pruned, or everything expanded): re-expand one of
                    // the best 64 nodes, chosen at random, so unsampled mutations stay
                    // reachable.
                    let best = s.best_nodes(64);
                    self.reseeds += 1;
                    best[s.rng.random_range(0..best.len())]
                }
            };
            let muts = s.mutations_of(node);
            if !muts.is_empty() {
                found = Some((node, muts));
                break;
            }
        }
        let Some((node, muts)) = found else {
            return Ok(());
        };
        // A few of the literals' fragments tried once each (`super::fragment_probe`).
        s.fragment_probes()?;
        let weights: Vec<f64> = muts.iter().map(|m| s.learn.predict(&m.key())).collect();
        let picks = sample_weighted(&mut s.rng, &weights, muts.len());
        let mut cands = Vec::new();
        for i in picks {
            if cands.len() >= self.children {
                break;
            }
            if let Mutant::New(c) = s.mutant(node, &muts[i]) {
                cands.push(c);
            }
        }
        if self.rounds % 2 == 1 {
            cands.extend(s.crossovers(super::crossover::CROSSOVERS_PER_ROUND));
        }
        // Fragments that just paid off, in their growing shapes (`super::fragment_shapes`).
        cands.extend(s.fragment_followups(super::fragment_shapes::FOLLOWUPS_PER_ROUND));
        for id in s.evaluate(cands)?.into_iter().flatten() {
            self.open.push(id, OrderedFloat(s.nodes[id].score));
        }
        if self.open.len() >= self.max_open {
            while self.open.len() > self.best_open {
                self.open.pop_min();
            }
        }
        Ok(())
    }
}
