//! Instantiation: the concrete type each generic parameter of a registered type takes (the
//! probe key, an integer, `String`, inline storage, a crate type implementing the bound, a
//! declared default, or left out for the compiler to supply), decided from the bounds of
//! the type's impls. The model asks it for every type, and the reach through borrowing
//! types ([`chain`](super::chain)) for the types a method returns.

use std::collections::{BTreeSet, HashMap};

use quote::ToTokens;
use syn::GenericParam;

use super::skips::SkipReason;
use super::syntax::{projection, trait_names};
use super::value_traits::{integers_meet, KEY_TRAITS, U64_TRAITS};

/// The instantiation of a trailing type parameter left to its declared default, which the
/// harness cannot name (`A: Allocator = Global`, a private re-export): the
/// registration omits it, so the compiler supplies the default.
pub(super) const OMITTED: &str = "_";

/// The default a type parameter declares (`= Geometric`), as the harness can name it: a type
/// of the crate (by `named`, its full path) or a primitive; `None` for anything else.
fn declared_default(t: &syn::TypeParam, named: &HashMap<String, String>) -> Option<String> {
    let (_, syn::Type::Path(tp)) = t.default.as_ref()? else {
        return None;
    };
    if tp.qself.is_some() || tp.path.segments.len() != 1 {
        return None;
    }
    let seg = &tp.path.segments[0];
    if !seg.arguments.is_empty() {
        return None;
    }
    let id = seg.ident.to_string();
    const PRIMITIVES: &[&str] = &[
        "u8", "u16", "u32", "u64", "u128", "usize", "i8", "i16", "i32", "i64", "i128", "isize",
        "bool", "char",
    ];
    if PRIMITIVES.contains(&id.as_str()) {
        return Some(id);
    }
    named.get(&id).cloned()
}

/// The instantiation of a type's generic parameters: each type parameter gets `Key` if its
/// bounds (on the type and on every inherent impl) are among the probe key's traits, else
/// `u64` if they are among `u64`'s, else the default it declares (`G: LevelGenerator =
/// Geometric`: the crate's author chose it for callers who do not care, which is what a
/// program is); const parameters get their declared default, else 64. A parameter bounded by
/// traits of the crate gets an integer the crate implements them for (`for_ints`).
pub(super) fn instantiate<'a>(
    g: &syn::Generics,
    impls: impl Iterator<Item = &'a syn::Generics>,
    borrowing_ok: bool,
    named: &HashMap<String, String>,
    arrays: &super::storage::ArrayTraits,
    for_ints: &super::int_traits::IntTraits,
) -> Result<HashMap<String, String>, SkipReason> {
    let none = HashMap::new();
    instantiate_fixing(g, impls, borrowing_ok, named, arrays, for_ints, &none)
}

/// [`instantiate`], with the parameters of `fixed` already decided (by the crate's impls:
/// see [`assoc_ties`](super::assoc_ties)).
pub(super) fn instantiate_fixing<'a>(
    g: &syn::Generics,
    impls: impl Iterator<Item = &'a syn::Generics>,
    borrowing_ok: bool,
    named: &HashMap<String, String>,
    arrays: &super::storage::ArrayTraits,
    for_ints: &super::int_traits::IntTraits,
    fixed: &HashMap<String, String>,
) -> Result<HashMap<String, String>, SkipReason> {
    let mut bounds: HashMap<String, BTreeSet<String>> = HashMap::new();
    let mut defaults: HashMap<String, String> = HashMap::new();
    // Type parameters in order, with whether they declare a default at all.
    let mut order: Vec<(String, bool)> = Vec::new();
    let mut consts = Vec::new();
    // Defaults the harness writes once the parameters they name are decided (see
    // `param_defaults`): `Null = Option<E>`.
    let mut naming_params: Vec<(String, &syn::Type)> = Vec::new();
    for p in &g.params {
        match p {
            GenericParam::Lifetime(_) if borrowing_ok => {}
            GenericParam::Lifetime(_) => return Err(SkipReason::LifetimeParameter),
            GenericParam::Type(t) => {
                order.push((t.ident.to_string(), t.default.is_some()));
                bounds
                    .entry(t.ident.to_string())
                    .or_default()
                    .extend(trait_names(&t.bounds));
                if let Some(d) = declared_default(t, named) {
                    defaults.insert(t.ident.to_string(), d);
                } else if let Some((_, d)) = &t.default {
                    naming_params.push((t.ident.to_string(), d));
                }
            }
            GenericParam::Const(c) => {
                // A `usize` without a default is a capacity in practice
                // (`ArrayDeque<T, const CAP: usize>`, `N`): it must exceed
                // the largest size a sweep reaches, as inline storage does (see
                // `storage::ANY_STORAGE_LEN`), or every sweep stops at it, inconclusive.
                let default = match &c.default {
                    Some((_, syn::Expr::Lit(l))) => Some(l.lit.to_token_stream().to_string()),
                    _ if c.ty.to_token_stream().to_string() == "usize" => {
                        Some(super::storage::ANY_STORAGE_LEN.to_string())
                    }
                    _ => None,
                };
                consts.push((c.ident.to_string(), default));
            }
        }
    }
    // Bounds on a parameter's associated type (`impl<A: Array> SmallVec<A> where
    // A::Item: Copy`), by `A::Item`: what the element of inline storage must meet.
    let mut projected: HashMap<String, BTreeSet<String>> = HashMap::new();
    // Impl blocks name the type's parameters the same way in practice (`impl<T: Ord> S<T>`).
    let mut add_where = |g: &syn::Generics| {
        for p in &g.params {
            if let GenericParam::Type(t) = p {
                if let Some(set) = bounds.get_mut(&t.ident.to_string()) {
                    set.extend(trait_names(&t.bounds));
                }
            }
        }
        if let Some(w) = &g.where_clause {
            for pred in &w.predicates {
                if let syn::WherePredicate::Type(pt) = pred {
                    let id = pt.bounded_ty.to_token_stream().to_string();
                    if let Some(set) = bounds.get_mut(&id) {
                        set.extend(trait_names(&pt.bounds));
                    } else if let Some(assoc) = projection(&pt.bounded_ty) {
                        projected
                            .entry(assoc)
                            .or_default()
                            .extend(trait_names(&pt.bounds));
                    }
                }
            }
        }
    };
    add_where(g);
    for ig in impls {
        add_where(ig);
    }
    let mut subst = HashMap::new();
    // A parameter bounded by the crate's traits over another parameter
    // (`O: Operation<N>`): the crate's type implementing them at an integer, which the other
    // parameter then is (`SegmentPoint<u64, Add>`).
    let params: Vec<String> = order.iter().map(|(n, _)| n.clone()).collect();
    let mut paired: HashMap<String, String> = HashMap::new();
    for (name, bs) in &bounds {
        let own: Vec<&String> = bs.iter().filter(|b| !integers_meet(b)).collect();
        let Some(other) = params
            .iter()
            .find(|p| *p != name && own.iter().any(|b| super::int_traits::names_arg(b, p)))
        else {
            continue;
        };
        let other_own = bounds
            .get(other)
            .is_some_and(|b| b.iter().any(|b| !integers_meet(b)));
        if own.is_empty() || other_own || paired.contains_key(other) {
            continue;
        }
        if let Some((int, ty)) = for_ints.type_at(&own, other) {
            if let Some(path) = named.get(ty) {
                paired.insert(name.clone(), path.clone());
                paired.insert(other.clone(), int.to_string());
            }
        }
    }
    for (name, bs) in bounds {
        if let Some(pick) = fixed.get(&name) {
            subst.insert(name, pick.clone());
            continue;
        }
        if let Some(pick) = paired.remove(&name) {
            subst.insert(name, pick);
            continue;
        }
        let key_ok = bs.iter().all(|b| KEY_TRAITS.contains(&b.as_str()));
        let own: Vec<&String> = bs.iter().filter(|b| !integers_meet(b)).collect();
        // A declared default (`Ix = DefaultIx`) is the author's choice: it wins
        // over an integer or a type of the crate guessed from the bounds.
        let declares_default = order.iter().any(|(n, d)| *n == name && *d);
        let int = if own.is_empty() {
            Some("u64")
        } else if declares_default {
            None
        } else {
            for_ints.int_for(&own)
        };
        let crate_type = (int.is_none() && !declares_default && !own.is_empty())
            .then(|| for_ints.type_for(&own).and_then(|t| named.get(t)))
            .flatten();
        let pick = if bs.iter().any(|b| b == "BuildHasher") {
            // Hash collections take a hasher parameter: the runtime's fixed, seedless one.
            "FixedState"
        } else if key_ok {
            "Key"
        } else if let Some(int) = int {
            int
        } else if let Some(t) = crate_type {
            t.as_str()
        } else if bs
            .iter()
            .all(|b| KEY_TRAITS.contains(&b.as_str()) || arrays.contains_key(b))
        {
            // Inline storage (`A: Array`): an array of keys; `A::Item` is the key. An impl
            // bounding the element by a trait the key lacks (`where A::Item: Copy`,
            // `from_slice` and `extend_from_slice`) makes it an integer, as such a bound on a
            // plain parameter does (`T: Copy` is `u64`): the compiler rejected those methods.
            let traits: Vec<&super::storage::ArrayImpl> =
                bs.iter().filter_map(|b| arrays.get(b)).collect();
            let item_bounds: Vec<&String> = traits
                .iter()
                .flat_map(|t| &t.assoc)
                .filter_map(|assoc| projected.get(&format!("{name}::{assoc}")))
                .flatten()
                .collect();
            let item = if item_bounds.iter().all(|b| KEY_TRAITS.contains(&b.as_str())) {
                "Key"
            } else if item_bounds.iter().all(|b| integers_meet(b)) {
                "u64"
            } else {
                "Key"
            };
            for t in &traits {
                for assoc in &t.assoc {
                    subst.insert(format!("{name}::{assoc}"), item.to_string());
                }
            }
            subst.insert(name, super::storage::storage_type(&traits, item));
            continue;
        } else if borrowing_ok
            && super::readers::reads_bytes(&bs.iter().cloned().collect::<Vec<_>>())
        {
            // A reader (`Reader<R>`, `R: BufRead`) built from a program's text: the
            // constructor's impl fixes it (`impl<'a> Reader<&'a [u8]> { fn from_str }`), so
            // the call leaves it to inference (see `borrowed_input`).
            OMITTED
        } else if let Some(io) = super::readers::owned_io(&bs.iter().cloned().collect::<Vec<_>>()) {
            // A type held by the program: an owned reader or writer of bytes (see `readers`).
            io
        } else if let Some(d) = defaults.get(&name) {
            d.as_str()
        } else if declares_default {
            OMITTED
        } else {
            let extra: Vec<&String> = bs
                .iter()
                .filter(|b| !KEY_TRAITS.contains(&b.as_str()) && !U64_TRAITS.contains(&b.as_str()))
                .collect();
            return Err(SkipReason::GenericBoundNotMet {
                param: name,
                needs: extra.into_iter().cloned().collect(),
            });
        };
        subst.insert(name, pick.to_string());
    }
    for (name, d) in naming_params {
        if subst.get(&name).map(String::as_str) == Some(OMITTED) {
            if let Some(w) = super::param_defaults::written(d, &subst, named, OMITTED) {
                subst.insert(name, w);
            }
        }
    }
    // Only trailing parameters can be left out of `T<A, B>`.
    let kept_after = order
        .iter()
        .rposition(|(n, _)| subst.get(n).map(String::as_str) != Some(OMITTED));
    if let Some((n, _)) = order
        .iter()
        .take(kept_after.map_or(0, |k| k + 1))
        .find(|(n, _)| subst.get(n).map(String::as_str) == Some(OMITTED))
    {
        return Err(SkipReason::UnnameableDefault { param: n.clone() });
    }
    for (c, default) in consts {
        subst.insert(c, default.unwrap_or_else(|| "64".to_string()));
    }
    Ok(subst)
}
