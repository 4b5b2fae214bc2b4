//! Parameter kinds built from program values: tuples, mutable slices, conversions
//! (`impl Into<String>`), `Option`s, non-zero integers, ranges and sequences of items.

use super::tests::generate;

/// A tuple parameter is one program value per element, passed as a tuple; a tuple
/// holding a `&mut` is skipped.
#[test]
fn tuple_parameters_take_one_value_per_element() {
    let lib = r#"
        pub fn dist(a: (u64, u64), label: (&str,)) -> u64 { a.0 }
        pub fn bad(a: (&mut Vec<u64>, u64)) {}
    "#;
    let (_, text) = generate(&[("lib.rs", lib)], &[]);
    assert!(
        text.contains(r#"dist(ref self, a: copy u64, a_1: copy u64, label: str String) -> u64 as "demo::dist(({a}, {a_1}), (&{label},))" => |_namespace| demo::dist((a, a_1), (label,));"#)
            && text.contains("// skipped: crate::bad: parameter `a`: a tuple of closures, casts, ranges or `&mut` references"),
        "{text}"
    );
    // A slice of tuples of primitives (an edge list) is a vector pushed one tuple at a time.
    let (_, text) = generate(
        &[(
            "lib.rs",
            "pub fn max_degree(edges: &[(usize, usize)]) -> usize { 0 }",
        )],
        &[],
    );
    assert!(
        text.contains("pub fn vec_usize_usize() -> Vec<(usize,usize)>")
            && text.contains(r#"push(mut self, value_0: copy usize, value_1: copy usize) as "{self}.push(({value_0}, {value_1}))" => |v| v.push((value_0, value_1));"#)
            && text.contains("max_degree(ref self, edges: slice (usize,usize)) -> usize"),
        "{text}"
    );
}

/// `&mut [T]` (an in-place sort) is a vector by `&mut`; a function taking a string gets
/// `String` registered, so that a program grows the string (its length the input size).
#[test]
fn mutable_slices_are_vectors_and_string_parameters_register_string() {
    let lib = r#"
        /// O(n^2).
        pub fn insertion_sort<T: Ord>(v: &mut [T]) {}
        pub fn find(haystack: &str, needle: &str) -> Option<usize> { None }
    "#;
    let (_, text) = generate(&[("lib.rs", lib)], &[]);
    assert!(
        text.contains(r#"insertion_sort(ref self, v: mut Vec<Key>) ["O(n^2)"] as "demo::insertion_sort(&mut {v})""#)
            && text.contains("pub fn vec_key() -> Vec<Key>")
            && text.contains("        perfsyn_std::string(),")
            && text.contains("push_number(mut self, x: copy u64)")
            && text.contains("push_field(mut self, x: copy u64, sep: copy u8)"),
        "{text}"
    );
    let (_, text) = generate(&[("lib.rs", "pub fn f(v: &[u64]) {}")], &[]);
    assert!(!text.contains("string()"), "{text}");
}

/// A parameter bounded only by a conversion into a model value (`impl Into<String>`,
/// `S: AsRef<str>`, `impl AsRef<[u8]>`, `impl ToString`, `impl Into<u64>`) takes that
/// value; other bounds (`impl AsRef<[u64]>`) are still skipped.
#[test]
fn conversion_parameters_take_the_model_value() {
    let lib = r#"
        pub struct Names { v: Vec<String> }
        impl Names {
            pub fn new() -> Self { Names { v: Vec::new() } }
            pub fn put<S: Into<String>>(&mut self, s: S) {}
            pub fn find<S>(&self, s: S) -> bool where S: AsRef<str> { false }
            pub fn add(&mut self, s: impl Into<String>) {}
            pub fn num(&mut self, x: impl Into<u64>) {}
            pub fn show(&mut self, x: impl ToString) {}
            pub fn bytes(&mut self, b: impl AsRef<[u8]>) {}
            pub fn pair(&mut self, p: impl AsRef<[u64]>) {}
        }
    "#;
    let (_, text) = generate(&[("lib.rs", lib)], &[]);
    for line in [
        "put(mut self, s: val String);",
        "find(ref self, s: val String) -> bool;",
        "add(mut self, s: val String);",
        "num(mut self, x: copy u64);",
        "show(mut self, x: val String);",
        "bytes(mut self, b: val String);",
        "// skipped: Names::pair:",
    ] {
        assert!(text.contains(line), "{line}\n{text}");
    }
}

/// An `Option<T>` parameter of a model value takes the value, passed as `x.into()` in the
/// call and in the printed program; an `Option<&T>` takes `Some` of a borrow; an `Option` of
/// what no program value builds (scratch space the callee allocates when absent) is `None`,
/// so the method registers instead of being skipped for an argument it does not need.
#[test]
fn option_parameters_take_their_value_or_none() {
    let lib = r#"
        pub struct Store { limit: Option<usize> }
        pub struct Space { _p: *const u8 }
        impl Store {
            pub fn new() -> Self { Store { limit: None } }
            pub fn set_limit(&mut self, l: Option<usize>) { self.limit = l }
            pub fn name(&mut self, s: Option<String>) {}
            pub fn peek(&mut self, r: Option<&u64>) {}
            pub fn merge(&mut self, o: Option<&mut Store>) {}
            pub fn sort(&mut self, space: Option<&mut Space>) {}
        }
    "#;
    let (_, text) = generate(&[("lib.rs", lib)], &[]);
    for line in [
        r#"set_limit(mut self, l: copy usize) as "{self}.set_limit({l}.into())" => |r| r.set_limit(l.into());"#,
        r#"name(mut self, s: val String) as "{self}.name({s}.into())" => |r| r.name(s.into());"#,
        r#"peek(mut self, r: ref u64) as "{self}.peek(Some(&{r}))" => |r_| r_.peek(Some(r));"#,
        r#"merge(mut self, o: mut Store) as "{self}.merge(Some(&mut {o}))" => |r| r.merge(Some(o));"#,
        r#"sort(mut self) as "{self}.sort(None)" => |r| r.sort(None);"#,
    ] {
        assert!(text.contains(line), "{line}\n{text}");
    }
}

/// A non-zero integer (lru's `with_hasher(cap: NonZeroUsize, ..)`, `resize`) is one plus
/// a program value, so a bounded cache registers and every value is valid.
#[test]
fn a_non_zero_integer_is_one_plus_a_program_value() {
    let lib = r#"
        use std::num::{NonZero, NonZeroUsize};
        pub struct Cache { cap: usize }
        impl Cache {
            pub fn bounded(cap: NonZeroUsize) -> Self { Cache { cap: cap.get() } }
            pub fn unbounded() -> Self { Cache { cap: usize::MAX } }
            pub fn resize(&mut self, cap: NonZero<u32>) {}
            pub fn wrong(&mut self, cap: NonZero<i128>) {}
        }
    "#;
    let (m, text) = generate(&[("lib.rs", lib)], &[]);
    assert!(
        text.contains("bounded(cap: copy usize) as \"Cache::bounded(std::num::NonZero::<usize>::MIN.saturating_add({cap}))\" => <Cache>::bounded(std::num::NonZero::<usize>::MIN.saturating_add(cap));"),
        "{text}"
    );
    assert!(
        text.contains("resize(mut self, cap: copy u32) as \"{self}.resize(std::num::NonZero::<u32>::MIN.saturating_add({cap}))\""),
        "{text}"
    );
    assert!(
        text.contains("// skipped: Cache::wrong: parameter `cap`"),
        "{text}"
    );
    assert_eq!(m.methods(), 1, "{text}");
    // p0 starts from the first constructor: the one without a capacity comes first.
    let ctors: Vec<&str> = m.types[0].ctors.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(ctors, ["unbounded", "bounded"], "{text}");
}

/// A byte-slice parameter (`&[u8]`, or a `Vec<u8>`) takes the bytes of a program string, as a reader does,
/// so it draws the strings and byte strings the crate's tests pass and grows them as text;
/// a slice of other integers is still a vector's.
#[test]
fn byte_slice_parameters_take_a_program_strings_bytes() {
    let lib = r#"
        pub fn count_tags(b: &[u8]) -> usize { b.len() }
        pub fn sum(v: &[u64]) -> u64 { 0 }
        pub fn feed(v: Vec<u8>) -> usize { v.len() }
    "#;
    let (_, text) = generate(&[("lib.rs", lib)], &[]);
    assert!(text.contains("count_tags({b}.as_bytes())"), "{text}");
    assert!(text.contains("feed({v}.as_bytes().to_vec())"), "{text}");
    assert!(text.contains("sum(ref self, v: slice u64)"), "{text}");
}
