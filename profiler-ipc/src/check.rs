//! The type and visibility checker for programs (Definition 10: a variable is visible once
//! initialized; we add that a moved value is no longer visible and that a loop body's
//! variables are local to it).
//!
//! The interpreter refuses programs that fail it, and the synthesizer only keeps mutants
//! that pass it, so the printer never prints Rust that would not compile for these reasons.

use std::collections::HashSet;

use crate::program::{Literal, Op, Program, Stmt, Var};
use crate::schema::{ApiSchema, Mode, ParamSchema};

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
        defined: HashSet::new(),
        live: HashSet::new(),
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
    defined: HashSet<Var>,
    live: HashSet<Var>,
    top: usize,
}

impl Checker<'_> {
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
        if !self.defined.insert(v) {
            return self.err(format!("v{} is assigned twice", v.0));
        }
        self.live.insert(v);
        Ok(())
    }

    fn use_var(&mut self, v: Var, ty: &str, mode: Mode) -> Result<(), ProgramError> {
        if !self.live.contains(&v) {
            return self.err(format!("v{} is not visible here", v.0));
        }
        if self.p.ty(v) != ty {
            return self.err(format!("v{} is a {}, expected {}", v.0, self.p.ty(v), ty));
        }
        if mode.moves() {
            self.live.remove(&v);
        }
        Ok(())
    }

    fn operands(&mut self, ops: &[(Var, &ParamSchema)], what: &str) -> Result<(), ProgramError> {
        for (i, (v, p)) in ops.iter().enumerate() {
            let exclusive = matches!(p.mode, Mode::Mut | Mode::Val);
            for (j, (w, q)) in ops.iter().enumerate() {
                if i != j && v == w && (exclusive || matches!(q.mode, Mode::Mut | Mode::Val)) {
                    return self.err(format!("v{} is borrowed twice in {what}", v.0));
                }
            }
        }
        for (v, p) in ops {
            self.use_var(*v, &p.ty, p.mode)?;
        }
        Ok(())
    }

    fn stmt(&mut self, s: &Stmt, in_loop: bool) -> Result<(), ProgramError> {
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
                let ops: Vec<_> = args.iter().copied().zip(c.params.iter()).collect();
                self.operands(&ops, &format!("{ty}::{ctor}"))?;
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
                let recv_param = ParamSchema {
                    name: "self".into(),
                    ty: ty.clone(),
                    mode: m.receiver,
                };
                let mut ops = vec![(*recv, &recv_param)];
                ops.extend(args.iter().copied().zip(m.params.iter()));
                self.operands(&ops, &format!("{ty}::{method}"))?;
                match (out, &m.ret) {
                    (Some(o), Some(r)) => self.define(*o, r),
                    (Some(_), None) => self.err(format!("{ty}::{method} returns nothing kept")),
                    (None, _) => Ok(()),
                }
            }
            Stmt::Op { out, op, arg } => {
                let ty = self.p.ty(*arg).to_string();
                if !Op::for_type(&ty).contains(op) {
                    return self.err(format!("operator {} does not apply to {ty}", op.name()));
                }
                self.use_var(*arg, &ty, Mode::Ref)?;
                self.define(*out, &ty)
            }
            Stmt::GetField { out, target, field } => {
                let (fty, tty) = self.field(*target, field)?;
                self.use_var(*target, &tty, Mode::Ref)?;
                self.define(*out, &fty)
            }
            Stmt::SetField {
                target,
                field,
                value,
            } => {
                let (fty, tty) = self.field(*target, field)?;
                self.use_var(*value, &fty, Mode::Val)?;
                self.use_var(*target, &tty, Mode::Mut)
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
                let moved: Vec<_> = live_before.difference(&self.live).collect();
                if let Some(v) = moved.first() {
                    if *n > 1 {
                        return self.err(format!("v{} is moved inside a loop", v.0));
                    }
                }
                self.live.retain(|v| live_before.contains(v));
                Ok(())
            }
        }
    }

    fn field(&self, target: Var, field: &str) -> Result<(String, String), ProgramError> {
        let tty = self.p.vars.get(target.index()).cloned().unwrap_or_default();
        match self.schema.ty(&tty).and_then(|t| t.field(field)) {
            Some(f) => Ok((f.ty.clone(), tty)),
            None => self.err(format!("{tty} has no public field {field}")),
        }
    }
}
