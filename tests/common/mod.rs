//! Helpers shared by the end-to-end tests: running the real `perfsyn` binary and git.
//!
//! Each test file includes this module (`mod common;`) and uses what it needs, so unused
//! helpers are expected in any one of them.
#![allow(dead_code)]

use std::path::Path;
use std::process::{Command, Output};

/// Runs the real binary with `args`.
pub fn perfsyn(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_perfsyn"))
        .args(args)
        .output()
        .expect("run the perfsyn binary")
}

/// Runs the real binary with `args`, which must succeed; its stdout parsed as JSON.
pub fn perfsyn_json(args: &[&str]) -> serde_json::Value {
    let (code, out, err) = perfsyn_text(args);
    assert_eq!(code, 0, "perfsyn {args:?} failed: {err}");
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("not JSON ({e}): {out}"))
}

/// Runs the real binary with `args`: its exit code, stdout and stderr.
pub fn perfsyn_text(args: &[&str]) -> (i32, String, String) {
    let out = perfsyn(args);
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Runs the real binary in `dir` (a user's crate). Worker builds of every such crate share one
/// target directory, so the harness's dependencies build once for all tests.
pub fn perfsyn_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_perfsyn"))
        .current_dir(dir)
        .args(args)
        .env(
            "PERFSYN_WORKER_TARGET_DIR",
            Path::new(env!("CARGO_MANIFEST_DIR")).join("target/own-crate-test"),
        )
        .output()
        .expect("run perfsyn")
}

/// Holds the shared worker target directory of [`perfsyn_in`] for one test, released when
/// the returned file is dropped.
///
/// Why: every user crate's worker builds to the same path there (`perfsyn-worker`). Under
/// nextest, tests of different files run at once in separate processes, and a test's `init`
/// replaced the binary while another test's `explore` was starting its workers from it (the
/// pool then saw two API schemas: "mixed binaries?"). A test that builds a crate's worker and
/// then runs it takes this lock first (`flock`, so it holds across processes).
pub fn one_crate_worker_at_a_time() -> std::fs::File {
    use std::os::fd::AsRawFd;
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("target");
    std::fs::create_dir_all(&dir).expect("create target/");
    let f = std::fs::File::create(dir.join("own-crate-test.lock")).expect("create the lock file");
    // SAFETY: flock on a file descriptor this function owns; it blocks until granted.
    let r = unsafe { libc::flock(f.as_raw_fd(), libc::LOCK_EX) };
    assert_eq!(r, 0, "flock: {}", std::io::Error::last_os_error());
    f
}

/// stdout then stderr of `o`, as text.
pub fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// Runs git in `dir` with a fixed identity; fails the test if git fails.
pub fn git(dir: &Path, args: &[&str]) {
    let ok = Command::new("git")
        .args(args)
        .current_dir(dir)
        .env("GIT_AUTHOR_NAME", "t")
        .env("GIT_AUTHOR_EMAIL", "t@t")
        .env("GIT_COMMITTER_NAME", "t")
        .env("GIT_COMMITTER_EMAIL", "t@t")
        .status()
        .expect("run git")
        .success();
    assert!(ok, "git {args:?}");
}

/// Explores `method` on one given program (deterministic: `--max-programs 1`, no
/// confirmation) and returns the JSON report: a first run writes a run file, its best program
/// is replaced by `program`, and `explore --from` starts from it with `extra` flags.
///
/// Without the repeated-traversal and repeated-computation checks: they change no verdict
/// (`explore/toddler.rs`, `explore/memoize.rs`), each ran the program again on the trace
/// build, and the callers judge the sweep and the verdict; `tests/repeated_traversals.rs` and
/// `tests/memoization.rs` guard the checks themselves.
pub fn explore_program(
    dir: &Path,
    method: &str,
    program: serde_json::Value,
    extra: &[&str],
) -> serde_json::Value {
    let run = dir.join("run.json");
    let common = [
        "explore",
        "--method",
        method,
        "--seed",
        "1",
        "--max-programs",
        "1",
        "--confirm-top",
        "0",
        "--no-repeated-traversals",
        "--no-repeated-computations",
        "--json",
    ];
    let mut args = common.to_vec();
    args.extend(["--out", run.to_str().unwrap()]);
    perfsyn_json(&args);
    let mut file: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&run).unwrap()).unwrap();
    file["report"]["best"]["program"] = program;
    let start = dir.join("start.json");
    std::fs::write(&start, file.to_string()).unwrap();
    let mut args = common.to_vec();
    args.extend(extra);
    args.extend(["--from", start.to_str().unwrap()]);
    perfsyn_json(&args)
}

/// Fails with every violation when `log` is not valid against the published SARIF 2.1.0
/// schema (`tests/data/sarif-2.1.0.json`, from Microsoft's `@microsoft/sarif-multitool-linux`
/// 5.7.0 npm package).
pub fn assert_valid_sarif(log: &serde_json::Value) {
    assert_valid(log, include_str!("../data/sarif-2.1.0.json"), "SARIF");
}

/// Fails with every violation when `doc` is not valid against the JSON schema `schema`
/// (the text of a schema file), naming the format `what`.
pub fn assert_valid(doc: &serde_json::Value, schema: &str, what: &str) {
    let schema: serde_json::Value = serde_json::from_str(schema).unwrap();
    let validator = jsonschema::validator_for(&schema).expect("the schema compiles");
    let errors: Vec<String> = validator
        .iter_errors(doc)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "{what} schema violations: {errors:?}");
}

/// Runs the real binary with `args`, writing `input` to its standard input.
pub fn perfsyn_stdin(args: &[&str], input: &str) -> Output {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_perfsyn"))
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("run the perfsyn binary");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

/// The text of `file:line` (relative to the workspace root).
pub fn source_of(at: &str) -> String {
    let (file, line) = at.rsplit_once(':').expect("file:line");
    let line: usize = line.parse().expect("a line number");
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(file);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    text.lines().nth(line - 1).unwrap_or("").to_string()
}
