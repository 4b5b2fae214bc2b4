//! Run files and `perfsyn replay` end to end: a saved run reproduces its deterministic
//! measurements exactly, the file round-trips through the library, and damaged or foreign
//! files are refused with one line naming the file.

use std::path::{Path, PathBuf};

use perfsyn::explore::runfile::RunFile;

mod common;
use common::perfsyn;

/// A run of the planted regression saved in `dir`.
fn saved_run(dir: &Path) -> PathBuf {
    let run = dir.join("run.json");
    let out = perfsyn(&[
        "explore",
        "--method",
        "OrderedMap::remove",
        "--max-programs",
        "300",
        "--seed",
        "3",
        "--confirm-top",
        "1",
        "--json",
        "--out",
        run.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    run
}

fn replay_json(run: &Path, rank: &str) -> serde_json::Value {
    let out = perfsyn(&["replay", run.to_str().unwrap(), "--rank", rank, "--json"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("replay --json prints JSON")
}

#[test]
fn replay_reproduces_saved_edge_counts_exactly() {
    let dir = tempfile::tempdir().unwrap();
    let run = saved_run(dir.path());
    let file = RunFile::load(&run).unwrap();
    for rank in ["1", "2"] {
        let r = replay_json(&run, rank);
        assert_eq!(r["reproduced"], true, "{r}");
        assert_eq!(r["schema_changed"], false);
        let saved = if rank == "1" {
            file.report.best.clone().unwrap()
        } else {
            file.report.others[0].clone()
        };
        let versions = r["versions"].as_array().unwrap();
        assert_eq!(versions.len(), 2, "relative runs replay both versions");
        let expect = [
            saved.feedback.as_ref().unwrap().cost.edges,
            saved.feedback_ref.as_ref().unwrap().cost.edges,
        ];
        for (v, edges) in versions.iter().zip(expect) {
            let row = v["rows"]
                .as_array()
                .unwrap()
                .iter()
                .find(|row| row["metric"] == "edges")
                .unwrap();
            assert_eq!(row["now"].as_u64(), Some(edges), "{v}");
            assert_eq!(row["saved"].as_u64(), Some(edges));
            assert_eq!(row["flagged"], false);
        }
    }
    // The human form says so too.
    let out = perfsyn(&["replay", run.to_str().unwrap()]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("reproduced: every deterministic measurement matches"),
        "{text}"
    );
}

/// Regression: replay exited 0 after printing "NOT reproduced", and for a run file naming a
/// method the worker does not have; a replay is a gate, so both exit non-zero with one line.
#[test]
fn replay_fails_on_a_changed_measurement_or_an_unknown_method() {
    let dir = tempfile::tempdir().unwrap();
    let run = saved_run(dir.path());
    let mut file = RunFile::load(&run).unwrap();
    let best = file.report.best.as_mut().unwrap();
    best.feedback.as_mut().unwrap().cost.edges += 1;
    let edited = dir.path().join("edited.json");
    file.save(&edited).unwrap();
    let out = perfsyn(&["replay", edited.to_str().unwrap(), "--json"]);
    assert_eq!(
        out.status.code(),
        Some(1),
        "a tampered run file must fail the replay"
    );
    let r: serde_json::Value =
        serde_json::from_slice(&out.stdout).expect("--json prints the comparison");
    assert_eq!(r["reproduced"], false);
    assert_eq!(r["differences"], 1);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("NOT reproduced") && err.contains("new edges"),
        "{err}"
    );
    assert_eq!(err.trim().lines().count(), 1, "{err}");

    let mut file = RunFile::load(&run).unwrap();
    file.report.method = "OrderedMap::vanish".into();
    let unknown = dir.path().join("unknown.json");
    file.save(&unknown).unwrap();
    let out = perfsyn(&["replay", unknown.to_str().unwrap()]);
    assert_eq!(
        out.status.code(),
        Some(2),
        "an unknown method is bad input, not a finding"
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("no method OrderedMap::vanish"), "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");

    // A relative run of the retyping era named the new member and no `new_type`.
    let mut file = RunFile::load(&run).unwrap();
    file.report.ty = "NewOrderedMap".into();
    file.report.new_type = None;
    let retyped = dir.path().join("retyped.json");
    file.save(&retyped).unwrap();
    assert_one_line_error(&retyped, "format no longer read");
}

#[test]
fn run_file_round_trips() {
    let dir = tempfile::tempdir().unwrap();
    let run = saved_run(dir.path());
    let file = RunFile::load(&run).unwrap();
    assert_eq!(file.format, "perfsyn-run");
    assert_eq!(file.version, perfsyn::explore::runfile::VERSION);
    assert_eq!(file.seed, 3);
    assert!(file.command_line.iter().any(|a| a == "OrderedMap::remove"));
    assert_eq!(file.worker.hash.len(), 16);
    assert!(file.report.best.as_ref().unwrap().rust.contains(".remove("));
    assert!(file.report.tree.nodes > 1);
    assert!(!file.report.tree.depth_histogram.is_empty());
    assert!(file.report.confirmation.is_some());
    let again = dir.path().join("again.json");
    file.save(&again).unwrap();
    let read = |p: &Path| -> serde_json::Value {
        serde_json::from_slice(&std::fs::read(p).unwrap()).unwrap()
    };
    assert_eq!(read(&run), read(&again));
    let reloaded = RunFile::load(&again).unwrap();
    assert_eq!(
        serde_json::to_value(&reloaded).unwrap(),
        serde_json::to_value(&file).unwrap()
    );
}

fn assert_one_line_error(path: &Path, expect: &str) {
    let out = perfsyn(&["replay", path.to_str().unwrap()]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(err.contains(path.to_str().unwrap()), "{err}");
    assert!(err.contains(expect), "{err}");
}

#[test]
fn truncated_or_foreign_run_files_give_one_line_errors() {
    let dir = tempfile::tempdir().unwrap();
    let truncated = dir.path().join("truncated.json");
    std::fs::write(
        &truncated,
        "{\n  \"format\": \"perfsyn-run\",\n  \"version\": 1,\n  \"command_line\": [\"perf",
    )
    .unwrap();
    assert_one_line_error(&truncated, "not valid JSON");
    let foreign = dir.path().join("package.json");
    std::fs::write(&foreign, "{\"name\": \"left-pad\", \"version\": \"1.3.0\"}").unwrap();
    assert_one_line_error(&foreign, "not a perfsyn run file");
    let future = dir.path().join("future.json");
    std::fs::write(&future, "{\"format\": \"perfsyn-run\", \"version\": 2}").unwrap();
    assert_one_line_error(&future, "format version 2");
    assert_one_line_error(&dir.path().join("missing.json"), "cannot read run file");
}
