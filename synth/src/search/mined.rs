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

/// The target of the mutation to a part of a mined value ([`parts`]).
pub const MINED_PART: &str = "op:mined-part";

/// The parts of a mined string a parser also reads alone: its words (split at whitespace)
/// when it has several, and its runs of punctuation (neither alphanumeric nor whitespace)
/// when it has other characters too: `"<!-- a -->"` gives `"<!--"`, `"a"`, `"-->"`;
/// `"2h 37min"` gives `"2h"`, `"37min"`. The whole value is no part of itself.
pub fn parts(s: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut push = |p: &str| {
        if !p.is_empty() && p != s && !out.iter().any(|o| o == p) {
            out.push(p.to_string());
        }
    };
    let words: Vec<&str> = s.split_whitespace().collect();
    if words.len() > 1 {
        words.iter().for_each(|w| push(w));
    }
    let punct = |c: char| !c.is_alphanumeric() && !c.is_whitespace();
    if s.chars().any(|c| !punct(c)) {
        for run in s.split(|c: char| !punct(c)) {
            push(run);
        }
    }
    out
}

/// The parts ([`parts`]) of the mined strings the literal defining `v` can draw, each
/// with the count of the value it came from.
pub fn drawable_parts(
    p: &Program,
    schema: &ApiSchema,
    index: &Retriever,
    v: Var,
) -> Vec<(String, u32)> {
    let mut out: Vec<(String, u32)> = Vec::new();
    for (m, n) in drawable(p, schema, index, v) {
        let text = match m {
            MinedValue::Str(s) => s,
            MinedValue::Bytes(b) => match String::from_utf8(b) {
                Ok(s) => s,
                Err(_) => continue,
            },
            _ => continue,
        };
        for part in parts(&text) {
            match out.iter_mut().find(|(o, _)| *o == part) {
                Some((_, k)) => *k += n,
                None => out.push((part, n)),
            }
        }
    }
    out
}

/// The mined-value mutations a literal defining `v` gets: a mined value ([`MINED`]), and a
/// part of one ([`MINED_PART`]) where the values have parts.
pub fn offers(p: &Program, schema: &ApiSchema, cfg: &MutationConfig, v: Var) -> Vec<&'static str> {
    let mut out = Vec::new();
    if !drawable(p, schema, &cfg.mined, v).is_empty() {
        out.push(MINED);
        if !drawable_parts(p, schema, &cfg.mined, v).is_empty() {
            out.push(MINED_PART);
        }
    }
    out
}

/// The string a [`MINED_PART`] mutation gives the literal at top-level statement `at`: a part
/// of a mined value, weighted by its value's count.
pub fn draw_part(
    p: &Program,
    schema: &ApiSchema,
    cfg: &MutationConfig,
    at: usize,
    choice: &mut Choice<'_>,
) -> Option<Literal> {
    let Stmt::Lit {
        out,
        value: Literal::Str(_),
    } = p.body.get(at)?
    else {
        return None;
    };
    let parts = drawable_parts(p, schema, &cfg.mined, *out);
    weighted(&parts, cfg, |s| Some(s.clone()), choice).map(|s| Literal::Str(s.clone()))
}

/// One of `items`, drawn with probability proportional to its count, credited by what its
/// fragment's earlier uses reached (`credit.rs`).
fn weighted<'a, T>(
    items: &'a [(T, u32)],
    cfg: &MutationConfig,
    key: impl Fn(&T) -> Option<String>,
    choice: &mut Choice<'_>,
) -> Option<&'a T> {
    crate::search::credit::draw(items, &cfg.credit, key, |total| choice.pick(total))
}

/// The text a mined value is as a fragment, for its credit (`None`: not text).
fn text_key(v: &MinedValue) -> Option<String> {
    match v {
        MinedValue::Str(s) => Some(s.clone()),
        MinedValue::Bytes(b) => String::from_utf8(b.clone()).ok(),
        _ => None,
    }
}

/// Fresh literals draw too, as the paper's generator queries whenever it needs a value: each
/// top-level literal a mutation added to `q` (its variable is new: index `old_vars` or
/// above) and that a call of the crate's own API consumes takes, with probability
/// [`P_QUERY`], a mined value of its consumer's context instead of its pool value. Draws
/// nothing (and no random number) where the index answers nothing.
pub fn draw_fresh(
    q: &mut Program,
    old_vars: usize,
    schema: &ApiSchema,
    cfg: &MutationConfig,
    choice: &mut Choice<'_>,
) {
    if cfg.mined.is_empty() {
        return;
    }
    for at in 0..q.body.len() {
        let Stmt::Lit { out, value } = &q.body[at] else {
            continue;
        };
        let fresh = out.index() >= old_vars
            && matches!(
                value,
                Literal::Str(_) | Literal::Char(_) | Literal::Int { .. }
            );
        if !fresh {
            continue;
        }
        let values = drawable(q, schema, &cfg.mined, *out);
        if values.is_empty() || choice.pick(1000) >= (P_QUERY * 1000.0) as usize {
            continue;
        }
        let ty = value.type_name().to_string();
        if let Some(lit) = weighted(&values, cfg, text_key, choice).and_then(|v| literal_of(v, &ty))
        {
            if let Stmt::Lit { value, .. } = &mut q.body[at] {
                *value = lit;
            }
        }
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
        return weighted(&values, cfg, text_key, choice).and_then(|v| literal_of(v, ty));
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

    use super::{draw, draw_fresh, draw_part, drawable, parts};
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
        // Digits: below 500 takes a mined value; then 0 of 3 (each count times the credit's
        // scale, no fragment credited yet) is the first, by weight.
        let mut digits = vec![0, 0];
        let got = draw(&p, &schema, &cfg, 1, &mut Choice::Nth(&mut digits, 0));
        assert_eq!(got, Some(Literal::Str("((".into())));
        let mut digits = vec![0, 2 * crate::search::credit::SCALE as usize];
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

    #[test]
    fn parts_of_a_value_are_its_words_and_its_runs_of_punctuation() {
        assert_eq!(parts("<!-- a -->"), ["<!--", "a", "-->"]);
        assert_eq!(parts("2h 37min"), ["2h", "37min"]);
        assert_eq!(parts("a)"), [")"]);
        assert!(
            parts("((").is_empty(),
            "punctuation alone is its own only part"
        );
        assert!(parts("abc").is_empty());
    }

    #[test]
    fn a_part_mutation_draws_a_part_of_a_mined_value() {
        let (p, schema, cfg) = setup();
        // The only part among "((" and "a)" is ")".
        let mut digits = vec![0];
        let got = draw_part(&p, &schema, &cfg, 1, &mut Choice::Nth(&mut digits, 0));
        assert_eq!(got, Some(Literal::Str(")".into())));
    }

    #[test]
    fn a_fresh_literal_draws_a_mined_value_and_an_old_one_keeps_its_own() {
        let (p, schema, cfg) = setup();
        // The literal's variable (1) is new when the program had one variable before.
        let mut q = p.clone();
        let mut digits = vec![0, 0];
        draw_fresh(&mut q, 1, &schema, &cfg, &mut Choice::Nth(&mut digits, 0));
        assert!(matches!(&q.body[1], Stmt::Lit { value: Literal::Str(s), .. } if s == "(("));
        // Old: untouched, and no random number drawn.
        let mut q = p.clone();
        let mut digits = Vec::new();
        draw_fresh(&mut q, 2, &schema, &cfg, &mut Choice::Nth(&mut digits, 0));
        assert_eq!(q, p);
        assert!(digits.is_empty());
    }
}
