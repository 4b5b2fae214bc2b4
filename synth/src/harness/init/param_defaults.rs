//! Defaults that name earlier parameters: `MatrixGraph<N, E, S = RandomState, Ty = Directed,
//! Null: Nullable<Wrapped = E> = Option<E>, Ix = DefaultIx>`. A default the harness could not
//! name was left to the compiler (omitted), which only works for trailing parameters; `Null`
//! is followed by `Ix`, and the type was skipped as `unnameable_default` with its 31 methods.
//!
//! Such a default is written with the parameters it names replaced by their instantiation
//! (`Option<Key>`), when every other name in it is one the harness can write: a primitive,
//! a prelude type (`Option`, `Vec`, `Box`, `String`) or a type of the crate (by its full
//! path). A hasher parameter defaulting to a randomly keyed state (`S = RandomState`) is not
//! this rule's: its `BuildHasher` bound already gives it the harness's deterministic
//! `FixedState` (see [`instantiate`](super::instantiate)).

use std::collections::HashMap;

use proc_macro2::{TokenStream, TokenTree};
use quote::ToTokens;

/// Names a default may use as they are.
const AS_WRITTEN: &[&str] = &[
    "Option", "Vec", "Box", "String", "u8", "u16", "u32", "u64", "u128", "usize", "i8", "i16",
    "i32", "i64", "i128", "isize", "bool", "char",
];

/// `default` with each parameter of `subst` it names replaced by its instantiation and each
/// type of the crate (`named`, by identifier) by its full path; `None` when it names anything
/// else, or a parameter left to the compiler (instantiated as `omitted`).
pub fn written(
    default: &syn::Type,
    subst: &HashMap<String, String>,
    named: &HashMap<String, String>,
    omitted: &str,
) -> Option<String> {
    let mut with: HashMap<String, TokenStream> = HashMap::new();
    if !nameable(default.to_token_stream(), subst, named, omitted, &mut with) {
        return None;
    }
    let out = super::scan::replace_idents(default.to_token_stream(), &with);
    Some(out.to_string().replace(' ', ""))
}

/// Whether `default` (as an impl leaves it out) is `chosen` once the parameters it names take
/// their instantiation (`Option<E>` is `Option<Key>`).
pub fn is_chosen(default: &syn::Type, subst: &HashMap<String, String>, chosen: &str) -> bool {
    let names_param = idents(default.to_token_stream())
        .iter()
        .any(|i| subst.contains_key(i));
    names_param && written(default, subst, &HashMap::new(), "").as_deref() == Some(chosen)
}

fn nameable(
    tokens: TokenStream,
    subst: &HashMap<String, String>,
    named: &HashMap<String, String>,
    omitted: &str,
    with: &mut HashMap<String, TokenStream>,
) -> bool {
    idents(tokens).into_iter().all(|i| {
        let pick = match subst.get(&i) {
            Some(p) if p == omitted => return false,
            Some(p) => p,
            None if AS_WRITTEN.contains(&i.as_str()) => return true,
            None => match named.get(&i) {
                Some(p) => p,
                None => return false,
            },
        };
        match syn::parse_str::<TokenStream>(pick) {
            Ok(t) => {
                with.insert(i, t);
                true
            }
            Err(_) => false,
        }
    })
}

/// Every identifier of `tokens`, groups included.
fn idents(tokens: TokenStream) -> Vec<String> {
    let mut out = Vec::new();
    for tt in tokens {
        match tt {
            TokenTree::Ident(i) => out.push(i.to_string()),
            TokenTree::Group(g) => out.extend(idents(g.stream())),
            _ => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ty(t: &str) -> syn::Type {
        syn::parse_str(t).unwrap()
    }

    #[test]
    fn a_default_naming_a_parameter_takes_its_instantiation() {
        let subst: HashMap<String, String> = [("E".to_string(), "Key".to_string())].into();
        let named: HashMap<String, String> =
            [("Wrap".to_string(), "demo::Wrap".to_string())].into();
        assert_eq!(
            written(&ty("Option<E>"), &subst, &named, "_").as_deref(),
            Some("Option<Key>")
        );
        assert_eq!(
            written(&ty("Wrap<E, u16>"), &subst, &named, "_").as_deref(),
            Some("demo::Wrap<Key,u16>")
        );
        assert_eq!(written(&ty("Other<E>"), &subst, &named, "_"), None);
        let omitted: HashMap<String, String> = [("E".to_string(), "_".to_string())].into();
        assert_eq!(written(&ty("Option<E>"), &omitted, &named, "_"), None);
        assert!(is_chosen(&ty("Option<E>"), &subst, "Option<Key>"));
        assert!(!is_chosen(&ty("Option<E>"), &subst, "Option<u64>"));
    }

    /// A matrix graph whose `Null = Option<E>` default precedes another parameter: it
    /// registers at `Option<Key>`, and the block that leaves `Null` to its default is that
    /// instantiation's.
    #[test]
    fn a_type_whose_default_names_an_earlier_parameter_registers() {
        let lib = r#"
            pub trait Nullable: Default { type Wrapped; }
            impl<T> Nullable for Option<T> { type Wrapped = T; }
            pub trait EdgeType {}
            pub trait IndexType {}
            impl IndexType for u16 {}
            pub struct Directed;
            impl EdgeType for Directed {}
            pub struct Matrix<N, E, Ty: EdgeType = Directed, Null: Nullable<Wrapped = E> = Option<E>, Ix = u16> {
                n: Vec<N>, e: Vec<Null>, t: std::marker::PhantomData<(Ty, Ix)>,
            }
            impl<N, E> Matrix<N, E, Directed> {
                pub fn new() -> Self { Matrix { n: Vec::new(), e: Vec::new(), t: std::marker::PhantomData } }
            }
            impl<N, E, Ty: EdgeType, Null: Nullable<Wrapped = E>, Ix: IndexType> Matrix<N, E, Ty, Null, Ix> {
                pub fn node_count(&self) -> usize { self.n.len() }
            }
        "#;
        let (_, text) = crate::harness::init::tests::generate(&[("lib.rs", lib)], &[]);
        assert!(
            text.contains("pub fn matrix() -> Matrix<Key,Key,demo::Directed,Option<Key>,u16> {"),
            "{text}"
        );
        assert!(text.contains("new() =>"), "{text}");
        assert!(text.contains("node_count(ref self)"), "{text}");
    }
}
