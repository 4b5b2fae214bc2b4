//! The crate's traits implemented for strings ("extension traits"):
//! `"Hello world".to_kebab_case()` (`impl<T: ?Sized + AsRef<str>> ToKebabCase for T`),
//! `UnicodeSegmentation for str`. Such a crate has no type of its
//! own to build, so `init` refused it ("no public type can be registered") although its
//! whole API takes a string.
//!
//! Each method registers as a free function of a namespace named by the trait
//! (`explore --method ToKebabCase::to_kebab_case`), taking the receiver as its first
//! argument and called by path through the implementing type: `<str as
//! mycrate::ToKebabCase>::to_kebab_case(&text1)` in a printed program and an exported test.
//! Why the qualified path rather than method syntax: the call names the crate, so the
//! namespace belongs to it (`list`'s origin, `hunt --all`), and needs no `use` of the trait;
//! `Trait::f(&text1)` alone would infer `Self = String`, which an impl for `str` does not
//! cover. A program's string grows by appending (see `gen`'s `String` registration).

use quote::ToTokens;

use super::free_fn::FreeFn;

/// The string type a crate trait is implemented for, if `i` is such an impl: `str`, `String`,
/// or a blanket impl over its own parameter bounded by `AsRef<str>` (`str` when the
/// parameter may be unsized, `String` otherwise).
pub(crate) fn string_self(i: &syn::ItemImpl) -> Option<&'static str> {
    let syn::Type::Path(p) = &*i.self_ty else {
        return None;
    };
    let id = p
        .path
        .get_ident()
        .filter(|_| p.qself.is_none())?
        .to_string();
    match id.as_str() {
        "str" => return Some("str"),
        "String" => return Some("String"),
        _ => {}
    }
    let param = i.generics.type_params().find(|t| t.ident == id)?;
    let mut bounds: Vec<String> = param
        .bounds
        .iter()
        .map(|b| b.to_token_stream().to_string().replace(' ', ""))
        .collect();
    for w in i.generics.where_clause.iter().flat_map(|w| &w.predicates) {
        if let syn::WherePredicate::Type(pt) = w {
            if pt.bounded_ty.to_token_stream().to_string() == id {
                bounds.extend(
                    pt.bounds
                        .iter()
                        .map(|b| b.to_token_stream().to_string().replace(' ', "")),
                );
            }
        }
    }
    if !bounds.iter().any(|b| b == "AsRef<str>") {
        return None;
    }
    let other = |b: &String| !["AsRef<str>", "?Sized"].contains(&b.as_str());
    if bounds.iter().any(other) {
        // A bound `String` may not meet (`Copy`): not a string trait.
        return None;
    }
    Some(if bounds.iter().any(|b| b == "?Sized") {
        "str"
    } else {
        "String"
    })
}

/// Whether `i` implements its trait for `String` itself: an impl for `String`, or a blanket
/// impl over `T: AsRef<str>`; an impl for `str` alone does not (see
/// `int_traits::IntTraits::for_string`).
pub(super) fn covers_string(i: &syn::ItemImpl) -> bool {
    let exact_str = matches!(&*i.self_ty, syn::Type::Path(p) if p.path.is_ident("str"));
    string_self(i).is_some() && !exact_str
}

/// The methods `imp` (an impl of the crate's trait at `trait_path` for `self_ty`, already
/// given its methods by `scan::trait_methods`) gives strings, as free functions of the
/// trait's namespace: `&self` becomes a first parameter `text: &str` (or `&String`), `self`
/// by value `text: String` (an impl for `String`). Other receivers are left out.
pub(super) fn methods(
    imp: &syn::ItemImpl,
    self_ty: &'static str,
    trait_path: &[String],
) -> Vec<FreeFn> {
    let mut out = Vec::new();
    for it in &imp.items {
        let syn::ImplItem::Fn(f) = it else { continue };
        let Some(syn::FnArg::Receiver(r)) = f.sig.inputs.first() else {
            continue;
        };
        let text: syn::FnArg = match (&r.kind, self_ty) {
            (syn::ReceiverKind::Reference(_, _, None), "str") => syn::parse_quote!(text: &str),
            (syn::ReceiverKind::Reference(_, _, None), _) => syn::parse_quote!(text: &String),
            (syn::ReceiverKind::Value, "String") => syn::parse_quote!(text: String),
            _ => continue,
        };
        let mut sig = f.sig.clone();
        sig.inputs[0] = text;
        out.push(FreeFn::string_method(
            trait_path.to_vec(),
            sig,
            f.attrs.clone(),
            self_ty,
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn string_impls_are_recognised_and_others_are_not() {
        let of = |src: &str| string_self(&syn::parse_str::<syn::ItemImpl>(src).unwrap());
        assert_eq!(of("impl Tr for str {}"), Some("str"));
        assert_eq!(of("impl Tr for String {}"), Some("String"));
        assert_eq!(of("impl<T: ?Sized + AsRef<str>> Tr for T {}"), Some("str"));
        assert_eq!(
            of("impl<T> Tr for T where T: AsRef<str> {}"),
            Some("String")
        );
        assert_eq!(of("impl<T: AsRef<str> + Copy> Tr for T {}"), None);
        assert_eq!(of("impl<T: Ord> Tr for T {}"), None);
        assert_eq!(of("impl Tr for u64 {}"), None);
        assert_eq!(of("impl Tr for Vec<u8> {}"), None);
        let covers = |src: &str| covers_string(&syn::parse_str::<syn::ItemImpl>(src).unwrap());
        assert!(covers("impl Tr for String {}"));
        assert!(covers("impl<T: ?Sized + AsRef<str>> Tr for T {}"));
        assert!(!covers("impl Tr for str {}"));
    }

    #[test]
    fn receivers_become_the_first_argument() {
        let imp: syn::ItemImpl = syn::parse_str(
            "impl X for str { fn a(&self) -> String { self.to_uppercase() } fn b(&mut self) {} fn c(&self, n: usize) -> bool { true } }",
        )
        .unwrap();
        let fns = methods(&imp, "str", &["case".into(), "ToKebab".into()]);
        let sigs: Vec<String> = fns
            .iter()
            .map(|f| f.sig.to_token_stream().to_string().replace(' ', ""))
            .collect();
        assert_eq!(
            sigs,
            ["fna(text:&str)->String", "fnc(text:&str,n:usize)->bool"]
        );
        assert_eq!(fns[0].path(), "case::ToKebab::a");
        assert_eq!(fns[0].string_self, Some("str"));
    }
}
