//! A type's parameters that the crate's impls decide, for a type whose bounds neither the
//! probe key nor an integer meets: trait-bounded generics on a *type*.
//!
//! - Tied to another type's associated types: a method of the type takes a generic `G:
//!   Visitable<NodeId = N, Map = VM>` (`Dfs<N, VM>::new(graph: G, start: N)`), so `N` and
//!   `VM` are what the crate's registered type implementing `G`'s bounds sets those
//!   associated types to: a registered type of the crate when the impl names one
//!   (`NodeId = NodeIndex<Ix>`: `NodeIndex<u32>`), else the projection
//!   `<Graph<..> as ::lib::visit::Visitable>::Map`, which the compiler normalizes (a type
//!   of another crate the harness cannot name, `FixedBitSet`).
//! - Bounded by the crate's traits that a registered type implements by value
//!   (`Acyclic<G: Visitable + Build>`): that type, at its registered instantiation, with
//!   its associated types (`G::NodeId`, `G::EdgeWeight`) filled as a function's generic's
//!   are.
//!
//! Asked after every other type is instantiated (the registered types are the candidates);
//! a wrong guess is rejected by the compiler and skipped with its message.

use std::collections::HashMap;

use quote::ToTokens;
use syn::{GenericArgument, ImplItem, PathArguments, Type, TypeParamBound, WherePredicate};

use super::instantiate::instantiate_fixing;
use super::scan::{FoundType, Scan};
use super::skips::SkipReason;
use super::trait_impls::Meets;

/// A generic parameter of one of the type's methods whose bounds tie type parameters to
/// its associated types (`G: GraphRef + Visitable<NodeId = N, Map = VM>`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tie {
    /// The identifiers of the generic's trait bounds (`GraphRef`, `Visitable`).
    pub bounds: Vec<String>,
    /// Each tie: (trait, associated type, the type's parameter) (`Visitable`, `Map`, `VM`).
    pub ties: Vec<(String, String, String)>,
}

/// The ties that `impls`' methods write for the type parameters `params`, one per method
/// generic, in source order.
pub fn ties(impls: &[syn::ItemImpl], params: &[String]) -> Vec<Tie> {
    let mut out: Vec<Tie> = Vec::new();
    for f in impls.iter().flat_map(|i| &i.items) {
        let ImplItem::Fn(f) = f else { continue };
        let g = &f.sig.generics;
        let mut per: Vec<(String, Vec<&TypeParamBound>)> = g
            .type_params()
            .map(|t| (t.ident.to_string(), t.bounds.iter().collect()))
            .collect();
        for pred in g.where_clause.iter().flat_map(|w| &w.predicates) {
            let WherePredicate::Type(pt) = pred else {
                continue;
            };
            let id = pt.bounded_ty.to_token_stream().to_string();
            if let Some((_, bs)) = per.iter_mut().find(|(n, _)| *n == id) {
                bs.extend(pt.bounds.iter());
            }
        }
        for (_, bs) in per {
            let mut tie = Tie {
                bounds: Vec::new(),
                ties: Vec::new(),
            };
            for b in bs {
                let TypeParamBound::Trait(tb) = b else {
                    continue;
                };
                let Some(seg) = tb.path.segments.last() else {
                    continue;
                };
                let tr = seg.ident.to_string();
                if let PathArguments::AngleBracketed(a) = &seg.arguments {
                    for arg in &a.args {
                        let GenericArgument::AssocType(at) = arg else {
                            continue;
                        };
                        let Type::Path(tp) = &at.ty else { continue };
                        let Some(p) = tp.path.get_ident().map(|i| i.to_string()) else {
                            continue;
                        };
                        if params.contains(&p) {
                            tie.ties.push((tr.clone(), at.ident.to_string(), p));
                        }
                    }
                }
                tie.bounds.push(tr);
            }
            if !tie.ties.is_empty() && !out.contains(&tie) {
                out.push(tie);
            }
        }
    }
    out
}

/// What the model knows of the registered types when it asks (see [`from_impls`]).
pub struct Registered<'a> {
    pub lib: &'a str,
    /// Registered types by identifier: (registry name, Rust type).
    pub regs: &'a HashMap<String, (String, String)>,
    /// Identifier → full path of the crate's types (see `model::default_paths`).
    pub named: &'a HashMap<String, String>,
}

/// The instantiation of `t` that the crate's impls decide (see the module doc), or `None`
/// when they decide none that meets every bound.
pub fn from_impls(
    t: &FoundType,
    scan: &Scan,
    r: &Registered<'_>,
) -> Option<HashMap<String, String>> {
    let impls = &scan.int_traits.impls;
    let params: Vec<String> = t
        .generics
        .type_params()
        .map(|p| p.ident.to_string())
        .collect();
    let mut fixed: HashMap<String, String> = HashMap::new();
    // Registered candidates other than the type itself, in a stable order.
    let mut candidates: Vec<&str> = r
        .regs
        .keys()
        .map(String::as_str)
        .filter(|k| *k != t.ident)
        .collect();
    candidates.sort();
    let mut assoc_entries: HashMap<String, String> = HashMap::new();
    // Ties first: a method's bounds say what the parameters must be for it to be called
    // (`TarjanScc<N>::run<G: IntoNeighbors<NodeId = N>>`), even where the probe key meets
    // the type's own bounds.
    for tie in crate_ties(t, scan) {
        if tie.ties.iter().all(|(_, _, p)| fixed.contains_key(p)) {
            continue;
        }
        if let Some(values) = tie_values(&tie, scan, r, &candidates) {
            for (p, v) in values {
                fixed.entry(p).or_insert(v);
            }
        }
    }
    for _ in 0..=params.len() {
        let tried = instantiate_fixing(
            &t.generics,
            t.impls.iter().map(|i| &i.generics),
            false,
            r.named,
            &scan.array_traits,
            &scan.int_traits,
            &fixed,
        );
        let param = match tried {
            Ok(mut subst) => {
                subst.extend(assoc_entries);
                own_associated(t, scan, &mut subst);
                return Some(subst);
            }
            Err(SkipReason::GenericBoundNotMet { param, .. }) => param,
            Err(_) => return None,
        };
        if fixed.contains_key(&param) {
            return None;
        }
        // Bounded by the crate's traits: a registered type implementing them by value,
        // when the type has a constructor of its own (a type only the crate's functions
        // build holds what they pass, often a borrow: `Matching<&Graph>`).
        if !constructible(t) {
            return None;
        }
        // Std's bounds (`Default`) are the compiler's to check.
        let bounds: Vec<String> = param_bounds(t, &param)
            .into_iter()
            .filter(|b| impls.is_crate_trait(b))
            .collect();
        let Some(Meets::Owned(ty)) = impls.implementor(&bounds, candidates.iter().copied(), true)
        else {
            return None;
        };
        let (_, rust) = r.regs.get(&ty)?;
        let args = super::syntax::top_level_args(rust);
        for (assoc, _) in impls.associated(&ty) {
            if let Some(v) = associated_registered(scan, r, &ty, assoc)
                .or_else(|| args.get(impls.associated_arg(&ty, assoc)?).cloned())
            {
                assoc_entries.insert(format!("{param}::{assoc}"), v);
            }
        }
        fixed.insert(param, rust.clone());
    }
    None
}

/// The values of the parameters `tie` ties: the registered type implementing the method
/// generic's bounds, and what its impls set each associated type to (a registered type, else
/// a projection through the trait declaring it).
pub(super) fn tie_values(
    tie: &Tie,
    scan: &Scan,
    r: &Registered<'_>,
    candidates: &[&str],
) -> Option<Vec<(String, String)>> {
    let impls = &scan.int_traits.impls;
    let meets = impls.implementor(&tie.bounds, candidates.iter().copied(), false)?;
    let (Meets::Borrowed(ty) | Meets::Owned(ty)) = &meets;
    let (_, rust) = r.regs.get(ty)?;
    let mut out = Vec::new();
    for (tr, assoc, p) in &tie.ties {
        let through = std::iter::once(tr.as_str())
            .chain(scan.trait_decls.declaring(assoc))
            .filter(|tr| impls.owned(tr, ty) || impls.borrowed(tr, ty))
            .find_map(|tr| {
                let on = if impls.owned(tr, ty) {
                    rust.clone()
                } else {
                    format!("&'static {rust}")
                };
                scan.trait_decls.projection(r.lib, &on, tr, assoc)
            });
        let v = associated_registered(scan, r, ty, assoc).or(through)?;
        out.push((p.clone(), v));
    }
    Some(out)
}

/// Whether `t` has a constructor of its own: `Default`, or a public associated function
/// returning `Self` (or the type, or a `Result`/`Option` of it).
fn constructible(t: &FoundType) -> bool {
    t.derives_default
        || t.implements_default
        || t.impls.iter().flat_map(|i| &i.items).any(|it| {
            let ImplItem::Fn(f) = it else { return false };
            let syn::ReturnType::Type(_, out) = &f.sig.output else {
                return false;
            };
            let out = out.to_token_stream().to_string();
            super::scan::is_pub(&f.vis)
                && f.sig.receiver().is_none()
                && (out.contains("Self") || out.starts_with(&t.ident))
        })
}

/// The registered type the crate's impls for `ty` set its associated type `assoc` to
/// (`NodeId = NodeIndex<Ix>`: the registered `NodeIndex<u32>`), by its Rust type.
fn associated_registered(scan: &Scan, r: &Registered<'_>, ty: &str, assoc: &str) -> Option<String> {
    let (_, target) = scan
        .int_traits
        .impls
        .associated(ty)
        .find(|(a, _)| *a == assoc)?;
    let (name, rust) = r.regs.get(target.last()?)?;
    (name == rust).then(|| rust.clone())
}

/// The identifiers of `param`'s trait bounds on the type and its impls, arguments dropped.
fn param_bounds(t: &FoundType, param: &str) -> Vec<String> {
    let mut out = Vec::new();
    let gens = std::iter::once(&t.generics).chain(t.impls.iter().map(|i| &i.generics));
    for g in gens {
        for tp in g.type_params().filter(|tp| tp.ident == param) {
            out.extend(idents(tp.bounds.iter()));
        }
        for pred in g.where_clause.iter().flat_map(|w| &w.predicates) {
            if let WherePredicate::Type(pt) = pred {
                if pt.bounded_ty.to_token_stream().to_string() == param {
                    out.extend(idents(pt.bounds.iter()));
                }
            }
        }
    }
    out.sort();
    out.dedup();
    out
}

fn idents<'a>(bs: impl Iterator<Item = &'a TypeParamBound>) -> Vec<String> {
    bs.filter_map(|b| match b {
        TypeParamBound::Trait(tb) => tb.path.segments.last().map(|s| s.ident.to_string()),
        _ => None,
    })
    .filter(|n| n != "Sized")
    .collect()
}

/// Whether a method of `t` ties one of its type parameters to a generic's associated type
/// of the crate's own traits.
pub fn tied(t: &FoundType, scan: &Scan) -> bool {
    !crate_ties(t, scan).is_empty()
}

/// The ties of `t`'s methods through the crate's own traits only (a tie through std's
/// `IntoIterator<Item = A>` says what a sequence holds, not which type of the crate to take).
fn crate_ties(t: &FoundType, scan: &Scan) -> Vec<Tie> {
    let params: Vec<String> = t
        .generics
        .type_params()
        .map(|p| p.ident.to_string())
        .collect();
    ties(&t.impls, &params)
        .into_iter()
        .filter(|tie| {
            tie.ties
                .iter()
                .all(|(tr, _, _)| scan.trait_decls.declares(tr))
                && tie.bounds.iter().all(|b| {
                    scan.trait_decls.declares(b) || ["Copy", "Clone", "Sized"].contains(&b.as_str())
                })
        })
        .collect()
}

/// `Self::NodeId` in `t`'s methods: what `t`'s own impls set it to, at this instantiation
/// (`impl<G> GraphBase for Acyclic<G> { type NodeId = G::NodeId; }`, with `G::NodeId` decided
/// in `subst`, or a parameter `subst` fills).
fn own_associated(t: &FoundType, scan: &Scan, subst: &mut HashMap<String, String>) {
    let found: Vec<(String, String)> = scan
        .int_traits
        .impls
        .associated(&t.ident)
        .filter_map(|(assoc, target)| {
            let v = subst.get(&target.join("::"))?;
            Some((format!("Self::{assoc}"), v.clone()))
        })
        .collect();
    for (k, v) in found {
        subst.entry(k).or_insert(v);
    }
}
