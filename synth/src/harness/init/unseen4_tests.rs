//! Init on API shapes of registry crates tried in the "unseen2" session (lru,
//! priority-queue, string-interner, roaring), each as a small synthetic crate.

use super::tests::generate;

/// string-interner's `StringInterner<B: Backend, H = DefaultHashBuilder>` has no default
/// for `B` and no integer implements `Backend`, so it registers through `pub type
/// DefaultStringInterner<B = DefaultBackend, H = DefaultHashBuilder>`. The alias's own
/// parameters carry no bounds (Rust does not check them on aliases): they must take the
/// bounds of the type's parameters they are passed as, or `B` became the probe key and `H`
/// the key too (`Key: Backend` is not satisfied; init failed as a whole). `B` then takes its
/// declared default, itself an alias (`DefaultBackend`), and `H` the harness's hasher.
#[test]
fn an_alias_parameter_takes_the_bounds_of_the_parameter_it_fills() {
    let lib = r#"
        pub trait Backend: Default { fn intern(&mut self, s: &str) -> usize; }
        pub mod backend {
            #[derive(Default)]
            pub struct StringBackend<S = usize> { v: Vec<S> }
            impl<S: Default> crate::Backend for StringBackend<S> {
                fn intern(&mut self, s: &str) -> usize { 0 }
            }
        }
        pub type DefaultBackend = backend::StringBackend<usize>;
        pub struct DefaultHashBuilder;
        pub struct StringInterner<B, H = DefaultHashBuilder>
        where
            B: Backend,
        {
            backend: B,
            hasher: H,
        }
        impl<B, H> StringInterner<B, H>
        where
            B: Backend,
            H: core::hash::BuildHasher + Default,
        {
            pub fn new() -> Self { StringInterner { backend: B::default(), hasher: H::default() } }
            pub fn len(&self) -> usize { 0 }
            /// Runs in O(1).
            pub fn get_or_intern_len(&mut self, n: usize) -> usize { n }
        }
        pub type DefaultStringInterner<B = DefaultBackend, H = DefaultHashBuilder> =
            StringInterner<B, H>;
    "#;
    let (_, text) = generate(&[("lib.rs", lib)], &[]);
    assert!(
        text.contains("-> DefaultStringInterner<demo::DefaultBackend,FixedState>"),
        "{text}"
    );
    assert!(!text.contains("DefaultStringInterner<Key"), "{text}");
    assert!(text.contains("get_or_intern_len("), "{text}");
}

/// string-interner's `get_or_intern<T: AsRef<str>>(&mut self, string: T)`, the crate's main
/// method, takes a program's string (it was skipped: "neither the probe key nor a closure");
/// `get_or_intern_static(&mut self, string: &'static str)` is skipped with its reason (it was
/// registered with a borrowed string, and the harness did not compile as a whole).
#[test]
fn string_like_generics_take_a_string_and_static_references_are_skipped() {
    let lib = r#"
        pub struct Interner { v: Vec<String> }
        impl Interner {
            pub fn new() -> Self { Interner { v: Vec::new() } }
            pub fn len(&self) -> usize { self.v.len() }
            pub fn get_or_intern<T>(&mut self, string: T) -> usize where T: AsRef<str> {
                self.v.push(string.as_ref().to_string());
                self.v.len()
            }
            pub fn push_named<N: Into<String> + Clone>(&mut self, name: N) { self.v.push(name.into()) }
            pub fn get_or_intern_static(&mut self, string: &'static str) -> usize { self.v.len() }
        }
    "#;
    let (_, text) = generate(&[("lib.rs", lib)], &[]);
    assert!(
        text.contains("get_or_intern(mut self, string: val String) -> usize"),
        "{text}"
    );
    assert!(
        text.contains("push_named(mut self, name: val String)"),
        "{text}"
    );
    assert!(
        text.contains(
            "skipped: Interner::get_or_intern_static: parameter `string`: a `&'static` reference"
        ),
        "{text}"
    );
}

/// lru states its classes once, in the crate doc: "The cache supports `get`, `get_mut`,
/// `put`, and `pop` operations, all of which are O(1)." Those methods are documented O(1)
/// (every method was `undocumented`, so a hunt could find nothing); a method the sentence
/// does not name stays undocumented, and a method's own doc wins.
#[test]
fn a_crate_doc_sentence_naming_methods_gives_them_its_class() {
    let lib = r#"
        //! An implementation of a LRU cache. The cache supports `get`, `get_mut`, `put`,
        //! and `pop` operations, all of which are O(1). This crate was influenced by std.
        pub struct LruCache { v: Vec<u64> }
        impl LruCache {
            pub fn new() -> Self { LruCache { v: Vec::new() } }
            pub fn len(&self) -> usize { self.v.len() }
            pub fn put(&mut self, k: u64) { self.v.push(k) }
            pub fn get(&self, k: u64) -> bool { self.v.contains(&k) }
            /// Takes O(n) time.
            pub fn pop(&mut self, k: u64) { self.v.retain(|x| *x != k) }
            pub fn clear(&mut self) { self.v.clear() }
        }
    "#;
    let (_, text) = generate(&[("lib.rs", lib)], &[]);
    assert!(
        text.contains(r#"put(mut self, k: copy u64) ["O(1)"];"#),
        "{text}"
    );
    assert!(
        text.contains(r#"get(ref self, k: copy u64) -> bool ["O(1)"];"#),
        "{text}"
    );
    assert!(
        text.contains(r#"pop(mut self, k: copy u64) ["O(n)"];"#),
        "{text}"
    );
    assert!(text.contains("clear(mut self);"), "{text}");
}

/// fixedbitset's range methods take `T: IndexRange`, the crate's own trait implemented for
/// `Range<T>` and the other range types: they register with a `start..end` of `usize` (8
/// methods were skipped: "neither the probe key nor a closure the model builds").
#[test]
fn a_crate_trait_implemented_for_range_takes_a_range() {
    let lib = r#"
        use core::ops::{Range, RangeFull};
        pub trait IndexRange<T = usize> {
            fn start(&self) -> Option<T> { None }
            fn end(&self) -> Option<T> { None }
        }
        impl<T> IndexRange<T> for RangeFull {}
        impl<T: Copy> IndexRange<T> for Range<T> {
            fn start(&self) -> Option<T> { Some(self.start) }
            fn end(&self) -> Option<T> { Some(self.end) }
        }
        pub struct FixedBitSet { v: Vec<bool> }
        impl FixedBitSet {
            pub fn new() -> Self { FixedBitSet { v: Vec::new() } }
            pub fn len(&self) -> usize { self.v.len() }
            pub fn count_ones<T: IndexRange>(&self, range: T) -> usize { 0 }
            pub fn set_range<T: IndexRange>(&mut self, range: T, enabled: bool) {}
        }
    "#;
    let (_, text) = generate(&[("lib.rs", lib)], &[]);
    assert!(text.contains("count_ones(ref self, range:"), "{text}");
    assert!(text.contains("set_range(mut self, range:"), "{text}");
    assert!(!text.contains("skipped: FixedBitSet::count_ones"), "{text}");
}

/// string-interner's `impl Default for StringInterner<DefaultBackend>` leaves the hasher at
/// its default (`DefaultHashBuilder`), which the harness replaces with its fixed one: it is
/// not a constructor of `StringInterner<DefaultBackend, FixedState>` and is skipped with its
/// reason (registered, the compiler rejected it and init built the worker a second time). A
/// generic `impl<T> Default for Bag<T>` still is one.
#[test]
fn a_default_impl_for_another_instantiation_is_not_a_constructor() {
    let lib = r#"
        pub struct DefaultHashBuilder;
        pub struct Interner<H = DefaultHashBuilder> { hasher: H, v: Vec<String> }
        impl Default for Interner<DefaultHashBuilder> {
            fn default() -> Self { Interner { hasher: DefaultHashBuilder, v: Vec::new() } }
        }
        impl<H: core::hash::BuildHasher + Default> Interner<H> {
            pub fn with_hasher(hasher: H) -> Self { Interner { hasher, v: Vec::new() } }
            pub fn len(&self) -> usize { self.v.len() }
        }
        pub struct Bag<T> { v: Vec<T> }
        impl<T> Default for Bag<T> { fn default() -> Self { Bag { v: Vec::new() } } }
        impl<T> Bag<T> { pub fn len(&self) -> usize { self.v.len() } }
    "#;
    let (_, text) = generate(&[("lib.rs", lib)], &[]);
    assert!(
        text.contains("pub fn interner() -> Interner<FixedState>"),
        "{text}"
    );
    assert!(!text.contains("default() => <Interner"), "{text}");
    assert!(
        text.contains("skipped: Interner::default: `Default` is implemented only for"),
        "{text}"
    );
    assert!(
        text.contains("default() => <Bag<Key>>::default();"),
        "{text}"
    );
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
