//! Const generic parameters: which ones size a type's storage (a capacity the sweep must
//! exceed) and which do not.

use super::tests::generate;

/// dary_heap's `DaryHeap<T, const D: usize> { data: Vec<T> }`: `D` is the heap's arity,
/// which no field's type mentions, not a capacity. It got the capacity's 8192, a heap one
/// level deep at every size a sweep reaches, and `pop` (documented O(log n)) was reported
/// O(n). It now takes the crate's first alias that fixes it (`BinaryHeap<T> = DaryHeap<T,
/// 2>`), or a small constant without one; a const that sizes a field keeps the capacity.
#[test]
fn a_const_parameter_no_field_mentions_is_not_a_capacity() {
    let heap = r#"
        pub struct DaryHeap<T, const D: usize> { data: Vec<T> }
        impl<T: Ord, const D: usize> DaryHeap<T, D> {
            pub fn new() -> Self { DaryHeap { data: Vec::new() } }
            /// Removes the greatest item.
            ///
            /// The worst case cost of `pop` is *O*(log(*n*)).
            pub fn pop(&mut self) -> Option<T> { self.data.pop() }
        }
    "#;
    let aliased = format!(
        "{heap}\n pub type BinaryHeap<T> = DaryHeap<T, 2>;\n pub type TernaryHeap<T> = DaryHeap<T, 3>;"
    );
    let (_, text) = generate(&[("lib.rs", aliased.as_str())], &[]);
    assert!(
        text.contains("pub fn dary_heap() -> DaryHeap<Key,2>"),
        "{text}"
    );
    let (_, text) = generate(&[("lib.rs", heap)], &[]);
    assert!(
        text.contains("pub fn dary_heap() -> DaryHeap<Key,8>"),
        "{text}"
    );
    // A capacity sizes a field, directly or through another type's parameter.
    let fixed = r#"
        pub struct Ring<T, const CAP: usize> { xs: [Option<T>; CAP], head: usize }
        impl<T, const CAP: usize> Ring<T, CAP> {
            pub fn new() -> Self { Ring { xs: [const { None }; CAP], head: 0 } }
            pub fn len(&self) -> usize { self.head }
        }
        pub struct Inline<T, const N: usize> { buf: arrayvec::ArrayVec<T, N> }
        impl<T, const N: usize> Inline<T, N> {
            pub fn new() -> Self { Inline { buf: arrayvec::ArrayVec::new() } }
            pub fn len(&self) -> usize { 0 }
        }
        pub type SmallRing<T> = Ring<T, 4>;
    "#;
    let (_, text) = generate(&[("lib.rs", fixed)], &[]);
    assert!(text.contains("pub fn ring() -> Ring<Key,8192>"), "{text}");
    assert!(
        text.contains("pub fn inline() -> Inline<Key,8192>"),
        "{text}"
    );
}
