//! `perfsyn hunt --json` and `perfsyn report --json` through the real binary and worker: one
//! JSON document on stdout, the same as `DIR/summary.json`, listing every explored method
//! with its verdict, class, expected class, key figures and run file, for a hunt and for
//! the merge of its partitions. Small program budgets; no test asserts a time.

use std::path::Path;

use serde_json::Value;

mod common;
use common::perfsyn_text;

/// A type with four cheap methods and no version group.
const SMALL_TYPE: &str = "PrefixSums";

fn hunt(out: &Path, extra: &[&str]) -> Value {
    let mut args = vec![
        "hunt",
        "--type",
        SMALL_TYPE,
        "--max-programs-per-method",
        "30",
        "--seed",
        "3",
        "--json",
        "--out",
        out.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    let (code, stdout, err) = perfsyn_text(&args);
    assert_eq!(code, 0, "{err}");
    serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("stdout is not JSON ({e}): {stdout}"))
}

fn file_json(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// Every method row has the fields a script reads, and its run file exists.
fn assert_rows(s: &Value, count: usize) {
    let rows = s["methods"]
        .as_array()
        .unwrap_or_else(|| panic!("no methods: {s}"));
    assert_eq!(rows.len(), count, "{s}");
    for r in rows {
        assert!(
            r["method"].as_str().unwrap().starts_with("PrefixSums::"),
            "{r}"
        );
        for key in ["verdict", "class", "expected", "oracle"] {
            assert!(r[key].is_string(), "{key}: {r}");
        }
        assert!(r["finding"].is_boolean(), "{r}");
        assert!(r["programs"].as_u64().unwrap() > 0, "{r}");
        assert!(r["largest_size"].as_u64().unwrap() > 0, "{r}");
        assert!(r["cost_at_largest_size"].as_f64().is_some(), "{r}");
        assert!(r["fitted_exponent"].as_f64().is_some(), "{r}");
        let run = r["run_file"].as_str().unwrap();
        assert!(Path::new(run).is_file(), "{run}");
    }
}

#[test]
fn hunt_and_report_print_every_method_with_its_figures_as_summary_json_holds() {
    let tmp = tempfile::tempdir().unwrap();
    let whole = tmp.path().join("whole");
    let s = hunt(&whole, &[]);
    assert_eq!(s, file_json(&whole.join("summary.json")));
    assert_rows(&s, 4);
    // The documented class of `rebuild` is O(n); the sweep measured it.
    let rebuild = s["methods"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["method"] == "PrefixSums::rebuild")
        .expect("rebuild explored");
    assert_eq!(rebuild["expected"], "O(n)", "{rebuild}");

    // Two partitions merged: the same methods, with the same verdicts.
    let parts: Vec<_> = ["1/2", "2/2"]
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let d = tmp.path().join(format!("part{i}"));
            hunt(&d, &["--partition", p]);
            d
        })
        .collect();
    let merged = tmp.path().join("merged");
    let (code, stdout, err) = perfsyn_text(&[
        "report",
        parts[0].to_str().unwrap(),
        parts[1].to_str().unwrap(),
        "--out",
        merged.to_str().unwrap(),
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let m: Value = serde_json::from_str(&stdout).expect("report --json prints JSON");
    assert_eq!(m, file_json(&merged.join("summary.json")));
    assert_rows(&m, 4);
    let verdicts = |s: &Value| {
        let mut v: Vec<(String, String)> = s["methods"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| (r["method"].to_string(), r["verdict"].to_string()))
            .collect();
        v.sort();
        v
    };
    assert_eq!(verdicts(&m), verdicts(&s));
}
