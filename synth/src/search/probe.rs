//! The growth probe: before a strategy's first round, one loop of each `&mut self` method
//! on the receiver of the call under test.
//!
//! Strategies sample a few dozen of a program's mutations per expansion, weighted by the
//! learning table, which knows nothing yet. On a type with many methods most mutations
//! read the receiver and never grow it: ropey's `Rope` has 135 registered methods, a
//! handful of them mutating, and in a hunt's 60 programs the search never built a larger
//! rope for 119 of 232 documented methods (every verdict "only 1 distinct sizes"). The
//! probe spends at most [`MAX_PROBES`] programs on the loops that can grow the input; the
//! ones that do grow it are new niches of the novelty archive and raise the learning
//! table's prediction for their key, so the strategy continues from them. A method whose
//! loop panics or does not grow costs one program.

use anyhow::Result;
use perfsyn_profiler_ipc::schema::Mode;
use perfsyn_profiler_ipc::Stmt;

use super::{Mutant, Search};
use crate::search::fresh::setup_end;
use crate::search::mutate::{Mutation, OpKind, Operand};

/// The most probes one search spends.
pub const MAX_PROBES: usize = 12;

/// The probe mutations of the root (node 0): per `&mut self` method of the receiver under
/// test, its loop at the smallest injected count, the sized variant when there is one
/// (`grow.rs`: a loop that only runs with a larger capacity).
pub fn probes(s: &Search<'_>) -> Vec<Mutation> {
    let p = &s.nodes[0].program;
    let Some(Stmt::Call { recv, .. }) = p.body.get(setup_end(p)) else {
        return Vec::new();
    };
    let Some(&count) = s.cfg.mutation.loop_counts.iter().min() else {
        return Vec::new();
    };
    let muts = s.mutations_of(0);
    let mut out: Vec<Mutation> = Vec::new();
    for m in muts.iter().filter(|m| {
        m.op == OpKind::InjectLoop
            && m.count == count
            && m.operands.first() == Some(&Operand::Existing(*recv))
            && mutates_receiver(s, &m.target)
    }) {
        if out.iter().any(|o| o.target == m.target) {
            continue;
        }
        let sized = muts.iter().find(|x| {
            x.op == OpKind::InjectLoopSized
                && x.target == m.target
                && x.count == m.count
                && x.at == m.at
                && x.operands == m.operands
        });
        out.push(sized.unwrap_or(m).clone());
        if out.len() == MAX_PROBES {
            break;
        }
    }
    out
}

fn mutates_receiver(s: &Search<'_>, target: &str) -> bool {
    let Some((t, m)) = target.rsplit_once("::") else {
        return false;
    };
    s.schema
        .ty(t)
        .and_then(|t| t.method(m))
        .is_some_and(|m| m.receiver == Mode::Mut)
}

/// Runs the probes on the root (see the module doc). Not for a relative search: it compares
/// two versions at any size and needs no range of sizes, and on the built-in corpus's 60-
/// program hunt the probes' budget cost two regressions found at sizes 2 and 3
/// (`TreeList::get`, `ListOrderedSet::add`).
pub fn run(s: &mut Search<'_>) -> Result<()> {
    if s.nodes.len() != 1 || s.is_relative() {
        return Ok(());
    }
    let mut cands = Vec::new();
    for m in probes(s) {
        if let Mutant::New(c) = s.mutant(0, &m) {
            cands.push(c);
        }
    }
    s.evaluate(cands)?;
    Ok(())
}
