//! Type aliases: a type registered through a public alias that fixes its parameters, the
//! bounds an alias's parameter takes from what it fills, and aliases of primitives.

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

/// stable-vec's `StableVecFacade<T, C: Core<T>>` has a core parameter no key or integer
/// implements; the crate's public alias `StableVec<T> = StableVecFacade<T, DefaultCore<T>>`
/// fixes it. The type registers under the alias (`StableVec<Key>`), its methods with it;
/// a method taking the fixed parameter is skipped.
#[test]
fn a_type_registers_through_a_public_alias_that_fixes_its_parameter() {
    let lib = r#"
        pub trait Core<T> { fn cap(&self) -> usize; fn empty() -> Self where Self: Sized; }
        pub struct BitVecCore<T> { v: Vec<T> }
        impl<T> Core<T> for BitVecCore<T> { fn cap(&self) -> usize { 0 } fn empty() -> Self { BitVecCore { v: Vec::new() } } }
        pub type DefaultCore<T> = BitVecCore<T>;
        /// A vector whose indices stay stable.
        pub type StableVec<T> = StableVecFacade<T, DefaultCore<T>>;
        pub struct StableVecFacade<T, C: Core<T>> { core: C, t: std::marker::PhantomData<T> }
        impl<T, C: Core<T>> StableVecFacade<T, C> {
            pub fn new() -> Self { Self::from_core(C::empty()) }
            pub fn num_elements(&self) -> usize { 0 }
            /// Runs in O(1).
            pub fn push(&mut self, elem: T) -> usize { 0 }
            pub fn from_core(core: C) -> Self { StableVecFacade { core, t: std::marker::PhantomData } }
            pub fn set_core(&mut self, core: C) {}
            pub fn copied(&self) -> StableVecFacade<T, C> { Self::new() }
        }
    "#;
    let (m, text) = generate(&[("lib.rs", lib)], &[]);
    assert!(text.contains("use ::demo::StableVec;"), "{text}");
    assert!(
        text.contains("pub fn stable_vec() -> StableVec<Key> {"),
        "{text}"
    );
    assert!(text.contains(r#"path: "StableVec","#), "{text}");
    assert!(text.contains("new() => <StableVec<Key>>::new();"), "{text}");
    assert!(
        text.contains(r#"push(mut self, elem: val Key) -> usize ["O(1)"];"#),
        "{text}"
    );
    assert!(
        text.contains("copied(ref self) -> StableVec<Key>;"),
        "{text}"
    );
    assert!(text.contains("// skipped: StableVec::set_core"), "{text}");
    assert!(
        !m.skipped_types.iter().any(|(t, _)| t == "StableVecFacade"),
        "{:?}",
        m.skipped_types
    );
}

/// ena 0.14 names its table through an alias that passes the alias's parameter to another
/// type of the crate, `pub type UnificationTableStorage<K> = UnificationTable<InPlace<K,
/// ..>>` with `InPlace<K: UnifyKey>`: the alias's `K` took the probe key (its own bound was
/// read only where it is passed to the aliased type directly), the harness did not compile
/// ("the trait bound `Key: UnifyKey` is not satisfied", pointed at the registry), and init
/// failed as a whole. The bounds of a parameter passed inside an argument count too: the
/// table is skipped for its bound, and the crate's other types register.
#[test]
fn an_alias_parameter_passed_inside_an_argument_keeps_its_bounds() {
    let lib = r#"
        pub trait UnifyKey: Copy { fn index(&self) -> u32; }
        pub trait Store { type Key; }
        pub struct InPlace<K: UnifyKey, V = Vec<K>> { values: V, k: Option<K> }
        impl<K: UnifyKey, V> Store for InPlace<K, V> { type Key = K; }
        impl<K: UnifyKey> Default for InPlace<K> { fn default() -> Self { InPlace { values: Vec::new(), k: None } } }
        pub struct Table<S: Store> { values: S }
        impl<S: Store + Default> Table<S> {
            pub fn new() -> Self { Table { values: S::default() } }
            pub fn len(&self) -> usize { 0 }
        }
        pub type TableStorage<K> = Table<InPlace<K, Vec<K>>>;
        pub struct Log<T> { v: Vec<T> }
        impl<T> Log<T> {
            pub fn new() -> Self { Log { v: Vec::new() } }
            pub fn push(&mut self, t: T) { self.v.push(t) }
        }
    "#;
    let (m, text) = generate(&[("lib.rs", lib)], &[]);
    let registered: Vec<&str> = m.types.iter().map(|t| t.rust.as_str()).collect();
    assert!(registered.contains(&"Log<Key>"), "{registered:?}\n{text}");
    assert!(
        !registered
            .iter()
            .any(|r| r.contains("TableStorage") || r.contains("InPlace<Key")),
        "{registered:?}\n{text}"
    );
}

/// patricia_tree 0.10 is `GenericPatriciaMap<K: Bytes, V>`, registered through `pub type
/// PatriciaMap<V> = GenericPatriciaMap<Vec<u8>, V>`, and its lookups and updates take keys
/// through the key type's associated type: `insert<Q: AsRef<K::Borrowed>>(&mut self, key: Q,
/// value: V)`, `iter_prefix(&self, prefix: &K::Borrowed)`. Init skipped them all ("generic
/// parameter Q: AsRef<K::Borrowed>"), leaving a map no program could fill. A parameter the
/// alias fixes is the type it fixes it to, and its associated type is what the crate's impl
/// for that type sets (`impl Bytes for Vec<u8> { type Borrowed = [u8]; }`).
#[test]
fn an_alias_fixed_parameters_associated_type_is_the_impls() {
    let lib = r#"
        pub trait Bytes { type Borrowed: ?Sized; }
        impl Bytes for Vec<u8> { type Borrowed = [u8]; }
        impl Bytes for String { type Borrowed = str; }
        pub struct GenericMap<K, V> { keys: Vec<K>, values: Vec<V> }
        pub type Map<V> = GenericMap<Vec<u8>, V>;
        impl<K: Bytes, V> GenericMap<K, V> {
            pub fn new() -> Self { GenericMap { keys: Vec::new(), values: Vec::new() } }
            /// Inserts a key. Runs in O(log n) time.
            pub fn insert<Q: AsRef<K::Borrowed>>(&mut self, key: Q, value: V) -> Option<V> { None }
            pub fn iter_prefix<'a>(&'a self, prefix: &K::Borrowed) -> usize { 0 }
            pub fn take_key(&mut self, key: K) {}
            pub fn len(&self) -> usize { self.values.len() }
        }
    "#;
    let (m, text) = generate(&[("lib.rs", lib)], &[]);
    let map = m.types.iter().find(|t| t.path == "Map").expect(&text);
    for name in ["insert", "iter_prefix", "take_key"] {
        assert!(
            map.methods.iter().any(|f| f.name == name),
            "{name}:\n{text}"
        );
    }
    let insert = text.lines().find(|l| l.contains("insert(")).unwrap();
    assert!(
        insert.contains("key: val String") && insert.contains("O(log n)"),
        "{insert}"
    );
    let prefix = text.lines().find(|l| l.contains("iter_prefix(")).unwrap();
    // `&K::Borrowed` is `&[u8]`: a program string's bytes.
    assert!(
        prefix.contains("prefix: ref String") && prefix.contains("prefix.as_bytes()"),
        "{prefix}"
    );
}

/// fixedbitset 0.5's `with_capacity_and_blocks<I: IntoIterator<Item = Block>>(bits: usize,
/// blocks: I)` names the crate's `pub type Block = usize;`: init skipped it (`Block` "not in
/// the program model"). A public alias of a primitive is that primitive.
#[test]
fn a_public_alias_of_a_primitive_is_the_primitive() {
    let lib = r#"
        pub type Block = usize;
        pub struct Bits { data: Vec<Block> }
        impl Bits {
            pub fn new() -> Self { Bits { data: Vec::new() } }
            pub fn with_blocks<I: IntoIterator<Item = Block>>(bits: usize, blocks: I) -> Self {
                Bits { data: blocks.into_iter().collect() }
            }
            pub fn set_block(&mut self, at: usize, b: Block) {}
            pub fn block(&self, at: usize) -> Block { 0 }
            pub fn len(&self) -> usize { self.data.len() }
        }
        /// Counts ones.
        pub fn ones(b: Block) -> u32 { b.count_ones() }
    "#;
    let (m, text) = generate(&[("lib.rs", lib)], &[]);
    let t = m.types.iter().find(|t| t.path == "Bits").expect(&text);
    assert!(t.ctors.iter().any(|f| f.name == "with_blocks"), "{text}");
    assert!(t.methods.iter().any(|f| f.name == "set_block"), "{text}");
    let line = text.lines().find(|l| l.contains("set_block(")).unwrap();
    assert!(line.contains("b: copy usize"), "{line}");
    let ns = m.types.iter().find(|t| t.path == "crate").expect(&text);
    assert!(ns.methods.iter().any(|f| f.name == "ones"), "{text}");
}
