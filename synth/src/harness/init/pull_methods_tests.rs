//! Pull parsers: a reader generic over `R: BufRead`, built from a program's text, whose
//! `&mut self` method hands out one event per call; the events' variants' methods are
//! reached through the pulls.

use super::tests::generate;

/// A reader whose `read_event` answers its end item (`Eof`) again and again, as pull
/// parsers do, and whose events borrow the text.
const PULL: &str = r#"
    use std::io::BufRead;
    pub struct BytesStart<'a> { n: &'a str }
    impl<'a> BytesStart<'a> {
        pub fn name(&self) -> &'a str { self.n }
        pub fn attribute<N: AsRef<[u8]>>(&self, n: N) -> usize { n.as_ref().len() }
    }
    pub enum Event<'a> { Start(BytesStart<'a>), Eof }
    impl<'a> Event<'a> {
        pub fn into_owned(self) -> Event<'static> { Event::Eof }
    }
    pub struct Reader<R> { r: R }
    impl<'a> Reader<&'a [u8]> {
        pub fn from_str(s: &'a str) -> Self { Reader { r: s.as_bytes() } }
        pub fn read_event(&mut self) -> Result<Event<'a>, String> { Ok(Event::Eof) }
    }
    impl<R: BufRead> Reader<R> {
        pub fn buffer_position(&self) -> usize { 0 }
        pub fn read_event_into<'b>(&mut self, buf: &'b mut Vec<u8>) -> Result<Event<'b>, String> {
            Ok(Event::Eof)
        }
    }
"#;

#[test]
fn a_reader_over_a_bufread_parameter_is_built_from_a_string() {
    let (_, text) = generate(&[("lib.rs", PULL)], &[]);
    assert!(!text.contains("skipped: Reader:"), "{text}");
    assert!(
        text.contains("demo::Reader::from_str(s).buffer_position()"),
        "{text}"
    );
}

#[test]
fn a_pull_method_is_called_until_it_hands_out_nothing_at_most_once_per_byte_plus_one() {
    let (_, text) = generate(&[("lib.rs", PULL)], &[]);
    assert!(
        text.contains(r#"from_str_read_event(ref self, s: str String) as "{ let pulled = &mut demo::Reader::from_str(&{s}); for _ in 0..=(&{s}).len() { let Some(mut item) = pulled.read_event().into_iter().next() else { break }; std::hint::black_box(item); } }""#),
        "{text}"
    );
}

#[test]
fn the_methods_of_what_a_pulled_events_variants_hold_are_reached_by_the_shortest_route() {
    let (_, text) = generate(&[("lib.rs", PULL)], &[]);
    assert!(
        text.contains("let Some(mut item) = pulled.read_event().into_iter().next() else { break }; std::hint::black_box(if let demo::Event::Start(mut b) = item { std::hint::black_box(b.name()); }); } }); };"),
        "{text}"
    );
}

#[test]
fn a_pull_methods_buffer_is_a_fresh_vector_each_pull_not_a_program_value() {
    let (_, text) = generate(&[("lib.rs", PULL)], &[]);
    assert!(
        text.contains(r#"from_str_read_event_into(ref self, s: str String) as "{ let pulled = &mut demo::Reader::from_str(&{s}); for _ in 0..=(&{s}).len() { let mut pull_buffer = Vec::new(); let Some(mut item) = pulled.read_event_into(&mut pull_buffer).into_iter().next() else { break }; std::hint::black_box(item); } }""#),
        "{text}"
    );
}

#[test]
fn a_value_taken_by_value_past_a_pull_is_cloned_for_each_item() {
    let (_, text) = generate(&[("lib.rs", PULL)], &[]);
    assert!(
        text.contains("std::hint::black_box(if let demo::Event::Start(mut b) = item { std::hint::black_box(b.attribute(n.clone())); });"),
        "{text}"
    );
}
