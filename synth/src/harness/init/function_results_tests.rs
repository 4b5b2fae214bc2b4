//! Types only a free function or a method's result hands out (see
//! [`function_results`](super::function_results) and
//! [`handed_out_args`](super::handed_out_args)): the methods of a function's result chained
//! onto the call, at the instantiation the function's generics give it; a handed-out value's
//! method whose own generics the registration's other value fixes; the elements of a
//! borrowed slice a method returns.

use super::tests::generate;

/// The line registering method `name` of the generated file.
fn line<'t>(text: &'t str, name: &str) -> Option<&'t str> {
    text.lines()
        .map(str::trim)
        .find(|l| l.starts_with(&format!("{name}(")))
}

/// A graph, its node index, a trait for `&Graph` naming the index as an associated type,
/// and an algorithm returning an answer type with no constructor, over that associated type
/// (the shape of petgraph's `algo::dominators::simple_fast -> Dominators<G::NodeId>`).
const ALGO: &str = r#"
    #[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
    pub struct NodeIndex(u32);
    impl NodeIndex { pub fn new(x: usize) -> Self { NodeIndex(x as u32) } pub fn index(self) -> usize { self.0 as usize } }
    pub struct Graph { n: usize }
    impl Graph {
        pub fn new() -> Self { Graph { n: 0 } }
        pub fn add_node(&mut self) -> NodeIndex { self.n += 1; NodeIndex(self.n as u32 - 1) }
    }
    pub trait Nodes { type NodeId: Copy; }
    impl<'a> Nodes for &'a Graph { type NodeId = NodeIndex; }
    pub struct Answer<N> { root: N, idom: Vec<N> }
    impl<N: Copy + Eq> Answer<N> {
        pub fn root(&self) -> N { self.root }
        pub fn immediate(&self, node: N) -> Option<N> { None }
    }
    pub mod algo {
        pub fn solve<G: crate::Nodes>(graph: G, root: G::NodeId) -> crate::Answer<G::NodeId> {
            crate::Answer { root, idom: Vec::new() }
        }
    }
"#;

#[test]
fn a_type_only_a_free_function_returns_has_its_methods_chained_onto_the_call() {
    let (model, text) = generate(&[("lib.rs", ALGO)], &[]);
    // The answer's parameter is the graph's node index, not the harness's key.
    assert_eq!(
        line(&text, "solve_immediate"),
        Some(
            r#"solve_immediate(ref self, graph: ref Graph, root: copy NodeIndex, node: copy NodeIndex) as "demo::algo::solve(&{graph}, {root}).immediate({node})" => |_namespace| { std::hint::black_box(demo::algo::solve(graph, root).immediate(node)); };"#
        ),
        "{text}"
    );
    assert!(line(&text, "solve_root").is_some(), "{text}");
    // Both count as registered: the type's methods are no longer unreachable.
    assert_eq!(model.chained, 2, "{text}");
    assert!(
        text.contains("// skipped: Answer: no public constructor")
            && text.contains("2 of its methods are reached"),
        "{text}"
    );
}

#[test]
fn a_handed_out_values_method_generic_over_the_owners_type_takes_the_registration() {
    // `neighbors() -> Neighbors<'_, Ix>`, `detach() -> Walk<Ix>`, and `Walk::next` takes
    // the graph of any node weight `N` and edge type `Ty` at that `Ix` (petgraph's
    // `WalkNeighbors::next(g: &Graph<N, E, Ty, Ix>)`): the graph's `u8`, passed along both
    // hand-outs, not an index type `Neighbors` or `Walk` alone would be given.
    let lib = r#"
        pub trait IndexType: Copy + Default + Ord { fn index(&self) -> usize; }
        impl IndexType for usize { fn index(&self) -> usize { *self } }
        impl IndexType for u32 { fn index(&self) -> usize { *self as usize } }
        impl IndexType for u8 { fn index(&self) -> usize { *self as usize } }
        pub trait EdgeType {}
        pub enum Directed {}
        impl EdgeType for Directed {}
        pub struct Graph<N, Ty = Directed, Ix = u8> { nodes: Vec<N>, ix: Vec<Ix>, ty: std::marker::PhantomData<Ty> }
        pub struct Neighbors<'a, Ix: 'a> { next: &'a [Ix] }
        pub struct Walk<Ix> { next: Ix }
        impl<N, Ty: EdgeType, Ix: IndexType> Graph<N, Ty, Ix> {
            pub fn new() -> Self { Graph { nodes: Vec::new(), ix: Vec::new(), ty: std::marker::PhantomData } }
            pub fn push(&mut self, n: N) { self.nodes.push(n) }
            pub fn neighbors(&self, at: usize) -> Neighbors<'_, Ix> { Neighbors { next: &self.ix } }
        }
        impl<'a, Ix: IndexType> Neighbors<'a, Ix> {
            pub fn detach(&self) -> Walk<Ix> { Walk { next: Ix::default() } }
        }
        impl<Ix: IndexType> Walk<Ix> {
            pub fn next<N, Ty: EdgeType>(&mut self, g: &Graph<N, Ty, Ix>) -> Option<usize> { None }
        }
    "#;
    let (_, text) = generate(&[("lib.rs", lib)], &[]);
    assert!(
        line(&text, "neighbors_detach_next").is_some_and(|l| l.starts_with(
            "neighbors_detach_next(ref self, at: copy usize, g: ref Graph<Key,demo::Directed,u8>) as \"{self}.neighbors({at}).detach().next(&{g})\""
        )),
        "{text}"
    );
}

#[test]
fn the_elements_of_a_borrowed_slice_a_method_returns_are_handed_out_each() {
    let lib = r#"
        pub struct Edge<E> { weight: E, from: usize }
        impl<E> Edge<E> {
            pub fn source(&self) -> usize { self.from }
        }
        pub struct Graph<E> { edges: Vec<Edge<E>> }
        impl<E> Graph<E> {
            pub fn new() -> Self { Graph { edges: Vec::new() } }
            pub fn raw_edges(&self) -> &[Edge<E>] { &self.edges }
        }
    "#;
    let (_, text) = generate(&[("lib.rs", lib)], &[]);
    assert!(
        line(&text, "raw_edges_source").is_some_and(
            |l| l.contains("for mut b in r.raw_edges() { std::hint::black_box(b.source()); }")
        ),
        "{text}"
    );
}

#[test]
fn the_error_a_function_returns_is_handed_out_too() {
    // `toposort(&g) -> Result<Vec<usize>, Cycle>`: the caller asks the cycle where it is.
    let lib = r#"
        pub struct Graph { n: usize }
        impl Graph { pub fn new() -> Self { Graph { n: 0 } } }
        pub struct Cycle { at: usize }
        impl Cycle { pub fn node_id(&self) -> usize { self.at } }
        pub fn toposort(g: &Graph) -> Result<Vec<usize>, Cycle> { Ok(Vec::new()) }
    "#;
    let (_, text) = generate(&[("lib.rs", lib)], &[]);
    assert_eq!(
        line(&text, "toposort_err_node_id"),
        Some(
            r#"toposort_err_node_id(ref self, g: ref Graph) as "if let Err(mut b) = demo::toposort(&{g}) { std::hint::black_box(b.node_id()); }" => |_namespace| { if let Err(mut b) = demo::toposort(g) { std::hint::black_box(b.node_id()); } };"#
        ),
        "{text}"
    );
}
