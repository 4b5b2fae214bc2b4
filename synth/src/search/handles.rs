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

use crate::search::fresh::{creatable, init_fresh, Choice, MutationConfig};

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
