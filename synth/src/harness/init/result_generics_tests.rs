//! A function's generic parameter only its result names, chosen by turbofish (see
//! `result_generics`), and a result at the method's own instantiation (see
//! `result_instantiation`).

use super::tests::generate;

const INDICES: &str = r#"
    pub unsafe trait IndexType: Copy + Default + Ord { fn new(x: usize) -> Self; }
    unsafe impl IndexType for u32 { fn new(x: usize) -> Self { x as u32 } }
    unsafe impl IndexType for usize { fn new(x: usize) -> Self { x } }
    pub trait EdgeType { fn is_directed() -> bool; }
    pub enum Directed {}
    impl EdgeType for Directed { fn is_directed() -> bool { true } }
    #[derive(Clone, Copy, PartialEq)]
    pub struct NodeIndex<Ix = u32>(Ix);
    impl<Ix: IndexType> NodeIndex<Ix> { pub fn new(x: usize) -> Self { NodeIndex(Ix::new(x)) } }
    pub fn node_index<Ix: IndexType>(index: usize) -> NodeIndex<Ix> { NodeIndex::new(index) }
    pub struct Graph<N, Ty = Directed, Ix = u32> { nodes: Vec<N>, ty: std::marker::PhantomData<(Ty, Ix)> }
    impl<N, Ty: EdgeType, Ix: IndexType> Graph<N, Ty, Ix> {
        pub fn new() -> Self { Graph { nodes: Vec::new(), ty: std::marker::PhantomData } }
        pub fn add_node(&mut self, w: N) -> NodeIndex<Ix> { self.nodes.push(w); NodeIndex::new(self.nodes.len() - 1) }
        pub fn into_edge_type<NewTy: EdgeType>(self) -> Graph<N, NewTy, Ix> { Graph { nodes: self.nodes, ty: std::marker::PhantomData } }
        pub fn map<F, N2>(&self, mut f: F) -> Graph<N2, Ty, Ix> where F: FnMut(usize, &N) -> N2 { Graph { nodes: self.nodes.iter().enumerate().map(|(i, n)| f(i, n)).collect(), ty: std::marker::PhantomData } }
    }
"#;

#[test]
fn parameter_only_the_result_names_takes_the_registered_types_argument_there() {
    let (_, text) = generate(&[("lib.rs", INDICES)], &[]);
    assert!(
        text.contains(r#"node_index(ref self, index: copy usize) -> NodeIndex<u32> as "demo::node_index::<u32>({index})""#),
        "{text}"
    );
}

#[test]
fn method_generic_only_the_result_names_is_a_turbofish_on_the_method() {
    let (_, text) = generate(&[("lib.rs", INDICES)], &[]);
    assert!(
        text.contains(r#"into_edge_type(val self) -> Graph<Key,demo::Directed,u32> as "{self}.into_edge_type::<demo::Directed>()""#),
        "{text}"
    );
}

#[test]
fn result_at_the_methods_own_instantiation_is_not_the_registered_type() {
    let (_, text) = generate(&[("lib.rs", INDICES)], &[]);
    let line = text
        .lines()
        .find(|l| l.trim_start().starts_with("map("))
        .unwrap_or_else(|| panic!("{text}"));
    assert!(!line.contains("-> Graph"), "{line}");
}

const EDGES: &str = r#"
    pub unsafe trait IndexType: Copy + Default + Ord { fn new(x: usize) -> Self; }
    unsafe impl IndexType for u32 { fn new(x: usize) -> Self { x as u32 } }
    #[derive(Clone, Copy, PartialEq)]
    pub struct NodeIndex<Ix = u32>(Ix);
    impl<Ix: IndexType> From<Ix> for NodeIndex<Ix> { fn from(x: Ix) -> Self { NodeIndex(x) } }
    pub trait IntoWeightedEdge<E> { type NodeId; fn into_weighted_edge(self) -> (Self::NodeId, Self::NodeId, E); }
    impl<Ix, E> IntoWeightedEdge<E> for (Ix, Ix) where E: Default { type NodeId = Ix; fn into_weighted_edge(self) -> (Ix, Ix, E) { (self.0, self.1, E::default()) } }
    impl<Ix, E> IntoWeightedEdge<E> for (Ix, Ix, E) { type NodeId = Ix; fn into_weighted_edge(self) -> (Ix, Ix, E) { self } }
    pub struct Graph<E, Ix = u32> { edges: Vec<(Ix, Ix, E)> }
    impl<E, Ix: IndexType> Graph<E, Ix> {
        pub fn new() -> Self { Graph { edges: Vec::new() } }
        pub fn extend_with_edges<I>(&mut self, iterable: I)
        where
            I: IntoIterator,
            I::Item: IntoWeightedEdge<E>,
            <I::Item as IntoWeightedEdge<E>>::NodeId: Into<NodeIndex<Ix>>,
        {}
    }
"#;

#[test]
fn sequence_of_items_bounded_by_a_crate_trait_is_a_vector_of_a_tuple_the_crate_implements_it_for() {
    let (_, text) = generate(&[("lib.rs", EDGES)], &[]);
    assert!(
        text.contains("extend_with_edges(mut self, iterable: ref Vec<(u32,u32)>)")
            || text.contains("extend_with_edges(mut self, iterable: val Vec<(u32,u32)>)"),
        "{text}"
    );
}
