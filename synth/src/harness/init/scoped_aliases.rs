//! Type aliases as the module a signature is written in sees them. A name can be an alias
//! of a primitive in one module (`pub type EdgeIndex = usize;`), an alias of its own
//! parameter in another (`pub type NodeIndex<Ix = DefaultIx> = Ix;`) and a struct in a
//! third, and a private alias (`type DefaultIx = u16;`) shadows a public one in its module.
//! Applying every alias to every signature by name made the harness pass a `usize` where a
//! struct was meant, which the compiler rejected ("mismatched types").

use std::collections::{HashMap, HashSet};

use proc_macro2::{Delimiter, Group, TokenStream, TokenTree};
use quote::ToTokens;
use syn::{GenericParam, Type};

use super::scan::{LocalAlias, Scan};

/// Targets an alias may name to be expanded: what the program model has (a signature naming
/// `Block` names `usize`: `with_capacity_and_blocks<I: IntoIterator<Item = Block>>` was
/// skipped, `Block` "not in the program model").
const PRIMITIVES: &[&str] = &[
    "u8", "u16", "u32", "u64", "u128", "usize", "i8", "i16", "i32", "i64", "i128", "isize", "bool",
    "char", "f32", "f64", "String",
];

/// How many times aliases are expanded in one signature: an alias's default or target may
/// name another alias (`NodeIndex` is `Ix` whose default is `DefaultIx`, which is `u32`).
const MAX_DEPTH: usize = 4;

/// One alias to expand: its type parameters (with their defaults) and the aliased type.
#[derive(Clone, Debug)]
struct Expansion {
    params: Vec<(String, Option<TokenStream>)>,
    target: TokenStream,
}

/// The aliases each module's signatures are read through.
#[derive(Clone, Debug, Default)]
pub struct ScopedAliases {
    /// Applied in every module: public aliases of a primitive without parameters whose name
    /// no public type of the crate takes and every public alias of that name agrees on.
    global: HashMap<String, TokenStream>,
    /// Each module's own aliases, public or not, of a primitive, of one of their own
    /// parameters or of another such alias.
    local: HashMap<Vec<String>, HashMap<String, Expansion>>,
}

impl ScopedAliases {
    /// The aliases of `scan`.
    pub fn of(scan: &Scan) -> ScopedAliases {
        let type_names: HashSet<&str> = scan.types.iter().map(|t| t.ident.as_str()).collect();
        let mut out = ScopedAliases::default();
        let mut disagree: HashSet<String> = HashSet::new();
        for a in scan.local_aliases.iter().filter(|a| a.public) {
            let Some(prim) = primitive(&a.target) else {
                continue;
            };
            if !a.generics.params.is_empty() || type_names.contains(a.ident.as_str()) {
                continue;
            }
            match out.global.get(&a.ident) {
                Some(t) if t.to_string() != prim.to_string() => {
                    disagree.insert(a.ident.clone());
                }
                _ => {
                    out.global.insert(a.ident.clone(), prim);
                }
            }
        }
        out.global.retain(|k, _| !disagree.contains(k));
        // Local aliases: expandable when their target is a primitive, one of their own
        // parameters, or an alias already known to expand (found in rounds).
        for _ in 0..MAX_DEPTH {
            for a in &scan.local_aliases {
                if out
                    .local
                    .get(&a.module)
                    .is_some_and(|m| m.contains_key(&a.ident))
                {
                    continue;
                }
                if let Some(e) = out.local_expansion(a) {
                    out.local
                        .entry(a.module.clone())
                        .or_default()
                        .insert(a.ident.clone(), e);
                }
            }
        }
        out
    }

    /// `a` as an expansion, if its target is one the model reads.
    fn local_expansion(&self, a: &LocalAlias) -> Option<Expansion> {
        let params: Vec<(String, Option<TokenStream>)> = a
            .generics
            .params
            .iter()
            .filter_map(|p| match p {
                GenericParam::Type(t) => Some((
                    t.ident.to_string(),
                    t.default.as_ref().map(|(_, d)| d.to_token_stream()),
                )),
                _ => None,
            })
            .collect();
        let ident = single_ident(&a.target)?;
        let known = PRIMITIVES.contains(&ident.as_str())
            || params.iter().any(|(p, _)| *p == ident)
            || self.global.contains_key(&ident)
            || self
                .local
                .get(&a.module)
                .is_some_and(|m| m.contains_key(&ident));
        known.then(|| Expansion {
            params,
            target: a.target.to_token_stream(),
        })
    }

    /// Whether no alias is expanded anywhere.
    pub fn is_empty(&self) -> bool {
        self.global.is_empty() && self.local.is_empty()
    }

    /// Type `t`, written in `module`, as text with its aliases expanded: a declared default
    /// as the type's module sees it (`Ix = DefaultIx` is `u32`).
    pub fn expanded_text(&self, module: &[String], t: &Type) -> String {
        let tokens = t.to_token_stream();
        self.expand(module, tokens.clone())
            .unwrap_or(tokens)
            .to_string()
    }

    /// `tokens` (a signature written in `module`) with its aliases expanded, or `None` when
    /// it names none.
    pub fn expand(&self, module: &[String], tokens: TokenStream) -> Option<TokenStream> {
        let local = self.local.get(module);
        let mut tokens = tokens;
        let mut changed = false;
        for _ in 0..MAX_DEPTH {
            let (next, did) = self.expand_once(local, tokens);
            tokens = next;
            if !did {
                break;
            }
            changed = true;
        }
        changed.then_some(tokens)
    }

    fn expand_once(
        &self,
        local: Option<&HashMap<String, Expansion>>,
        tokens: TokenStream,
    ) -> (TokenStream, bool) {
        let tts: Vec<TokenTree> = tokens.into_iter().collect();
        let mut out: Vec<TokenTree> = Vec::new();
        let mut did = false;
        let mut i = 0;
        while i < tts.len() {
            let tt = &tts[i];
            // `other::Name` names another module's item: left as written.
            let colon = |k: usize| matches!(&tts[k], TokenTree::Punct(p) if p.as_char() == ':');
            let qualified = i > 1 && colon(i - 1) && colon(i - 2);
            match tt {
                TokenTree::Ident(id) if !qualified => {
                    let name = id.to_string();
                    if let Some(e) = local.and_then(|m| m.get(&name)) {
                        let (args, used) = angle_args(&tts[i + 1..]);
                        out.extend(e.apply(&args));
                        i += 1 + used;
                        did = true;
                        continue;
                    }
                    if let Some(t) = self.global.get(&name) {
                        out.extend(t.clone());
                        i += 1;
                        did = true;
                        continue;
                    }
                    out.push(tt.clone());
                }
                TokenTree::Group(g) => {
                    let (inner, d) = self.expand_once(local, g.stream());
                    did |= d;
                    let mut n = Group::new(g.delimiter(), inner);
                    n.set_span(g.span());
                    out.push(TokenTree::Group(n));
                }
                other => out.push(other.clone()),
            }
            i += 1;
        }
        (out.into_iter().collect(), did)
    }
}

impl Expansion {
    /// The aliased type with the parameters set to `args` (or to their defaults).
    fn apply(&self, args: &[TokenStream]) -> TokenStream {
        let subst: HashMap<String, TokenStream> = self
            .params
            .iter()
            .enumerate()
            .filter_map(|(k, (p, default))| {
                let v = args.get(k).cloned().or_else(|| default.clone())?;
                Some((p.clone(), parenthesized_if_needed(v)))
            })
            .collect();
        super::scan::replace_idents(self.target.clone(), &subst)
    }
}

/// An argument as one token tree where it is more than one (kept as a `None`-delimited
/// group, which prints as written).
fn parenthesized_if_needed(v: TokenStream) -> TokenStream {
    if v.clone().into_iter().count() <= 1 {
        return v;
    }
    TokenTree::Group(Group::new(Delimiter::None, v)).into()
}

/// The arguments of `<A, B>` at the start of `tts`, and how many token trees they took (0
/// and none when `tts` does not start with `<`).
fn angle_args(tts: &[TokenTree]) -> (Vec<TokenStream>, usize) {
    let is = |t: &TokenTree, c: char| matches!(t, TokenTree::Punct(p) if p.as_char() == c);
    if !tts.first().is_some_and(|t| is(t, '<')) {
        return (Vec::new(), 0);
    }
    let mut depth = 0usize;
    let mut args = Vec::new();
    let mut cur: Vec<TokenTree> = Vec::new();
    for (k, t) in tts.iter().enumerate() {
        if is(t, '<') {
            depth += 1;
            if depth == 1 {
                continue;
            }
        } else if is(t, '>') {
            // `->` inside an argument (`Fn() -> u8`) closes nothing.
            let arrow = k > 0 && is(&tts[k - 1], '-');
            if !arrow {
                depth -= 1;
                if depth == 0 {
                    if !cur.is_empty() {
                        args.push(cur.drain(..).collect());
                    }
                    return (args, k + 1);
                }
            }
        } else if is(t, ',') && depth == 1 {
            args.push(cur.drain(..).collect());
            continue;
        }
        cur.push(t.clone());
    }
    (Vec::new(), 0)
}

/// The identifier `t` is when it is a plain one (`usize`, `Ix`).
fn single_ident(t: &Type) -> Option<String> {
    let Type::Path(p) = t else { return None };
    if p.qself.is_some() {
        return None;
    }
    p.path.get_ident().map(ToString::to_string)
}

/// `t` when it is a primitive the model reads.
fn primitive(t: &Type) -> Option<TokenStream> {
    single_ident(t)
        .filter(|id| PRIMITIVES.contains(&id.as_str()))
        .map(|_| t.to_token_stream())
}

/// The primitive `t` names, when it is one the model reads (`u32`).
pub fn primitive_name(t: &Type) -> Option<String> {
    single_ident(t).filter(|id| PRIMITIVES.contains(&id.as_str()))
}
