//! Algorithm 4: statements that initialize a fresh value of a type (recursively building its
//! constructors' arguments), and the settings of the mutation space they draw from.
//!
//! Why a file of its own: the mutation operators (`mutate`), the size-growing steps (`grow`),
//! handle operands (`handles`) and the initial program (`initial`) all build fresh values; with
//! Algorithm 4 here, each of them imports it and none imports another back.

use perfsyn_profiler_ipc::schema::{ApiSchema, PRIMITIVES};
use perfsyn_profiler_ipc::{IntTy, Literal, Pattern, Program, Stmt, Var};
use rand::rngs::StdRng;
use rand::RngExt;

/// Settings of the mutation space.
#[derive(Clone, Debug)]
pub struct MutationConfig {
    /// Our loop extension on or off (`--no-loops`).
    pub loops: bool,
    /// Iteration counts offered for a freshly injected loop: one mutation per count, so a
    /// single step can reach a large input (small counts alone make best-first search
    /// climb along one-element steps and miss the asymptotic regime).
    pub loop_counts: Vec<u32>,
    /// The largest loop count scaling may reach.
    pub max_loop: u32,
    /// Existing variables considered per operand (the most recent ones).
    pub existing_per_operand: usize,
    /// Pool of integer constants for fresh values (Algorithm 4's "pool of existing constants").
    pub int_pool: Vec<i64>,
    /// Values mined from the crate's own tests (`harness/mine`); empty: none drawn.
    pub mined: std::sync::Arc<crate::harness::mine::Retriever>,
    /// Which string fragments paid off so far (`credit.rs`); the search updates it.
    pub credit: crate::search::credit::FragmentCredit,
    /// Texts that repeat a span of a mined value in place (`text.rs`, `--no-span-shapes`).
    pub span_shapes: bool,
}

impl Default for MutationConfig {
    fn default() -> Self {
        MutationConfig {
            loops: true,
            loop_counts: vec![16, 256, 4096],
            max_loop: 1 << 14,
            existing_per_operand: 2,
            int_pool: vec![0, 1, 2, 3, 7, 16, 100],
            mined: Default::default(),
            credit: Default::default(),
            span_shapes: true,
        }
    }
}

/// Index of the first call under test; mutations insert before it.
pub fn setup_end(p: &Program) -> usize {
    p.body
        .iter()
        .position(|s| {
            matches!(
                s,
                Stmt::Call {
                    under_test: true,
                    ..
                }
            )
        })
        .unwrap_or(p.body.len())
}

/// Whether a fresh value of `ty` can be built within `depth` constructor levels.
pub fn creatable(schema: &ApiSchema, ty: &str, depth: u32) -> bool {
    if PRIMITIVES.contains(&ty) {
        return true;
    }
    if depth == 0 {
        return false;
    }
    schema.ty(ty).is_some_and(|t| {
        t.ctors
            .iter()
            .any(|c| c.params.iter().all(|q| creatable(schema, &q.ty, depth - 1)))
    })
}

/// How fresh values are chosen: the `k`-th candidate of Algorithm 4 (p0 tries several), or
/// random pool values during the search.
#[derive(Debug)]
pub enum Choice<'a> {
    /// Deterministic: constructor and pool index from this counter (incremented per choice).
    Nth(&'a mut Vec<usize>, usize),
    Random(&'a mut StdRng),
}

impl Choice<'_> {
    pub(crate) fn pick(&mut self, len: usize) -> usize {
        if len == 0 {
            return 0;
        }
        match self {
            Choice::Nth(digits, pos) => {
                if *pos >= digits.len() {
                    digits.push(0);
                }
                let d = digits[*pos];
                *pos += 1;
                d % len
            }
            Choice::Random(rng) => rng.random_range(0..len),
        }
    }
}

/// Algorithm 4: statements initializing a fresh variable of `ty` (recursively constructing
/// arguments); inside a loop, integers come from the loop index.
pub fn init_fresh(
    p: &mut Program,
    schema: &ApiSchema,
    cfg: &MutationConfig,
    ty: &str,
    in_loop: bool,
    choice: &mut Choice<'_>,
    depth: u32,
) -> Option<(Vec<Stmt>, Var)> {
    if let Some(it) = IntTy::from_name(ty) {
        let out = p.fresh(ty);
        let value = if in_loop {
            Literal::Index {
                ty: it,
                pattern: Pattern::I,
            }
        } else {
            let k = choice.pick(cfg.int_pool.len());
            Literal::Int {
                ty: it,
                value: it.clamp(cfg.int_pool[k]),
            }
        };
        return Some((vec![Stmt::Lit { out, value }], out));
    }
    let lit = match ty {
        "bool" => Some(Literal::Bool(choice.pick(2) == 1)),
        "char" => Some(Literal::Char(['a', 'z', '0'][choice.pick(3)])),
        "String" => Some(Literal::Str(["a", "", "abc"][choice.pick(3)].to_string())),
        _ => None,
    };
    if let Some(value) = lit {
        let out = p.fresh(ty);
        return Some((vec![Stmt::Lit { out, value }], out));
    }
    if depth == 0 {
        return None;
    }
    let t = schema.ty(ty)?;
    let ctors: Vec<_> = t
        .ctors
        .iter()
        .filter(|c| c.params.iter().all(|q| creatable(schema, &q.ty, depth - 1)))
        .collect();
    if ctors.is_empty() {
        return None;
    }
    let c = ctors[choice.pick(ctors.len())];
    build_ctor(p, schema, cfg, ty, &c.name, in_loop, choice, depth)
}

fn build_ctor(
    p: &mut Program,
    schema: &ApiSchema,
    cfg: &MutationConfig,
    ty: &str,
    ctor: &str,
    in_loop: bool,
    choice: &mut Choice<'_>,
    depth: u32,
) -> Option<(Vec<Stmt>, Var)> {
    let c = schema.ty(ty)?.ctor(ctor)?.clone();
    let mut stmts = Vec::new();
    let mut args = Vec::new();
    for q in &c.params {
        let (s, v) = init_fresh(
            p,
            schema,
            cfg,
            &q.ty,
            in_loop,
            choice,
            depth.saturating_sub(1),
        )?;
        stmts.extend(s);
        args.push(v);
    }
    let out = p.fresh(ty);
    stmts.push(Stmt::Ctor {
        out,
        ty: ty.to_string(),
        ctor: ctor.to_string(),
        args,
    });
    Some((stmts, out))
}
