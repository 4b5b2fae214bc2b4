//! Mining on a fixture crate: which values come out of which test code, with which context,
//! and what a query for a parser's method draws.

use std::path::Path;

use super::collect::{crate_pairs, MinedValue, Pair};
use super::index::{MinedIndex, Retriever};
use super::words::bag;

fn write(root: &Path, rel: &str, text: &str) {
    let p = root.join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, text).unwrap();
}

/// A crate with a parser tested in `tests/`, a doc test, a `#[cfg(test)]` module, an example,
/// and library code whose literals are no test's.
fn fixture() -> tempfile::TempDir {
    let d = tempfile::tempdir().unwrap();
    write(
        d.path(),
        "src/lib.rs",
        r#"
/// Parses markup.
///
/// ```
/// let doc = markup::TagParser::parse("<!-- note -->");
/// assert_eq!(markup::count_tags(b"<a><b>"), 2);
/// ```
///
/// ```text
/// TagParser::parse("not code")
/// ```
pub struct TagParser;
impl TagParser {
    pub fn parse(s: &str) -> usize { helper("library literal"); s.len() }
}
fn helper(_: &str) {}
pub fn count_tags(b: &[u8]) -> usize { b.len() }

#[cfg(test)]
mod tests {
    #[test]
    fn nested() {
        let input = "((a))";
        assert_eq!(super::TagParser::parse(input), 5);
        let mut w = Vec::new();
        w.push('x');
        w.truncate(-3i64 as usize);
    }
}
"#,
    );
    write(
        d.path(),
        "tests/parse.rs",
        r#"
#[test]
fn comments() {
    let p = TagParser::new();
    p.feed("<a href=x>".to_string());
    assert!(TagParser::parse(&String::from("<!-- a -->")) > 0);
    TagParser::parse("<!-- a -->");
}
"#,
    );
    write(
        d.path(),
        "examples/demo.rs",
        "fn main() { let _ = markup::TagParser::parse(\"<p>hi</p>\"); }\n",
    );
    d
}

fn values_in(pairs: &[Pair], words: &[&str]) -> Vec<MinedValue> {
    let b = bag(words.iter().copied());
    pairs
        .iter()
        .filter(|p| p.context == b)
        .map(|p| p.value.clone())
        .collect()
}

fn s(x: &str) -> MinedValue {
    MinedValue::Str(x.into())
}

#[test]
fn mining_reads_tests_examples_doc_tests_and_test_modules_only() {
    let d = fixture();
    let pairs = crate_pairs(d.path());
    let mut parse = values_in(&pairs, &["TagParser", "parse"]);
    parse.sort();
    assert_eq!(
        parse,
        vec![s("((a))"), s("<!-- a -->"), s("<!-- a -->")],
        "`super::` is no word; {pairs:#?}"
    );
    let mut named = values_in(&pairs, &["markup", "TagParser", "parse"]);
    named.sort();
    assert_eq!(
        named,
        vec![s("<!-- note -->"), s("<p>hi</p>")],
        "a path's leading crate name is a word of the context like any other"
    );
    assert_eq!(values_in(&pairs, &["p", "feed"]), vec![s("<a href=x>")]);
    assert_eq!(
        values_in(&pairs, &["markup", "count_tags"]),
        vec![MinedValue::Bytes(b"<a><b>".to_vec())]
    );
    assert_eq!(
        values_in(&pairs, &["w", "push"]),
        vec![MinedValue::Char('x')]
    );
    let all: Vec<&MinedValue> = pairs.iter().map(|p| &p.value).collect();
    assert!(
        !all.contains(&&s("library literal")),
        "library code is no test"
    );
    assert!(
        !all.contains(&&s("not code")),
        "a text block is no doc test"
    );
}

#[test]
fn a_query_draws_the_values_of_similar_contexts_by_frequency() {
    let d = fixture();
    let index = Retriever::new(MinedIndex::build(&crate_pairs(d.path())));
    let got = index.query(&bag(["markup::TagParser", "TagParser", "parse"]), |v| {
        matches!(v, MinedValue::Str(_))
    });
    assert_eq!(got.first(), Some(&(s("<!-- a -->"), 2)), "{got:?}");
    assert!(got.contains(&(s("((a))"), 1)));
    assert!(
        !got.iter().any(|(v, _)| *v == s("<a href=x>")),
        "feed is another method"
    );
    let unrelated = index.query(&bag(["Vec<u64>", "dedup"]), |_| true);
    assert!(unrelated.is_empty(), "{unrelated:?}");
}

#[test]
fn a_literal_passed_through_a_test_helper_takes_the_context_its_parameter_reaches() {
    let d = tempfile::tempdir().unwrap();
    write(
        d.path(),
        "tests/common/mod.rs",
        r#"
pub fn check(input: &str, want: usize) {
    assert_eq!(Lexer::new(input).count(), want);
}
"#,
    );
    write(
        d.path(),
        "tests/helpers.rs",
        r#"
fn check_bytes(raw: &str) {
    check(raw, 0);
    Reader::from_bytes(raw.as_bytes()).read_all();
}
#[test]
fn tokens() {
    common::check("<?pi?>", 1);
    check_bytes("]]>");
}
"#,
    );
    let pairs = crate_pairs(d.path());
    let mut lexer = values_in(&pairs, &["Lexer", "new"]);
    lexer.sort();
    assert_eq!(lexer, vec![s("<?pi?>"), s("]]>")], "{pairs:#?}");
    assert_eq!(
        values_in(&pairs, &["Reader", "from_bytes"]),
        vec![s("]]>")],
        "{pairs:#?}"
    );
    // The call itself keeps its own context too.
    assert!(values_in(&pairs, &["common", "check"]).contains(&s("<?pi?>")));
}
