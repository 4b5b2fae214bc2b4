//! A sequence parameter whose items are bounded by the crate's traits, not named
//! (`Graph::from_edges<I: IntoIterator>(iterable: I) where I::Item: IntoWeightedEdge<E>`):
//! a vector of an item type the crate implements those traits for. Read from the crate's
//! impls for tuples of the impl's own parameters (`impl<Ix, E> IntoWeightedEdge<E> for (Ix,
//! Ix)`): a tuple of integers, the integer the function's other bounds convert from
//! (`<I::Item as IntoWeightedEdge<E>>::NodeId: Into<NodeIndex<Ix>>`: the `Ix` of the
//! instantiation), else `u64`. The program fills the vector, so its length grows with the
//! program's data.

use quote::ToTokens;
use syn::{TypeParamBound, WherePredicate};

use super::resolve::Ctx;
use super::value_traits::MODEL_INTS;

impl Ctx<'_> {
    /// The element type and whether the bound is `Iterator` (see [`sequence_bound`]
    /// (super::sequence::sequence_bound)) of sequence parameter `name`, bounded by `bs`, whose
    /// items `assoc_bounds` bound (`(I, Item, [IntoWeightedEdge<E>])`).
    pub(super) fn items_from_impls(
        &self,
        name: &str,
        bs: &[TypeParamBound],
        g: &syn::Generics,
        assoc_bounds: &[(String, String, Vec<String>)],
    ) -> Option<(String, bool)> {
        let iterator = bs.iter().find_map(|b| {
            let TypeParamBound::Trait(tb) = b else {
                return None;
            };
            let seg = tb.path.segments.last()?;
            if !seg.arguments.is_empty() {
                return None;
            }
            match seg.ident.to_string().as_str() {
                "IntoIterator" => Some(false),
                "Iterator" => Some(true),
                _ => None,
            }
        })?;
        let item_bounds: Vec<String> = assoc_bounds
            .iter()
            .filter(|(p, a, _)| p == name && a == "Item")
            .flat_map(|(_, _, bs)| bs.iter())
            .map(|b| b.split('<').next().unwrap_or(b).to_string())
            .filter(|b| self.int_traits.impls.is_crate_trait(b))
            .collect();
        let arity = item_bounds
            .iter()
            .map(|b| self.int_traits.impls.tuple_arity(b))
            .collect::<Option<Vec<usize>>>()?
            .into_iter()
            .max()?;
        let int = self
            .converted_from(name, g)
            .unwrap_or_else(|| "u64".to_string());
        Some((format!("({})", vec![int; arity].join(",")), iterator))
    }

    /// The integer a where-clause predicate on `name`'s items converts into another type
    /// from (`<I::Item as Tr>::NodeId: Into<NodeIndex<Ix>>` with `Ix` instantiated `u32`).
    fn converted_from(&self, name: &str, g: &syn::Generics) -> Option<String> {
        g.where_clause
            .iter()
            .flat_map(|w| &w.predicates)
            .find_map(|pred| {
                let WherePredicate::Type(pt) = pred else {
                    return None;
                };
                let on = pt.bounded_ty.to_token_stream().to_string().replace(' ', "");
                if !on.contains(&format!("{name}::Item")) {
                    return None;
                }
                pt.bounds.iter().find_map(|b| {
                    let text = b.to_token_stream().to_string().replace(' ', "");
                    let inner = text.strip_prefix("Into<")?;
                    inner
                        .split(|c: char| !c.is_alphanumeric() && c != '_')
                        .filter_map(|w| self.subst.get(w))
                        .find(|v| MODEL_INTS.contains(&v.as_str()))
                        .cloned()
                })
            })
    }
}
