//! Init on API shapes of registry crates tried in the session on strings (heck, similar,
//! unicode-segmentation), each as a small synthetic crate.

use super::tests::generate;

/// heck's API is traits implemented for `str`; a blanket impl over `T: AsRef<str>` counts
/// too. Each method is a function of the trait's namespace, called through the
/// implementing type by path; a crate of only such traits was refused before.
#[test]
fn the_crates_traits_on_strings_register_by_trait() {
    let lib = r#"
        pub trait ToSnakeCase: ToOwned {
            /// Converts to snake case. O(n).
            fn to_snake_case(&self) -> Self::Owned;
        }
        impl ToSnakeCase for str {
            fn to_snake_case(&self) -> String { self.to_lowercase() }
        }
        pub trait Words {
            fn word_count(&self, min: usize) -> usize;
        }
        impl<T: AsRef<str>> Words for T {
            fn word_count(&self, min: usize) -> usize { self.as_ref().split(' ').filter(|w| w.len() >= min).count() }
        }
        pub trait Ordinal { fn ordinal(&self) -> u8; }
        impl Ordinal for u64 { fn ordinal(&self) -> u8 { 0 } }
    "#;
    let (_, text) = generate(&[("lib.rs", lib)], &[]);
    assert!(
        text.contains(r#"to_snake_case(ref self, text: str String) ["O(n)"] as "<str as demo::ToSnakeCase>::to_snake_case(&{text})""#),
        "{text}"
    );
    assert!(
        text.contains(r#"as "<String as demo::Words>::word_count(&{text}, {min})""#),
        "{text}"
    );
    assert!(text.contains(r#"name: "ToSnakeCase""#), "{text}");
    assert!(!text.contains("ordinal"), "not a trait on strings: {text}");
    // Strings grow in a loop.
    assert!(text.contains("push_number(mut self"), "{text}");
}

/// similar's `diff_chars<T: DiffableStrRef + ?Sized>(alg, old: &T, new: &T)`: a function
/// generic over the crate's trait, which the crate implements for `String`, takes strings.
/// An impl for `str` alone does not do (`&T` would be `&String`).
#[test]
fn a_generic_bound_the_crate_implements_for_string_takes_a_string() {
    let lib = r#"
        pub trait DiffableStrRef { fn as_diffable(&self) -> &str; }
        impl DiffableStrRef for str { fn as_diffable(&self) -> &str { self } }
        impl DiffableStrRef for String { fn as_diffable(&self) -> &str { self } }
        pub trait OnlyStr { fn s(&self) -> &str; }
        impl OnlyStr for str { fn s(&self) -> &str { self } }
        /// Diffs two texts. O(n^2).
        pub fn diff_chars<T: DiffableStrRef + ?Sized>(old: &T, new: &T) -> usize { 0 }
        pub fn only<T: OnlyStr + ?Sized>(old: &T) -> usize { 0 }
    "#;
    let (_, text) = generate(&[("lib.rs", lib)], &[]);
    assert!(text.contains("demo::diff_chars(&{old}, &{new})"), "{text}");
    assert!(text.contains("skipped: crate::only"), "{text}");
}
