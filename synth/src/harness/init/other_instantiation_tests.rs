//! A crate type written at another instantiation than its registration's.

use super::tests::{generate, skipped_file};

/// heapless 0.8.0's `String<N>::into_bytes(self) -> Vec<u8, N>` and `from_utf8(vec: Vec<u8,
/// N>)` name the crate's own `Vec` (imported into the module), registered as `Vec<Key,
/// 8192>`. The first was registered returning that registration, the second as taking std's
/// `Vec<u8>`, and the compiler rejected both. The first now registers with its result
/// dropped (a value the model does not hold), the second is skipped with the reason, before
/// the compiler sees either.
#[test]
fn a_crate_type_written_with_another_primitive_argument_is_not_its_registration() {
    let vec = r#"
        pub struct Vec<T, const N: usize> { xs: [Option<T>; N], len: usize }
        impl<T, const N: usize> Vec<T, N> {
            pub fn new() -> Self { Vec { xs: std::array::from_fn(|_| None), len: 0 } }
            pub fn len(&self) -> usize { self.len }
        }
    "#;
    let string = r#"
        use crate::vec::Vec;
        pub struct String<const N: usize> { vec: Vec<u8, N> }
        impl<const N: usize> String<N> {
            pub fn new() -> Self { String { vec: Vec::new() } }
            pub fn len(&self) -> usize { 0 }
            pub fn from_utf8(vec: Vec<u8, N>) -> Self { String { vec } }
            pub fn into_bytes(self) -> Vec<u8, N> { self.vec }
        }
    "#;
    let lib = "pub mod vec;\npub mod string;\npub use vec::Vec;\npub use string::String;\n";
    let (m, text) = generate(
        &[("lib.rs", lib), ("vec.rs", vec), ("string.rs", string)],
        &[],
    );
    assert!(text.contains("into_bytes(val self) {kept};"), "{text}");
    assert!(!text.contains("from_utf8(vec: val Vec<u8>)"), "{text}");
    let skipped = serde_json::to_string(&skipped_file(&m)).unwrap();
    assert!(
        skipped.contains("another instantiation than the registered"),
        "{skipped}\n{text}"
    );
}

/// heapless's `impl<K, V, S, const N: usize> IndexMap<K, V, BuildHasherDefault<S>, N> { pub
/// fn new() }` was skipped as "defined only for `IndexMap<K,V,BuildHasherDefault<S>,N>`":
/// the harness's fixed hasher `FixedState` is `BuildHasherDefault<DefaultHasher>` (keyed by
/// zeros, deterministic), that very instantiation with `S = DefaultHasher`. An impl fixing the
/// hasher to a random one (`RandomState`) stays another instantiation.
#[test]
fn an_impl_for_a_build_hasher_default_over_its_own_hasher_is_the_harness_hasher() {
    let lib = r#"
        use core::hash::{BuildHasher, BuildHasherDefault, Hasher};
        use std::collections::hash_map::RandomState;
        pub struct IndexMap<K, V, S> { k: Vec<(K, V)>, s: S }
        impl<K, V, S: Default + Hasher> IndexMap<K, V, BuildHasherDefault<S>> {
            pub fn new() -> Self { IndexMap { k: Vec::new(), s: BuildHasherDefault::default() } }
        }
        impl<K, V> IndexMap<K, V, RandomState> {
            pub fn new_random() -> Self { IndexMap { k: Vec::new(), s: RandomState::new() } }
        }
        impl<K: Eq, V, S: BuildHasher> IndexMap<K, V, S> {
            pub fn len(&self) -> usize { self.k.len() }
        }
    "#;
    let (_, text) = generate(&[("lib.rs", lib)], &[]);
    assert!(
        text.contains("new() => <IndexMap<Key,Key,FixedState>>::new();"),
        "{text}"
    );
    assert!(
        text.contains(
            "skipped: IndexMap::new_random: defined only for `IndexMap<K,V,RandomState>`"
        ),
        "{text}"
    );
}

/// heapless imports `hash32::BuildHasherDefault`, another type of the same name: its impl
/// stays another instantiation (taken for std's, the compiler rejected `IndexMap::new`).
#[test]
fn an_impl_for_another_crates_build_hasher_default_is_another_instantiation() {
    let lib = r#"
        pub mod hash32 { pub struct BuildHasherDefault<H>(H); }
        use crate::hash32::BuildHasherDefault;
        pub struct IndexMap<K, V, S> { k: Vec<(K, V)>, s: S }
        impl<K, V, S: Default> IndexMap<K, V, BuildHasherDefault<S>> {
            pub fn new() -> Self { IndexMap { k: Vec::new(), s: BuildHasherDefault(S::default()) } }
        }
        impl<K: Eq, V, S: core::hash::BuildHasher> IndexMap<K, V, S> {
            pub fn with_hasher(s: S) -> Self { IndexMap { k: Vec::new(), s } }
            pub fn len(&self) -> usize { self.k.len() }
        }
    "#;
    let (_, text) = generate(&[("lib.rs", lib)], &[]);
    assert!(
        text.contains(
            "skipped: IndexMap::new: defined only for `IndexMap<K,V,BuildHasherDefault<S>>`"
        ),
        "{text}"
    );
}
