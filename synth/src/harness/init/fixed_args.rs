//! What an impl block's self type fixes beyond a bare nameable argument (see
//! [`fixed_instantiations`](super::fixed_instantiations)), for a type to register again at it:
//!
//! - A parameter the block leaves to its declared default where the harness chose another
//!   value: `impl<N, E, S> MatrixGraph<N, E, S, Directed>` omits `Ix = DefaultIx`, a
//!   module-private `type DefaultIx = u16`, while the harness instantiates `Ix` with `u32`
//!   (the private alias cannot be named). The block fixes `Ix` to what the default expands to,
//!   when that is a primitive.
//! - An argument that is a type of the crate, or a public alias of one, written over the
//!   block's own parameters: `impl<N, E, Ix> Acyclic<StableDiGraph<N, E, Ix>>` (an alias of
//!   `StableGraph<N, E, Directed, Ix>`) while `Acyclic` registers over `Graph`. The block
//!   fixes the parameter to that type's own registration (`StableGraph<Key, Key, Directed,
//!   u32>`), when the alias's fixed arguments (`Directed`) are the registration's; the
//!   block's own parameters take what the registration has there.
//!
//! Each is the block's instantiation as nameable text, so the walk reads the block as
//! applying to that instantiation (see [`applies_as_registered`]).

use std::collections::HashMap;

use quote::ToTokens;
use syn::{GenericArgument, GenericParam, PathArguments, Type};

use super::scan::Scan;

/// What the harness knows to name a fixed argument.
pub struct Naming<'a> {
    pub lib: &'a str,
    pub scan: &'a Scan,
    /// Registered types by identifier: (registry name, Rust type).
    pub regs: &'a HashMap<String, (String, String)>,
    /// Identifier → full path of the crate's types (see `model::default_paths`).
    pub named: &'a HashMap<String, String>,
    /// A type written in the type's module with its aliases expanded, as text.
    pub aliased: &'a dyn Fn(&Type) -> String,
}

/// The primitive the default of a parameter expands to (`DefaultIx`: `u16`), where the
/// harness chose another (`chosen`); `None` otherwise.
pub fn default_override(default: &Type, chosen: &str, n: &Naming<'_>) -> Option<String> {
    let text = (n.aliased)(default).replace(' ', "");
    let prim = syn::parse_str::<Type>(&text)
        .ok()
        .and_then(|t| super::scoped_aliases::primitive_name(&t))?;
    (prim != chosen).then_some(prim)
}

/// The registration a written argument names (`StableDiGraph<N, E, Ix>` over the block's own
/// parameters `own`): the full path of the registered type and its registered arguments
/// (`petgraph::stable_graph::StableGraph<Key,Key,petgraph::Directed,u32>`); `None` when the
/// argument is not a crate type (or alias of one) written over `own` alone, or an argument the
/// alias fixes differs from the registration's.
pub fn registered_arg(p: &syn::TypePath, own: &[String], n: &Naming<'_>) -> Option<String> {
    if p.qself.is_some() {
        return None;
    }
    let seg = p.path.segments.last()?;
    let PathArguments::AngleBracketed(a) = &seg.arguments else {
        return None;
    };
    let written: Vec<String> = a
        .args
        .iter()
        .filter(|x| !matches!(x, GenericArgument::Lifetime(_)))
        .map(|x| x.to_token_stream().to_string().replace(' ', ""))
        .collect();
    // Every argument is one of the block's own parameters: free, whatever was registered.
    if !written.iter().all(|w| own.contains(w)) {
        return None;
    }
    let ident = seg.ident.to_string();
    let (target, target_args) = match n.regs.get(&ident) {
        Some(_) => (ident.clone(), None),
        None => {
            // A public alias of a registered type: its target's arguments, the alias's
            // parameters being the written (free) ones.
            let (alias, ty) = n
                .scan
                .aliases
                .iter()
                .find(|(al, _)| al.ident == ident && al.reachable)?;
            let Type::Path(tp) = ty else { return None };
            let tseg = tp.path.segments.last()?;
            let params: Vec<String> = alias
                .generics
                .params
                .iter()
                .filter_map(|g| match g {
                    GenericParam::Type(t) => Some(t.ident.to_string()),
                    _ => None,
                })
                .collect();
            let PathArguments::AngleBracketed(ta) = &tseg.arguments else {
                return None;
            };
            let args: Vec<Option<String>> = ta
                .args
                .iter()
                .filter(|x| !matches!(x, GenericArgument::Lifetime(_)))
                .map(|x| {
                    let t = x.to_token_stream().to_string().replace(' ', "");
                    (!params.contains(&t)).then_some(t)
                })
                .collect();
            (tseg.ident.to_string(), Some(args))
        }
    };
    let (_, rust) = n.regs.get(&target)?;
    let registered = super::syntax::top_level_args(rust);
    if let Some(args) = target_args {
        // What the alias fixes (`Directed`) is the registration's, by its last segment.
        let last = |s: &str| s.rsplit("::").next().unwrap_or(s).to_string();
        for (fixed, reg) in args.iter().zip(&registered) {
            if fixed.as_ref().is_some_and(|f| last(f) != last(reg)) {
                return None;
            }
        }
    }
    let path = n
        .named
        .get(&target)
        .cloned()
        .unwrap_or_else(|| format!("{}::{target}", n.lib));
    Some(if registered.is_empty() {
        path
    } else {
        format!("{path}<{}>", registered.join(","))
    })
}

/// Whether every argument `imp`'s self type writes as a crate type over its own parameters
/// names what `subst` already has at that parameter (`params`, the type's parameters in the
/// order arguments are written), and there is at least one: the block is of the
/// registration, though written otherwise.
pub fn applies_as_registered(
    imp: &syn::ItemImpl,
    params: &[String],
    subst: &HashMap<String, String>,
    n: &Naming<'_>,
) -> bool {
    let Type::Path(tp) = &*imp.self_ty else {
        return false;
    };
    let Some(seg) = tp.path.segments.last() else {
        return false;
    };
    let PathArguments::AngleBracketed(a) = &seg.arguments else {
        return false;
    };
    let own: Vec<String> = super::syntax::param_names(&imp.generics).collect();
    let args: Vec<&GenericArgument> = a
        .args
        .iter()
        .filter(|x| !matches!(x, GenericArgument::Lifetime(_)))
        .collect();
    // Parameters left to their defaults are the walk's own comparison.
    if args.len() != params.len() {
        return false;
    }
    let mut any = false;
    for (param, arg) in params.iter().zip(args) {
        let GenericArgument::Type(Type::Path(p)) = arg else {
            return false;
        };
        if p.path.segments.iter().all(|s| s.arguments.is_none()) {
            // Bare: the walk's own comparison decides; only the own parameters pass here.
            if p.path
                .get_ident()
                .is_some_and(|i| own.contains(&i.to_string()))
            {
                continue;
            }
            return false;
        }
        match (registered_arg(p, &own, n), subst.get(param)) {
            (Some(r), Some(s)) if same(&r, s) => any = true,
            _ => return false,
        }
    }
    any
}

/// Two types as text, spaces and the outer type's path aside (`petgraph::Graph<Key,..>` and
/// the imported `Graph<Key,..>`).
fn same(a: &str, b: &str) -> bool {
    let norm = |s: &str| {
        let s = s.replace(' ', "");
        let head = s.find('<').unwrap_or(s.len());
        let name = s[..head].rsplit("::").next().unwrap_or("").to_string();
        format!("{name}{}", &s[head..])
    };
    norm(a) == norm(b)
}
