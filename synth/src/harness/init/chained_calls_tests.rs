//! Methods of types a program cannot hold (borrowing types, deref targets), reached through
//! the method that returns them or the type that derefs to them.

use super::tests::generate;

/// indexmap 2 puts `key_mut` on its `Entry` types through a trait of its own
/// (`map::MutableEntryKey`), reached by chaining from `entry()`: the harness called
/// `map.entry(k).key_mut()` without importing the trait, and the compiler rejected all six
/// chains ("no method named `key_mut`", or a private inherent one of the same name). The
/// owner's registration imports the traits of the borrowing types its chains call.
#[test]
fn a_chain_through_a_trait_method_imports_the_trait() {
    let lib = r#"
        pub mod map {
            mod private { pub trait Sealed {} }
            pub trait MutableEntryKey: private::Sealed {
                type Key;
                fn key_mut(&mut self) -> &mut Self::Key;
            }
            pub struct Map<K> { v: Vec<K> }
            pub struct Entry<'a, K> { m: &'a mut Map<K>, k: K }
            impl<K> private::Sealed for Entry<'_, K> {}
            impl<K> MutableEntryKey for Entry<'_, K> {
                type Key = K;
                fn key_mut(&mut self) -> &mut K { &mut self.k }
            }
            impl<K> Map<K> {
                pub fn new() -> Self { Map { v: Vec::new() } }
                pub fn entry(&mut self, k: K) -> Entry<'_, K> { Entry { m: self, k } }
            }
        }
        pub use map::Map;
    "#;
    let (m, text) = generate(&[("lib.rs", lib)], &[]);
    let map = m.types.iter().find(|t| t.path == "Map").expect(&text);
    assert!(
        map.methods.iter().any(|f| f.name == "entry_key_mut"),
        "{text}"
    );
    assert!(
        map.traits.iter().any(|t| t == "demo::map::MutableEntryKey"),
        "{:?}\n{text}",
        map.traits
    );
    assert!(
        text.contains("use ::demo::map::MutableEntryKey as _;"),
        "{text}"
    );
}

/// indexmap's `map::Slice` has no constructor; its methods are reached through `as_slice()`
/// and `as_mut_slice()` chains (69 registrations), yet its skip line said "its 33 methods are
/// unreachable". The count leaves out the methods chains reach, and says how many they do.
#[test]
fn a_types_methods_reached_through_chains_are_not_unreachable() {
    let lib = r#"
        pub struct Slice<K> { entries: Vec<K> }
        impl<K> Slice<K> {
            pub fn len(&self) -> usize { self.entries.len() }
            pub fn first(&self) -> Option<&K> { self.entries.first() }
            pub fn first_mut(&mut self) -> Option<&mut K> { self.entries.first_mut() }
        }
        pub struct Map<K> { v: Slice<K> }
        impl<K> Map<K> {
            pub fn new() -> Self { Map { v: Slice { entries: Vec::new() } } }
            pub fn as_slice(&self) -> &Slice<K> { &self.v }
        }
    "#;
    let (_, text) = generate(&[("lib.rs", lib)], &[]);
    assert!(text.contains("as_slice_len(ref self)"), "{text}");
    assert!(
        text.contains("; its 1 methods are unreachable; 2 of its methods are reached through the methods returning it\n"),
        "{text}"
    );
}

/// ropey's `line(i)` is O(log n) and returns a borrowing slice whose `len_bytes()` is O(1):
/// the chained call `line(i).len_bytes()` is expected O(log n), not O(1).
#[test]
fn a_chained_call_is_expected_to_cost_its_costlier_half() {
    let lib = r#"
        pub struct Rope { s: String }
        pub struct Slice<'a> { s: &'a str }
        impl<'a> Slice<'a> {
            /// Runs in O(1) time.
            pub fn len_bytes(&self) -> usize { self.s.len() }
            /// Runs in O(n) time.
            pub fn count_spaces(&self) -> usize { 0 }
            pub fn first(&self) -> usize { 0 }
        }
        impl Rope {
            pub fn new() -> Self { Rope { s: String::new() } }
            /// Runs in O(log n) time.
            pub fn line(&self, i: usize) -> Slice<'_> { Slice { s: &self.s } }
        }
    "#;
    let (_, text) = generate(&[("lib.rs", lib)], &[]);
    assert!(
        text.contains(r#"line_len_bytes(ref self, i: copy usize) -> usize ["O(log n)"]"#),
        "{text}"
    );
    assert!(
        text.contains(r#"line_count_spaces(ref self, i: copy usize) -> usize ["O(n)"]"#),
        "{text}"
    );
    // Undocumented second half: no class (the first's is a lower bound only).
    assert!(
        text.contains(r#"line_first(ref self, i: copy usize) -> usize as"#),
        "{text}"
    );
}

/// circular-buffer's `FixedCircularBuffer<T, N>` derefs (mutably too) to the crate's
/// `CircularBuffer<T>` (unsized there), which holds the API: its `&self`/`&mut self` methods
/// register on the buffer (measured by its `len`), `Self` in their signatures is the target;
/// through a `Deref` without `DerefMut`, `&mut self` methods are not reached.
#[test]
fn methods_reached_by_deref_to_a_crate_type_register() {
    let lib = r#"
        use std::ops::{Deref, DerefMut};
        pub struct CircularBuffer<T> { v: Vec<T> }
        impl<T> CircularBuffer<T> {
            pub fn len(&self) -> usize { 0 }
            /// Runs in O(1).
            pub fn push_back(&mut self, item: T) {}
            pub fn same(&self, other: &Self) -> bool { false }
        }
        pub struct FixedCircularBuffer<T, const N: usize> { buf: CircularBuffer<T> }
        impl<T, const N: usize> FixedCircularBuffer<T, N> {
            pub fn new() -> Self { FixedCircularBuffer { buf: CircularBuffer { v: Vec::new() } } }
            pub fn as_mut_circular_buffer(&mut self) -> &mut CircularBuffer<T> { &mut self.buf }
        }
        impl<T, const N: usize> Deref for FixedCircularBuffer<T, N> {
            type Target = CircularBuffer<T>;
            fn deref(&self) -> &CircularBuffer<T> { &self.buf }
        }
        impl<T, const N: usize> DerefMut for FixedCircularBuffer<T, N> {
            fn deref_mut(&mut self) -> &mut CircularBuffer<T> { &mut self.buf }
        }
        pub struct View<T> { buf: CircularBuffer<T> }
        impl<T> View<T> { pub fn new() -> Self { View { buf: CircularBuffer { v: Vec::new() } } } }
        impl<T> Deref for View<T> {
            type Target = CircularBuffer<T>;
            fn deref(&self) -> &CircularBuffer<T> { &self.buf }
        }
    "#;
    let (m, text) = generate(&[("lib.rs", lib)], &[]);
    // Its methods are reached, not unreachable.
    assert_eq!(m.unregistered_methods, 0, "{text}");
    assert!(
        text.contains("// skipped: CircularBuffer: no public constructor; its methods are registered on FixedCircularBuffer, View, which deref to it"),
        "{text}"
    );
    let fixed = text.split("pub fn view()").next().unwrap();
    assert!(fixed.contains("size: [|v| v.len() as u64]"), "{text}");
    assert!(
        fixed.contains(r#"push_back(mut self, item: val Key) ["O(1)"];"#),
        "{text}"
    );
    assert!(!fixed.contains("same(ref self"), "{text}");
    // Not again through the method returning the target.
    assert!(
        !fixed.contains("as_mut_circular_buffer_push_back"),
        "{text}"
    );
    let view = text.split("pub fn view()").nth(1).unwrap();
    assert!(view.contains("len(ref self) -> usize;"), "{text}");
    assert!(!view.contains("push_back"), "{text}");
}
