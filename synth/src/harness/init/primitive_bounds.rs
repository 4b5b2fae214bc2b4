//! Bounds read against primitive types: a function's type parameter bounded by the crate's
//! traits that the crate implements for integers (`K: Measure + Copy`, `Measure` a blanket
//! impl over every `M: Add<M, Output = M> + Default + ..`, `BoundedMeasure` written by a
//! macro for `u8, u16, ..`) takes such an integer; and a where-clause bound on a parameter's
//! associated type (`G::EdgeWeight: FloatMeasure`) is checked against what the chosen type
//! sets it to (`Key` for `Graph<Key, Key, ..>`), so an instantiation that cannot meet it is
//! skipped naming the bound instead of being rejected by the compiler. Its own file beside
//! [`fn_generics`](super::fn_generics), which asks it once per parameter.

use quote::ToTokens;

use super::int_traits::{IntTraits, FLOATS, INTS, INT_OPERATORS};
use super::value_traits::{integers_meet, KEY_TRAITS, MODEL_INTS};

/// The trait a bound names, without its path or arguments (`core::ops::Sub<K, Output = K>`:
/// `Sub`).
fn base(bound: &str) -> &str {
    let b = bound.split('<').next().unwrap_or(bound).trim();
    b.rsplit("::").next().unwrap_or(b).trim()
}

/// Whether integer `int` meets `bound`: a standard trait integers have, an operator over
/// itself, or a trait of the crate it implements.
/// A bound written with arguments (`Iterator<Item = (NodeIndex<Ix>, E)>`) other than an
/// operator's is not read as met: the reader's impls are by trait name only (a macro written
/// `impl Iterator for $name` and invoked with a `usize` among its tokens reads as an impl
/// for `usize`).
fn int_meets(it: &IntTraits, int: &str, bound: &str) -> bool {
    let b = base(bound);
    if bound.contains('<') && !INT_OPERATORS.contains(&b) {
        return false;
    }
    integers_meet(b) || INT_OPERATORS.contains(&b) || it.implements(int, b)
}

/// The first model integer meeting every one of `bounds` (as written), else the first float
/// (`D: UnitMeasure + Copy`, implemented for `f32, f64` only), when at least one of them is a
/// trait of the crate (bounds of standard traits alone choose no type).
pub(super) fn primitive_for(it: &IntTraits, bounds: &[String]) -> Option<&'static str> {
    let crate_trait = bounds.iter().any(|b| {
        let b = base(b);
        !integers_meet(b) && !INT_OPERATORS.contains(&b) && it.own_for_primitive(b)
    });
    if !crate_trait {
        return None;
    }
    INTS.iter()
        .copied()
        .filter(|int| MODEL_INTS.contains(int))
        .find(|int| bounds.iter().all(|b| int_meets(it, int, b)))
        .or_else(|| {
            FLOATS
                .iter()
                .copied()
                .find(|f| bounds.iter().all(|b| float_meets(it, f, b)))
        })
}

/// Whether float `float` meets `bound`: a standard trait floats have (not `Eq`, `Ord`,
/// `Hash`), an operator over itself, or a trait of the crate it implements.
fn float_meets(it: &IntTraits, float: &str, bound: &str) -> bool {
    const FLOAT_TRAITS: &[&str] = &[
        "Copy",
        "Clone",
        "Debug",
        "Default",
        "Display",
        "PartialEq",
        "PartialOrd",
        "Send",
        "Sync",
    ];
    let b = base(bound);
    if bound.contains('<') && !INT_OPERATORS.contains(&b) {
        return false;
    }
    FLOAT_TRAITS.contains(&b) || INT_OPERATORS.contains(&b) || it.float_implements(float, b)
}

/// A where-clause predicate on an associated type of one of the function's own type
/// parameters (`G::EdgeWeight: FloatMeasure`), read as (`G`, `EdgeWeight`, bounds written).
pub(super) fn assoc_predicate(
    pt: &syn::PredicateType,
    is_param: &dyn Fn(&str) -> bool,
) -> Option<(String, String, Vec<String>)> {
    let syn::Type::Path(tp) = &pt.bounded_ty else {
        return None;
    };
    if tp.qself.is_some() || tp.path.segments.len() != 2 {
        return None;
    }
    let param = tp.path.segments[0].ident.to_string();
    if !is_param(&param) {
        return None;
    }
    let assoc = tp.path.segments[1].ident.to_string();
    let bounds = pt
        .bounds
        .iter()
        .filter_map(|b| match b {
            syn::TypeParamBound::Trait(t) => {
                Some(t.path.to_token_stream().to_string().replace(' ', ""))
            }
            _ => None,
        })
        .collect();
    Some((param, assoc, bounds))
}

/// The first of `bounds` that `ty` (an associated type's instantiation) is known not to meet:
/// a trait of the crate implemented for primitives (see [`IntTraits::own_for_primitive`]),
/// by no blanket impl, and not for `ty`, when `ty` is the probe key or a model integer; or,
/// for the probe key, an arithmetic operator (`Sub`), which it does not implement. Other types are not judged: the compiler is.
pub(super) fn unmet_bound<'a>(
    it: &IntTraits,
    ty: &str,
    bounds: &'a [String],
) -> Option<&'a String> {
    let is_int = MODEL_INTS.contains(&ty);
    if ty != "Key" && !is_int {
        return None;
    }
    bounds.iter().find(|b| {
        let b = base(b);
        if is_int {
            return !int_meets(it, ty, b) && it.own_for_primitive(b) && !it.is_blanket(b);
        }
        if KEY_TRAITS.contains(&b) {
            return false;
        }
        INT_OPERATORS.contains(&b) || (it.own_for_primitive(b) && !it.is_blanket(b))
    })
}
