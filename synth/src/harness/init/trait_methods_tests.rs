//! Methods of the crate's own traits: on its types, on strings (extension traits), on
//! ranges, and beside an inherent method of the same name.

use super::tests::generate;

/// ringbuffer's API is its trait `RingBuffer<T>` (re-exported from a private module),
/// implemented by each buffer type: the trait's methods, required and provided, register on
/// each type with the trait's docs, and the harness imports the trait. A trait of the crate
/// that is not public, and std's traits, add nothing.
#[test]
fn methods_of_the_crates_own_trait_register_on_its_types() {
    let lib = r#"
        mod trait_def;
        pub use trait_def::RingBuffer;
        trait Hidden { fn secret(&self); }
        pub struct AllocRingBuffer<T> { v: Vec<T> }
        impl<T> AllocRingBuffer<T> {
            pub fn new(capacity: usize) -> Self { AllocRingBuffer { v: Vec::new() } }
        }
        impl<T> RingBuffer<T> for AllocRingBuffer<T> {
            fn len(&self) -> usize { self.v.len() }
            /// Pushes to the back.
            fn enqueue(&mut self, value: T) -> Option<T> { None }
        }
        impl<T> Hidden for AllocRingBuffer<T> { fn secret(&self) {} }
        impl<T> Clone for AllocRingBuffer<T> { fn clone(&self) -> Self { AllocRingBuffer { v: Vec::new() } } }
        pub struct Bytes { v: Vec<u8> }
        impl Bytes { pub fn new() -> Self { Bytes { v: Vec::new() } } }
        impl RingBuffer<u8> for Bytes {
            fn len(&self) -> usize { self.v.len() }
            fn enqueue(&mut self, value: u8) -> Option<u8> { None }
        }
    "#;
    let def = r#"
        pub trait RingBuffer<T> {
            fn len(&self) -> usize;
            /// Runs in O(1).
            fn enqueue(&mut self, value: T) -> Option<T>;
            /// Runs in O(n).
            fn contains(&self, elem: &T) -> bool where T: PartialEq { false }
        }
    "#;
    let (_, text) = generate(&[("lib.rs", lib), ("trait_def.rs", def)], &[]);
    assert!(text.contains("use ::demo::RingBuffer as _;"), "{text}");
    assert!(
        text.contains(r#"imports: ["demo::AllocRingBuffer", "demo::RingBuffer", "#),
        "{text}"
    );
    assert!(text.contains("size: [|v| v.len() as u64]"), "{text}");
    assert!(
        text.contains(r#"enqueue(mut self, value: val Key) ["O(1)"] {kept};"#),
        "{text}"
    );
    assert!(
        text.contains(r#"contains(ref self, elem: ref Key) -> bool ["O(n)"];"#),
        "{text}"
    );
    // The trait's parameter is the impl's argument on `Bytes`.
    assert!(
        text.contains(r#"enqueue(mut self, value: copy u8) ["O(1)"] {kept};"#),
        "{text}"
    );
    assert!(!text.contains("secret"), "{text}");
    assert!(!text.contains("clone(ref self)"), "{text}");
}

/// heck's API is traits implemented for `str`; a blanket impl over `T: AsRef<str>` counts
/// too. Each method is a function of the trait's namespace, called through the
/// implementing type by path; a crate of only such traits was refused before.
#[test]
fn the_crates_traits_on_strings_register_by_trait() {
    let lib = r#"
        pub trait ToSnakeCase: ToOwned {
            /// Converts to snake case. O(n).
            fn to_snake_case(&self) -> Self::Owned;
        }
        impl ToSnakeCase for str {
            fn to_snake_case(&self) -> String { self.to_lowercase() }
        }
        pub trait Words {
            fn word_count(&self, min: usize) -> usize;
        }
        impl<T: AsRef<str>> Words for T {
            fn word_count(&self, min: usize) -> usize { self.as_ref().split(' ').filter(|w| w.len() >= min).count() }
        }
        pub trait Ordinal { fn ordinal(&self) -> u8; }
        impl Ordinal for u64 { fn ordinal(&self) -> u8 { 0 } }
    "#;
    let (_, text) = generate(&[("lib.rs", lib)], &[]);
    assert!(
        text.contains(r#"to_snake_case(ref self, text: str String) ["O(n)"] as "<str as demo::ToSnakeCase>::to_snake_case(&{text})""#),
        "{text}"
    );
    assert!(
        text.contains(r#"as "<String as demo::Words>::word_count(&{text}, {min})""#),
        "{text}"
    );
    assert!(text.contains(r#"name: "ToSnakeCase""#), "{text}");
    assert!(!text.contains("ordinal"), "not a trait on strings: {text}");
    // Strings grow in a loop.
    assert!(text.contains("push_number(mut self"), "{text}");
}

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

/// fixedbitset's range methods take `T: IndexRange`, the crate's own trait implemented for
/// `Range<T>` and the other range types: they register with a `start..end` of `usize` (8
/// methods were skipped: "neither the probe key nor a closure the model builds").
#[test]
fn a_crate_trait_implemented_for_range_takes_a_range() {
    let lib = r#"
        use core::ops::{Range, RangeFull};
        pub trait IndexRange<T = usize> {
            fn start(&self) -> Option<T> { None }
            fn end(&self) -> Option<T> { None }
        }
        impl<T> IndexRange<T> for RangeFull {}
        impl<T: Copy> IndexRange<T> for Range<T> {
            fn start(&self) -> Option<T> { Some(self.start) }
            fn end(&self) -> Option<T> { Some(self.end) }
        }
        pub struct FixedBitSet { v: Vec<bool> }
        impl FixedBitSet {
            pub fn new() -> Self { FixedBitSet { v: Vec::new() } }
            pub fn len(&self) -> usize { self.v.len() }
            pub fn count_ones<T: IndexRange>(&self, range: T) -> usize { 0 }
            pub fn set_range<T: IndexRange>(&mut self, range: T, enabled: bool) {}
        }
    "#;
    let (_, text) = generate(&[("lib.rs", lib)], &[]);
    assert!(text.contains("count_ones(ref self, range:"), "{text}");
    assert!(text.contains("set_range(mut self, range:"), "{text}");
    assert!(!text.contains("skipped: FixedBitSet::count_ones"), "{text}");
}
