//! Text that grows by pattern (`Literal::Text`): the string counterpart of our loops. A
//! string literal holding a fragment of the crate's own syntax (a value mined from its tests,
//! `search/mined.rs`) becomes that fragment, or a two-character substring of it, repeated n
//! times, nested n deep, interleaved with another mined value, or followed by n copies of its
//! second half; `text:x8`, `text:x2` and `text:/2` scale n as `scale-loop` scales a count,
//! and the verdict sweep scales it as a loop's count (`judge/sweep.rs`).
//!
//! Offered only on literals whose context the mined index answers, so a search over an API
//! the tests say nothing about is unchanged.

use perfsyn_profiler_ipc::schema::ApiSchema;
use perfsyn_profiler_ipc::{Literal, Program, Stmt, TextShape};

use crate::harness::mine::MinedValue;
use crate::search::fresh::MutationConfig;
use crate::search::mined::drawable;
use crate::search::mutate::{Mutation, OpKind, Operand};

/// The count a text starts at (the smallest of the injected loops' counts).
pub const START: u32 = 16;

/// The ways a fixed string becomes a growing text (mutation targets `text:NAME`).
pub const SHAPES: [&str; 5] = ["repeat", "repeat2", "nest", "interleave", "then"];

/// The text mutations of the literal at top-level statement `at` of `p`.
pub fn mutations(p: &Program, schema: &ApiSchema, cfg: &MutationConfig, at: usize) -> Vec<Mutation> {
    let Some(Stmt::Lit { out, value }) = p.body.get(at) else {
        return Vec::new();
    };
    let mk = |target: String| Mutation {
        op: OpKind::MutateValue,
        target,
        at,
        inner: None,
        operands: vec![Operand::Existing(*out)],
        count: 0,
    };
    match value {
        Literal::Str(s) if !s.is_empty() => {
            if drawable(p, schema, &cfg.mined, *out).is_empty() {
                return Vec::new();
            }
            SHAPES.iter().map(|n| mk(format!("text:{n}"))).collect()
        }
        Literal::Text { n, .. } => ["x8", "x2", "/2"]
            .into_iter()
            .filter(|f| scaled(*n, f, cfg.max_loop) != *n)
            .map(|f| mk(format!("text:{f}")))
            .collect(),
        _ => Vec::new(),
    }
}

fn scaled(n: u32, f: &str, max: u32) -> u32 {
    match f {
        "x8" => n.saturating_mul(8).min(max).max(n),
        "x2" => n.saturating_mul(2).min(max).max(n),
        _ => (n / 2).max(1),
    }
}

/// The first half of `s` and the rest, split at a character boundary.
fn halves(s: &str) -> (String, String) {
    let chars: Vec<char> = s.chars().collect();
    let mid = chars.len().div_ceil(2);
    (
        chars[..mid].iter().collect(),
        chars[mid..].iter().collect(),
    )
}

/// Applies text mutation `name` (without its `text:` prefix) to `lit`; `None` when it does
/// not apply. `other` is a second fragment for the interleaving: another mined string.
pub fn apply(lit: &Literal, name: &str, other: Option<&str>, max: u32) -> Option<Literal> {
    match lit {
        Literal::Text { shape, a, b, n } => {
            let m = scaled(*n, name, max);
            (m != *n).then(|| Literal::Text {
                shape: *shape,
                a: a.clone(),
                b: b.clone(),
                n: m,
            })
        }
        Literal::Str(s) if !s.is_empty() => {
            let (head, tail) = halves(s);
            let (shape, a, b) = match name {
                "repeat" => (TextShape::Repeat, s.clone(), String::new()),
                "repeat2" => (TextShape::Repeat, s.chars().take(2).collect(), String::new()),
                "nest" => (TextShape::Nest, head, tail),
                "interleave" => (
                    TextShape::Interleave,
                    s.clone(),
                    other.filter(|o| *o != s).unwrap_or(" ").to_string(),
                ),
                "then" => (TextShape::Then, head, tail),
                _ => return None,
            };
            Some(Literal::Text {
                shape,
                a,
                b,
                n: START,
            })
        }
        _ => None,
    }
}

/// A second mined string for the literal defining the operand at `at`, other than its own.
pub fn other_fragment(p: &Program, schema: &ApiSchema, cfg: &MutationConfig, at: usize) -> Option<String> {
    let Some(Stmt::Lit { out, value }) = p.body.get(at) else {
        return None;
    };
    let own = match value {
        Literal::Str(s) => s.as_str(),
        _ => "",
    };
    drawable(p, schema, &cfg.mined, *out)
        .into_iter()
        .find_map(|(v, _)| match v {
            MinedValue::Str(s) if s != own => Some(s),
            _ => None,
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(l: Option<Literal>) -> String {
        match l {
            Some(Literal::Text { shape, a, b, n }) => shape.eval(&a, &b, n.min(3)),
            other => panic!("not a text: {other:?}"),
        }
    }

    #[test]
    fn a_fragment_becomes_each_growing_shape() {
        let s = Literal::Str("<!-->".into());
        assert_eq!(text(apply(&s, "repeat", None, 1 << 14)), "<!--><!--><!-->");
        assert_eq!(text(apply(&s, "repeat2", None, 1 << 14)), "<!<!<!");
        assert_eq!(text(apply(&s, "nest", None, 1 << 14)), "<!-<!-<!-->->->");
        assert_eq!(text(apply(&s, "then", None, 1 << 14)), "<!-->->->");
        assert_eq!(
            text(apply(&s, "interleave", Some("a"), 1 << 14)),
            "<!-->a<!-->a<!-->a"
        );
        let t = apply(&s, "repeat", None, 1 << 14).unwrap();
        let Some(Literal::Text { n, .. }) = apply(&t, "x8", None, 1 << 14) else {
            panic!()
        };
        assert_eq!(n, START * 8);
        assert_eq!(apply(&Literal::Str(String::new()), "repeat", None, 9), None);
    }
}
