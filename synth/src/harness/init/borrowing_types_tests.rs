//! Borrowing types (a lifetime parameter) and what only they satisfy: a borrowing type
//! handed out at its owner's instantiation (see
//! [`borrower_instantiation`](super::borrower_instantiation)).

use super::tests::generate;

/// A graph generic over a marker trait of the crate (`Ty: EdgeType`, implemented by unit
/// structs only) hands out, as an iterator's items, a borrowing edge reference generic over
/// the same marker. petgraph's `Csr` has this shape; init reached none of the edge
/// reference's methods (instantiating `Ty` from the reference's own bounds failed).
const MARKED: &str = r#"
    pub trait EdgeType { fn is_directed() -> bool; }
    pub struct Directed;
    impl EdgeType for Directed { fn is_directed() -> bool { true } }
    pub struct Graph<E, Ty = Directed> { edges: Vec<E>, ty: std::marker::PhantomData<Ty> }
    impl<E, Ty: EdgeType> Graph<E, Ty> {
        pub fn new() -> Self { Graph { edges: Vec::new(), ty: std::marker::PhantomData } }
        pub fn push(&mut self, e: E) { self.edges.push(e) }
        pub fn edges(&self) -> Edges<'_, E, Ty> { Edges { it: self.edges.iter(), ty: std::marker::PhantomData } }
    }
    pub struct Edges<'a, E, Ty> { it: std::slice::Iter<'a, E>, ty: std::marker::PhantomData<Ty> }
    impl<'a, E, Ty: EdgeType> Iterator for Edges<'a, E, Ty> {
        type Item = EdgeReference<'a, E, Ty>;
        fn next(&mut self) -> Option<Self::Item> {
            self.it.next().map(|w| EdgeReference { w, ty: std::marker::PhantomData })
        }
    }
    pub struct EdgeReference<'a, E, Ty> { w: &'a E, ty: std::marker::PhantomData<Ty> }
    impl<'a, E, Ty: EdgeType> EdgeReference<'a, E, Ty> {
        pub fn weight(&self) -> &'a E { self.w }
    }
"#;

#[test]
fn a_borrowing_type_handed_out_takes_its_owners_instantiation_of_a_marker_parameter() {
    let (_, text) = generate(&[("lib.rs", MARKED)], &[]);
    assert!(
        text.lines()
            .any(|l| l.trim().starts_with("edges_weight(ref self)")
                && l.contains("for mut b in {self}.edges() { std::hint::black_box(b.weight()); }")),
        "{text}"
    );
}

/// An extension trait on `str` hands out an iterator borrowing the string, whose own
/// inherent method (`as_str`, the text not yet segmented) has no other route: its
/// constructor is private. unicode-segmentation's `Graphemes` has this shape.
const ON_STRINGS: &str = r#"
    mod seg {
        pub struct Words<'a> { rest: &'a str }
        impl<'a> Words<'a> {
            pub fn as_str(&self) -> &'a str { self.rest }
        }
        impl<'a> Iterator for Words<'a> {
            type Item = &'a str;
            fn next(&mut self) -> Option<&'a str> { None }
        }
        pub(crate) fn new_words(s: &str) -> Words<'_> { Words { rest: s } }
    }
    pub use seg::Words;
    pub trait Segment {
        fn words(&self, extended: bool) -> Words<'_>;
    }
    impl Segment for str {
        fn words(&self, extended: bool) -> Words<'_> { seg::new_words(self) }
    }
"#;

#[test]
fn a_borrowing_type_handed_out_by_a_trait_method_on_strings_has_its_methods_chained() {
    let (_, text) = generate(&[("lib.rs", ON_STRINGS)], &[]);
    assert!(
        text.lines().any(|l| l.trim().starts_with("words_as_str(")
            && l.contains("<str as demo::Segment>::words(&{text}, {extended}).as_str()")),
        "{text}"
    );
}

/// A borrowing type with an inherent `weight` and the crate trait's `weight` beside it:
/// `e.weight()` is one method, counted once as on a registered type. petgraph's
/// `graph::EdgeReference` read "4 of its 5 methods" with every name registered.
const SHADOWED: &str = r#"
    pub trait EdgeRef { fn weight(&self) -> &u64; fn id(&self) -> usize; }
    pub struct Graph { w: Vec<u64> }
    impl Graph {
        pub fn new() -> Self { Graph { w: Vec::new() } }
        pub fn edge(&self, i: usize) -> Option<EdgeReference<'_>> { self.w.get(i).map(|w| EdgeReference { w, i }) }
    }
    pub struct EdgeReference<'a> { w: &'a u64, i: usize }
    impl<'a> EdgeReference<'a> {
        pub fn weight(&self) -> &'a u64 { self.w }
    }
    impl EdgeRef for EdgeReference<'_> {
        fn weight(&self) -> &u64 { self.w }
        fn id(&self) -> usize { self.i }
    }
"#;

#[test]
fn a_trait_method_named_like_an_inherent_one_counts_once_on_a_borrowing_type() {
    let (m, text) = generate(&[("lib.rs", SHADOWED)], &[]);
    let why = m
        .skipped_types
        .iter()
        .find(|(p, _)| p == "EdgeReference")
        .map(|(_, w)| w.clone());
    assert_eq!(
        why,
        Some(super::skips::SkipReason::HandedOut {
            reached: 2,
            methods: 2
        }),
        "{text}"
    );
}

/// A borrowing type over any `G`, built from `&mut G`, whose method is written for the
/// crate's graph only: `G` is the registered graph, lent mutably to the constructor.
/// petgraph's `graph::Frozen` has this shape; the compiler rejected `index_twice_mut` on
/// `Frozen<Key>`.
const FROZEN: &str = r#"
    pub trait EdgeType {}
    pub struct Directed;
    impl EdgeType for Directed {}
    pub struct Graph<N, Ty = Directed> { nodes: Vec<N>, ty: std::marker::PhantomData<Ty> }
    impl<N, Ty: EdgeType> Graph<N, Ty> {
        pub fn new() -> Self { Graph { nodes: Vec::new(), ty: std::marker::PhantomData } }
        pub fn add_node(&mut self, n: N) { self.nodes.push(n) }
    }
    pub struct Frozen<'a, G: 'a>(&'a mut G);
    impl<'a, G> Frozen<'a, G> {
        pub fn new(gr: &'a mut G) -> Self { Frozen(gr) }
    }
    impl<N, Ty> Frozen<'_, Graph<N, Ty>> where Ty: EdgeType {
        pub fn first_mut(&mut self) -> Option<&mut N> { self.0.nodes.first_mut() }
    }
"#;

#[test]
fn a_borrowing_types_unbounded_parameter_is_the_crate_type_its_impl_block_names() {
    let (_, text) = generate(&[("lib.rs", FROZEN)], &[]);
    let line = text
        .lines()
        .find(|l| l.trim().starts_with("new_first_mut("))
        .unwrap_or_else(|| panic!("{text}"));
    assert!(
        line.contains("demo::Frozen::<Graph<Key,demo::Directed>>::new(")
            && !line.contains("gr: mut Key"),
        "{line}"
    );
}
