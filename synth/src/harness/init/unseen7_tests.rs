//! Init on API shapes of registry crates tried in the session (dary_heap, im), each as a small
//! synthetic crate.

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

/// im's `mod ord;` (private) with `pub use crate::ord::map as ordmap;` and then
/// `pub use crate::ordmap::OrdMap;`: a module re-exported under another name, and a type
/// re-exported through that name. The type was unreachable, and im registered only its
/// `Vector` (2 types of 6, 70 methods of 251).
#[test]
fn a_type_reexported_through_a_renamed_module_is_reachable() {
    let lib = r#"
        mod ord;
        pub use crate::ord::map as ordmap;
        pub use crate::ordmap::OrdMap;
    "#;
    let ord = r#"
        pub mod map;
    "#;
    let map = r#"
        pub struct OrdMap<K, V> { items: Vec<(K, V)> }
        impl<K: Ord, V> OrdMap<K, V> {
            pub fn new() -> Self { OrdMap { items: Vec::new() } }
            /// Time: O(log n)
            pub fn get(&self, k: &K) -> Option<&V> { None }
        }
    "#;
    let (_, text) = generate(
        &[("lib.rs", lib), ("ord/mod.rs", ord), ("ord/map.rs", map)],
        &[],
    );
    assert!(
        text.contains(r#"get(ref self, k: ref Key) ["O(log n)"];"#),
        "{text}"
    );
    assert!(text.contains("use demo::OrdMap;"), "{text}");
}

/// im's `OrdMap::update_lookup_with_key(self, ..) -> (Option<V>, Self)`: the result was
/// dropped inside the measured call, which charged an O(log n) update for dropping the whole
/// new map (reported O(n)). An owned result a caller keeps is marked `{kept}` (dropped after
/// the window); a result that may borrow, whose drop may be the call's work (`Drain<T>`, a
/// crate type unknown to own), or one kept as a variable, is not.
#[test]
fn an_owned_result_is_dropped_after_the_measured_window() {
    let map = r#"
        pub struct Drain<'a, K> { map: &'a mut Map<K> }
        pub struct Map<K> { keys: Vec<K> }
        impl<K: Ord + Clone> Map<K> {
            pub fn new() -> Self { Map { keys: Vec::new() } }
            pub fn update_lookup(self, k: K) -> (Option<K>, Self) { (Some(k), self) }
            pub fn split_off(&mut self, at: usize) -> Vec<K> { self.keys.split_off(at) }
            pub fn first(&self) -> Option<&K> { self.keys.first() }
            pub fn drain(&mut self) -> Drain<K> { Drain { map: self } }
            pub fn without(&self, k: &K) -> Self { Map { keys: self.keys.clone() } }
            pub fn len(&self) -> usize { self.keys.len() }
        }
    "#;
    let (_, text) = generate(&[("lib.rs", map)], &[]);
    let line = |name: &str| {
        text.lines()
            .find(|l| l.trim_start().starts_with(&format!("{name}(")))
            .unwrap_or_else(|| panic!("no {name} in {text}"))
            .to_string()
    };
    assert!(line("update_lookup").contains("{kept}"), "{text}");
    assert!(line("split_off").contains("{kept}"), "{text}");
    for name in ["first", "drain", "without", "len"] {
        assert!(!line(name).contains("{kept}"), "{name}: {text}");
    }
}
