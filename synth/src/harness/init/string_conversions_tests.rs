//! Parameters converted from a string: `N: Into<T>` and `impl Into<T>` of a type the crate
//! builds from a `&str`, and `Option<&str>`.

use super::tests::generate;

const CONVERSIONS: &str = r#"
    pub struct Name<'a> { s: &'a str }
    impl<'a> From<&'a str> for Name<'a> {
        fn from(s: &'a str) -> Self { Name { s } }
    }
    pub struct Table { v: Vec<String> }
    impl Table {
        pub fn new() -> Self { Table { v: Vec::new() } }
        pub fn has<'n, N: Into<Name<'n>>>(&self, n: N) -> bool { n.into().s.is_empty() }
        pub fn find<'n>(&self, n: impl Into<Name<'n>>) -> usize { n.into().s.len() }
        pub fn lookup(&self, prefix: Option<&str>) -> usize { prefix.map_or(0, str::len) }
    }
"#;

#[test]
fn a_parameter_converted_into_a_type_built_from_a_str_gets_a_program_string() {
    let (_, text) = generate(&[("lib.rs", CONVERSIONS)], &[]);
    // Passed as `&str` (the registry's `str` mode): `From<&str>` is not `From<String>`.
    assert!(!text.contains("skipped: Table::has"), "{text}");
    assert!(!text.contains("skipped: Table::find"), "{text}");
    assert!(
        text.contains("has(ref self, n: str String) -> bool;"),
        "{text}"
    );
    assert!(
        text.contains("find(ref self, n: str String) -> usize;"),
        "{text}"
    );
}

#[test]
fn an_optional_str_parameter_gets_some_program_string() {
    let (_, text) = generate(&[("lib.rs", CONVERSIONS)], &[]);
    assert!(
        text.contains(r#"lookup(ref self, prefix: str String) -> usize as "{self}.lookup(Some(&{prefix}))" => |r| r.lookup(Some(prefix));"#),
        "{text}"
    );
}

const COW_AND_PATH: &str = r#"
    use std::borrow::Cow;
    use std::path::Path;
    pub fn escape<'a>(raw: impl Into<Cow<'a, str>>) -> Cow<'a, str> { raw.into() }
    pub struct Text { s: String }
    impl Text {
        pub fn new() -> Self { Text { s: String::new() } }
        pub fn from_escaped<'a, C: Into<std::borrow::Cow<'a, str>>>(c: C) -> Self {
            Text { s: c.into().into_owned() }
        }
        pub fn open<P: AsRef<Path>>(p: P) -> Self { Text { s: p.as_ref().display().to_string() } }
        pub fn len(&self) -> usize { self.s.len() }
    }
"#;

#[test]
fn a_parameter_converted_into_a_cow_of_str_gets_a_program_string() {
    let (_, text) = generate(&[("lib.rs", COW_AND_PATH)], &[]);
    assert!(!text.contains("skipped: crate::escape"), "{text}");
    assert!(!text.contains("skipped: Text::from_escaped"), "{text}");
    assert!(
        text.contains(r#"escape(ref self, raw: val String)"#),
        "{text}"
    );
    assert!(text.contains(r#"from_escaped(c: val String)"#), "{text}");
}

#[test]
fn a_path_parameter_stays_skipped_saying_it_names_a_file() {
    let (_, text) = generate(&[("lib.rs", COW_AND_PATH)], &[]);
    assert!(
        text.contains("skipped: Text::open: generic parameter P: AsRef<Path> names a file"),
        "{text}"
    );
}
