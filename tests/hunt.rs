//! `perfsyn hunt` end to end: the real binary and the real worker on one small type with a
//! small budget. What a user relies on overnight: a hunt killed with SIGKILL resumes without
//! losing or redoing a finished method, a directory that is not ours is never written, and
//! `--report` rebuilds the same report from the run files. No test asserts a time.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

mod common;
use common::perfsyn_text;

/// A type with four cheap methods and no version group.
const SMALL_TYPE: &str = "PrefixSums";

fn hunt_args<'a>(out: &'a str, budget: &'a str) -> Vec<&'a str> {
    vec![
        "hunt",
        "--type",
        SMALL_TYPE,
        "--budget-per-method",
        budget,
        "--seed",
        "3",
        "--out",
        out,
    ]
}

fn json(path: &Path) -> Value {
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{} is not JSON: {e}", path.display()))
}

/// The finished run files of a hunt directory, by name, with their bytes.
fn run_files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let Ok(entries) = std::fs::read_dir(dir.join("runs")) else {
        return BTreeMap::new();
    };
    entries
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".json") && !n.starts_with('.'))
        .map(|n| {
            let bytes = std::fs::read(dir.join("runs").join(&n)).unwrap();
            (n, bytes)
        })
        .collect()
}

/// Every method named in a summary, with how many times it appears.
fn summary_methods(s: &Value) -> BTreeMap<String, usize> {
    let mut out = BTreeMap::new();
    for key in ["relative", "asymptotic", "no_finding"] {
        for x in s[key].as_array().unwrap_or_else(|| panic!("no {key}: {s}")) {
            *out.entry(x["method"].as_str().unwrap().to_string())
                .or_insert(0) += 1;
        }
    }
    out
}

#[test]
fn sigkill_mid_hunt_then_resume_loses_and_repeats_no_method() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("hunt");
    let d = dir.to_str().unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_perfsyn"))
        .args(hunt_args(d, "1s"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start perfsyn hunt");
    // Kill as soon as the first method is written (the worker may still be building first).
    let start = Instant::now();
    while run_files(&dir).is_empty() {
        assert!(
            start.elapsed() < Duration::from_secs(300),
            "no method finished in time"
        );
        if let Some(status) = child.try_wait().unwrap() {
            panic!("the hunt ended before it could be killed: {status}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.kill().expect("SIGKILL the hunt");
    child.wait().unwrap();
    let before = run_files(&dir);
    let manifest = json(&dir.join("hunt.json"));
    assert_eq!(manifest["format"], "perfsyn-hunt");
    let planned: BTreeSet<String> = manifest["methods"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| Path::new(m["file"].as_str().unwrap()))
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    assert_eq!(planned.len(), 4, "{manifest}");
    assert!(
        before.len() < planned.len(),
        "killed too late to test resuming: {:?}",
        before.keys()
    );

    // Without --resume the directory is refused, and left as it is.
    let (code, _, err) = perfsyn_text(&hunt_args(d, "1s"));
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("pass --resume"), "{err}");
    assert_eq!(run_files(&dir), before);

    let (code, out, err) = perfsyn_text(&["hunt", "--out", d, "--resume"]);
    assert_eq!(code, 0, "resume failed: {err}");
    assert!(
        out.contains(&format!(
            "in {} of {} methods",
            planned.len(),
            planned.len()
        )),
        "{out}"
    );
    let after = run_files(&dir);
    // No loss: every method finished before the kill is still there, byte for byte (it was
    // not redone); no duplicate: the resumed hunt ran exactly the others, once each.
    for (name, bytes) in &before {
        assert_eq!(after.get(name), Some(bytes), "{name} was lost or redone");
    }
    let names: BTreeSet<String> = after.keys().cloned().collect();
    assert_eq!(names, planned);
    let file_of: BTreeMap<String, String> = manifest["methods"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            let f = Path::new(m["file"].as_str().unwrap());
            (
                m["method"].as_str().unwrap().to_string(),
                f.file_name().unwrap().to_string_lossy().into_owned(),
            )
        })
        .collect();
    // The resumed hunt prints `[k/N] Method::name: verdict (...)` per method it ran.
    let rerun: BTreeSet<String> = err
        .lines()
        .filter(|l| l.starts_with('['))
        .filter_map(|l| l.split_once("] ").map(|x| x.1))
        .filter_map(|l| l.split_once(": ").map(|x| file_of[x.0].clone()))
        .collect();
    let before_names: BTreeSet<String> = before.keys().cloned().collect();
    assert!(rerun.is_disjoint(&before_names), "{rerun:?} redone");
    assert_eq!(
        rerun.union(&before_names).cloned().collect::<BTreeSet<_>>(),
        planned
    );
    let summary = json(&dir.join("summary.json"));
    assert_eq!(summary["complete"], true);
    let methods = summary_methods(&summary);
    assert_eq!(methods.len(), planned.len(), "{summary}");
    assert!(methods.values().all(|n| *n == 1), "{methods:?}");
    let leftovers: Vec<String> = std::fs::read_dir(dir.join("runs"))
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

#[test]
fn report_regenerates_the_same_self_contained_report_from_the_run_files() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("hunt");
    let d = dir.to_str().unwrap();
    let (code, out, err) = perfsyn_text(&hunt_args(d, "1s"));
    assert_eq!(code, 0, "hunt failed: {err}");
    assert!(out.contains("report: "), "{out}");
    let names = ["report.html", "summary.json", "summary.md"];
    let first: Vec<Vec<u8>> = names
        .iter()
        .map(|n| std::fs::read(dir.join(n)).unwrap())
        .collect();
    for n in names {
        std::fs::remove_file(dir.join(n)).unwrap();
    }
    let (code, out, err) = perfsyn_text(&["hunt", "--report", d]);
    assert_eq!(code, 0, "--report failed: {err}");
    assert!(out.contains("of 4 methods"), "{out}");
    for (n, bytes) in names.iter().zip(&first) {
        let again = std::fs::read(dir.join(n)).unwrap();
        assert!(again == *bytes, "{n} differs after --report");
    }
    let html = String::from_utf8(first[0].clone()).unwrap();
    assert!(html.starts_with("<!DOCTYPE html>"), "{html}");
    for bad in ["<script", "<link", " src=", "@import", "url("] {
        assert!(!html.contains(bad), "report.html has {bad}");
    }
    let external = html
        .match_indices("http")
        .filter(|(i, _)| !html[*i..].starts_with("http://www.w3.org/2000/svg"))
        .count();
    assert_eq!(external, 0, "report.html refers to the outside");
    let summary = json(&dir.join("summary.json"));
    assert_eq!(summary["format"], "perfsyn-hunt-summary");
    assert_eq!(summary["methods_done"], 4);
    for f in summary["asymptotic"]
        .as_array()
        .unwrap()
        .iter()
        .chain(summary["relative"].as_array().unwrap())
    {
        let cmd = f["export_command"].as_str().unwrap();
        assert!(cmd.starts_with("perfsyn export ") && cmd.ends_with(" --format test"));
        assert!(Path::new(f["run_file"].as_str().unwrap()).is_file(), "{f}");
        assert!(html.contains(&format!("id=\"{}\"", f["label"].as_str().unwrap())));
    }
    let md = String::from_utf8(first[2].clone()).unwrap();
    assert!(md.starts_with("## perfsyn hunt: "), "{md}");
}

/// Runs `perfsyn hunt` on a directory prepared by `setup` and checks that it fails with one
/// line containing `expect` and leaves the directory exactly as it was.
fn check_refused(setup: impl FnOnce(&Path), extra: &[&str], expect: &str) {
    let tmp = tempfile::tempdir().unwrap();
    let dir: PathBuf = tmp.path().join("d");
    setup(&dir);
    let snapshot = |p: &Path| -> BTreeMap<String, Vec<u8>> {
        if p.is_file() {
            return [(String::new(), std::fs::read(p).unwrap())].into();
        }
        std::fs::read_dir(p)
            .map(|es| {
                es.flatten()
                    .filter(|e| e.path().is_file())
                    .map(|e| {
                        (
                            e.file_name().to_string_lossy().into_owned(),
                            std::fs::read(e.path()).unwrap(),
                        )
                    })
                    .collect()
            })
            .unwrap_or_default()
    };
    let before = snapshot(&dir);
    let mut args = vec!["hunt", "--out", dir.to_str().unwrap()];
    args.extend(extra);
    let (code, _, err) = perfsyn_text(&args);
    assert_eq!(code, 2, "{args:?}: {err}");
    let err = err.trim_end();
    assert!(err.contains(expect), "{args:?}: {err}");
    assert_eq!(err.lines().count(), 1, "not one line: {err}");
    assert_eq!(snapshot(&dir), before, "{args:?} changed the directory");
}

fn manifest_text(version: u32) -> String {
    serde_json::json!({
        "format": "perfsyn-hunt", "version": version, "perfsyn_version": "0.1.0",
        "command_line": ["perfsyn", "hunt"], "created_unix": 0,
        "schema_hash": "0000000000000000",
        "settings": {"type": SMALL_TYPE, "budget_per_method_ms": 1000, "strategy": "astar",
                     "seed": 3, "t_rel": 1.2},
        "methods": [{"method": "PrefixSums::push", "oracle": "asymptotic",
                     "file": "runs/001-PrefixSums__push.json"}]
    })
    .to_string()
}

#[test]
fn foreign_damaged_or_existing_dirs_are_one_line_errors_and_never_written() {
    let with = |name: &'static str, text: String| {
        move |d: &Path| {
            std::fs::create_dir_all(d.join("runs")).unwrap();
            std::fs::write(d.join(name), text).unwrap();
        }
    };
    let all = ["--all"];
    check_refused(
        with("notes.txt", "mine".into()),
        &all,
        "not a perfsyn hunt directory",
    );
    check_refused(
        with("notes.txt", "mine".into()),
        &["--resume"],
        "not a perfsyn hunt directory",
    );
    check_refused(
        with("hunt.json", "{\"format\": \"perfsyn-hunt\", \"vers".into()),
        &["--resume"],
        "damaged",
    );
    check_refused(
        with("hunt.json", "{\"name\": \"something else\"}".into()),
        &all,
        "not a perfsyn hunt manifest",
    );
    check_refused(
        with("hunt.json", manifest_text(99)),
        &["--resume"],
        "version 99",
    );
    check_refused(with("hunt.json", manifest_text(1)), &all, "pass --resume");
    check_refused(
        |d| std::fs::write(d, "a file").unwrap(),
        &all,
        "not a directory",
    );
    check_refused(
        |d| std::fs::create_dir(d).unwrap(),
        &["--resume"],
        "drop --resume",
    );
    check_refused(
        with("hunt.json", manifest_text(1)),
        &["--resume", "--seed", "4"],
        "--seed differs",
    );
    // Resuming a hunt as another partition, or with another program budget, would mix two
    // hunts in one directory.
    check_refused(
        with("hunt.json", manifest_text(1)),
        &["--resume", "--partition", "1/2"],
        "--partition differs",
    );
    check_refused(
        with("hunt.json", manifest_text(1)),
        &["--resume", "--max-programs-per-method", "5"],
        "--max-programs-per-method differs",
    );
    // A search switch the hunt was started without would change the rest of its methods.
    check_refused(
        with("hunt.json", manifest_text(1)),
        &["--resume", "--no-span-shapes"],
        "--no-span-shapes differs",
    );
    // A damaged run file of a finished method is an error, not a method to redo silently.
    check_refused(
        |d| {
            with("hunt.json", manifest_text(1))(d);
            std::fs::write(d.join("runs/001-PrefixSums__push.json"), "{\"format\":").unwrap();
        },
        &["--resume"],
        "PrefixSums::push",
    );
}
