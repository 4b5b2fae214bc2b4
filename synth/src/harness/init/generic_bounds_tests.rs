//! Trait-bounded generic parameters: the value a type's or a function's generic parameter
//! takes from its bounds (the probe key, an integer the crate implements its traits for, a
//! string, the other operand's instantiation), each shape as a small synthetic crate.

use super::tests::generate;

/// intmap's `IntMap<K: IntKey, V>`: the crate implements its key trait for `u64` through a
/// macro, so `K` is `u64` and the map registers.
#[test]
fn a_key_trait_the_crate_implements_for_u64_by_macro_takes_u64() {
    let lib = r#"
        pub trait IntKey: Copy { fn to_int(self) -> u64; }
        macro_rules! impl_int_key { ($t:ident) => { impl IntKey for $t { fn to_int(self) -> u64 { self as u64 } } }; }
        impl_int_key!(u32);
        impl_int_key!(u64);
        pub struct IntMap<K, V> { v: Vec<(K, V)> }
        impl<K: IntKey, V> IntMap<K, V> {
            pub fn new() -> Self { IntMap { v: Vec::new() } }
            /// Runs in O(1).
            pub fn insert(&mut self, k: K, v: V) {}
        }
    "#;
    let (m, text) = generate(&[("lib.rs", lib)], &[]);
    assert!(m.skipped_types.is_empty(), "{:?}", m.skipped_types);
    assert!(
        text.contains("pub fn int_map() -> IntMap<u64,Key>"),
        "{text}"
    );
    assert!(
        text.contains(r#"insert(mut self, k: copy u64, v: val Key) ["O(1)"];"#),
        "{text}"
    );
}

/// petgraph's `UnionFind<K: IndexType>` (implemented for usize, u32, u16, u8) takes usize,
/// its `GraphMap<N: NodeTrait, Ty: EdgeType>` u64 (a blanket impl over `Copy + Ord + Hash`)
/// and `Directed` (a type of the crate implementing `EdgeType`); `Graph<N, Ix: IndexType =
/// DefaultIx>` keeps its declared default; a key trait
/// implemented for no integer the model builds leaves the type skipped, with the reason.
#[test]
fn a_key_trait_takes_an_integer_the_crate_implements_it_for() {
    let lib = r#"
        pub trait IndexType: Copy {}
        unsafe impl IndexType for usize {}
        unsafe impl IndexType for u16 {}
        pub struct UnionFind<K> { v: Vec<K> }
        impl<K: IndexType> UnionFind<K> { pub fn new(n: usize) -> Self { UnionFind { v: Vec::new() } } }
        pub trait NodeTrait: Copy + Ord {}
        impl<N> NodeTrait for N where N: Copy + Ord + std::hash::Hash {}
        pub trait EdgeType {}
        #[derive(Default)]
        pub struct Directed;
        impl EdgeType for Directed {}
        pub struct GraphMap<N: NodeTrait, Ty: EdgeType> { v: Vec<N>, t: std::marker::PhantomData<Ty> }
        impl<N: NodeTrait, Ty: EdgeType> GraphMap<N, Ty> { pub fn new() -> Self { GraphMap { v: Vec::new(), t: std::marker::PhantomData } } }
        pub type DefaultIx = u32;
        pub struct Graph<N, Ix: IndexType = DefaultIx> { v: Vec<N>, i: std::marker::PhantomData<Ix> }
        impl<N, Ix: IndexType> Graph<N, Ix> { pub fn new() -> Self { Graph { v: Vec::new(), i: std::marker::PhantomData } } }
        pub trait SmallKey: Copy {}
        impl SmallKey for u16 {}
        pub struct SmallMap<K> { v: Vec<K> }
        impl<K: SmallKey> SmallMap<K> { pub fn new() -> Self { SmallMap { v: Vec::new() } } }
    "#;
    let (m, text) = generate(&[("lib.rs", lib)], &[]);
    assert!(
        text.contains("pub fn union_find() -> UnionFind<usize>"),
        "{text}"
    );
    assert!(
        text.contains("pub fn graph_map() -> GraphMap<u64,demo::Directed>"),
        "{text}"
    );
    // The declared default wins over a guessed integer; an alias of a primitive is that
    // primitive (`DefaultIx = u32`), so signatures naming `Ix` read an integer.
    assert!(text.contains("pub fn graph() -> Graph<Key,u32>"), "{text}");
    assert_eq!(m.skipped_types.len(), 1, "{:?}", m.skipped_types);
    assert!(
        m.skipped_types[0].1.to_string().contains("needs SmallKey"),
        "{:?}",
        m.skipped_types
    );
}

/// petgraph's `MatrixGraph<N, E, #[cfg(not(feature = "std"))] S, #[cfg(feature = "std")] S =
/// RandomState, Ty = Directed, ..>`: one `S` under the default features, so `Ty` keeps its
/// place.
#[test]
fn a_generic_parameter_switched_off_by_cfg_is_not_counted() {
    let lib = r#"
        pub struct Directed;
        pub struct Grid<N, #[cfg(not(feature = "std"))] S, #[cfg(feature = "std")] S = std::hash::RandomState, Ty = Directed> {
            v: Vec<N>, s: S, t: std::marker::PhantomData<Ty>,
        }
        impl<N, S: std::hash::BuildHasher + Default, Ty> Grid<N, S, Ty> {
            pub fn with_hasher(s: S) -> Self { Grid { v: Vec::new(), s, t: std::marker::PhantomData } }
            pub fn count(&self) -> usize { 0 }
        }
        impl<N, S: std::hash::BuildHasher + Default, Ty: Default> Default for Grid<N, S, Ty> {
            fn default() -> Self { Grid::with_hasher(S::default()) }
        }
    "#;
    let (_, text) = generate(&[("lib.rs", lib)], &["std"]);
    assert!(
        text.contains("pub fn grid() -> Grid<Key,FixedState,Key> {"),
        "{text}"
    );
}

/// similar's `diff_chars<T: DiffableStrRef + ?Sized>(alg, old: &T, new: &T)`: a function
/// generic over the crate's trait, which the crate implements for `String`, takes strings.
/// An impl for `str` alone does not do (`&T` would be `&String`).
#[test]
fn a_generic_bound_the_crate_implements_for_string_takes_a_string() {
    let lib = r#"
        pub trait DiffableStrRef { fn as_diffable(&self) -> &str; }
        impl DiffableStrRef for str { fn as_diffable(&self) -> &str { self } }
        impl DiffableStrRef for String { fn as_diffable(&self) -> &str { self } }
        pub trait OnlyStr { fn s(&self) -> &str; }
        impl OnlyStr for str { fn s(&self) -> &str { self } }
        /// Diffs two texts. O(n^2).
        pub fn diff_chars<T: DiffableStrRef + ?Sized>(old: &T, new: &T) -> usize { 0 }
        pub fn only<T: OnlyStr + ?Sized>(old: &T) -> usize { 0 }
    "#;
    let (_, text) = generate(&[("lib.rs", lib)], &[]);
    assert!(text.contains("demo::diff_chars(&{old}, &{new})"), "{text}");
    assert!(text.contains("skipped: crate::only"), "{text}");
}

/// rust-lapper's `Lapper<I, T> where I: PrimInt + Unsigned + Ord, T: Eq + Clone`, built by
/// `Lapper::new(Vec<Interval<I, T>>)`: the num-traits bounds are `u64`'s (the type was
/// skipped: "needs PrimInt + Unsigned which neither the probe key nor an integer
/// implements"), and a vector of the crate's generic type is a vector like any other
/// (`Lapper` had no constructor the model could call; its 14 methods were unreachable).
#[test]
fn numeric_trait_bounds_take_u64_and_vectors_hold_generic_crate_types() {
    let lib = r#"
        use num_traits::{PrimInt, Unsigned};
        pub struct Interval<I: PrimInt + Unsigned + Ord + Clone, T: Eq + Clone> {
            pub start: I, pub stop: I, pub val: T,
        }
        pub struct Lapper<I: PrimInt + Unsigned + Ord + Clone, T: Eq + Clone> {
            intervals: Vec<Interval<I, T>>,
        }
        impl<I: PrimInt + Unsigned + Ord + Clone, T: Eq + Clone> Lapper<I, T> {
            pub fn new(intervals: Vec<Interval<I, T>>) -> Self { Lapper { intervals } }
            pub fn count(&self, start: I, stop: I) -> usize { 0 }
        }
    "#;
    let (_, text) = generate(&[("lib.rs", lib)], &[]);
    assert!(
        text.contains("pub fn lapper() -> Lapper<u64,Key>"),
        "{text}"
    );
    assert!(
        text.contains("pub fn interval() -> Interval<u64,Key>"),
        "{text}"
    );
    assert!(text.contains("vec_interval_u64_key(),"), "{text}");
    assert!(
        text.contains("new(intervals: val Vec<Interval<u64,Key>>)"),
        "{text}"
    );
}

/// smallvec 1's `from_slice`, `insert_from_slice` and `extend_from_slice` sit in an impl
/// block `where A::Item: Copy`: init instantiated the storage as `[Key; 64]` (the probe key is
/// not `Copy`), and the compiler rejected all four registrations. A bound on the storage's
/// element makes it an integer, as `T: Copy` on a plain parameter does.
#[test]
fn a_copy_bound_on_the_storage_element_makes_it_an_integer() {
    let lib = r#"
        pub unsafe trait Array { type Item; fn size() -> usize; }
        macro_rules! impl_array {
            ($($size:expr),+) => { $( unsafe impl<T> Array for [T; $size] { type Item = T; fn size() -> usize { $size } } )+ }
        }
        impl_array!(0, 1, 2, 0x40);
        pub struct Small<A: Array> { data: Vec<A::Item> }
        impl<A: Array> Small<A> {
            pub fn new() -> Small<A> { Small { data: Vec::new() } }
            pub fn push(&mut self, value: A::Item) { self.data.push(value) }
            pub fn len(&self) -> usize { self.data.len() }
        }
        impl<A: Array> Small<A> where A::Item: Copy {
            pub fn extend_from_slice(&mut self, slice: &[A::Item]) {}
        }
        impl<A: Array> Small<A> where <A as Array>::Item: Clone {
            pub fn resize(&mut self, len: usize, value: A::Item) {}
        }
    "#;
    let (m, text) = generate(&[("lib.rs", lib)], &[]);
    let registered: Vec<&str> = m.types.iter().map(|t| t.rust.as_str()).collect();
    assert_eq!(registered, ["Small<[u64; 64]>"], "{text}");
    let small = &m.types[0];
    for name in ["push", "extend_from_slice", "resize"] {
        assert!(
            small.methods.iter().any(|f| f.name == name),
            "{name}:\n{text}"
        );
    }
    assert!(text.contains("push(mut self, value: copy u64)"), "{text}");
    // Bounds the key meets keep the key.
    let clone_only = lib.replace("where A::Item: Copy", "where A::Item: Clone");
    let (m2, text2) = generate(&[("lib.rs", &clone_only)], &[]);
    let registered: Vec<&str> = m2.types.iter().map(|t| t.rust.as_str()).collect();
    assert_eq!(registered, ["Small<[Key; 64]>"], "{text2}");
}

/// compact_str 0.10's `drain(&mut self, range: impl RangeBounds<usize>)` and
/// `replace_range(&mut self, range: impl RangeBounds<usize>, replace_with: &str)` were
/// skipped ("type `impl RangeBounds<usize>` is not in the program model") where the same
/// bound on a named generic parameter is a range. An argument-position `impl Trait` is read
/// as the generic parameter it is.
#[test]
fn an_impl_trait_argument_is_a_generic_parameter() {
    let lib = r#"
        pub struct Text { v: Vec<u8> }
        impl Text {
            pub fn new() -> Self { Text { v: Vec::new() } }
            pub fn push(&mut self, c: char) {}
            /// Removes the range. Runs in O(n) time.
            pub fn drain(&mut self, range: impl std::ops::RangeBounds<usize>) -> usize { 0 }
            pub fn replace_range(&mut self, range: impl core::ops::RangeBounds<usize>, with: &str) {}
            pub fn contains_key(&self, k: &impl PartialEq) -> bool { false }
            pub fn keep(&mut self, f: impl FnMut(&u8) -> bool) {}
            pub fn append(&mut self, s: impl Into<String>) {}
            pub fn len(&self) -> usize { self.v.len() }
        }
    "#;
    let (m, text) = generate(&[("lib.rs", lib)], &[]);
    let t = m.types.iter().find(|t| t.path == "Text").expect(&text);
    for name in ["drain", "replace_range", "contains_key", "keep", "append"] {
        assert!(t.methods.iter().any(|f| f.name == name), "{name}:\n{text}");
    }
    let drain = text.lines().find(|l| l.contains("drain(")).unwrap();
    assert!(drain.contains("O(n)"), "{drain}");
}

/// strsim's `generic_jaro<'a, 'b, Iter1, Iter2, Elem1, Elem2>(a: &'a Iter1, b: &'b Iter2)`
/// bounds the borrowed sequences, `&'a Iter1: IntoIterator<Item = Elem1>`: read as no bound
/// on `Iter1`, it took the probe key and the compiler rejected the call ("`&Key` is not an
/// iterator"). A vector meets the bound borrowed as it does owned.
#[test]
fn a_bound_on_a_borrowed_parameter_bounds_the_parameter() {
    let lib = r#"
        /// Similarity of two sequences.
        pub fn generic_jaro<'a, 'b, Iter1, Iter2, Elem1, Elem2>(a: &'a Iter1, b: &'b Iter2) -> f64
        where
            &'a Iter1: IntoIterator<Item = Elem1>,
            &'b Iter2: IntoIterator<Item = Elem2>,
            Elem1: PartialEq<Elem2>,
        {
            0.0
        }
    "#;
    let (m, text) = generate(&[("lib.rs", lib)], &[]);
    let ns = m.types.iter().find(|t| t.path == "crate").expect(&text);
    assert!(
        ns.methods.iter().any(|f| f.name == "generic_jaro"),
        "{text}"
    );
    let line = text.lines().find(|l| l.contains("generic_jaro(")).unwrap();
    assert!(line.contains("a: ref Vec<Key>, b: ref Vec<Key>"), "{line}");
}

/// strsim 0.11's `generic_hamming<Iter1, Iter2, Elem1, Elem2>(a: Iter1, b: Iter2)` with
/// `Iter1: IntoIterator<Item = Elem1>`, `Iter2: IntoIterator<Item = Elem2>` and `Elem1:
/// PartialEq<Elem2>` was skipped ("generic parameter Iter1: IntoIterator<Item=Elem1>"): the
/// iterators were read before the elements they name, and `Elem1: PartialEq<Elem2>` looked
/// `Elem2` up among the type's parameters only. The function's parameters are read in
/// dependency order, and a comparison with another of them takes the value that one took.
#[test]
fn elements_comparable_with_each_other_are_read_before_their_sequences() {
    let lib = r#"
        /// Counts differing positions.
        pub fn generic_hamming<Iter1, Iter2, Elem1, Elem2>(a: Iter1, b: Iter2) -> usize
        where
            Iter1: IntoIterator<Item = Elem1>,
            Iter2: IntoIterator<Item = Elem2>,
            Elem1: PartialEq<Elem2>,
        {
            0
        }
    "#;
    let (m, text) = generate(&[("lib.rs", lib)], &[]);
    let ns = m.types.iter().find(|t| t.path == "crate").expect(&text);
    assert!(
        ns.methods.iter().any(|f| f.name == "generic_hamming"),
        "{text}"
    );
    let line = text
        .lines()
        .find(|l| l.contains("generic_hamming("))
        .unwrap();
    assert!(line.contains("a: val Vec<Key>, b: val Vec<Key>"), "{line}");
}

/// string-interner's `get_or_intern<T: AsRef<str>>(&mut self, string: T)`, the crate's main
/// method, takes a program's string (it was skipped: "neither the probe key nor a closure");
/// `get_or_intern_static(&mut self, string: &'static str)` is skipped with its reason (it was
/// registered with a borrowed string, and the harness did not compile as a whole).
#[test]
fn string_like_generics_take_a_string_and_static_references_are_skipped() {
    let lib = r#"
        pub struct Interner { v: Vec<String> }
        impl Interner {
            pub fn new() -> Self { Interner { v: Vec::new() } }
            pub fn len(&self) -> usize { self.v.len() }
            pub fn get_or_intern<T>(&mut self, string: T) -> usize where T: AsRef<str> {
                self.v.push(string.as_ref().to_string());
                self.v.len()
            }
            pub fn push_named<N: Into<String> + Clone>(&mut self, name: N) { self.v.push(name.into()) }
            pub fn get_or_intern_static(&mut self, string: &'static str) -> usize { self.v.len() }
        }
    "#;
    let (_, text) = generate(&[("lib.rs", lib)], &[]);
    assert!(
        text.contains("get_or_intern(mut self, string: val String) -> usize"),
        "{text}"
    );
    assert!(
        text.contains("push_named(mut self, name: val String)"),
        "{text}"
    );
    assert!(
        text.contains(
            "skipped: Interner::get_or_intern_static: parameter `string`: a `&'static` reference"
        ),
        "{text}"
    );
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

/// arraydeque's `ArrayDeque<T, const CAP: usize, B: Behavior = Saturating>` with
/// `impl<T, const CAP: usize> ArrayDeque<T, CAP, Saturating>`: the impl fixes the parameter
/// to the very type the harness chose (the declared default), so its methods register; an
/// impl for another choice (`Wrapping`) registers at its own instantiation (see
/// `fixed_instantiations`).
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
        text.contains("pub fn array_deque_wrapping() -> ArrayDeque<Key,8192,demo::Wrapping>"),
        "{text}"
    );
    assert!(text.contains("push_front(mut self, t: val Key);"), "{text}");
}

/// A parameter the probe key cannot fill takes the default the crate declares for it
/// (skiplist's `SkipList<T, const N: usize = 16, G: LevelGenerator = Geometric>`), named
/// by its full path; without a default, a type of the crate implementing the bound.
#[test]
fn a_parameter_with_a_declared_default_takes_it() {
    let lib = r#"
        pub trait Levels { fn level(&mut self) -> usize; }
        #[derive(Default)]
        pub struct Coin;
        impl Levels for Coin { fn level(&mut self) -> usize { 1 } }
        pub struct Skip<T, const N: usize = 16, G: Levels = Coin> { v: Vec<T>, g: G }
        impl<T: Ord, const N: usize, G: Levels + Default> Skip<T, N, G> {
            pub fn new() -> Self { Skip { v: Vec::new(), g: G::default() } }
            pub fn insert(&mut self, t: T) { self.v.push(t) }
        }
        pub struct NoDefault<G: Levels> { g: std::marker::PhantomData<G> }
        impl<G: Levels> NoDefault<G> { pub fn new() -> Self { NoDefault { g: std::marker::PhantomData } } pub fn len(&self) -> usize { 0 } }
    "#;
    let (m, text) = generate(&[("lib.rs", lib)], &[]);
    let registered: Vec<&str> = m.types.iter().map(|t| t.path.as_str()).collect();
    assert!(registered.contains(&"Skip"), "{registered:?}\n{text}");
    assert!(text.contains("Skip<Key,16,demo::Coin>"), "{text}");
    // Without a default, a type of the crate that implements the bound fills it.
    assert!(text.contains("NoDefault<demo::Coin>"), "{text}");
}

/// A trailing parameter whose default the harness cannot name (hashbrown's
/// `A: Allocator = Global`, re-exported privately) is left out, so the compiler supplies
/// the default, and the impls that leave it out too are the harness's instantiation; a
/// parameter given after it cannot be left out.
#[test]
fn a_trailing_parameter_with_an_unnameable_default_is_left_out() {
    let lib = r#"
        mod alloc { pub use std::alloc::Global; pub trait Allocator {} }
        use alloc::{Allocator, Global};
        pub struct Map<K, V, S = std::hash::RandomState, A: Allocator = Global> { k: Vec<(K, V)>, s: S, a: A }
        impl<K, V, S> Map<K, V, S> {
            pub fn with_hasher(hash_builder: S) -> Self { Map { k: Vec::new(), s: hash_builder, a: Default::default() } }
        }
        impl<K: Eq, V, S: std::hash::BuildHasher, A: Allocator> Map<K, V, S, A> {
            pub fn insert(&mut self, k: K, v: V) -> Option<V> { None }
            pub fn allocator(&self) -> &A { &self.a }
        }
        pub struct Inner<A: Allocator = Global, T = u64> { a: A, t: T }
        impl<A: Allocator, T> Inner<A, T> { pub fn len(&self) -> usize { 0 } }
    "#;
    let (m, text) = generate(&[("lib.rs", lib)], &[]);
    let registered: Vec<&str> = m.types.iter().map(|t| t.rust.as_str()).collect();
    assert_eq!(registered, ["Map<Key,Key,FixedState>"], "{text}");
    assert!(text.contains("with_hasher() as"), "{text}");
    assert!(
        text.contains("insert(mut self, k: val Key, v: val Key) {kept};"),
        "{text}"
    );
    assert!(
        text.contains("// skipped: Inner: its parameter A has a default the harness cannot name"),
        "{text}"
    );
}
