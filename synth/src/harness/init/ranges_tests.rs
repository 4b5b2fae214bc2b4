//! Range parameters (`Range<T>`, `R: RangeBounds<T>`): built from two program values.

use super::tests::generate;

/// rangemap's `RangeMap<K, V>` takes ranges of its key as values (`insert(Range<K>, V)`),
/// references (`overlaps(&Range<K>)`), inclusive ones, and `R: Borrow<Range<K>>`: each is
/// built from two program values, a range type itself never empty.
#[test]
fn range_typed_parameters_are_built_from_two_values() {
    let lib = r#"
        use std::ops::{Range, RangeInclusive};
        use core::borrow::Borrow;
        pub struct RangeMap<K, V> { v: Vec<(Range<K>, V)> }
        impl<K: Ord + Clone, V: Eq + Clone> RangeMap<K, V> {
            pub fn new() -> Self { RangeMap { v: Vec::new() } }
            pub fn insert(&mut self, range: Range<K>, value: V) {}
            pub fn overlaps(&self, range: &Range<K>) -> bool { false }
            pub fn remove_inclusive(&mut self, range: std::ops::RangeInclusive<K>) {}
            pub fn overlapping<R: Borrow<Range<K>>>(&self, range: R) -> usize { 0 }
            pub fn span(&self, r: Range<usize>) -> usize { 0 }
            pub fn strings(&self, r: Range<String>) -> usize { 0 }
        }
    "#;
    let (_, text) = generate(&[("lib.rs", lib)], &[]);
    for call in [
        "insert(mut self, range: val Key, range_end: val Key, value: val Key)",
        "overlaps(ref self, range: val Key, range_end: val Key)",
        "remove_inclusive(mut self, range: val Key, range_end: val Key)",
        "overlapping(ref self, range: val Key, range_end: val Key)",
        "span(ref self, r: copy usize, r_end: copy usize)",
    ] {
        assert!(text.contains(call), "{call}\n{text}");
    }
    // Never empty (rangemap's insert asserts `start < end`): lower to higher, one past.
    assert!(
        text.contains("{ let (s, e) = ({range}.get(), {range_end}.get()); Key::new(s.min(e))..Key::new(s.max(e).saturating_add(1)) }"),
        "{text}"
    );
    assert!(text.contains("&({ let (s, e) = ({range}.get()"), "{text}");
    assert!(
        text.contains("Key::new(s.min(e))..=Key::new(s.max(e)) }"),
        "{text}"
    );
    assert!(
        text.contains("{r}.min({r_end})..{r}.max({r_end}).saturating_add(1)"),
        "{text}"
    );
    assert!(text.contains("// skipped: RangeMap::strings"), "{text}");
}

/// indexset 0.18 declares `BTreeSet::range<R, Q>(&self, range: R) where T: Borrow<Q>, R:
/// RangeBounds<Q>` and `BTreeMap::range<Q, R>` the other way round: init read `R` before it
/// knew `Q` and skipped the set's `range` ("generic parameter R: RangeBounds<Q>"), while the
/// map's registered. A parameter whose bounds name another is read after it.
#[test]
fn a_range_over_a_later_declared_key_parameter_registers() {
    let lib = r#"
        use std::borrow::Borrow;
        use std::ops::RangeBounds;
        pub struct Set<T> { v: Vec<T> }
        impl<T: Ord> Set<T> {
            pub fn new() -> Self { Set { v: Vec::new() } }
            pub fn range<R, Q>(&self, range: R) -> usize where Q: Ord + ?Sized, T: Borrow<Q>, R: RangeBounds<Q> { 0 }
        }
    "#;
    let (_, text) = generate(&[("lib.rs", lib)], &[]);
    assert!(
        text.contains("range(ref self, range: val Key, range_end: val Key) -> usize as \"{self}.range({range}..{range_end})\""),
        "{text}"
    );
}

/// Ranges of any integer (roaring's `insert_range<R: RangeBounds<u32>>`) or of the key
/// are `start..end`; `IntoIterator<Item = u32>` / `impl Iterator<Item = T>` parameters
/// are a vector of program values (itself, or its `into_iter()`).
#[test]
fn ranges_of_any_integer_and_sequences_of_items_are_built() {
    let lib = r#"
        pub struct Bits<T> { v: Vec<T> }
        impl<T: Ord> Bits<T> {
            pub fn new() -> Self { Bits { v: Vec::new() } }
            pub fn insert_range<R: std::ops::RangeBounds<u32>>(&mut self, range: R) -> u64 { 0 }
            pub fn keys_in<R>(&self, range: R) where R: std::ops::RangeBounds<T> {}
            pub fn append<I: IntoIterator<Item = u32>>(&mut self, iter: I) {}
            pub fn extend_keys(&mut self, items: impl Iterator<Item = T>) {}
            pub fn pairs<I: IntoIterator<Item = (u32, u32)>>(&mut self, iter: I) {}
        }
    "#;
    let (m, text) = generate(&[("lib.rs", lib)], &[]);
    assert!(
        text.contains("insert_range(mut self, range: copy u32, range_end: copy u32) -> u64 as \"{self}.insert_range({range}..{range_end})\""),
        "{text}"
    );
    assert!(
        text.contains("keys_in(ref self, range: val Key, range_end: val Key) as \"{self}.keys_in({range}..{range_end})\""),
        "{text}"
    );
    assert!(
        text.contains("append(mut self, iter: val Vec<u32>);"),
        "{text}"
    );
    assert!(
        text.contains("extend_keys(mut self, items: val Vec<Key>) as \"{self}.extend_keys({items}.into_iter())\""),
        "{text}"
    );
    assert!(
        text.contains("// skipped: Bits::pairs: generic parameter I"),
        "{text}"
    );
    assert_eq!(m.methods(), 4, "{text}");
}
