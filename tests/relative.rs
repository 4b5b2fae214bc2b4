//! The relative oracle end to end: a planted regression in a version group is reported with
//! both ratios, identical versions are not, and every run leaves a run file and a plot.
//!
//! The real binary with the real (instrumented) worker and small program budgets. No test
//! asserts a wall-clock time; the one significance assertion (identical versions are not
//! significantly different) holds because significance also needs a 5% gap (see `confirm`).

use std::path::Path;

mod common;
use common::perfsyn;

/// Runs `explore --json` with a run file in `dir` and returns the report.
fn explore(dir: &Path, method: &str, extra: &[&str]) -> serde_json::Value {
    let out_file = dir.join("run.json");
    let mut args = vec![
        "explore",
        "--method",
        method,
        "--max-programs",
        "300",
        "--seed",
        "1",
        "--json",
        "--out",
        out_file.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    let out = perfsyn(&args);
    assert!(
        out.status.success(),
        "explore {method} failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("explore --json prints JSON")
}

#[test]
fn planted_regression_is_reported_with_cost_and_time_ratios() {
    let dir = tempfile::tempdir().unwrap();
    let r = explore(dir.path(), "OrderedMap::remove", &[]);
    assert_eq!(r["oracle"], "relative");
    // One program under the group's name, run by a worker binding each version.
    assert_eq!(r["type"], "OrderedMap");
    assert_eq!(r["new_type"], "NewOrderedMap");
    assert_eq!(r["ref_type"], "OldOrderedMap");
    assert_eq!(r["verdict"], "bottleneck", "{}", r["reason"]);
    let ratio = r["ratio"].as_f64().expect("ratio is a number");
    assert!(ratio >= 1.2, "new remove is O(n): ratio {ratio}");
    // Two-sided by default: the largest regression is judged and confirmed on its own.
    let slower = &r["sides"]["regression"];
    assert_eq!(slower["passes"], true, "{slower}");
    assert!(slower["ratio"].as_f64().unwrap() >= 1.2, "{slower}");
    assert!(slower["time_ratio"].as_f64().is_some(), "{slower}");
    assert_eq!(
        slower["program"]["cost"].as_f64(),
        slower["program"]["metric_value"].as_f64()
    );
    let time_ratio = r["time_ratio"].as_f64().expect("time_ratio is a number");
    assert!(time_ratio.is_finite() && time_ratio > 0.0);
    assert!(r["time_significant"].is_boolean());
    let c = &r["confirmation"];
    assert!(c["reps"].as_u64().unwrap() >= 30);
    let confirmed = c["confirmed"].as_array().unwrap();
    assert_eq!(confirmed.len(), 3, "--confirm-top defaults to 3: {c}");
    for (i, x) in confirmed.iter().enumerate() {
        assert_eq!(x["rank"], i + 1);
        assert_eq!(x["kind"], "relative");
        assert_eq!(x["a"]["label"], "new");
        assert_eq!(x["b"]["label"], "old");
        for arm in [&x["a"], &x["b"]] {
            let t = &arm["time"];
            assert!(t["n"].as_u64().unwrap() + t["outliers"].as_u64().unwrap() >= 30);
            assert!(t["ci95_low_ns"].as_f64().unwrap() <= t["mean_ns"].as_f64().unwrap());
            assert!(t["mean_ns"].as_f64().unwrap() <= t["ci95_high_ns"].as_f64().unwrap());
        }
        // The deterministic cost ratio does not depend on timing.
        assert!(x["cost_ratio"].as_f64().unwrap() >= 1.2, "{x}");
    }
    assert_eq!(r["time_ratio"], confirmed[0]["time_ratio"]);
    assert!(dir.path().join("run.json").is_file());
}

#[test]
fn identical_versions_are_no_bottleneck_with_equal_costs_and_a_timed_confirmation() {
    let dir = tempfile::tempdir().unwrap();
    let r = explore(
        dir.path(),
        "MinStack::push",
        &["--workers", "1", "--confirm-reps", "100"],
    );
    assert_eq!(r["oracle"], "relative");
    assert_eq!(r["verdict"], "no-bottleneck", "{}", r["reason"]);
    assert_eq!(r["ratio"].as_f64(), Some(1.0));
    let confirmed = r["confirmation"]["confirmed"].as_array().unwrap();
    assert!(!confirmed.is_empty());
    assert_eq!(confirmed[0]["cost_ratio"].as_f64(), Some(1.0));
    // Whether the two twins' times differ significantly is a wall-clock outcome (under a
    // loaded `cargo test` it once came out 1.06 apart with p = 0.036), so it is not asserted
    // here; `confirm::significant`'s unit tests cover the rule on fixed samples. The field is
    // there and is a boolean.
    assert!(r["time_significant"].is_boolean(), "{}", confirmed[0]);
}

#[test]
fn human_output_names_the_run_file_and_the_plot() {
    let dir = tempfile::tempdir().unwrap();
    let run = dir.path().join("r.json");
    let out = perfsyn(&[
        "explore",
        "--method",
        "MinStack::push",
        "--max-programs",
        "100",
        "--seed",
        "2",
        "--out",
        run.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("wall-clock confirmation"), "{text}");
    assert!(
        text.contains(&format!("run file: {}", run.display())),
        "{text}"
    );
    let svg = dir.path().join("r.svg");
    assert!(text.contains(&format!("plot: {}", svg.display())), "{text}");
    assert!(svg.is_file());
}

#[test]
fn relative_plot_is_valid_svg_showing_both_versions() {
    let dir = tempfile::tempdir().unwrap();
    explore(dir.path(), "OrderedMap::remove", &["--confirm-top", "0"]);
    let svg = std::fs::read_to_string(dir.path().join("run.svg")).expect("the plot exists");
    let doc = roxmltree::Document::parse(&svg).expect("the plot is well-formed XML");
    assert_eq!(doc.root_element().tag_name().name(), "svg");
    let texts: Vec<String> = doc
        .descendants()
        .filter(|n| n.has_tag_name("text"))
        .filter_map(|n| n.text().map(|t| t.trim().to_string()))
        .collect();
    for label in ["new (NewOrderedMap)", "old (OldOrderedMap)", "input size"] {
        assert!(
            texts.iter().any(|t| t == label),
            "no {label:?} in {texts:?}"
        );
    }
    let desc = doc
        .descendants()
        .find(|n| n.has_tag_name("desc"))
        .and_then(|n| n.text())
        .expect("a <desc>");
    assert!(desc.contains("new (") && desc.contains("old ("), "{desc}");
    // Two measured series: one polyline each, and dots.
    let lines = doc
        .descendants()
        .filter(|n| n.has_tag_name("polyline"))
        .count();
    assert!(lines >= 2, "{lines} polylines");
}

#[test]
fn asymptotic_plot_has_points_fit_and_expected_class() {
    let dir = tempfile::tempdir().unwrap();
    let r = explore(dir.path(), "EnumeratedDistribution::probability", &[]);
    assert_eq!(r["oracle"], "asymptotic");
    let c = &r["confirmation"]["confirmed"][0];
    assert_eq!(c["kind"], "sweep");
    assert_eq!(c["a"]["label"], "largest");
    assert!(c["a"]["input_size"].as_u64() > c["b"]["input_size"].as_u64());
    let svg = std::fs::read_to_string(dir.path().join("run.svg")).unwrap();
    let doc = roxmltree::Document::parse(&svg).expect("well-formed XML");
    let texts: Vec<&str> = doc
        .descendants()
        .filter(|n| n.has_tag_name("text"))
        .filter_map(|n| n.text().map(str::trim))
        .collect();
    assert!(texts.iter().any(|t| t.starts_with("measured")), "{texts:?}");
    assert!(
        texts.iter().any(|t| t.starts_with("empirical O(")),
        "{texts:?}"
    );
    assert!(texts.contains(&"expected O(1) fit"), "{texts:?}");
}

/// A regression that needs two coordinated mutations: the new `SlotTable::locate` scans its
/// slot bounds where the old one bisects them, so it is slower only when the table is large
/// (a constructor argument) *and* the looked-up value lies far along it (a call argument);
/// either alone changes nothing measurable. The search reaches it in one step from a large
/// table by giving the call's argument a value the program holds (the table's size).
#[test]
fn a_regression_needing_a_large_table_and_a_far_value_is_found() {
    let dir = tempfile::tempdir().unwrap();
    let r = explore(dir.path(), "SlotTable::locate", &["--confirm-top", "0"]);
    let regression = &r["sides"]["regression"];
    assert_eq!(
        regression["passes"], true,
        "no regression found: {}",
        r["reason"]
    );
    assert!(
        regression["ratio"].as_f64().unwrap() > 10.0,
        "{}",
        regression
    );
}
