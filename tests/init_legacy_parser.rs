//! `perfsyn init` through the real binary on an edition-2018 parser crate: its `Parser<'a>`
//! borrows its input and holds a bare closure-trait object (`&'a Fn(&str) -> usize`, which
//! syn refuses without `dyn`: `harness/legacy_syntax.rs`), and its tests pass their inputs
//! through a helper in another test file (`check("<a><b>", 2)`), so the value is mined in the
//! context of the call the helper makes (`Parser::new`), not of `check`
//! (`harness/mine/collect.rs`).

use std::path::Path;

mod common;
use common::{perfsyn_in, text};

fn legacy_crate(dir: &Path) {
    std::fs::create_dir_all(dir.join("src")).unwrap();
    std::fs::create_dir_all(dir.join("tests/common")).unwrap();
    std::fs::write(
        dir.join("Cargo.toml"),
        "[package]\nname = \"legacy-parser\"\nversion = \"0.1.0\"\nedition = \"2018\"\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("src/lib.rs"),
        r#"#![allow(bare_trait_objects)]
/// Splits markup at its tags.
pub struct Parser<'a> {
    text: &'a str,
    pos: usize,
    on_tag: Option<&'a Fn(&str) -> usize>,
}

impl<'a> Parser<'a> {
    /// A parser over `text`.
    pub fn new(text: &'a str) -> Parser<'a> {
        Parser { text, pos: 0, on_tag: None }
    }
}

impl<'a> Iterator for Parser<'a> {
    type Item = &'a str;
    fn next(&mut self) -> Option<&'a str> {
        let rest = &self.text[self.pos..];
        let start = rest.find('<')?;
        let end = rest[start..].find('>').map_or(rest.len(), |e| start + e + 1);
        self.pos += end;
        if let Some(f) = self.on_tag {
            f(&rest[start..end]);
        }
        Some(&rest[start..end])
    }
}
"#,
    )
    .unwrap();
    std::fs::write(
        dir.join("tests/common/mod.rs"),
        "pub fn check(input: &str, want: usize) {\n    assert_eq!(legacy_parser::Parser::new(input).count(), want);\n}\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("tests/tags.rs"),
        "mod common;\n#[test]\nfn tags() {\n    common::check(\"<a><b>\", 2);\n}\n",
    )
    .unwrap();
}

#[test]
fn a_2018_parser_with_a_bare_closure_object_registers_and_draws_its_tests_helper_values() {
    let _worker = common::one_crate_worker_at_a_time();
    let tmp = tempfile::tempdir().unwrap();
    let krate = tmp.path().join("legacy-parser");
    legacy_crate(&krate);
    let init = perfsyn_in(&krate, &["init"]);
    let out = text(&init);
    assert!(init.status.success(), "{out}");
    let mined = std::fs::read_to_string(krate.join("perfsyn/mined.json")).unwrap();
    assert!(mined.contains("<a><b>"), "{mined}");
    let list = perfsyn_in(&krate, &["list"]);
    let listed = text(&list);
    assert!(list.status.success(), "{listed}");
    let row = listed
        .lines()
        .find(|l| l.starts_with("Parser::new "))
        .unwrap_or_else(|| panic!("the borrowing parser registers: {listed}"));
    let cols: Vec<&str> = row.split_whitespace().collect();
    assert_eq!(cols[4], "1", "its text draws the helper's value: {listed}");
}
