//! Inline-storage parameters: `SmallVec<A: Array>` and `ArrayVec<A: Array>` take
//! their buffer as a type parameter bounded by a trait of the crate that the crate implements
//! for arrays (`impl<T, const N: usize> Array for [T; N]`, or a `macro_rules!` that writes
//! `impl<T> Array for [T; $size]` for a list of sizes). Such a parameter is instantiated as an
//! array of probe keys, and the trait's associated types that the impl sets to the element
//! (`type Item = T;`) resolve to the key, so `push(&mut self, value: A::Item)` takes a `Key`.

use std::collections::HashMap;

use quote::ToTokens;

/// The length of the array an inline-storage parameter gets when the crate lists the
/// lengths it supports (a macro's size list): the const-parameter default (`instantiate`'s
/// 64), which such lists include (`0x40`); the buffer spills to the heap beyond.
pub const STORAGE_LEN: usize = 64;
/// The length when any length will do (`impl<T, const N: usize> Array for [T; N]`): a
/// fixed-capacity vector (`ArrayVec`) holds at most this many items, so it must
/// exceed the largest size a sweep reaches (4096 and a little more), or every sweep stops
/// at the capacity and the verdict is inconclusive.
pub const ANY_STORAGE_LEN: usize = 8192;

/// A trait the crate implements for arrays.
#[derive(Clone, Debug, Default)]
pub struct ArrayImpl {
    /// The associated types the array impl sets to the element type.
    pub assoc: Vec<String>,
    /// Whether it is implemented for every length (a const-generic impl).
    pub any_len: bool,
}

/// Traits the crate implements for arrays, by identifier.
pub type ArrayTraits = HashMap<String, ArrayImpl>;

/// The Rust type an inline-storage parameter bounded by `traits` is instantiated with, an
/// array of `item` (the probe key, or an integer when the crate bounds the element by a
/// trait the key lacks).
pub fn storage_type(traits: &[&ArrayImpl], item: &str) -> String {
    let len = if traits.iter().all(|t| t.any_len) {
        ANY_STORAGE_LEN
    } else {
        STORAGE_LEN
    };
    format!("[{item}; {len}]")
}

/// Records an array impl of `tr`.
pub fn record(traits: &mut ArrayTraits, tr: String, assoc: Vec<String>, any_len: bool) {
    let e = traits.entry(tr).or_default();
    e.assoc.extend(assoc);
    e.any_len |= any_len;
}

/// The trait and element-typed associated types of `impl<T..> Trait for [T; N] { type Item = T; }`,
/// and whether `N` is the impl's const parameter (every length).
pub fn from_impl(i: &syn::ItemImpl) -> Option<(String, Vec<String>, bool)> {
    let (path, _) = i.trait_.as_ref()?;
    let syn::Type::Array(a) = &*i.self_ty else {
        return None;
    };
    let len = a.len.to_token_stream().to_string();
    let any_len = i
        .generics
        .params
        .iter()
        .any(|p| matches!(p, syn::GenericParam::Const(c) if c.ident == len));
    let elem = a.elem.to_token_stream().to_string();
    let assoc = i
        .items
        .iter()
        .filter_map(|it| match it {
            syn::ImplItem::Type(t) if t.ty.to_token_stream().to_string() == elem => {
                Some(t.ident.to_string())
            }
            _ => None,
        })
        .collect();
    Some((path.segments.last()?.ident.to_string(), assoc, any_len))
}

/// The same, from the body of a `macro_rules!` that writes such impls (its tokens as text).
pub fn from_macro(body: &str) -> Vec<(String, Vec<String>)> {
    let mut spaced = String::new();
    for c in body.chars() {
        if "[](){};=<>,".contains(c) {
            spaced.push(' ');
            spaced.push(c);
            spaced.push(' ');
        } else {
            spaced.push(c);
        }
    }
    let toks: Vec<&str> = spaced.split_whitespace().collect();
    let mut out = Vec::new();
    for i in 1..toks.len().saturating_sub(2) {
        // `impl<..> Trait for [T; ...]`: `impl` a few tokens before the trait.
        if toks[i] != "for" || toks[i + 1] != "[" {
            continue;
        }
        let tr = toks[i - 1];
        let after_impl = toks[i.saturating_sub(12)..i].contains(&"impl");
        if !after_impl || !tr.chars().all(|c| c.is_alphanumeric() || c == '_') {
            continue;
        }
        let elem = toks[i + 2];
        // `type Name = T ;` before the next impl.
        let end = toks[i + 1..]
            .iter()
            .position(|t| *t == "impl")
            .map_or(toks.len(), |p| i + 1 + p);
        let assoc = toks[i..end]
            .windows(5)
            .filter(|w| w[0] == "type" && w[2] == "=" && w[3] == elem && w[4] == ";")
            .map(|w| w[1].to_string())
            .collect();
        out.push((tr.to_string(), assoc));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn array_impls_are_read_from_items_and_macros() {
        let i: syn::ItemImpl = syn::parse_str(
            "unsafe impl<T, const N: usize> Array for [T; N] { type Item = T; type Other = u8; fn size() -> usize { N } }",
        )
        .unwrap();
        assert_eq!(
            from_impl(&i),
            Some(("Array".into(), vec!["Item".into()], true))
        );
        let fixed: syn::ItemImpl =
            syn::parse_str("impl<T> Array for [T; 8] { type Item = T; }").unwrap();
        assert_eq!(from_impl(&fixed).map(|f| f.2), Some(false));
        let not: syn::ItemImpl =
            syn::parse_str("impl<T> Array for Vec<T> { type Item = T; }").unwrap();
        assert_eq!(from_impl(&not), None);
        let m: syn::ItemMacro = syn::parse_str(
            "macro_rules! impl_array { ($($size:expr),+) => { $( unsafe impl<T> Array for [T; $size] { type Item = T; fn size() -> usize { $size } } )+ } }",
        )
        .unwrap();
        assert_eq!(
            from_macro(&m.mac.tokens.to_string()),
            vec![("Array".to_string(), vec!["Item".to_string()])]
        );
        assert!(from_macro("impl<T> Show for Vec<T> { }").is_empty());
    }
}
