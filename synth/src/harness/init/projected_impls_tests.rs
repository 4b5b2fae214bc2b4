//! Impl blocks whose self type is written with projections of the block's own generic
//! (`impl<G> Walker<G> for Dfs<G::NodeId, G::Map>`) register on the type's instantiation when
//! a registered type solves the generic (see `projected_impls`).

use super::tests::{generate, skipped_file};

/// A traversal tied to a graph's associated types, and a walker trait implemented for it
/// through projections of the graph's generic.
const WALK: &str = r#"
    pub mod visit {
        pub trait GraphBase { type NodeId: Copy; }
        pub trait GraphRef: Copy + GraphBase {}
        impl<G> GraphRef for &G where G: GraphBase {}
        impl<'a, G: GraphBase> GraphBase for &'a G { type NodeId = G::NodeId; }
        pub trait VisitMap<N> { fn visit(&mut self, n: N) -> bool; }
        pub trait Visitable: GraphBase { type Map: VisitMap<Self::NodeId>; fn visit_map(&self) -> Self::Map; }
        impl<'a, G: Visitable> Visitable for &'a G { type Map = G::Map; fn visit_map(&self) -> Self::Map { (**self).visit_map() } }
        pub trait IntoNeighbors: GraphRef { fn neighbors(self, n: Self::NodeId) -> Vec<Self::NodeId>; }
        impl<N> VisitMap<N> for std::collections::HashSet<N> { fn visit(&mut self, n: N) -> bool { true } }
        pub struct Dfs<N, VM> { pub stack: Vec<N>, pub discovered: VM }
        impl<N, VM> Dfs<N, VM> where N: Copy + PartialEq, VM: VisitMap<N> {
            pub fn new<G>(graph: G, start: N) -> Self where G: GraphRef + Visitable<NodeId = N, Map = VM> {
                Dfs { stack: vec![start], discovered: graph.visit_map() }
            }
        }
        pub trait Walker<Context> {
            type Item;
            fn walk_next(&mut self, context: Context) -> Option<Self::Item>;
        }
        impl<G> Walker<G> for Dfs<G::NodeId, G::Map> where G: IntoNeighbors + Visitable {
            type Item = G::NodeId;
            fn walk_next(&mut self, context: G) -> Option<Self::Item> { self.stack.pop() }
        }
    }
    use visit::*;
    #[derive(Clone, Copy, PartialEq)]
    pub struct Node(usize);
    impl Node { pub fn new(i: usize) -> Self { Node(i) } }
    pub struct Net<W> { edges: Vec<(usize, usize, W)> }
    impl<W> Net<W> { pub fn new() -> Self { Net { edges: Vec::new() } } pub fn add(&mut self, a: usize, b: usize) {} }
    impl<W> GraphBase for Net<W> { type NodeId = Node; }
    impl<W> Visitable for Net<W> { type Map = std::collections::HashSet<Node>; fn visit_map(&self) -> Self::Map { Default::default() } }
    impl<'a, W> IntoNeighbors for &'a Net<W> { fn neighbors(self, n: Node) -> Vec<Node> { Vec::new() } }
"#;

#[test]
fn an_impl_written_with_projections_of_its_generic_registers_with_the_solved_type() {
    let (m, text) = generate(&[("lib.rs", WALK)], &[]);
    assert!(
        text.contains("pub fn dfs() -> Dfs<Node,<Net<Key> as ::demo::visit::Visitable>::Map>"),
        "{text}"
    );
    assert!(
        text.contains("walk_next(mut self, context: ref Net<Key>)"),
        "{text}"
    );
    let skipped = skipped_file(&m).skipped;
    assert!(
        !skipped.iter().any(|s| s.item.ends_with("walk_next")),
        "{skipped:?}"
    );
}
