//! A function's generic parameter that only its result names (`graph::node_index<Ix:
//! IndexType>(usize) -> NodeIndex<Ix>`, `Graph::into_edge_type<NewTy: EdgeType>(self) ->
//! Graph<N, E, NewTy, Ix>`): no argument tells the compiler what it is, so the caller
//! chooses, with a turbofish (`node_index::<u32>(i)`). The choice is the registered type's
//! own argument at that position (the result is then a registered value, kept), else an
//! integer the crate implements the bounds for, else the crate's type implementing them (a
//! marker such as `Directed`), else a `Vec` of what it collects (`FromIterator<T>`).

use std::collections::HashMap;

use quote::ToTokens;
use syn::{ReturnType, Type};

use super::primitive_bounds::primitive_for;
use super::resolve::Ctx;
use super::sequence::ELEMENTS;
use super::value_traits::MODEL_INTS;

impl Ctx<'_> {
    /// The type a result-only parameter `name` with trait bounds `names` takes, if the
    /// result names it (see the module doc).
    pub(super) fn result_choice(
        &self,
        name: &str,
        inputs: &syn::punctuated::Punctuated<syn::FnArg, syn::Token![,]>,
        output: &ReturnType,
        names: &[String],
    ) -> Option<String> {
        let ReturnType::Type(_, out) = output else {
            return None;
        };
        // An argument naming it anywhere (`g: &List<E, Ix>`) decides it.
        let in_inputs = inputs
            .iter()
            .any(|a| matches!(a, syn::FnArg::Typed(pt) if mentions(&pt.ty, name)));
        if in_inputs || !mentions(out, name) {
            return None;
        }
        registered_arg(out, name, self.regs)
            .or_else(|| primitive_for(self.int_traits, names).map(str::to_string))
            .or_else(|| self.collection(names))
            .or_else(|| {
                let own: Vec<&String> = names.iter().collect();
                let ty = self.int_traits.type_for(&own)?;
                self.regs.get(ty).map(|(_, rust)| rust.clone())
            })
    }
}

impl Ctx<'_> {
    /// A collection of what the function collects (`TargetColl: FromIterator<G::NodeId>`,
    /// `G::NodeId` instantiated `NodeIndex<u32>`): a `Vec` of it, when the program holds
    /// vectors of that item type (a primitive, the probe key, or a registered type).
    fn collection(&self, names: &[String]) -> Option<String> {
        let [only] = names else { return None };
        let item = only.strip_prefix("FromIterator<")?.strip_suffix('>')?;
        let item = self
            .subst
            .get(item)
            .cloned()
            .or_else(|| MODEL_INTS.contains(&item).then(|| item.to_string()))?;
        let element = ELEMENTS.contains(&item.as_str())
            || (self.regs.values().any(|(n, _)| *n == item)
                && item
                    .chars()
                    .all(|c| c.is_alphanumeric() || "_<>,".contains(c)));
        element.then(|| format!("Vec<{item}>"))
    }
}

/// Whether type `t` names `name` (as a whole word).
pub(super) fn mentions(t: &Type, name: &str) -> bool {
    t.to_token_stream()
        .to_string()
        .split(|c: char| !c.is_alphanumeric() && c != '_')
        .any(|w| w == name)
}

/// The registered type's argument at the position where `t` (or a type inside it) writes
/// `name` as an argument of a registered type (`NodeIndex<Ix>`, registered `NodeIndex<u32>`:
/// `u32`).
fn registered_arg(
    t: &Type,
    name: &str,
    regs: &HashMap<String, (String, String)>,
) -> Option<String> {
    let Type::Path(tp) = t else { return None };
    let seg = tp.path.segments.last()?;
    let syn::PathArguments::AngleBracketed(a) = &seg.arguments else {
        return None;
    };
    let args: Vec<&Type> = a
        .args
        .iter()
        .filter_map(|g| match g {
            syn::GenericArgument::Type(t) => Some(t),
            _ => None,
        })
        .collect();
    if let Some((_, rust)) = regs.get(&seg.ident.to_string()) {
        let theirs = super::syntax::top_level_args(rust);
        for (k, arg) in args.iter().enumerate() {
            let Type::Path(p) = arg else { continue };
            if p.path.is_ident(name) {
                if let Some(v) = theirs.get(k) {
                    return Some(v.clone());
                }
            }
        }
    }
    args.iter().find_map(|arg| registered_arg(arg, name, regs))
}
