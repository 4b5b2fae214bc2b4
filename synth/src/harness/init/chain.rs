//! Methods of borrowing types, reached through the method that returns them. A type with a
//! lifetime parameter (`slab::VacantEntry<'a, T>`, `indexmap::map::Entry<'a, K, V>`) cannot
//! be a program variable (values the model builds are owned), but a caller only ever uses
//! it right away: `slab.vacant_entry().insert(v)`. Each such method is registered on the
//! owning type as one call, `vacant_entry_insert`, with the parameters of both calls. A
//! public type without a constructor returned by reference (`map.as_slice()`, an unsized
//! `Slice`) is reached the same way, with the methods the reference allows.

use std::collections::{BTreeSet, HashMap};

use syn::{ImplItem, Type};

use super::model::{instantiate, Ctx, Func};
use super::scan::{is_pub, FoundType};

/// The two calls of a chained method.
#[derive(Clone, Debug)]
pub struct Chain {
    /// The owning type's method that returns the borrowing value.
    pub first: String,
    /// The borrowing type's method called on it.
    pub second: String,
    /// How many of the registered parameters belong to `first`.
    pub split: usize,
}

/// What [`chains`] found for one method.
#[derive(Default)]
pub struct Chains {
    pub methods: Vec<Func>,
    pub skipped: Vec<(String, String)>,
    /// (`public path of the borrowing type`, `method`) pairs reached, of exported types
    /// only: the share's denominator holds only those (a type the crate does not export is
    /// reached, uncounted).
    pub reached: Vec<(String, String)>,
}

/// The chained methods through `first`, a registered method whose Rust return type is `ret`.
pub(super) fn chains(
    cx: &Ctx<'_>,
    owner_module: &[String],
    first: &Func,
    ret: &Type,
    borrowers: &HashMap<String, Vec<&FoundType>>,
    vecs: &mut BTreeSet<String>,
) -> Chains {
    let mut out = Chains::default();
    // What receivers the returned value allows: `&B` only `&self`, `&mut B` also `&mut self`.
    // `Box<B>` (`into_boxed_slice()`) also allows `self: Box<Self>`.
    let (ret, allowed): (&Type, &[&str]) = match ret {
        Type::Reference(r) if r.mutability.is_some() => (&r.elem, &["ref", "mut"]),
        Type::Reference(r) => (&r.elem, &["ref"]),
        t => match boxed(t) {
            Some(inner) => (inner, &["ref", "mut", "box"]),
            None => (t, &["ref", "mut", "val"]),
        },
    };
    let Type::Path(p) = ret else { return out };
    let Some(seg) = p.path.segments.last() else {
        return out;
    };
    // Of two types of one name, the one nearest the owner's module (`map::Slice` for
    // `IndexMap`, defined in `map`).
    let near = |t: &&&FoundType| {
        t.module
            .iter()
            .zip(owner_module)
            .take_while(|(a, b)| a == b)
            .count()
    };
    let Some(b) = borrowers
        .get(&seg.ident.to_string())
        .and_then(|c| c.iter().max_by_key(near))
    else {
        return out;
    };
    // The borrowing type's parameters instantiated as its impls bound them; in practice it
    // shares the owner's (`VacantEntry<'a, T>` of `Slab<T>`).
    let Ok(subst) = instantiate(&b.generics, b.impls.iter().map(|i| &i.generics), true) else {
        return out;
    };
    let no_self = String::new();
    let bcx = Ctx {
        ty_ident: &b.ident,
        // Results of the borrowing type itself are never kept (empty registry name).
        self_name: &no_self,
        self_rust: &b.ident,
        subst: &subst,
        ..*cx
    };
    for imp in &b.impls {
        for item in &imp.items {
            let ImplItem::Fn(f) = item else { continue };
            if !is_pub(&f.vis) || f.sig.receiver().is_none() {
                continue;
            }
            let name = format!("{}_{}", first.name, f.sig.ident);
            let spec = format!("{}::{}", b.ident, f.sig.ident);
            match bcx.func(&f.sig, &f.attrs, vecs) {
                Ok(second) if !allowed.contains(&second.receiver.unwrap_or("ref")) => {
                    out.skipped.push((
                        spec,
                        format!(
                            "reached through `{}`, whose result does not allow a `{}` receiver",
                            first.name,
                            second.receiver.unwrap_or("ref")
                        ),
                    ))
                }
                Ok(second) => {
                    let taken: Vec<&String> = first.params.iter().map(|p| &p.name).collect();
                    let mut params = first.params.clone();
                    for p in second.params {
                        let clash = std::iter::once(&p)
                            .chain(&p.more)
                            .any(|q| taken.contains(&&q.name));
                        params.push(if clash { p.renamed("then_") } else { p });
                    }
                    if b.reachable {
                        out.reached
                            .push((b.public_path.join("::"), f.sig.ident.to_string()));
                    }
                    out.methods.push(Func {
                        name,
                        receiver: first.receiver,
                        params,
                        ret: second.ret,
                        expected: second.expected,
                        suffix: second.suffix,
                        chain: Some(Chain {
                            first: first.name.clone(),
                            second: f.sig.ident.to_string(),
                            split: first.params.len(),
                        }),
                    });
                }
                Err(why) => out
                    .skipped
                    .push((spec, format!("reached through `{}`, but {why}", first.name))),
            }
        }
    }
    out
}

/// `T` of `Box<T>`.
fn boxed(t: &Type) -> Option<&Type> {
    let Type::Path(p) = t else { return None };
    let seg = p.path.segments.last()?;
    if seg.ident != "Box" {
        return None;
    }
    match &seg.arguments {
        syn::PathArguments::AngleBracketed(a) if a.args.len() == 1 => match a.args.first()? {
            syn::GenericArgument::Type(t) => Some(t),
            _ => None,
        },
        _ => None,
    }
}
