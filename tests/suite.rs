//! `perfsyn suite` end to end: the real binary and the real worker on a few cases with
//! small budgets, so that CI catches a regression in detection. The full suite is a
//! command, not a test (see README); no test here asserts a time.

use std::process::Command;

#[test]
fn suite_detects_planted_cases_and_reports_no_false_positive_on_controls() {
    let out = Command::new(env!("CARGO_BIN_EXE_perfsyn"))
        .args([
            "suite",
            "--cases",
            "9,20,C1,C11",
            "--strategy",
            "astar",
            "--budget-per-case",
            "3s",
            "--seed",
            "1",
            "--json",
        ])
        .output()
        .expect("run the perfsyn binary");
    assert!(
        out.status.success(),
        "suite failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let r: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
    let cases = r["cases"].as_array().expect("cases is a list");
    assert_eq!(cases.len(), 4);
    let case = |id: &str| {
        cases
            .iter()
            .find(|c| c["id"] == id)
            .unwrap_or_else(|| panic!("case {id} missing: {r}"))
    };
    for c in cases {
        for key in ["id", "method", "expected", "strategies"] {
            assert!(!c[key].is_null(), "case without {key}: {c}");
        }
        let run = &c["strategies"]["astar"];
        for key in ["outcome", "mutations", "verdict"] {
            assert!(!run[key].is_null(), "run without {key}: {run}");
        }
        for key in [
            "tte_ms",
            "time_ratio",
            "ratio",
            "regression_ratio",
            "improvement_ratio",
            "empirical",
        ] {
            assert!(run.get(key).is_some(), "run without {key}: {run}");
        }
    }
    // ID 9 (IdentityStack.removeAll builds a useless HashSet): the new version is slower.
    let id9 = &case("9")["strategies"]["astar"];
    assert_eq!(case("9")["expected"], "slower");
    assert_eq!(id9["outcome"], "detected", "{id9}");
    // Found by the two-sided oracle (nothing told the search which side to look for).
    assert!(id9["regression_ratio"].as_f64().unwrap() >= 1.2, "{id9}");
    assert!(id9["tte_ms"].is_u64(), "{id9}");
    // ID 20 (EnumeratedIntegerDistribution.probability): O(n) where O(1) is documented.
    let id20 = &case("20")["strategies"]["astar"];
    assert_eq!(case("20")["expected"], "O(n)");
    assert_eq!(id20["outcome"], "detected", "{id20}");
    // Controls: identical versions, and a method that is O(1) as documented.
    for id in ["C1", "C11"] {
        let c = case(id);
        assert_eq!(c["expected"], "none");
        assert_eq!(
            c["strategies"]["astar"]["outcome"], "correct-negative",
            "{c}"
        );
    }
    let s = &r["summary"]["astar"];
    assert_eq!(s["detected"], 2, "{s}");
    assert_eq!(s["positives"], 2, "{s}");
    assert_eq!(s["false_positives"], 0, "{s}");
    assert_eq!(s["correct_negatives"], 2, "{s}");
    assert_eq!(s["controls"], 2, "{s}");
    assert_eq!(s["failed"].as_array().map(Vec::len), Some(0), "{s}");
}

#[test]
fn unknown_case_pattern_is_one_clear_error() {
    let out = Command::new(env!("CARGO_BIN_EXE_perfsyn"))
        .args(["suite", "--cases", "no-such-case", "--json"])
        .output()
        .expect("run the perfsyn binary");
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("matches no case"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}
