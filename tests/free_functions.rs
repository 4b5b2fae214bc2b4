//! A crate's free functions through the real binary: `perfsyn init` registers them on a
//! namespace per module, `explore` names them as users write them (`count_pairs`,
//! `crate::count_pairs`, `mycrate::stats::mean`) and finds the planted O(n^2) behind a
//! documented O(n), and the exported test calls the function by path, its result through
//! `black_box` (else a small pure function is inlined and removed, and the test times
//! nothing). A method of the crate's trait implemented for `str` is a function of the trait's
//! namespace, called through `str` by path.

use std::path::Path;

mod common;
use common::{perfsyn_in, text};

fn free_crate(dir: &Path) {
    std::fs::create_dir_all(dir.join("src")).unwrap();
    std::fs::write(
        dir.join("Cargo.toml"),
        "[package]\nname = \"free-fns\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("src/lib.rs"),
        "/// Counts the pairs of equal values. Runs in O(n) time.\n\
         pub fn count_pairs(v: &[u64]) -> usize {\n\
             let mut c = 0;\n\
             for a in v { for b in v { if a == b { c += 1; } } }\n\
             c\n\
         }\n\
         pub fn takes_pointer(_p: *const u8) {}\n\
         /// The n-th Fibonacci number. Runs in O(n) time.\n\
         pub fn fib(n: u64) -> u64 {\n\
             if n < 2 { n } else { fib(n - 1).wrapping_add(fib(n - 2)) }\n\
         }\n\
         pub mod stats {\n\
             /// The mean. O(n).\n\
             pub fn mean(v: &[u64]) -> u64 { v.iter().sum::<u64>() / (v.len() as u64).max(1) }\n\
         }\n\
         pub trait Shout {\n\
             /// The text in capitals. Runs in O(n) time.\n\
             fn shout(&self) -> String;\n\
         }\n\
         impl Shout for str {\n\
             fn shout(&self) -> String {\n\
                 let mut out = String::new();\n\
                 for c in self.chars() { out = format!(\"{out}{}\", c.to_ascii_uppercase()); }\n\
                 out\n\
             }\n\
         }\n",
    )
    .unwrap();
}

/// `explore --method spec` in `krate`, seed 1, `programs` programs, no timing, and no
/// repeated-traversal or repeated-computation check: they change no verdict, and each built
/// the crate's trace worker, which nothing here reads (`tests/repeated_traversals.rs` and
/// `tests/init_rejected.rs` build user crates' trace workers).
fn explore_seed_1(krate: &Path, spec: &str, programs: &str) -> std::process::Output {
    perfsyn_in(
        krate,
        &[
            "explore",
            "--method",
            spec,
            "--max-programs",
            programs,
            "--seed",
            "1",
            "--confirm-top",
            "0",
            "--no-repeated-traversals",
            "--no-repeated-computations",
        ],
    )
}

#[test]
fn free_functions_are_explored_by_path_and_exported_as_path_calls() {
    let _worker = common::one_crate_worker_at_a_time();
    let tmp = tempfile::tempdir().unwrap();
    let krate = tmp.path().join("free-fns");
    free_crate(&krate);
    let init = perfsyn_in(&krate, &["init"]);
    let out = text(&init);
    assert!(init.status.success(), "{out}");
    assert!(out.contains("3 of the methods are free functions"), "{out}");
    assert!(
        out.contains("1 of the methods are the crate's traits' methods on strings"),
        "{out}"
    );

    for spec in ["crate::takes_pointer", "free_fns::takes_pointer"] {
        let o = perfsyn_in(&krate, &["explore", "--method", spec]);
        assert!(!o.status.success());
        assert!(
            text(&o).contains("was not registered by `perfsyn init`"),
            "{spec}: {}",
            text(&o)
        );
    }

    let explore = explore_seed_1(&krate, "count_pairs", "300");
    let out = text(&explore);
    assert!(explore.status.success(), "{out}");
    assert!(
        out.contains("crate::count_pairs: bottleneck (cost grows as O(n^2), documented O(n))"),
        "{out}"
    );
    assert!(out.contains("free_fns::count_pairs(&vec"), "{out}");
    assert!(!out.contains("= ();"), "the namespace was printed: {out}");

    let run = krate.join("target/perfsyn/runs/crate__count_pairs-1.json");
    let export = perfsyn_in(
        &krate,
        &["export", "--format", "test", run.to_str().unwrap()],
    );
    let test = text(&export);
    assert!(export.status.success(), "{test}");
    assert!(
        test.contains("std::hint::black_box(free_fns::count_pairs(&vec"),
        "{test}"
    );
    assert!(!test.contains("Subject"), "no alias to name: {test}");

    // The crate's trait on strings: a function of the trait's namespace, called through
    // `str` by path.
    let shout = explore_seed_1(&krate, "Shout::shout", "300");
    let out = text(&shout);
    assert!(
        out.contains("Shout::shout: bottleneck (cost grows as O(n^2), documented O(n))"),
        "{out}"
    );
    assert!(
        out.contains("<str as free_fns::Shout>::shout(&text"),
        "{out}"
    );

    // A module's function, named after the crate.
    let mean = explore_seed_1(&krate, "free_fns::stats::mean", "100");
    let out = text(&mean);
    assert!(out.contains("stats::mean: no-bottleneck"), "{out}");

    // Naive recursion documented O(n) grows as 1.618^n: exponential with a fitted base, on
    // the search's path (no loop to sweep), its hot lines counted on the path's programs.
    let fib = perfsyn_in(
        &krate,
        &[
            "explore",
            "--method",
            "fib",
            "--max-programs",
            "300",
            "--seed",
            "1",
            "--confirm-top",
            "0",
            "--no-repeated-traversals",
            "--no-repeated-computations",
            "--json",
        ],
    );
    let r: serde_json::Value =
        serde_json::from_slice(&fib.stdout).unwrap_or_else(|e| panic!("{e}: {}", text(&fib)));
    assert_eq!(r["verdict"], "bottleneck", "{r}");
    assert_eq!(r["empirical"], "O(2^n)", "{r}");
    assert_eq!(r["points_from"], "path", "{r}");
    let base = r["evidence"]["evidence"]["base"]
        .as_f64()
        .expect("a fitted base");
    assert!((base - 1.618).abs() < 0.05, "{base}");
    let top = &r["hot_lines"][0];
    let src = std::fs::read_to_string(krate.join("src/lib.rs")).unwrap();
    let fib_lines = src
        .lines()
        .position(|l| l.contains("pub fn fib"))
        .map(|i| (i as u64 + 1)..=(i as u64 + 3))
        .expect("fib in the fixture");
    assert_eq!(top["file"], "src/lib.rs", "{r}");
    assert!(
        top["line"].as_u64().is_some_and(|l| fib_lines.contains(&l)),
        "{top}"
    );
    assert_eq!(top["class"], "O(2^n)", "{top}");
}
