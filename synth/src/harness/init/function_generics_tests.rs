//! A function's own type parameters filled from the rest of its signature: an argument of a
//! registered type among its inputs (see `registered_args`), a bound whose arguments name
//! a path (`GraphProp<EdgeType = G0::EdgeType>`), and a sequence of a registered type.

use super::tests::generate;

const GRAPH: &str = r#"
    pub trait EdgeType { fn is_directed() -> bool; }
    pub enum Directed {}
    impl EdgeType for Directed { fn is_directed() -> bool { true } }
    pub unsafe trait IndexType: Copy { fn index(&self) -> usize; }
    unsafe impl IndexType for u32 { fn index(&self) -> usize { *self as usize } }
    pub trait Measure: Copy { fn zero() -> Self; }
    impl Measure for u8 { fn zero() -> Self { 0 } }
    pub struct Graph<N, E, Ty = Directed, Ix = u32> { nodes: Vec<N>, edges: Vec<E>, ty: core::marker::PhantomData<(Ty, Ix)> }
    impl<N, E, Ty: EdgeType, Ix: IndexType> Graph<N, E, Ty, Ix> {
        pub fn new() -> Self { Graph { nodes: Vec::new(), edges: Vec::new(), ty: core::marker::PhantomData } }
        pub fn add_node(&mut self, w: N) -> usize { self.nodes.push(w); 0 }
    }
    pub struct Map<N, E> { nodes: Vec<N>, edges: Vec<E> }
    impl<N: Copy + Ord, E> Map<N, E> {
        pub fn new() -> Self { Map { nodes: Vec::new(), edges: Vec::new() } }
        pub fn insert(&mut self, n: N) { self.nodes.push(n) }
        pub fn from_graph<Ty: EdgeType, Ix: IndexType>(g: Graph<N, E, Ty, Ix>) -> Self { Map::new() }
    }
    pub fn complement<N, E, Ty, Ix>(input: &Graph<N, E, Ty, Ix>, output: &mut Graph<N, E, Ty, Ix>, weight: E)
    where Ty: EdgeType, Ix: IndexType, E: Clone, N: Clone {}
    pub fn shortest<N, E: Measure, Ty: EdgeType, Ix: IndexType>(g: &Graph<N, E, Ty, Ix>) -> usize { 0 }
"#;

#[test]
fn parameter_written_as_an_argument_of_a_registered_input_takes_the_registered_argument() {
    let (_, text) = generate(&[("lib.rs", GRAPH)], &[]);
    // `Ty` is a marker type no value of which is built: only the graph is passed.
    assert!(
        text.contains(r#"complement(ref self, input: ref Graph<Key,Key,demo::Directed,u32>, output: mut Graph<Key,Key,demo::Directed,u32>, weight: val Key) as "demo::complement(&{input}, &mut {output}, {weight})""#),
        "{text}"
    );
}

#[test]
fn registered_argument_that_misses_the_parameter_bounds_fixes_nothing() {
    let (m, text) = generate(&[("lib.rs", GRAPH)], &[]);
    // `E: Measure`, registered `Key`: the compiler would reject it.
    assert!(!text.contains("demo::shortest("), "{text}");
    let skipped = super::tests::skipped_file(&m);
    assert!(
        skipped.skipped.iter().any(|s| s.item.ends_with("shortest")),
        "{:?}",
        skipped.skipped
    );
}

#[test]
fn input_at_another_instantiation_than_the_registered_one_fixes_nothing() {
    let (_, text) = generate(&[("lib.rs", GRAPH)], &[]);
    // `Map<u64, Key>` (its `N: Ord` takes an integer) reads `Graph<N, ..>` as `Graph<u64,
    // ..>`, which is not the registered `Graph<Key, ..>`.
    assert!(text.contains("Map<u64,Key>"), "{text}");
    assert!(!text.contains("from_graph("), "{text}");
}

const TIED: &str = r#"
    pub mod visit {
        pub trait GraphProp { type EdgeType; }
        pub trait NodeCount { fn node_count(&self) -> usize; }
        pub trait IntoNeighbors: Copy { type NodeId; fn neighbors(self, n: Self::NodeId) -> Vec<Self::NodeId>; }
    }
    use visit::{GraphProp, NodeCount, IntoNeighbors};
    #[derive(Clone, Copy, Debug, PartialEq)]
    pub struct NodeIndex(u32);
    impl NodeIndex { pub fn new(i: u32) -> Self { NodeIndex(i) } }
    pub enum Directed {}
    pub struct Graph { n: Vec<u32> }
    impl Graph { pub fn new() -> Self { Graph { n: Vec::new() } } pub fn add(&mut self) {} }
    impl<'a> GraphProp for &'a Graph { type EdgeType = Directed; }
    impl<'a> NodeCount for &'a Graph { fn node_count(&self) -> usize { 0 } }
    impl<'a> IntoNeighbors for &'a Graph { type NodeId = NodeIndex; fn neighbors(self, n: NodeIndex) -> Vec<NodeIndex> { Vec::new() } }
    pub fn same_shape<G0, G1>(g0: G0, g1: G1) -> bool
    where G0: NodeCount + GraphProp, G1: NodeCount + GraphProp<EdgeType = G0::EdgeType> { false }
    pub fn walk<G, I>(g: G, starts: I) -> usize
    where G: IntoNeighbors, I: IntoIterator<Item = G::NodeId> { 0 }
"#;

#[test]
fn bound_whose_binding_names_a_path_is_read_by_its_trait() {
    let (_, text) = generate(&[("lib.rs", TIED)], &[]);
    assert!(
        text.contains(r#"same_shape(ref self, g0: ref Graph, g1: ref Graph) -> bool as "demo::same_shape(&{g0}, &{g1})""#),
        "{text}"
    );
}

#[test]
fn sequence_of_an_associated_type_takes_a_vector_of_the_registered_type() {
    let (_, text) = generate(&[("lib.rs", TIED)], &[]);
    assert!(
        text.contains(r#"walk(ref self, g: ref Graph, starts: val Vec<NodeIndex>) -> usize"#),
        "{text}"
    );
}

const MEASURES: &str = r#"
    pub trait ControlFlow { fn continuing() -> Self; }
    impl ControlFlow for () { fn continuing() {} }
    pub enum Event { Discover(u32), Finish(u32) }
    pub trait UnitMeasure: Copy { fn one() -> Self; }
    macro_rules! impl_unit_measure { ($($t:ident),*) => { $(impl UnitMeasure for $t { fn one() -> Self { 1 as $t } })* }; }
    impl_unit_measure!(f32, f64);
    pub struct Net { n: Vec<u32> }
    impl Net { pub fn new() -> Self { Net { n: Vec::new() } } pub fn add(&mut self) {} }
    pub fn visit<F, C>(net: &Net, mut visitor: F) -> C where F: FnMut(Event) -> C, C: ControlFlow { C::continuing() }
    pub fn rank<D: UnitMeasure + Copy>(net: &Net, damping: D, rounds: usize) -> Vec<D> { Vec::new() }
"#;

#[test]
fn closure_result_bounded_by_crate_traits_implemented_for_unit_returns_nothing() {
    let (_, text) = generate(&[("lib.rs", MEASURES)], &[]);
    assert!(
        text.contains(r#"as "demo::visit(&{net}, |_| {})""#),
        "{text}"
    );
}

#[test]
fn parameter_bounded_by_crate_traits_implemented_for_floats_takes_a_converted_integer() {
    let (_, text) = generate(&[("lib.rs", MEASURES)], &[]);
    assert!(
        text.contains(r#"damping: copy u32, rounds: copy usize) {kept} as "demo::rank(&{net}, {damping} as f64, {rounds})""#),
        "{text}"
    );
}

const BOUND: &str = r#"
    pub trait Visitable { type NodeId; type Map; fn visit_map(&self) -> Self::Map; }
    pub trait VisitMap<N> { fn visit(&mut self, n: N) -> bool; }
    impl VisitMap<NodeIndex> for Vec<bool> { fn visit(&mut self, n: NodeIndex) -> bool { false } }
    #[derive(Clone, Copy, Debug, PartialEq)]
    pub struct NodeIndex(u32);
    impl NodeIndex { pub fn new(i: u32) -> Self { NodeIndex(i) } }
    pub struct Net { n: Vec<u32> }
    impl Net { pub fn new() -> Self { Net { n: Vec::new() } } pub fn add(&mut self) {} }
    impl<'a> Visitable for &'a Net { type NodeId = NodeIndex; type Map = Vec<bool>; fn visit_map(&self) -> Vec<bool> { Vec::new() } }
    pub fn two_colored<G, N, VM>(g: G, start: N) -> bool
    where G: Visitable<NodeId = N, Map = VM>, N: Copy + PartialEq + core::fmt::Debug, VM: VisitMap<N> { false }
    pub fn collect_all<C, G>(g: G) -> Vec<C> where G: Visitable, C: FromIterator<G::NodeId> { Vec::new() }
    pub fn collect_hashed<C, G, S>(g: G) -> Vec<C>
    where G: Visitable, C: FromIterator<G::NodeId>, S: std::hash::BuildHasher + Default { Vec::new() }
"#;

#[test]
fn parameter_bound_to_another_parameters_associated_type_takes_that_type() {
    let (_, text) = generate(&[("lib.rs", BOUND)], &[]);
    // `N` is `G::NodeId`, a registered type; `VM` (`G::Map`) is left to the compiler.
    assert!(
        text.contains(r#"two_colored(ref self, g: ref Net, start: copy NodeIndex) -> bool as "demo::two_colored(&{g}, {start})""#),
        "{text}"
    );
}

#[test]
fn result_only_parameter_collecting_a_registered_type_is_a_vector_of_it() {
    let (_, text) = generate(&[("lib.rs", BOUND)], &[]);
    assert!(
        text.contains(r#"demo::collect_all::<Vec<NodeIndex>, _>(&{g})"#),
        "{text}"
    );
}

const SETS: &str = r#"
    use std::borrow::Borrow;
    #[derive(Clone, Default)]
    pub struct Map<K, V> { k: Vec<K>, v: Vec<V> }
    impl<K: Ord + Clone, V: Clone> Map<K, V> {
        pub fn new() -> Self { Map { k: Vec::new(), v: Vec::new() } }
        pub fn insert(&mut self, k: K, v: V) {}
        pub fn unions<I>(i: I) -> Self where I: IntoIterator<Item = Self> { Map::new() }
        pub fn is_submap_by<B, RM, F>(&self, other: RM, mut cmp: F) -> bool
        where F: FnMut(&V, &B) -> bool, RM: Borrow<Map<K, B>> { false }
    }
"#;

#[test]
fn sequence_of_self_takes_a_vector_of_the_registered_type() {
    let (_, text) = generate(&[("lib.rs", SETS)], &[]);
    assert!(text.contains("unions(i: val Vec<Map<Key,Key>>)"), "{text}");
}

#[test]
fn borrow_of_the_type_at_its_own_instantiation_takes_a_borrowed_value_of_it() {
    let (_, text) = generate(&[("lib.rs", SETS)], &[]);
    assert!(
        text.contains("is_submap_by(ref self, other: ref Map<Key,Key>"),
        "{text}"
    );
}

#[test]
fn hasher_parameter_no_argument_names_is_named_by_the_call() {
    let (_, text) = generate(&[("lib.rs", BOUND)], &[]);
    assert!(
        text.contains(r#"demo::collect_hashed::<Vec<NodeIndex>, _, FixedState>(&{g})"#),
        "{text}"
    );
}
