//! Parsers: types that borrow their input (built from a program string and consumed in
//! one call), functions taking a reader, and functions returning a lazy token stream.

use super::tests::generate;

/// A parser over `&'a str` yielding borrowed events, a reader over `&'a [u8]`, a function
/// generic over `R: BufRead` and one returning `impl Iterator`: the published parsers
/// with complexity bugs had these shapes, and init skipped the first three outright.
const PARSERS: &str = r#"
    use std::io::BufRead;
    pub enum Event<'a> { Start(&'a str), End }
    pub struct Parser<'a> { s: &'a str }
    impl<'a> Parser<'a> {
        pub fn new(s: &'a str) -> Self { Parser { s } }
        pub fn checked(s: &'a str) -> Option<Self> { Some(Parser { s }) }
        pub fn words(s: &'a str) -> impl Iterator<Item = &'a str> { s.split(' ') }
    }
    impl<'a> Iterator for Parser<'a> {
        type Item = Event<'a>;
        fn next(&mut self) -> Option<Event<'a>> { None }
    }
    pub struct Reader<'a> { b: &'a [u8] }
    impl<'a> Reader<'a> {
        pub fn from_bytes(b: &'a [u8]) -> Result<Reader<'a>, String> { Ok(Reader { b }) }
        pub fn read_all(&mut self) -> usize { self.b.len() }
    }
    pub fn parse<R: BufRead>(r: R) -> Vec<String> { r.lines().map(|l| l.unwrap()).collect() }
    pub fn read_it(r: impl std::io::Read) -> usize { 0 }
    pub fn tokens(s: &str) -> impl Iterator<Item = &str> { s.split(' ') }
"#;

#[test]
fn a_parser_borrowing_a_string_is_built_and_its_events_consumed_in_one_call() {
    let (m, text) = generate(&[("lib.rs", PARSERS)], &[]);
    assert!(
        text.contains(r#"new(ref self, s: str String) as "demo::Parser::new(&{s}).map(std::hint::black_box).count()" => |_namespace| demo::Parser::new(s).map(std::hint::black_box).count();"#),
        "{text}"
    );
    // Text it rejects is an answer: an empty stream, not a panic.
    assert!(
        text.contains(r#"checked(ref self, s: str String) as "demo::Parser::checked(&{s}).into_iter().flatten().map(std::hint::black_box).count()""#),
        "{text}"
    );
    // Its other functions returning an iterator are measured consumed.
    assert!(
        text.contains(r#"words(ref self, s: str String) as "demo::Parser::words(&{s}).map(std::hint::black_box).count()""#),
        "{text}"
    );
    assert!(!text.contains("skipped: Parser:"), "{text}");
    // Not a parser: an enum of borrowed events nothing builds stays skipped.
    assert!(text.contains("skipped: Event: it borrows"), "{text}");
    assert!(m.types.iter().any(|t| t.path == "Parser"), "{text}");
}

/// A fallible constructor's failure (text the parser rejects) is measured, not a panic:
/// roxmltree's `Document::parse(text)?.descendants()` found no initial program while it
/// unwrapped.
#[test]
fn a_reader_borrowing_bytes_is_built_and_consumed_by_its_method() {
    let (m, text) = generate(&[("lib.rs", PARSERS)], &[]);
    assert!(
        text.contains(r#"from_bytes_read_all(ref self, b: ref String) as "if let Some(mut b_) = demo::Reader::from_bytes({b}.as_bytes()).into_iter().next() { std::hint::black_box(b_.read_all()); }" => |_namespace| { if let Some(mut b_) = demo::Reader::from_bytes(b.as_bytes()).into_iter().next() { std::hint::black_box(b_.read_all()); } };"#),
        "{text}"
    );
    // Counted as a registered method of the crate, through its chain.
    assert_eq!(m.chained, 1, "{text}");
}

#[test]
fn a_parameter_bounded_by_read_or_bufread_gets_the_bytes_of_a_string() {
    let (_, text) = generate(&[("lib.rs", PARSERS)], &[]);
    assert!(
        text.contains(r#"parse(ref self, r: ref String) {kept} as "demo::parse({r}.as_bytes())" => |_namespace| demo::parse(r.as_bytes());"#),
        "{text}"
    );
    assert!(
        text.contains(
            r#"read_it(ref self, r: ref String) -> usize as "demo::read_it({r}.as_bytes())""#
        ),
        "{text}"
    );
}

/// A bound `&[u8]` does not meet (`R: Read + Seek`) is still skipped, in its words.
#[test]
fn a_reader_bound_slices_do_not_meet_is_skipped() {
    let lib = "pub fn rewind<R: std::io::Read + std::io::Seek>(r: R) -> usize { 0 }";
    let (_, text) = generate(&[("lib.rs", lib)], &[]);
    assert!(
        text.contains("skipped: crate::rewind: generic parameter R"),
        "{text}"
    );
}

#[test]
fn a_function_returning_an_iterator_over_a_string_is_measured_consumed() {
    let (_, text) = generate(&[("lib.rs", PARSERS)], &[]);
    assert!(
        text.contains(r#"tokens(ref self, s: str String) as "demo::tokens(&{s}).map(std::hint::black_box).count()""#),
        "{text}"
    );
}

/// httparse's shape: `parse_headers(src, dst: &mut [Header<'b>])` and
/// `parse_request(&self, req: &mut Request<'_, 'b>, buf)` with `Request::new(headers: &mut
/// [Header])` were skipped ("type `Header<'b>` is not in the program model"). A `&mut [T]`
/// of a crate type with a public constant of its type (or `Default`) gets an array of it,
/// lent for the call; a borrowing type whose `new` takes such slots alone is built from
/// them in the call.
#[test]
fn slots_of_a_crate_type_with_a_public_constant_are_lent_to_the_call() {
    let lib = r#"
        pub struct Header<'a> { pub name: &'a str, pub value: &'a [u8] }
        pub const EMPTY_HEADER: Header<'static> = Header { name: "", value: b"" };
        pub struct Request<'h, 'b> { pub headers: &'h mut [Header<'b>] }
        impl<'h, 'b> Request<'h, 'b> {
            pub fn new(headers: &'h mut [Header<'b>]) -> Request<'h, 'b> { Request { headers } }
        }
        #[derive(Default)]
        pub struct Cell<'a> { pub n: &'a str }
        pub struct Config { strict: bool }
        impl Config {
            pub fn new() -> Self { Config { strict: true } }
            pub fn parse_request<'b>(&self, req: &mut Request<'_, 'b>, buf: &'b [u8]) -> usize { buf.len() }
        }
        pub fn parse_headers<'b>(src: &'b [u8], dst: &mut [Header<'b>]) -> usize { src.len() }
        pub fn keep_headers<'b: 'h, 'h>(src: &'b [u8], dst: &'h mut [Header<'b>]) -> &'h [Header<'b>] { dst }
        pub fn fill(cells: &mut [Cell<'_>]) -> usize { cells.len() }
    "#;
    let (_, text) = generate(&[("lib.rs", lib)], &[]);
    for line in [
        "parse_request(ref self, buf: ref String) -> usize as \"{self}.parse_request(&mut ::demo::Request::new(&mut [::demo::EMPTY_HEADER; 1024]), {buf}.as_bytes())\"",
        "parse_headers(ref self, src: ref String) -> usize as \"demo::parse_headers({src}.as_bytes(), &mut [::demo::EMPTY_HEADER; 1024])\"",
        "fill(ref self) -> usize as \"demo::fill(&mut std::array::from_fn::<_, 1024, _>(|_| ::demo::Cell::default()))\"",
    ] {
        assert!(text.contains(line), "{line}\n{text}");
    }
    // The result keeps the slots' loan: it is consumed in the statement that lends them.
    assert!(
        text.contains("keep_headers(ref self, src: ref String) as \"demo::keep_headers({src}.as_bytes(), &mut [::demo::EMPTY_HEADER; 1024])\" => |_namespace| { std::hint::black_box(demo::keep_headers(src.as_bytes(), &mut [::demo::EMPTY_HEADER; 1024])); };"),
        "{text}"
    );
}

/// httparse's `parse_request_with_uninit_headers(&self, req, buf, headers: &mut
/// [MaybeUninit<Header<'b>>])` was skipped ("type `MaybeUninit<Header<'buf>>` is not in the
/// program model"): uninitialised slots need no constant nor `Default`, for any `T`.
#[test]
fn uninitialised_slots_of_any_type_are_lent_to_the_call() {
    let lib = r#"
        use std::mem::MaybeUninit;
        pub struct Header<'a> { pub name: &'a str }
        pub struct Config { strict: bool }
        impl Config {
            pub fn new() -> Self { Config { strict: true } }
            pub fn parse<'b>(&self, buf: &'b [u8], headers: &mut [MaybeUninit<Header<'b>>]) -> usize { buf.len() }
        }
        pub fn read_into(buf: &mut [std::mem::MaybeUninit<u8>]) -> usize { buf.len() }
    "#;
    let (_, text) = generate(&[("lib.rs", lib)], &[]);
    for line in [
        "parse(ref self, buf: ref String) -> usize as \"{self}.parse({buf}.as_bytes(), &mut [const { ::std::mem::MaybeUninit::uninit() }; 1024])\"",
        "read_into(ref self) -> usize as \"demo::read_into(&mut [const { ::std::mem::MaybeUninit::uninit() }; 1024])\"",
    ] {
        assert!(text.contains(line), "{line}\n{text}");
    }
    assert!(!text.contains("skipped: Config::parse"), "{text}");
}

/// A method's result that keeps the loan of slots (`-> Option<&'h Header>`) cannot leave
/// the wrapper: the call is consumed in its statement, still measured.
#[test]
fn a_result_keeping_the_slots_loan_is_consumed_in_its_statement() {
    let lib = r#"
        pub struct Header<'a> { pub name: &'a str }
        pub const EMPTY_HEADER: Header<'static> = Header { name: "" };
        pub struct Table<'h> { rows: &'h [Header<'static>], n: usize }
        impl<'h> Table<'h> {
            pub fn over(rows: &'h mut [Header<'static>]) -> Table<'h> { Table { rows, n: 0 } }
        }
        pub struct Owner { n: usize }
        impl Owner {
            pub fn new() -> Self { Owner { n: 0 } }
            pub fn first<'h>(&self, rows: &'h mut [Header<'static>]) -> Option<&'h Header<'static>> { rows.first() }
        }
    "#;
    let (_, text) = generate(&[("lib.rs", lib)], &[]);
    assert!(
        text.contains("first(ref self) as \"{self}.first(&mut [::demo::EMPTY_HEADER; 1024])\" => |r| { std::hint::black_box(r.first(&mut [::demo::EMPTY_HEADER; 1024])); };"),
        "{text}"
    );
}

/// A fallible build is taken once (`if let`), not looped over: a method of the built value
/// taking an owned argument moves it once (in a `for` loop the compiler rejected it, E0382,
/// on a crate's `try_from_slice_len(..)?.push(val)`).
#[test]
fn a_fallibly_built_borrower_moves_its_methods_owned_arguments_once() {
    let lib = r#"
        pub struct Names<'a> { b: &'a [u8], names: Vec<String> }
        impl<'a> Names<'a> {
            pub fn try_new(b: &'a [u8]) -> Option<Names<'a>> { Some(Names { b, names: Vec::new() }) }
            pub fn push(&mut self, name: String) { self.names.push(name) }
        }
    "#;
    let (_, text) = generate(&[("lib.rs", lib)], &[]);
    let line = text
        .lines()
        .map(str::trim)
        .find(|l| l.starts_with("try_new_push("))
        .unwrap_or_else(|| panic!("no try_new_push: {text}"));
    assert!(
        line.contains("=> |_namespace| { if let Some(mut b_) = demo::Names::try_new(b.as_bytes()).into_iter().next() { std::hint::black_box(b_.push(name)); } };"),
        "{line}"
    );
}

/// A borrower's method taking a second value of its own type (`append(&mut self, other:
/// &mut Self)`) is skipped saying so: no program holds one (its parameter was written with
/// an empty type, and the harness did not parse).
#[test]
fn a_borrowers_method_taking_another_of_its_type_is_skipped_saying_why() {
    let lib = r#"
        pub struct Sv<'s> { data: &'s mut [u64], len: usize }
        impl<'s> Sv<'s> {
            pub fn from_slice_len(data: &'s mut [u64], len: usize) -> Self { Sv { data, len } }
            pub fn append(&mut self, other: &mut Self) { }
            pub fn len(&self) -> usize { self.len }
        }
    "#;
    let (_, text) = generate(&[("lib.rs", lib)], &[]);
    assert!(text.contains("from_slice_len_len("), "{text}");
    assert!(!text.contains("from_slice_len_append("), "{text}");
    assert!(
        text.contains("a second `Sv` (it does not register, so no program holds one)"),
        "{text}"
    );
}
