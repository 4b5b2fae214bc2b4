//! `perfsyn init` through the real binary on a crate whose types are named like the
//! harness's own types and helpers (`Key`, `FixedState`, `Registry`) and like std's
//! (`String`, `Vec`): the generated harness names each by absolute path, so it compiles,
//! and a program on each type runs (heapless 0.8.0 failed with E0428 when the harness
//! imported its `String` beside the harness's `string()`).

use std::path::Path;

mod common;
use common::{perfsyn_in, text};

fn names_crate(dir: &Path) {
    std::fs::create_dir_all(dir.join("src")).unwrap();
    std::fs::write(
        dir.join("Cargo.toml"),
        "[package]\nname = \"names-crate\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("src/lib.rs"),
        r#"
/// Text of its own, named like std's `String`.
pub struct String { bytes: std::vec::Vec<u8> }
impl String {
    pub fn new() -> Self { String { bytes: std::vec::Vec::new() } }
    /// Appends the text. O(n) in its length.
    pub fn push_text(&mut self, s: &str) { self.bytes.extend_from_slice(s.as_bytes()) }
    pub fn push_all(&mut self, v: std::vec::Vec<u8>) { self.bytes.extend(v) }
    pub fn len(&self) -> usize { self.bytes.len() }
}
/// A list named like std's `Vec`.
pub struct Vec { items: std::vec::Vec<u64> }
impl Vec {
    pub fn new() -> Self { Vec { items: std::vec::Vec::new() } }
    /// O(1).
    pub fn push(&mut self, x: u64) { self.items.push(x) }
    pub fn extend_from(&mut self, xs: &[u64]) { self.items.extend_from_slice(xs) }
    pub fn names(&mut self, names: std::vec::Vec<std::string::String>) { self.items.push(names.len() as u64) }
    pub fn len(&self) -> usize { self.items.len() }
}
/// Named like the harness's probe key.
pub struct Key { id: u64 }
impl Key {
    pub fn new(id: u64) -> Self { Key { id } }
    pub fn id(&self) -> u64 { self.id }
    pub fn merge(&mut self, other: &Key) { self.id ^= other.id }
}
/// Named like the harness's registry.
pub struct Registry { keys: std::vec::Vec<u64> }
impl Registry {
    pub fn new() -> Self { Registry { keys: std::vec::Vec::new() } }
    pub fn add(&mut self, key: Key, name: std::string::String) { self.keys.push(key.id ^ name.len() as u64) }
    pub fn len(&self) -> usize { self.keys.len() }
}
/// Named like the harness's hasher.
pub struct FixedState;
impl FixedState {
    pub fn new() -> Self { FixedState }
    pub fn hash_one(&self, x: u64) -> u64 { x.rotate_left(5) }
}
"#,
    )
    .unwrap();
}

#[test]
fn crate_types_named_like_harness_and_std_types_register_and_run() {
    let _worker = common::one_crate_worker_at_a_time();
    let tmp = tempfile::tempdir().unwrap();
    let krate = tmp.path().join("names-crate");
    names_crate(&krate);
    let init = perfsyn_in(&krate, &["init"]);
    let out = text(&init);
    assert!(init.status.success(), "{out}");
    // A line per phase, then the summary in sentences.
    for phase in [
        "reading ",
        "generating ",
        "building the instrumented worker",
        "9 methods registered of 9 public ones",
    ] {
        assert!(out.contains(phase), "{phase}: {out}");
    }
    let lib = std::fs::read_to_string(krate.join("perfsyn/src/lib.rs")).unwrap();
    // Written by path, never imported: the harness's `Vec`, `String` and `Key` stay its own.
    assert!(
        lib.contains("pub fn vec() -> ::names_crate::Vec {"),
        "{lib}"
    );
    assert!(lib.contains("name: \"names_crate::Key\","), "{lib}");
    assert!(!lib.contains("use ::names_crate::String;"), "{lib}");
    assert!(lib.contains("use ::names_crate::Registry;"), "{lib}");
    assert!(
        lib.contains("add(mut self, key: val ::names_crate::Key, name: val String)"),
        "{lib}"
    );
    assert!(!out.contains("rejected"), "{out}");
    // A program runs on each type, its registry name the crate's path.
    for spec in [
        "Vec::names",
        "Key::merge",
        "Registry::add",
        "FixedState::hash_one",
    ] {
        let run = perfsyn_in(
            &krate,
            &[
                "explore",
                "--method",
                spec,
                "--max-programs",
                "10",
                "--seed",
                "1",
                "--confirm-top",
                "0",
                // No repeated-traversal or repeated-computation check: they change no verdict,
                // ran the best program again on the trace build, and nothing here reads them.
                "--no-repeated-traversals",
                "--no-repeated-computations",
            ],
        );
        assert!(run.status.success(), "{spec}: {}", text(&run));
    }
}
