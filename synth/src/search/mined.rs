//! "Mutate value" to a value mined from the crate's own tests (TestMiner, section 4.2.3;
//! `harness/mine`): a literal passed to a method draws, with probability
//! [`P_QUERY`], one of the values the index holds for that method's context, weighted by
//! frequency, else a value of the built-in pools.
//!
//! The mutation is offered only where the index answers the literal's context, so a search
//! over an API the tests say nothing about makes exactly the mutations (and draws exactly
//! the random numbers) it made before mining existed.

use perfsyn_profiler_ipc::schema::{ApiSchema, ParamSchema, TypeSchema};
use perfsyn_profiler_ipc::{IntTy, Literal, Program, Stmt, Var};

use crate::harness::mine::{self, MinedValue, Retriever};
use crate::search::fresh::{Choice, MutationConfig};

/// The target of the mutation.
pub const MINED: &str = "op:mined";

/// The paper's P_query: how often a draw takes a mined value rather than a pool value.
pub const P_QUERY: f64 = 0.5;

/// The first call or constructor that takes `v` as an argument: its type, its method (or
/// constructor) name and the parameter `v` is passed as.
pub fn consumer<'s>(
    p: &Program,
    schema: &'s ApiSchema,
    v: Var,
) -> Option<(&'s TypeSchema, String, &'s ParamSchema)> {
    fn walk<'s>(
        body: &[Stmt],
        schema: &'s ApiSchema,
        v: Var,
    ) -> Option<(&'s TypeSchema, String, &'s ParamSchema)> {
        for s in body {
            let found = match s {
                Stmt::Call {
                    ty, method, args, ..
                } => args.iter().position(|a| *a == v).and_then(|k| {
                    let t = schema.ty(ty)?;
                    Some((t, method.clone(), t.method(method)?.params.get(k)?))
                }),
                Stmt::Ctor { ty, ctor, args, .. } => {
                    args.iter().position(|a| *a == v).and_then(|k| {
                        let t = schema.ty(ty)?;
                        Some((t, ctor.clone(), t.ctor(ctor)?.params.get(k)?))
                    })
                }
                Stmt::Repeat { body, .. } => walk(body, schema, v),
                _ => None,
            };
            if found.is_some() {
                return found;
            }
        }
        None
    }
    walk(&p.body, schema, v)
}

/// The mined values the literal defining `v` can draw (empty: no mutation).
pub fn drawable(
    p: &Program,
    schema: &ApiSchema,
    index: &Retriever,
    v: Var,
) -> Vec<(MinedValue, u32)> {
    if index.is_empty() {
        return Vec::new();
    }
    match consumer(p, schema, v) {
        Some((t, m, prm)) => mine::values_for(index, t, &m, prm),
        None => Vec::new(),
    }
}

/// The literal a mined value is, for a parameter of type `ty`.
pub fn literal_of(v: &MinedValue, ty: &str) -> Option<Literal> {
    Some(match v {
        MinedValue::Str(s) => Literal::Str(s.clone()),
        MinedValue::Bytes(b) => Literal::Str(String::from_utf8(b.clone()).ok()?),
        MinedValue::Char(c) => Literal::Char(*c),
        MinedValue::Int(i) => {
            let ty = IntTy::from_name(ty)?;
            Literal::Int {
                ty,
                value: ty.clamp(*i),
            }
        }
    })
}

/// The value the mutation gives the literal at top-level statement `at`: a mined value
/// (frequency-weighted) with probability [`P_QUERY`], else a pool value of its type.
pub fn draw(
    p: &Program,
    schema: &ApiSchema,
    cfg: &MutationConfig,
    at: usize,
    choice: &mut Choice<'_>,
) -> Option<Literal> {
    let Stmt::Lit { out, value } = p.body.get(at)? else {
        return None;
    };
    let ty = value.type_name();
    let values = drawable(p, schema, &cfg.mined, *out);
    if values.is_empty() {
        return None;
    }
    if choice.pick(1000) < (P_QUERY * 1000.0) as usize {
        let total: u32 = values.iter().map(|(_, n)| n).sum();
        let mut k = choice.pick(total as usize) as u32;
        for (v, n) in &values {
            if k < *n {
                return literal_of(v, ty);
            }
            k -= n;
        }
        return None;
    }
    Some(match value {
        Literal::Str(_) => Literal::Str(["a", "", "abc"][choice.pick(3)].to_string()),
        Literal::Char(_) => Literal::Char(['a', 'z', '0'][choice.pick(3)]),
        Literal::Int { ty, .. } => Literal::Int {
            ty: *ty,
            value: ty.clamp(cfg.int_pool[choice.pick(cfg.int_pool.len())]),
        },
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use perfsyn_profiler_ipc::{register_type, Literal, Program, Registry, Stmt};

    use super::{draw, drawable};
    use crate::harness::mine::collect::Pair;
    use crate::harness::mine::words::bag;
    use crate::harness::mine::{MinedIndex, MinedValue, Retriever};
    use crate::search::fresh::{Choice, MutationConfig};

    #[derive(Default)]
    pub struct Lexer;

    impl Lexer {
        pub fn lex(&self, s: &str) -> usize {
            s.len()
        }
    }

    register_type! {
        pub fn lexer() -> Lexer {
            path: "Lexer",
            imports: ["my_crate::Lexer"],
            version: None,
            size: [|_l| 0],
            ctors { new() => Lexer; }
            methods { lex(ref self, s: str String) -> usize; }
            fields {}
        }
    }

    /// `let l = Lexer::new(); let s = "a"; l.lex(s);` with an index of `lexer.lex("((")`.
    fn setup() -> (Program, perfsyn_profiler_ipc::ApiSchema, MutationConfig) {
        let schema = Registry::new(vec![lexer()]).schema();
        let mut p = Program::default();
        let l = p.fresh("Lexer");
        let s = p.fresh("String");
        p.body = vec![
            Stmt::Ctor {
                out: l,
                ty: "Lexer".into(),
                ctor: "new".into(),
                args: vec![],
            },
            Stmt::Lit {
                out: s,
                value: Literal::Str("a".into()),
            },
            Stmt::Call {
                out: None,
                ty: "Lexer".into(),
                method: "lex".into(),
                recv: l,
                args: vec![s],
                under_test: true,
            },
        ];
        let pair = |v: &str| Pair {
            context: bag(["lexer", "lex"]),
            value: MinedValue::Str(v.into()),
        };
        let index = MinedIndex::build(&[pair("(("), pair("(("), pair("a)")]);
        let cfg = MutationConfig {
            mined: std::sync::Arc::new(Retriever::new(index)),
            ..MutationConfig::default()
        };
        (p, schema, cfg)
    }

    #[test]
    fn a_literal_draws_the_values_of_its_consumers_context_by_frequency() {
        let (p, schema, cfg) = setup();
        let values = drawable(&p, &schema, &cfg.mined, perfsyn_profiler_ipc::Var(1));
        assert_eq!(
            values,
            vec![
                (MinedValue::Str("((".into()), 2),
                (MinedValue::Str("a)".into()), 1)
            ]
        );
        // Digits: below 500 takes a mined value; then 0 of 3 is the first, by weight.
        let mut digits = vec![0, 0];
        let got = draw(&p, &schema, &cfg, 1, &mut Choice::Nth(&mut digits, 0));
        assert_eq!(got, Some(Literal::Str("((".into())));
        let mut digits = vec![0, 2];
        let got = draw(&p, &schema, &cfg, 1, &mut Choice::Nth(&mut digits, 0));
        assert_eq!(got, Some(Literal::Str("a)".into())));
        // Otherwise a pool value.
        let mut digits = vec![999, 2];
        let got = draw(&p, &schema, &cfg, 1, &mut Choice::Nth(&mut digits, 0));
        assert_eq!(got, Some(Literal::Str("abc".into())));
        let none = drawable(
            &p,
            &schema,
            &MutationConfig::default().mined,
            perfsyn_profiler_ipc::Var(1),
        );
        assert!(none.is_empty(), "an empty index draws nothing");
    }
}
