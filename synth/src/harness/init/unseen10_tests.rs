//! Init on API shapes of registry crates tried in the session (indexmap, ...), each as a
//! small synthetic crate.

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
        text.contains("use demo::map::MutableEntryKey as _;"),
        "{text}"
    );
}

/// indexmap's `MutableKeys::get_full_mut2<Q>(&mut self, key: &Q)` bounds `Q` by
/// `Equivalent<Self::Key>`, the associated type its impl fixes (`type Key = K`): init read
/// `Self::Key` as no parameter of the type and skipped it ("neither the probe key nor a
/// closure"), where the inherent `get_full_mut` with `Equivalent<K>` registered. A trait's
/// `Self::X` reads as the impl's `type X`.
#[test]
fn a_trait_methods_self_assoc_type_is_the_impls() {
    let lib = r#"
        pub trait Equivalent<K: ?Sized> { fn equivalent(&self, key: &K) -> bool; }
        pub trait MutableKeys {
            type Key;
            /// Finds a key. Computes in O(1) time (average).
            fn get_mut2<Q: ?Sized + Equivalent<Self::Key>>(&mut self, key: &Q) -> Option<&mut Self::Key>;
        }
        pub struct Map<K> { v: Vec<K> }
        impl<K> Map<K> {
            pub fn new() -> Self { Map { v: Vec::new() } }
            pub fn get_mut<Q: ?Sized + Equivalent<K>>(&mut self, key: &Q) -> Option<&mut K> { None }
        }
        impl<K> MutableKeys for Map<K> {
            type Key = K;
            fn get_mut2<Q: ?Sized + Equivalent<Self::Key>>(&mut self, key: &Q) -> Option<&mut K> { None }
        }
    "#;
    let (m, text) = generate(&[("lib.rs", lib)], &[]);
    let map = m.types.iter().find(|t| t.path == "Map").expect(&text);
    for name in ["get_mut", "get_mut2"] {
        assert!(
            map.methods.iter().any(|f| f.name == name),
            "{name}:\n{text}"
        );
    }
    let line = text.lines().find(|l| l.contains("get_mut2(")).unwrap();
    assert!(line.contains("O(1)"), "{line}");
}

/// stable-vec 0.4's `contains<U>(&self, item: &U) where U: PartialEq<T>` compares a value
/// of any type comparable with the items: init skipped it ("generic parameter U:
/// PartialEq<T>"). `U` is the item type, as `Q` of `Q: Equivalent<K>` is the key type.
#[test]
fn a_parameter_comparable_with_the_items_is_an_item() {
    let lib = r#"
        pub struct Slots<T> { v: Vec<Option<T>> }
        impl<T> Slots<T> {
            pub fn new() -> Self { Slots { v: Vec::new() } }
            /// Looks at every slot. Runs in O(n) time.
            pub fn contains<U>(&self, item: &U) -> bool where U: PartialEq<T> { false }
        }
    "#;
    let (m, text) = generate(&[("lib.rs", lib)], &[]);
    let slots = m.types.iter().find(|t| t.path == "Slots").expect(&text);
    assert!(slots.methods.iter().any(|f| f.name == "contains"), "{text}");
    let line = text.lines().find(|l| l.contains("contains(")).unwrap();
    assert!(
        line.contains("item: ref Key") && line.contains("O(n)"),
        "{line}"
    );
}

/// segment-tree 2's trees are generic over the values and an operation on them,
/// `SegmentPoint<N, O: Operation<N>>`, and the crate implements its operations for each
/// integer through nested macros (`impl Operation<u64> for Add`): init looked for an integer
/// implementing `Operation<N>` and skipped all three trees ("its parameter O needs
/// Operation<N> which neither the probe key nor an integer implements"), registering only
/// the unit operations. A parameter bounded by the crate's traits over another parameter
/// takes the crate's type implementing them at an integer, which the other parameter is.
#[test]
fn an_operation_parameter_over_the_values_takes_the_crates_operation() {
    let lib = r#"
        pub mod ops {
            pub trait Operation<N> { fn combine(&self, a: &N, b: &N) -> N; }
            pub trait Commutative<N>: Operation<N> {}
            pub trait Invertible<N> { fn uncombine(&self, a: &mut N, b: &N); }
            #[derive(Clone, Copy, Default)]
            pub struct Add;
            #[derive(Clone, Copy, Default)]
            pub struct Xor;
            macro_rules! infix {
                ($op:ident, $ty:ty, $t:tt) => {
                    impl Operation<$ty> for $op {
                        fn combine(&self, a: &$ty, b: &$ty) -> $ty { *a $t *b }
                    }
                };
            }
            macro_rules! unsigned {
                ($ty:ty) => {
                    infix!(Add, $ty, +);
                    impl Commutative<$ty> for Add {}
                    infix!(Xor, $ty, ^);
                    impl Commutative<$ty> for Xor {}
                    impl Invertible<$ty> for Xor { fn uncombine(&self, a: &mut $ty, b: &$ty) { *a ^= *b; } }
                };
            }
            unsigned!(u32);
            unsigned!(u64);
        }
        use ops::{Operation, Commutative, Invertible};
        pub struct SegmentPoint<N, O> where O: Operation<N> { buf: Vec<N>, op: O }
        impl<N, O: Operation<N>> SegmentPoint<N, O> {
            pub fn build(buf: Vec<N>, op: O) -> SegmentPoint<N, O> { SegmentPoint { buf, op } }
            /// Uses `O(log(len))` time.
            pub fn query(&self, l: usize, r: usize) -> usize { 0 }
        }
        pub struct PrefixPoint<N, O> where O: Commutative<N> { buf: Vec<N>, op: O }
        impl<N, O: Commutative<N>> PrefixPoint<N, O> {
            pub fn build(buf: Vec<N>, op: O) -> PrefixPoint<N, O> { PrefixPoint { buf, op } }
        }
        impl<N, O: Commutative<N> + Invertible<N>> PrefixPoint<N, O> {
            /// Uses `O(log(i))` time.
            pub fn get(&self, i: usize) -> usize { 0 }
        }
    "#;
    let (m, text) = generate(&[("lib.rs", lib)], &[]);
    let registered: Vec<&str> = m.types.iter().map(|t| t.rust.as_str()).collect();
    assert!(
        registered.contains(&"SegmentPoint<u64,demo::ops::Add>"),
        "{registered:?}\n{text}"
    );
    assert!(
        registered.contains(&"PrefixPoint<u64,demo::ops::Xor>"),
        "{registered:?}\n{text}"
    );
    assert!(text.contains("query(ref self"), "{text}");
    assert!(text.contains("get(ref self"), "{text}");
}

/// segment-tree's trees are built only from a vector (`build(buf: Vec<N>, op)`) and never
/// grow after; mutations insert statements after the receiver's definition, so the vector
/// a constructor consumes stayed empty and every method's sweep stayed at size 0
/// ("inconclusive: only 1 distinct sizes"). Each constructor taking a sequence of elements
/// gets a `_filled` variant whose sequence is `0..n`, `n` an integer the sweep scales.
#[test]
fn a_constructor_consuming_a_sequence_gets_a_filled_variant() {
    let lib = r#"
        pub struct Tree<N> { buf: Vec<N> }
        impl<N: Clone> Tree<N> {
            pub fn build(buf: Vec<N>) -> Self { Tree { buf } }
            pub fn build_slice(buf: &[N]) -> Self { Tree { buf: buf.to_vec() } }
            pub fn build_iter<I: ExactSizeIterator<Item = N>>(iter: I) -> Self { Tree { buf: iter.collect() } }
            pub fn try_build(buf: Vec<N>) -> Option<Self> { Some(Tree { buf }) }
            /// Uses `O(log(len))` time.
            pub fn query(&self, l: usize) -> usize { 0 }
            pub fn len(&self) -> usize { self.buf.len() }
        }
    "#;
    let (_, text) = generate(&[("lib.rs", lib)], &[]);
    for line in [
        r#"build_filled(buf: copy usize) as "Tree::<Key>::build((0..{buf} as u64).map(|i| Key::new(i)).collect::<Vec<Key>>())" => <Tree<Key>>::build((0..buf as u64).map(|i| Key::new(i)).collect::<Vec<Key>>());"#,
        r#"build_slice_filled(buf: copy usize) as "Tree::<Key>::build_slice(&(0..{buf} as u64).map(|i| Key::new(i)).collect::<Vec<Key>>())" => <Tree<Key>>::build_slice(&(0..buf as u64).map(|i| Key::new(i)).collect::<Vec<Key>>());"#,
        r#"build_iter_filled(iter: copy usize) as "Tree::<Key>::build_iter((0..{iter} as u64).map(|i| Key::new(i)).collect::<Vec<Key>>().into_iter())" => <Tree<Key>>::build_iter((0..iter as u64).map(|i| Key::new(i)).collect::<Vec<Key>>().into_iter());"#,
        r#"try_build_filled(buf: copy usize) as "Tree::<Key>::try_build((0..{buf} as u64).map(|i| Key::new(i)).collect::<Vec<Key>>()).unwrap()" => <Tree<Key>>::try_build((0..buf as u64).map(|i| Key::new(i)).collect::<Vec<Key>>()).unwrap();"#,
        "build(buf: val Vec<Key>) => <Tree<Key>>::build(buf);",
    ] {
        assert!(text.contains(line), "{line}\n{text}");
    }
}

/// segment-tree's `query_noclone(&self, l: usize, r: usize) -> MaybeOwned<'_, N>` chains to
/// `MaybeOwned::borrow()`: the registration's closure named its receiver `r`, which the
/// parameter `r` shadowed (`|r| r.query_noclone(l, r).borrow()`), and the compiler rejected
/// the chains ("mismatched types"). The closure's variables avoid the parameters' names.
#[test]
fn a_parameter_named_like_the_closures_receiver_does_not_shadow_it() {
    let lib = r#"
        pub enum Maybe<'a, T: 'a> { Borrowed(&'a T), Owned(T) }
        impl<'a, T: 'a> Maybe<'a, T> {
            pub fn borrow(&self) -> &T { match self { Maybe::Borrowed(t) => t, Maybe::Owned(t) => t } }
        }
        pub struct Tree<N> { buf: Vec<N> }
        impl<N: Clone> Tree<N> {
            pub fn new() -> Self { Tree { buf: Vec::new() } }
            pub fn query_noclone(&self, l: usize, r: usize) -> Maybe<'_, N> { Maybe::Borrowed(&self.buf[l]) }
            pub fn visit(&mut self, r: usize, b: u64) -> Option<Cursor<'_, N>> { None }
        }
        pub struct Cursor<'a, N> { t: &'a mut Tree<N> }
        impl<'a, N> Cursor<'a, N> {
            pub fn step(&mut self) {}
        }
    "#;
    let (_, text) = generate(&[("lib.rs", lib)], &[]);
    for line in [
        "=> |r_| { std::hint::black_box(r_.query_noclone(l, r).borrow()); };",
        "=> |r_| { std::hint::black_box(r_.visit(r, b).map(move |mut b_| { std::hint::black_box(b_.step()); })); };",
    ] {
        assert!(text.contains(line), "{line}\n{text}");
    }
}

/// vecmap-rs's `VecMap::sort_by<F: FnMut((&K, &V), (&K, &V)) -> Ordering>` compares entries
/// given as tuples: init read the tuples as types it cannot order and skipped `sort_by` and
/// `sort_unstable_by`. A tuple of orderable values is ordered as a whole, as the two halves
/// of a comparator (a probe's single target stays a model type).
#[test]
fn a_comparator_over_tuples_of_orderable_values_registers() {
    let lib = r#"
        use std::cmp::Ordering;
        pub struct VecMap<K, V> { base: Vec<(K, V)> }
        impl<K: Ord, V> VecMap<K, V> {
            pub fn new() -> Self { VecMap { base: Vec::new() } }
            pub fn sort_by<F>(&mut self, mut compare: F) where F: FnMut((&K, &V), (&K, &V)) -> Ordering {}
            pub fn sort_refs_by<F>(&mut self, compare: F) where F: FnMut(&(K, V), &(K, V)) -> Ordering {}
            pub fn search_by<F>(&self, f: F) where F: FnMut((&K, &V)) -> Ordering {}
        }
    "#;
    let (m, text) = generate(&[("lib.rs", lib)], &[]);
    for line in [
        "sort_by(mut self, compare: copy u8) as \"{self}.sort_by(move |a0, a1| match {compare} % 4",
        "sort_refs_by(mut self, compare: copy u8) as \"{self}.sort_refs_by(move |a0, a1| match {compare} % 4",
    ] {
        assert!(text.contains(line), "{line}\n{text}");
    }
    let why = super::skipped_reason_in(&super::tests::skipped_file(&m), "VecMap::search_by")
        .unwrap_or_default();
    assert!(why.contains("cannot order"), "{why}\n{text}");
}

/// ena 0.14 names its table through an alias that passes the alias's parameter to another
/// type of the crate, `pub type UnificationTableStorage<K> = UnificationTable<InPlace<K,
/// ..>>` with `InPlace<K: UnifyKey>`: the alias's `K` took the probe key (its own bound was
/// read only where it is passed to the aliased type directly), the harness did not compile
/// ("the trait bound `Key: UnifyKey` is not satisfied", pointed at the registry), and init
/// failed as a whole. The bounds of a parameter passed inside an argument count too: the
/// table is skipped for its bound, and the crate's other types register.
#[test]
fn an_alias_parameter_passed_inside_an_argument_keeps_its_bounds() {
    let lib = r#"
        pub trait UnifyKey: Copy { fn index(&self) -> u32; }
        pub trait Store { type Key; }
        pub struct InPlace<K: UnifyKey, V = Vec<K>> { values: V, k: Option<K> }
        impl<K: UnifyKey, V> Store for InPlace<K, V> { type Key = K; }
        impl<K: UnifyKey> Default for InPlace<K> { fn default() -> Self { InPlace { values: Vec::new(), k: None } } }
        pub struct Table<S: Store> { values: S }
        impl<S: Store + Default> Table<S> {
            pub fn new() -> Self { Table { values: S::default() } }
            pub fn len(&self) -> usize { 0 }
        }
        pub type TableStorage<K> = Table<InPlace<K, Vec<K>>>;
        pub struct Log<T> { v: Vec<T> }
        impl<T> Log<T> {
            pub fn new() -> Self { Log { v: Vec::new() } }
            pub fn push(&mut self, t: T) { self.v.push(t) }
        }
    "#;
    let (m, text) = generate(&[("lib.rs", lib)], &[]);
    let registered: Vec<&str> = m.types.iter().map(|t| t.rust.as_str()).collect();
    assert!(registered.contains(&"Log<Key>"), "{registered:?}\n{text}");
    assert!(
        !registered
            .iter()
            .any(|r| r.contains("TableStorage") || r.contains("InPlace<Key")),
        "{registered:?}\n{text}"
    );
}

/// btree-slab 0.6's sets are generic over their storage, and the operations on two sets take
/// the other's storage as their own parameter: `union<D: Slab<Node<T, ()>>>(&self, other:
/// &BTreeSet<T, D>)`. init skipped union, intersection, difference, symmetric_difference,
/// is_disjoint, is_subset and is_superset ("generic parameter D ... neither the probe key
/// nor a closure"). The other operand's parameter takes this type's instantiation at its
/// position, so the other operand is a registered value of the same type.
#[test]
fn the_other_operands_own_parameter_is_this_types() {
    let lib = r#"
        pub trait Slab<T> { fn get(&self, i: usize) -> Option<&T>; }
        impl<T> Slab<T> for Vec<T> { fn get(&self, i: usize) -> Option<&T> { <[T]>::get(self, i) } }
        pub struct BTreeSet<T, C> { nodes: C, t: Option<T> }
        impl<T: Ord, C: Slab<T> + Default> BTreeSet<T, C> {
            pub fn new() -> Self { BTreeSet { nodes: C::default(), t: None } }
            pub fn is_subset<D: Slab<T>>(&self, other: &BTreeSet<T, D>) -> bool { false }
        }
        pub type DefaultSet<T> = BTreeSet<T, Vec<T>>;
    "#;
    let (_, text) = generate(&[("lib.rs", lib)], &[]);
    assert!(
        text.contains("is_subset(ref self, other: ref DefaultSet<Key>) -> bool;"),
        "{text}"
    );
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

/// arrayvec 0.7's `CapacityError<T = ()>::simplify(self) -> CapacityError` returns the
/// default instantiation, `CapacityError<()>`: init read the bare name as `Self` (kept as a
/// `CapacityError<Key>` variable) and the compiler rejected it ("mismatched types"). The
/// type's name without arguments, where the registration has some, is not `Self`.
#[test]
fn the_types_bare_name_with_defaulted_parameters_is_not_self() {
    let lib = r#"
        pub struct CapacityError<T = ()> { element: T }
        impl<T> CapacityError<T> {
            pub const fn new(element: T) -> CapacityError<T> { CapacityError { element } }
            pub fn element(self) -> T { self.element }
            pub fn simplify(self) -> CapacityError { CapacityError { element: () } }
            pub fn same(self) -> CapacityError<T> { self }
        }
    "#;
    let (_, text) = generate(&[("lib.rs", lib)], &[]);
    assert!(text.contains("simplify(val self) {kept};"), "{text}");
    assert!(
        text.contains("same(val self) -> CapacityError<Key>;"),
        "{text}"
    );
}
