//! Parameters built from program values: a range (`drain(R)` with
//! `R: RangeBounds<usize>` gets `start..end`, two `usize`s), an array of a compile-time
//! length (`get_disjoint_mut([&Q; N])` gets [`ARRAY_LEN`] elements, each its own value), and
//! a non-zero integer (`with_hasher(cap: NonZeroUsize, ..)`: one plus a program
//! value, so every value is valid). Each is a [`ParamKind`] whose code `Param::arg` writes.

use std::collections::{BTreeSet, HashMap};

use quote::ToTokens;

use perfsyn_profiler_ipc::Mode;

use super::model_ty::ModelTy;
use super::registrations::{Param, ParamKind, RangeType, Value};

/// The parameter of one element of a compound argument, named as given: the model's
/// resolver of a parameter (`Ctx::param`), passed in by the resolver that calls these
/// builders, so that they stay below it.
pub(super) type ParamOf<'a> =
    dyn Fn(&str, &syn::Type, &mut BTreeSet<String>) -> Result<Param, String> + 'a;

/// The length a const-generic array parameter is instantiated with.
pub const ARRAY_LEN: usize = 2;

/// A `Range<T>` argument `name..name_end` (`T` an integer, or the key: moved, not copied).
pub fn range(name: &str, elem: &str) -> Param {
    let ty = ModelTy::parse(elem);
    let mode = if ty == ModelTy::Key {
        Mode::Val
    } else {
        Mode::Copy
    };
    Param::new(
        name,
        ParamKind::Range {
            value: Value::new(mode, ty),
            written: None,
        },
    )
}

/// A parameter of a range type itself (`insert(range: Range<K>, ..)`,
/// `overlaps(&self, range: &RangeInclusive<K>)`), by value or by shared reference, of an
/// integer or the key (as `resolve` names the element's model type): from the lower to the
/// higher of two program values, `..` (one past it) or `..=`. `None` for any other type.
pub fn concrete_range(
    name: &str,
    t: &syn::Type,
    resolve: &dyn Fn(&syn::Type) -> Option<String>,
) -> Option<Param> {
    let (t, by_ref) = match t {
        syn::Type::Reference(r) if r.mutability.is_none() => (&*r.elem, true),
        t => (t, false),
    };
    let syn::Type::Path(tp) = t else { return None };
    if tp.qself.is_some() {
        return None;
    }
    let segs: Vec<String> = tp
        .path
        .segments
        .iter()
        .map(|s| s.ident.to_string())
        .collect();
    // `Range`, `ops::Range`, `std::ops::Range`, `core::ops::Range`.
    let prefix_ok = match segs.len() {
        1 => true,
        2 => segs[0] == "ops",
        3 => ["std", "core"].contains(&segs[0].as_str()) && segs[1] == "ops",
        _ => false,
    };
    let seg = tp.path.segments.last()?;
    let op = match seg.ident.to_string().as_str() {
        "Range" => "..",
        "RangeInclusive" => "..=",
        _ => return None,
    };
    let syn::PathArguments::AngleBracketed(a) = &seg.arguments else {
        return None;
    };
    let elem = match a.args.first() {
        Some(syn::GenericArgument::Type(e)) if a.args.len() == 1 && prefix_ok => resolve(e)?,
        _ => return None,
    };
    if elem != "Key" && !super::value_traits::MODEL_INTS.contains(&elem.as_str()) {
        return None;
    }
    let mut p = range(name, &elem);
    // Never empty (see `Param::arg`): methods taking a range type itself often refuse an
    // empty one (`insert` asserts `start < end`), which left them with no initial program.
    if let ParamKind::Range { written, .. } = &mut p.kind {
        *written = Some(RangeType { op, by_ref });
    }
    Some(p)
}

/// An array argument `[T; N]` (or `[&T; N]`) of [`ARRAY_LEN`] elements, `name`, `name_1`, ...
pub(super) fn array(
    subst: &HashMap<String, String>,
    param: &ParamOf<'_>,
    name: &str,
    a: &syn::TypeArray,
    vecs: &mut BTreeSet<String>,
) -> Result<Param, String> {
    let len = a.len.to_token_stream().to_string();
    let fixed = subst.get(&len).map(String::as_str) == Some(&*ARRAY_LEN.to_string());
    if !fixed {
        return Err(format!(
            "an array of length `{len}` (only const-generic lengths are instantiated, with {ARRAY_LEN})"
        ));
    }
    let elems = element_params(param, name, &[&*a.elem; ARRAY_LEN], vecs)?;
    if !elems.iter().all(|e| plain_value(e).is_some()) {
        return Err("an array of closures, casts or ranges".into());
    }
    joined(elems, false)
}

/// One parameter per element of a compound argument (an array, a tuple) of `types`, named
/// `name`, `name_1`, ...
fn element_params(
    param: &ParamOf<'_>,
    name: &str,
    types: &[&syn::Type],
    vecs: &mut BTreeSet<String>,
) -> Result<Vec<Param>, String> {
    types
        .iter()
        .enumerate()
        .map(|(i, ty)| {
            let n = if i == 0 {
                name.to_string()
            } else {
                format!("{name}_{i}")
            };
            param(&n, ty, vecs)
        })
        .collect()
}

/// The value of a plain, unconverted parameter (an element an array or tuple can hold).
fn plain_value(p: &Param) -> Option<&Value> {
    match &p.kind {
        ParamKind::Plain { value, cast: None } => Some(value),
        _ => None,
    }
}

/// The argument built from `elems`, an array's or a tuple's: the first element's value,
/// the others its `rest` (see `Param::arg`).
fn joined(elems: Vec<Param>, tuple: bool) -> Result<Param, String> {
    let mut elems = elems.into_iter();
    let first = elems.next().ok_or("no elements")?;
    let value = plain_value(&first).ok_or("not a plain value")?.clone();
    Ok(Param::new(
        &first.name,
        ParamKind::Elements {
            value,
            rest: elems.collect(),
            tuple,
        },
    ))
}

/// A tuple argument `(A, B, ..)` (`push_pair((u64, u64))`, `dist(a: (f64, f64), ..)`): one
/// program value per element, `name`, `name_1`, ..., passed as `(name, name_1)`.
pub(super) fn tuple(
    param: &ParamOf<'_>,
    name: &str,
    t: &syn::TypeTuple,
    vecs: &mut BTreeSet<String>,
) -> Result<Param, String> {
    if t.elems.is_empty() {
        return Err("a unit `()` argument".into());
    }
    let types: Vec<&syn::Type> = t.elems.iter().collect();
    let elems = element_params(param, name, &types, vecs)?;
    if !elems
        .iter()
        .all(|e| plain_value(e).is_some_and(|v| v.mode != Mode::Mut))
    {
        return Err("a tuple of closures, casts, ranges or `&mut` references".into());
    }
    joined(elems, true)
}

/// A `NonZeroUsize`/`NonZero<u32>`/... argument (by value): `MIN.saturating_add(name)`,
/// built from a program value of the same integer type; `None` for any other type.
pub fn non_zero(name: &str, t: &syn::Type) -> Option<Param> {
    let syn::Type::Path(tp) = t else { return None };
    let seg = tp.path.segments.last()?;
    let id = seg.ident.to_string();
    let int = match id.as_str() {
        "NonZero" => match &seg.arguments {
            syn::PathArguments::AngleBracketed(a) if a.args.len() == 1 => {
                a.args[0].to_token_stream().to_string()
            }
            _ => return None,
        },
        _ => id.strip_prefix("NonZero")?.to_lowercase(),
    };
    let int = ["u8", "u32", "u64", "usize"]
        .into_iter()
        .find(|i| *i == int)?;
    Some(Param::new(name, ParamKind::NonZero { int }))
}
