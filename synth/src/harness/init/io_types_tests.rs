//! Types over std's byte streams (`Reader<R>` with `R: BufRead`, `Writer<W>` with
//! `W: Write`) held by the program over owned ones, and parameters of a tuple struct over
//! borrowed text (`QName(pub &[u8])`) built by its literal in the call.

use super::tests::generate;

/// A streaming reader generic over `R: BufRead` (also built from text by `from_str`), a
/// writer over `W: Write`, and a name type over borrowed bytes that a reader's method takes:
/// a parser's usual shape, which init registered only through `from_str`.
const STREAMS: &str = r#"
    use std::io::{BufRead, Write};
    pub struct QName<'a>(pub &'a [u8]);
    pub struct Reader<R> { r: R }
    impl<R> Reader<R> {
        pub fn from_reader(r: R) -> Self { Reader { r } }
    }
    impl<R: BufRead> Reader<R> {
        pub fn read_line_into(&mut self, buf: &mut Vec<u8>) -> usize { self.r.read_until(b'\n', buf).unwrap_or(0) }
        pub fn skip_to(&mut self, end: QName) -> usize { end.0.len() }
    }
    impl<'a> Reader<&'a [u8]> {
        pub fn from_str(s: &'a str) -> Self { Reader { r: s.as_bytes() } }
    }
    pub struct Writer<W> { w: W }
    impl<W> Writer<W> {
        pub fn new(w: W) -> Self { Writer { w } }
    }
    impl<W: Write> Writer<W> {
        pub fn write_text(&mut self, t: &str) -> usize { self.w.write(t.as_bytes()).unwrap_or(0) }
    }
"#;

#[test]
fn a_type_over_a_bufread_parameter_is_held_over_a_cursor_of_a_program_string() {
    let (m, text) = generate(&[("lib.rs", STREAMS)], &[]);
    let reader = m
        .types
        .iter()
        .find(|t| t.free.is_none() && t.path == "Reader")
        .unwrap_or_else(|| panic!("{text}"));
    assert_eq!(
        reader.rust,
        "Reader<::std::io::Cursor<::std::vec::Vec<u8>>>"
    );
    assert!(
        text.contains(r#"from_reader(r: ref String) as "Reader::<::std::io::Cursor<::std::vec::Vec<u8>>>::from_reader(::std::io::Cursor::new({r}.as_bytes().to_vec()))""#),
        "{text}"
    );
    assert!(
        reader.methods.iter().any(|f| f.name == "read_line_into"),
        "{text}"
    );
    // `from_str` is defined for another instantiation: a constructor of the namespace only.
    assert!(!reader.ctors.iter().any(|c| c.name == "from_str"), "{text}");
}

#[test]
fn a_type_over_a_write_parameter_is_held_over_an_empty_byte_vector() {
    let (m, text) = generate(&[("lib.rs", STREAMS)], &[]);
    let writer = m
        .types
        .iter()
        .find(|t| t.path == "Writer")
        .unwrap_or_else(|| panic!("{text}"));
    assert_eq!(writer.rust, "Writer<::std::vec::Vec<u8>>");
    assert!(
        text.contains(
            r#"new() as "Writer::<::std::vec::Vec<u8>>::new(::std::vec::Vec::<u8>::new())""#
        ),
        "{text}"
    );
    assert!(
        writer.methods.iter().any(|f| f.name == "write_text"),
        "{text}"
    );
}

#[test]
fn a_tuple_struct_over_borrowed_bytes_is_built_by_its_literal_in_the_call() {
    let (m, text) = generate(&[("lib.rs", STREAMS)], &[]);
    assert!(
        text.contains(r#"skip_to(mut self, end: ref String) -> usize as "{self}.skip_to(::demo::QName({end}.as_bytes()))""#),
        "{text}"
    );
    let reader = m
        .types
        .iter()
        .find(|t| t.free.is_none() && t.path == "Reader");
    assert!(
        reader.is_some_and(|r| !r.skipped.iter().any(|(s, _)| s.ends_with("skip_to"))),
        "{text}"
    );
}

#[test]
fn a_method_held_and_reached_through_a_namespace_counts_once() {
    let (m, text) = generate(&[("lib.rs", STREAMS)], &[]);
    // Held `Reader<Cursor<..>>` registers `read_line_into` and `skip_to`; the `from_str`
    // namespace reaches them too, which the share does not count again.
    assert_eq!(m.chained, 0, "{text}");
    // Its failed `from_reader` (the reader left to inference) is no skip line: the held
    // type registers it.
    assert!(!text.contains("skipped: Reader::from_reader"), "{text}");
}

/// A chain past a route written as a loop (`for b1 in b.nodes() { .. }`) clones a value it
/// passes by value: moved in the loop, the harness did not compile (E0382). A fallible
/// constructor is taken once (`if let`): nothing is cloned after it.
#[test]
fn a_value_passed_past_a_loop_route_is_cloned() {
    let src = r#"
        pub struct Doc<'a> { s: &'a str }
        pub struct Node<'a> { s: &'a str }
        pub struct Nodes<'a> { s: &'a str }
        impl<'a> Iterator for Nodes<'a> {
            type Item = Node<'a>;
            fn next(&mut self) -> Option<Node<'a>> { None }
        }
        impl<'a> Doc<'a> {
            pub fn parse(s: &'a str) -> Result<Doc<'a>, ()> { Ok(Doc { s }) }
            pub fn find(&self, name: String) -> usize { self.s.find(&name).unwrap_or(0) }
            pub fn nodes(&self) -> Nodes<'a> { Nodes { s: self.s } }
        }
        impl<'a> Node<'a> {
            pub fn find(&self, name: String) -> usize { self.s.find(&name).unwrap_or(0) }
        }
    "#;
    let (_, text) = generate(&[("lib.rs", src)], &[]);
    assert!(
        text.contains("std::hint::black_box(b.find(name))"),
        "{text}"
    );
    assert!(
        text.contains("std::hint::black_box(b1.find(name.clone()))"),
        "{text}"
    );
}

/// A type with only a lifetime parameter that a public function builds from text
/// (`Text::new(&'a str)`, `Start::new(impl Into<Cow<'a, str>>)`) is built by that call in the
/// argument of a method taking one, by value or borrowed.
#[test]
fn a_parameter_of_a_borrowing_type_built_from_text_is_built_in_the_call() {
    let src = r#"
        use std::borrow::Cow;
        pub struct Text<'a> { s: &'a str }
        impl<'a> Text<'a> {
            pub fn borrowed(s: &'a str, n: usize) -> Self { Text { s } }
            pub fn new(s: &'a str) -> Self { Text { s } }
        }
        pub struct Start<'a> { c: Cow<'a, str> }
        impl<'a> Start<'a> {
            pub fn new<C: Into<Cow<'a, str>>>(name: C) -> Self { Start { c: name.into() } }
        }
        pub struct Sink { n: usize }
        impl Sink {
            pub fn new() -> Self { Sink { n: 0 } }
            pub fn put_text(&mut self, t: Text) -> usize { t.s.len() }
            pub fn push(&mut self, start: &Start) -> usize { start.c.len() }
        }
    "#;
    let (_, text) = generate(&[("lib.rs", src)], &[]);
    assert!(
        text.contains(r#"put_text(mut self, t: ref String) -> usize as "{self}.put_text(::demo::Text::new(&{t}[..]))""#),
        "{text}"
    );
    assert!(
        text.contains(r#"push(mut self, start: ref String) -> usize as "{self}.push(&::demo::Start::new(&{start}[..]))""#),
        "{text}"
    );
}
