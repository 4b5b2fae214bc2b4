//! The initial program p0 for a method under test (Algorithm 4 applied to every operand of
//! the call): concretize the receiver and each parameter with the first constructor sequence
//! that runs without a panic, trying further candidates before giving up.

use anyhow::Result;
use perfsyn_profiler_ipc::{Mode, Outcome, Program, Stmt, Var};

use crate::harness::spec::MethodRef;
use crate::run::exec::Executor;
use crate::search::fresh::{creatable, init_fresh, Choice, MutationConfig};
use crate::search::handles::init_or_obtain;

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
    let (s, recv) = init_or_obtain(
        &mut p,
        schema,
        cfg,
        &target.ty.name,
        &[],
        false,
        &mut choice,
        3,
    )?;
    p.body.extend(s);
    for prm in &target.method.params {
        // A handle operand comes from a call on the receiver (see `handles`).
        let prefer: Vec<Var> = std::iter::once(recv).chain(vars.iter().copied()).collect();
        let (s, v) = init_or_obtain(&mut p, schema, cfg, &prm.ty, &prefer, false, &mut choice, 3)?;
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
    let grown: Vec<Program> = cands
        .iter()
        .flat_map(|c| grown_candidates(c, target, &schema, cfg))
        .filter(|p| seen.insert(p.clone()))
        .take(CANDIDATES)
        .collect();
    if !grown.is_empty() {
        let gfb = exec.run(&grown)?;
        if let Some(i) = gfb.iter().position(|f| f.outcome == Outcome::Ok) {
            return Ok(Initial::Found(grown[i].clone()));
        }
    }
    let reason = match &fb[0].outcome {
        Outcome::Panic { message, .. } => {
            format!("every candidate failed; the first panicked: {message}")
        }
        o => format!("every candidate failed; the first ended with {}", o.label()),
    };
    Ok(Initial::NotFound(reason))
}

/// How many times a grown candidate calls the growing method before the call under test.
const GROWN_CALLS: u32 = 4;

/// Candidates for a method that panics on an empty receiver (`remove(index)`, `swap(a, b)`,
/// `pop().unwrap()`-like methods): the receiver first takes [`GROWN_CALLS`] calls, in a loop,
/// of one of its own `&mut self` methods (arguments from the loop index), one candidate per
/// such method. Algorithm 4 only concretizes operands with constructors, so for these methods
/// no candidate ever ran (skiplist's `SkipList::remove`, sorted-vec's `remove_index`).
fn grown_candidates(
    base: &Program,
    target: &MethodRef<'_>,
    schema: &perfsyn_profiler_ipc::ApiSchema,
    cfg: &MutationConfig,
) -> Vec<Program> {
    let Some(at) = base.body.iter().position(|s| {
        matches!(
            s,
            Stmt::Call {
                under_test: true,
                ..
            }
        )
    }) else {
        return Vec::new();
    };
    let Stmt::Call { recv, .. } = &base.body[at] else {
        return Vec::new();
    };
    let recv = *recv;
    let Some(ty) = schema.ty(&target.ty.name) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for m in &ty.methods {
        if m.receiver != Mode::Mut
            || m.name == target.method.name
            || !m.params.iter().all(|q| creatable(schema, &q.ty, 2))
        {
            continue;
        }
        let mut p = base.clone();
        let mut digits = Vec::new();
        let mut choice = Choice::Nth(&mut digits, 0);
        let mut body = Vec::new();
        let mut args = Vec::new();
        let mut ok = true;
        for q in &m.params {
            match init_fresh(&mut p, schema, cfg, &q.ty, true, &mut choice, 2) {
                Some((s, v)) => {
                    body.extend(s);
                    args.push(v);
                }
                None => ok = false,
            }
        }
        if !ok {
            continue;
        }
        body.push(Stmt::Call {
            out: None,
            ty: target.ty.name.clone(),
            method: m.name.clone(),
            recv,
            args,
            under_test: false,
        });
        p.body.insert(
            at,
            Stmt::Repeat {
                n: GROWN_CALLS,
                body,
            },
        );
        out.push(p);
    }
    out
}

#[cfg(test)]
mod tests {
    use perfsyn_profiler_ipc::{
        register_type, ApiSchema, Feedback, Outcome, Program, Registry, Stmt,
    };

    use super::{initial_program, Initial};
    use crate::harness::spec::resolve_method;
    use crate::run::exec::Executor;
    use crate::search::fresh::MutationConfig;

    /// A stack whose `take(i)` panics unless `i` is below its length.
    #[derive(Default)]
    pub struct Stack {
        keys: Vec<u64>,
    }

    impl Stack {
        pub fn push(&mut self, k: u64) {
            self.keys.push(k)
        }
        pub fn take(&mut self, i: usize) -> u64 {
            self.keys.remove(i)
        }
    }

    register_type! {
        pub fn stack() -> Stack {
            path: "Stack",
            imports: [],
            version: None,
            size: [|s| s.keys.len() as u64],
            ctors { new() => Stack::default(); }
            methods {
                push(mut self, k: copy u64);
                take(mut self, i: copy usize) -> u64;
            }
            fields {}
        }
    }

    /// Runs programs over `Stack` by counting pushes: `take` panics on a stack of at most
    /// one key whatever the index (the pool's smallest value is 0 or 1).
    struct Pushes(ApiSchema);

    fn pushes(body: &[Stmt]) -> u32 {
        body.iter()
            .map(|s| match s {
                Stmt::Call { method, .. } if method == "push" => 1,
                Stmt::Repeat { n, body } => n * pushes(body),
                _ => 0,
            })
            .sum()
    }

    impl Executor for Pushes {
        fn schema(&self) -> &ApiSchema {
            &self.0
        }
        fn run(&mut self, programs: &[Program]) -> anyhow::Result<Vec<Feedback>> {
            Ok(programs
                .iter()
                .map(|p| {
                    Feedback::failed(if pushes(&p.body) >= 2 {
                        Outcome::Ok
                    } else {
                        Outcome::Panic {
                            stmt: 0,
                            message: "removal index out of bounds".into(),
                        }
                    })
                })
                .collect())
        }
    }

    /// A method that panics on an empty receiver gets an initial program that grows the
    /// receiver first with one of its own methods.
    #[test]
    fn a_method_that_needs_a_grown_receiver_gets_one() {
        let mut exec = Pushes(Registry::new(vec![stack()]).schema());
        let schema = exec.0.clone();
        let target = resolve_method(&schema, "Stack::take").unwrap();
        let found = initial_program(&mut exec, &target, &MutationConfig::default()).unwrap();
        let Initial::Found(p) = found else {
            panic!("no initial program: {found:?}");
        };
        assert!(pushes(&p.body) >= 2, "{p:?}");
    }
}
