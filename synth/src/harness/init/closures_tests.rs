//! Closure parameters (`F: FnMut(..) -> R`): the closure built from a program value, its
//! inputs and result, and why one is skipped.

use super::tests::generate;

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

/// Closures whose result wraps a value (`FnOnce() -> Result<V, E>`, `FnOnce(Option<V>) ->
/// Option<V>`, `FnMut(&str) -> Option<&'e str>`) were skipped as "a type the program model
/// does not build". They return `Ok`/`Some` of a program value, the function's own error
/// parameter `E` is `()`, and a borrowed `&str` is a static literal or `None`.
#[test]
fn a_closure_returning_a_result_or_an_option_of_a_model_value_registers() {
    let lib = r#"
        pub struct Cache<K, V> { v: Vec<(K, V)> }
        impl<K: Clone + Eq, V: Clone> Cache<K, V> {
            pub fn new() -> Self { Cache { v: Vec::new() } }
            pub fn try_get_or_insert<F, E>(&mut self, k: K, f: F) -> Result<&V, E>
            where F: FnOnce() -> Result<V, E> {
                let v = f()?;
                self.v.push((k, v));
                Ok(&self.v.last().unwrap().1)
            }
            pub fn alter<F: FnOnce(Option<V>) -> Option<V>>(&mut self, f: F, k: K) {
                if let Some(v) = f(None) { self.v.push((k, v)); }
            }
        }
        pub fn unescape_with<'e, F: FnMut(&str) -> Option<&'e str>>(raw: &str, mut resolve: F) -> usize {
            resolve(raw).map_or(0, str::len)
        }
    "#;
    let (_, text) = generate(&[("lib.rs", lib)], &[]);
    for line in [
        "{self}.try_get_or_insert({k}, move || Ok::<_, ()>({f}.clone()))",
        "{self}.alter(move |_| Some({f}.clone()), {k})",
        r#"unescape_with(ref self, raw: str String, resolve: copy u8)"#,
        r#"move |_| match resolve % 3 { 0 => None, 1 => Some(""), _ => Some("x") }"#,
    ] {
        assert!(text.contains(line), "{line}\n{text}");
    }
    assert!(
        !text.contains("skipped: Cache::try_get_or_insert"),
        "{text}"
    );
}
