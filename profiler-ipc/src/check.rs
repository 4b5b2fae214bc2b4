//! The type and visibility checker for programs (Definition 10: a variable is visible once
//! initialized; we add that a moved value is no longer visible and that a loop body's
//! variables are local to it).
//!
//! The interpreter refuses programs that fail it, and the synthesizer only keeps mutants
//! that pass it, so the printer never prints Rust that would not compile for these reasons.
//!
//! The worker checks every program it runs, with this code instrumented like the rest of
//! the worker, so the checker avoids per-statement hashing, formatting and cloning: variable
//! states are flags indexed by variable, operand lists reuse one buffer, and messages are
//! formatted only on failure.

use crate::program::{Literal, Op, Program, Stmt, Var};
use crate::schema::{ApiSchema, Mode};

/// Why a program is ill-formed; `stmt` is the top-level statement index.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("statement {stmt}: {message}")]
pub struct ProgramError {
    pub stmt: usize,
    pub message: String,
}

/// Checks `p` against `schema`.
pub fn check(p: &Program, schema: &ApiSchema) -> Result<(), ProgramError> {
    let mut c = Checker {
        p,
        schema,
        defined: vec![false; p.vars.len()],
        live: vec![false; p.vars.len()],
        ops: Vec::new(),
        top: 0,
    };
    for (i, s) in p.body.iter().enumerate() {
        c.top = i;
        c.stmt(s, false)?;
    }
    Ok(())
}

struct Checker<'a> {
    p: &'a Program,
    schema: &'a ApiSchema,
    /// Per declared variable: assigned once already.
    defined: Vec<bool>,
    /// Per declared variable: visible (assigned, not moved, not out of its loop body).
    live: Vec<bool>,
    /// The operands of the statement being checked: variable, expected type, mode.
    ops: Vec<(Var, &'a str, Mode)>,
    top: usize,
}

impl<'a> Checker<'a> {
    fn err<T>(&self, message: String) -> Result<T, ProgramError> {
        Err(ProgramError {
            stmt: self.top,
            message,
        })
    }

    fn define(&mut self, v: Var, ty: &str) -> Result<(), ProgramError> {
        if v.index() >= self.p.vars.len() {
            return self.err(format!("variable v{} is not declared", v.0));
        }
        if self.p.ty(v) != ty {
            return self.err(format!(
                "v{} is declared {} but assigned a {}",
                v.0,
                self.p.ty(v),
                ty
            ));
        }
        if std::mem::replace(&mut self.defined[v.index()], true) {
            return self.err(format!("v{} is assigned twice", v.0));
        }
        self.live[v.index()] = true;
        Ok(())
    }

    fn use_var(&mut self, v: Var, ty: &str, mode: Mode) -> Result<(), ProgramError> {
        if !self.live.get(v.index()).copied().unwrap_or(false) {
            return self.err(format!("v{} is not visible here", v.0));
        }
        if self.p.ty(v) != ty {
            return self.err(format!("v{} is a {}, expected {}", v.0, self.p.ty(v), ty));
        }
        if mode.moves() {
            self.live[v.index()] = false;
        }
        Ok(())
    }

    /// Checks the operands in `self.ops` of a call to `ty::name`.
    fn operands(&mut self, ty: &str, name: &str) -> Result<(), ProgramError> {
        let ops = std::mem::take(&mut self.ops);
        let r = self.check_operands(&ops, ty, name);
        self.ops = ops;
        r
    }

    fn check_operands(
        &mut self,
        ops: &[(Var, &'a str, Mode)],
        ty: &str,
        name: &str,
    ) -> Result<(), ProgramError> {
        // One variable fills at most one operand of a call, even where Rust would accept two
        // shared borrows (`v.starts_with(&v)`): the interpreter moves each operand out of its
        // slot into the call's arguments, so a second use finds the slot empty and the worker
        // reports the program invalid after running its whole setup.
        for (i, (v, _, _)) in ops.iter().enumerate() {
            if ops[..i].iter().any(|(w, _, _)| w == v) {
                return self.err(format!("v{} is used twice in {ty}::{name}", v.0));
            }
        }
        for &(v, ty, mode) in ops {
            self.use_var(v, ty, mode)?;
        }
        Ok(())
    }

    fn stmt(&mut self, s: &'a Stmt, in_loop: bool) -> Result<(), ProgramError> {
        match s {
            Stmt::Lit { out, value } => {
                if matches!(value, Literal::Index { .. }) && !in_loop {
                    return self.err("a loop-index value outside a repeat".into());
                }
                self.define(*out, value.type_name())
            }
            Stmt::Ctor {
                out,
                ty,
                ctor,
                args,
            } => {
                let Some(t) = self.schema.ty(ty) else {
                    return self.err(format!("unknown type {ty}"));
                };
                let Some(c) = t.ctor(ctor) else {
                    return self.err(format!("{ty} has no constructor {ctor}"));
                };
                if c.params.len() != args.len() {
                    return self.err(format!("{ty}::{ctor} takes {} arguments", c.params.len()));
                }
                self.ops.clear();
                self.ops.extend(
                    args.iter()
                        .zip(&c.params)
                        .map(|(v, p)| (*v, p.ty.as_str(), p.mode)),
                );
                self.operands(ty, ctor)?;
                self.define(*out, ty)
            }
            Stmt::Call {
                out,
                ty,
                method,
                recv,
                args,
                ..
            } => {
                let Some(t) = self.schema.ty(ty) else {
                    return self.err(format!("unknown type {ty}"));
                };
                let Some(m) = t.method(method) else {
                    return self.err(format!("{ty} has no method {method}"));
                };
                if m.params.len() != args.len() {
                    return self.err(format!("{ty}::{method} takes {} arguments", m.params.len()));
                }
                self.ops.clear();
                self.ops.push((*recv, ty.as_str(), m.receiver));
                self.ops.extend(
                    args.iter()
                        .zip(&m.params)
                        .map(|(v, p)| (*v, p.ty.as_str(), p.mode)),
                );
                self.operands(ty, method)?;
                match (out, &m.ret) {
                    (Some(o), Some(r)) => self.define(*o, r),
                    (Some(_), None) => self.err(format!("{ty}::{method} returns nothing kept")),
                    (None, _) => Ok(()),
                }
            }
            Stmt::Op { out, op, arg } => {
                let ty = self.p.ty(*arg);
                if !Op::for_type(ty).contains(op) {
                    return self.err(format!("operator {} does not apply to {ty}", op.name()));
                }
                self.use_var(*arg, ty, Mode::Ref)?;
                self.define(*out, ty)
            }
            Stmt::GetField { out, target, field } => {
                let (fty, tty) = self.field(*target, field)?;
                self.use_var(*target, tty, Mode::Ref)?;
                self.define(*out, fty)
            }
            Stmt::SetField {
                target,
                field,
                value,
            } => {
                let (fty, tty) = self.field(*target, field)?;
                self.use_var(*value, fty, Mode::Val)?;
                self.use_var(*target, tty, Mode::Mut)
            }
            Stmt::Repeat { n, body } => {
                if in_loop {
                    return self.err("nested repeat".into());
                }
                if *n == 0 {
                    return self.err("repeat 0".into());
                }
                let live_before = self.live.clone();
                for s in body {
                    self.stmt(s, true)?;
                }
                // Variables defined in the body die with the iteration; variables from
                // outside that the body moves would be moved twice by the second iteration.
                let moved = (0..live_before.len()).find(|&i| live_before[i] && !self.live[i]);
                if let Some(v) = moved {
                    if *n > 1 {
                        return self.err(format!("v{v} is moved inside a loop"));
                    }
                }
                for (live, before) in self.live.iter_mut().zip(&live_before) {
                    *live &= *before;
                }
                Ok(())
            }
        }
    }

    fn field(&self, target: Var, field: &str) -> Result<(&'a str, &'a str), ProgramError> {
        let tty = self.p.vars.get(target.index()).map_or("", String::as_str);
        match self.schema.ty(tty).and_then(|t| t.field(field)) {
            Some(f) => Ok((f.ty.as_str(), tty)),
            None => self.err(format!("{tty} has no public field {field}")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::program::{IntTy, Literal};
    use crate::registry::Registry;

    #[derive(Default)]
    pub struct Bag(Vec<u64>);
    impl Bag {
        pub fn put(&mut self, x: u64) {
            self.0.push(x);
        }
        pub fn merge(&mut self, other: Bag) {
            self.0.extend(other.0);
        }
        pub fn same(&self, other: &Bag) -> bool {
            self.0 == other.0
        }
    }

    crate::register_type! {
        fn bag() -> Bag {
            path: "Bag", imports: [], version: None, size: [],
            ctors { default() => Bag::default(); }
            methods {
                put(mut self, x: copy u64);
                merge(mut self, other: val Bag);
                same(ref self, other: ref Bag) -> bool;
            }
            fields {}
        }
    }

    fn ctor(out: Var) -> Stmt {
        Stmt::Ctor {
            out,
            ty: "Bag".into(),
            ctor: "default".into(),
            args: vec![],
        }
    }

    fn call(recv: Var, method: &str, args: Vec<Var>, out: Option<Var>) -> Stmt {
        Stmt::Call {
            out,
            ty: "Bag".into(),
            method: method.into(),
            recv,
            args,
            under_test: false,
        }
    }

    fn lit(out: Var) -> Stmt {
        Stmt::Lit {
            out,
            value: Literal::Int {
                ty: IntTy::U64,
                value: 1,
            },
        }
    }

    /// The verdict and message of each rule, and a program that passes all of them.
    #[test]
    fn each_rule_refuses_with_its_message() {
        let schema = Registry::new(vec![bag()]).schema();
        let mut p = Program::default();
        let (a, b, x, s) = (
            p.fresh("Bag"),
            p.fresh("Bag"),
            p.fresh("u64"),
            p.fresh("bool"),
        );
        let verdict = |body: Vec<Stmt>| {
            let q = Program {
                vars: p.vars.clone(),
                body,
            };
            check(&q, &schema).map_err(|e| e.to_string())
        };
        assert_eq!(
            verdict(vec![
                ctor(a),
                ctor(b),
                lit(x),
                call(a, "put", vec![x], None),
                call(a, "same", vec![b], Some(s)),
                call(a, "merge", vec![b], None),
            ]),
            Ok(())
        );
        let cases = [
            (vec![ctor(a), ctor(a)], "statement 1: v0 is assigned twice"),
            (
                vec![call(a, "put", vec![x], None)],
                "statement 0: v0 is not visible here",
            ),
            (
                vec![ctor(x)],
                "statement 0: v2 is declared u64 but assigned a Bag",
            ),
            (
                vec![ctor(a), call(a, "merge", vec![a], None)],
                "statement 1: v0 is used twice in Bag::merge",
            ),
            (
                vec![ctor(a), call(a, "same", vec![a], Some(s))],
                "statement 1: v0 is used twice in Bag::same",
            ),
            (
                vec![
                    ctor(a),
                    ctor(b),
                    call(a, "merge", vec![b], None),
                    call(b, "put", vec![], None),
                ],
                "statement 3: Bag::put takes 1 arguments",
            ),
            (
                vec![ctor(a), ctor(b), call(a, "merge", vec![b], None), ctor(x)],
                "statement 3: v2 is declared u64 but assigned a Bag",
            ),
            (
                vec![ctor(a), lit(x), call(a, "same", vec![x], Some(s))],
                "statement 2: v2 is a u64, expected Bag",
            ),
            (
                vec![
                    ctor(a),
                    ctor(b),
                    Stmt::Repeat {
                        n: 2,
                        body: vec![call(a, "merge", vec![b], None)],
                    },
                ],
                "statement 2: v1 is moved inside a loop",
            ),
        ];
        for (body, message) in cases {
            assert_eq!(verdict(body.clone()), Err(message.to_string()), "{body:?}");
        }
        // A moved value is gone; a loop body's variables die with it.
        assert_eq!(
            verdict(vec![
                ctor(a),
                ctor(b),
                call(a, "merge", vec![b], None),
                call(a, "same", vec![b], Some(s)),
            ]),
            Err("statement 3: v1 is not visible here".to_string())
        );
        assert_eq!(
            verdict(vec![
                ctor(a),
                Stmt::Repeat {
                    n: 3,
                    body: vec![lit(x), call(a, "put", vec![x], None)],
                },
                call(a, "put", vec![x], None),
            ]),
            Err("statement 2: v2 is not visible here".to_string())
        );
    }
}
