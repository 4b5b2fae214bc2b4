//! The initial program p0 for a method under test (Algorithm 4 applied to every operand of
//! the call): concretize the receiver and each parameter with the first constructor sequence
//! that runs without a panic, trying further candidates before giving up.

use anyhow::Result;
use perfsyn_profiler_ipc::{Outcome, Program, Stmt};

use crate::exec::Executor;
use crate::mutate::{init_fresh, Choice, MutationConfig};
use crate::spec::MethodRef;

/// How many candidate initial programs are tried, in one batch.
pub const CANDIDATES: usize = 48;

/// The result of looking for p0.
#[derive(Debug, Clone)]
pub enum Initial {
    Found(Program),
    /// No candidate ran; the reason is the outcome of the first candidate.
    NotFound(String),
}

/// Candidate `k`: the `k`-th combination of constructor and pool choices, in mixed radix
/// order, so candidate 0 is exactly "the first constructor, the first pool value" of
/// Algorithm 4.
pub fn candidate(
    target: &MethodRef<'_>,
    schema: &perfsyn_profiler_ipc::ApiSchema,
    cfg: &MutationConfig,
    k: usize,
) -> Option<Program> {
    let mut digits = Vec::new();
    // Spread k over the choice digits: the low digits change fastest.
    let mut rest = k;
    for _ in 0..8 {
        digits.push(rest % 3);
        rest /= 3;
    }
    let mut p = Program::default();
    let mut choice = Choice::Nth(&mut digits, 0);
    let mut vars = Vec::new();
    let (s, recv) = init_fresh(&mut p, schema, cfg, &target.ty.name, false, &mut choice, 3)?;
    p.body.extend(s);
    for prm in &target.method.params {
        let (s, v) = init_fresh(&mut p, schema, cfg, &prm.ty, false, &mut choice, 3)?;
        p.body.extend(s);
        vars.push(v);
    }
    let out = target
        .method
        .ret
        .as_ref()
        .filter(|r| schema.knows(r))
        .map(|r| p.fresh(r));
    p.body.push(Stmt::Call {
        out,
        ty: target.ty.name.clone(),
        method: target.method.name.clone(),
        recv,
        args: vars,
        under_test: true,
    });
    Some(p)
}

/// Finds p0 by running up to [`CANDIDATES`] candidates in one batch and taking the first
/// (in candidate order) that completes.
pub fn initial_program(
    exec: &mut dyn Executor,
    target: &MethodRef<'_>,
    cfg: &MutationConfig,
) -> Result<Initial> {
    let schema = exec.schema().clone();
    let mut seen = std::collections::HashSet::new();
    let cands: Vec<Program> = (0..CANDIDATES)
        .filter_map(|k| candidate(target, &schema, cfg, k))
        .filter(|p| seen.insert(p.clone()))
        .collect();
    if cands.is_empty() {
        return Ok(Initial::NotFound(format!(
            "no constructor sequence can build the operands of {}",
            target.display()
        )));
    }
    let fb = exec.run(&cands)?;
    if let Some(i) = fb.iter().position(|f| f.outcome == Outcome::Ok) {
        return Ok(Initial::Found(cands[i].clone()));
    }
    let reason = match &fb[0].outcome {
        Outcome::Panic { message, .. } => {
            format!("every candidate failed; the first panicked: {message}")
        }
        o => format!("every candidate failed; the first ended with {}", o.label()),
    };
    Ok(Initial::NotFound(reason))
}
