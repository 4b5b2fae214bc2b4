//! The crate's own traits as the reader finds them: each reachable trait's public path and
//! the associated types it declares, including traits a macro writes that the expander
//! cannot expand (`trait_template! { pub trait Visitable : GraphBase { .. } }`), read from
//! the invocation's tokens. A projection names an associated type through the trait that
//! declares it (`<Graph<..> as ::petgraph::visit::Visitable>::Map`, see
//! [`assoc_ties`](super::assoc_ties)), and only the crate's own traits tie a type's
//! parameters or lose their bindings when matched against its impls. Part of the reader.

use std::collections::{BTreeSet, HashMap};

/// A trait as the walk found it: identifier, defining module, whether it is reachable, and
/// its public path.
pub struct TraitFound<'a> {
    pub ident: &'a str,
    pub module: &'a [String],
    pub reachable: bool,
    pub public_path: &'a [String],
}

/// The crate's reachable public traits, by identifier (one of a name only): the path the
/// harness names each by, and the associated types each declares itself (a projection
/// `<T as Tr>::A` names `A` through the trait that declares it).
#[derive(Clone, Debug, Default)]
pub struct TraitDecls {
    by_ident: HashMap<String, (Vec<String>, BTreeSet<String>)>,
    /// Every trait the crate declares, reachable or not, by identifier.
    all: BTreeSet<String>,
}

impl TraitDecls {
    /// The traits of `types` (their public paths) and `items` (their declarations), in
    /// order; one trait read twice in one module (declared, and read from a macro's tokens)
    /// is one.
    pub fn of<'a>(
        types: impl Iterator<Item = TraitFound<'a>>,
        items: impl Iterator<Item = &'a syn::ItemTrait>,
    ) -> Self {
        let mut by_ident: HashMap<String, (Vec<String>, BTreeSet<String>)> = HashMap::new();
        let mut seen: HashMap<String, BTreeSet<Vec<String>>> = HashMap::new();
        let mut all = BTreeSet::new();
        for (t, item) in types.zip(items) {
            all.insert(t.ident.to_string());
            seen.entry(t.ident.to_string())
                .or_default()
                .insert(t.module.to_vec());
            if !t.reachable {
                continue;
            }
            let assoc = item.items.iter().filter_map(|it| match it {
                syn::TraitItem::Type(ty) => Some(ty.ident.to_string()),
                _ => None,
            });
            let entry = by_ident
                .entry(t.ident.to_string())
                .or_insert_with(|| (t.public_path.to_vec(), BTreeSet::new()));
            entry.1.extend(assoc);
        }
        by_ident.retain(|id, _| seen.get(id).is_some_and(|m| m.len() == 1));
        TraitDecls { by_ident, all }
    }

    /// Whether the crate declares a trait named `tr` (std's `IntoIterator`, which the crate
    /// may implement for its types, is not one).
    pub fn declares(&self, tr: &str) -> bool {
        self.all.contains(tr)
    }

    /// `<ty as ::lib::path::Trait>::assoc`, when `tr` is one reachable trait declaring `assoc`.
    pub fn projection(&self, lib: &str, ty: &str, tr: &str, assoc: &str) -> Option<String> {
        let (path, assocs) = self.by_ident.get(tr)?;
        assocs
            .contains(assoc)
            .then(|| format!("<{ty} as ::{lib}::{}>::{assoc}", path.join("::")))
    }

    /// The reachable traits declaring associated type `assoc`, by identifier, sorted.
    pub fn declaring(&self, assoc: &str) -> Vec<&str> {
        let mut out: Vec<&str> = self
            .by_ident
            .iter()
            .filter(|(_, (_, a))| a.contains(assoc))
            .map(|(t, _)| t.as_str())
            .collect();
        out.sort();
        out
    }
}

/// A bound's name without associated-type bindings (`IntoNeighbors<NodeId=N>` is
/// `IntoNeighbors`); one with other arguments (`VisitMap<N>`) is kept as written.
pub fn without_bindings(bound: &str) -> String {
    match bound.split_once('<') {
        Some((tr, args)) if top_level(args).iter().all(|a| a.contains('=')) => tr.to_string(),
        _ => bound.to_string(),
    }
}

/// The comma-separated arguments of `a, b<c, d>, e>` at the top level (the closing `>`
/// of the bound included in the input is dropped).
fn top_level(args: &str) -> Vec<String> {
    let args = args.strip_suffix('>').unwrap_or(args);
    let mut out = Vec::new();
    let (mut depth, mut cur) = (0i32, String::new());
    for c in args.chars() {
        match c {
            '<' | '(' => depth += 1,
            '>' | ')' => depth -= 1,
            ',' if depth == 0 => {
                out.push(std::mem::take(&mut cur));
                continue;
            }
            _ => {}
        }
        cur.push(c);
    }
    out.push(cur);
    out
}

/// The public traits a macro invocation writes where the expander cannot expand it
/// (`trait_template! { pub trait Visitable : GraphBase { @section type type Map: ..; } }`),
/// read from its tokens: each `pub trait Name` with the associated types declared after it
/// (`type Name`), as a declaration without methods. A projection names the trait by its
/// path (`<Graph<..> as ::petgraph::visit::Visitable>::Map`).
pub fn macro_traits(tokens: &str) -> Vec<syn::ItemTrait> {
    let toks = spaced_tokens(tokens);
    let mut found: Vec<(String, Vec<String>)> = Vec::new();
    for k in 0..toks.len() {
        let next = toks.get(k + 1).map(String::as_str).unwrap_or("");
        let ident = is_ident(next) && next != "type";
        if toks[k] == "trait" && k > 0 && toks[k - 1] == "pub" && ident {
            found.push((next.to_string(), Vec::new()));
        } else if toks[k] == "type" && ident {
            if let Some((_, assoc)) = found.last_mut() {
                if !assoc.iter().any(|a| a == next) {
                    assoc.push(next.to_string());
                }
            }
        }
    }
    found
        .into_iter()
        .filter_map(|(name, assoc)| {
            let body: String = assoc.iter().map(|a| format!("type {a}; ")).collect();
            syn::parse_str(&format!("pub trait {name} {{ {body} }}")).ok()
        })
        .collect()
}

/// The tokens of a macro's printed token stream, delimiters apart.
fn spaced_tokens(body: &str) -> Vec<String> {
    let spaced: String = body
        .chars()
        .flat_map(|c| {
            let delim = "()[]{}<>,;#:".contains(c);
            [delim.then_some(' '), Some(c), delim.then_some(' ')]
        })
        .flatten()
        .collect();
    spaced.split_whitespace().map(str::to_string).collect()
}

/// Whether a token is an identifier.
fn is_ident(t: &str) -> bool {
    t.chars()
        .next()
        .is_some_and(|c| c.is_alphabetic() || c == '_')
        && t.chars().all(|c| c.is_alphanumeric() || c == '_')
}
