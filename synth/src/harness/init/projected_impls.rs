//! Impl blocks whose self type is written with projections of the block's own generic:
//! `impl<G> Walker<G> for Dfs<G::NodeId, G::Map> where G: IntoNeighbors + Visitable` (petgraph's
//! traversals' `walk_next` and `iter`). The type registers at `Dfs<NodeIndex<u32>, <Graph<..>
//! as Visitable>::Map>`, itself decided from a graph type (see
//! [`assoc_ties`](super::assoc_ties)); read as text, `G::NodeId` is not `NodeIndex<u32>`, and
//! the block's items were skipped as defined for another instantiation.
//!
//! The block's generic is solved from the registration: a registered type of the crate that
//! meets `G`'s bounds (by value or borrowed, `&Graph<..>` implementing `IntoNeighbors`) and
//! whose associated types are what the registration has at each projected position. The
//! block's items are then read with `G` written as that type (`context: G` takes a reference
//! to a held graph), its projections as the registration's arguments, and the block's own
//! associated types (`Self::Item = G::NodeId`) as what they name. No registered type solving
//! every projection: the block stays another instantiation. A wrong solution is the
//! compiler's to reject, and skipped with its message.

use std::collections::HashMap;

use quote::ToTokens;
use syn::{GenericArgument, GenericParam, ImplItem, PathArguments, Type, WherePredicate};

use super::assoc_ties::{tie_values, Registered, Tie};
use super::scan::{replace_assoc, replace_idents, Scan};
use super::trait_impls::Meets;

/// `imp` read at the registration `subst` of a type with parameters `params` (in the order
/// arguments are written), its projected generic solved (see the module doc); `None` when the
/// block writes no projection of its own generic, or no registered type solves it.
pub fn solved(
    imp: &syn::ItemImpl,
    params: &[String],
    subst: &HashMap<String, String>,
    scan: &Scan,
    r: &Registered<'_>,
    self_ident: &str,
) -> Option<syn::ItemImpl> {
    let own: Vec<String> = super::syntax::param_names(&imp.generics).collect();
    let Type::Path(tp) = &*imp.self_ty else {
        return None;
    };
    let seg = tp.path.segments.last()?;
    let PathArguments::AngleBracketed(a) = &seg.arguments else {
        return None;
    };
    // Per generic of the block: (associated type, the registration's argument there).
    let mut projected: Vec<(String, Vec<(String, String)>)> = Vec::new();
    let args = a
        .args
        .iter()
        .filter(|a| !matches!(a, GenericArgument::Lifetime(_)));
    for (param, arg) in params.iter().zip(args) {
        let GenericArgument::Type(Type::Path(p)) = arg else {
            return None;
        };
        if p.qself.is_some() {
            return None;
        }
        let segs: Vec<String> = p
            .path
            .segments
            .iter()
            .map(|s| s.ident.to_string())
            .collect();
        match segs.as_slice() {
            // The block's own parameter: generic at that position.
            [x] if own.contains(x) => continue,
            [g, assoc]
                if own.contains(g) && p.path.segments.iter().all(|s| s.arguments.is_none()) =>
            {
                let value = subst.get(param)?.clone();
                match projected.iter_mut().find(|(n, _)| n == g) {
                    Some((_, v)) => v.push((assoc.clone(), value)),
                    None => projected.push((g.clone(), vec![(assoc.clone(), value)])),
                }
            }
            _ => return None,
        }
    }
    if projected.is_empty() {
        return None;
    }
    let mut candidates: Vec<&str> = r
        .regs
        .keys()
        .map(String::as_str)
        .filter(|k| *k != self_ident)
        .collect();
    candidates.sort();
    // Each projected generic as the tokens of the type solving it.
    let mut idents: HashMap<String, proc_macro2::TokenStream> = HashMap::new();
    let mut assoc_of: HashMap<String, HashMap<String, proc_macro2::TokenStream>> = HashMap::new();
    for (g, wanted) in &projected {
        let bounds = bounds_of(&imp.generics, g);
        let tie = Tie {
            bounds: bounds.clone(),
            ties: wanted
                .iter()
                .map(|(assoc, _)| {
                    (
                        bounds.first().cloned().unwrap_or_default(),
                        assoc.clone(),
                        assoc.clone(),
                    )
                })
                .collect(),
        };
        let solving = candidates.iter().find_map(|ty| {
            let values = tie_values(&tie, scan, r, &[ty])?;
            let agrees = wanted
                .iter()
                .all(|(assoc, want)| values.iter().any(|(a, v)| a == assoc && same(v, want)));
            let meets = scan.int_traits.impls.implementor(&bounds, [*ty], false)?;
            agrees.then_some(meets)
        })?;
        let (borrowed, ty) = match solving {
            Meets::Borrowed(t) => (true, t),
            Meets::Owned(t) => (false, t),
        };
        let written = if borrowed { format!("&{ty}") } else { ty };
        idents.insert(g.clone(), written.parse().ok()?);
        let values: HashMap<String, proc_macro2::TokenStream> = wanted
            .iter()
            .filter_map(|(assoc, v)| Some((assoc.clone(), v.parse().ok()?)))
            .collect();
        assoc_of.insert(g.clone(), values);
    }
    Some(rewrite(imp, &idents, &assoc_of))
}

/// Whether two types written as text are the same (spaces aside).
fn same(a: &str, b: &str) -> bool {
    a.replace(' ', "") == b.replace(' ', "")
}

/// The identifiers of the trait bounds `g` has on the block (inline and in its where
/// clause), arguments dropped.
fn bounds_of(generics: &syn::Generics, g: &str) -> Vec<String> {
    let trait_ident = |b: &syn::TypeParamBound| match b {
        syn::TypeParamBound::Trait(tb) => tb.path.segments.last().map(|s| s.ident.to_string()),
        _ => None,
    };
    let mut out: Vec<String> = generics
        .type_params()
        .filter(|tp| tp.ident == g)
        .flat_map(|tp| tp.bounds.iter().filter_map(trait_ident))
        .collect();
    for pred in generics.where_clause.iter().flat_map(|w| &w.predicates) {
        if let WherePredicate::Type(pt) = pred {
            if pt.bounded_ty.to_token_stream().to_string() == g {
                out.extend(pt.bounds.iter().filter_map(trait_ident));
            }
        }
    }
    out
}

/// `imp` with each solved generic written out (`idents`), its projections first
/// (`assoc_of`), then the block's own associated types (`Self::Item`) as they now read; the
/// solved generics leave the block's parameters and where clause.
fn rewrite(
    imp: &syn::ItemImpl,
    idents: &HashMap<String, proc_macro2::TokenStream>,
    assoc_of: &HashMap<String, HashMap<String, proc_macro2::TokenStream>>,
) -> syn::ItemImpl {
    let written = |tokens: proc_macro2::TokenStream| {
        let mut tokens = tokens;
        for (g, assoc) in assoc_of {
            tokens = replace_assoc(tokens, g, assoc);
        }
        replace_idents(tokens, idents)
    };
    let own_assoc: HashMap<String, proc_macro2::TokenStream> = imp
        .items
        .iter()
        .filter_map(|it| match it {
            ImplItem::Type(t) => Some((t.ident.to_string(), written(t.ty.to_token_stream()))),
            _ => None,
        })
        .collect();
    let mut out = imp.clone();
    out.generics.params = imp
        .generics
        .params
        .iter()
        .filter(
            |p| !matches!(p, GenericParam::Type(t) if idents.contains_key(&t.ident.to_string())),
        )
        .cloned()
        .collect();
    if let Some(w) = &mut out.generics.where_clause {
        w.predicates = w
            .predicates
            .iter()
            .filter(|p| {
                !matches!(p, WherePredicate::Type(pt)
                    if idents.contains_key(&pt.bounded_ty.to_token_stream().to_string()))
            })
            .cloned()
            .collect();
    }
    for item in &mut out.items {
        let ImplItem::Fn(f) = item else { continue };
        let tokens = replace_assoc(written(f.sig.to_token_stream()), "Self", &own_assoc);
        if let Ok(sig) = syn::parse2(tokens) {
            f.sig = sig;
        }
    }
    out
}
