//! Which of the crate's types implement which of its traits, by value (`impl Tr for T<..>`)
//! or borrowed (`impl<'a> Tr for &'a T<..>`), as the crate's impl items say: a function's
//! parameter bounded by the crate's own traits (`G: IntoNeighbors + Visitable`, a graph
//! algorithm) is instantiated with a registered type that implements them, passed borrowed
//! when the impls are for `&T`. Part of the reader: it records impl items and knows nothing
//! of the model.

use std::collections::{BTreeMap, BTreeSet};

/// The crate's trait impls on its own types.
#[derive(Clone, Debug, Default)]
pub struct TraitImpls {
    /// Trait name → the types (identifiers) implementing it by value.
    by_value: BTreeMap<String, BTreeSet<String>>,
    /// Trait name → the types implementing it for `&T`.
    by_ref: BTreeMap<String, BTreeSet<String>>,
    /// Traits with a blanket impl for `&G` over the impl's parameter (`impl<'a, G: Tr> Tr
    /// for &'a G`): every type implementing them by value does borrowed too; so does every
    /// type implementing by value the bounds the impl puts on `G` (`impl<'a, G: GraphBase>
    /// GraphRef for &'a G`), by identifier.
    ref_blanket: BTreeMap<String, BTreeSet<String>>,
    /// (type, associated type) → the path of the type an impl sets it to, as written
    /// (`impl GraphBase for Graph<..> { type NodeId = NodeIndex<Ix>; }`: `NodeIndex`).
    assoc: BTreeMap<(String, String), Vec<String>>,
    /// (type, associated type) → the position among the type's generic arguments of the
    /// impl parameter an impl sets it to (`impl<N, E> Data for Graph<N, E> { type
    /// EdgeWeight = E; }`: 1), so its instantiation is the registered type's argument there.
    assoc_arg: BTreeMap<(String, String), usize>,
    /// Trait name → the arities of tuples of the impl's own parameters it is implemented
    /// for (`impl<Ix, E> IntoWeightedEdge<E> for (Ix, Ix)`: 2), see
    /// [`item_impls`](super::item_impls).
    tuples: BTreeMap<String, BTreeSet<usize>>,
}

/// How a type meets a set of bounds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Meets {
    /// Borrowed (`&T`): the impls are for `&T`, or for `T` with a blanket impl for `&G`.
    Borrowed(String),
    /// By value: every bound is implemented for `T` itself.
    Owned(String),
}

impl TraitImpls {
    /// Records an `impl Trait for X` item.
    pub fn record(&mut self, i: &syn::ItemImpl) {
        let Some((path, _)) = &i.trait_ else {
            return;
        };
        let Some(tr) = path.segments.last().map(|s| s.ident.to_string()) else {
            return;
        };
        let params: BTreeSet<String> = i
            .generics
            .type_params()
            .map(|p| p.ident.to_string())
            .collect();
        // An impl for `&mut T` (`impl<T: Buf> Buf for &mut T`) says nothing of `&T`, the
        // borrow a program passes: read as one, `chain<U: Buf>(next: U)` took `&Bytes`
        // and the compiler rejected it.
        let (ty, borrowed) = match &*i.self_ty {
            syn::Type::Reference(r) if r.mutability.is_some() => return,
            syn::Type::Reference(r) => (&*r.elem, true),
            t => (t, false),
        };
        if let (syn::Type::Tuple(tt), false) = (ty, borrowed) {
            let own = |e: &syn::Type| {
                matches!(e, syn::Type::Path(p) if p.path.get_ident()
                    .is_some_and(|i| params.contains(&i.to_string())))
            };
            if tt.elems.len() >= 2 && tt.elems.iter().all(own) {
                self.tuples.entry(tr).or_default().insert(tt.elems.len());
            }
            return;
        }
        let syn::Type::Path(p) = ty else { return };
        if p.qself.is_some() {
            return;
        }
        let Some(id) = p.path.segments.last().map(|s| s.ident.to_string()) else {
            return;
        };
        if params.contains(&id) {
            if borrowed {
                let mut on: BTreeSet<String> = BTreeSet::new();
                for tp in i.generics.type_params().filter(|tp| tp.ident == id) {
                    on.extend(bound_idents(tp.bounds.iter()));
                }
                for pred in i.generics.where_clause.iter().flat_map(|w| &w.predicates) {
                    if let syn::WherePredicate::Type(pt) = pred {
                        if quote::ToTokens::to_token_stream(&pt.bounded_ty).to_string() == id {
                            on.extend(bound_idents(pt.bounds.iter()));
                        }
                    }
                }
                on.remove(&tr);
                self.ref_blanket.entry(tr).or_insert(on);
            }
            return;
        }
        let self_args: Vec<String> = match p.path.segments.last().map(|s| &s.arguments) {
            Some(syn::PathArguments::AngleBracketed(a)) => a
                .args
                .iter()
                .filter_map(|x| match x {
                    syn::GenericArgument::Type(t) => {
                        Some(quote::ToTokens::to_token_stream(t).to_string())
                    }
                    _ => None,
                })
                .collect(),
            _ => Vec::new(),
        };
        for it in &i.items {
            let syn::ImplItem::Type(t) = it else { continue };
            if let syn::Type::Path(tp) = &t.ty {
                let param = tp.path.get_ident().map(|x| x.to_string());
                let at = param
                    .filter(|x| params.contains(x))
                    .and_then(|x| self_args.iter().position(|a| *a == x));
                if let (Some(k), None) = (at, &tp.qself) {
                    self.assoc_arg
                        .entry((id.clone(), t.ident.to_string()))
                        .or_insert(k);
                }
                if tp.qself.is_none() {
                    let path = tp.path.segments.iter().map(|s| s.ident.to_string());
                    self.assoc
                        .entry((id.clone(), t.ident.to_string()))
                        .or_insert_with(|| path.collect());
                }
            }
        }
        let map = if borrowed {
            &mut self.by_ref
        } else {
            &mut self.by_value
        };
        map.entry(tr).or_default().insert(id);
    }

    /// The associated types the crate's impls give `ty` (`NodeId` → `NodeIndex`), by name,
    /// each with the path it is written as.
    pub fn associated<'a>(
        &'a self,
        ty: &'a str,
    ) -> impl Iterator<Item = (&'a str, &'a [String])> + 'a {
        self.assoc
            .iter()
            .filter(move |((t, _), _)| t == ty)
            .map(|((_, a), target)| (a.as_str(), target.as_slice()))
    }

    /// The position among `ty`'s generic arguments of the impl parameter its associated
    /// type `assoc` is set to (see [`TraitImpls::assoc_arg`]).
    pub fn associated_arg(&self, ty: &str, assoc: &str) -> Option<usize> {
        self.assoc_arg
            .get(&(ty.to_string(), assoc.to_string()))
            .copied()
    }

    /// Whether the crate implements `tr` for any of its types.
    pub fn is_crate_trait(&self, tr: &str) -> bool {
        self.by_value.contains_key(tr)
            || self.by_ref.contains_key(tr)
            || self.ref_blanket.contains_key(tr)
            || self.tuples.contains_key(tr)
    }

    pub(super) fn owned(&self, tr: &str, ty: &str) -> bool {
        self.by_value.get(tr).is_some_and(|s| s.contains(ty))
    }

    pub(super) fn borrowed(&self, tr: &str, ty: &str) -> bool {
        self.by_ref.get(tr).is_some_and(|s| s.contains(ty))
            || self.ref_blanket.get(tr).is_some_and(|on| {
                self.owned(tr, ty)
                    || (on.iter().any(|b| !self.is_std(b))
                        && on.iter().all(|b| self.owned(b, ty) || self.is_std(b)))
            })
    }

    /// How many of the crate's traits `ty` implements, by value or borrowed.
    fn breadth(&self, ty: &str) -> usize {
        self.by_value
            .values()
            .chain(self.by_ref.values())
            .filter(|s| s.contains(ty))
            .count()
    }

    /// The type among `candidates` (identifiers) that meets every trait of `bounds`
    /// (names; `Copy` and `Clone` hold for a borrow), and how it is passed. Preferred: a type
    /// implementing them all borrowed, then all by value, then one implementing each either
    /// way (the crate may write the blanket impl for `&G` with a macro the reader does not
    /// expand; a wrong guess is rejected by the compiler and skipped with its message). Ties
    /// go to the type implementing the most of the crate's traits, then to the first name.
    /// A parameter used only behind a reference (`v: &V`) takes the type itself, so only
    /// types implementing the bounds by value (`behind_ref`) meet them there.
    pub fn implementor<'a>(
        &self,
        bounds: &[String],
        candidates: impl IntoIterator<Item = &'a str>,
        behind_ref: bool,
    ) -> Option<Meets> {
        let crate_bounds: Vec<&String> = bounds
            .iter()
            .filter(|b| !["Copy", "Clone", "Sized", "?Sized"].contains(&b.as_str()))
            .collect();
        if crate_bounds.is_empty() || !crate_bounds.iter().all(|b| self.is_crate_trait(b)) {
            return None;
        }
        let needs_copy = bounds.iter().any(|b| b == "Copy" || b == "Clone");
        let mut ranked: Vec<(usize, usize, &str)> = candidates
            .into_iter()
            .filter_map(|ty| {
                let all_ref = crate_bounds.iter().all(|b| self.borrowed(b, ty));
                let all_owned = crate_bounds.iter().all(|b| self.owned(b, ty));
                let either = crate_bounds
                    .iter()
                    .all(|b| self.borrowed(b, ty) || self.owned(b, ty));
                let rank = if behind_ref {
                    if !all_owned {
                        return None;
                    }
                    1
                } else if all_ref {
                    0
                } else if all_owned && !needs_copy {
                    1
                } else if either {
                    2
                } else {
                    return None;
                };
                Some((rank, usize::MAX - self.breadth(ty), ty))
            })
            .collect();
        ranked.sort();
        let (rank, _, ty) = ranked.first()?;
        Some(if *rank == 1 {
            Meets::Owned(ty.to_string())
        } else {
            Meets::Borrowed(ty.to_string())
        })
    }
}

impl TraitImpls {
    /// Whether `tr` is not a trait of the crate (a bound of std, `Sized`, `Copy`), which the
    /// reader does not check against a type.
    fn is_std(&self, tr: &str) -> bool {
        !self.is_crate_trait(tr)
    }
}

/// The identifiers of trait bounds (`GraphBase`, `Visitable`), arguments dropped.
fn bound_idents<'a>(bs: impl Iterator<Item = &'a syn::TypeParamBound>) -> Vec<String> {
    bs.filter_map(|b| match b {
        syn::TypeParamBound::Trait(tb) => tb.path.segments.last().map(|s| s.ident.to_string()),
        _ => None,
    })
    .collect()
}

impl TraitImpls {
    /// The smallest arity of a tuple of the impl's own parameters the crate implements `tr`
    /// for, if any (see [`TraitImpls::tuples`]).
    pub fn tuple_arity(&self, tr: &str) -> Option<usize> {
        self.tuples.get(tr)?.iter().next().copied()
    }
}
