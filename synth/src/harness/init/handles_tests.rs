//! Init on crates whose key methods take a *handle*: a type without a public constructor
//! that the crate hands out from its own methods (thunderdome's and generational-arena's
//! `Index`, dlv-list's `Index<T>`).

use super::tests::generate;

/// An arena's `Index` has no constructor but `insert` returns it: it registers without
/// constructors, `insert` keeps its result, and `get`/`remove` (by value, `Copy`) and
/// `contains` (by reference) register instead of being skipped. A type no registered method
/// returns stays skipped.
#[test]
fn a_handle_type_registers_and_the_methods_taking_it_register() {
    let lib = r#"
        #[derive(Clone, Copy, PartialEq, Eq, Debug)]
        pub struct Index { slot: u32, generation: u32 }
        impl Index {
            pub fn slot(self) -> u32 { self.slot }
        }
        pub struct Orphan { x: u32 }
        impl Orphan {
            pub fn x(&self) -> u32 { self.x }
        }
        pub struct Arena<T> { v: Vec<T> }
        impl<T> Arena<T> {
            pub fn new() -> Self { Arena { v: Vec::new() } }
            pub fn len(&self) -> usize { self.v.len() }
            /// Runs in O(1).
            pub fn insert(&mut self, value: T) -> Index { self.v.push(value); Index { slot: 0, generation: 0 } }
            /// Runs in O(1).
            pub fn get(&self, index: Index) -> Option<&T> { None }
            /// Runs in O(1).
            pub fn remove(&mut self, index: Index) -> Option<T> { None }
            pub fn contains(&self, index: &Index) -> bool { false }
            pub fn take_orphan(&self, o: Orphan) {}
        }
    "#;
    let (_, text) = generate(&[("lib.rs", lib)], &[]);
    assert!(
        text.contains("insert(mut self, value: val Key) -> Index"),
        "{text}"
    );
    assert!(text.contains("get(ref self, index: copy Index)"), "{text}");
    assert!(
        text.contains("remove(mut self, index: copy Index)"),
        "{text}"
    );
    assert!(
        text.contains("contains(ref self, index: ref Index)"),
        "{text}"
    );
    assert!(text.contains("pub fn index() -> Index {"), "{text}");
    assert!(text.contains("slot(copy self)"), "{text}");
    assert!(!text.contains("skipped: Arena::get"), "{text}");
    assert!(
        text.contains("// skipped: Arena::take_orphan: parameter `o`: type `Orphan` is not in the program model"),
        "{text}"
    );
}

/// dlv-list's `Index<T>` is generic and `Copy` through `impl<T> Copy for Index<T> {}`: it
/// registers at the list's instantiation and is passed as `copy`; a handle type whose
/// derived `Copy` needs `T: Copy` is passed by value (the probe key is not `Copy`).
#[test]
fn a_generic_handle_is_copy_only_when_every_instantiation_is() {
    let lib = r#"
        pub struct Index<T> { i: usize, p: std::marker::PhantomData<T> }
        impl<T> Clone for Index<T> { fn clone(&self) -> Self { *self } }
        impl<T> Copy for Index<T> {}
        #[derive(Clone, Copy)]
        pub struct Slot<T> { i: usize, p: std::marker::PhantomData<T> }
        pub struct VecList<T> { v: Vec<T> }
        impl<T> VecList<T> {
            pub fn new() -> Self { VecList { v: Vec::new() } }
            pub fn len(&self) -> usize { self.v.len() }
            pub fn push_back(&mut self, value: T) -> Index<T> {
                self.v.push(value);
                Index { i: self.v.len() - 1, p: std::marker::PhantomData }
            }
            pub fn slot_of(&mut self, value: T) -> Slot<T> {
                self.v.push(value);
                Slot { i: self.v.len() - 1, p: std::marker::PhantomData }
            }
            pub fn remove(&mut self, index: Index<T>) -> Option<T> { None }
            pub fn free(&mut self, slot: Slot<T>) {}
        }
    "#;
    let (_, text) = generate(&[("lib.rs", lib)], &[]);
    assert!(
        text.contains("push_back(mut self, value: val Key) -> Index<Key>"),
        "{text}"
    );
    assert!(
        text.contains("remove(mut self, index: copy Index<Key>)"),
        "{text}"
    );
    assert!(
        text.contains("free(mut self, slot: val Slot<Key>)"),
        "{text}"
    );
}
