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
        for (i, (v, _, mode)) in ops.iter().enumerate() {
            let exclusive = matches!(mode, Mode::Mut | Mode::Val);
            for (j, (w, _, other)) in ops.iter().enumerate() {
                if i != j && v == w && (exclusive || matches!(other, Mode::Mut | Mode::Val)) {
                    return self.err(format!("v{} is borrowed twice in {ty}::{name}", v.0));
                }
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
