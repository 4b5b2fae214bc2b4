//! `perfsyn export --format gungraun` end to end, on a relative suite case whose plain
//! regression test `export --format test` refuses (its versions differ in coverage edges
//! only, closer than a time ratio needs): the export goes `--into` a scratch crate, which
//! gets the benchmark and the manifest lines, and the file is checked structurally (gungraun's
//! macros, the `Ir` soft limit within the finding's excess, the calls under test counted
//! alone). Where `gungraun-runner` (of the library's version) and valgrind are on PATH, the
//! benchmark also runs for real: a baseline saved with `Subject` pointed at the fixed version,
//! then the bug must fail the limit (gungraun's exit code 3) and the fix must pass it.
//! Elsewhere that part prints why it was skipped.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

mod common;
use common::perfsyn;

/// A version group whose plain test is refused: its versions differ by 1.8x in coverage
/// edges only (the program has no loop).
const METHOD: &str = "ArrayUtils::is_not_empty";

/// The bench's name as `export --into` gives it.
const BENCH: &str = "perfsyn_array_utils_is_not_empty_gungraun";

fn text(out: &Output) -> String {
    format!(
        "{}\n{}",
        String::from_utf8_lossy(&out.stderr),
        String::from_utf8_lossy(&out.stdout)
    )
}

/// The value of `const NAME: f64 = V;` in `source`.
fn const_f64(source: &str, name: &str) -> f64 {
    let prefix = format!("const {name}: f64 = ");
    source
        .lines()
        .find_map(|l| l.strip_prefix(&prefix))
        .and_then(|v| v.strip_suffix(';'))
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("no {name} in:\n{source}"))
}

/// Why the real run cannot happen here, if it cannot: the runner of the library's version
/// and valgrind must be on PATH.
fn why_no_runner(version: &str) -> Option<String> {
    let runner = Command::new("gungraun-runner").arg("--version").output();
    match runner {
        Err(_) => {
            return Some(format!(
                "gungraun-runner is not on PATH (cargo install gungraun-runner --version {version})"
            ))
        }
        Ok(o) if !String::from_utf8_lossy(&o.stdout).contains(version) => {
            return Some(format!(
                "gungraun-runner is not version {version}: {}",
                String::from_utf8_lossy(&o.stdout).trim()
            ))
        }
        Ok(_) => {}
    }
    match Command::new("valgrind").arg("--version").output() {
        Ok(o) if o.status.success() => None,
        _ => Some("valgrind is not on PATH".into()),
    }
}

/// `cargo bench --bench BENCH -- ARGS` in the scratch crate.
fn bench(dir: &Path, args: &[&str]) -> Output {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    Command::new(cargo)
        .current_dir(dir)
        .args(["bench", "--bench", BENCH, "--"])
        .args(args)
        .env_remove("CARGO_TARGET_DIR")
        .env_remove("CARGO_BUILD_TARGET_DIR")
        .env_remove("CARGO_ENCODED_RUSTFLAGS")
        .output()
        .expect("run cargo bench")
}

/// The scratch crate, reused across runs so it builds incrementally.
fn scratch() -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("export_gungraun");
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    std::fs::create_dir_all(dir.join("src")).unwrap();
    std::fs::write(
        dir.join("Cargo.toml"),
        format!(
            "[package]\nname = \"perfsyn-export-gungraun\"\nversion = \"0.0.0\"\nedition = \"2021\"\npublish = false\n\n\
             [dependencies]\nperfsyn-corpus = {{ path = {:?} }}\nperfsyn-profiler-ipc = {{ path = {:?} }}\n\n[workspace]\n",
            root.join("corpus").display().to_string(),
            root.join("profiler-ipc").display().to_string()
        ),
    )
    .unwrap();
    std::fs::write(
        dir.join("src/lib.rs"),
        "//! Exported benches live in benches/.\n",
    )
    .unwrap();
    dir
}

#[test]
fn gungraun_export_gates_a_relative_finding_a_plain_test_refuses() {
    let runs = tempfile::tempdir().unwrap();
    let run = runs.path().join("run.json");
    let out = perfsyn(&[
        "explore",
        "--method",
        METHOD,
        "--max-programs",
        "250",
        "--seed",
        "1",
        "--confirm-top",
        "0",
        // No repeated-traversal or repeated-computation check: they change no verdict,
        // ran the best program again on the trace build, and nothing here reads them.
        "--no-repeated-traversals",
        "--no-repeated-computations",
        "--json",
        "--out",
        run.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "explore: {}", text(&out));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["verdict"], "bottleneck", "{}", report["reason"]);
    let ratio = report["ratio"]
        .as_f64()
        .expect("a relative run has a ratio");

    // The plain regression test is refused: this is the finding the format is for.
    let out = perfsyn(&["export", run.to_str().unwrap(), "--format", "test"]);
    assert!(!out.status.success(), "plain test exported: {}", text(&out));
    assert!(text(&out).contains("closer than the 4x"), "{}", text(&out));

    let dir = scratch();
    let out = perfsyn(&[
        "export",
        run.to_str().unwrap(),
        "--format",
        "gungraun",
        "--into",
        dir.to_str().unwrap(),
        "--force",
    ]);
    assert!(out.status.success(), "export: {}", text(&out));
    let version = "0.20.0";
    let install = format!("cargo install gungraun-runner --version {version}");
    assert!(text(&out).contains(&install), "{}", text(&out));
    let toml = std::fs::read_to_string(dir.join("Cargo.toml")).unwrap();
    for needle in [
        format!("gungraun = \"{version}\""),
        format!("[[bench]]\nname = \"{BENCH}\"\nharness = false"),
    ] {
        assert!(toml.contains(&needle), "lacks {needle:?}:\n{toml}");
    }

    let file = dir.join("benches").join(format!("{BENCH}.rs"));
    let src = std::fs::read_to_string(&file).unwrap();
    for needle in [
        "use gungraun::{",
        "#[library_benchmark]",
        "library_benchmark_group!(name = perfsyn; benchmarks = array_utils_is_not_empty);",
        "main!(",
        "EntryPoint::Custom(\"*perfsyn_call_under_test*\".to_owned())",
        ".soft_limits([(EventKind::Ir, MAX_IR_INCREASE_PERCENT)])",
        "perfsyn_call_under_test(||",
        "#[inline(never)]",
        "type Subject = ",
        "--save-baseline=base",
        "--baseline=base",
        &install,
    ] {
        assert!(src.contains(needle), "lacks {needle:?}:\n{src}");
    }
    // Only the calls under test are counted: no meter, no timing.
    assert!(!src.contains("Meter") && !src.contains("elapsed"), "{src}");
    // The limit is half the excess the worker measured at the bench's size: positive, and
    // well below the run's own excess (the scaled program's gap is of the same order).
    let limit = const_f64(&src, "MAX_IR_INCREASE_PERCENT");
    assert!(
        limit >= 1.0 && limit < 100.0 * (ratio - 1.0),
        "limit {limit}% for a {ratio}x finding:\n{src}"
    );

    if let Some(why) = why_no_runner(version) {
        eprintln!("skipped the real gungraun run: {why}");
        return;
    }
    // The fixed version: the doc comment names the alias line that points at it.
    let fixed_line = src
        .lines()
        .find_map(|l| {
            l.split("(`type Subject = ")
                .nth(1)
                .and_then(|r| r.split(";`)").next())
        })
        .map(|t| format!("type Subject = {t};"))
        .unwrap_or_else(|| panic!("the file names no fixed version:\n{src}"));
    let bug_line = src
        .lines()
        .find(|l| l.starts_with("type Subject = "))
        .unwrap()
        .to_string();
    let fixed_src = src.replacen(&bug_line, &fixed_line, 1);

    std::fs::write(&file, &fixed_src).unwrap();
    let _ = std::fs::remove_dir_all(dir.join("target/gungraun"));
    let save = bench(&dir, &["--save-baseline=fixed"]);
    assert!(
        save.status.success(),
        "baseline on the fix: {}",
        text(&save)
    );

    std::fs::write(&file, &src).unwrap();
    let bug = bench(&dir, &["--baseline=fixed"]);
    assert_eq!(
        bug.status.code(),
        Some(3),
        "the bug passes the gate:\n{}",
        text(&bug)
    );
    assert!(
        text(&bug).contains("Instructions") && text(&bug).contains("exceeds limit of +"),
        "{}",
        text(&bug)
    );

    std::fs::write(&file, &fixed_src).unwrap();
    let fix = bench(&dir, &["--baseline=fixed"]);
    assert!(
        fix.status.success(),
        "the fix fails the gate: {}",
        text(&fix)
    );
    std::fs::write(&file, &src).unwrap();
}
