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

/// arrayvec's `ArrayString::from_byte_string(b: &[u8; CAP])` was skipped ("type `[u8;CAP]`
/// is not in the program model"). A byte array of the type's own length is a program
/// string's bytes, padded or cut to the length the parameter's type gives; an array of a
/// function's own const length keeps one program value per element.
#[test]
fn a_byte_array_of_the_types_capacity_is_a_program_strings_bytes() {
    let lib = r#"
        pub struct Text<const CAP: usize> { xs: [u8; CAP], len: usize }
        impl<const CAP: usize> Text<CAP> {
            pub fn new() -> Self { Text { xs: [0; CAP], len: 0 } }
            pub fn from_byte_string(b: &[u8; CAP]) -> Self { Text { xs: *b, len: CAP } }
            pub fn fill(&mut self, b: [u8; CAP]) { self.xs = b; }
            pub fn pick<const N: usize>(&self, at: [u8; N]) -> usize { at.len() }
        }
    "#;
    let (_, text) = generate(&[("lib.rs", lib)], &[]);
    for line in [
        "from_byte_string(b: ref String) as \"Text::<8192>::from_byte_string(&std::array::from_fn(|i| {b}.as_bytes().get(i).copied().unwrap_or(0)))\"",
        "fill(mut self, b: ref String) as \"{self}.fill(std::array::from_fn(|i| {b}.as_bytes().get(i).copied().unwrap_or(0)))\"",
        "pick(ref self, at: copy u8, at_1: copy u8)",
    ] {
        assert!(text.contains(line), "{line}\n{text}");
    }
}
