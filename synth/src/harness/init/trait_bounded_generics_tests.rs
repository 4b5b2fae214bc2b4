//! Parameters bounded by the crate's own traits, instantiated with a registered type of the
//! crate that implements them (see `trait_impls`).

use super::tests::generate;

const GRAPH: &str = r#"
    pub trait Base { type NodeId; }
    pub trait Neighbors: Base { fn neighbors(self, n: Self::NodeId) -> usize; }
    #[derive(Clone, Copy)]
    pub struct Node(usize);
    impl Node { pub fn new(i: usize) -> Self { Node(i) } }
    pub trait Visitable { fn visit_map(&self) -> Vec<bool>; }
    pub trait Unrelated { fn x(&self); }
    pub struct Net { edges: Vec<(usize, usize)> }
    impl Net { pub fn new() -> Self { Net { edges: Vec::new() } } pub fn add(&mut self, a: usize, b: usize) {} }
    impl Base for Net { type NodeId = Node; }
    impl<'a> Base for &'a Net { type NodeId = Node; }
    impl<'a> Neighbors for &'a Net { fn neighbors(self, n: Node) -> usize { 0 } }
    impl Visitable for Net { fn visit_map(&self) -> Vec<bool> { Vec::new() } }
    impl<'a, G: Visitable> Visitable for &'a G { fn visit_map(&self) -> Vec<bool> { (**self).visit_map() } }
    pub struct Bag { v: Vec<u64> }
    impl Bag { pub fn new() -> Self { Bag { v: Vec::new() } } }
    impl Visitable for Bag { fn visit_map(&self) -> Vec<bool> { Vec::new() } }
    /// Runs in O(n).
    pub fn is_cyclic<G>(g: G) -> bool where G: Neighbors + Visitable { false }
    pub fn marks<V: Visitable>(v: &V) -> usize { 0 }
    pub fn reaches<G: Neighbors>(g: G, from: G::NodeId) -> bool { false }
    pub fn other<U: Unrelated>(u: U) {}
    pub fn chosen<V: Visitable>(n: usize) -> Option<V> { None }
"#;

#[test]
fn parameter_bounded_by_crate_traits_implemented_for_a_reference_takes_a_borrowed_crate_value() {
    let (_, text) = generate(&[("lib.rs", GRAPH)], &[]);
    assert!(
        text.contains(r#"is_cyclic(ref self, g: ref Net) -> bool ["O(n)"] as "demo::is_cyclic(&{g})" => |_namespace| demo::is_cyclic(g);"#),
        "{text}"
    );
}

#[test]
fn associated_type_of_an_instantiated_parameter_takes_the_registered_type_its_impl_names() {
    let (_, text) = generate(&[("lib.rs", GRAPH)], &[]);
    assert!(
        text.contains(r#"reaches(ref self, g: ref Net, from: copy Node) -> bool as "demo::reaches(&{g}, {from})""#),
        "{text}"
    );
}

#[test]
fn parameter_bounded_by_a_crate_trait_implemented_by_value_takes_the_crate_type() {
    let (_, text) = generate(&[("lib.rs", GRAPH)], &[]);
    // Both implement `Visitable`; `Net` implements more of the crate's traits.
    assert!(
        text.contains(r#"marks(ref self, v: ref Net) -> usize as "demo::marks(&{v})""#),
        "{text}"
    );
}

#[test]
fn parameter_bounded_by_a_crate_trait_no_registered_type_implements_is_skipped() {
    let (m, text) = generate(&[("lib.rs", GRAPH)], &[]);
    assert!(!text.contains("demo::other("), "{text}");
    // A parameter no argument has (only the result names it) is not instantiated either:
    // the caller's choice, which no argument tells the compiler.
    assert!(!text.contains("demo::chosen("), "{text}");
    let skipped = super::tests::skipped_file(&m);
    assert!(
        skipped.skipped.iter().any(|s| s.item.ends_with("other")),
        "{:?}",
        skipped.skipped
    );
}

#[test]
fn parameter_bounded_by_borrow_of_self_takes_a_borrowed_value_of_the_type() {
    let src = r#"
        use std::borrow::Borrow;
        pub struct Map { v: Vec<u64> }
        impl Map {
            pub fn new() -> Self { Map { v: Vec::new() } }
            pub fn is_submap<RM>(&self, other: RM) -> bool where RM: Borrow<Self> { false }
        }
    "#;
    let (_, text) = generate(&[("lib.rs", src)], &[]);
    assert!(
        text.contains(r#"is_submap(ref self, other: ref Map) -> bool"#),
        "{text}"
    );
}

#[test]
fn associated_type_written_with_a_module_path_takes_the_registered_type_of_that_module() {
    let src = r#"
        pub trait Base { type NodeId; }
        pub trait Walk: Base { fn walk(self); }
        pub mod a {
            #[derive(Clone, Copy)]
            pub struct Node(usize);
            impl Node { pub fn new(i: usize) -> Self { Node(i) } }
        }
        pub mod b { pub struct Node { p: std::marker::PhantomData<u8> } }
        pub struct Net { n: Vec<usize> }
        impl Net { pub fn new() -> Self { Net { n: Vec::new() } } }
        impl<'a> Base for &'a Net { type NodeId = a::Node; }
        impl<'a> Walk for &'a Net { fn walk(self) {} }
        pub fn reaches<G: Walk>(g: G, from: G::NodeId) -> bool { false }
    "#;
    let (_, text) = generate(&[("lib.rs", src)], &[]);
    assert!(
        text.contains(r#"reaches(ref self, g: ref Net, from: copy a::Node) -> bool"#),
        "{text}"
    );
}

/// A blanket impl for `&mut T` is not one for `&T`: a parameter bounded by the trait takes
/// a value of a type implementing it by value, not a shared borrow of one (the compiler
/// rejected `&Bytes` where `Buf` holds for `Bytes` and `&mut Bytes`).
#[test]
fn a_blanket_impl_for_mutable_references_is_not_one_for_shared_borrows() {
    let lib = r#"
        pub trait Buf { fn remaining(&self) -> usize; }
        impl<T: Buf + ?Sized> Buf for &mut T { fn remaining(&self) -> usize { (**self).remaining() } }
        #[derive(Clone)]
        pub struct Bytes { v: Vec<u8> }
        impl Buf for Bytes { fn remaining(&self) -> usize { self.v.len() } }
        impl Bytes {
            pub fn new() -> Self { Bytes { v: Vec::new() } }
            pub fn absorb<U: Buf>(&mut self, next: U) -> usize { next.remaining() }
        }
    "#;
    let (_, text) = generate(&[("lib.rs", lib)], &[]);
    assert!(text.contains("absorb(mut self, next: val Bytes)"), "{text}");
}
