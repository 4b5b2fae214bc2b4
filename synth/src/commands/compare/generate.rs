//! Concurrent test generation (SpeedGun section 3): a prefix that builds the shared instance,
//! then N suffixes of sqrt(l) calls, each repeated sqrt(l) times.
//!
//! Focus methods (section 3.1) are the methods the pair's registration lists as `changed`
//! (we read the change from the registration rather than diffing code, which Rust miniatures
//! compiled into one binary cannot offer); a suffix call picks a focus method with probability
//! [`FOCUS_SHARE`] and any method of the common interface otherwise, so that preconditions set
//! up by non-focus methods still happen. Only methods both versions offer with the same
//! signature are used. We generate straight from the schema instead of the paper's
//! feedback-directed extension (the executor reports a panicking test as inconclusive, which is
//! the feedback that matters here); the sqrt(l) x sqrt(l) shape is the paper's.
//!
//! With seeds (programs from a run file of `perfsyn explore`), a test's prefix is a winning
//! program's setup and half of the suffix calls come from the methods that program calls.
//!
//! A test is written once, against the pair's new name (a seed's prefix keeps the name its
//! program used): each worker of the pair resolves both names of the pair to its own version
//! (`profiler_ipc::bind::bind_pair`), so the same test runs the old code on one and the new
//! code on the other.

use perfsyn_profiler_ipc::concurrent::ConcurrentTest;
use perfsyn_profiler_ipc::schema::{ApiSchema, MethodSchema, Mode, TypeSchema};
use perfsyn_profiler_ipc::{IntTy, Literal, Pattern, Program, Stmt, Var};
use rand::rngs::StdRng;
use rand::RngExt;

/// Probability that a suffix call is a focus method (when the pair has any).
pub const FOCUS_SHARE: f64 = 0.8;

/// A seed from a synthesized program: its setup as a prefix and its call mix.
#[derive(Clone, Debug)]
pub struct Seed {
    /// The program without its calls under test, with the type names it was written with.
    pub prefix: Program,
    /// The variable of the pair's type (either name) that the program's calls use.
    pub shared: Var,
    /// Methods the program calls on it (calls under test first, repeated as often as called).
    pub mix: Vec<String>,
}

/// Generates tests for one pair, written against the new version's name.
#[derive(Debug)]
pub struct Generator<'a> {
    /// The old version's schema: its constructors and methods are the ones tests call.
    old: &'a TypeSchema,
    /// The name a generated test gives the shared instance's type.
    name: &'a str,
    /// Methods of the common interface.
    common: Vec<&'a MethodSchema>,
    /// Indices into `common` of the focus methods.
    focus: Vec<usize>,
    seeds: Vec<Seed>,
}

/// Why no test can be generated for a pair.
#[derive(Debug, thiserror::Error)]
pub enum GenerateError {
    #[error("{0} is not a registered type")]
    Unknown(String),
    #[error("{old} and {new} have no common method callable with literal arguments")]
    NoCommonMethod { old: String, new: String },
    #[error("{0} has no constructor callable with literal arguments")]
    NoConstructor(String),
}

impl<'a> Generator<'a> {
    /// A generator for `old` -> `new`, focusing on `changed`: `old_schema` is the old
    /// version's worker's, `new_schema` the new one's.
    pub fn new(
        old_schema: &'a ApiSchema,
        new_schema: &'a ApiSchema,
        old: &str,
        new: &'a str,
        changed: &[String],
        seeds: Vec<Seed>,
    ) -> Result<Generator<'a>, GenerateError> {
        let o = old_schema
            .ty(old)
            .ok_or_else(|| GenerateError::Unknown(old.into()))?;
        let n = new_schema
            .ty(new)
            .ok_or_else(|| GenerateError::Unknown(new.into()))?;
        let common: Vec<&MethodSchema> = o
            .methods
            .iter()
            .filter(|m| {
                n.method(&m.name).is_some_and(|nm| {
                    nm.params == m.params && nm.ret == m.ret && nm.receiver == m.receiver
                }) && m.receiver == Mode::Ref
                    && m.params.iter().all(|p| literal_type(&p.ty).is_some())
            })
            .collect();
        if common.is_empty() {
            return Err(GenerateError::NoCommonMethod {
                old: old.into(),
                new: new.into(),
            });
        }
        if seeds.is_empty()
            && !o.ctors.iter().any(|c| {
                n.ctor(&c.name).is_some_and(|nc| nc.params == c.params)
                    && c.params.iter().all(|p| literal_type(&p.ty).is_some())
            })
        {
            return Err(GenerateError::NoConstructor(old.into()));
        }
        let focus = common
            .iter()
            .enumerate()
            .filter(|(_, m)| changed.contains(&m.name))
            .map(|(i, _)| i)
            .collect();
        Ok(Generator {
            old: o,
            name: new,
            common,
            focus,
            seeds,
        })
    }

    /// The focus methods that are in the common interface.
    pub fn focus_methods(&self) -> Vec<String> {
        self.focus
            .iter()
            .map(|&i| self.common[i].name.clone())
            .collect()
    }

    /// A random test with `threads` suffixes of about `l` calls each (sqrt(l) calls repeated
    /// sqrt(l) times).
    pub fn generate(&self, rng: &mut StdRng, threads: usize, l: usize) -> ConcurrentTest {
        let side = ((l.max(1) as f64).sqrt().round() as usize).max(1);
        let seed =
            (!self.seeds.is_empty()).then(|| &self.seeds[rng.random_range(0..self.seeds.len())]);
        let (mut prefix, shared) = match seed {
            Some(s) => (s.prefix.clone(), s.shared),
            None => self.prefix(rng),
        };
        let suffixes = (0..threads)
            .map(|_| self.suffix(rng, &mut prefix, shared, side, seed))
            .collect();
        ConcurrentTest {
            prefix,
            shared,
            suffixes,
            repeat: side as u32,
        }
    }

    fn prefix(&self, rng: &mut StdRng) -> (Program, Var) {
        let mut p = Program::default();
        let ctors: Vec<_> = self
            .old
            .ctors
            .iter()
            .filter(|c| c.params.iter().all(|q| literal_type(&q.ty).is_some()))
            .collect();
        let ctor = ctors[rng.random_range(0..ctors.len())];
        let args: Vec<Var> = ctor
            .params
            .iter()
            .map(|q| {
                let v = p.fresh(&q.ty);
                let value = fresh_literal(rng, &q.ty, false);
                p.body.push(Stmt::Lit { out: v, value });
                v
            })
            .collect();
        let shared = p.fresh(self.name);
        p.body.push(Stmt::Ctor {
            out: shared,
            ty: self.name.to_string(),
            ctor: ctor.name.clone(),
            args,
        });
        // Bring the instance into a state: a loop of one call with index-dependent
        // arguments (fills maps, pools, caches), sometimes followed by single calls.
        let m = self.common[rng.random_range(0..self.common.len())];
        let n = [8u32, 32, 128][rng.random_range(0..3)];
        let mut body = Vec::new();
        let call = self.call(rng, &mut p, &mut body, shared, m, true, &[]);
        body.push(call);
        p.body.push(Stmt::Repeat { n, body });
        for _ in 0..rng.random_range(0..3) {
            let m = self.common[rng.random_range(0..self.common.len())];
            let mut stmts = Vec::new();
            let call = self.call(rng, &mut p, &mut stmts, shared, m, false, &[]);
            p.body.extend(stmts);
            p.body.push(call);
        }
        (p, shared)
    }

    fn suffix(
        &self,
        rng: &mut StdRng,
        p: &mut Program,
        shared: Var,
        calls: usize,
        seed: Option<&Seed>,
    ) -> Vec<Stmt> {
        let mut body = Vec::new();
        let mut results: Vec<Var> = Vec::new();
        for _ in 0..calls {
            let from_seed = seed.and_then(|s| {
                (rng.random_bool(0.5) && !s.mix.is_empty())
                    .then(|| &s.mix[rng.random_range(0..s.mix.len())])
                    .and_then(|name| self.common.iter().find(|m| &m.name == name))
            });
            let m = match from_seed {
                Some(m) => *m,
                None if !self.focus.is_empty() && rng.random_bool(FOCUS_SHARE) => {
                    self.common[self.focus[rng.random_range(0..self.focus.len())]]
                }
                None => self.common[rng.random_range(0..self.common.len())],
            };
            let call = self.call(rng, p, &mut body, shared, m, true, &results);
            if let Stmt::Call { out: Some(o), .. } = &call {
                results.push(*o);
            }
            body.push(call);
        }
        body
    }

    /// A call of `m` on `recv`, pushing the literal statements its arguments need onto
    /// `stmts`; an argument reuses an earlier result of the same type (one of `results`) with
    /// probability 1/2, so that, e.g., a borrowed object is returned.
    #[allow(clippy::too_many_arguments)]
    fn call(
        &self,
        rng: &mut StdRng,
        p: &mut Program,
        stmts: &mut Vec<Stmt>,
        recv: Var,
        m: &MethodSchema,
        in_loop: bool,
        results: &[Var],
    ) -> Stmt {
        // One variable per operand: the executor moves operands out of their slots while a
        // call runs, so the same variable twice in one call would be missing the second time.
        let mut args: Vec<Var> = Vec::new();
        for q in &m.params {
            let reusable: Vec<Var> = results
                .iter()
                .copied()
                .filter(|v| p.ty(*v) == q.ty && q.mode != Mode::Val && !args.contains(v))
                .collect();
            if !reusable.is_empty() && rng.random_bool(0.5) {
                args.push(reusable[rng.random_range(0..reusable.len())]);
                continue;
            }
            let v = p.fresh(&q.ty);
            let value = fresh_literal(rng, &q.ty, in_loop);
            stmts.push(Stmt::Lit { out: v, value });
            args.push(v);
        }
        let out = m.ret.as_ref().map(|r| p.fresh(r));
        Stmt::Call {
            out,
            ty: p.ty(recv).to_string(),
            method: m.name.clone(),
            recv,
            args,
            under_test: false,
        }
    }
}

/// The literal kind a parameter type takes, if it is one we can write.
fn literal_type(ty: &str) -> Option<&str> {
    (IntTy::from_name(ty).is_some() || matches!(ty, "bool" | "char" | "String")).then_some(ty)
}

/// A literal of type `ty`: small integers, or in a loop an index pattern (so that successive
/// iterations touch different keys).
fn fresh_literal(rng: &mut StdRng, ty: &str, in_loop: bool) -> Literal {
    if let Some(it) = IntTy::from_name(ty) {
        if in_loop && rng.random_bool(0.5) {
            let pattern = match rng.random_range(0..3) {
                0 => Pattern::I,
                1 => Pattern::ModK([4u32, 16, 64][rng.random_range(0..3)]),
                _ => Pattern::Hash(rng.random_range(0..1000)),
            };
            return Literal::Index { ty: it, pattern };
        }
        return Literal::Int {
            ty: it,
            value: it.clamp(rng.random_range(0..64)),
        };
    }
    match ty {
        "bool" => Literal::Bool(rng.random_bool(0.5)),
        "char" => Literal::Char((b'a' + rng.random_range(0..26u8)) as char),
        _ => Literal::Str("key".into()),
    }
}

/// Seeds from synthesized programs: for each program that uses a value of `old` or `new`,
/// its statements except the calls under test and the methods it calls on that value.
/// Programs that do not fit `schema` (a worker of the pair, which offers both names) are
/// skipped.
pub fn seeds_from(programs: &[Program], schema: &ApiSchema, old: &str, new: &str) -> Vec<Seed> {
    let mut out = Vec::new();
    for p in programs {
        let Some(shared) = p.body.iter().find_map(|s| match s {
            Stmt::Ctor { out, ty, .. } if ty == old || ty == new => Some(*out),
            _ => None,
        }) else {
            continue;
        };
        let mut mix = Vec::new();
        let mut prefix = p.clone();
        prefix.body.clear();
        for s in &p.body {
            match s {
                Stmt::Call {
                    recv,
                    method,
                    under_test: true,
                    ..
                } if *recv == shared => mix.push(method.clone()),
                Stmt::Repeat { body, .. }
                    if body.iter().any(|s| {
                        matches!(s, Stmt::Call { under_test: true, recv, .. } if *recv == shared)
                    }) =>
                {
                    for s in body {
                        if let Stmt::Call { recv, method, .. } = s {
                            if *recv == shared {
                                mix.push(method.clone());
                            }
                        }
                    }
                }
                other => prefix.body.push(other.clone()),
            }
        }
        let probe = ConcurrentTest {
            prefix: prefix.clone(),
            shared,
            suffixes: vec![Vec::new()],
            repeat: 1,
        };
        if probe.check(schema).is_ok() {
            out.push(Seed {
                prefix,
                shared,
                mix,
            });
        }
    }
    out
}
