//! Impl blocks that fix a type parameter register the type again at that instantiation.

use super::tests::generate;

/// A graph generic over its edge kind, the harness's instantiation `Directed`:
/// `impl<N, E> Graph<N, E, Undirected>` holds `new_undirected` and `degree`, skipped before
/// as defined for another instantiation.
const GRAPH: &str = r#"
    use std::marker::PhantomData;
    pub trait EdgeType { fn directed() -> bool; }
    pub struct Directed;
    pub struct Undirected;
    impl EdgeType for Directed { fn directed() -> bool { true } }
    impl EdgeType for Undirected { fn directed() -> bool { false } }
    pub struct Graph<N, E, Ty = Directed> { n: Vec<N>, e: Vec<E>, ty: PhantomData<Ty> }
    impl<N, E> Graph<N, E, Directed> {
        pub fn new() -> Self { Graph { n: Vec::new(), e: Vec::new(), ty: PhantomData } }
    }
    impl<N, E> Graph<N, E, Undirected> {
        pub fn new_undirected() -> Self { Graph { n: Vec::new(), e: Vec::new(), ty: PhantomData } }
        pub fn degree(&self) -> usize { self.e.len() }
    }
    impl<N, E, Ty: EdgeType> Graph<N, E, Ty> {
        pub fn add_node(&mut self, w: N) { self.n.push(w) }
        pub fn node_count(&self) -> usize { self.n.len() }
    }
"#;

#[test]
fn an_impl_block_fixing_a_parameter_registers_a_second_instantiation() {
    let (m, text) = generate(&[("lib.rs", GRAPH)], &[]);
    // The main instantiation as before, with the fixed block's items no longer skipped.
    assert!(
        text.contains("pub fn graph() -> Graph<Key,Key,demo::Directed> {"),
        "{text}"
    );
    assert!(!text.contains("skipped: Graph::new_undirected"), "{text}");
    assert!(!text.contains("skipped: Graph::degree"), "{text}");
    // The second, with its own path, its block's constructor and every applicable method.
    let second = text
        .split("pub fn graph_undirected() -> Graph<Key,Key,demo::Undirected> {")
        .nth(1)
        .unwrap_or_else(|| panic!("{text}"));
    let second = second.split("pub fn graph()").next().unwrap();
    assert!(second.contains("path: \"Graph<Undirected>\""), "{second}");
    assert!(second.contains("new_undirected() =>"), "{second}");
    assert!(!second.contains("new() =>"), "{second}");
    for m in ["degree(", "add_node(", "node_count("] {
        assert!(second.contains(m), "{m}: {second}");
    }
    // Each public method counts once: `add_node` and `node_count` are registered on both.
    assert_eq!(m.methods(), 3, "{text}");
    assert_eq!(m.skipped(), 0, "{text}");
}

/// A type whose constructors are each in a block fixing the index type registers at the
/// main instantiation's (the first index type) and at two more, no further.
#[test]
fn a_type_whose_constructors_all_fix_a_parameter_registers_at_their_instantiations() {
    let lib = r#"
        pub trait Index: Copy {}
        #[derive(Clone, Copy)] pub struct IdxU8(u8);
        #[derive(Clone, Copy)] pub struct IdxU16(u16);
        #[derive(Clone, Copy)] pub struct IdxUsize(usize);
        impl Index for IdxU8 {}
        impl Index for IdxU16 {}
        impl Index for IdxUsize {}
        pub struct List<T, Idx: Index> { xs: Vec<(T, Idx)> }
        impl<T> List<T, IdxU8> { pub fn new_u8() -> Self { List { xs: Vec::new() } } }
        impl<T> List<T, IdxU16> { pub fn new_u16() -> Self { List { xs: Vec::new() } } }
        impl<T> List<T, IdxUsize> { pub fn new_usize() -> Self { List { xs: Vec::new() } } }
        impl<T: Ord, Idx: Index> List<T, Idx> {
            pub fn len(&self) -> usize { self.xs.len() }
            pub fn is_empty(&self) -> bool { self.xs.is_empty() }
        }
    "#;
    let (m, text) = generate(&[("lib.rs", lib)], &[]);
    let registered: Vec<&str> = m
        .types
        .iter()
        .filter(|t| t.ident == "List")
        .map(|t| t.path.as_str())
        .collect();
    assert_eq!(
        registered,
        ["List", "List<IdxU16>", "List<IdxUsize>"],
        "{text}"
    );
    assert!(text.contains("new_u8() =>"), "{text}");
    assert!(text.contains("new_usize() =>"), "{text}");
    assert_eq!(m.methods(), 2, "{text}");
}

/// A block fixing a parameter to a generic type (a closure comparator) is not instantiated.
#[test]
fn a_block_fixing_a_generic_argument_stays_skipped() {
    let lib = r#"
        pub trait Compare<T> { fn cmp(&self, a: &T, b: &T) -> bool; }
        #[derive(Clone, Copy, Default)] pub struct Max;
        #[derive(Clone, Copy, Default)] pub struct Min;
        pub struct ByFn<F>(F);
        impl<T: Ord> Compare<T> for Max { fn cmp(&self, a: &T, b: &T) -> bool { a < b } }
        impl<T: Ord> Compare<T> for Min { fn cmp(&self, a: &T, b: &T) -> bool { a > b } }
        impl<T, F: Fn(&T, &T) -> bool> Compare<T> for ByFn<F> { fn cmp(&self, a: &T, b: &T) -> bool { (self.0)(a, b) } }
        pub struct Heap<T, C = Max> { xs: Vec<T>, c: C }
        impl<T: Ord> Heap<T, Max> { pub fn new() -> Self { Heap { xs: Vec::new(), c: Max } } }
        impl<T: Ord> Heap<T, Min> { pub fn new_min() -> Self { Heap { xs: Vec::new(), c: Min } } }
        impl<T, F: Fn(&T, &T) -> bool> Heap<T, ByFn<F>> {
            pub fn new_by(f: F) -> Self { Heap { xs: Vec::new(), c: ByFn(f) } }
        }
        impl<T, C: Compare<T>> Heap<T, C> {
            pub fn push(&mut self, x: T) { self.xs.push(x) }
            pub fn len(&self) -> usize { self.xs.len() }
        }
    "#;
    let (_, text) = generate(&[("lib.rs", lib)], &[]);
    assert!(text.contains("path: \"Heap<Min>\""), "{text}");
    assert!(text.contains("new_min() =>"), "{text}");
    assert!(
        text.contains("skipped: Heap::new_by: defined only for"),
        "{text}"
    );
    assert!(!text.contains("Heap<ByFn"), "{text}");
}

/// A harness the crate's own compile-time checks reject at a fixed instantiation is built
/// again without its first fixed instantiation: its registration and registry entry go, the
/// main registration stays whole; what it alone registered is counted back.
#[test]
fn a_harness_without_its_fixed_instantiations_keeps_the_main_registration() {
    let (m, text) = generate(&[("lib.rs", GRAPH)], &[]);
    let main = |t: &str| {
        t.split("pub fn graph() -> ")
            .nth(1)
            .and_then(|r| r.split("\n    }\n").next())
            .map(str::to_string)
    };
    let (without, name) = super::fixed_instantiations::without_fixed(&text).expect("has one");
    assert_eq!(name, "graph_undirected");
    // `degree`: `add_node` and `node_count` stay registered on the main one.
    assert_eq!(
        super::fixed_instantiations::registered_only_by(&m, &name),
        1
    );
    assert!(!without.contains("graph_undirected"), "{without}");
    assert!(!without.contains("Graph<Undirected>"), "{without}");
    assert!(without.contains("perfsyn_api::graph(),"), "{without}");
    assert_eq!(main(&without), main(&text));
    assert_eq!(super::fixed_instantiations::without_fixed(&without), None);
}

/// A block fixing the hasher parameter (to the crate's alias of std's randomly keyed
/// `RandomState`) registers no second instantiation: its costs would differ from run to run.
/// With `Default` and a constructor there, the fixed instantiation also took back a skip that
/// was not counted as a constructor, and init panicked.
#[test]
fn a_block_fixing_the_hasher_registers_no_second_instantiation() {
    let lib = r#"
        use std::hash::{BuildHasher, Hash};
        pub type RandomState = std::collections::hash_map::RandomState;
        pub struct Multimap<K, S = RandomState> { k: Vec<K>, s: S }
        impl<K> Multimap<K, RandomState> {
            pub fn new() -> Self { Multimap { k: Vec::new(), s: RandomState::new() } }
        }
        impl<K> Default for Multimap<K, RandomState> {
            fn default() -> Self { Self::new() }
        }
        impl<K: Hash + Eq, S: BuildHasher + Default> Multimap<K, S> {
            pub fn with_hasher(s: S) -> Self { Multimap { k: Vec::new(), s } }
            pub fn insert(&mut self, k: K) { self.k.push(k) }
        }
    "#;
    let (_, text) = generate(&[("lib.rs", lib)], &[]);
    assert!(
        text.contains("pub fn multimap() -> Multimap<Key,FixedState>"),
        "{text}"
    );
    assert!(!text.contains("pub fn multimap_random_state()"), "{text}");
}

/// A trait's constructor implemented for unit weights only (`impl FromText for Graph<(), (),
/// Undirected>`) registers on an instantiation with unit weights, as its constructor.
#[test]
fn a_block_fixing_unit_weights_registers_an_instantiation_with_unit_weights() {
    let lib = format!(
        "{GRAPH}\n{}",
        r#"
        pub trait FromText { fn from_text(s: String) -> Self; }
        impl FromText for Graph<(), (), Undirected> {
            fn from_text(s: String) -> Self { Graph { n: Vec::new(), e: Vec::new(), ty: PhantomData } }
        }
    "#
    );
    let (m, text) = generate(&[("lib.rs", &lib)], &[]);
    let skipped = super::tests::skipped_file(&m).skipped;
    assert!(
        !skipped.iter().any(|s| s.item.ends_with("from_text")),
        "{skipped:?}\n{text}"
    );
    // Its registration function is an identifier.
    assert!(
        text.contains("pub fn graph_unit_unit_undirected() -> Graph<(),(),demo::Undirected> {"),
        "{text}"
    );
    let unit = text
        .split("path: \"Graph<(),(),Undirected>\"")
        .nth(1)
        .unwrap_or_else(|| panic!("{text}"));
    let unit = unit.split("fields").next().unwrap();
    assert!(unit.contains("from_text(s: val String) =>"), "{unit}");
    assert!(unit.contains("add_node(mut self, w: val ())"), "{unit}");
    assert_eq!(m.methods(), 3, "{text}");
}

/// A rejected constructor is no method, and a method another instantiation still registers
/// stays counted; a method only the rejected registration had is taken from the count.
#[test]
fn a_rejected_constructor_or_a_method_registered_elsewhere_takes_no_method_from_the_count() {
    let (m, text) = generate(&[("lib.rs", GRAPH)], &[]);
    let specs = |s: &[&str]| s.iter().map(|x| x.to_string()).collect::<Vec<_>>();
    let taken = |s: &[&str]| super::fixed_instantiations::rejected_methods(&m, &specs(s));
    assert_eq!(taken(&["Graph<Undirected>::new_undirected"]), 0, "{text}");
    assert_eq!(taken(&["Graph<Undirected>::add_node"]), 0, "{text}");
    assert_eq!(
        taken(&["Graph<Undirected>::add_node", "Graph::add_node"]),
        1,
        "{text}"
    );
    assert_eq!(taken(&["Graph<Undirected>::degree"]), 1, "{text}");
}
