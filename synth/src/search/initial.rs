//! The initial program p0 for a method under test (Algorithm 4 applied to every operand of
//! the call): concretize the receiver and each parameter with the first constructor sequence
//! that runs without a panic, trying further candidates before giving up.

use anyhow::Result;
use perfsyn_profiler_ipc::{Literal, Mode, Outcome, Program, Stmt, Var};

use crate::harness::spec::MethodRef;
use crate::run::exec::Executor;
use crate::search::fresh::{creatable, init_fresh, Choice, MutationConfig};
use crate::search::handles::init_or_obtain;
use crate::search::mutate::held_values;

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
    let held: Vec<Program> = grown
        .iter()
        .chain(&cands)
        .flat_map(held_index_candidates)
        .filter(|p| seen.insert(p.clone()))
        .take(CANDIDATES)
        .collect();
    if !held.is_empty() {
        let hfb = exec.run(&held)?;
        if let Some(i) = hfb.iter().position(|f| f.outcome == Outcome::Ok) {
            return Ok(Initial::Found(held[i].clone()));
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

/// Where the call under test stands in the program's body.
fn call_under_test(p: &Program) -> Option<usize> {
    p.body.iter().position(|s| {
        matches!(
            s,
            Stmt::Call {
                under_test: true,
                ..
            }
        )
    })
}

/// Candidates for a method whose integer arguments must differ or lie below the receiver's
/// length (`swap(i, j)` with `i != j`, a triplet of distinct indices): the integer literals
/// passed to the call under test take distinct values from what the program holds, the
/// indices below the length its loops give the receiver (0, 1, 2, ..., and from the last one
/// down), before any constant of the pool. Tried only when every candidate of Algorithm 4
/// and every grown one failed, so the methods that have a first program keep it. The pool
/// repeats its first value in every argument of candidate 0 (`swap(0, 0)`), and Vector's
/// `focus_mut_triplet` never got a first valid program.
fn held_index_candidates(base: &Program) -> Vec<Program> {
    let Some(at) = call_under_test(base) else {
        return Vec::new();
    };
    let Stmt::Call { args, .. } = &base.body[at] else {
        return Vec::new();
    };
    // The integer literals defined at the top level and passed to the call under test.
    let lits: Vec<usize> = args
        .iter()
        .filter_map(|a| {
            base.body[..at].iter().position(
                |s| matches!(s, Stmt::Lit { out, value: Literal::Int { .. } } if out == a),
            )
        })
        .collect();
    if lits.is_empty() {
        return Vec::new();
    }
    // The length the loops give the receiver: the largest count the program holds.
    let len = held_values(base)
        .into_iter()
        .filter(|v| *v > 0)
        .max()
        .unwrap_or(1);
    let k = lits.len() as i64;
    let ascending: Vec<i64> = (0..k).collect();
    let from_last: Vec<i64> = (0..k).map(|j| (len - 1 - j).max(0)).collect();
    let mut rotated = ascending.clone();
    rotated.rotate_left(1);
    let mut out = Vec::new();
    for values in [ascending, rotated, from_last] {
        let mut p = base.clone();
        for (&i, &v) in lits.iter().zip(&values) {
            if let Stmt::Lit {
                value: Literal::Int { ty, value },
                ..
            } = &mut p.body[i]
            {
                *value = ty.clamp(v);
            }
        }
        if p != *base {
            out.push(p);
        }
    }
    out
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
    let Some(at) = call_under_test(base) else {
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
        // Right after the receiver is built, before the calls that hand out its handles
        // (`add_edge` needs nodes: the `EdgeIndex` of adj::List's `edge_endpoints` came
        // from an empty list, and no candidate ran).
        let after_recv = p.body[..at]
            .iter()
            .position(|s| s.defines() == Some(recv))
            .map_or(at, |d| d + 1);
        p.body.insert(
            after_recv,
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
        pub fn swap_distinct(&mut self, i: usize, j: usize) {
            assert_ne!(i, j);
            self.keys.swap(i, j)
        }
    }

    register_type! {
        pub fn stack() -> Stack {
            path: "Stack",
            imports: [],
            version: None,
            size: [|s| s.keys.len() as u64],
            // Four choices before the method's arguments: with 48 candidates, the
            // arguments' choices are always the pool's first value.
            ctors { new(a: copy u64, b: copy u64, c: copy u64, d: copy u64) => Stack::default(); }
            methods {
                push(mut self, k: copy u64);
                take(mut self, i: copy usize) -> u64;
                swap_distinct(mut self, i: copy usize, j: copy usize);
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

    /// Runs `swap_distinct` as the stack would: it panics unless the receiver holds two
    /// keys and the two indices differ and lie below the length.
    struct Distinct(ApiSchema);

    fn int_of(p: &Program, v: perfsyn_profiler_ipc::Var) -> Option<i64> {
        p.body.iter().find_map(|s| match s {
            Stmt::Lit {
                out,
                value: perfsyn_profiler_ipc::Literal::Int { value, .. },
            } if *out == v => Some(*value),
            _ => None,
        })
    }

    impl Executor for Distinct {
        fn schema(&self) -> &ApiSchema {
            &self.0
        }
        fn run(&mut self, programs: &[Program]) -> anyhow::Result<Vec<Feedback>> {
            Ok(programs
                .iter()
                .map(|p| {
                    let len = pushes(&p.body) as i64;
                    let ok = p.body.iter().any(|s| match s {
                        Stmt::Call {
                            under_test: true,
                            args,
                            ..
                        } => {
                            let (i, j) = (int_of(p, args[0]), int_of(p, args[1]));
                            i != j && i.zip(j).is_some_and(|(i, j)| i.max(j) < len)
                        }
                        _ => false,
                    });
                    Feedback::failed(if ok {
                        Outcome::Ok
                    } else {
                        Outcome::Panic {
                            stmt: 0,
                            message: "equal or out-of-range indices".into(),
                        }
                    })
                })
                .collect())
        }
    }

    /// Two indices that must differ and lie below the length get distinct values the
    /// program holds (the grown receiver's indices).
    #[test]
    fn a_method_that_needs_distinct_indices_gets_them() {
        let mut exec = Distinct(Registry::new(vec![stack()]).schema());
        let schema = exec.0.clone();
        let target = resolve_method(&schema, "Stack::swap_distinct").unwrap();
        let found = initial_program(&mut exec, &target, &MutationConfig::default()).unwrap();
        let Initial::Found(p) = found else {
            panic!("no initial program: {found:?}");
        };
        assert!(pushes(&p.body) >= 2, "{p:?}");
    }

    /// A list whose `add_edge` panics without nodes hands out the `Edge` handle that
    /// `endpoints` takes.
    #[derive(Default)]
    pub struct Lst {
        nodes: u64,
    }

    #[derive(Clone, Copy)]
    pub struct Edge(u64);

    impl Lst {
        pub fn add_node(&mut self) {
            self.nodes += 1
        }
        pub fn add_edge(&mut self) -> Edge {
            assert!(
                self.nodes > 0,
                "0 is not a valid node index for a 0 nodes list"
            );
            Edge(self.nodes - 1)
        }
        pub fn endpoints(&self, e: Edge) -> u64 {
            assert!(e.0 < self.nodes);
            e.0
        }
    }

    register_type! {
        pub fn lst() -> Lst {
            path: "Lst", imports: [], version: None,
            size: [|s| s.nodes],
            ctors { new() => Lst::default(); }
            methods {
                add_node(mut self);
                add_edge(mut self) -> Edge;
                endpoints(ref self, e: copy Edge) -> u64;
            }
            fields {}
        }
        pub fn edge() -> Edge {
            path: "Edge", imports: [], version: None,
            size: [],
            ctors {}
            methods {}
            fields {}
        }
    }

    use crate::run::exec::InProcess;

    /// A handle from a call that needs a grown receiver (`add_edge` on a list without
    /// nodes panics): the receiver grows before the handle is obtained, not just before the
    /// call under test.
    #[test]
    fn a_receiver_grows_before_the_call_that_hands_out_a_handle() {
        let reg = Registry::new(vec![lst(), edge()]);
        let schema = reg.schema();
        let mut exec = InProcess(reg, schema.clone());
        let target = resolve_method(&schema, "Lst::endpoints").unwrap();
        let found = initial_program(&mut exec, &target, &MutationConfig::default()).unwrap();
        assert!(matches!(found, Initial::Found(_)), "{found:?}");
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
