//! Capacity ladders in a schema: a fixed-capacity type registered by `perfsyn init` at its
//! main capacity and again at a few smaller ones, its rungs (`schema::Rung`, written by
//! `init/capacity_ladder.rs`). Here: which registrations form one ladder, and a program
//! moved to another capacity (every laddered type it names renamed to its registration at
//! that capacity, as the rung registrations were printed with every capacity replaced).
//! The judge sweeps a program over its receiver's ladder (`judge/capacity_sweep.rs`), and
//! explore starts from a rung when the main capacity cannot be built (`explore/mod.rs`).

use perfsyn_profiler_ipc::schema::{ApiSchema, TypeSchema};
use perfsyn_profiler_ipc::{Program, Stmt};

/// A level of a ladder: a rung's capacity, or `None` for the main registration (the
/// largest capacity).
pub type Level = Option<u64>;

/// The main registration's name of the ladder `ty` belongs to (`ty` itself when it is not a
/// rung).
fn main_of<'s>(schema: &'s ApiSchema, ty: &'s str) -> &'s str {
    schema
        .ty(ty)
        .and_then(|t| t.rung.as_ref())
        .map_or(ty, |r| r.of.as_str())
}

/// The registrations of `ty`'s ladder (main included), smallest capacity first, the main
/// last; empty when `ty` has no rungs.
pub fn ladder<'s>(schema: &'s ApiSchema, ty: &str) -> Vec<&'s TypeSchema> {
    let Some(t) = schema.ty(ty) else {
        return Vec::new();
    };
    let main = main_of(schema, &t.name);
    let mut rungs: Vec<&TypeSchema> = schema
        .types
        .iter()
        .filter(|r| r.rung.as_ref().is_some_and(|r| r.of == main))
        .collect();
    if rungs.is_empty() {
        return Vec::new();
    }
    rungs.sort_by_key(|r| r.rung.as_ref().map(|r| r.capacity));
    rungs.extend(schema.ty(main));
    rungs
}

/// The level of registration `t`.
pub fn level(t: &TypeSchema) -> Level {
    t.rung.as_ref().map(|r| r.capacity)
}

/// `p` with every type that has a ladder renamed to its registration at `level` (`None`
/// when one of them has no registration there).
pub fn at_level(schema: &ApiSchema, p: &Program, level: Level) -> Option<Program> {
    let rename = |ty: &str| -> Option<String> {
        let l = ladder(schema, ty);
        if l.is_empty() {
            return Some(ty.to_string());
        }
        l.iter()
            .find(|t| self::level(t) == level)
            .map(|t| t.name.clone())
    };
    fn stmts(body: &mut [Stmt], rename: &dyn Fn(&str) -> Option<String>) -> Option<()> {
        for s in body {
            match s {
                Stmt::Ctor { ty, .. } | Stmt::Call { ty, .. } => *ty = rename(ty)?,
                Stmt::Repeat { body, .. } => stmts(body, rename)?,
                _ => {}
            }
        }
        Some(())
    }
    let mut out = p.clone();
    for v in &mut out.vars {
        *v = rename(v)?;
    }
    stmts(&mut out.body, &rename)?;
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::harness::spec::fixture::one_method_type;
    use perfsyn_profiler_ipc::schema::{Mode, Rung};

    fn rung(name: &str, of: &str, capacity: u64) -> TypeSchema {
        TypeSchema {
            rung: Some(Rung {
                of: of.into(),
                capacity,
            }),
            ..one_method_type(name, "Ring", None, "push", Mode::Mut)
        }
    }

    /// The registrations of a capacity ladder, and a program moved along it: every laddered
    /// type renamed together (a rung's methods take the rung's other laddered types, as its
    /// registration was printed with every capacity replaced), other types kept.
    #[test]
    fn a_program_moves_along_its_receivers_ladder() {
        let schema = ApiSchema {
            types: vec![
                one_method_type("Ring<8192>", "Ring", None, "push", Mode::Mut),
                rung("Ring<1024>", "Ring<8192>", 1024),
                rung("Ring<16>", "Ring<8192>", 16),
                one_method_type("Key", "Key", None, "get", Mode::Ref),
            ],
        };
        let names = |l: Vec<&TypeSchema>| l.iter().map(|t| t.name.clone()).collect::<Vec<_>>();
        assert_eq!(
            names(ladder(&schema, "Ring<1024>")),
            ["Ring<16>", "Ring<1024>", "Ring<8192>"]
        );
        assert!(ladder(&schema, "Key").is_empty());
        let mut p = Program::default();
        let r = p.fresh("Ring<8192>");
        let k = p.fresh("Key");
        p.body = vec![
            Stmt::Ctor {
                out: r,
                ty: "Ring<8192>".into(),
                ctor: "new".into(),
                args: vec![],
            },
            Stmt::Repeat {
                n: 3,
                body: vec![Stmt::Call {
                    out: None,
                    ty: "Ring<8192>".into(),
                    method: "push".into(),
                    recv: r,
                    args: vec![k],
                    under_test: false,
                }],
            },
        ];
        let moved = at_level(&schema, &p, Some(16)).unwrap();
        assert_eq!(moved.vars, ["Ring<16>", "Key"]);
        let Stmt::Repeat { body, .. } = &moved.body[1] else {
            panic!("{moved:?}")
        };
        assert!(matches!(&body[0], Stmt::Call { ty, .. } if ty == "Ring<16>"));
        assert_eq!(at_level(&schema, &moved, None), Some(p.clone()));
        assert_eq!(at_level(&schema, &p, Some(128)), None);
    }
}
