//! End-to-end test of hot lines through the real binary and the real instrumented worker: on a
//! planted bottleneck, the line whose hits grow fastest is the planted loop's line. The
//! expected line is found by reading the source file (the line's text), never by number.

use std::path::Path;
use std::process::Command;

use serde_json::Value;

mod common;

fn explore(method: &str, extra: &[&str]) -> Value {
    let mut args: Vec<&str> = vec![
        "explore",
        "--method",
        method,
        "--json",
        "--seed",
        "5",
        "--max-programs",
        "100",
        // Hot lines do not depend on the wall-clock confirmation; skip it.
        "--confirm-top",
        "0",
        // No repeated-traversal or repeated-computation check: they change no verdict,
        // ran the best program again on the trace build, and nothing here reads them.
        "--no-repeated-traversals",
        "--no-repeated-computations",
    ];
    args.extend(extra);
    common::perfsyn_json(&args)
}

/// The text of line `line` (1-based) of `file`, relative to the workspace root.
fn source_line(file: &str, line: u64) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(file);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    text.lines()
        .nth(line as usize - 1)
        .unwrap_or_else(|| panic!("{file} has no line {line}"))
        .to_string()
}

/// The first hot line: (file, line, class, its source text). No line is perfsyn's own code
/// (the worker's clock reads, the wrappers' downcasts), and no library line is listed that
/// grows slower than the top line.
fn top(r: &Value) -> (String, u64, String, String) {
    let lines = r["hot_lines"].as_array().expect("hot_lines is a list");
    for l in lines {
        let file = l["file"].as_str().unwrap_or("");
        assert!(
            !file.contains("profiler-ipc/"),
            "perfsyn's own code among the hot lines: {l}"
        );
        if l["library"] == true {
            assert_eq!(
                l["class"], lines[0]["class"],
                "a library line below the top: {l}"
            );
        }
    }
    let first = lines.first().unwrap_or_else(|| panic!("no hot lines: {r}"));
    let file = first["file"].as_str().expect("file").to_string();
    let line = first["line"].as_u64().expect("line");
    let class = first["class"].as_str().unwrap_or("?").to_string();
    let text = source_line(&file, line);
    (file, line, class, text)
}

#[test]
fn the_top_hot_line_of_a_planted_scan_is_its_loop() {
    let dir = tempfile::tempdir().unwrap();
    let run = dir.path().join("run.json");
    let run_arg = run.to_str().unwrap();
    let r = explore("EnumeratedDistribution::probability", &["--out", run_arg]);
    assert_eq!(r["verdict"], "bottleneck", "{r}");
    let (file, line, class, text) = top(&r);
    assert!(file.ends_with("corpus/src/planted.rs"), "{file}:{line}");
    assert!(
        text.contains("for (i, s) in self.singletons.iter()"),
        "{file}:{line} is `{text}`"
    );
    assert_eq!(class, "O(n)");
    for l in r["hot_lines"].as_array().unwrap() {
        for k in ["file", "line", "class", "hits"] {
            assert!(l.get(k).is_some(), "hot line without {k}: {l}");
        }
    }
    // The exported test's doc comment lists them, the top one first.
    let out = Command::new(env!("CARGO_BIN_EXE_perfsyn"))
        .args(["export", run_arg, "--format", "test"])
        .output()
        .expect("run perfsyn export");
    let test = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let header: Vec<&str> = test.lines().take_while(|l| l.starts_with("//!")).collect();
    let at = header
        .iter()
        .position(|l| l.starts_with("//! Hot lines"))
        .unwrap_or_else(|| panic!("no hot lines in the header:\n{test}"));
    assert!(
        header[at + 1].contains(&format!("{file}:{line} O(n)")),
        "{}",
        header.join("\n")
    );
}

#[test]
fn the_top_hot_line_of_a_counting_emptiness_check_is_the_count() {
    // `TombstoneSet::is_empty` is `len() == 0`, and `len` counts the live slots.
    let r = explore("TombstoneSet::is_empty", &[]);
    assert_eq!(r["verdict"], "bottleneck", "{r}");
    let (file, line, class, text) = top(&r);
    assert!(file.ends_with("corpus/src/planted.rs"), "{file}:{line}");
    // The scan is one statement over several lines (`self.slots.iter().filter(..).count()`)
    // in `len`: the top line is one of the lines of `len`.
    let function = enclosing_fn(&file, line);
    assert!(
        function.contains("fn len(&self)") && function.contains("self.slots"),
        "{file}:{line} is `{text}`, in `{function}`"
    );
    assert_eq!(class, "O(n)");
}

/// The lines of `file` from the nearest function signature at or above `line` (1-based)
/// down to `line`.
fn enclosing_fn(file: &str, line: u64) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(file);
    let src = std::fs::read_to_string(&path).expect("source file");
    let lines: Vec<&str> = src.lines().collect();
    let at = line as usize - 1;
    let start = (0..=at)
        .rev()
        .find(|&k| {
            lines[k].trim_start().starts_with("pub fn ") || lines[k].trim_start().starts_with("fn ")
        })
        .unwrap_or(0);
    lines[start..=at].join("\n")
}
