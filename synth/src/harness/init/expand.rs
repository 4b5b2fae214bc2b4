//! Items a crate writes with its own `macro_rules!`, expanded so that `init` sees them.
//!
//! syn sees a macro invocation, not its expansion, and many crates define their main types or
//! impls through a local macro: `pub struct LiteMap<K, V, S = Vec<(K, V)>>` written inside
//! a `macro_rules!` of the crate (to put a `#[cfg]` on a default type parameter) left init
//! answering "no public type of ... can be registered". Crates also write one impl per integer type,
//! or a family of methods, through a macro. This module is a small `macro_rules!` expander:
//! the matcher's literal tokens, fragments (`ident`, `tt`, `lifetime`, `literal`, `block`, and
//! `ty`, `path`, `expr`, `pat`, `meta`, `item`, `vis`, `stmt` parsed by syn) and repetitions
//! (`$( .. ) sep? *|+|?`, nested); the transcriber's metavariables, repetitions and `$crate`.
//! Rules are tried in order and matched greedily without backtracking into a repetition,
//! which is how the macros that write items are written; an invocation that no rule matches,
//! or whose expansion is not a list of items, is left unexpanded (as before). Hygiene does
//! not matter for signatures. Procedural macros and other crates' macros stay invisible.

use std::collections::HashMap;

use proc_macro2::{Delimiter, Group, Ident, Punct, Spacing, Span, TokenStream, TokenTree};
use syn::parse::{ParseStream, Parser};

/// The deepest expansion (a macro whose expansion invokes another, or itself).
pub const MAX_DEPTH: usize = 8;

/// The crate's `macro_rules!` definitions seen so far, by name.
#[derive(Clone, Debug, Default)]
pub struct Macros {
    defs: HashMap<String, Vec<Rule>>,
}

#[derive(Clone, Debug)]
struct Rule {
    matcher: Vec<Pat>,
    body: Vec<TokenTree>,
}

/// One element of a rule's matcher.
#[derive(Clone, Debug)]
enum Pat {
    /// A token to match exactly (a punctuation character, an identifier, a literal).
    Token(String),
    Group(Delimiter, Vec<Pat>),
    Var(String, String),
    Rep(Vec<Pat>, Option<String>, char),
}

/// What a metavariable matched: its tokens, or one binding per repetition.
#[derive(Clone, Debug)]
enum Binding {
    Leaf(Vec<TokenTree>),
    Seq(Vec<Binding>),
}

type Bindings = HashMap<String, Binding>;

impl Macros {
    /// Records `m` if it is a `macro_rules!` definition (a later one of a name replaces it).
    pub fn record(&mut self, m: &syn::ItemMacro) {
        if !m.mac.path.is_ident("macro_rules") {
            return;
        }
        let Some(name) = &m.ident else {
            return;
        };
        if let Some(rules) = rules(m.mac.tokens.clone()) {
            self.defs.insert(name.to_string(), rules);
        }
    }

    /// The items an invocation of one of the crate's macros expands to, or `None` (not one of
    /// them, no rule matches, or the expansion is not items).
    pub fn expand_items(&self, mac: &syn::Macro) -> Option<Vec<syn::Item>> {
        parse_all(self.expand(mac)?)
    }

    /// The impl items an invocation inside an `impl` block expands to, or `None`.
    pub fn expand_impl_items(&self, mac: &syn::Macro) -> Option<Vec<syn::ImplItem>> {
        parse_all(self.expand(mac)?)
    }

    fn expand(&self, mac: &syn::Macro) -> Option<TokenStream> {
        let name = mac.path.get_ident()?.to_string();
        let input: Vec<TokenTree> = mac.tokens.clone().into_iter().collect();
        self.defs.get(&name)?.iter().find_map(|r| {
            let mut b = Bindings::new();
            let n = match_seq(&r.matcher, &input, &mut b)?;
            (n == input.len()).then(|| transcribe(&r.body, &b, &[]))
        })
    }
}

/// Every `T` in `tokens`, or `None` if they are not a sequence of `T`s.
fn parse_all<T: syn::parse::Parse>(tokens: TokenStream) -> Option<Vec<T>> {
    let parser = |input: ParseStream<'_>| {
        let mut items = Vec::new();
        while !input.is_empty() {
            items.push(input.parse::<T>()?);
        }
        Ok(items)
    };
    parser.parse2(tokens).ok()
}

/// A `macro_rules!` body's rules: `(matcher) => {transcriber}` separated by `;`.
fn rules(body: TokenStream) -> Option<Vec<Rule>> {
    let tts: Vec<TokenTree> = body.into_iter().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < tts.len() {
        let TokenTree::Group(m) = &tts[i] else {
            return None;
        };
        if !(is_punct(tts.get(i + 1)?, '=') && is_punct(tts.get(i + 2)?, '>')) {
            return None;
        }
        let TokenTree::Group(t) = tts.get(i + 3)? else {
            return None;
        };
        let matcher: Vec<TokenTree> = m.stream().into_iter().collect();
        out.push(Rule {
            matcher: pattern(&matcher)?,
            body: t.stream().into_iter().collect(),
        });
        i += 4;
        if tts.get(i).is_some_and(|t| is_punct(t, ';')) {
            i += 1;
        }
    }
    Some(out)
}

fn is_punct(t: &TokenTree, c: char) -> bool {
    matches!(t, TokenTree::Punct(p) if p.as_char() == c)
}

/// The text a token is matched by.
fn text(t: &TokenTree) -> String {
    match t {
        TokenTree::Punct(p) => p.as_char().to_string(),
        other => other.to_string(),
    }
}

fn pattern(tts: &[TokenTree]) -> Option<Vec<Pat>> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < tts.len() {
        match &tts[i] {
            TokenTree::Punct(p) if p.as_char() == '$' => match tts.get(i + 1)? {
                TokenTree::Ident(name) => {
                    if is_punct(tts.get(i + 2)?, ':') {
                        let TokenTree::Ident(frag) = tts.get(i + 3)? else {
                            return None;
                        };
                        out.push(Pat::Var(name.to_string(), frag.to_string()));
                        i += 4;
                    } else {
                        // `$crate` in a matcher: matched as written.
                        out.push(Pat::Token(format!("${name}")));
                        i += 2;
                    }
                }
                TokenTree::Group(g) if g.delimiter() == Delimiter::Parenthesis => {
                    let inner: Vec<TokenTree> = g.stream().into_iter().collect();
                    let (sep, op, used) = repetition_tail(&tts[i + 2..])?;
                    out.push(Pat::Rep(pattern(&inner)?, sep, op));
                    i += 2 + used;
                }
                _ => return None,
            },
            TokenTree::Group(g) => {
                let inner: Vec<TokenTree> = g.stream().into_iter().collect();
                out.push(Pat::Group(g.delimiter(), pattern(&inner)?));
                i += 1;
            }
            t => {
                out.push(Pat::Token(text(t)));
                i += 1;
            }
        }
    }
    Some(out)
}

/// A repetition's separator and operator after its group: (separator, operator, tokens used).
/// A separator is one token, or punctuation joined into one (`::`, `=>`), as a string.
fn repetition_tail(tts: &[TokenTree]) -> Option<(Option<String>, char, usize)> {
    let op = |t: &TokenTree| match t {
        TokenTree::Punct(p) if matches!(p.as_char(), '*' | '+' | '?') => Some(p.as_char()),
        _ => None,
    };
    let first = tts.first()?;
    if let Some(o) = op(first) {
        return Some((None, o, 1));
    }
    // Punctuation written joined (`::`, `=>`) is one separator; the operator may be joined
    // to it (`::+`), and what follows the operator may be too (`::+<`).
    let mut k = 1;
    while matches!(&tts[k - 1], TokenTree::Punct(p) if p.spacing() == Spacing::Joint)
        && matches!(tts.get(k), Some(TokenTree::Punct(_)))
        && op(&tts[k]).is_none()
    {
        k += 1;
    }
    let sep: String = tts[..k].iter().map(text).collect();
    Some((Some(sep), op(tts.get(k)?)?, k + 1))
}

/// How many tokens at the start of `input` spell the separator `sep` (see [`repetition_tail`]).
fn separator_len(sep: &str, input: &[TokenTree]) -> Option<usize> {
    let first = input.first()?;
    if text(first) == sep {
        return Some(1);
    }
    let mut spelled = String::new();
    for (k, t) in input.iter().enumerate() {
        let TokenTree::Punct(p) = t else {
            return None;
        };
        spelled.push(p.as_char());
        if spelled == sep {
            return Some(k + 1);
        }
        if !sep.starts_with(&spelled) {
            return None;
        }
    }
    None
}

/// Matches `pats` against a prefix of `input`; the number of tokens matched.
fn match_seq(pats: &[Pat], input: &[TokenTree], b: &mut Bindings) -> Option<usize> {
    let mut at = 0;
    for p in pats {
        at += match_one(p, &input[at..], b)?;
    }
    Some(at)
}

fn match_one(p: &Pat, input: &[TokenTree], b: &mut Bindings) -> Option<usize> {
    match p {
        Pat::Token(t) => (text(input.first()?) == *t).then_some(1),
        Pat::Group(d, inner) => {
            let TokenTree::Group(g) = input.first()? else {
                return None;
            };
            if g.delimiter() != *d {
                return None;
            }
            let content: Vec<TokenTree> = g.stream().into_iter().collect();
            (match_seq(inner, &content, b)? == content.len()).then_some(1)
        }
        Pat::Var(name, frag) => {
            let n = fragment(frag, input)?;
            b.insert(name.clone(), Binding::Leaf(input[..n].to_vec()));
            Some(n)
        }
        Pat::Rep(inner, sep, op) => {
            let mut runs: Vec<Bindings> = Vec::new();
            let mut at = 0;
            loop {
                let mut start = at;
                if !runs.is_empty() {
                    if let Some(s) = sep {
                        match separator_len(s, &input[at..]) {
                            Some(n) => start += n,
                            None => break,
                        }
                    }
                }
                let mut rb = Bindings::new();
                match match_seq(inner, &input[start..], &mut rb) {
                    // A run that matches nothing would repeat forever.
                    Some(n) if n > 0 || start > at => {
                        runs.push(rb);
                        at = start + n;
                    }
                    _ => break,
                }
                if *op == '?' {
                    break;
                }
            }
            if *op == '+' && runs.is_empty() {
                return None;
            }
            for name in names(inner) {
                let seq = runs
                    .iter_mut()
                    .map(|r| r.remove(&name).unwrap_or(Binding::Seq(Vec::new())))
                    .collect();
                b.insert(name, Binding::Seq(seq));
            }
            Some(at)
        }
    }
}

/// The metavariables a matcher binds.
fn names(pats: &[Pat]) -> Vec<String> {
    let mut out = Vec::new();
    for p in pats {
        match p {
            Pat::Var(n, _) => out.push(n.clone()),
            Pat::Group(_, inner) | Pat::Rep(inner, _, _) => out.extend(names(inner)),
            Pat::Token(_) => {}
        }
    }
    out
}

/// How many tokens at the start of `input` a fragment of kind `frag` takes.
fn fragment(frag: &str, input: &[TokenTree]) -> Option<usize> {
    let first = input.first();
    match frag {
        "tt" => first.map(|_| 1),
        "ident" => matches!(first?, TokenTree::Ident(_)).then_some(1),
        "lifetime" => {
            (is_punct(first?, '\'') && matches!(input.get(1)?, TokenTree::Ident(_))).then_some(2)
        }
        "literal" => match first? {
            TokenTree::Literal(_) => Some(1),
            TokenTree::Ident(i) if i == "true" || i == "false" => Some(1),
            t if is_punct(t, '-') && matches!(input.get(1)?, TokenTree::Literal(_)) => Some(2),
            _ => None,
        },
        "block" => {
            matches!(first?, TokenTree::Group(g) if g.delimiter() == Delimiter::Brace).then_some(1)
        }
        "ty" => syn_prefix::<syn::Type>(input),
        "path" => syn_prefix::<syn::Path>(input),
        "expr" | "expr_2021" => syn_prefix::<syn::Expr>(input),
        "meta" => syn_prefix::<syn::Meta>(input),
        "item" => syn_prefix::<syn::Item>(input),
        "stmt" => syn_prefix::<syn::Stmt>(input),
        "vis" => syn_prefix::<syn::Visibility>(input),
        "pat" | "pat_param" => {
            let parser = |s: ParseStream<'_>| {
                syn::Pat::parse_single(s)?;
                s.parse::<TokenStream>()
            };
            rest_len(parser.parse2(input.iter().cloned().collect()), input.len())
        }
        _ => None,
    }
}

/// The tokens a `T` parsed from the start of `input` takes.
fn syn_prefix<T: syn::parse::Parse>(input: &[TokenTree]) -> Option<usize> {
    let parser = |s: ParseStream<'_>| {
        s.parse::<T>()?;
        s.parse::<TokenStream>()
    };
    rest_len(parser.parse2(input.iter().cloned().collect()), input.len())
}

fn rest_len(rest: syn::Result<TokenStream>, total: usize) -> Option<usize> {
    Some(total - rest.ok()?.into_iter().count())
}

/// The transcriber's tokens with the bindings put in (`at`: the repetition indices entered).
fn transcribe(body: &[TokenTree], b: &Bindings, at: &[usize]) -> TokenStream {
    let mut out = TokenStream::new();
    let mut i = 0;
    while i < body.len() {
        match &body[i] {
            TokenTree::Punct(p) if p.as_char() == '$' => match body.get(i + 1) {
                Some(TokenTree::Ident(name)) if name == "crate" => {
                    out.extend([TokenTree::Ident(Ident::new("crate", Span::call_site()))]);
                    i += 2;
                }
                Some(TokenTree::Ident(name)) => {
                    match lookup(b, &name.to_string(), at) {
                        Some(Binding::Leaf(t)) => out.extend(t.iter().cloned()),
                        _ => out.extend([body[i].clone(), body[i + 1].clone()]),
                    }
                    i += 2;
                }
                Some(TokenTree::Group(g)) if g.delimiter() == Delimiter::Parenthesis => {
                    let inner: Vec<TokenTree> = g.stream().into_iter().collect();
                    let Some((sep, _, used)) = repetition_tail(&body[i + 2..]) else {
                        out.extend([body[i].clone()]);
                        i += 1;
                        continue;
                    };
                    let count = repeat_count(&inner, b, at);
                    for k in 0..count {
                        if k > 0 {
                            if let Some(s) = &sep {
                                out.extend(separator(s));
                            }
                        }
                        let deeper: Vec<usize> = at.iter().copied().chain([k]).collect();
                        out.extend(transcribe(&inner, b, &deeper));
                    }
                    i += 2 + used;
                }
                _ => {
                    out.extend([body[i].clone()]);
                    i += 1;
                }
            },
            TokenTree::Group(g) => {
                let inner: Vec<TokenTree> = g.stream().into_iter().collect();
                let mut ng = Group::new(g.delimiter(), transcribe(&inner, b, at));
                ng.set_span(g.span());
                out.extend([TokenTree::Group(ng)]);
                i += 1;
            }
            t => {
                out.extend([t.clone()]);
                i += 1;
            }
        }
    }
    out
}

/// A separator's tokens (punctuation, joined as written, or an identifier).
fn separator(s: &str) -> Vec<TokenTree> {
    if s.chars().all(|ch| !ch.is_alphanumeric() && ch != '_') {
        let n = s.chars().count();
        return s
            .chars()
            .enumerate()
            .map(|(k, ch)| {
                let spacing = if k + 1 < n {
                    Spacing::Joint
                } else {
                    Spacing::Alone
                };
                TokenTree::Punct(Punct::new(ch, spacing))
            })
            .collect();
    }
    s.parse::<TokenStream>()
        .map(|t| t.into_iter().collect())
        .unwrap_or_default()
}

/// A metavariable's binding inside the repetitions `at` (a binding from outside them stays).
fn lookup<'b>(b: &'b Bindings, name: &str, at: &[usize]) -> Option<&'b Binding> {
    let mut cur = b.get(name)?;
    for &k in at {
        match cur {
            Binding::Seq(s) => cur = s.get(k)?,
            Binding::Leaf(_) => return Some(cur),
        }
    }
    Some(cur)
}

/// How many times a transcriber repetition runs: the length of the sequences its
/// metavariables are bound to at this depth.
fn repeat_count(inner: &[TokenTree], b: &Bindings, at: &[usize]) -> usize {
    let mut count: Option<usize> = None;
    for name in body_vars(inner) {
        if let Some(Binding::Seq(s)) = lookup(b, &name, at) {
            count = Some(count.map_or(s.len(), |c: usize| c.min(s.len())));
        }
    }
    count.unwrap_or(0)
}

/// The metavariables a transcriber fragment names, at any depth.
fn body_vars(tts: &[TokenTree]) -> Vec<String> {
    let mut out = Vec::new();
    for (k, t) in tts.iter().enumerate() {
        match t {
            TokenTree::Ident(name) if k > 0 && is_punct(&tts[k - 1], '$') => {
                out.push(name.to_string())
            }
            TokenTree::Group(g) => {
                out.extend(body_vars(&g.stream().into_iter().collect::<Vec<_>>()))
            }
            _ => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn expand(defs: &str, call: &str) -> String {
        let file: syn::File = syn::parse_str(&format!("{defs}\n{call}")).unwrap();
        let mut m = Macros::default();
        let mut out = String::new();
        for item in &file.items {
            if let syn::Item::Macro(im) = item {
                m.record(im);
                if im.ident.is_none() {
                    let items = m.expand_items(&im.mac).expect("expands");
                    for i in items {
                        out.push_str(&quote::quote!(#i).to_string());
                        out.push('\n');
                    }
                }
            }
        }
        out
    }

    #[test]
    fn litemap_struct_with_an_optional_default_parameter() {
        let out = expand(
            r#"macro_rules! litemap_impl(
                ($cfg:meta, $store:ident $(=$defaultty:ty)?) => {
                    #[cfg($cfg)]
                    pub struct LiteMap<K: ?Sized, V: ?Sized, $store $(= $defaultty)?> {
                        pub(crate) values: $store,
                    }
                };
            );"#,
            "litemap_impl!(feature = \"alloc\", S = Vec<(K, V)>);",
        );
        assert!(
            out.contains("# [cfg (feature = \"alloc\")] pub struct LiteMap < K : ? Sized , V : ? Sized , S = Vec < (K , V) > >"),
            "{out}"
        );
    }

    #[test]
    fn repetitions_with_separators_write_one_item_each() {
        let out = expand(
            r#"macro_rules! impl_len {
                ($($t:ty),* $(,)?) => { $( impl $crate::Len for $t { fn len(&self) -> usize { 0 } } )* };
            }"#,
            "impl_len!(u8, u16, Vec<u32>,);",
        );
        assert_eq!(out.lines().count(), 3, "{out}");
        assert!(out.contains("impl crate :: Len for Vec < u32 >"), "{out}");
    }

    #[test]
    fn the_first_matching_rule_wins_and_nested_repetitions_expand() {
        let out = expand(
            r#"macro_rules! methods {
                (struct $name:ident;) => { pub struct $name; };
                ($name:ident { $($m:ident($($a:ident: $t:ty),*)),* }) => {
                    impl $name { $( pub fn $m(&self, $($a: $t),*) {} )* }
                };
            }"#,
            "methods!(Bag { insert(k: u64, n: usize), clear() });",
        );
        assert!(
            out.contains("pub fn insert (& self , k : u64 , n : usize) { }"),
            "{out}"
        );
        assert!(out.contains("pub fn clear (& self ,) { }"), "{out}");
    }
}
