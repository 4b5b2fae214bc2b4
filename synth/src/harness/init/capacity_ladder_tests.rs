//! Capacity ladders: a type with a const generic capacity registers at its main capacity and
//! again at each rung of `capacity_ladder::RUNGS`, each marked as a rung of the main one.

use super::tests::generate;

/// arrayvec's `ArrayString<const CAP: usize>` (a capacity that sizes a field) registered at
/// 8192 only: `zero_filled()` made an 8192-byte string in one statement and no sweep varied
/// its size ("0.0 decades"); heapless's `MpMcQueue<T, N>` cannot be built at 8192 at all. The
/// type now registers at 16, 128 and 1024 too, with every capacity of the registration (its
/// constructors, a method returning `Self`, a parameter of the same capacity) replaced, and
/// the registry marks those as rungs of the main registration. A const parameter that is
/// not a capacity (an arity no field mentions) gets no ladder.
#[test]
fn a_fixed_capacity_type_registers_at_each_rung_of_its_capacity_ladder() {
    let src = r#"
        pub struct Text<const CAP: usize> { xs: [u8; CAP], len: usize }
        impl<const CAP: usize> Text<CAP> {
            pub fn new() -> Self { Text { xs: [0; CAP], len: 0 } }
            pub fn zero_filled() -> Self { Text { xs: [0; CAP], len: CAP } }
            pub fn len(&self) -> usize { self.len }
            pub fn pop(&mut self) -> Option<u8> { None }
            pub fn take(&mut self) -> Self { Text::new() }
            pub fn append(&mut self, other: &mut Text<CAP>) {}
        }
        pub struct Heap<T, const D: usize> { data: Vec<T> }
        impl<T: Ord, const D: usize> Heap<T, D> {
            pub fn new() -> Self { Heap { data: Vec::new() } }
            pub fn len(&self) -> usize { self.data.len() }
        }
    "#;
    let (_, text) = generate(&[("lib.rs", src)], &[]);
    assert!(text.contains("pub fn text() -> Text<8192>"), "{text}");
    for cap in [16, 128, 1024] {
        assert!(
            text.contains(&format!("pub fn text_at_{cap}() -> Text<{cap}>")),
            "{text}"
        );
        assert!(
            text.contains(&format!("zero_filled() => <Text<{cap}>>::zero_filled();")),
            "{text}"
        );
        assert!(
            text.contains(&format!(
                "perfsyn_api::text_at_{cap}().rung_of(&perfsyn_api::text(), {cap}),"
            )),
            "{text}"
        );
    }
    assert!(text.contains("take(mut self) -> Text<16>;"), "{text}");
    assert!(!text.contains("heap_at_16"), "{text}");
    assert_eq!(text.matches("pub fn heap").count(), 1, "{text}");
}
