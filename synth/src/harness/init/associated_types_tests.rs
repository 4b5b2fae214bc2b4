//! Associated types: a projection (`Self::Item`, `<A as Trait>::Item`) resolved to what the
//! impl sets it to, and named readably where it cannot be.

use super::tests::generate;

/// indexmap's `MutableKeys::get_full_mut2<Q>(&mut self, key: &Q)` bounds `Q` by
/// `Equivalent<Self::Key>`, the associated type its impl fixes (`type Key = K`): init read
/// `Self::Key` as no parameter of the type and skipped it ("neither the probe key nor a
/// closure"), where the inherent `get_full_mut` with `Equivalent<K>` registered. A trait's
/// `Self::X` reads as the impl's `type X`.
#[test]
fn a_trait_methods_self_assoc_type_is_the_impls() {
    let lib = r#"
        pub trait Equivalent<K: ?Sized> { fn equivalent(&self, key: &K) -> bool; }
        pub trait MutableKeys {
            type Key;
            /// Finds a key. Computes in O(1) time (average).
            fn get_mut2<Q: ?Sized + Equivalent<Self::Key>>(&mut self, key: &Q) -> Option<&mut Self::Key>;
        }
        pub struct Map<K> { v: Vec<K> }
        impl<K> Map<K> {
            pub fn new() -> Self { Map { v: Vec::new() } }
            pub fn get_mut<Q: ?Sized + Equivalent<K>>(&mut self, key: &Q) -> Option<&mut K> { None }
        }
        impl<K> MutableKeys for Map<K> {
            type Key = K;
            fn get_mut2<Q: ?Sized + Equivalent<Self::Key>>(&mut self, key: &Q) -> Option<&mut K> { None }
        }
    "#;
    let (m, text) = generate(&[("lib.rs", lib)], &[]);
    let map = m.types.iter().find(|t| t.path == "Map").expect(&text);
    for name in ["get_mut", "get_mut2"] {
        assert!(
            map.methods.iter().any(|f| f.name == name),
            "{name}:\n{text}"
        );
    }
    let line = text.lines().find(|l| l.contains("get_mut2(")).unwrap();
    assert!(line.contains("O(1)"), "{line}");
}

/// A skip reason names a projection as written: string-interner's `resolve(&self, symbol:
/// <B as Backend>::Symbol)` read "type `<BasBackend>::Symbol`".
#[test]
fn a_skip_reason_names_a_projection_readably() {
    let lib = r#"
        pub trait Backend { type Symbol; }
        pub struct Interner<B: Backend> { b: B }
        impl Backend for u64 { type Symbol = u32; }
        impl<B: Backend> Interner<B> {
            pub fn len(&self) -> usize { 0 }
            pub fn resolve(&self, symbol: <B as Backend>::Symbol) -> usize { 0 }
        }
        impl Interner<u64> { pub fn new() -> Self { Interner { b: 0 } } }
    "#;
    let (_, text) = generate(&[("lib.rs", lib)], &[]);
    assert!(
        text.contains("type `<B as Backend>::Symbol` is not in the program model"),
        "{text}"
    );
}

/// Inline storage as a type parameter (smallvec's `SmallVec<A: Array>`, whose array impls
/// a `macro_rules!` writes) is an array of keys, and `A::Item` (also written
/// `<A as Array>::Item`) is the key: the type registers with its element methods.
#[test]
fn an_inline_storage_parameter_is_an_array_of_keys() {
    let lib = r#"
        pub unsafe trait Array { type Item; fn size() -> usize; }
        macro_rules! impl_array {
            ($($size:expr),+) => { $( unsafe impl<T> Array for [T; $size] { type Item = T; fn size() -> usize { $size } } )+ }
        }
        impl_array!(0, 1, 2, 0x40);
        pub struct Small<A: Array> { len: usize, data: Vec<A::Item> }
        impl<A: Array> Small<A> {
            pub fn new() -> Small<A> { Small { len: 0, data: Vec::new() } }
            /// Amortized O(1).
            pub fn push(&mut self, value: A::Item) { self.data.push(value) }
            pub fn contains(&self, x: &<A as Array>::Item) -> bool { false }
            pub fn retain<F: FnMut(&mut A::Item) -> bool>(&mut self, f: F) {}
            pub fn len(&self) -> usize { self.len }
        }
    "#;
    let (m, text) = generate(&[("lib.rs", lib)], &[]);
    let registered: Vec<&str> = m.types.iter().map(|t| t.rust.as_str()).collect();
    assert_eq!(registered, ["Small<[Key; 64]>"], "{text}");
    // Implemented for every length, a fixed-capacity buffer outgrows the sweep's sizes.
    let any = lib.replace("impl_array!(0, 1, 2, 0x40);", "unsafe impl<T, const N: usize> Array for [T; N] { type Item = T; fn size() -> usize { N } }");
    let (m2, text2) = generate(&[("lib.rs", &any)], &[]);
    let registered: Vec<&str> = m2.types.iter().map(|t| t.rust.as_str()).collect();
    assert_eq!(registered, ["Small<[Key; 8192]>"], "{text2}");
    assert!(
        text.contains(r#"push(mut self, value: val Key) ["O(1) amortized"];"#),
        "{text}"
    );
    assert!(
        text.contains("contains(ref self, x: ref Key) -> bool;"),
        "{text}"
    );
    assert!(text.contains("retain(mut self, f: copy u8) as"), "{text}");
    assert_eq!(m.methods(), 4, "{text}");
}
