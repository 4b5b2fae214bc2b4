//! Sequence parameters: `append<I: IntoIterator<Item = u32>>(&mut self, iter: I)`,
//! `extend_from(impl Iterator<Item = T>)` get a vector of the program's values (the vector
//! itself, or its `into_iter()` for an `Iterator` bound), so the methods that take many items
//! at once register instead of being skipped for their generic parameter.

use syn::{GenericArgument, PathArguments, Type, TypeParamBound};

/// A sequence bound's item type (as the model names it) and whether the bound is `Iterator`
/// (the argument is then `vec.into_iter()`) rather than `IntoIterator` (the vector itself).
pub fn sequence_bound(
    bounds: &[TypeParamBound],
    resolve: &dyn Fn(&Type) -> Option<String>,
) -> Option<(String, bool)> {
    sequence_bound_of(bounds, resolve, &|e| ELEMENTS.contains(&e))
}

/// [`sequence_bound`] with the item types a vector may hold told by `element` (a function's
/// own parameter may also take a vector of a registered type of the crate:
/// `starts: I` with `I: IntoIterator<Item = G::NodeId>` and `G::NodeId` registered).
pub fn sequence_bound_of(
    bounds: &[TypeParamBound],
    resolve: &dyn Fn(&Type) -> Option<String>,
    element: &dyn Fn(&str) -> bool,
) -> Option<(String, bool)> {
    bounds.iter().find_map(|b| {
        let TypeParamBound::Trait(tb) = b else {
            return None;
        };
        let seg = tb.path.segments.last()?;
        let iterator = match seg.ident.to_string().as_str() {
            "IntoIterator" => false,
            "Iterator" | "ExactSizeIterator" | "DoubleEndedIterator" => true,
            _ => return None,
        };
        let PathArguments::AngleBracketed(a) = &seg.arguments else {
            return None;
        };
        let item = a.args.iter().find_map(|g| match g {
            GenericArgument::AssocType(at) if at.ident == "Item" => Some(&at.ty),
            _ => None,
        })?;
        let elem = resolve(item)?;
        element(&elem).then_some((elem, iterator))
    })
}

/// Element types a program's vectors hold.
pub(super) const ELEMENTS: &[&str] = &[
    "Key", "u8", "u32", "u64", "usize", "i32", "i64", "bool", "char", "String",
];

/// The parameter: a `Vec<elem>` program value, passed as is or as its `into_iter()`.
pub fn sequence(name: &str, elem: &str, iterator: bool) -> super::registrations::Param {
    super::registrations::Param::new(
        name,
        super::registrations::ParamKind::Sequence {
            elem: super::model_ty::ModelTy::parse(elem),
            iterator,
        },
    )
}
