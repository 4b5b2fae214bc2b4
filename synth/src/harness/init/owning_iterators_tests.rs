//! Owning iterators: the crate's iterator type a by-value `IntoIterator` impl returns,
//! reached through `into_iter()` (see [`owning_iter`](super::owning_iter)).

use super::tests::generate;

/// arrayvec's and slab's `IntoIter` (`as_slice`, `as_mut_slice`) were skipped as "no
/// constructor, its 2 methods unreachable": only `impl IntoIterator for ArrayVec` returns
/// one, and std's trait impls were not read as the type's API. `into_iter` registers as a
/// consuming method (its items walked), and the iterator's methods as chains through it.
#[test]
fn an_owning_iterators_methods_are_reached_through_into_iter() {
    let lib = r#"
        pub struct Stack<T> { v: Vec<T> }
        impl<T> Stack<T> {
            pub fn new() -> Self { Stack { v: Vec::new() } }
            pub fn push(&mut self, x: T) { self.v.push(x) }
        }
        pub struct IntoIter<T> { v: std::vec::IntoIter<T> }
        impl<T> IntoIter<T> {
            pub fn as_slice(&self) -> &[T] { self.v.as_slice() }
        }
        impl<T> Iterator for IntoIter<T> {
            type Item = T;
            fn next(&mut self) -> Option<T> { self.v.next() }
        }
        impl<T> IntoIterator for Stack<T> {
            type Item = T;
            type IntoIter = IntoIter<T>;
            fn into_iter(self) -> Self::IntoIter { IntoIter { v: self.v.into_iter() } }
        }
        pub struct Iter<'a, T> { v: std::slice::Iter<'a, T> }
        impl<'a, T> IntoIterator for &'a Stack<T> {
            type Item = &'a T;
            type IntoIter = Iter<'a, T>;
            fn into_iter(self) -> Iter<'a, T> { Iter { v: self.v.iter() } }
        }
    "#;
    let (m, text) = generate(&[("lib.rs", lib)], &[]);
    assert!(
        text.contains(
            r#"into_iter(val self) as "{self}.into_iter().map(std::hint::black_box).count()""#
        ),
        "{text}"
    );
    assert!(
        text.contains(r#"into_iter_as_slice(val self) as "{self}.into_iter().as_slice()" => |r| { std::hint::black_box(r.into_iter().as_slice()); };"#),
        "{text}"
    );
    assert!(
        text.contains("1 of its methods are reached through the methods returning it"),
        "{text}"
    );
    let stack = m.types.iter().find(|t| t.path == "Stack").expect(&text);
    // One `into_iter`: the impl for `&Stack` is not the type's.
    let n = stack
        .methods
        .iter()
        .filter(|f| f.name == "into_iter")
        .count();
    assert_eq!(n, 1, "{text}");
}
