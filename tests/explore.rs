//! End-to-end tests of `perfsyn explore` through the real binary and the real instrumented
//! worker. Budgets are program counts (`--max-programs`), so results are deterministic.

use serde_json::Value;

mod common;
use common::{perfsyn_json, perfsyn_text};

/// `explore` without the repeated-traversal and repeated-computation checks, which change no
/// verdict (`explore/toddler.rs`, `explore/memoize.rs`) and ran the best program again on the
/// trace build; the tests below judge verdicts and classes. `explore_json_has_the_documented_
/// fields` runs every phase ([`explore_all_phases`]); `tests/repeated_traversals.rs` and
/// `tests/memoization.rs` guard the checks themselves.
fn explore(method: &str, extra: &[&str]) -> Value {
    let mut with = extra.to_vec();
    with.extend(["--no-repeated-traversals", "--no-repeated-computations"]);
    explore_all_phases(method, &with)
}

/// `explore --json --seed 5` with every phase at its default (300 programs unless `extra`
/// sets a budget).
fn explore_all_phases(method: &str, extra: &[&str]) -> Value {
    let mut args = vec!["explore", "--method", method, "--json", "--seed", "5"];
    if !extra
        .iter()
        .any(|a| *a == "--max-programs" || *a == "--budget")
    {
        args.extend(["--max-programs", "300"]);
    }
    args.extend(extra);
    perfsyn_json(&args)
}

fn s<'a>(v: &'a Value, k: &str) -> &'a str {
    v[k].as_str().unwrap_or("")
}

#[test]
fn explore_json_has_the_documented_fields() {
    let r = explore_all_phases("Vec::dedup", &["--max-programs", "200"]);
    for k in [
        "method",
        "oracle",
        "strategy",
        "seed",
        "verdict",
        "expected",
        "empirical",
        "best",
        "points",
        "stats",
    ] {
        assert!(r.get(k).is_some(), "missing {k} in {r}");
    }
    assert_eq!(s(&r, "method"), "Vec::dedup");
    assert_eq!(s(&r, "oracle"), "asymptotic");
    assert_eq!(s(&r, "strategy"), "astar");
    assert_eq!(r["seed"], 5);
    for k in ["rust", "mutations", "input_size", "cost"] {
        assert!(r["best"].get(k).is_some(), "missing best.{k}");
    }
    for k in [
        "programs",
        "valid",
        "panics",
        "crashes",
        "timeouts",
        "elapsed_ms",
    ] {
        assert!(r["stats"].get(k).is_some(), "missing stats.{k}");
    }
    assert!(s(&r["best"], "rust").contains(".dedup()"));
    assert!(r["points"]
        .as_array()
        .unwrap()
        .iter()
        .all(|p| p.as_array().unwrap().len() == 2));
}

#[test]
fn vec_insert_and_remove_reach_linear_cost() {
    for m in ["Vec::insert", "Vec::remove"] {
        let r = explore(m, &[]);
        assert_eq!(s(&r, "empirical"), "O(n)", "{m}: {r}");
        assert_ne!(s(&r, "verdict"), "bottleneck", "{m} is documented O(n)");
    }
}

#[test]
fn std_methods_that_meet_their_documented_class_are_not_reported() {
    let push = explore("Vec::push", &[]);
    assert_eq!(s(&push, "empirical"), "O(1)", "{push}");
    assert_eq!(s(&push, "verdict"), "no-bottleneck");
    let sort = explore("Vec::sort", &[]);
    assert!(
        ["O(n log n)", "O(n)"].contains(&s(&sort, "empirical")),
        "{sort}"
    );
    for m in [
        "Vec::sort",
        "BTreeMap::insert",
        "VecDeque::push_front",
        "BTreeSet::contains",
    ] {
        let r = if m == "Vec::sort" {
            sort.clone()
        } else {
            explore(m, &[])
        };
        assert_ne!(s(&r, "verdict"), "bottleneck", "{m} reported: {r}");
    }
}

#[test]
fn planted_linear_scan_documented_constant_is_found_by_every_strategy() {
    for strategy in ["astar", "aco", "random"] {
        let r = explore(
            "EnumeratedDistribution::probability",
            &["--strategy", strategy],
        );
        assert_eq!(s(&r, "verdict"), "bottleneck", "{strategy}: {r}");
        assert_eq!(s(&r, "expected"), "O(1)");
        assert_eq!(s(&r, "empirical"), "O(n)", "{strategy}: {r}");
    }
}

#[test]
fn same_seed_and_program_budget_give_the_same_result_whatever_the_workers() {
    let a = explore(
        "Vec::contains",
        &[
            "--max-programs",
            "300",
            "--workers",
            "1",
            "--strategy",
            "aco",
        ],
    );
    let b = explore(
        "Vec::contains",
        &[
            "--max-programs",
            "300",
            "--workers",
            "2",
            "--strategy",
            "aco",
        ],
    );
    assert_eq!(a["best"]["rust"], b["best"]["rust"]);
    assert_eq!(a["verdict"], b["verdict"]);
    assert_eq!(a["points"], b["points"]);
}

#[test]
fn bad_options_are_one_line_errors() {
    for args in [
        vec!["explore", "--method", "Vec::dedup", "--budget", "0s"],
        vec!["explore", "--method", "Vec::dedup", "--workers", "0"],
        vec!["explore", "--method", "Vec::dedup", "--strategy", "dfs"],
        vec!["explore", "--method", "Vec::dedup", "--metric", "joules"],
        vec!["explore", "--method", "Vec::nope"],
        vec!["explore", "--method", "Vec::dedup", "--expect", "O(fast)"],
    ] {
        let (code, out, err) = perfsyn_text(&args);
        assert_ne!(code, 0, "{args:?} succeeded: {out}");
        assert!(!err.contains("panicked"), "{args:?} panicked: {err}");
        let first = err.lines().next().unwrap_or("");
        assert!(first.starts_with("error"), "{args:?}: {err}");
    }
    let (_, _, err) = perfsyn_text(&["explore", "--method", "Vec::nope"]);
    assert!(err.contains("Vec::"), "suggests close matches: {err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
}

/// A method without a documented class is `undocumented` even when no class could be
/// measured (one program: the input never grows), with why; `inconclusive` is kept for
/// documented classes the run could not judge.
#[test]
fn an_undocumented_method_without_a_measured_class_is_undocumented_not_inconclusive() {
    let r = explore("Vec::len", &["--max-programs", "1"]);
    assert_eq!(s(&r, "verdict"), "undocumented", "{r}");
    assert!(
        s(&r, "reason").contains("no class measured: only 1 distinct sizes"),
        "{r}"
    );
}
