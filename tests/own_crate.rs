//! "Explore your own crate" end to end, through the real binary: `perfsyn init` on a copy of
//! examples/own-crate writes and builds a harness, and `perfsyn explore` finds the planted
//! O(n) behind a documented O(1) (a type without `len()`, sized by its mutating calls) and
//! writes the run file under the copy's own target/perfsyn.

use std::path::{Path, PathBuf};

mod common;
use common::{perfsyn_in, text};

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let dst = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            if e.file_name() != "target" && e.file_name() != "perfsyn" {
                copy_dir(&e.path(), &dst);
            }
        } else {
            std::fs::copy(e.path(), dst).unwrap();
        }
    }
}

#[test]
fn init_then_explore_finds_the_documented_o1_that_is_o_n_in_a_copy_of_the_example() {
    let _worker = common::one_crate_worker_at_a_time();
    let tmp = tempfile::tempdir().unwrap();
    let krate: PathBuf = tmp.path().join("own-crate");
    copy_dir(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/own-crate"),
        &krate,
    );
    let init = perfsyn_in(&krate, &["init"]);
    let out = text(&init);
    assert!(init.status.success(), "{out}");
    assert!(out.contains("3 types"), "{out}");
    assert!(out.contains("9 methods registered"), "{out}");
    let generated = std::fs::read_to_string(krate.join("perfsyn/src/lib.rs")).unwrap();
    assert!(
        generated.contains("total(ref self) -> u64 [\"O(1)\"];"),
        "{generated}"
    );

    // A second init does not overwrite the harness silently.
    let again = perfsyn_in(&krate, &["init"]);
    assert!(!again.status.success());
    assert!(text(&again).contains("--force"), "{}", text(&again));

    let explore = perfsyn_in(
        &krate,
        &[
            "explore",
            "--method",
            "Tally::total",
            "--max-programs",
            "100",
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
    let out = text(&explore);
    assert!(explore.status.success(), "{out}");
    assert!(
        out.contains("Tally::total: bottleneck (cost grows as O(n), documented O(1))"),
        "{out}"
    );
    let run = krate.join("target/perfsyn/runs/Tally__total-1.json");
    assert!(run.is_file(), "no run file at {}: {out}", run.display());
}

#[test]
fn a_directory_without_a_crate_is_refused_in_one_line() {
    let tmp = tempfile::tempdir().unwrap();
    let o = perfsyn_in(tmp.path(), &["init"]);
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("is not a crate"), "{err}");
}

/// A crate with a public type and a compile error in a function body: it parses (init's scan
/// accepts it) and fails only when the harness is built.
fn broken_crate(dir: &Path) {
    std::fs::create_dir_all(dir.join("src")).unwrap();
    std::fs::write(
        dir.join("Cargo.toml"),
        "[package]\nname = \"broken-init\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("src/lib.rs"),
        "pub struct Bag { items: Vec<u64> }\n\
         impl Bag {\n\
             pub fn new() -> Self { Bag { items: Vec::new() } }\n\
             pub fn add(&mut self, x: u64) { self.items.push(x) }\n\
             pub fn total(&self) -> u64 { \"not a number\" }\n\
         }\n",
    )
    .unwrap();
}

#[test]
fn an_init_that_fails_to_build_leaves_the_crate_as_it_found_it() {
    let _worker = common::one_crate_worker_at_a_time();
    let tmp = tempfile::tempdir().unwrap();
    let krate = tmp.path().join("broken");
    broken_crate(&krate);
    let o = perfsyn_in(&krate, &["init"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    let err = String::from_utf8_lossy(&o.stderr);
    let errors: Vec<&str> = err.lines().filter(|l| l.starts_with("error:")).collect();
    assert_eq!(errors.len(), 1, "{err}");
    assert!(errors[0].contains("not kept: it was removed"), "{err}");
    assert!(!krate.join("perfsyn").exists(), "perfsyn/ left behind");

    // A harness directory that was there before keeps what it held.
    let harness = krate.join("perfsyn");
    std::fs::create_dir_all(&harness).unwrap();
    std::fs::write(harness.join("Cargo.toml"), "# mine\n").unwrap();
    std::fs::write(harness.join("notes.txt"), "keep me\n").unwrap();
    let o = perfsyn_in(&krate, &["init", "--force"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("put back as they were"), "{}", text(&o));
    let read = |f: &str| std::fs::read_to_string(harness.join(f)).unwrap();
    assert_eq!(read("Cargo.toml"), "# mine\n");
    assert_eq!(read("notes.txt"), "keep me\n");
    assert!(!harness.join("src").exists(), "src/ left behind");
    assert!(
        !harness.join(".gitignore").exists(),
        ".gitignore left behind"
    );
}

#[test]
fn an_uninstrumented_worker_is_refused_with_how_to_get_one() {
    let tmp = tempfile::tempdir().unwrap();
    // Any ELF binary without sanitizer-coverage guards: this test binary itself.
    let me = std::env::current_exe().unwrap();
    let o = perfsyn_in(tmp.path(), &["list", "--worker", me.to_str().unwrap()]);
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("not instrumented") && err.contains("omit --worker"),
        "{err}"
    );
}
