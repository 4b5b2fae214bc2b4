//! A hunt split with `--partition k/N` and merged with `perfsyn report` finds what the
//! unpartitioned hunt finds, with the same seed and program budgets: the real binary and the
//! real worker on a planted bottleneck (`EnumeratedDistribution::probability`, documented
//! O(1), O(n)). Wall-clock timings (the confirmation) differ between runs and are left out of
//! the comparison; everything the search and the oracle decide is compared exactly.

use std::collections::BTreeSet;
use std::path::Path;

use serde_json::Value;

mod common;
use common::perfsyn_text;

/// Four methods, one planted bottleneck.
const TYPE: &str = "EnumeratedDistribution";

/// Runs a hunt of [`TYPE`] with a deterministic budget into `out`.
fn hunt(out: &Path, seed: &str, programs: &str, partition: Option<&str>) {
    let mut args = vec![
        "hunt",
        "--type",
        TYPE,
        "--max-programs-per-method",
        programs,
        "--seed",
        seed,
        "--workers",
        "2",
        "--out",
        out.to_str().unwrap(),
    ];
    if let Some(p) = partition {
        args.extend(["--partition", p]);
    }
    let (code, _, err) = perfsyn_text(&args);
    assert_eq!(code, 0, "{args:?} failed: {err}");
}

fn json(path: &Path) -> Value {
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{} is not JSON: {e}", path.display()))
}

/// The parts of a summary the search and the oracles decide (no timings, no paths).
fn decided(summary: &Value) -> Value {
    let keep = |list: &Value, fields: &[&str]| -> Value {
        list.as_array()
            .unwrap()
            .iter()
            .map(|f| -> Value {
                fields
                    .iter()
                    .map(|k| (k.to_string(), f[*k].clone()))
                    .collect::<serde_json::Map<String, Value>>()
                    .into()
            })
            .collect::<Vec<Value>>()
            .into()
    };
    let finding = [
        "rank",
        "label",
        "method",
        "oracle",
        "verdict",
        "reason",
        "expected",
        "empirical",
        "fit_error",
        "ratio",
        "score",
        "input_size",
        "mutations",
        "explore_command",
    ];
    serde_json::json!({
        "settings": summary["settings"],
        "methods_total": summary["methods_total"],
        "methods_done": summary["methods_done"],
        "complete": summary["complete"],
        "relative": keep(&summary["relative"], &finding),
        "asymptotic": keep(&summary["asymptotic"], &finding),
        "no_finding": keep(&summary["no_finding"], &["method", "oracle", "verdict", "reason"]),
        "pending": summary["pending"],
    })
}

/// The parts of a run file the search and the oracle decide.
fn decided_run(run: &Value) -> Value {
    let r = &run["report"];
    serde_json::json!({
        "verdict": r["verdict"], "reason": r["reason"], "empirical": r["empirical"],
        "fit_error": r["fit_error"], "ratio": r["ratio"], "points": r["points"],
        "best_program": r["best"]["rust"], "best_path": r["best"]["path"],
        "best_score": r["best"]["score"], "programs": r["stats"]["programs"],
    })
}

fn method_names(manifest: &Value) -> Vec<String> {
    manifest["methods"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["method"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn partitions_merged_by_report_find_what_the_unpartitioned_hunt_finds() {
    let tmp = tempfile::tempdir().unwrap();
    let (full, p1, p2, merged) = (
        tmp.path().join("full"),
        tmp.path().join("p1"),
        tmp.path().join("p2"),
        tmp.path().join("merged"),
    );
    hunt(&full, "3", "40", None);
    hunt(&p1, "3", "40", Some("1/2"));
    hunt(&p2, "3", "40", Some("2/2"));

    // Each partition explores its share of the plan, the shares are disjoint and cover it, and
    // every manifest records the same hunt.
    let (mf, m1, m2) = (
        json(&full.join("hunt.json")),
        json(&p1.join("hunt.json")),
        json(&p2.join("hunt.json")),
    );
    let plan = method_names(&mf);
    let (s1, s2) = (method_names(&m1), method_names(&m2));
    assert_eq!(plan.len(), 4, "{mf}");
    assert_eq!(s1.len() + s2.len(), plan.len(), "{s1:?} {s2:?}");
    let union: BTreeSet<&String> = s1.iter().chain(&s2).collect();
    assert_eq!(union, plan.iter().collect::<BTreeSet<_>>());
    assert_eq!(m1["partition"]["part"], "1/2");
    assert_eq!(m2["partition"]["part"], "2/2");
    for m in [&m1, &m2] {
        assert_eq!(m["plan_hash"], mf["plan_hash"]);
        assert_eq!(m["settings"], mf["settings"]);
    }

    // Merged in any order, the partitions give the unpartitioned hunt's findings.
    let (code, out, err) = perfsyn_text(&[
        "report",
        p2.to_str().unwrap(),
        p1.to_str().unwrap(),
        "--out",
        merged.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "report failed: {err}");
    assert!(!err.contains("missing"), "{err}");
    assert!(out.contains("1 finding in 4 of 4 methods"), "{out}");
    let (sf, sm) = (
        json(&full.join("summary.json")),
        json(&merged.join("summary.json")),
    );
    assert_eq!(decided(&sm), decided(&sf));
    let found: Vec<&str> = sf["asymptotic"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["method"].as_str().unwrap())
        .collect();
    assert_eq!(found, [format!("{TYPE}::probability")], "{sf}");
    for m in mf["methods"].as_array().unwrap() {
        let file = m["file"].as_str().unwrap();
        assert_eq!(
            decided_run(&json(&merged.join(file))),
            decided_run(&json(&full.join(file))),
            "{file}"
        );
    }
    // The merged directory is a hunt of its own, with the command of the whole hunt.
    let mm = json(&merged.join("hunt.json"));
    assert!(mm.get("partition").is_none(), "{mm}");
    assert_eq!(mm["plan_hash"], mf["plan_hash"]);
    let reproduce = out
        .lines()
        .find_map(|l| l.strip_prefix("Reproduce with: "))
        .unwrap_or_else(|| panic!("no Reproduce line: {out}"));
    assert!(!reproduce.contains("--partition"), "{reproduce}");
    let html = std::fs::read_to_string(merged.join("report.html")).unwrap();
    assert!(html.contains("probability"), "{html}");

    // One partition alone: the merge says which partition and methods are missing.
    let alone = tmp.path().join("alone");
    let (code, out, err) = perfsyn_text(&[
        "report",
        p1.to_str().unwrap(),
        "--out",
        alone.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("(incomplete)"), "{out}");
    let warning = err.trim_end();
    assert_eq!(warning.lines().count(), 1, "{warning}");
    assert!(warning.contains("partition 2/2 is missing"), "{warning}");
    for m in &s2 {
        assert!(warning.contains(m.as_str()), "{warning}");
    }
    assert_eq!(json(&alone.join("summary.json"))["complete"], false);
}

#[test]
fn report_refuses_partitions_of_different_hunts_in_one_line() {
    let tmp = tempfile::tempdir().unwrap();
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    hunt(&a, "3", "5", Some("1/2"));
    hunt(&b, "4", "5", Some("2/2"));
    let merged = tmp.path().join("merged");
    let (code, _, err) = perfsyn_text(&[
        "report",
        a.to_str().unwrap(),
        b.to_str().unwrap(),
        "--out",
        merged.to_str().unwrap(),
    ]);
    assert_eq!(code, 2, "{err}");
    let err = err.trim_end();
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("different hunts") && err.contains("seed 3 vs 4"),
        "{err}"
    );
    assert!(!merged.exists());

    // The same partition twice, and several directories without --out.
    let (code, _, err) = perfsyn_text(&[
        "report",
        a.to_str().unwrap(),
        a.to_str().unwrap(),
        "--out",
        merged.to_str().unwrap(),
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("partition 1/2"), "{err}");
    let (code, _, err) = perfsyn_text(&["report", a.to_str().unwrap(), b.to_str().unwrap()]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("needs --out"), "{err}");
    // A bad k/N is refused before anything runs.
    let (code, _, err) = perfsyn_text(&["hunt", "--all", "--partition", "3/2", "--out", "x"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("k must lie between 1 and N"), "{err}");
}
