//! Slots a caller lends a function to fill: `&mut [T]` of a crate type `T` that the program
//! model does not hold (a parser's header table: `parse_headers(src, &mut [EMPTY_HEADER;
//! 16])`), and a type built from such slots alone (`Request::new(&mut headers)`, passed as
//! `&mut Request`). The harness builds them in the call, with no program value: an array of
//! [`SLOTS`] copies of a public constant of type `T` (`pub const EMPTY_HEADER: Header<'static>`)
//! or of `T::default()`, lent for the one statement. The slots' count bounds what a parser
//! can fill, so it is large: a program's text then meets the parser's own limit first.
//! Uninitialised slots (`&mut [MaybeUninit<T>]`) need neither: an array of [`SLOTS`]
//! `MaybeUninit::uninit()`, for any `T`.

use std::collections::HashMap;

use syn::{GenericParam, ImplItem, Type};

use super::registrations::{Param, ParamKind};
use super::scan::{is_pub, Scan};

/// How many slots the harness lends.
pub const SLOTS: usize = 1024;

/// The crate's slot types and the types built from slots, by identifier.
#[derive(Clone, Debug, Default)]
pub struct Slots {
    /// `T` -> the code of one filled slot array (`[::lib::EMPTY_HEADER; 1024]`).
    arrays: HashMap<String, String>,
    /// `R` -> the code building one from slots (`::lib::Request::new(&mut [..; 1024])`).
    built: HashMap<String, String>,
}

/// The identifier of a path type (`Header` of `Header<'static>`).
fn ident_of(t: &Type) -> Option<String> {
    match t {
        Type::Path(p) if p.qself.is_none() => p.path.segments.last().map(|s| s.ident.to_string()),
        _ => None,
    }
}

/// Whether `t` is `MaybeUninit<T>` (by any path), for any `T`.
fn uninit(t: &Type) -> bool {
    matches!(t, Type::Path(p) if p.qself.is_none()
        && p.path.segments.last().is_some_and(|s| s.ident == "MaybeUninit"
            && matches!(&s.arguments, syn::PathArguments::AngleBracketed(a) if a.args.len() == 1)))
}

/// `T` of `&mut [T]`.
fn slot_elem(t: &Type) -> Option<&Type> {
    let Type::Reference(r) = t else { return None };
    let Type::Slice(s) = &*r.elem else {
        return None;
    };
    r.mutability.map(|_| &*s.elem)
}

impl Slots {
    /// The slot arrays and slot-built types of crate `lib` (its name as written in code).
    pub fn new(lib: &str, scan: &Scan) -> Slots {
        let mut out = Slots::default();
        let path = |p: &[String]| format!("::{lib}::{}", p.join("::"));
        // Only lifetimes as parameters: a slot's type is then written by path alone.
        let plain = |g: &syn::Generics| {
            g.params
                .iter()
                .all(|p| matches!(p, GenericParam::Lifetime(_)))
        };
        let mut names: HashMap<&str, usize> = HashMap::new();
        for t in &scan.types {
            *names.entry(t.ident.as_str()).or_default() += 1;
        }
        let unique = |t: &str| names.get(t) == Some(&1);
        let types: HashMap<&str, _> = scan
            .types
            .iter()
            .filter(|t| t.reachable && unique(&t.ident) && plain(&t.generics))
            .map(|t| (t.ident.as_str(), t))
            .collect();
        for c in &scan.consts {
            if let Some(t) = ident_of(&c.ty).filter(|t| types.contains_key(t.as_str())) {
                out.arrays
                    .entry(t)
                    .or_insert_with(|| format!("[{}; {SLOTS}]", path(&c.path)));
            }
        }
        for (id, t) in &types {
            if t.derives_default || t.implements_default {
                out.arrays.entry(id.to_string()).or_insert_with(|| {
                    format!(
                        "std::array::from_fn::<_, {SLOTS}, _>(|_| {}::default())",
                        path(&t.public_path)
                    )
                });
            }
        }
        // Types with a lifetime (they borrow their slots) whose public `new` takes slots
        // alone.
        for (id, t) in &types {
            let borrows = t
                .generics
                .params
                .iter()
                .any(|p| matches!(p, GenericParam::Lifetime(_)));
            if !borrows {
                continue;
            }
            let new = t.impls.iter().filter(|i| i.trait_.is_none()).find_map(|i| {
                i.items.iter().find_map(|it| match it {
                    ImplItem::Fn(f) if is_pub(&f.vis) && f.sig.ident == "new" => Some(&f.sig),
                    _ => None,
                })
            });
            let Some(sig) = new else { continue };
            let args: Option<Vec<String>> = sig
                .inputs
                .iter()
                .map(|a| match a {
                    syn::FnArg::Typed(pt) => slot_elem(&pt.ty)
                        .and_then(ident_of)
                        .and_then(|e| out.arrays.get(&e))
                        .map(|arr| format!("&mut {arr}")),
                    syn::FnArg::Receiver(_) => None,
                })
                .collect();
            if let Some(args) = args.filter(|a| !a.is_empty()) {
                out.built.insert(
                    id.to_string(),
                    format!("{}::new({})", path(&t.public_path), args.join(", ")),
                );
            }
        }
        out
    }

    /// The parameter `name` of type `t` when it is slots (`&mut [T]`) or a type built from
    /// them (`&mut R`, `&R`, `R`) of a crate type the program model does not hold (not
    /// `registered`), or uninitialised slots (`&mut [MaybeUninit<T>]`) of any `T`.
    pub(super) fn param(
        &self,
        name: &str,
        t: &Type,
        registered: &dyn Fn(&str) -> bool,
    ) -> Option<Param> {
        let outside = |id: &String| !registered(id);
        if slot_elem(t).is_some_and(uninit) {
            // Nothing to copy, so no constant or `Default` is needed: the callee writes a
            // slot before it reads it (the contract of `&mut [MaybeUninit<T>]`).
            let uninit = "const { ::std::mem::MaybeUninit::uninit() }";
            return Some(built(name, format!("&mut [{uninit}; {SLOTS}]")));
        }
        if let Some(arr) = slot_elem(t)
            .and_then(ident_of)
            .filter(outside)
            .and_then(|e| self.arrays.get(&e))
        {
            return Some(built(name, format!("&mut {arr}")));
        }
        let (inner, borrow) = match t {
            Type::Reference(r) if r.mutability.is_some() => (&*r.elem, "&mut "),
            Type::Reference(r) => (&*r.elem, "&"),
            t => (t, ""),
        };
        let code = ident_of(inner)
            .filter(outside)
            .and_then(|id| self.built.get(&id))?;
        Some(built(name, format!("{borrow}{code}")))
    }
}

fn built(name: &str, code: String) -> Param {
    Param::new(name, ParamKind::Built { code })
}

/// Why slots lent as parameter type `t` cannot be: the function's result `output` names the
/// loan's lifetime (`dst: &'h mut [Header<'b>]` of a function returning `&'h [Header<'b>]`),
/// so the result would outlive the slots, which live for the statement (the compiler
/// rejected it, E0716). A constructor consumed in its statement (see
/// [`borrowed_input`](super::borrowed_input)) is read without its result.
pub(super) fn kept_loan(t: &Type, output: &syn::ReturnType) -> Option<String> {
    let Type::Reference(r) = t else { return None };
    let l = r
        .lifetime
        .as_ref()
        .filter(|l| l.ident != "_" && l.ident != "static")?;
    let syn::ReturnType::Type(_, out) = output else {
        return None;
    };
    let out = quote::ToTokens::to_token_stream(&**out).to_string();
    let named = l.to_string();
    let mentions = out.match_indices(&named).any(|(at, _)| {
        !out[at + named.len()..]
            .chars()
            .next()
            .is_some_and(|c| c.is_alphanumeric() || c == '_')
    });
    mentions.then(|| kept(l))
}

fn kept(l: &syn::Lifetime) -> String {
    format!("slots lent for the call, but the result keeps their loan (lifetime `{l}`), and they live only for the call")
}
