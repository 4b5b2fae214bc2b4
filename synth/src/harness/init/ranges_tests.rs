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
