//! Init on API shapes of registry crates tried in the session (rust-lapper), each as a small
//! synthetic crate.

use super::tests::generate;

/// rust-lapper's `Lapper<I, T> where I: PrimInt + Unsigned + Ord, T: Eq + Clone`, built by
/// `Lapper::new(Vec<Interval<I, T>>)`: the num-traits bounds are `u64`'s (the type was
/// skipped: "needs PrimInt + Unsigned which neither the probe key nor an integer
/// implements"), and a vector of the crate's generic type is a vector like any other
/// (`Lapper` had no constructor the model could call; its 14 methods were unreachable).
#[test]
fn num_traits_bounds_take_u64_and_vectors_hold_generic_crate_types() {
    let lib = r#"
        use num_traits::{PrimInt, Unsigned};
        pub struct Interval<I: PrimInt + Unsigned + Ord + Clone, T: Eq + Clone> {
            pub start: I, pub stop: I, pub val: T,
        }
        pub struct Lapper<I: PrimInt + Unsigned + Ord + Clone, T: Eq + Clone> {
            intervals: Vec<Interval<I, T>>,
        }
        impl<I: PrimInt + Unsigned + Ord + Clone, T: Eq + Clone> Lapper<I, T> {
            pub fn new(intervals: Vec<Interval<I, T>>) -> Self { Lapper { intervals } }
            pub fn count(&self, start: I, stop: I) -> usize { 0 }
        }
    "#;
    let (_, text) = generate(&[("lib.rs", lib)], &[]);
    assert!(
        text.contains("pub fn lapper() -> Lapper<u64,Key>"),
        "{text}"
    );
    assert!(
        text.contains("pub fn interval() -> Interval<u64,Key>"),
        "{text}"
    );
    assert!(text.contains("vec_interval_u64_key(),"), "{text}");
    assert!(
        text.contains("new(intervals: val Vec<Interval<u64,Key>>)"),
        "{text}"
    );
}

/// min-max-heap's `drain_asc`: "*O*(1) on creation, and *O*(log *n*) for each `next()`
/// operation". Consuming the iterator is n times the per-item class, O(n log n); it was read
/// as the highest class (O(log n)) raised to the walk's O(n), and the hunt reported the
/// sorted drain as a false O(n log n) finding. A class per call stays the call's.
#[test]
fn a_class_per_item_of_a_returned_iterator_is_paid_n_times() {
    let lib = r#"
        pub struct Heap<T> { xs: Vec<T> }
        pub struct DrainAsc<'a, T>(&'a mut Heap<T>);
        impl<'a, T: Ord> Iterator for DrainAsc<'a, T> {
            type Item = T;
            fn next(&mut self) -> Option<T> { self.0.xs.pop() }
        }
        pub struct Iter<'a, T>(std::slice::Iter<'a, T>);
        impl<'a, T> Iterator for Iter<'a, T> {
            type Item = &'a T;
            fn next(&mut self) -> Option<&'a T> { self.0.next() }
        }
        impl<T: Ord> Heap<T> {
            pub fn new() -> Self { Heap { xs: Vec::new() } }
            /// Returns a draining iterator in ascending order.
            ///
            /// *O*(1) on creation, and *O*(log *n*) for each `next()` operation.
            pub fn drain_asc(&mut self) -> DrainAsc<'_, T> { DrainAsc(self) }
            /// Iterates in arbitrary order. O(1) per element.
            pub fn iter(&self) -> Iter<'_, T> { Iter(self.xs.iter()) }
            /// Visits the items. O(log n) per call.
            pub fn walk(&self) -> Iter<'_, T> { Iter(self.xs.iter()) }
        }
    "#;
    let (_, text) = generate(&[("lib.rs", lib)], &[]);
    let line = |name: &str| {
        text.lines()
            .find(|l| l.trim_start().starts_with(&format!("{name}(")))
            .unwrap_or_else(|| panic!("no {name} in {text}"))
            .to_string()
    };
    assert!(line("drain_asc").contains(r#"["O(n log n)"]"#), "{text}");
    assert!(line("iter").contains(r#"["O(n)"]"#), "{text}");
    assert!(line("walk").contains(r#"["O(n)"]"#), "{text}");
}

/// crop's `#[doc(hidden)] pub use rope::gap_buffer::GapBuffer` ("These are not part of the
/// public API, we only export them to be able to run doctests") and `#[doc(hidden)] pub mod
/// tree`: internals registered beside the API (GapBuffer, 23 methods) and hunted against no
/// promise. Hidden re-exports, modules, types and methods are left out.
#[test]
fn items_hidden_from_the_docs_are_not_the_api() {
    let lib = r#"
        mod rope {
            pub struct Rope { s: String }
            impl Rope {
                pub fn new() -> Self { Rope { s: String::new() } }
                pub fn len(&self) -> usize { self.s.len() }
                #[doc(hidden)]
                pub fn assert_invariants(&self) {}
            }
            pub mod gap {
                pub struct GapBuffer { s: String }
                impl GapBuffer {
                    pub fn new() -> Self { GapBuffer { s: String::new() } }
                    pub fn len(&self) -> usize { 0 }
                }
            }
        }
        #[doc(hidden)]
        pub mod tree {
            pub struct Tree { n: usize }
            impl Tree {
                pub fn new() -> Self { Tree { n: 0 } }
                pub fn len(&self) -> usize { self.n }
            }
        }
        #[doc(hidden)]
        pub struct Internal;
        impl Internal { pub fn new() -> Self { Internal } pub fn go(&self) {} }
        pub use rope::Rope;
        #[doc(hidden)]
        pub use rope::gap::GapBuffer;
    "#;
    let (m, text) = generate(&[("lib.rs", lib)], &[]);
    let registered: Vec<&str> = m.types.iter().map(|t| t.rust.as_str()).collect();
    assert_eq!(registered, ["Rope"], "{text}");
    assert!(!text.contains("assert_invariants"), "{text}");
}
