//! Reads a crate's public API from its sources with `syn`: the public types reachable from
//! the crate root (through `mod` files and `pub use`), their inherent `impl` blocks and
//! `Default`, and each function's doc comment. No compiler is involved, so this sees what
//! is written, not what macros generate; the generated harness's build is the check.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use syn::{Attribute, Expr, Item, Lit, Meta, UseTree, Visibility};

/// A public type of the crate with the items that may register it.
#[derive(Clone)]
pub struct FoundType {
    pub ident: String,
    /// Module path inside the crate (`["a", "b"]` for `crate::a::b::T`).
    pub module: Vec<String>,
    /// Whether it can be named from outside the crate (a public module chain or a `pub use`).
    pub reachable: bool,
    /// The path the harness names it by, relative to the crate root.
    pub public_path: Vec<String>,
    pub generics: syn::Generics,
    pub derives_default: bool,
    pub impls: Vec<syn::ItemImpl>,
    pub implements_default: bool,
    pub doc: String,
}

/// Every public type found, in source order.
pub struct Scan {
    pub types: Vec<FoundType>,
}

/// Scans the crate whose library root is `lib_rs`.
pub fn scan(lib_rs: &Path) -> Result<Scan> {
    let mut types: Vec<FoundType> = Vec::new();
    let mut impls: Vec<syn::ItemImpl> = Vec::new();
    let mut reexports: Vec<(Vec<String>, String)> = Vec::new();
    walk(
        lib_rs,
        &[],
        true,
        true,
        &mut types,
        &mut impls,
        &mut reexports,
    )?;
    // `pub use` in a reachable module makes a type reachable under that module's path.
    for (module, name) in &reexports {
        for t in types
            .iter_mut()
            .filter(|t| &t.ident == name && !t.reachable)
        {
            t.reachable = true;
            t.public_path = module.iter().cloned().chain([name.clone()]).collect();
        }
    }
    for i in impls {
        let syn::Type::Path(p) = &*i.self_ty else {
            continue;
        };
        let Some(last) = p.path.segments.last() else {
            continue;
        };
        let name = last.ident.to_string();
        let is_default = i
            .trait_
            .as_ref()
            .and_then(|(path, _)| path.segments.last())
            .is_some_and(|s| s.ident == "Default");
        for t in types.iter_mut().filter(|t| t.ident == name) {
            if is_default {
                t.implements_default = true;
            } else if i.trait_.is_none() {
                t.impls.push(i.clone());
            }
        }
    }
    Ok(Scan { types })
}

#[allow(clippy::too_many_arguments)]
fn walk(
    file: &Path,
    module: &[String],
    reachable: bool,
    dir_owner: bool,
    types: &mut Vec<FoundType>,
    impls: &mut Vec<syn::ItemImpl>,
    reexports: &mut Vec<(Vec<String>, String)>,
) -> Result<()> {
    let text =
        std::fs::read_to_string(file).with_context(|| format!("cannot read {}", file.display()))?;
    let ast = syn::parse_file(&text)
        .map_err(|e| anyhow::anyhow!("{}: cannot parse: {e}", file.display()))?;
    // Where `mod x;` of this file looks for x.rs: beside lib.rs/mod.rs, else in a directory
    // named after this file.
    let dir = if dir_owner {
        file.parent().map(Path::to_path_buf).unwrap_or_default()
    } else {
        file.with_extension("")
    };
    items(&ast.items, &dir, module, reachable, types, impls, reexports)
}

fn items(
    list: &[Item],
    dir: &Path,
    module: &[String],
    reachable: bool,
    types: &mut Vec<FoundType>,
    impls: &mut Vec<syn::ItemImpl>,
    reexports: &mut Vec<(Vec<String>, String)>,
) -> Result<()> {
    for item in list {
        if cfg_test(attrs_of(item)) {
            continue;
        }
        match item {
            Item::Struct(s) if is_pub(&s.vis) => {
                types.push(found(&s.ident, module, reachable, &s.generics, &s.attrs))
            }
            Item::Enum(e) if is_pub(&e.vis) => {
                types.push(found(&e.ident, module, reachable, &e.generics, &e.attrs))
            }
            Item::Impl(i) => impls.push(i.clone()),
            Item::Use(u) if is_pub(&u.vis) && reachable => {
                let mut names = Vec::new();
                use_names(&u.tree, &mut names);
                reexports.extend(names.into_iter().map(|n| (module.to_vec(), n)));
            }
            Item::Mod(m) => {
                let name = m.ident.to_string();
                let sub: Vec<String> = module.iter().cloned().chain([name.clone()]).collect();
                let sub_reachable = reachable && is_pub(&m.vis);
                match &m.content {
                    Some((_, inner)) => items(
                        inner,
                        &dir.join(&name),
                        &sub,
                        sub_reachable,
                        types,
                        impls,
                        reexports,
                    )?,
                    None => {
                        let explicit = m.attrs.iter().find_map(path_attr);
                        let (file, owner) = match explicit {
                            Some(p) => (dir.join(p), true),
                            None if dir.join(format!("{name}.rs")).is_file() => {
                                (dir.join(format!("{name}.rs")), false)
                            }
                            None => (dir.join(&name).join("mod.rs"), true),
                        };
                        if file.is_file() {
                            walk(&file, &sub, sub_reachable, owner, types, impls, reexports)?;
                        }
                    }
                }
            }
            _ => {}
        }
    }
    Ok(())
}

fn found(
    ident: &syn::Ident,
    module: &[String],
    reachable: bool,
    generics: &syn::Generics,
    attrs: &[Attribute],
) -> FoundType {
    let derives_default = attrs.iter().any(|a| {
        a.path().is_ident("derive")
            && a.parse_args_with(
                syn::punctuated::Punctuated::<syn::Path, syn::Token![,]>::parse_terminated,
            )
            .is_ok_and(|ps| ps.iter().any(|p| p.is_ident("Default")))
    });
    FoundType {
        ident: ident.to_string(),
        module: module.to_vec(),
        reachable,
        public_path: module.iter().cloned().chain([ident.to_string()]).collect(),
        generics: generics.clone(),
        derives_default,
        impls: Vec::new(),
        implements_default: false,
        doc: doc_text(attrs),
    }
}

fn use_names(tree: &UseTree, out: &mut Vec<String>) {
    match tree {
        UseTree::Path(p) => use_names(&p.tree, out),
        UseTree::Name(n) => out.push(n.ident.to_string()),
        UseTree::Rename(r) => out.push(r.ident.to_string()),
        UseTree::Group(g) => g.items.iter().for_each(|t| use_names(t, out)),
        _ => {}
    }
}

fn path_attr(a: &Attribute) -> Option<PathBuf> {
    if !a.path().is_ident("path") {
        return None;
    }
    match &a.meta {
        Meta::NameValue(nv) => match &nv.value {
            Expr::Lit(l) => match &l.lit {
                Lit::Str(s) => Some(PathBuf::from(s.value())),
                _ => None,
            },
            _ => None,
        },
        _ => None,
    }
}

fn attrs_of(item: &Item) -> &[Attribute] {
    match item {
        Item::Struct(s) => &s.attrs,
        Item::Enum(e) => &e.attrs,
        Item::Impl(i) => &i.attrs,
        Item::Mod(m) => &m.attrs,
        Item::Use(u) => &u.attrs,
        Item::Fn(f) => &f.attrs,
        _ => &[],
    }
}

/// `#[cfg(test)]` items are not part of the public API.
pub fn cfg_test(attrs: &[Attribute]) -> bool {
    attrs.iter().any(|a| {
        a.path().is_ident("cfg") && a.parse_args::<syn::Ident>().is_ok_and(|i| i == "test")
    })
}

pub fn is_pub(v: &Visibility) -> bool {
    matches!(v, Visibility::Public(_))
}

/// The doc comment of `attrs`, lines joined with spaces.
pub fn doc_text(attrs: &[Attribute]) -> String {
    let mut lines = Vec::new();
    for a in attrs {
        if !a.path().is_ident("doc") {
            continue;
        }
        if let Meta::NameValue(nv) = &a.meta {
            if let Expr::Lit(l) = &nv.value {
                if let Lit::Str(s) = &l.lit {
                    lines.push(s.value().trim().to_string());
                }
            }
        }
    }
    lines.join(" ")
}

/// The complexity class a doc comment states ("Runs in O(log n) time.", "O(1)", "amortized
/// O(1)"), as the oracle spells it; the first `O(...)` that names a known class wins. A
/// single variable other than `n` (`O(m)`, `O(len)`) is read as the input size.
pub fn documented_class(doc: &str) -> Option<String> {
    let mut rest = doc;
    while let Some(i) = rest.find("O(") {
        let after = &rest[i + 2..];
        let mut depth = 1;
        let end = after.char_indices().find_map(|(k, c)| {
            match c {
                '(' => depth += 1,
                ')' => depth -= 1,
                _ => {}
            }
            (depth == 0).then_some(k)
        });
        let Some(end) = end else { break };
        let inner = after[..end].trim();
        let before_ok = i == 0
            || !rest[..i]
                .chars()
                .next_back()
                .is_some_and(|c| c.is_alphanumeric() || c == '_');
        if before_ok {
            for candidate in [inner.to_string(), single_variable_as_n(inner)] {
                let text = format!("O({candidate})");
                if let Some(c) = crate::oracle::fit::Class::parse(&text) {
                    return Some(c.label().to_string());
                }
            }
        }
        rest = &after[end..];
    }
    None
}

fn single_variable_as_n(inner: &str) -> String {
    let words: HashSet<&str> = inner
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty() && !w.chars().all(|c| c.is_ascii_digit()) && *w != "log")
        .collect();
    if words.len() == 1 {
        let w = words.into_iter().next().unwrap_or("n");
        let mut out = String::new();
        let mut token = String::new();
        for c in inner.chars().chain(std::iter::once(' ')) {
            if c.is_alphanumeric() || c == '_' {
                token.push(c);
            } else {
                out.push_str(if token == w { "n" } else { &token });
                token.clear();
                if c != ' ' || !out.is_empty() {
                    out.push(c);
                }
            }
        }
        out.trim().to_string()
    } else {
        inner.to_string()
    }
}

/// Counts how often each identifier names a found type (duplicates need module paths).
pub fn ident_counts(types: &[FoundType]) -> HashMap<String, usize> {
    let mut m = HashMap::new();
    for t in types.iter().filter(|t| t.reachable) {
        *m.entry(t.ident.clone()).or_insert(0) += 1;
    }
    m
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn documented_classes_are_read_from_doc_sentences() {
        let c = |s: &str| documented_class(s);
        assert_eq!(c("Runs in O(log n) time."), Some("O(log n)".into()));
        assert_eq!(c("This is O(1) amortized."), Some("O(1)".into()));
        assert_eq!(c("Takes O(len) time"), Some("O(n)".into()));
        assert_eq!(c("worst case O(n²)"), Some("O(n^2)".into()));
        assert_eq!(c("O(n log n) comparisons"), Some("O(n log n)".into()));
        assert_eq!(c("Returns the length."), None);
        assert_eq!(c("Costs O(m + n)."), None);
        assert_eq!(c("FOO(1) is not a class"), None);
    }
}
