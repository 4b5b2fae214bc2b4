//! Init on API shapes of registry crates tried in the session (petgraph), each as a small
//! synthetic crate.

use super::tests::generate;

/// petgraph's `Graph<N, E, Ty = Directed, Ix = DefaultIx>`: the crate's trait `Build` gives it
/// `add_node(&mut self, weight: Self::NodeWeight)`, which the model cannot fill, and its
/// inherent impl `add_node(&mut self, weight: N)`, which it can. Whichever impl came first
/// decided: the trait's was seen first and `Graph::add_node` was skipped. And `new` lives in
/// `impl<N, E> Graph<N, E, Directed>`, which leaves `Ix` to its default, the very type the
/// harness chose for it: it was skipped as "defined only for `Graph<N,E,Directed>`".
#[test]
fn an_inherent_method_registers_after_a_trait_method_of_the_same_name_failed() {
    let lib = r#"
        pub struct Directed;
        pub trait EdgeType {}
        impl EdgeType for Directed {}
        pub trait IndexType {}
        impl IndexType for u32 {}
        pub type DefaultIx = u32;
        pub trait Build {
            type NodeWeight;
            fn add_node(&mut self, weight: Self::NodeWeight) -> usize;
        }
        impl<N, Ix: IndexType> Build for Graph<N, Directed, Ix> {
            type NodeWeight = N;
            fn add_node(&mut self, weight: N) -> usize { Graph::add_node(self, weight) }
        }
        pub struct Graph<N, Ty = Directed, Ix = DefaultIx> { nodes: Vec<N>, t: Ty, ix: Ix }
        impl<N> Graph<N, Directed> {
            /// An empty graph.
            pub fn new() -> Self { Graph { nodes: Vec::new(), t: Directed, ix: 0 } }
        }
        impl<N, Ty: EdgeType, Ix: IndexType> Graph<N, Ty, Ix> {
            /// Adds a node. O(1).
            pub fn add_node(&mut self, weight: N) -> usize { self.nodes.push(weight); self.nodes.len() }
            pub fn node_count(&self) -> usize { self.nodes.len() }
        }
    "#;
    let (_, text) = generate(&[("lib.rs", lib)], &[]);
    assert!(
        text.contains("add_node(mut self, weight: val Key)"),
        "{text}"
    );
    assert!(!text.contains("skipped: Graph::add_node"), "{text}");
    assert!(text.contains("new() =>"), "{text}");
    assert!(!text.contains("skipped: Graph::new"), "{text}");
}

/// petgraph has `graph::EdgeIndex` and `adj::EdgeIndex`: both register under
/// module-qualified names, and a parameter `e: EdgeIndex` was refused everywhere
/// ("registered under a module-qualified name"), which left `Graph::remove_edge` and
/// `Graph::edge_weight` out. A signature written in the module that defines one of them names
/// that one (a parameter and a result alike): it is written as its Rust type, which the
/// registry names as registered.
#[test]
fn a_parameter_of_a_type_whose_name_two_modules_use_is_the_one_beside_it() {
    let lib = r#"
        pub mod graph {
            #[derive(Clone, Copy, Default)]
            pub struct EdgeIndex(pub u32);
            impl EdgeIndex { pub fn new(x: usize) -> Self { EdgeIndex(x as u32) } }
            #[derive(Default)]
            pub struct Graph { edges: Vec<u32> }
            impl Graph {
                pub fn add_edge(&mut self, w: u32) -> EdgeIndex { self.edges.push(w); EdgeIndex(w) }
                pub fn remove_edge(&mut self, e: EdgeIndex) -> bool { self.edges.pop().is_some() }
                pub fn len(&self) -> usize { self.edges.len() }
            }
        }
        pub mod adj {
            #[derive(Clone, Copy, Default)]
            pub struct EdgeIndex(pub u64);
            impl EdgeIndex { pub fn new(x: usize) -> Self { EdgeIndex(x as u64) } }
        }
    "#;
    let (_, text) = generate(&[("lib.rs", lib)], &[]);
    assert!(
        text.contains("remove_edge(mut self, e: val demo::graph::EdgeIndex)")
            || text.contains("remove_edge(mut self, e: copy demo::graph::EdgeIndex)"),
        "{text}"
    );
    assert!(!text.contains("skipped: Graph::remove_edge"), "{text}");
    // A result of it is kept, for a later call to take.
    assert!(text.contains("-> demo::graph::EdgeIndex"), "{text}");
}
