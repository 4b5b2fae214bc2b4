//! Probes: every fragment a string literal can draw is tried once, shortest first, alone and
//! after the literal's own text, with the code addresses its call hits counted; a probe that
//! hits code no probe hit before wins, and its fragment earns weight and is queued for the
//! growing shapes (`credit.rs`, `fragment_shapes.rs`).
//!
//! Why: a crate's tests give a literal thousands of fragments to draw, and a search of a few
//! thousand programs draws a rare one about never (see `credit.rs`). AFL's dictionary stage
//! tries every token once; here too, but a few per round, so the search's own mutations go
//! on meanwhile. Shortest first: a longer fragment's new code is mostly that of the shorter
//! tokens it holds, and a parser's tokens are short. The addresses are the worker's hot
//! counts (`Executor::run_hot`), the real code a call reached, finer than the edge count
//! the search scores by: a token and a word of the same length cost alike but run different
//! code. An executor that cannot count them (a version pair) gets no probes.
//!
//! Each probe is a program of the budget. The probes run on one node's program: the oldest
//! with a top-level string literal that draws fragments (usually the initial program).

use anyhow::Result;
use perfsyn_profiler_ipc::check::check;
use perfsyn_profiler_ipc::{Literal, Program, Stmt};
use rand::RngExt;

use super::{Budget, Search};
use crate::search::credit::Followup;
use crate::search::fresh::setup_end;
use crate::search::text;

/// Fragments probed per round of a strategy (each gives up to two programs).
pub const PROBED_PER_ROUND: usize = 8;

impl Search<'_> {
    /// Probes up to [`PROBED_PER_ROUND`] fragments not probed yet (see the module doc).
    pub fn fragment_probes(&mut self) -> Result<()> {
        if !self.cfg.mutation.credit.enabled || !self.has_budget() {
            return Ok(());
        }
        let Some((node, at, own, pool)) = self.probe_site() else {
            return Ok(());
        };
        // Shortest first; among equals, an order the seed fixes.
        let mut untried: Vec<(usize, u64, String)> = pool
            .into_iter()
            .filter(|(f, _)| !self.cfg.mutation.credit.probe_peek(f))
            .map(|(f, _)| (f.chars().count(), self.rng.random::<u64>(), f))
            .collect();
        untried.sort();
        let mut programs: Vec<Program> = Vec::new();
        let mut probes: Vec<Option<Followup>> = Vec::new();
        // First the literal's own text, whose code no fragment is credited for.
        if !self.cfg.mutation.credit.probe(&own) {
            programs.push(self.nodes[node].program.clone());
            probes.push(None);
        }
        for (_, _, frag) in untried.into_iter().take(PROBED_PER_ROUND) {
            self.cfg.mutation.credit.probe(&frag);
            let mut texts = vec![(frag.clone(), None)];
            if !own.is_empty() {
                texts.push((format!("{own}{frag}"), Some(own.clone())));
            }
            for (t, partner) in texts {
                let mut q = self.nodes[node].program.clone();
                if let Some(Stmt::Lit { value, .. }) = q.body.get_mut(at) {
                    *value = Literal::Str(t);
                }
                if check(&q, &self.schema).is_ok() {
                    programs.push(q);
                    probes.push(Some(Followup {
                        node,
                        at,
                        fragment: frag.clone(),
                        partner,
                    }));
                }
            }
        }
        if let Budget::Programs(n) = self.cfg.budget {
            let left = n.saturating_sub(self.stats.programs) as usize;
            programs.truncate(left);
        }
        if programs.is_empty() {
            return Ok(());
        }
        let Some((feedback, _)) = self.exec.run_hot(&programs)? else {
            self.cfg.mutation.credit.enabled = false;
            return Ok(());
        };
        for (f, probe) in feedback.iter().zip(probes) {
            self.stats.programs += 1;
            if f.is_ok() {
                // A probe is a program the search ran: its coverage counts like any other's.
                self.stats.valid += 1;
                self.edge_counts.insert(f.cost.edges);
                self.stats.distinct_edge_counts = self.edge_counts.len() as u64;
            }
            let hit = f.hot.iter().filter(|_| f.is_ok()).map(|h| h.addr);
            match probe {
                Some(probe) => {
                    self.cfg.mutation.credit.probed(probe, hit);
                }
                None => self.cfg.mutation.credit.reach(hit),
            }
        }
        Ok(())
    }

    /// Where probes run: the oldest node with a top-level string literal (before the calls
    /// under test) that draws fragments; its id, the literal's statement, its text and the
    /// fragments.
    fn probe_site(&self) -> Option<(usize, usize, String, Vec<(String, u32)>)> {
        self.nodes.iter().enumerate().take(64).find_map(|(id, n)| {
            let p = &n.program;
            (0..setup_end(p)).find_map(|at| match &p.body[at] {
                Stmt::Lit {
                    value: Literal::Str(s),
                    ..
                } => {
                    let pool = text::fragment_pool(p, &self.schema, &self.cfg.mutation, at);
                    (!pool.is_empty()).then(|| (id, at, s.clone(), pool))
                }
                _ => None,
            })
        })
    }
}
