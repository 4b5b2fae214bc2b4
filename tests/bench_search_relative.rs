//! `perfsyn bench search` on its relative tuning cases, end to end: the real binary, the
//! pair of workers bound to one version each, a tiny program budget. Checks that the
//! relative cases are run and judged, and that the gap-floor table judges the same explored
//! programs the verdict read (at the shipped floor, the table's outcome is the verdict's).

mod common;

#[test]
fn relative_tuning_cases_are_judged_and_the_floor_table_matches_the_verdict() {
    let r = common::perfsyn_json(&[
        "bench",
        "search",
        "--cases",
        "R3,RK1",
        "--max-programs",
        "40",
        "--seeds",
        "1",
        "--strategies",
        "astar",
        "--json",
    ]);
    // Only relative cases were selected: no asymptotic run, no throughput figures.
    assert_eq!(r["runs"].as_array().map(Vec::len), Some(0), "{r}");
    assert_eq!(r["throughput"].as_array().map(Vec::len), Some(0), "{r}");
    let rel = &r["relative"];
    let min_gap = rel["min_gap"].as_f64().expect("min_gap");
    let runs = rel["runs"].as_array().expect("relative runs");
    assert_eq!(runs.len(), 2, "{rel}");
    let run = |id: &str| runs.iter().find(|x| x["id"] == id).expect(id);
    // R3: the new Leaderboard::top is one pass where the old one sorts a copy.
    assert_eq!(run("R3")["expected"], "faster");
    assert_eq!(run("R3")["outcome"], "detected", "{}", run("R3"));
    assert!(run("R3")["improvement"]["ratio"].as_f64().unwrap() <= 1.0 / 1.2);
    // RK1: a refactor of the same code, so no program shows any gap.
    assert_eq!(run("RK1")["outcome"], "correct-negative", "{}", run("RK1"));
    assert_eq!(run("RK1")["largest_regression_gap"], 0.0);
    assert_eq!(run("RK1")["largest_improvement_gap"], 0.0);
    for x in runs {
        let shipped = x["floors"]
            .as_array()
            .unwrap()
            .iter()
            .find(|f| f["floor"].as_f64() == Some(min_gap) && f["rule"] == "choose")
            .expect("the shipped floor is in the table");
        assert_eq!(shipped["outcome"], x["outcome"], "{x}");
    }
    let floors = rel["floors"].as_array().expect("floor table");
    assert!(floors.iter().any(|f| f["rule"] == "require"));
    for f in floors {
        assert_eq!(
            (f["planted"].as_u64(), f["controls"].as_u64()),
            (Some(1), Some(1))
        );
    }
}
