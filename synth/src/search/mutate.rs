//! Mutation operators (section 3.2.3, Algorithm 3) and abstract-variable initialization
//! (Algorithm 4).
//!
//! The paper's four operators (inject call, modify constructor, mutate value, mutate field)
//! plus our loop extension (inject a loop around a call, scale a loop, change the value
//! pattern inside it). Operands bind to existing visible variables or to fresh abstract
//! ones, and the cartesian product of those choices gives the mutations of a program.
//!
//! Deviations, on purpose:
//! - New statements go at the end of the setup (just before the first call under test) or
//!   right after the receiver's definition; other positions rarely change the measured
//!   state and would multiply the branching factor.
//! - "Mutate value" on a literal folds the operator into the literal instead of inserting
//!   `v' = OP(v)` and renaming later uses: the same program semantics, shorter printed Rust.
//! - A receiver is always an existing variable: calling a method on a fresh object that
//!   nothing else reads cannot change the cost of the method under test.

use itertools::Itertools;
use perfsyn_profiler_ipc::schema::ApiSchema;
use perfsyn_profiler_ipc::{Literal, Op, Pattern, Program, Stmt, Var};
use rand::rngs::StdRng;
use serde::{Deserialize, Serialize};

use crate::search::fresh::{creatable, init_fresh, setup_end, Choice, MutationConfig};
use crate::search::handles::{init_or_obtain, obtainable};

/// The operator of a mutation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum OpKind {
    InjectCall,
    ModifyCtor,
    MutateValue,
    MutateField,
    InjectLoop,
    ScaleLoop,
    ChangePattern,
    /// An injected loop whose receiver's constructor literals are raised to its count
    /// (`grow.rs`).
    InjectLoopSized,
    /// Every loop count and size-like literal scaled together (`grow.rs`).
    ScaleAll,
}

impl OpKind {
    /// Short name for reports.
    pub fn name(self) -> &'static str {
        match self {
            OpKind::InjectCall => "inject-call",
            OpKind::ModifyCtor => "modify-ctor",
            OpKind::MutateValue => "mutate-value",
            OpKind::MutateField => "mutate-field",
            OpKind::InjectLoop => "inject-loop",
            OpKind::ScaleLoop => "scale-loop",
            OpKind::ChangePattern => "change-pattern",
            OpKind::InjectLoopSized => "inject-loop-sized",
            OpKind::ScaleAll => "scale-all",
        }
    }

    /// Whether this is our loop extension (switched off by `--no-loops`).
    pub fn is_loop(self) -> bool {
        matches!(
            self,
            OpKind::InjectLoop
                | OpKind::ScaleLoop
                | OpKind::ChangePattern
                | OpKind::InjectLoopSized
                | OpKind::ScaleAll
        )
    }
}

/// An operand binding: an existing variable or a fresh (abstract) one of a type.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Operand {
    Existing(Var),
    Fresh(String),
}

/// One concrete mutation of one program.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Mutation {
    pub op: OpKind,
    /// The method, constructor or operator applied, e.g. `Vec<Key>::push`, `op:double`,
    /// `scale:x8`, `pattern:hash`.
    pub target: String,
    /// Top-level statement index the mutation acts at.
    pub at: usize,
    /// For statement-editing operators: index inside a loop body, if any.
    pub inner: Option<usize>,
    pub operands: Vec<Operand>,
    /// Iterations of an injected loop (0 for other operators). Not part of the learning
    /// key: the table learns which call is worth looping, the search which count.
    pub count: u32,
}

impl Mutation {
    /// The learning-table key of section 3.2.5: same operator, same method/constructor/
    /// operator, same existing-vs-fresh choice per operand.
    pub fn key(&self) -> LearnKey {
        LearnKey {
            op: self.op,
            target: self.target.clone(),
            fresh: self
                .operands
                .iter()
                .map(|o| matches!(o, Operand::Fresh(_)))
                .collect(),
        }
    }

    /// One-line description for reports.
    pub fn describe(&self) -> String {
        if self.count > 0 {
            format!(
                "{} {} x{} @{}",
                self.op.name(),
                self.target,
                self.count,
                self.at
            )
        } else {
            format!("{} {} @{}", self.op.name(), self.target, self.at)
        }
    }
}

/// The key under which the learning table and the pheromones record a mutation.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct LearnKey {
    pub op: OpKind,
    pub target: String,
    pub fresh: Vec<bool>,
}

/// Top-level variables visible before statement `pos` (defined, not moved).
pub fn visible_at(p: &Program, schema: &ApiSchema, pos: usize) -> Vec<Var> {
    let mut live: Vec<Var> = Vec::new();
    for s in &p.body[..pos.min(p.body.len())] {
        let moved: Vec<Var> = match s {
            Stmt::Ctor { ty, ctor, args, .. } => schema
                .ty(ty)
                .and_then(|t| t.ctor(ctor))
                .map(|c| {
                    args.iter()
                        .zip(&c.params)
                        .filter(|(_, p)| p.mode.moves())
                        .map(|(a, _)| *a)
                        .collect()
                })
                .unwrap_or_default(),
            Stmt::Call {
                ty,
                method,
                recv,
                args,
                ..
            } => schema
                .ty(ty)
                .and_then(|t| t.method(method))
                .map(|m| {
                    let mut v: Vec<Var> = args
                        .iter()
                        .zip(&m.params)
                        .filter(|(_, p)| p.mode.moves())
                        .map(|(a, _)| *a)
                        .collect();
                    if m.receiver.moves() {
                        v.push(*recv);
                    }
                    v
                })
                .unwrap_or_default(),
            Stmt::SetField { value, .. } => vec![*value],
            _ => vec![],
        };
        live.retain(|v| !moved.contains(v));
        if let Some(d) = s.defines() {
            live.push(d);
        }
    }
    live
}

/// Lists the mutations of `p` (Algorithm 3).
pub fn mutations(p: &Program, schema: &ApiSchema, cfg: &MutationConfig) -> Vec<Mutation> {
    let mut out = Vec::new();
    let end = setup_end(p);
    let mut positions = vec![end];
    // Right after the receiver of the call under test is defined.
    if let Some(Stmt::Call { recv, .. }) = p.body.get(end) {
        if let Some(d) = p.body.iter().position(|s| s.defines() == Some(*recv)) {
            if d + 1 < end {
                positions.push(d + 1);
            }
        }
    }
    for &at in &positions {
        let vis = visible_at(p, schema, at);
        inject_calls(p, schema, cfg, at, &vis, &mut out);
        if at == end {
            mutate_fields(p, schema, at, &vis, &mut out);
        }
    }
    if cfg.loops && crate::search::grow::scale_all_applies(p) {
        for f in ["x8", "x2"] {
            out.push(Mutation {
                op: OpKind::ScaleAll,
                target: format!("scale-all:{f}"),
                at: 0,
                inner: None,
                operands: vec![],
                count: 0,
            });
        }
    }
    let held = held_values(p);
    for (i, s) in p.body.iter().enumerate() {
        match s {
            Stmt::Ctor { ty, ctor, .. } => modify_ctor(schema, ty, ctor, i, None, &mut out),
            Stmt::Lit { out: v, value } if i < end => {
                mutate_value(v, value, i, &mut out);
                take_a_held_value(&held, v, value, i, &mut out);
                let texts = crate::search::text::offers(p, schema, cfg, i);
                out.extend(texts.into_iter().map(|(target, count)| Mutation {
                    op: OpKind::MutateValue,
                    target,
                    at: i,
                    inner: None,
                    operands: vec![Operand::Existing(*v)],
                    count,
                }));
                for target in crate::search::mined::offers(p, schema, cfg, *v) {
                    out.push(Mutation {
                        op: OpKind::MutateValue,
                        target: target.to_string(),
                        at: i,
                        inner: None,
                        operands: vec![Operand::Existing(*v)],
                        count: 0,
                    });
                }
            }
            Stmt::Repeat { n, body } if cfg.loops => {
                for (f, factor) in [("x8", 8u64), ("x2", 2), ("/2", 0)] {
                    let new_n = if factor == 0 {
                        n / 2
                    } else {
                        (*n as u64 * factor).min(cfg.max_loop as u64) as u32
                    };
                    if new_n >= 1 && new_n != *n {
                        out.push(Mutation {
                            op: OpKind::ScaleLoop,
                            target: format!("scale:{f}"),
                            at: i,
                            inner: None,
                            operands: vec![],
                            count: 0,
                        });
                    }
                }
                for (j, b) in body.iter().enumerate() {
                    match b {
                        Stmt::Lit {
                            value: Literal::Index { pattern, .. },
                            ..
                        } => {
                            for (name, alt) in pattern_alternatives() {
                                if alt != *pattern {
                                    out.push(Mutation {
                                        op: OpKind::ChangePattern,
                                        target: format!("pattern:{name}"),
                                        at: i,
                                        inner: Some(j),
                                        operands: vec![],
                                        count: 0,
                                    });
                                }
                            }
                        }
                        Stmt::Ctor { ty, ctor, .. } => {
                            modify_ctor(schema, ty, ctor, i, Some(j), &mut out)
                        }
                        _ => {}
                    }
                }
            }
            _ => {}
        }
    }
    out
}

/// The value patterns a loop literal can switch between. The hash is the bounded form with
/// the 16-bit range (the values of `Pattern::Hash`, so a search makes the same programs as
/// before the bound existed): a length drawn from it is one the verdict sweep can scale.
pub fn pattern_alternatives() -> [(&'static str, Pattern); 5] {
    [
        ("i", Pattern::I),
        ("n-i", Pattern::NMinusI),
        ("i%4", Pattern::ModK(4)),
        (
            "hash",
            Pattern::HashBelow {
                seed: 1,
                bound: 1 << 16,
            },
        ),
        ("const", Pattern::Const(0)),
    ]
}

fn inject_calls(
    p: &Program,
    schema: &ApiSchema,
    cfg: &MutationConfig,
    at: usize,
    vis: &[Var],
    out: &mut Vec<Mutation>,
) {
    for t in &schema.types {
        let receivers: Vec<Var> = vis.iter().copied().filter(|v| p.ty(*v) == t.name).collect();
        if receivers.is_empty() {
            continue;
        }
        for m in &t.methods {
            let target = format!("{}::{}", t.name, m.name);
            // Choices per parameter: recent existing variables of the type, and a fresh one.
            let mut choices: Vec<Vec<Operand>> = Vec::new();
            for prm in &m.params {
                let mut c: Vec<Operand> = vis
                    .iter()
                    .rev()
                    .filter(|v| p.ty(**v) == prm.ty)
                    .take(cfg.existing_per_operand)
                    .map(|v| Operand::Existing(*v))
                    .collect();
                // A handle type is fresh too: obtained from a call that returns it.
                if creatable(schema, &prm.ty, 3) || obtainable(schema, p, vis, &prm.ty) {
                    c.push(Operand::Fresh(prm.ty.clone()));
                }
                choices.push(c);
            }
            for &r in receivers.iter().rev().take(cfg.existing_per_operand) {
                for combo in cartesian(&choices) {
                    let mut operands = vec![Operand::Existing(r)];
                    operands.extend(combo);
                    out.push(Mutation {
                        op: OpKind::InjectCall,
                        target: target.clone(),
                        at,
                        inner: None,
                        operands: operands.clone(),
                        count: 0,
                    });
                }
                // Loop extension: the call repeated n times with fresh operands built from
                // the loop index. A receiver moved by the call cannot be looped.
                if cfg.loops
                    && !m.receiver.moves()
                    && m.params
                        .iter()
                        .all(|q| creatable(schema, &q.ty, 3) || obtainable(schema, p, vis, &q.ty))
                {
                    let mut operands = vec![Operand::Existing(r)];
                    operands.extend(m.params.iter().map(|q| Operand::Fresh(q.ty.clone())));
                    for &count in &cfg.loop_counts {
                        out.push(Mutation {
                            op: OpKind::InjectLoop,
                            target: target.clone(),
                            at,
                            inner: None,
                            operands: operands.clone(),
                            count,
                        });
                        if crate::search::grow::sized_loop_applies(p, r, count) {
                            out.push(Mutation {
                                op: OpKind::InjectLoopSized,
                                target: target.clone(),
                                at,
                                inner: None,
                                operands: operands.clone(),
                                count,
                            });
                        }
                    }
                }
            }
        }
    }
}

fn cartesian(choices: &[Vec<Operand>]) -> Vec<Vec<Operand>> {
    choices
        .iter()
        .map(|c| c.iter().cloned())
        .multi_cartesian_product()
        .take(64)
        .collect()
}

fn modify_ctor(
    schema: &ApiSchema,
    ty: &str,
    current: &str,
    at: usize,
    inner: Option<usize>,
    out: &mut Vec<Mutation>,
) {
    let Some(t) = schema.ty(ty) else { return };
    for c in &t.ctors {
        if c.name != current && c.params.iter().all(|q| creatable(schema, &q.ty, 3)) {
            out.push(Mutation {
                op: OpKind::ModifyCtor,
                target: format!("{}::{}", t.name, c.name),
                at,
                inner,
                operands: c
                    .params
                    .iter()
                    .map(|q| Operand::Fresh(q.ty.clone()))
                    .collect(),
                count: 0,
            });
        }
    }
}

fn mutate_value(v: &Var, value: &Literal, at: usize, out: &mut Vec<Mutation>) {
    for op in Op::for_type(value.type_name()) {
        out.push(Mutation {
            op: OpKind::MutateValue,
            target: format!("op:{}", op.name()),
            at,
            inner: None,
            operands: vec![Operand::Existing(*v)],
            count: 0,
        });
    }
}

/// The target of the mutation that sets an integer literal to another integer the program
/// holds ([`held_values`]).
pub const HELD: &str = "op:held";

/// The integers a program holds: its integer literals and loop counts, at any depth,
/// distinct, in program order.
pub fn held_values(p: &Program) -> Vec<i64> {
    fn walk(body: &[Stmt], out: &mut Vec<i64>) {
        for s in body {
            match s {
                Stmt::Lit {
                    value: Literal::Int { value, .. },
                    ..
                } => out.push(*value),
                Stmt::Repeat { n, body } => {
                    out.push(i64::from(*n));
                    walk(body, out);
                }
                _ => {}
            }
        }
    }
    let mut out = Vec::new();
    walk(&p.body, &mut out);
    let mut seen = std::collections::BTreeSet::new();
    out.retain(|v| seen.insert(*v));
    out
}

/// "Mutate value" to an integer the program already holds (see [`held_values`]): a value
/// that lies far along a structure is usually named by the structure's own size. A lookup
/// that scans a table's bounds is slow only for a value past most of them; from 0, doubling
/// takes a dozen steps that change nothing measurable before the scan gets long, while the
/// table's size is right there in its constructor's literal. The value is drawn when the
/// mutation is applied (from the search's seeded generator), so one learning key covers it.
fn take_a_held_value(held: &[i64], v: &Var, value: &Literal, at: usize, out: &mut Vec<Mutation>) {
    let Literal::Int { value: x, .. } = value else {
        return;
    };
    if held.iter().any(|h| h != x) {
        out.push(Mutation {
            op: OpKind::MutateValue,
            target: HELD.to_string(),
            at,
            inner: None,
            operands: vec![Operand::Existing(*v)],
            count: 0,
        });
    }
}

fn mutate_fields(p: &Program, schema: &ApiSchema, at: usize, vis: &[Var], out: &mut Vec<Mutation>) {
    for v in vis {
        let Some(t) = schema.ty(p.ty(*v)) else {
            continue;
        };
        for f in &t.fields {
            for op in Op::for_type(&f.ty) {
                out.push(Mutation {
                    op: OpKind::MutateField,
                    target: format!("{}.{}:{}", t.name, f.name, op.name()),
                    at,
                    inner: None,
                    operands: vec![Operand::Existing(*v)],
                    count: 0,
                });
            }
        }
    }
}

/// Applies `m` to `p`; `None` when it cannot be applied (the caller then checks the result
/// with the program checker anyway).
pub fn apply(
    p: &Program,
    m: &Mutation,
    schema: &ApiSchema,
    cfg: &MutationConfig,
    rng: &mut StdRng,
) -> Option<Program> {
    let mut q = p.clone();
    let mut choice = Choice::Random(rng);
    match m.op {
        OpKind::InjectCall | OpKind::InjectLoop | OpKind::InjectLoopSized => {
            let (tname, mname) = m.target.rsplit_once("::")?;
            let ms = schema.ty(tname)?.method(mname)?.clone();
            let in_loop = m.op != OpKind::InjectCall;
            let mut stmts = Vec::new();
            let mut vars = Vec::new();
            // A handle comes from the call's own receiver first, then the latest variables;
            // in a loop, from a producer built before the loop when none of them is one.
            let vis = visible_at(p, schema, m.at);
            let mut before = Vec::new();
            let mut hoisted: Vec<Var> = Vec::new();
            for o in &m.operands {
                match o {
                    Operand::Existing(v) => vars.push(*v),
                    Operand::Fresh(ty) => {
                        let mut prefer: Vec<Var> = vars
                            .iter()
                            .take(1)
                            .chain(&hoisted)
                            .chain(vis.iter().rev())
                            .copied()
                            .collect();
                        if in_loop {
                            if let Some((s, v)) = crate::search::handles::producer_for_loop(
                                &mut q,
                                schema,
                                cfg,
                                ty,
                                &prefer,
                                &mut choice,
                            ) {
                                before.extend(s);
                                hoisted.push(v);
                                prefer.push(v);
                            }
                        }
                        let (s, v) = init_or_obtain(
                            &mut q,
                            schema,
                            cfg,
                            ty,
                            &prefer,
                            in_loop,
                            &mut choice,
                            3,
                        )?;
                        stmts.extend(s);
                        vars.push(v);
                    }
                }
            }
            let out = ms
                .ret
                .as_ref()
                .filter(|r| schema.knows(r))
                .map(|r| q.fresh(r));
            stmts.push(Stmt::Call {
                out: if in_loop { None } else { out },
                ty: tname.to_string(),
                method: mname.to_string(),
                recv: vars[0],
                args: vars[1..].to_vec(),
                under_test: false,
            });
            let at = m.at.min(q.body.len());
            if in_loop {
                let recv = vars[0];
                q.body.insert(
                    at,
                    Stmt::Repeat {
                        n: m.count.max(1),
                        body: stmts,
                    },
                );
                q.body.splice(at..at, before);
                if m.op == OpKind::InjectLoopSized {
                    crate::search::grow::raise_ctor_literals(&mut q, recv, m.count);
                }
            } else {
                q.body.splice(at..at, stmts);
            }
        }
        OpKind::ModifyCtor => {
            let (tname, cname) = m.target.rsplit_once("::")?;
            let in_loop = m.inner.is_some();
            let old_out = match m.inner {
                Some(j) => match q.body.get(m.at)? {
                    Stmt::Repeat { body, .. } => body.get(j)?.defines()?,
                    _ => return None,
                },
                None => q.body.get(m.at)?.defines()?,
            };
            let mut stmts = Vec::new();
            let mut args = Vec::new();
            let c = schema.ty(tname)?.ctor(cname)?.clone();
            for prm in &c.params {
                let (s, v) = init_fresh(&mut q, schema, cfg, &prm.ty, in_loop, &mut choice, 3)?;
                stmts.extend(s);
                args.push(v);
            }
            stmts.push(Stmt::Ctor {
                out: old_out,
                ty: tname.to_string(),
                ctor: cname.to_string(),
                args,
            });
            let body = match m.inner {
                Some(_) => match &mut q.body[m.at] {
                    Stmt::Repeat { body, .. } => body,
                    _ => return None,
                },
                None => &mut q.body,
            };
            let idx = m.inner.unwrap_or(m.at);
            body.splice(idx..=idx, stmts);
        }
        OpKind::MutateValue if m.target == HELD => {
            let held = held_values(p);
            let Stmt::Lit {
                value: Literal::Int { ty, value },
                ..
            } = q.body.get_mut(m.at)?
            else {
                return None;
            };
            let others: Vec<i64> = held.into_iter().filter(|h| h != value).collect();
            if others.is_empty() {
                return None;
            }
            *value = ty.clamp(others[choice.pick(others.len())]);
        }
        OpKind::MutateValue
            if m.target == crate::search::mined::MINED
                || m.target == crate::search::mined::MINED_PART =>
        {
            let lit = if m.target == crate::search::mined::MINED {
                crate::search::mined::draw(p, schema, cfg, m.at, &mut choice)?
            } else {
                crate::search::mined::draw_part(p, schema, cfg, m.at, &mut choice)?
            };
            match q.body.get_mut(m.at)? {
                Stmt::Lit { value, .. } if *value != lit => *value = lit,
                _ => return None,
            }
        }
        OpKind::MutateValue if m.target.starts_with("text:") => {
            let name = m.target.strip_prefix("text:")?;
            let (from, other) =
                crate::search::text::fragments(p, schema, cfg, m.at, name, &mut choice)?;
            let spans = match &from {
                Literal::Str(s) => crate::search::text::in_place(s, name, m.count, cfg.max_loop),
                _ => Vec::new(),
            };
            let text = match spans.len() {
                // A span shape takes one of the value's spans (or pairs), drawn.
                0 => crate::search::text::apply(
                    &from,
                    name,
                    m.count,
                    other.as_deref(),
                    cfg.max_loop,
                )?,
                k => spans.into_iter().nth(choice.pick(k))?,
            };
            match q.body.get_mut(m.at)? {
                Stmt::Lit { value, .. } => *value = text,
                _ => return None,
            }
        }
        OpKind::MutateValue => {
            let op = op_named(m.target.strip_prefix("op:")?)?;
            match q.body.get_mut(m.at)? {
                Stmt::Lit { value, .. } => *value = fold(value, op)?,
                _ => return None,
            }
        }
        OpKind::MutateField => {
            let Operand::Existing(v) = m.operands.first()? else {
                return None;
            };
            let (_, rest) = m.target.split_once('.')?;
            let (field, opname) = rest.split_once(':')?;
            let op = op_named(opname)?;
            let fty = schema.ty(q.ty(*v))?.field(field)?.ty.clone();
            let t = q.fresh(&fty);
            let t2 = q.fresh(&fty);
            let at = m.at.min(q.body.len());
            q.body.splice(
                at..at,
                [
                    Stmt::GetField {
                        out: t,
                        target: *v,
                        field: field.to_string(),
                    },
                    Stmt::Op {
                        out: t2,
                        op,
                        arg: t,
                    },
                    Stmt::SetField {
                        target: *v,
                        field: field.to_string(),
                        value: t2,
                    },
                ],
            );
        }
        OpKind::ScaleLoop => {
            let Stmt::Repeat { n, .. } = q.body.get_mut(m.at)? else {
                return None;
            };
            *n = match m.target.as_str() {
                "scale:x8" => n.saturating_mul(8).min(cfg.max_loop),
                "scale:x2" => n.saturating_mul(2).min(cfg.max_loop),
                _ => (*n / 2).max(1),
            };
        }
        OpKind::ScaleAll => {
            let factor = match m.target.as_str() {
                "scale-all:x8" => 8,
                _ => 2,
            };
            q = crate::search::grow::scale_all(&q, factor, cfg.max_loop)?;
        }
        OpKind::ChangePattern => {
            let name = m.target.strip_prefix("pattern:")?;
            let (_, alt) = pattern_alternatives()
                .into_iter()
                .find(|(n, _)| *n == name)?;
            let Stmt::Repeat { body, .. } = q.body.get_mut(m.at)? else {
                return None;
            };
            let Stmt::Lit {
                value: Literal::Index { pattern, .. },
                ..
            } = body.get_mut(m.inner?)?
            else {
                return None;
            };
            *pattern = alt;
        }
    }
    crate::search::mined::draw_fresh(&mut q, p.vars.len(), schema, cfg, &mut choice);
    Some(q)
}

fn op_named(name: &str) -> Option<Op> {
    Op::ALL.into_iter().find(|o| o.name() == name)
}

fn fold(l: &Literal, op: Op) -> Option<Literal> {
    Some(match (l, op) {
        (Literal::Int { ty, value }, op) => {
            let v = match op {
                Op::Inc => value.saturating_add(1),
                Op::Dec => value.saturating_sub(1),
                // Doubling 0 gives 1, so that a zero size or count can still grow.
                Op::Double => value.saturating_mul(2).max(1),
                Op::Halve => value / 2,
                _ => return None,
            };
            Literal::Int {
                ty: *ty,
                value: ty.clamp(v),
            }
        }
        (Literal::Bool(b), Op::Toggle) => Literal::Bool(!b),
        (Literal::Str(s), Op::Append) => Literal::Str(format!("{s}a")),
        (Literal::Str(s), Op::Repeat2) => Literal::Str(s.repeat(2)),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cartesian_keeps_the_first_64_combinations_in_order() {
        let v = |i: usize| Operand::Existing(Var(i as _));
        assert_eq!(cartesian(&[]), vec![Vec::<Operand>::new()]);
        let choices: Vec<Vec<Operand>> = (0..3).map(|_| (0..5).map(v).collect()).collect();
        let all = cartesian(&choices);
        assert_eq!(all.len(), 64);
        assert_eq!(all[0], vec![v(0), v(0), v(0)]);
        assert_eq!(all[5], vec![v(0), v(1), v(0)]);
        assert_eq!(all[63], vec![v(2), v(2), v(3)]);
        assert!(cartesian(&[vec![v(1)], vec![]]).is_empty());
    }
}
