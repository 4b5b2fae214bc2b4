//! Small helpers on Rust text and syntax that both the reader ([`scan`](super::scan) and the
//! readers of impls beside it) and the model use: rewriting identifiers in code, printing a
//! type for a skip reason, the trait names of a bound, a projection `A::Item`, and unique
//! function names. They know nothing of the program model, so any layer may use them.

use std::collections::HashMap;

use quote::ToTokens;
use syn::{GenericParam, Type, TypeParamBound};

/// `text` with each identifier-like word (letters, digits, `_`) replaced by `f(word, at)`,
/// `at` being the length of the output before it; the rest is kept as it is.
pub fn map_words(text: &str, mut f: impl FnMut(&str, usize) -> String) -> String {
    let mut out = String::new();
    let mut word = String::new();
    for c in text.chars().chain(std::iter::once('\0')) {
        if c.is_alphanumeric() || c == '_' {
            word.push(c);
            continue;
        }
        if !word.is_empty() {
            let w = f(&word, out.len());
            out.push_str(&w);
        }
        word.clear();
        if c != '\0' {
            out.push(c);
        }
    }
    out
}

/// A type as a reader writes it, for skip reasons: spaces only between two words
/// (`<B as Backend>::Symbol`, `&mut T`; removing every space gave `<BasBackend>::Symbol`).
pub(super) fn readable(t: &Type) -> String {
    let printed = t.to_token_stream().to_string();
    let mut out = String::new();
    for tok in printed.split(' ').filter(|s| !s.is_empty()) {
        let word = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
        if word(out.chars().last()) && word(tok.chars().next()) {
            out.push(' ');
        }
        out.push_str(tok);
    }
    out
}

pub(super) fn trait_names<'a>(bs: impl IntoIterator<Item = &'a TypeParamBound>) -> Vec<String> {
    bs.into_iter()
        .filter_map(|b| match b {
            TypeParamBound::Trait(t) => t.path.segments.last().map(|s| {
                if s.arguments.is_empty() {
                    s.ident.to_string()
                } else {
                    s.to_token_stream().to_string().replace(' ', "")
                }
            }),
            _ => None,
        })
        .filter(|n| n != "?Sized" && n != "Sized")
        .collect()
}

/// `A::Item` for a bounded type naming a parameter's associated type (`A::Item`, or
/// `<A as Array>::Item`).
pub(super) fn projection(t: &Type) -> Option<String> {
    let Type::Path(p) = t else { return None };
    let segs: Vec<String> = p
        .path
        .segments
        .iter()
        .map(|s| s.ident.to_string())
        .collect();
    match (&p.qself, segs.as_slice()) {
        (None, [param, assoc]) => Some(format!("{param}::{assoc}")),
        (Some(q), [.., assoc]) => {
            let Type::Path(param) = &*q.ty else {
                return None;
            };
            Some(format!("{}::{assoc}", param.path.get_ident()?))
        }
        _ => None,
    }
}

pub(super) fn unique_fn_name(base: &str, seen: &mut HashMap<String, usize>) -> String {
    let n = seen.entry(base.to_string()).or_insert(0);
    *n += 1;
    let name = if *n == 1 {
        base.to_string()
    } else {
        format!("{base}_{n}")
    };
    // Keywords cannot be function names.
    if [
        "type", "match", "loop", "move", "ref", "self", "box", "mod", "use", "impl",
    ]
    .contains(&name.as_str())
    {
        format!("{name}_type")
    } else {
        name
    }
}

/// The names of the type and const parameters of `g`, in order (lifetimes left out).
pub(super) fn param_names(g: &syn::Generics) -> impl Iterator<Item = String> + '_ {
    g.params.iter().filter_map(|p| match p {
        GenericParam::Type(tp) => Some(tp.ident.to_string()),
        GenericParam::Const(c) => Some(c.ident.to_string()),
        GenericParam::Lifetime(_) => None,
    })
}

/// The generic arguments of a Rust type as written (`BTreeSet<Key,Slab<Node<Key,()>>>`:
/// `Key`, `Slab<Node<Key,()>>`); none for a type without them.
pub(super) fn top_level_args(rust: &str) -> Vec<String> {
    let Some(inner) = rust
        .split_once('<')
        .and_then(|(_, rest)| rest.strip_suffix('>'))
    else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut cur = String::new();
    for c in inner.chars() {
        match c {
            '<' | '(' | '[' => depth += 1,
            '>' | ')' | ']' => depth -= 1,
            ',' if depth == 0 => {
                out.push(std::mem::take(&mut cur).trim().to_string());
                continue;
            }
            _ => {}
        }
        cur.push(c);
    }
    out.push(cur.trim().to_string());
    out
}
