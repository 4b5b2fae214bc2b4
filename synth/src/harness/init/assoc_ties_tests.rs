//! Type parameters the crate's impls decide (see `assoc_ties`): tied to a registered type's
//! associated types by a method's generic (`G: Visitable<NodeId = N, Map = VM>`), or
//! bounded by the crate's traits a registered type implements by value.

use super::tests::{generate, skipped_file};

const WALK: &str = r#"
    pub mod visit {
        pub trait GraphBase { type NodeId: Copy; }
        pub trait GraphRef: Copy + GraphBase {}
        impl<G> GraphRef for &G where G: GraphBase {}
        impl<'a, G: GraphBase> GraphBase for &'a G { type NodeId = G::NodeId; }
        pub trait VisitMap<N> { fn visit(&mut self, n: N) -> bool; }
        pub trait Visitable: GraphBase { type Map: VisitMap<Self::NodeId>; fn visit_map(&self) -> Self::Map; }
        pub trait IntoNeighbors: GraphRef { fn neighbors(self, n: Self::NodeId) -> Vec<Self::NodeId>; }
        impl<N> VisitMap<N> for std::collections::HashSet<N> { fn visit(&mut self, n: N) -> bool { true } }
        pub struct Dfs<N, VM> { pub stack: Vec<N>, pub discovered: VM }
        impl<N, VM> Dfs<N, VM> where N: Copy + PartialEq, VM: VisitMap<N> {
            pub fn new<G>(graph: G, start: N) -> Self where G: GraphRef + Visitable<NodeId = N, Map = VM> {
                Dfs { stack: vec![start], discovered: graph.visit_map() }
            }
            pub fn next<G>(&mut self, graph: G) -> Option<N> where G: IntoNeighbors<NodeId = N> { self.stack.pop() }
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
    pub trait Build: GraphBase { fn add_node(&mut self) -> Self::NodeId; }
    impl<W> Build for Net<W> { fn add_node(&mut self) -> Node { Node(0) } }
    pub struct Checked<G: Build> { inner: G }
    impl<G: Build + Default> Checked<G> {
        pub fn new() -> Self { Checked { inner: G::default() } }
        pub fn link(&mut self, a: G::NodeId) {}
        pub fn unlink(&mut self, a: Self::NodeId) {}
    }
    impl<G: Build> GraphBase for Checked<G> { type NodeId = G::NodeId; }
    pub struct Matched<G: Build> { graph: G }
    impl<G: Build> Matched<G> { pub fn len(&self) -> usize { 0 } }
    pub fn matched(g: &Net<u64>) -> Matched<&Net<u64>> { Matched { graph: g } }
"#;

#[test]
fn type_parameter_tied_to_an_associated_type_takes_the_registered_type_the_impl_names() {
    let (_, text) = generate(&[("lib.rs", WALK)], &[]);
    assert!(
        text.contains("pub fn dfs() -> Dfs<Node,<Net<Key> as ::demo::visit::Visitable>::Map>"),
        "{text}"
    );
}

#[test]
fn methods_of_a_tied_type_take_the_registered_type_borrowed() {
    let (_, text) = generate(&[("lib.rs", WALK)], &[]);
    assert!(
        text.contains("new(graph: ref Net<Key>, start: copy Node)"),
        "{text}"
    );
    assert!(
        text.contains("next(mut self, graph: ref Net<Key>)"),
        "{text}"
    );
}

#[test]
fn type_parameter_bounded_by_crate_traits_takes_a_registered_type_implementing_them() {
    let (_, text) = generate(&[("lib.rs", WALK)], &[]);
    assert!(
        text.contains("pub fn checked() -> Checked<Net<Key>>"),
        "{text}"
    );
    assert!(text.contains("link(mut self, a: copy Node)"), "{text}");
    assert!(text.contains("unlink(mut self, a: copy Node)"), "{text}");
}

#[test]
fn type_without_a_constructor_keeps_its_parameter_unfilled() {
    // Only the crate's functions build it, holding what they pass (`Matched<&Net<u64>>`).
    let (m, text) = generate(&[("lib.rs", WALK)], &[]);
    assert!(!text.contains("Matched<Net"), "{text}");
    let skipped = skipped_file(&m).skipped;
    let matched = skipped.iter().find(|s| s.item == "Matched");
    assert!(
        matches!(
            matched.map(|s| &s.reason),
            Some(super::skips::SkipReason::GenericBoundNotMet { .. })
        ),
        "{skipped:?}"
    );
}

/// A trait a macro writes (`trait_template!`), which the expander cannot expand, is still
/// a trait a projection can name.
const MACRO_WRITTEN: &str = r#"
    macro_rules! trait_template {
        ($(#[$doc:meta])* pub trait $name:ident $($methods:tt)*) => {
            macro_rules! $name { ($m:ident $extra:tt) => { $m! { $extra pub trait $name $($methods)* } } }
            remove_sections! { [] $(#[$doc])* pub trait $name $($methods)* }
        }
    }
    pub mod visit {
        pub trait GraphBase { type NodeId: Copy; }
        pub trait GraphRef: Copy + GraphBase {}
        impl<G> GraphRef for &G where G: GraphBase {}
        pub trait VisitMap<N> { fn visit(&mut self, n: N) -> bool; }
        trait_template! {
            pub trait Visitable : GraphBase {
                @section type
                type Map: VisitMap<Self::NodeId>;
                fn visit_map(&self) -> Self::Map;
            }
        }
        impl<N> VisitMap<N> for std::collections::HashSet<N> { fn visit(&mut self, n: N) -> bool { true } }
        pub struct Bfs<N, VM> { pub queue: Vec<N>, pub discovered: VM }
        impl<N, VM> Bfs<N, VM> where N: Copy + PartialEq, VM: VisitMap<N> {
            pub fn new<G>(graph: G, start: N) -> Self where G: GraphRef + Visitable<NodeId = N, Map = VM> { Bfs { queue: vec![start], discovered: graph.visit_map() } }
        }
    }
    use visit::*;
    #[derive(Clone, Copy, PartialEq)]
    pub struct Node(usize);
    impl Node { pub fn new(i: usize) -> Self { Node(i) } }
    pub struct Net<W> { edges: Vec<(usize, usize, W)> }
    impl<W> Net<W> { pub fn new() -> Self { Net { edges: Vec::new() } } }
    impl<W> GraphBase for Net<W> { type NodeId = Node; }
    impl<W> Visitable for Net<W> { type Map = std::collections::HashSet<Node>; fn visit_map(&self) -> Self::Map { Default::default() } }
"#;

#[test]
fn associated_type_of_a_trait_a_macro_writes_is_named_by_projection() {
    let (_, text) = generate(&[("lib.rs", MACRO_WRITTEN)], &[]);
    assert!(
        text.contains("pub fn bfs() -> Bfs<Node,<Net<Key> as ::demo::visit::Visitable>::Map>"),
        "{text}"
    );
}

/// A std trait the crate implements for its types (`IntoIterator for &Map`) is no tie and no
/// bound to strip: `unions<I: IntoIterator<Item = Self>>` takes maps, not a borrowed map.
const STD_TRAIT: &str = r#"
    pub struct Map<K> { v: Vec<(K, K)> }
    impl<K: Ord + Clone> Map<K> {
        pub fn new() -> Self { Map { v: Vec::new() } }
        pub fn unions<I: IntoIterator<Item = Self>>(i: I) -> Self { let mut m = Map::new(); for x in i { m.v.extend(x.v); } m }
        pub fn extend_all<I: IntoIterator<Item = K>>(&mut self, i: I) {}
    }
    impl<'a, K> IntoIterator for &'a Map<K> {
        type Item = &'a (K, K);
        type IntoIter = std::slice::Iter<'a, (K, K)>;
        fn into_iter(self) -> Self::IntoIter { self.v.iter() }
    }
"#;

#[test]
fn bound_of_a_std_trait_with_an_item_binding_is_not_met_by_the_crates_impl_of_it() {
    let (_, text) = generate(&[("lib.rs", STD_TRAIT)], &[]);
    assert!(!text.contains("unions(i: ref Map"), "{text}");
    assert!(text.contains("pub fn map() -> Map<Key>"), "{text}");
}
