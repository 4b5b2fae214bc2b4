//! Constructors and their variants: what is not a constructor (another instantiation, a
//! `Default` for another one), and the filled and numbered variants that let a sweep size
//! the input.

use super::tests::generate;

/// petgraph's `impl<B> Control<B> { pub fn breaking() -> Control<()> }`: a function returning
/// another instantiation of the type is not a constructor of the registered one.
#[test]
fn a_function_returning_another_instantiation_is_not_a_constructor() {
    let lib = r#"
        pub enum Control<B> { Continue, Break(B) }
        impl<B> Default for Control<B> { fn default() -> Self { Control::Continue } }
        impl<B> Control<B> {
            pub fn breaking() -> Control<()> { Control::Break(()) }
            pub fn again() -> Control<B> { Control::Continue }
        }
    "#;
    let (_, text) = generate(&[("lib.rs", lib)], &[]);
    assert!(!text.contains("breaking() =>"), "{text}");
    assert!(text.contains("again() =>"), "{text}");
    assert!(
        text.contains(
            "// skipped: Control::breaking: associated function that does not return Control"
        ),
        "{text}"
    );
}

/// string-interner's `impl Default for StringInterner<DefaultBackend>` leaves the hasher at
/// its default (`DefaultHashBuilder`), which the harness replaces with its fixed one: it is
/// not a constructor of `StringInterner<DefaultBackend, FixedState>` and is skipped with its
/// reason (registered, the compiler rejected it and init built the worker a second time). A
/// generic `impl<T> Default for Bag<T>` still is one.
#[test]
fn a_default_impl_for_another_instantiation_is_not_a_constructor() {
    let lib = r#"
        pub struct DefaultHashBuilder;
        pub struct Interner<H = DefaultHashBuilder> { hasher: H, v: Vec<String> }
        impl Default for Interner<DefaultHashBuilder> {
            fn default() -> Self { Interner { hasher: DefaultHashBuilder, v: Vec::new() } }
        }
        impl<H: core::hash::BuildHasher + Default> Interner<H> {
            pub fn with_hasher(hasher: H) -> Self { Interner { hasher, v: Vec::new() } }
            pub fn len(&self) -> usize { self.v.len() }
        }
        pub struct Bag<T> { v: Vec<T> }
        impl<T> Default for Bag<T> { fn default() -> Self { Bag { v: Vec::new() } } }
        impl<T> Bag<T> { pub fn len(&self) -> usize { self.v.len() } }
    "#;
    let (_, text) = generate(&[("lib.rs", lib)], &[]);
    assert!(
        text.contains("pub fn interner() -> Interner<FixedState>"),
        "{text}"
    );
    assert!(!text.contains("default() => <Interner"), "{text}");
    assert!(
        text.contains("skipped: Interner::default: `Default` is implemented only for"),
        "{text}"
    );
    assert!(
        text.contains("default() => <Bag<Key>>::default();"),
        "{text}"
    );
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

/// A struct whose fields are all public and that has no constructor is built by a struct
/// literal (a tuple struct's too); one with a private field or `#[non_exhaustive]` is
/// not. A slice of such a type is a vector the harness registers, importing the type.
#[test]
fn plain_data_structs_are_built_by_literals_and_fill_vectors() {
    let lib = r#"
        #[derive(Clone, Copy)]
        pub struct Edge { pub from: usize, pub to: usize }
        pub struct Meters(pub u64);
        pub struct Pair<T> { pub a: T, pub b: T }
        pub struct Sealed { pub a: u64, b: u64 }
        #[non_exhaustive]
        pub struct Open { pub a: u64 }
        pub fn total(edges: &[Edge]) -> usize { edges.len() }
        pub fn len(m: &Meters, p: &Pair<u64>, s: &Sealed, o: &Open) -> u64 { 0 }
    "#;
    let (m, text) = generate(&[("lib.rs", lib)], &[]);
    assert!(
        text.contains(r#"literal(from: copy usize, to: copy usize) as "Edge { from: {from}, to: {to} }" => Edge { from: from, to: to };"#)
            && text.contains(r#"tuple_literal(f0: copy u64) as "Meters({f0})" => Meters(f0);"#)
            && text.contains(r#"literal(a: val Key, b: val Key) as "Pair::<Key> { a: {a}, b: {b} }""#)
            && text.contains(r#"imports: ["perfsyn_profiler_ipc::probe::Key", "demo::Edge"]"#)
            && text.contains("methods { push(mut self, value: val Edge); }")
            && text.contains(r#"total(ref self, edges: slice Edge) -> usize"#),
        "{text}"
    );
    let registered: Vec<&str> = m.types.iter().map(|t| t.path.as_str()).collect();
    assert!(
        !registered.contains(&"Sealed") && !registered.contains(&"Open"),
        "{text}"
    );
}

/// A constructor returning `Result<Self, E>` (a crate's `Result<Self>` alias too) or
/// `Option<Self>` registers, unwrapped in the call and in the printed program; one
/// returning another type's `Result` does not.
#[test]
fn fallible_constructors_register_unwrapped() {
    let lib = r#"
        #[derive(Debug)] pub struct Error;
        pub type Result<T> = std::result::Result<T, Error>;
        pub struct Fallible { v: Vec<u64> }
        impl Fallible {
            pub fn new(cap: usize) -> std::result::Result<Self, Error> { Err(Error) }
            pub fn open() -> Result<Fallible> { Err(Error) }
            pub fn other() -> Result<u64> { Ok(1) }
            pub fn len(&self) -> usize { self.v.len() }
        }
        pub struct Maybe;
        impl Maybe {
            pub fn try_new() -> Option<Self> { None }
            pub fn len(&self) -> usize { 0 }
        }
    "#;
    let (m, text) = generate(&[("lib.rs", lib)], &[]);
    assert!(
        text.contains(
            r#"new(cap: copy usize) as "Fallible::new({cap}).unwrap()" => <Fallible>::new(cap).unwrap();"#
        ) && text.contains(r#"open() as "Fallible::open().unwrap()" => <Fallible>::open().unwrap();"#)
            && text.contains(r#"try_new() as "Maybe::try_new().unwrap()" => <Maybe>::try_new().unwrap();"#)
            && text.contains("// skipped: Fallible::other: associated function that does not return"),
        "{text}"
    );
    assert_eq!(m.types.len(), 2, "{text}");
}

/// An enum's unit variants are its constructors (`Mode::Fast`, printed without a call),
/// so the methods taking it register; data variants are not constructors.
#[test]
fn unit_variants_construct_enums() {
    let lib = r#"
        #[derive(Clone, Copy, PartialEq)]
        pub enum Mode { Fast, Careful, Limit(u64) }
        pub struct Store { m: Mode }
        impl Store {
            pub fn with_mode(m: Mode) -> Self { Store { m } }
            pub fn set_mode(&mut self, m: Mode) { self.m = m }
        }
    "#;
    let (m, text) = generate(&[("lib.rs", lib)], &[]);
    for line in [
        r#"Fast() as "Mode::Fast" => <Mode>::Fast;"#,
        r#"Careful() as "Mode::Careful" => <Mode>::Careful;"#,
        "with_mode(m: copy Mode) => <Store>::with_mode(m);",
        "set_mode(mut self, m: copy Mode);",
    ] {
        assert!(text.contains(line), "{line}\n{text}");
    }
    assert!(!text.contains("Limit()"), "{text}");
    assert_eq!(m.types.len(), 2, "{text}");
}

/// An owning iterator whose only constructor is `Default` (indexmap's `IntoIter`) is
/// always empty: it is not registered, and the method returning it consumes it instead
/// of keeping it as a variable; its own methods are reached through that method.
#[test]
fn an_iterator_built_only_by_default_is_not_registered() {
    let lib = r#"
        pub struct Bag { v: Vec<u64> }
        impl Bag {
            pub fn new() -> Self { Bag { v: Vec::new() } }
            pub fn drain_all(&mut self) -> Drain { Drain { v: std::mem::take(&mut self.v) } }
        }
        #[derive(Default)]
        pub struct Drain { v: Vec<u64> }
        impl Drain { pub fn remaining(&self) -> usize { self.v.len() } }
        impl Iterator for Drain { type Item = u64; fn next(&mut self) -> Option<u64> { self.v.pop() } }
        #[derive(Default)]
        pub struct Settings { depth: u64 }
        impl Settings { pub fn depth(&self) -> u64 { self.depth } }
    "#;
    let (m, text) = generate(&[("lib.rs", lib)], &[]);
    let registered: Vec<&str> = m.types.iter().map(|t| t.path.as_str()).collect();
    assert_eq!(registered, ["Bag", "Settings"], "{text}");
    assert!(
        text.contains(
            "// skipped: Drain: an iterator whose only constructor (Default) yields an empty one"
        ),
        "{text}"
    );
    assert!(
        text.contains("|r| r.drain_all().map(std::hint::black_box).count()"),
        "{text}"
    );
    assert!(text.contains("drain_all_remaining(mut self)"), "{text}");
}

/// A newtype over a private string, built only by `From<&str>` or `From<String>`, is built
/// from a program's string, and a map keyed by it takes keys (its methods were skipped:
/// "a value of type `K` ... is not in the program model").
#[test]
fn a_type_built_only_by_a_conversion_from_a_string_is_constructed_by_it() {
    let lib = r#"
        use std::borrow::Borrow;
        pub struct Name(String);
        impl<'a> From<&'a str> for Name { fn from(s: &'a str) -> Name { Name(s.into()) } }
        impl Borrow<[u8]> for Name { fn borrow(&self) -> &[u8] { self.0.as_bytes() } }
        impl Name { pub fn as_str(&self) -> &str { &self.0 } }
        pub struct Owned(String);
        impl From<String> for Owned { fn from(s: String) -> Owned { Owned(s) } }
        impl Owned { pub fn len(&self) -> usize { self.0.len() } }
        pub struct Map<K, V> { kv: Vec<(K, V)> }
        impl<K: Borrow<[u8]>, V> Map<K, V> {
            pub fn new() -> Self { Map { kv: Vec::new() } }
            pub fn insert(&mut self, key: K, val: V) { self.kv.push((key, val)) }
        }
    "#;
    let (_, text) = generate(&[("lib.rs", lib)], &[]);
    assert!(
        text.contains("from(s: str String) => <Name>::from(s);"),
        "{text}"
    );
    assert!(
        text.contains("from(s: val String) => <Owned>::from(s);"),
        "{text}"
    );
    assert!(
        text.contains("insert(mut self, key: val Name, val: val Key);"),
        "{text}"
    );
    assert!(!text.contains("skipped: Name:"), "{text}");
}

/// A type with no public constructor but `FromIterator` (an interval tree built from its
/// elements, or from anything converting into them) is built by `from_iter` of a program's
/// vector of items, plain data a struct literal builds; its methods register.
#[test]
fn a_type_collected_from_items_is_built_by_from_iter() {
    let lib = r#"
        pub struct Element<K, V> { pub range: std::ops::Range<K>, pub value: V }
        pub struct IntervalTree<K, V> { data: Vec<Element<K, V>> }
        impl<K, V, I: Into<Element<K, V>>> std::iter::FromIterator<I> for IntervalTree<K, V> {
            fn from_iter<T: IntoIterator<Item = I>>(i: T) -> Self {
                IntervalTree { data: i.into_iter().map(Into::into).collect() }
            }
        }
        impl<K: Ord, V> IntervalTree<K, V> {
            pub fn query_point(&self, k: K) -> usize { self.data.len() }
        }
    "#;
    let (_, text) = generate(&[("lib.rs", lib)], &[]);
    assert!(
        text.contains("from_iter(items: val Vec<Element<Key,Key>>) => <IntervalTree<Key,Key>>::from_iter(items);")
            && text.contains("query_point(ref self, k: val Key) -> usize;"),
        "{text}"
    );
}
