//! Operands of *handle types*: types with no constructor that the API only hands out from
//! its own methods (an arena's `Index` from `insert`, a list's node index from `push_back`).
//!
//! Algorithm 4 builds every operand from constructors, so a method taking a handle had no
//! program at all. The general rule here: a value of a type that no constructor builds is
//! the result of a call that returns that type, on a receiver the program already has (the
//! call's own receiver first, so the handle is valid for it) or, failing that, on a fresh
//! one. The producing call is an ordinary `Stmt::Call` with its result bound to a variable,
//! so checking, interpreting and printing need nothing new; inside a loop the handle is a
//! loop local.

use perfsyn_profiler_ipc::schema::{ApiSchema, MethodSchema, TypeSchema};
use perfsyn_profiler_ipc::{Program, Stmt, Var};

use crate::search::mutate::{creatable, init_fresh, Choice, MutationConfig};

/// Methods returning a value of `ty` that a program can call: the receiver is not moved,
/// is not itself of type `ty`, and every parameter is buildable from constructors (so a
/// producer never needs a handle of its own: `insert_after(index, v) -> Index` is not one).
pub fn producers<'s>(
    schema: &'s ApiSchema,
    ty: &'s str,
) -> impl Iterator<Item = (&'s TypeSchema, &'s MethodSchema)> + 's {
    schema.types.iter().flat_map(move |t| {
        t.methods
            .iter()
            .filter(move |m| {
                t.name != ty
                    && m.ret.as_deref() == Some(ty)
                    && !m.receiver.moves()
                    && m.params.iter().all(|q| creatable(schema, &q.ty, 2))
            })
            .map(move |m| (t, m))
    })
}

/// Whether a value of `ty` that constructors cannot build can be obtained from a call: a
/// producer whose receiver is one of `vis` or can be built.
pub fn obtainable(schema: &ApiSchema, p: &Program, vis: &[Var], ty: &str) -> bool {
    !creatable(schema, ty, 3)
        && producers(schema, ty)
            .any(|(t, _)| vis.iter().any(|v| p.ty(*v) == t.name) || creatable(schema, &t.name, 3))
}

/// Statements that obtain a value of `ty` from a producer call, and the variable holding it.
/// The receiver is the first of `prefer` (most preferred first) that has a producer, else a
/// fresh receiver built by constructors (which the statements then include). Arguments are
/// fresh values (from the loop index when `in_loop`).
pub fn obtain(
    p: &mut Program,
    schema: &ApiSchema,
    cfg: &MutationConfig,
    ty: &str,
    prefer: &[Var],
    in_loop: bool,
    choice: &mut Choice<'_>,
) -> Option<(Vec<Stmt>, Var)> {
    let all: Vec<(TypeSchema, MethodSchema)> = producers(schema, ty)
        .map(|(t, m)| (t.clone(), m.clone()))
        .collect();
    let mut stmts = Vec::new();
    let (recv, candidates) = match prefer
        .iter()
        .map(|v| (*v, own(&all, p.ty(*v))))
        .find(|(_, c)| !c.is_empty())
    {
        Some(found) => found,
        None => {
            let (t, _) = all.iter().find(|(t, _)| creatable(schema, &t.name, 3))?;
            let (s, v) = init_fresh(p, schema, cfg, &t.name, in_loop, choice, 3)?;
            stmts.extend(s);
            (v, own(&all, &t.name))
        }
    };
    let m = candidates[choice.pick(candidates.len())];
    let mut args = Vec::new();
    for q in &m.params {
        let (s, v) = init_fresh(p, schema, cfg, &q.ty, in_loop, choice, 2)?;
        stmts.extend(s);
        args.push(v);
    }
    let out = p.fresh(ty);
    stmts.push(Stmt::Call {
        out: Some(out),
        ty: p.ty(recv).to_string(),
        method: m.name.clone(),
        recv,
        args,
        under_test: false,
    });
    Some((stmts, out))
}

/// A producer of `ty` for a loop to obtain its handles from, built before the loop (the
/// statements to place there, and the variable): a receiver built inside the loop is a new
/// one every iteration and hands out its first handle every time (a new slot map's first
/// key), so a map keyed by handles (slotmap's `SecondaryMap::insert(key, value)`) never held
/// more than one entry. `None` when constructors build `ty` or one of `prefer` produces it.
pub fn producer_for_loop(
    p: &mut Program,
    schema: &ApiSchema,
    cfg: &MutationConfig,
    ty: &str,
    prefer: &[Var],
    choice: &mut Choice<'_>,
) -> Option<(Vec<Stmt>, Var)> {
    if creatable(schema, ty, 3) {
        return None;
    }
    let all: Vec<(&TypeSchema, &MethodSchema)> = producers(schema, ty).collect();
    if prefer
        .iter()
        .any(|v| all.iter().any(|(t, _)| t.name == p.ty(*v)))
    {
        return None;
    }
    let (t, _) = all.iter().find(|(t, _)| creatable(schema, &t.name, 3))?;
    let name = t.name.clone();
    init_fresh(p, schema, cfg, &name, false, choice, 3)
}

/// The producers among `all` whose receiver is of type `recv_ty`.
fn own<'a>(all: &'a [(TypeSchema, MethodSchema)], recv_ty: &str) -> Vec<&'a MethodSchema> {
    all.iter()
        .filter(|(t, _)| t.name == recv_ty)
        .map(|(_, m)| m)
        .collect()
}

/// A fresh value of `ty`: from constructors (Algorithm 4) or, for a handle type, from a
/// producer call on one of `prefer` (see [`obtain`]).
#[allow(clippy::too_many_arguments)]
pub fn init_or_obtain(
    p: &mut Program,
    schema: &ApiSchema,
    cfg: &MutationConfig,
    ty: &str,
    prefer: &[Var],
    in_loop: bool,
    choice: &mut Choice<'_>,
    depth: u32,
) -> Option<(Vec<Stmt>, Var)> {
    if creatable(schema, ty, depth) {
        return init_fresh(p, schema, cfg, ty, in_loop, choice, depth);
    }
    obtain(p, schema, cfg, ty, prefer, in_loop, choice)
}

#[cfg(test)]
mod tests {
    use perfsyn_profiler_ipc::print::print;
    use perfsyn_profiler_ipc::{register_type, Outcome, Program, Registry, Stmt};
    use rand::SeedableRng;

    use crate::harness::spec::resolve_method;
    use crate::search::mutate::{apply, mutations, MutationConfig, OpKind};

    /// A handle with no constructor: only `Arena::insert` makes one.
    #[derive(Clone, Copy, Debug)]
    pub struct Index(usize);

    impl Index {
        pub fn slot(self) -> usize {
            self.0
        }
    }

    /// `get` and `remove` panic on a handle the arena did not hand out.
    #[derive(Default)]
    pub struct Arena {
        v: Vec<Option<u64>>,
    }

    impl Arena {
        pub fn insert(&mut self, x: u64) -> Index {
            self.v.push(Some(x));
            Index(self.v.len() - 1)
        }
        pub fn get(&self, i: Index) -> u64 {
            self.v[i.0].expect("a live handle")
        }
        pub fn remove(&mut self, i: Index) -> Option<u64> {
            self.v[i.0].take()
        }
    }

    /// Values keyed by handles of another type (slotmap's `SecondaryMap`): it produces none.
    #[derive(Default)]
    pub struct Secondary {
        m: std::collections::BTreeMap<usize, u64>,
    }

    impl Secondary {
        pub fn insert(&mut self, i: Index, x: u64) {
            self.m.insert(i.0, x);
        }
        pub fn len(&self) -> usize {
            self.m.len()
        }
    }

    register_type! {
        pub fn secondary() -> Secondary {
            path: "Secondary", imports: [], version: None,
            size: [|s| s.m.len() as u64],
            ctors { new() => Secondary::default(); }
            methods {
                insert(mut self, i: copy Index, x: copy u64);
                len(ref self) -> usize ["O(1)"];
            }
            fields {}
        }
    }

    /// A loop calling a method of `Secondary` with handles gets them from one `Arena` built
    /// before the loop, not from a new arena each iteration (whose first handle is always the
    /// same): the secondary map holds one entry per iteration.
    #[test]
    fn a_loop_obtains_its_handles_from_one_producer_built_before_it() {
        let reg = Registry::new(vec![arena(), index(), secondary()]);
        let interp = perfsyn_profiler_ipc::interp::Interpreter::new(&reg);
        let schema = reg.schema();
        let cfg = MutationConfig::default();
        let target = resolve_method(&schema, "Secondary::len").unwrap();
        let p0: Program = crate::search::initial::candidate(&target, &schema, &cfg, 0).unwrap();
        let m = mutations(&p0, &schema, &cfg)
            .into_iter()
            .find(|m| m.op == OpKind::InjectLoop && m.target == "Secondary::insert" && m.count >= 4)
            .expect("a loop of Secondary::insert");
        let mut rng = rand::rngs::StdRng::seed_from_u64(1);
        let q = apply(&p0, &m, &schema, &cfg, &mut rng).unwrap();
        let printed = print(&q, &schema).unwrap().body;
        assert!(interp.accepts(&q), "{printed}");
        let fb = interp.run(&q);
        assert_eq!(fb.outcome, Outcome::Ok, "{printed}");
        assert_eq!(fb.input_size, m.count as u64, "{printed}");
    }

    register_type! {
        pub fn arena() -> Arena {
            path: "Arena", imports: [], version: None,
            size: [|a| a.v.len() as u64],
            ctors { new() => Arena::default(); }
            methods {
                insert(mut self, x: copy u64) -> Index;
                get(ref self, i: copy Index) -> u64 ["O(1)"];
                remove(mut self, i: copy Index) ["O(1)"];
            }
            fields {}
        }
        pub fn index() -> Index {
            path: "Index", imports: [], version: None,
            size: [],
            ctors {}
            methods { slot(copy self) -> usize; }
            fields {}
        }
    }

    fn calls(body: &[Stmt], name: &str) -> usize {
        body.iter()
            .map(|s| match s {
                Stmt::Call { method, .. } if method == name => 1,
                Stmt::Repeat { body, .. } => calls(body, name),
                _ => 0,
            })
            .sum()
    }

    /// A method taking a handle gets an initial program that obtains the handle from its
    /// receiver's `insert`, and the worker's interpreter runs it (an invalid handle panics);
    /// so does a method of the handle itself.
    #[test]
    fn a_handle_operand_comes_from_a_call_on_the_receiver() {
        let reg = Registry::new(vec![arena(), index()]);
        let interp = perfsyn_profiler_ipc::interp::Interpreter::new(&reg);
        let schema = reg.schema();
        let cfg = MutationConfig::default();
        for spec in ["Arena::get", "Arena::remove", "Index::slot"] {
            let target = resolve_method(&schema, spec).unwrap();
            let p = crate::search::initial::candidate(&target, &schema, &cfg, 0)
                .unwrap_or_else(|| panic!("no candidate for {spec}"));
            assert_eq!(calls(&p.body, "insert"), 1, "{spec}: {p:?}");
            assert!(interp.accepts(&p), "{spec}: {p:?}");
            assert_eq!(interp.run(&p).outcome, Outcome::Ok, "{spec}: {p:?}");
            let printed = print(&p, &schema).unwrap().body;
            assert!(printed.contains(".insert("), "{printed}");
        }
    }

    /// The search's mutations call handle-taking methods, once and in loops, with handles
    /// the program obtained: every such program is accepted and runs.
    #[test]
    fn mutations_call_handle_taking_methods_with_valid_handles() {
        let reg = Registry::new(vec![arena(), index()]);
        let interp = perfsyn_profiler_ipc::interp::Interpreter::new(&reg);
        let schema = reg.schema();
        let cfg = MutationConfig::default();
        let target = resolve_method(&schema, "Arena::remove").unwrap();
        let p0: Program = crate::search::initial::candidate(&target, &schema, &cfg, 0).unwrap();
        let mut rng = rand::rngs::StdRng::seed_from_u64(1);
        let mut seen = std::collections::BTreeSet::new();
        for m in mutations(&p0, &schema, &cfg) {
            if !["Arena::get", "Arena::remove"].contains(&m.target.as_str()) {
                continue;
            }
            let q = apply(&p0, &m, &schema, &cfg, &mut rng)
                .unwrap_or_else(|| panic!("{} does not apply", m.describe()));
            assert!(interp.accepts(&q), "{}: {q:?}", m.describe());
            assert_eq!(
                interp.run(&q).outcome,
                Outcome::Ok,
                "{}: {q:?}",
                m.describe()
            );
            seen.insert((m.op, m.target.clone()));
        }
        for want in [
            (OpKind::InjectCall, "Arena::get"),
            (OpKind::InjectLoop, "Arena::get"),
            (OpKind::InjectCall, "Arena::remove"),
        ] {
            assert!(
                seen.contains(&(want.0, want.1.to_string())),
                "{want:?} not among {seen:?}"
            );
        }
    }
}
