//! Init on API shapes of registry crates perfsyn had not been tried on (intmap, radix_trie,
//! petgraph, ropey), each as a small synthetic crate.

use super::tests::generate;

/// intmap's `IntMap<K: IntKey, V>`: the crate implements its key trait for `u64` through a
/// macro, so `K` is `u64` and the map registers.
#[test]
fn a_key_trait_the_crate_implements_for_u64_by_macro_takes_u64() {
    let lib = r#"
        pub trait IntKey: Copy { fn to_int(self) -> u64; }
        macro_rules! impl_int_key { ($t:ident) => { impl IntKey for $t { fn to_int(self) -> u64 { self as u64 } } }; }
        impl_int_key!(u32);
        impl_int_key!(u64);
        pub struct IntMap<K, V> { v: Vec<(K, V)> }
        impl<K: IntKey, V> IntMap<K, V> {
            pub fn new() -> Self { IntMap { v: Vec::new() } }
            /// Runs in O(1).
            pub fn insert(&mut self, k: K, v: V) {}
        }
    "#;
    let (m, text) = generate(&[("lib.rs", lib)], &[]);
    assert!(m.skipped_types.is_empty(), "{:?}", m.skipped_types);
    assert!(
        text.contains("pub fn int_map() -> IntMap<u64,Key>"),
        "{text}"
    );
    assert!(
        text.contains(r#"insert(mut self, k: copy u64, v: val Key) ["O(1)"];"#),
        "{text}"
    );
}

/// petgraph's `UnionFind<K: IndexType>` (implemented for usize, u32, u16, u8) takes usize,
/// its `GraphMap<N: NodeTrait, Ty: EdgeType>` u64 (a blanket impl over `Copy + Ord + Hash`)
/// and `Directed` (a type of the crate implementing `EdgeType`); `Graph<N, Ix: IndexType =
/// DefaultIx>` keeps its declared default; a key trait
/// implemented for no integer the model builds leaves the type skipped, with the reason.
#[test]
fn a_key_trait_takes_an_integer_the_crate_implements_it_for() {
    let lib = r#"
        pub trait IndexType: Copy {}
        unsafe impl IndexType for usize {}
        unsafe impl IndexType for u16 {}
        pub struct UnionFind<K> { v: Vec<K> }
        impl<K: IndexType> UnionFind<K> { pub fn new(n: usize) -> Self { UnionFind { v: Vec::new() } } }
        pub trait NodeTrait: Copy + Ord {}
        impl<N> NodeTrait for N where N: Copy + Ord + std::hash::Hash {}
        pub trait EdgeType {}
        #[derive(Default)]
        pub struct Directed;
        impl EdgeType for Directed {}
        pub struct GraphMap<N: NodeTrait, Ty: EdgeType> { v: Vec<N>, t: std::marker::PhantomData<Ty> }
        impl<N: NodeTrait, Ty: EdgeType> GraphMap<N, Ty> { pub fn new() -> Self { GraphMap { v: Vec::new(), t: std::marker::PhantomData } } }
        pub type DefaultIx = u32;
        pub struct Graph<N, Ix: IndexType = DefaultIx> { v: Vec<N>, i: std::marker::PhantomData<Ix> }
        impl<N, Ix: IndexType> Graph<N, Ix> { pub fn new() -> Self { Graph { v: Vec::new(), i: std::marker::PhantomData } } }
        pub trait SmallKey: Copy {}
        impl SmallKey for u16 {}
        pub struct SmallMap<K> { v: Vec<K> }
        impl<K: SmallKey> SmallMap<K> { pub fn new() -> Self { SmallMap { v: Vec::new() } } }
    "#;
    let (m, text) = generate(&[("lib.rs", lib)], &[]);
    assert!(
        text.contains("pub fn union_find() -> UnionFind<usize>"),
        "{text}"
    );
    assert!(
        text.contains("pub fn graph_map() -> GraphMap<u64,demo::Directed>"),
        "{text}"
    );
    // The declared default wins over a guessed integer (named through its public alias).
    assert!(
        text.contains("pub fn graph() -> Graph<Key,demo::DefaultIx>"),
        "{text}"
    );
    assert_eq!(m.skipped_types.len(), 1, "{:?}", m.skipped_types);
    assert!(
        m.skipped_types[0].1.to_string().contains("needs SmallKey"),
        "{:?}",
        m.skipped_types
    );
}

/// petgraph's `impl<B> Control<B> { pub fn breaking() -> Control<()> }`: a function returning
/// another instantiation of the type is not a constructor of the registered one.
#[test]
fn a_function_returning_another_instantiation_is_not_a_constructor() {
    let lib = r#"
        pub enum Control<B> { Continue, Break(B) }
        impl<B> Default for Control<B> { fn default() -> Self { Control::Continue } }
        impl<B> Control<B> {
            pub fn breaking() -> Control<()> { Control::Break(()) }
            pub fn again() -> Control<B> { Control::Continue }
        }
    "#;
    let (_, text) = generate(&[("lib.rs", lib)], &[]);
    assert!(!text.contains("breaking() =>"), "{text}");
    assert!(text.contains("again() =>"), "{text}");
    assert!(
        text.contains(
            "// skipped: Control::breaking: associated function that does not return Control"
        ),
        "{text}"
    );
}

/// ropey's `Rope` has `len_bytes()` and `len_chars()` but no `len()`; another type has
/// `size()`: each gets a size function, `len()` first when there is one.
#[test]
fn a_type_without_len_is_measured_by_size_or_a_len_method() {
    let lib = r#"
        pub struct Rope { s: String }
        impl Rope {
            pub fn new() -> Self { Rope { s: String::new() } }
            pub fn len_bytes(&self) -> usize { self.s.len() }
            pub fn len_chars(&self) -> usize { self.s.chars().count() }
        }
        pub struct Graph { n: u32 }
        impl Graph {
            pub fn new() -> Self { Graph { n: 0 } }
            pub fn width(&self) -> usize { 0 }
            pub fn size(&self) -> u32 { self.n }
        }
        pub struct Bag { v: Vec<u64> }
        impl Bag {
            pub fn new() -> Self { Bag { v: Vec::new() } }
            pub fn len_hint(&self, extra: usize) -> usize { extra }
            pub fn len_items(&self) -> usize { self.v.len() }
            pub fn len(&self) -> usize { self.v.len() }
        }
    "#;
    let (_, text) = generate(&[("lib.rs", lib)], &[]);
    let size_of = |ty: &str| {
        let at = text.find(&format!("path: \"{ty}\"")).unwrap();
        text[at..].lines().nth(1).unwrap().trim().to_string()
    };
    assert_eq!(
        size_of("Rope"),
        "size: [|v| v.len_bytes() as u64],",
        "{text}"
    );
    assert_eq!(size_of("Graph"), "size: [|v| v.size() as u64],", "{text}");
    assert_eq!(size_of("Bag"), "size: [|v| v.len() as u64],", "{text}");
}

/// ropey's `line(i)` is O(log n) and returns a borrowing slice whose `len_bytes()` is O(1):
/// the chained call `line(i).len_bytes()` is expected O(log n), not O(1).
#[test]
fn a_chained_call_is_expected_to_cost_its_costlier_half() {
    let lib = r#"
        pub struct Rope { s: String }
        pub struct Slice<'a> { s: &'a str }
        impl<'a> Slice<'a> {
            /// Runs in O(1) time.
            pub fn len_bytes(&self) -> usize { self.s.len() }
            /// Runs in O(n) time.
            pub fn count_spaces(&self) -> usize { 0 }
            pub fn first(&self) -> usize { 0 }
        }
        impl Rope {
            pub fn new() -> Self { Rope { s: String::new() } }
            /// Runs in O(log n) time.
            pub fn line(&self, i: usize) -> Slice<'_> { Slice { s: &self.s } }
        }
    "#;
    let (_, text) = generate(&[("lib.rs", lib)], &[]);
    assert!(
        text.contains(r#"line_len_bytes(ref self, i: copy usize) -> usize ["O(log n)"]"#),
        "{text}"
    );
    assert!(
        text.contains(r#"line_count_spaces(ref self, i: copy usize) -> usize ["O(n)"]"#),
        "{text}"
    );
    // Undocumented second half: no class (the first's is a lower bound only).
    assert!(
        text.contains(r#"line_first(ref self, i: copy usize) -> usize as"#),
        "{text}"
    );
}

/// petgraph's `MatrixGraph<N, E, #[cfg(not(feature = "std"))] S, #[cfg(feature = "std")] S =
/// RandomState, Ty = Directed, ..>`: one `S` under the default features, so `Ty` keeps its
/// place.
#[test]
fn a_generic_parameter_switched_off_by_cfg_is_not_counted() {
    let lib = r#"
        pub struct Directed;
        pub struct Grid<N, #[cfg(not(feature = "std"))] S, #[cfg(feature = "std")] S = std::hash::RandomState, Ty = Directed> {
            v: Vec<N>, s: S, t: std::marker::PhantomData<Ty>,
        }
        impl<N, S: std::hash::BuildHasher + Default, Ty> Grid<N, S, Ty> {
            pub fn with_hasher(s: S) -> Self { Grid { v: Vec::new(), s, t: std::marker::PhantomData } }
            pub fn count(&self) -> usize { 0 }
        }
        impl<N, S: std::hash::BuildHasher + Default, Ty: Default> Default for Grid<N, S, Ty> {
            fn default() -> Self { Grid::with_hasher(S::default()) }
        }
    "#;
    let (_, text) = generate(&[("lib.rs", lib)], &["std"]);
    assert!(
        text.contains("pub fn grid() -> Grid<Key,FixedState,Key> {"),
        "{text}"
    );
}
