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
        pub struct ArrayDeque<T, const CAP: usize, B: Behavior = Saturating> { v: Vec<T>, b: std::marker::PhantomData<B> }
        impl<T, const CAP: usize, B: Behavior> ArrayDeque<T, CAP, B> {
            pub fn new() -> Self { ArrayDeque { v: Vec::new(), b: std::marker::PhantomData } }
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
    assert!(
        text.contains("// skipped: ArrayDeque::push_front: defined only for"),
        "{text}"
    );
}
