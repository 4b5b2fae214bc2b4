//! Ant-colony mutation selection (Algorithm 6, eq. 3.1 and 3.2).
//!
//! Each round, 16 ants walk `nb_mut` steps from p0 (Algorithm 2's inner loops; `nb_mut`
//! cycles through 1..=maxMuts). At each step an ant picks a random mutation with probability
//! epsilon = 0.25 and otherwise by roulette over tau(mu) * L(mu) (eq. 3.1). The ants' steps
//! run as one batch. After the round, pheromones evaporate by phi and those on the best
//! path so far are reinforced by tau * score (eq. 3.2), with the score squashed into [0, 1)
//! because our oracle's scores are unbounded logs. Pheromones stay within [tau_min,
//! tau_max] (MAX-MIN ant system) so no mutation ever becomes impossible.
//!
//! Deviation: every second ant starts from a niche elite of the novelty archive
//! ([`super::novelty`]) instead of p0, so that walks continue from programs that reached a
//! new size or more cost at a size, even when their score did not improve; the pheromones
//! still reinforce the best path from p0. After the ants, a few crossovers of nodes that
//! reached new coverage run too ([`super::crossover`]).

use std::collections::HashMap;

use anyhow::Result;
use rand::RngExt;

use super::{Mutant, Search, Strategy};
use crate::search::mutate::{LearnKey, Mutation};

/// The ACO strategy.
#[derive(Debug)]
pub struct Aco {
    pub ants: usize,
    pub epsilon: f64,
    /// phi: the evaporation rate.
    pub evaporation: f64,
    pub tau0: f64,
    pub tau_min: f64,
    pub tau_max: f64,
    pheromone: HashMap<LearnKey, f64>,
    nb_mut: u32,
}

impl Default for Aco {
    fn default() -> Self {
        Aco {
            ants: 16,
            epsilon: 0.25,
            evaporation: 0.1,
            tau0: 1.0,
            tau_min: 0.05,
            tau_max: 20.0,
            pheromone: HashMap::new(),
            nb_mut: 0,
        }
    }
}

/// Walks one ant from each node of `starts` for `steps` steps, choosing with `pick`;
/// returns nothing, nodes land in the search tree.
pub(super) fn walk(
    s: &mut Search<'_>,
    starts: &[usize],
    steps: u32,
    pick: &mut dyn FnMut(&mut Search<'_>, &[Mutation]) -> usize,
) -> Result<()> {
    let mut at = starts.to_vec();
    for _ in 0..steps {
        if !s.has_budget() {
            break;
        }
        let mut cands = Vec::new();
        let mut owner = Vec::new();
        for (a, pos) in at.iter_mut().enumerate() {
            let muts = s.mutations_of(*pos);
            if muts.is_empty() {
                continue;
            }
            // A few tries: a pick may not apply, or lead to a program that failed before.
            for _ in 0..4 {
                let i = pick(s, &muts);
                match s.mutant(*pos, &muts[i]) {
                    Mutant::New(c) => {
                        cands.push(c);
                        owner.push(a);
                        break;
                    }
                    Mutant::Known(Some(id)) => {
                        *pos = id;
                        break;
                    }
                    Mutant::Known(None) | Mutant::Rejected => {}
                }
            }
        }
        // Two ants may have produced the same program: run it once.
        let mut seen = std::collections::HashSet::new();
        let keep: Vec<bool> = cands
            .iter()
            .map(|c| seen.insert(c.program.clone()))
            .collect();
        let mut run = Vec::new();
        let mut run_owner = Vec::new();
        for ((c, o), k) in cands.into_iter().zip(owner).zip(keep) {
            if k {
                run.push(c);
                run_owner.push(o);
            }
        }
        let ids = s.evaluate(run)?;
        for (id, a) in ids.into_iter().zip(run_owner) {
            if let Some(id) = id {
                at[a] = id;
            }
        }
    }
    Ok(())
}

impl Strategy for Aco {
    fn name(&self) -> &'static str {
        "aco"
    }

    fn round(&mut self, s: &mut Search<'_>) -> Result<()> {
        self.nb_mut = self.nb_mut % s.cfg.max_depth + 1;
        let pher = &self.pheromone;
        let (eps, tau0) = (self.epsilon, self.tau0);
        let mut pick = |s: &mut Search<'_>, muts: &[Mutation]| -> usize {
            if s.rng.random::<f64>() <= eps {
                return s.rng.random_range(0..muts.len());
            }
            let w: Vec<f64> = muts
                .iter()
                .map(|m| {
                    let k = m.key();
                    pher.get(&k).copied().unwrap_or(tau0) * s.learn.predict(&k)
                })
                .collect();
            let total: f64 = w.iter().sum();
            let mut r = s.rng.random::<f64>() * total;
            for (i, x) in w.iter().enumerate() {
                if r < *x {
                    return i;
                }
                r -= x;
            }
            s.rng.random_range(0..muts.len())
        };
        let mut starts = vec![0usize; self.ants];
        for start in starts.iter_mut().skip(1).step_by(2) {
            *start = s.novelty_pick().unwrap_or(0);
        }
        walk(s, &starts, self.nb_mut, &mut pick)?;
        // A few of the literals' fragments tried once each (`super::fragment_probe`).
        s.fragment_probes()?;
        // Two mutations at once (see `super::crossover`); kept by score like any node.
        let mut crossed = s.crossovers(super::crossover::CROSSOVERS_PER_ROUND);
        // Fragments that just paid off, in their growing shapes (`super::fragment_shapes`).
        crossed.extend(s.fragment_followups(super::fragment_shapes::FOLLOWUPS_PER_ROUND));
        s.evaluate(crossed)?;
        // Eq. 3.2: evaporate everywhere, reinforce the best path so far.
        let best = s.best;
        let squashed = 1.0 - (-s.nodes[best].score.max(0.0)).exp();
        let on_best: Vec<LearnKey> = s.path_mutations(best).iter().map(Mutation::key).collect();
        for k in &on_best {
            self.pheromone.entry(k.clone()).or_insert(self.tau0);
        }
        for (k, t) in self.pheromone.iter_mut() {
            let old = *t;
            *t = (1.0 - self.evaporation) * old;
            if on_best.contains(k) {
                *t += old * squashed;
            }
            *t = t.clamp(self.tau_min, self.tau_max);
        }
        Ok(())
    }
}
