//! Text that grows by pattern (`Literal::Text`): the string counterpart of our loops. A
//! string literal becomes a fragment of the crate's own syntax (the literal itself when it is
//! a value mined from its tests, `search/mined.rs`, else a mined value or a part of one, a
//! word or a run of punctuation, drawn by frequency), or a two-character substring of it,
//! repeated n times, nested n deep, interleaved with another mined value, followed by n
//! copies of its second half, or repeated n times after another mined value. As an injected
//! loop, one mutation per count of `loop_counts`, so one step reaches a large input;
//! `text:x8`, `text:x2` and `text:/2` scale n as `scale-loop` scales a count, and the verdict
//! sweep scales it as a loop's count (`judge/sweep.rs`).
//!
//! Every shape above breaks a whole valid input (a second root, an unclosed element), so a
//! parser that rejects it early is measured on its first scan only. `span` and `span-pair`
//! keep a mined value whole and repeat one of its spans n times in place, or an opening span
//! and its closing one (`search/spans.rs` chooses them from the value's own punctuation): a
//! valid input grown long or deep (`--no-span-shapes` switches them off).
//!
//! Offered only on literals whose context the mined index answers, so a search over an API
//! the tests say nothing about is unchanged.

use perfsyn_profiler_ipc::schema::ApiSchema;
use perfsyn_profiler_ipc::{Literal, Program, Stmt, TextShape};

use crate::harness::mine::MinedValue;
use crate::search::credit;
use crate::search::fresh::{Choice, MutationConfig};
use crate::search::mined::{drawable, drawable_parts};

/// The ways a fixed string becomes a growing text (mutation targets `text:NAME`).
pub const SHAPES: [&str; 8] = [
    "repeat",
    "repeat2",
    "nest",
    "interleave",
    "then",
    "after",
    SPAN,
    SPAN_PAIR,
];

/// A mined value with one of its spans repeated in place (`TextShape::Span`).
pub const SPAN: &str = "span";
/// A mined value with an opening and a closing span each repeated in place.
pub const SPAN_PAIR: &str = "span-pair";

fn is_span(name: &str) -> bool {
    name == SPAN || name == SPAN_PAIR
}

/// The text mutations of the literal at top-level statement `at` of `p`: each one's target
/// (`text:NAME`) and count (0 for the scaling ones). `mutate.rs` makes them mutations.
pub fn offers(
    p: &Program,
    schema: &ApiSchema,
    cfg: &MutationConfig,
    at: usize,
) -> Vec<(String, u32)> {
    let Some(Stmt::Lit { out, value }) = p.body.get(at) else {
        return Vec::new();
    };
    let mk = |target: String, count: u32| (target, count);
    match value {
        Literal::Str(_) => {
            let values: Vec<String> = drawable(p, schema, &cfg.mined, *out)
                .iter()
                .filter_map(|(v, _)| fragment_of(v))
                .collect();
            if values.is_empty() {
                return Vec::new();
            }
            let cut = |name: &str| values.iter().any(|v| !in_place(v, name, 1, 1).is_empty());
            SHAPES
                .iter()
                .filter(|n| !is_span(n) || (cfg.span_shapes && cut(n)))
                .flat_map(|n| cfg.loop_counts.iter().map(move |c| (n, *c)))
                .map(|(n, c)| mk(format!("text:{n}"), c))
                .collect()
        }
        Literal::Text { n, .. } => ["x8", "x2", "/2"]
            .into_iter()
            .filter(|f| scaled(*n, f, cfg.max_loop) != *n)
            .map(|f| mk(format!("text:{f}"), 0))
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
    (chars[..mid].iter().collect(), chars[mid..].iter().collect())
}

/// The text a mined value gives as a fragment (a string, or bytes that are UTF-8), if any.
fn fragment_of(v: &MinedValue) -> Option<String> {
    match v {
        MinedValue::Str(s) if !s.is_empty() => Some(s.clone()),
        MinedValue::Bytes(b) if !b.is_empty() => String::from_utf8(b.clone()).ok(),
        _ => None,
    }
}

/// The texts span shape `name` makes of `s` with count `n`, one per span (or pair) that
/// `search/spans.rs` chooses, best first; empty for any other name or a value with none.
pub fn in_place(s: &str, name: &str, n: u32, max: u32) -> Vec<Literal> {
    let at = |x: usize| x as u32;
    let shapes: Vec<TextShape> = match name {
        SPAN => crate::search::spans::singles(s)
            .into_iter()
            .map(|(start, end)| TextShape::Span {
                start: at(start),
                end: at(end),
            })
            .collect(),
        SPAN_PAIR => crate::search::spans::pairs(s)
            .into_iter()
            .map(|(o, c)| TextShape::SpanPair {
                open: at(o.0),
                open_end: at(o.1),
                close: at(c.0),
                close_end: at(c.1),
            })
            .collect(),
        _ => Vec::new(),
    };
    shapes
        .into_iter()
        .map(|shape| Literal::Text {
            shape,
            a: s.to_string(),
            b: String::new(),
            n: n.clamp(1, max),
        })
        .collect()
}

/// Applies text mutation `name` (without its `text:` prefix) to `lit`, a fixed string
/// becoming a text of `count` (0 for the scaling ones); `None` when it does not apply.
/// `other` is a second fragment for the interleaving: another mined string. The span shapes
/// take their best span here; `in_place` gives every one.
pub fn apply(
    lit: &Literal,
    name: &str,
    count: u32,
    other: Option<&str>,
    max: u32,
) -> Option<Literal> {
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
        Literal::Str(s) if is_span(name) => in_place(s, name, count, max).into_iter().next(),
        Literal::Str(s) if !s.is_empty() => {
            let (head, tail) = halves(s);
            let (shape, a, b) = match name {
                "repeat" => (TextShape::Repeat, s.clone(), String::new()),
                "repeat2" => (
                    TextShape::Repeat,
                    s.chars().take(2).collect(),
                    String::new(),
                ),
                "nest" => (TextShape::Nest, head, tail),
                "interleave" => (
                    TextShape::Interleave,
                    s.clone(),
                    other.filter(|o| *o != s).unwrap_or(" ").to_string(),
                ),
                "then" => (TextShape::Then, head, tail),
                // Another value once, then the fragment n times: a token repeated where the
                // parser reads it (inside a paragraph, a string, an element), not where a
                // line or a document begins.
                "after" => (
                    TextShape::Then,
                    other.filter(|o| *o != s).unwrap_or(" ").to_string(),
                    s.clone(),
                ),
                _ => return None,
            };
            Some(Literal::Text {
                shape,
                a,
                b,
                n: count.clamp(1, max),
            })
        }
        _ => None,
    }
}

/// The fragments the literal at top-level statement `at` can draw, each with its count: the
/// mined strings of its consumer's context, and their parts (`"<!--"` and `"-->"` of
/// `"<!-- a -->"`: the unit of a parser's syntax a text repeats is more often a token of a
/// test's input than all of it). Empty for anything but a literal the index answers.
pub fn fragment_pool(
    p: &Program,
    schema: &ApiSchema,
    cfg: &MutationConfig,
    at: usize,
) -> Vec<(String, u32)> {
    let Some(Stmt::Lit { out, .. }) = p.body.get(at) else {
        return Vec::new();
    };
    let mut mined: Vec<(String, u32)> = drawable(p, schema, &cfg.mined, *out)
        .iter()
        .filter_map(|(v, n)| Some((fragment_of(v)?, *n)))
        .collect();
    for (part, n) in drawable_parts(p, schema, &cfg.mined, *out) {
        if !mined.iter().any(|(m, _)| *m == part) {
            mined.push((part, n));
        }
    }
    mined
}

/// The fixed string a text mutation of the literal at `at` starts from: the literal's own
/// value when it is one of the mined fragments its context draws, else one of them drawn by
/// frequency; and a second, other fragment, drawn by frequency, for the interleaving and for
/// the text a repeated token follows (`shape`, the mutation's name, says whether one is
/// needed).
pub fn fragments(
    p: &Program,
    schema: &ApiSchema,
    cfg: &MutationConfig,
    at: usize,
    shape: &str,
    choice: &mut Choice<'_>,
) -> Option<(Literal, Option<String>)> {
    let Some(Stmt::Lit { value, .. }) = p.body.get(at) else {
        return None;
    };
    let mut mined = fragment_pool(p, schema, cfg, at);
    if is_span(shape) {
        // A span is repeated where it stands in a whole mined value (a valid input, where a
        // part of one is not) that has one.
        let Some(Stmt::Lit { out, .. }) = p.body.get(at) else {
            return None;
        };
        mined = drawable(p, schema, &cfg.mined, *out)
            .iter()
            .filter_map(|(v, n)| Some((fragment_of(v)?, *n)))
            .filter(|(m, _)| !in_place(m, shape, 1, 1).is_empty())
            .collect();
    }
    let key = |m: &String| Some(m.clone());
    let own = match value {
        Literal::Str(s) if mined.iter().any(|(m, _)| m == s) => s.clone(),
        Literal::Str(_) => credit::draw(&mined, &cfg.credit, key, |t| choice.pick(t))?.clone(),
        _ => return Some((value.clone(), None)),
    };
    // The second fragment is drawn too (by frequency, among the others): the text a token
    // follows decides how a parser reads it (a line that starts a paragraph, not a block), so
    // the most frequent value alone would pair every token with one context only.
    // Drawn for the text a token follows, and, when fragments earn credit, for the
    // interleaving too (a fragment that paid off is then interleaved with it); else the
    // interleaving pairs a fragment with the most frequent other value, and the other shapes
    // use none.
    let drawn = shape == "after" || (shape == "interleave" && cfg.credit.enabled);
    if !drawn {
        let other = mined.into_iter().map(|(m, _)| m).find(|m| *m != own);
        return Some((Literal::Str(own), other));
    }
    let others: Vec<(String, u32)> = mined.into_iter().filter(|(m, _)| *m != own).collect();
    let other = credit::draw(&others, &cfg.credit, key, |t| choice.pick(t)).cloned();
    Some((Literal::Str(own), other))
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
        let max = 1 << 14;
        assert_eq!(text(apply(&s, "repeat", 3, None, max)), "<!--><!--><!-->");
        assert_eq!(text(apply(&s, "repeat2", 3, None, max)), "<!<!<!");
        assert_eq!(text(apply(&s, "nest", 3, None, max)), "<!-<!-<!-->->->");
        assert_eq!(text(apply(&s, "then", 3, None, max)), "<!-->->->");
        assert_eq!(
            text(apply(&s, "after", 3, Some("a"), max)),
            "a<!--><!--><!-->"
        );
        assert_eq!(
            text(apply(&s, "interleave", 3, Some("a"), max)),
            "<!-->a<!-->a<!-->a"
        );
        let t = apply(&s, "repeat", 16, None, max).unwrap();
        let Some(Literal::Text { n, .. }) = apply(&t, "x8", 0, None, max) else {
            panic!()
        };
        assert_eq!(n, 128);
        assert_eq!(
            apply(&Literal::Str(String::new()), "repeat", 16, None, 9),
            None
        );
    }

    #[test]
    fn a_whole_value_grows_by_its_spans_in_place() {
        let v = Literal::Str("<svg><g/></svg>".into());
        let max = 1 << 14;
        assert_eq!(
            text(apply(&v, SPAN, 3, None, max)),
            "<svg><g/><g/><g/></svg>"
        );
        assert_eq!(
            text(apply(&v, SPAN_PAIR, 2, None, max)),
            "<svg><svg><g/></svg></svg>"
        );
        let Some(Literal::Text { shape, a, b, n }) = apply(&v, SPAN, 3, None, max) else {
            panic!()
        };
        assert_eq!(
            shape.rust(&a, &b, n),
            r#"format!("{}{}{}", "<svg>", "<g/>".repeat(3), "</svg>")"#
        );
        // Scaled as any text; a value with no span gives none.
        let t = apply(&v, SPAN, 16, None, max).unwrap();
        assert!(matches!(
            apply(&t, "x8", 0, None, max),
            Some(Literal::Text { n: 128, .. })
        ));
        assert_eq!(
            apply(&Literal::Str("hello".into()), SPAN, 3, None, max),
            None
        );
    }
}
