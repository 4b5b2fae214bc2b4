//! Owning iterators reached by the consuming method that returns them. A collection's
//! `impl IntoIterator for Coll<T>` (by value) hands out the crate's own iterator type
//! (`type IntoIter = IntoIter<T, CAP>`), which has no constructor of its own and public
//! methods besides `next` (`as_slice`, `as_mut_slice`). Trait impls of std's traits are not
//! read as the type's API, so nothing returned that type and its methods were never
//! reached. Here the impl's `into_iter` is read as the inherent method a caller writes
//! (`coll.into_iter()`), `Self::IntoIter` and `Self::Item` written as the impl fixes them:
//! it registers as a consuming method (its iterator walked, as any returned iterator), and
//! [`chain`](super::chain) reaches the iterator's methods through it
//! (`coll.into_iter().as_slice()`), as it reaches any type through the methods returning it.
//! Impls for references (`impl IntoIterator for &Coll<T>`) are not the type's and stay out.

/// The `into_iter` of `imp`, an `impl IntoIterator for X` (by value), as an inherent impl
/// of `X` would declare it: public, returning the impl's `IntoIter` type. `None` for any other impl, or one whose `into_iter` does not take `self`.
pub fn into_iter_method(imp: &syn::ItemImpl) -> Option<syn::ItemImpl> {
    let (path, _) = imp.trait_.as_ref()?;
    if path.segments.last()?.ident != "IntoIterator" || !matches!(*imp.self_ty, syn::Type::Path(_))
    {
        return None;
    }
    // The iterator the impl names (`type IntoIter = IntoIter<T, CAP>;`): the return type,
    // however the signature writes it (`Self::IntoIter`, or the type itself).
    let iter = imp.items.iter().find_map(|it| match it {
        syn::ImplItem::Type(t) if t.ident == "IntoIter" && t.generics.params.is_empty() => {
            Some(t.ty.clone())
        }
        _ => None,
    })?;
    let f = imp.items.iter().find_map(|it| match it {
        syn::ImplItem::Fn(f) if f.sig.ident == "into_iter" => Some(f),
        _ => None,
    })?;
    let by_value = f
        .sig
        .receiver()
        .is_some_and(|r| matches!(r.kind, syn::ReceiverKind::Value));
    if !by_value {
        return None;
    }
    let mut sig = f.sig.clone();
    sig.output = syn::parse_quote!(-> #iter);
    let mut out = imp.clone();
    out.trait_ = None;
    out.items = vec![syn::ImplItem::Fn(syn::ImplItemFn {
        vis: syn::parse_quote!(pub),
        sig,
        ..f.clone()
    })];
    Some(out)
}
