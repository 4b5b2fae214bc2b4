//! A borrowing type over any `G` whose methods are written for one of the crate's types
//! (`Frozen<'a, G>`, built by `Frozen::new(&mut g)`, with `impl Frozen<'_, Graph<N, E>>
//! { pub fn index_twice_mut(..) }`): the unbounded parameter is that type, registered,
//! not the probe key, on which those methods do not exist (the compiler rejected every
//! one of them). A parameter some bound constrains is left to
//! [`instantiate`](super::instantiate).

use std::collections::HashMap;

use quote::ToTokens;
use syn::{GenericArgument, GenericParam, PathArguments, Type};

use super::scan::FoundType;

/// Sets in `subst` each type parameter of `t` that no bound constrains and that one of
/// `t`'s impl blocks writes as a registered type of the crate (`regs`: identifier ->
/// (registry name, Rust type)) to that type's registered Rust type.
pub(super) fn fix_unbounded(
    t: &FoundType,
    regs: &HashMap<String, (String, String)>,
    subst: &mut HashMap<String, String>,
) {
    let params: Vec<&syn::TypeParam> = t
        .generics
        .params
        .iter()
        .filter_map(|p| match p {
            GenericParam::Type(tp) => Some(tp),
            _ => None,
        })
        .collect();
    for (k, p) in params.iter().enumerate() {
        let name = p.ident.to_string();
        if has_trait(&p.bounds) || bounded_in_impls(t, &name) {
            continue;
        }
        let written = t.impls.iter().find_map(|i| {
            let ident = type_arg(&i.self_ty, k)?;
            regs.get(&ident).map(|(_, rust)| rust.clone())
        });
        if let Some(rust) = written {
            subst.insert(name, rust);
        }
    }
}

/// Whether an impl of `t` (or a where clause) bounds parameter `name`.
fn bounded_in_impls(t: &FoundType, name: &str) -> bool {
    let where_bounds = |g: &syn::Generics| {
        g.where_clause.as_ref().is_some_and(|w| {
            w.predicates.iter().any(|p| match p {
                syn::WherePredicate::Type(pt) => {
                    pt.bounded_ty.to_token_stream().to_string() == name && has_trait(&pt.bounds)
                }
                _ => false,
            })
        })
    };
    where_bounds(&t.generics)
        || t.impls.iter().any(|i| {
            where_bounds(&i.generics)
                || i.generics.params.iter().any(|p| {
                    matches!(p, GenericParam::Type(tp) if tp.ident == name && has_trait(&tp.bounds))
                })
        })
}

/// Whether `bounds` hold a trait (`G: 'a` alone constrains nothing a value must do).
fn has_trait(bounds: &syn::punctuated::Punctuated<syn::TypeParamBound, syn::Token![+]>) -> bool {
    bounds
        .iter()
        .any(|b| matches!(b, syn::TypeParamBound::Trait(_)))
}

/// The identifier of the `k`-th type argument of `self_ty` (lifetimes not counted), when it
/// is a path (`Graph` of `Frozen<'_, Graph<N, E, Ty, Ix>>`).
fn type_arg(self_ty: &Type, k: usize) -> Option<String> {
    let Type::Path(p) = self_ty else { return None };
    let PathArguments::AngleBracketed(a) = &p.path.segments.last()?.arguments else {
        return None;
    };
    let arg = a
        .args
        .iter()
        .filter_map(|a| match a {
            GenericArgument::Type(t) => Some(t),
            _ => None,
        })
        .nth(k)?;
    let Type::Path(ap) = arg else { return None };
    Some(ap.path.segments.last()?.ident.to_string())
}
