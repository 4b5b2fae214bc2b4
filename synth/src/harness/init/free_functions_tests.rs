//! Free functions: registered as the methods of one namespace per module, called by their
//! public path (a re-export's included), and found under the names users write when skipped.

use super::tests::{generate, skipped_file};

/// A crate's public free functions register as the methods of one namespace per module
/// (`crate`, `util`), called by path; one the model cannot call is listed as skipped,
/// with why, and `explore` finds the reason under the names a user would type. A private
/// module's functions are not registered, and a method of the same name stays the type's.
#[test]
fn free_functions_register_on_a_namespace_per_module() {
    let lib = r#"
        /// Counts equal pairs. Runs in O(n) time.
        pub fn count_pairs(v: &[u64]) -> usize { v.len() }
        pub fn total(b: &Bag) -> usize { 0 }
        pub fn takes_pointer(p: *const u8) {}
        pub mod util { pub fn helper(x: u64) -> u64 { x } }
        pub mod raw { pub fn only(p: *const u8) {} }
        mod hidden { pub fn secret() {} }
        pub struct Bag { v: Vec<u64> }
        impl Bag {
            pub fn new() -> Bag { Bag { v: Vec::new() } }
            pub fn count_pairs(&self) -> usize { 0 }
        }
    "#;
    let (m, text) = generate(&[("lib.rs", lib)], &[]);
    let paths: Vec<&str> = m.types.iter().map(|t| t.path.as_str()).collect();
    assert_eq!(paths, ["Bag", "crate", "util"], "{text}");
    assert!(
        text.contains(r#"count_pairs(ref self, v: slice u64) -> usize ["O(n)"] as "demo::count_pairs(&{v})" => |_namespace| demo::count_pairs(v);"#)
            && text.contains(r#"total(ref self, b: ref Bag) -> usize as "demo::total(&{b})" => |_namespace| demo::total(b);"#)
            && text.contains(r#"helper(ref self, x: copy u64) -> u64 as "demo::util::helper({x})" => |_namespace| demo::util::helper(x);"#)
            && text.contains(r#"name: "crate","#)
            && text.contains(r#"new() as "" => ();"#)
            && !text.contains("secret"),
        "{text}"
    );
    for spec in [
        "crate::takes_pointer",
        "takes_pointer",
        "demo::takes_pointer",
        "raw::only",
        "demo::raw::only",
    ] {
        let why = super::skipped_reason_in(&skipped_file(&m), spec).unwrap_or_default();
        assert!(why.contains("was not registered"), "{spec}: {why:?}");
    }
    for spec in [
        "Bag::count_pairs",
        "other::takes_pointer",
        "only",
        "hidden::secret",
    ] {
        assert_eq!(
            super::skipped_reason_in(&skipped_file(&m), spec),
            None,
            "{spec}"
        );
    }
}

/// A function of a private module re-exported by `pub use` (textwrap's `fill`) is named
/// and called by its public path, an alias (`as`) and a glob included; one never
/// re-exported is not registered.
#[test]
fn re_exported_free_functions_register_under_their_public_path() {
    let lib = "mod inner;\nmod globbed;\npub use inner::{helper as renamed, other};\npub use globbed::*;\n";
    let inner = "pub fn helper(x: u64) -> u64 { x }\npub fn other(x: u64) -> u64 { x }\npub fn hidden(x: u64) -> u64 { x }\n";
    let globbed = "pub fn star(x: u64) -> u64 { x }\n";
    let (m, text) = generate(
        &[
            ("lib.rs", lib),
            ("inner.rs", inner),
            ("globbed.rs", globbed),
        ],
        &[],
    );
    let ns = m.types.iter().find(|t| t.path == "crate").expect(&text);
    let mut names: Vec<&str> = ns.methods.iter().map(|f| f.name.as_str()).collect();
    names.sort();
    assert_eq!(names, ["other", "renamed", "star"], "{text}");
    assert!(
        text.contains(r#"renamed(ref self, x: copy u64) -> u64 as "demo::renamed({x})" => |_namespace| demo::renamed(x);"#),
        "{text}"
    );
}
