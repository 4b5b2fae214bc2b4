//! `perfsyn init` through the real binary on a crate where one bad item must not fail the
//! whole init: registrations the compiler rejects are skipped with the compiler's own words
//! for them (the error code, what is not satisfied, at which item), and `explore --method`
//! on one prints them; a dependency that is also a shared library (`crate-type = ["cdylib",
//! "rlib"]`) links into the instrumented and the trace worker; and a crate that itself stops compiling is
//! reported with the compiler's first error, not the command line, and left as init found it
//! (a harness that fails for a reason of its own stays, see `harness/init/mod.rs`).

use std::path::Path;

mod common;
use common::{perfsyn_in, text};

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// A crate with two methods whose bounds hold for no value the harness builds, and a path
/// dependency that is also a shared library exporting a static's address (position-
/// dependent code cannot be linked into it).
fn rejecting_crate(root: &Path) -> std::path::PathBuf {
    write(
        &root.join("dep/Cargo.toml"),
        "[package]\nname = \"shared-dep\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[lib]\ncrate-type = [\"cdylib\", \"rlib\"]\n",
    );
    write(
        &root.join("dep/src/lib.rs"),
        "pub static TABLE: [u64; 4] = [1, 2, 3, 4];\n\
         pub fn weight(x: u64) -> u64 { TABLE[(x % 4) as usize] * x }\n\
         #[no_mangle]\n\
         pub extern \"C\" fn shared_dep_table_addr() -> usize { std::hint::black_box(&TABLE) as *const _ as usize }\n",
    );
    let krate = root.join("rejecting");
    write(
        &krate.join("Cargo.toml"),
        "[package]\nname = \"rejecting\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[dependencies]\nshared-dep = { path = \"../dep\" }\n",
    );
    write(
        &krate.join("src/lib.rs"),
        r#"
pub struct Bag<T> { v: Vec<T> }
impl<T> Bag<T> {
    pub fn new() -> Self { Bag { v: Vec::new() } }
    /// O(1).
    pub fn push(&mut self, x: T) { self.v.push(x) }
    pub fn len(&self) -> usize { self.v.len() }
}
impl<T: Clone> Bag<T> {
    pub fn extend_copies(&mut self, xs: &[T]) where T: Copy { self.v.extend_from_slice(xs) }
}
pub struct Weights { w: Vec<u64> }
impl Weights {
    pub fn new() -> Self { Weights { w: Vec::new() } }
    pub fn add(&mut self, x: u64) { self.w.push(shared_dep::weight(x)) }
    pub fn len(&self) -> usize { self.w.len() }
    pub fn has(&self, x: u64) -> bool {
        for &y in self.w.iter() { if y == x { return true; } }
        false
    }
}
pub fn count_digits(text: &str) -> usize {
    text.bytes().filter(|b| b.is_ascii_digit()).count()
}
"#,
    );
    krate
}

/// `explore --method METHOD --json` with a fixed seed and a small program budget, no timing.
fn short_explore(krate: &Path, method: &str) -> std::process::Output {
    perfsyn_in(
        krate,
        &[
            "explore",
            "--method",
            method,
            "--json",
            "--seed",
            "1",
            "--max-programs",
            "60",
            "--confirm-top",
            "0",
        ],
    )
}

#[test]
fn rejected_registrations_are_skipped_in_the_compilers_words_and_a_broken_crate_is_told_in_them() {
    let _worker = common::one_crate_worker_at_a_time();
    let tmp = tempfile::tempdir().unwrap();
    let krate = rejecting_crate(tmp.path());
    let init = perfsyn_in(&krate, &["init"]);
    let out = text(&init);
    // Links with the shared-library dependency, and only the rejected item is dropped.
    assert!(init.status.success(), "{out}");
    assert!(
        out.contains("1 registrations the compiler rejected"),
        "{out}"
    );
    assert!(
        out.contains("repairing: the compiler rejected 1 registrations (Bag::extend_copies)"),
        "{out}"
    );
    assert!(
        out.contains("the most common reasons: 1 rejected by the compiler."),
        "{out}"
    );
    let skipped = std::fs::read_to_string(krate.join("perfsyn/skipped.json")).unwrap();
    assert!(
        skipped.contains("error[E0277]: the trait bound `Key: std::marker::Copy` is not satisfied; at `extend_copies`: the trait `std::marker::Copy` is not implemented for `Key`"),
        "{skipped}"
    );
    let explore = perfsyn_in(&krate, &["explore", "--method", "Bag::extend_copies"]);
    let said = text(&explore);
    assert!(!explore.status.success(), "{said}");
    assert!(
        said.contains("at `extend_copies`: the trait `std::marker::Copy` is not implemented"),
        "{said}"
    );
    // The trace build links with the shared library too (position-independent, its
    // addresses made link-time by the runtime): a scan per call is read at its own line.
    let traced = short_explore(&krate, "Weights::has");
    let said = text(&traced);
    assert!(traced.status.success(), "{said}");
    let r: serde_json::Value = serde_json::from_slice(&traced.stdout).expect("explore's JSON");
    assert!(
        r["repeated_traversals_skipped"].is_null(),
        "the trace build failed: {}",
        r["repeated_traversals_skipped"]
    );
    let read = r["repeated_traversals"][0]["read"]
        .as_str()
        .unwrap_or_else(|| panic!("the scan per call is not reported: {r}"));
    let line: usize = read.rsplit(':').next().unwrap().parse().unwrap();
    assert!(read.starts_with("src/lib.rs:"), "{read}");
    let source = std::fs::read_to_string(krate.join("src/lib.rs")).unwrap();
    assert!(
        source.lines().nth(line - 1).unwrap().contains("if y == x"),
        "{read} is `{}`",
        source.lines().nth(line - 1).unwrap()
    );
    // A function without a receiver reads its argument again on every call by contract: no
    // traversal across its calls is reported (a parser called in a row on one text).
    let free = short_explore(&krate, "count_digits");
    let said = text(&free);
    assert!(free.status.success(), "{said}");
    let r: serde_json::Value = serde_json::from_slice(&free.stdout).expect("explore's JSON");
    assert!(r["repeated_traversals_skipped"].is_null(), "{r}");
    let across: Vec<&serde_json::Value> = r["repeated_traversals"]
        .as_array()
        .expect("repeated traversals judged")
        .iter()
        .filter(|f| f["loop_at"].is_null())
        .collect();
    assert!(across.is_empty(), "{across:?}");
    // The crate itself stops compiling: the error is the compiler's, and the crate is left
    // as init found it (the fix is in the crate's code, which the message points at).
    let lib = krate.join("src/lib.rs");
    let broken = std::fs::read_to_string(&lib)
        .unwrap()
        .replace("self.w.len()", "self.w.len() + \"1\"");
    std::fs::write(&lib, broken).unwrap();
    std::fs::remove_dir_all(krate.join("perfsyn")).unwrap();
    let again = perfsyn_in(&krate, &["init"]);
    let said = text(&again);
    assert!(!again.status.success(), "{said}");
    assert!(said.contains("error[E0277]"), "{said}");
    assert!(!said.contains("command:"), "{said}");
    assert!(said.contains("not kept: it was removed"), "{said}");
    assert!(!krate.join("perfsyn").exists(), "{said}");
}
