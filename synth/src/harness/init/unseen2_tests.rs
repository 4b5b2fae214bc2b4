//! Init on API shapes of more registry crates perfsyn had not been tried on (arraydeque,
//! ringbuffer, stable-vec, rangemap, circular-buffer), each as a small synthetic crate.

use super::tests::generate;

/// arraydeque's `ArrayDeque<T, const CAP: usize, B: Behavior = Saturating>` with
/// `impl<T, const CAP: usize> ArrayDeque<T, CAP, Saturating>`: the impl fixes the parameter
/// to the very type the harness chose (the declared default), so its methods register; an
/// impl for another choice (`Wrapping`) stays skipped.
#[test]
fn an_impl_for_the_instantiation_the_harness_chose_registers() {
    let lib = r#"
        pub trait Behavior {}
        pub struct Saturating;
        impl Behavior for Saturating {}
        pub struct Wrapping;
        impl Behavior for Wrapping {}
        pub struct ArrayDeque<T, const CAP: usize, B: Behavior = Saturating> { xs: [std::mem::MaybeUninit<T>; CAP], v: Vec<T>, b: std::marker::PhantomData<B> }
        impl<T, const CAP: usize, B: Behavior> ArrayDeque<T, CAP, B> {
            pub fn new() -> Self { ArrayDeque { xs: [const { std::mem::MaybeUninit::uninit() }; CAP], v: Vec::new(), b: std::marker::PhantomData } }
            pub fn len(&self) -> usize { self.v.len() }
        }
        impl<T, const CAP: usize> ArrayDeque<T, CAP, Saturating> {
            pub fn push_back(&mut self, t: T) {}
        }
        impl<T, const CAP: usize> ArrayDeque<T, CAP, Wrapping> {
            pub fn push_front(&mut self, t: T) {}
        }
    "#;
    let (_, text) = generate(&[("lib.rs", lib)], &[]);
    assert!(text.contains("push_back(mut self, t: val Key);"), "{text}");
    // A capacity parameter outgrows the sweep's sizes (64 stopped every sweep at 64).
    assert!(
        text.contains("pub fn array_deque() -> ArrayDeque<Key,8192,demo::Saturating>"),
        "{text}"
    );
    assert!(
        text.contains("// skipped: ArrayDeque::push_front: defined only for"),
        "{text}"
    );
}

/// ringbuffer's API is its trait `RingBuffer<T>` (re-exported from a private module),
/// implemented by each buffer type: the trait's methods, required and provided, register on
/// each type with the trait's docs, and the harness imports the trait. A trait of the crate
/// that is not public, and std's traits, add nothing.
#[test]
fn methods_of_the_crates_own_trait_register_on_its_types() {
    let lib = r#"
        mod trait_def;
        pub use trait_def::RingBuffer;
        trait Hidden { fn secret(&self); }
        pub struct AllocRingBuffer<T> { v: Vec<T> }
        impl<T> AllocRingBuffer<T> {
            pub fn new(capacity: usize) -> Self { AllocRingBuffer { v: Vec::new() } }
        }
        impl<T> RingBuffer<T> for AllocRingBuffer<T> {
            fn len(&self) -> usize { self.v.len() }
            /// Pushes to the back.
            fn enqueue(&mut self, value: T) -> Option<T> { None }
        }
        impl<T> Hidden for AllocRingBuffer<T> { fn secret(&self) {} }
        impl<T> Clone for AllocRingBuffer<T> { fn clone(&self) -> Self { AllocRingBuffer { v: Vec::new() } } }
        pub struct Bytes { v: Vec<u8> }
        impl Bytes { pub fn new() -> Self { Bytes { v: Vec::new() } } }
        impl RingBuffer<u8> for Bytes {
            fn len(&self) -> usize { self.v.len() }
            fn enqueue(&mut self, value: u8) -> Option<u8> { None }
        }
    "#;
    let def = r#"
        pub trait RingBuffer<T> {
            fn len(&self) -> usize;
            /// Runs in O(1).
            fn enqueue(&mut self, value: T) -> Option<T>;
            /// Runs in O(n).
            fn contains(&self, elem: &T) -> bool where T: PartialEq { false }
        }
    "#;
    let (_, text) = generate(&[("lib.rs", lib), ("trait_def.rs", def)], &[]);
    assert!(text.contains("use demo::RingBuffer as _;"), "{text}");
    assert!(
        text.contains(r#"imports: ["demo::AllocRingBuffer", "demo::RingBuffer", "#),
        "{text}"
    );
    assert!(text.contains("size: [|v| v.len() as u64]"), "{text}");
    assert!(
        text.contains(r#"enqueue(mut self, value: val Key) ["O(1)"] {kept};"#),
        "{text}"
    );
    assert!(
        text.contains(r#"contains(ref self, elem: ref Key) -> bool ["O(n)"];"#),
        "{text}"
    );
    // The trait's parameter is the impl's argument on `Bytes`.
    assert!(
        text.contains(r#"enqueue(mut self, value: copy u8) ["O(1)"] {kept};"#),
        "{text}"
    );
    assert!(!text.contains("secret"), "{text}");
    assert!(!text.contains("clone(ref self)"), "{text}");
}

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

/// stable-vec's `StableVecFacade<T, C: Core<T>>` has a core parameter no key or integer
/// implements; the crate's public alias `StableVec<T> = StableVecFacade<T, DefaultCore<T>>`
/// fixes it. The type registers under the alias (`StableVec<Key>`), its methods with it;
/// a method taking the fixed parameter is skipped.
#[test]
fn a_type_registers_through_a_public_alias_that_fixes_its_parameter() {
    let lib = r#"
        pub trait Core<T> { fn cap(&self) -> usize; fn empty() -> Self where Self: Sized; }
        pub struct BitVecCore<T> { v: Vec<T> }
        impl<T> Core<T> for BitVecCore<T> { fn cap(&self) -> usize { 0 } fn empty() -> Self { BitVecCore { v: Vec::new() } } }
        pub type DefaultCore<T> = BitVecCore<T>;
        /// A vector whose indices stay stable.
        pub type StableVec<T> = StableVecFacade<T, DefaultCore<T>>;
        pub struct StableVecFacade<T, C: Core<T>> { core: C, t: std::marker::PhantomData<T> }
        impl<T, C: Core<T>> StableVecFacade<T, C> {
            pub fn new() -> Self { Self::from_core(C::empty()) }
            pub fn num_elements(&self) -> usize { 0 }
            /// Runs in O(1).
            pub fn push(&mut self, elem: T) -> usize { 0 }
            pub fn from_core(core: C) -> Self { StableVecFacade { core, t: std::marker::PhantomData } }
            pub fn set_core(&mut self, core: C) {}
            pub fn copied(&self) -> StableVecFacade<T, C> { Self::new() }
        }
    "#;
    let (m, text) = generate(&[("lib.rs", lib)], &[]);
    assert!(text.contains("use demo::StableVec;"), "{text}");
    assert!(
        text.contains("pub fn stable_vec() -> StableVec<Key> {"),
        "{text}"
    );
    assert!(text.contains(r#"path: "StableVec","#), "{text}");
    assert!(text.contains("new() => <StableVec<Key>>::new();"), "{text}");
    assert!(
        text.contains(r#"push(mut self, elem: val Key) -> usize ["O(1)"];"#),
        "{text}"
    );
    assert!(
        text.contains("copied(ref self) -> StableVec<Key>;"),
        "{text}"
    );
    assert!(text.contains("// skipped: StableVec::set_core"), "{text}");
    assert!(
        !m.skipped_types.iter().any(|(t, _)| t == "StableVecFacade"),
        "{:?}",
        m.skipped_types
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
