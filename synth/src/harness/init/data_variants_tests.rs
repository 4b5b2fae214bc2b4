//! Enums whose variants hold fields: each variant is a constructor (a literal of the
//! variant), so parameters and sequences of such an enum register.

use super::tests::generate;

const DATA_VARIANTS: &str = r#"
    pub enum Element<N, E> {
        Node { weight: N },
        Edge { source: usize, target: usize, weight: E },
    }
    pub enum Shape { Circle(u64), Square(u64, u64), Empty }
    #[non_exhaustive]
    pub enum Open { One(u64) }
    pub struct Graph<N, E> { n: Vec<N>, e: Vec<E> }
    impl<N, E> Graph<N, E> {
        pub fn new() -> Self { Graph { n: Vec::new(), e: Vec::new() } }
        pub fn push(&mut self, el: Element<N, E>) {}
        pub fn from_elements<I: IntoIterator<Item = Element<N, E>>>(i: I) -> Self { Graph::new() }
    }
    pub struct Canvas { v: Vec<Shape> }
    impl Canvas {
        pub fn new() -> Self { Canvas { v: Vec::new() } }
        pub fn draw(&mut self, s: Shape) { self.v.push(s) }
        pub fn open(&mut self, o: Open) {}
    }
"#;

/// A variant with named fields is a struct literal of the variant's path, one with
/// positional fields a call of it, a unit variant a path; a method taking the enum, or a
/// sequence of it, registers. A `#[non_exhaustive]` enum has no variant literal outside its
/// crate, so a method taking it stays skipped.
#[test]
fn variants_holding_fields_are_constructors_of_their_enum() {
    let (_, text) = generate(&[("lib.rs", DATA_VARIANTS)], &[]);
    for line in [
        r#"Node(weight: val Key) as "Element::<Key,Key>::Node { weight: {weight} }" => Element::<Key,Key>::Node { weight: weight };"#,
        r#"Edge(source: copy usize, target: copy usize, weight: val Key) as "Element::<Key,Key>::Edge { source: {source}, target: {target}, weight: {weight} }""#,
        r#"Circle(f0: copy u64) as "Shape::Circle({f0})" => Shape::Circle(f0);"#,
        r#"Square(f0: copy u64, f1: copy u64) as "Shape::Square({f0}, {f1})""#,
        "push(mut self, el: val Element<Key,Key>)",
        "draw(mut self, s: val Shape)",
        "from_elements(",
        "// skipped: Canvas::open:",
    ] {
        assert!(text.contains(line), "{line}\n{text}");
    }
}
