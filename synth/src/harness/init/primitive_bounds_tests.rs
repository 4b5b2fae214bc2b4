//! Tests of bounds read against primitive types (see [`primitive_bounds`](super::primitive_bounds)):
//! a parameter bounded by the crate's traits implemented for integers takes an integer, a
//! closure returning it returns a program value, and a where-clause bound on an associated
//! type that the chosen type's instantiation does not meet skips the function naming it.

use super::tests::{generate, skipped_file};

const WEIGHTED: &str = r#"
    use std::fmt::Debug;
    use std::ops::Add;
    pub trait Base { type NodeId: Copy; type EdgeWeight; type EdgeRef; }
    pub trait Edges: Base { fn edges(self) -> usize; }
    pub struct Net<E> { w: Vec<E> }
    impl<E> Net<E> { pub fn new() -> Self { Net { w: Vec::new() } } pub fn add(&mut self, w: E) { self.w.push(w) } }
    impl<E> Base for Net<E> { type NodeId = usize; type EdgeWeight = E; type EdgeRef = std::rc::Rc<E>; }
    impl<'a, E> Edges for &'a Net<E> { fn edges(self) -> usize { 0 } }
    pub trait Measure: Debug + PartialOrd + Add<Self, Output = Self> + Default + Clone {}
    impl<M> Measure for M where M: Debug + PartialOrd + Add<M, Output = M> + Default + Clone {}
    pub trait FloatMeasure: Measure + Copy { fn zero() -> Self; }
    impl FloatMeasure for f64 { fn zero() -> Self { 0.0 } }
    pub trait Capped: Measure { fn top() -> Self; }
    macro_rules! bounded { ($($t:ty),*) => { $( impl Capped for $t { fn top() -> Self { <$t>::MAX } } )* } }
    bounded!(u8, u32, u64);
    pub fn bellman<G>(g: G) -> usize where G: Edges, G::EdgeWeight: FloatMeasure { 0 }
    pub fn weights<G>(g: G) -> usize where G: Edges, G::EdgeWeight: Clone + Debug { 0 }
    pub fn shortest<G, F, K>(g: G, cost: F) -> Option<K> where G: Edges, F: FnMut(G::EdgeRef) -> K, K: Measure + Copy { None }
    pub struct Iter(usize);
    macro_rules! wrap { ($name:ident, $t:ty) => { impl Iterator for $name { type Item = $t; fn next(&mut self) -> Option<$t> { None } } } }
    wrap!(Iter, usize);
    pub fn walk<I: Iterator<Item = (usize, u8)>>(edges: I) -> usize { 0 }
    pub fn make<K: Capped + Copy>(n: usize) -> Option<K> { None }
    pub fn widest<K: Capped + Copy + Ord + Default>(k: K) -> usize { 0 }
"#;

#[test]
fn where_clause_on_associated_type_unmet_is_skipped_with_the_bound() {
    let (m, text) = generate(&[("lib.rs", WEIGHTED)], &[]);
    assert!(!text.contains("demo::bellman("), "{text}");
    let skipped = skipped_file(&m).skipped;
    let s = skipped
        .iter()
        .find(|s| s.item.ends_with("bellman"))
        .expect("bellman skipped");
    assert_eq!(
        s.reason.to_string(),
        "where-clause `G::EdgeWeight: FloatMeasure` not met: `G::EdgeWeight` is `Key` here, which does not implement `FloatMeasure`"
    );
}

#[test]
fn where_clause_on_associated_type_met_by_the_instantiation_registers() {
    let (_, text) = generate(&[("lib.rs", WEIGHTED)], &[]);
    assert!(text.contains("demo::weights(&{g})"), "{text}");
}

#[test]
fn bound_implemented_for_primitives_takes_a_primitive() {
    let (_, text) = generate(&[("lib.rs", WEIGHTED)], &[]);
    // `Capped` is written by a macro for `u8, u32, u64`; `u64` is tried first.
    assert!(text.contains("widest(ref self, k: copy u64)"), "{text}");
}

#[test]
fn closure_over_an_associated_type_returning_a_primitive_bounded_parameter_returns_a_program_value()
{
    let (_, text) = generate(&[("lib.rs", WEIGHTED)], &[]);
    // `K: Measure + Copy`, `Measure` a blanket impl over `Add<M, Output = M> + ..`: `u64`;
    // the edge cost is a `u64` the program chooses, whatever edge it is given.
    let line = text
        .lines()
        .find(|l| l.contains("demo::shortest("))
        .unwrap_or_else(|| panic!("{text}"));
    assert!(line.contains("move |_| cost.clone()"), "{line}");
}

#[test]
fn primitive_bounded_parameter_only_the_result_names_is_chosen_by_turbofish() {
    let (m, text) = generate(&[("lib.rs", WEIGHTED)], &[]);
    // The caller's choice of result: no argument tells the compiler which integer, so the
    // call names one the crate implements the bound for (see `result_generics`).
    assert!(
        text.contains(r#"as "demo::make::<u64>({n})" => |_namespace| demo::make::<u64>(n)"#),
        "{text}"
    );
    let skipped = skipped_file(&m).skipped;
    assert!(
        !skipped.iter().any(|s| s.item.ends_with("make")),
        "{skipped:?}"
    );
}

#[test]
fn bound_written_with_arguments_takes_no_primitive() {
    // `Iterator` is also implemented by a macro whose invocation names `usize`.
    let (_, text) = generate(&[("lib.rs", WEIGHTED)], &[]);
    assert!(
        !text.contains("walk(ref self, edges: copy usize)"),
        "{text}"
    );
}
