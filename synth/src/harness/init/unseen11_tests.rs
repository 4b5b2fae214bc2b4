//! Init on API shapes of registry crates tried in the session (min-max-heap, ...), each as a
//! small synthetic crate.

use super::tests::generate;

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

/// patricia_tree 0.10 is `GenericPatriciaMap<K: Bytes, V>`, registered through `pub type
/// PatriciaMap<V> = GenericPatriciaMap<Vec<u8>, V>`, and its lookups and updates take keys
/// through the key type's associated type: `insert<Q: AsRef<K::Borrowed>>(&mut self, key: Q,
/// value: V)`, `iter_prefix(&self, prefix: &K::Borrowed)`. Init skipped them all ("generic
/// parameter Q: AsRef<K::Borrowed>"), leaving a map no program could fill. A parameter the
/// alias fixes is the type it fixes it to, and its associated type is what the crate's impl
/// for that type sets (`impl Bytes for Vec<u8> { type Borrowed = [u8]; }`).
#[test]
fn an_alias_fixed_parameters_associated_type_is_the_impls() {
    let lib = r#"
        pub trait Bytes { type Borrowed: ?Sized; }
        impl Bytes for Vec<u8> { type Borrowed = [u8]; }
        impl Bytes for String { type Borrowed = str; }
        pub struct GenericMap<K, V> { keys: Vec<K>, values: Vec<V> }
        pub type Map<V> = GenericMap<Vec<u8>, V>;
        impl<K: Bytes, V> GenericMap<K, V> {
            pub fn new() -> Self { GenericMap { keys: Vec::new(), values: Vec::new() } }
            /// Inserts a key. Runs in O(log n) time.
            pub fn insert<Q: AsRef<K::Borrowed>>(&mut self, key: Q, value: V) -> Option<V> { None }
            pub fn iter_prefix<'a>(&'a self, prefix: &K::Borrowed) -> usize { 0 }
            pub fn take_key(&mut self, key: K) {}
            pub fn len(&self) -> usize { self.values.len() }
        }
    "#;
    let (m, text) = generate(&[("lib.rs", lib)], &[]);
    let map = m.types.iter().find(|t| t.path == "Map").expect(&text);
    for name in ["insert", "iter_prefix", "take_key"] {
        assert!(
            map.methods.iter().any(|f| f.name == name),
            "{name}:\n{text}"
        );
    }
    let insert = text.lines().find(|l| l.contains("insert(")).unwrap();
    assert!(
        insert.contains("key: val String") && insert.contains("O(log n)"),
        "{insert}"
    );
    let prefix = text.lines().find(|l| l.contains("iter_prefix(")).unwrap();
    assert!(prefix.contains("prefix: slice u8"), "{prefix}");
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

/// patricia_tree's maps are keyed by strings, and a loop repeats a string literal (only the
/// loop index varies): in every program of a hunt the map held at most four keys, and `len`,
/// `iter` and `clear` measured sizes 0..3 only. A method taking `&mut self` and a string
/// also registers `NAME_numbered`, whose string is a program integer written out, so a loop
/// of it inserts a distinct key per iteration; it calls the method itself.
#[test]
fn a_string_keyed_update_has_a_numbered_variant() {
    let lib = r#"
        pub struct Trie<V> { keys: Vec<String>, values: Vec<V> }
        impl<V> Trie<V> {
            pub fn new() -> Self { Trie { keys: Vec::new(), values: Vec::new() } }
            /// Inserts a key. Runs in O(log n) time.
            pub fn insert<Q: AsRef<[u8]>>(&mut self, key: Q, value: V) -> Option<V> { None }
            pub fn add(&mut self, word: &str) {}
            pub fn get(&self, key: &str) -> Option<&V> { None }
            pub fn len(&self) -> usize { self.values.len() }
        }
    "#;
    let (m, text) = generate(&[("lib.rs", lib)], &[]);
    let trie = m.types.iter().find(|t| t.path == "Trie").expect(&text);
    let names: Vec<&str> = trie.methods.iter().map(|f| f.name.as_str()).collect();
    assert!(
        names.contains(&"insert") && names.contains(&"insert_numbered"),
        "{text}"
    );
    assert!(names.contains(&"add_numbered"), "{text}");
    assert!(
        !names.contains(&"get_numbered"),
        "a lookup does not grow the map:\n{text}"
    );
    let line = text
        .lines()
        .find(|l| l.contains("insert_numbered("))
        .unwrap();
    assert!(
        line.contains("key: copy u64")
            && line.contains(r#"as "{self}.insert({key}.to_string(), {value})""#)
            && line.contains("r.insert(key.to_string(), value)")
            && line.contains("O(log n)"),
        "{line}"
    );
    let add = text.lines().find(|l| l.contains("add_numbered(")).unwrap();
    assert!(add.contains("r.add(&word.to_string())"), "{add}");
    // A variant is no public method of its own.
    assert_eq!(m.methods(), 4, "{text}");
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

/// sorted-vec 0.8's `mutate_vec<F, O>(&mut self, f: F) -> O where F: FnOnce(&mut Vec<T>) ->
/// O` lends its storage to a closure and re-sorts after it: skipped ("a closure returning `O`
/// computed from inputs the harness cannot clone and order (?)"). A closure result the
/// function only passes back, of a parameter with no bound, is `()`: the closure does
/// nothing, and the call measures the re-sort.
#[test]
fn a_passed_back_closure_result_without_bounds_is_unit() {
    let lib = r#"
        pub struct Sorted<T> { vec: Vec<T> }
        impl<T: Ord> Sorted<T> {
            pub fn new() -> Self { Sorted { vec: Vec::new() } }
            pub fn insert(&mut self, x: T) { self.vec.push(x); self.vec.sort(); }
            /// Applies `f` to the storage, then sorts it again.
            pub fn mutate_vec<F, O>(&mut self, f: F) -> O where F: FnOnce(&mut Vec<T>) -> O {
                let res = f(&mut self.vec);
                self.vec.sort_unstable();
                res
            }
            pub fn len(&self) -> usize { self.vec.len() }
        }
    "#;
    let (m, text) = generate(&[("lib.rs", lib)], &[]);
    let t = m.types.iter().find(|t| t.path == "Sorted").expect(&text);
    assert!(t.methods.iter().any(|f| f.name == "mutate_vec"), "{text}");
    let line = text.lines().find(|l| l.contains("mutate_vec(")).unwrap();
    assert!(
        line.contains("r.mutate_vec(|_| {})") && !line.contains("->"),
        "{line}"
    );
}

/// fixedbitset 0.5's `with_capacity_and_blocks<I: IntoIterator<Item = Block>>(bits: usize,
/// blocks: I)` names the crate's `pub type Block = usize;`: init skipped it (`Block` "not in
/// the program model"). A public alias of a primitive is that primitive.
#[test]
fn a_public_alias_of_a_primitive_is_the_primitive() {
    let lib = r#"
        pub type Block = usize;
        pub struct Bits { data: Vec<Block> }
        impl Bits {
            pub fn new() -> Self { Bits { data: Vec::new() } }
            pub fn with_blocks<I: IntoIterator<Item = Block>>(bits: usize, blocks: I) -> Self {
                Bits { data: blocks.into_iter().collect() }
            }
            pub fn set_block(&mut self, at: usize, b: Block) {}
            pub fn block(&self, at: usize) -> Block { 0 }
            pub fn len(&self) -> usize { self.data.len() }
        }
        /// Counts ones.
        pub fn ones(b: Block) -> u32 { b.count_ones() }
    "#;
    let (m, text) = generate(&[("lib.rs", lib)], &[]);
    let t = m.types.iter().find(|t| t.path == "Bits").expect(&text);
    assert!(t.ctors.iter().any(|f| f.name == "with_blocks"), "{text}");
    assert!(t.methods.iter().any(|f| f.name == "set_block"), "{text}");
    let line = text.lines().find(|l| l.contains("set_block(")).unwrap();
    assert!(line.contains("b: copy usize"), "{line}");
    let ns = m.types.iter().find(|t| t.path == "crate").expect(&text);
    assert!(ns.methods.iter().any(|f| f.name == "ones"), "{text}");
}

/// A closure over an input the model has no type for was skipped with the reason "a closure
/// returning `K` computed from inputs the harness cannot clone and order (?)": the `?` named
/// nothing. The input is shown as written.
#[test]
fn a_closure_input_outside_the_model_is_named_in_the_skip_reason() {
    let lib = r#"
        pub struct Sorted<T> { vec: Vec<T> }
        impl<T: Ord> Sorted<T> {
            pub fn new() -> Self { Sorted { vec: Vec::new() } }
            pub fn by_storage<F, K: Ord>(&mut self, f: F) -> K where F: FnMut(&mut Vec<T>) -> K {
                f(&mut self.vec)
            }
        }
    "#;
    let (_, text) = generate(&[("lib.rs", lib)], &[]);
    let line = text.lines().find(|l| l.contains("by_storage")).unwrap();
    assert!(
        line.contains("(`&mut Vec<T>`, not in the program model)") && !line.contains("(?)"),
        "{line}"
    );
}
