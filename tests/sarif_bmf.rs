//! `hunt --sarif FILE --bmf FILE` through the real binary and worker, on a planted bottleneck
//! (`TombstoneSet::is_empty`, documented O(1), scans every slot). The SARIF is checked for
//! what SARIF 2.1.0 requires and what GitHub code scanning reads (version, `$schema`, the
//! tool's name and rules, each result's rule id, message, file and line, fingerprint), and
//! validated against the published SARIF 2.1.0 schema (`tests/data/sarif-2.1.0.json`, as
//! shipped in Microsoft's `@microsoft/sarif-multitool-linux` 5.7.0 npm package). The BMF file
//! is validated against Bencher's published BMF schema (`tests/data/bmf.json`, from
//! bencher.dev's BMF reference) and its name limits.

use serde_json::Value;

mod common;
use common::perfsyn_text;

#[test]
fn a_hunt_finding_is_one_sarif_result_at_its_hot_line_and_bmf_measures() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("hunt");
    let sarif = tmp.path().join("perfsyn.sarif");
    let bmf = tmp.path().join("perfsyn-bmf.json");
    let (code, _, err) = perfsyn_text(&[
        "hunt",
        "--type",
        "TombstoneSet",
        "--max-programs-per-method",
        "200",
        "--seed",
        "1",
        "--out",
        dir.to_str().unwrap(),
        "--sarif",
        sarif.to_str().unwrap(),
        "--bmf",
        bmf.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let log: Value = serde_json::from_str(&std::fs::read_to_string(&sarif).unwrap()).unwrap();
    common::assert_valid_sarif(&log);
    assert_eq!(log["version"], "2.1.0");
    assert!(
        log["$schema"].as_str().unwrap().contains("sarif-2.1.0"),
        "{log}"
    );
    let runs = log["runs"].as_array().unwrap();
    assert_eq!(runs.len(), 1);
    let driver = &runs[0]["tool"]["driver"];
    assert_eq!(driver["name"], "perfsyn");
    let rules: Vec<&str> = driver["rules"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["id"].as_str().unwrap())
        .collect();
    let results = runs[0]["results"].as_array().unwrap();
    assert!(results.len() <= 25_000);
    for r in results {
        let rule = r["ruleId"].as_str().unwrap();
        assert!(rules.contains(&rule), "{rule} not among {rules:?}");
        assert_eq!(rules[r["ruleIndex"].as_u64().unwrap() as usize], rule);
        assert!(["error", "warning", "note"].contains(&r["level"].as_str().unwrap()));
        let text = r["message"]["text"].as_str().unwrap();
        assert!(!text.is_empty() && text.len() < 1024, "{text}");
        let loc = &r["locations"][0]["physicalLocation"];
        assert!(loc["artifactLocation"]["uri"].is_string(), "{r}");
        assert!(loc["region"]["startLine"].as_u64().unwrap() >= 1, "{r}");
        assert!(
            r["partialFingerprints"]
                .as_object()
                .is_some_and(|f| !f.is_empty()),
            "{r}"
        );
    }
    let finding = results
        .iter()
        .find(|r| {
            r["message"]["text"]
                .as_str()
                .unwrap()
                .contains("TombstoneSet::is_empty")
        })
        .unwrap_or_else(|| panic!("no result for is_empty: {log}"));
    assert_eq!(finding["ruleId"], "perfsyn/asymptotic");
    assert_eq!(
        finding["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
        "corpus/src/planted.rs"
    );
    // At the run's top hot line in the crate, as summary.json names it.
    let summary: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("summary.json")).unwrap()).unwrap();
    let row = summary["methods"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["method"] == "TombstoneSet::is_empty")
        .unwrap();
    assert_eq!(
        finding["locations"][0]["physicalLocation"]["region"]["startLine"], row["hot_line"]["line"],
        "{row}"
    );
    // Methods within their documented class are not results.
    assert_eq!(results.len(), 1, "{log}");

    let b: Value = serde_json::from_str(&std::fs::read_to_string(&bmf).unwrap()).unwrap();
    common::assert_valid(&b, include_str!("data/bmf.json"), "BMF");
    for (bench, measures) in b.as_object().unwrap() {
        // Bencher's limits: a benchmark name of at most 1024 characters, a measure's slug 64.
        assert!(bench.len() <= 1024, "{bench}");
        assert!(
            measures.as_object().unwrap().keys().all(|m| m.len() <= 64),
            "{measures}"
        );
    }
    let m = &b["TombstoneSet::is_empty"];
    assert!(
        m["perfsyn-cost-at-largest-size"]["value"].as_f64().unwrap() > 0.0,
        "{b}"
    );
    let slope = m["perfsyn-fitted-exponent"]["value"].as_f64().unwrap();
    assert!((0.8..1.2).contains(&slope), "{b}");
    for (_, measures) in b.as_object().unwrap() {
        for (_, v) in measures.as_object().unwrap() {
            assert!(v["value"].is_f64(), "{b}");
        }
    }
}
