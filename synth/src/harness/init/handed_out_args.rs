//! A handed-out type's parameters are what its producer's result writes. A chain (see
//! [`chain`](super::chain)) reaches a type through a call whose return type names its
//! arguments: `simple_fast<G>(graph: G, ..) -> Dominators<G::NodeId>` hands out a
//! `Dominators` over the graph's node index, `neighbors_detach(&self, ..) ->
//! WalkNeighbors<Ix>` one over the graph's own `Ix`. The value the program gets is of that
//! instantiation, whatever the harness would choose for the type on its own (`Key`, or
//! nothing when the type's bounds name the crate's traits, `Matching<G: GraphBase>`), so its
//! methods are read with it: `immediate_dominator(node: N)` takes a `NodeIndex<u32>`,
//! `WalkNeighbors::next(g: &Graph<N, E, Ty, Ix>)` a graph of the registration's `Ix`, which
//! then fixes `N`, `E` and `Ty` (see [`registered_args`](super::registered_args)).
//!
//! An argument is taken when the caller's instantiation decides it: a parameter it has a
//! type for, a projection of one (`G::NodeId`), a parameter borrowed from a registered value
//! (`G` of `maximum_matching(graph: G)`, a `&Graph<..>`), or an integer. The associated types
//! the caller knows of such a parameter (`G::NodeId`) go along under the type's own name
//! for it (`Matching<G>`'s `G::NodeId`).

use std::collections::HashMap;

use quote::ToTokens;
use syn::{GenericArgument, GenericParam, PathArguments, Type};

use super::instantiate::OMITTED;
use super::resolve::Built;
use super::value_traits::MODEL_INTS;

/// The instantiation of `generics`, the parameters of the type `written` names, that the
/// caller's `subst` and `closures` decide; empty when `written` names no arguments.
pub(super) fn written_args(
    generics: &syn::Generics,
    written: &Type,
    subst: &HashMap<String, String>,
    closures: &HashMap<String, Built>,
) -> HashMap<String, String> {
    let mut out = HashMap::new();
    let Type::Path(p) = written else {
        return out;
    };
    let Some(seg) = p.path.segments.last() else {
        return out;
    };
    let PathArguments::AngleBracketed(a) = &seg.arguments else {
        return out;
    };
    let args = a.args.iter().filter_map(|x| match x {
        GenericArgument::Type(t) => Some(t.to_token_stream().to_string().replace(' ', "")),
        GenericArgument::Const(c) => Some(c.to_token_stream().to_string().replace(' ', "")),
        _ => None,
    });
    let params = generics.params.iter().filter_map(|p| match p {
        GenericParam::Type(t) => Some(t.ident.to_string()),
        GenericParam::Const(c) => Some(c.ident.to_string()),
        GenericParam::Lifetime(_) => None,
    });
    for (param, arg) in params.zip(args) {
        let value = match subst.get(&arg) {
            Some(v) if v != OMITTED => Some(v.clone()),
            _ => match closures.get(&arg) {
                Some(Built::Borrowed(reg)) => Some(format!("&{reg}")),
                _ => MODEL_INTS.contains(&arg.as_str()).then(|| arg.clone()),
            },
        };
        // What the caller knows of the argument's associated types (`G::NodeId`).
        let prefix = format!("{arg}::");
        for (k, v) in subst {
            if let Some(assoc) = k.strip_prefix(&prefix) {
                out.insert(format!("{param}::{assoc}"), v.clone());
            }
        }
        if let Some(v) = value {
            out.insert(param, v);
        }
    }
    out
}
