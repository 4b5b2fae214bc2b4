//! `perfsyn fit` and `perfsyn bench fit` end to end, through the real binary (no worker).

use std::process::Output;

mod common;
use common::{perfsyn, perfsyn_stdin};

fn json(out: &Output) -> serde_json::Value {
    assert!(
        out.status.success(),
        "failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("JSON on stdout")
}

#[test]
fn fit_csv_judges_a_quadratic_series_above_the_expected_linear_class() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("points.csv");
    let mut text = String::from("size,cost\n");
    for n in [10u64, 20, 50, 100, 200, 500, 1000, 2000] {
        text.push_str(&format!("{n},{}\n", 30 + n * n / 2));
    }
    std::fs::write(&f, text).unwrap();
    // Above the expected class is a finding: exit 1, the JSON still on stdout.
    let out = perfsyn(&["fit", f.to_str().unwrap(), "--expect", "O(n)", "--json"]);
    assert_eq!(out.status.code(), Some(1));
    let r: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON on stdout");
    assert_eq!(r["class"], "O(n^2)", "{r}");
    assert_eq!(r["above_expected"], true, "{r}");
    assert_eq!(r["min_size"], 10.0);
    assert_eq!(r["max_size"], 2000.0);
    assert!(r["slope"]["low"].as_f64().unwrap() > 1.0, "{r}");
    // The text form names the class and the evidence, never NaN.
    let out = perfsyn(&["fit", f.to_str().unwrap()]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("O(n^2)") && text.contains("log-log slope"),
        "{text}"
    );
    assert!(!text.contains("NaN"), "{text}");
}

#[test]
fn fit_refuses_a_class_far_above_the_slope_of_a_step_series() {
    // A step like rpds `Vector::drop_last_mut`'s (flat, one step, one high point at the
    // largest size) was named O(n^2) with a log-log slope interval of [0.02, 0.30].
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("step.csv");
    std::fs::write(
        &f,
        "size,cost\n42,27\n70,27\n130,27\n250,27\n500,27\n1000,32\n2000,32\n4097,58\n",
    )
    .unwrap();
    let out = perfsyn(&["fit", f.to_str().unwrap()]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    let first = text.lines().next().unwrap_or_default();
    assert!(
        first.ends_with("O(1)") || first.ends_with("O(log n)") || first.ends_with("inconclusive"),
        "{text}"
    );
    assert!(text.contains("far below its own slope"), "{text}");
    let r = json(&perfsyn(&[
        "fit",
        f.to_str().unwrap(),
        "--expect",
        "O(1)",
        "--json",
    ]));
    assert_eq!(r["above_expected"], false, "{r}");
}

#[test]
fn fit_reads_a_criterion_group_whose_parameter_is_the_size() {
    let dir = tempfile::tempdir().unwrap();
    for n in [16u64, 64, 256, 1024, 4096] {
        let d = dir.path().join(n.to_string()).join("new");
        std::fs::create_dir_all(&d).unwrap();
        let est = format!(
            r#"{{"mean":{{"point_estimate":{}}},"median":{{"point_estimate":1.0}}}}"#,
            100.0 + 3.0 * n as f64
        );
        std::fs::write(d.join("estimates.json"), est).unwrap();
    }
    let r = json(&perfsyn(&[
        "fit",
        "--criterion",
        dir.path().to_str().unwrap(),
        "--json",
    ]));
    assert_eq!(r["class"], "O(n)", "{r}");
    assert_eq!(r["points"].as_array().unwrap().len(), 5);
}

#[test]
fn fit_short_evidence_is_inconclusive_in_words() {
    let r = json(&perfsyn_stdin(&["fit", "-", "--json"], "1,5\n2,6\n3,7\n"));
    assert_eq!(r["class"], "inconclusive");
    assert!(
        r["reason"].as_str().unwrap().contains("distinct sizes"),
        "{r}"
    );
}

#[test]
fn fit_bad_input_is_one_line_and_a_failure() {
    let out = perfsyn_stdin(&["fit", "-"], "size,cost\n10,abc\n");
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(err.contains("stdin:2"), "{err}");
}

#[test]
fn bench_fit_reports_accuracy_and_false_bottlenecks() {
    let dir = tempfile::tempdir().unwrap();
    let series = dir.path().join("series.jsonl");
    let r = json(&perfsyn(&[
        "bench",
        "fit",
        "--cases",
        "21",
        "--json",
        "--write-series",
        series.to_str().unwrap(),
    ]));
    assert_eq!(r["cases"], 21);
    let acc = r["accuracy"].as_f64().unwrap();
    assert!((0.0..=1.0).contains(&acc));
    assert!(r["false_bottleneck_rate"].as_f64().unwrap() <= acc.max(1.0));
    let lines = std::fs::read_to_string(&series).unwrap();
    assert_eq!(lines.lines().count(), 21);
}
