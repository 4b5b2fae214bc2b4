//! Complexity classes from doc comments: a crate-level table or sentence naming methods, a
//! class per item of a returned iterator, a worst case beside an amortized class.

use super::tests::generate;

/// scapegoat documents its classes once, in a table of the crate root's doc, naming each
/// method bare (`` `get` ``) with classes in code (`` `O(log n)` ``): they apply to every
/// type's methods that their own docs leave without a class.
#[test]
fn a_crate_doc_table_gives_classes_to_every_type() {
    let lib = r#"
        /*!
        Space complexity is always `O(n)`. Time complexity:

        | Operation | Average Case | Worst Case |
        | --- | --- | --- |
        | `get` | `O(log n)` | `O(log n)` |
        | `insert` | `O(log n)` | Amortized `O(log n)` |
        | `first` | `O(1)` | `O(1)` |
        */
        pub struct SgMap<K, V> { v: Vec<(K, V)> }
        impl<K: Ord, V> SgMap<K, V> {
            pub fn new() -> Self { SgMap { v: Vec::new() } }
            pub fn get(&self, k: &K) -> Option<&V> { None }
            /// Runs in O(n).
            pub fn first(&self) -> Option<&K> { None }
            pub fn len(&self) -> usize { 0 }
        }
        pub struct SgSet<T> { v: Vec<T> }
        impl<T: Ord> SgSet<T> {
            pub fn new() -> Self { SgSet { v: Vec::new() } }
            pub fn insert(&mut self, t: T) -> bool { false }
        }
    "#;
    let (_, text) = generate(&[("lib.rs", lib)], &[]);
    assert!(
        text.contains(r#"get(ref self, k: ref Key) ["O(log n)"];"#),
        "{text}"
    );
    assert!(
        text.contains(r#"insert(mut self, t: val Key) -> bool ["O(log n)"];"#),
        "{text}"
    );
    // The method's own doc wins.
    assert!(text.contains(r#"first(ref self) ["O(n)"];"#), "{text}");
    assert!(text.contains("len(ref self) -> usize;"), "{text}");
}

/// lru states its classes once, in the crate doc: "The cache supports `get`, `get_mut`,
/// `put`, and `pop` operations, all of which are O(1)." Those methods are documented O(1)
/// (every method was `undocumented`, so a hunt could find nothing); a method the sentence
/// does not name stays undocumented, and a method's own doc wins.
#[test]
fn a_crate_doc_sentence_naming_methods_gives_them_its_class() {
    let lib = r#"
        //! An implementation of a LRU cache. The cache supports `get`, `get_mut`, `put`,
        //! and `pop` operations, all of which are O(1). This crate was influenced by std.
        pub struct LruCache { v: Vec<u64> }
        impl LruCache {
            pub fn new() -> Self { LruCache { v: Vec::new() } }
            pub fn len(&self) -> usize { self.v.len() }
            pub fn put(&mut self, k: u64) { self.v.push(k) }
            pub fn get(&self, k: u64) -> bool { self.v.contains(&k) }
            /// Takes O(n) time.
            pub fn pop(&mut self, k: u64) { self.v.retain(|x| *x != k) }
            pub fn clear(&mut self) { self.v.clear() }
        }
    "#;
    let (_, text) = generate(&[("lib.rs", lib)], &[]);
    assert!(
        text.contains(r#"put(mut self, k: copy u64) ["O(1)"];"#),
        "{text}"
    );
    assert!(
        text.contains(r#"get(ref self, k: copy u64) -> bool ["O(1)"];"#),
        "{text}"
    );
    assert!(
        text.contains(r#"pop(mut self, k: copy u64) ["O(n)"];"#),
        "{text}"
    );
    assert!(text.contains("clear(mut self);"), "{text}");
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

/// min-max-heap 1.3's `push` says "Amortized *O*(log *n*); worst-case *O*(*n*) when the
/// backing vector needs to grow.": init read the conditional worst case ("O(n) when ...") as
/// a best case and registered `push` with no class. A class labelled worst case in a doc that
/// states an amortized one is the single call's spike the amortized class covers.
#[test]
fn a_worst_case_beside_an_amortized_class_is_the_spike() {
    let lib = r#"
        pub struct Heap<T>(Vec<T>);
        impl<T: Ord> Heap<T> {
            pub fn new() -> Self { Heap(Vec::new()) }
            /// Adds an element to the heap.
            ///
            /// Amortized *O*(log *n*); worst-case *O*(*n*) when the backing vector needs to
            /// grow.
            pub fn push(&mut self, element: T) { self.0.push(element) }
        }
    "#;
    let (m, text) = generate(&[("lib.rs", lib)], &[]);
    let heap = m.types.iter().find(|t| t.path == "Heap").expect(&text);
    assert!(heap.methods.iter().any(|f| f.name == "push"), "{text}");
    let line = text.lines().find(|l| l.contains("push(")).unwrap();
    assert!(line.contains(r#"["O(log n) amortized"]"#), "{line}");
}

/// A returned iterator is consumed, so a call documented O(1) (creating the iterator) is
/// expected to cost the O(n) walk as well; a class above O(n) and a method returning no
/// iterator keep the documented one.
#[test]
fn a_consumed_iterator_adds_the_walk_to_the_documented_class() {
    let lib = r#"
        pub struct Bag { v: Vec<u64> }
        impl Bag {
            pub fn new() -> Self { Bag { v: Vec::new() } }
            /// This operation is O(1).
            pub fn iter(&self) -> Iter<'_> { Iter { v: &self.v } }
            /// Sorts first: O(n log n).
            pub fn sorted(&self) -> Iter<'_> { Iter { v: &self.v } }
            /// This operation is O(1).
            pub fn first(&self) -> Option<u64> { self.v.first().copied() }
        }
        pub struct Iter<'a> { v: &'a [u64] }
        impl<'a> Iterator for Iter<'a> {
            type Item = u64;
            fn next(&mut self) -> Option<u64> { let (f, r) = self.v.split_first()?; self.v = r; Some(*f) }
        }
    "#;
    let (_, text) = generate(&[("lib.rs", lib)], &[]);
    assert!(text.contains(r#"iter(ref self) ["O(n)"] as"#), "{text}");
    assert!(
        text.contains(
            "// iter: the returned iterator is consumed, so the class includes the O(n) walk"
        ),
        "{text}"
    );
    assert!(
        text.contains(r#"sorted(ref self) ["O(n log n)"]"#),
        "{text}"
    );
    assert!(text.contains(r#"first(ref self) ["O(1)"]"#), "{text}");
}
