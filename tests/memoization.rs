//! End-to-end tests of MemoizeIt's repeated-computation oracle through the real binary, the
//! real instrumented worker and the real trace build: a helper that parses the same text on
//! every call is reported with its file:line, its caller and the cache to add; a helper
//! whose input differs on every call is not. Expected lines are found by their source text,
//! never by number.

mod common;

#[test]
fn explore_reports_a_reparsed_configuration_with_its_line_and_cache() {
    let r = common::perfsyn_json(&[
        "explore",
        "--method",
        "MemoCases::config_value",
        "--json",
        "--seed",
        "1",
        "--max-programs",
        "60",
        "--confirm-top",
        "0",
    ]);
    let found = r["memoization"]
        .as_array()
        .unwrap_or_else(|| panic!("no memoization list: {r}"));
    let first = found
        .first()
        .unwrap_or_else(|| panic!("the re-parsed configuration is not reported: {r}"));
    assert_eq!(first["function"], "parse_config", "{first}");
    let at = first["at"].as_str().expect("at");
    assert!(
        common::source_of(at).contains("pub fn parse_config"),
        "{at} is `{}`",
        common::source_of(at)
    );
    let caller = first["callers"][0].as_str().expect("a caller");
    assert!(
        common::source_of(caller).contains("parse_config(&self.config)"),
        "{caller} is `{}`",
        common::source_of(caller)
    );
    assert_eq!(first["suggestion"], "single, global", "{first}");
    assert!(first["hit_ratio"].as_f64().unwrap() >= 0.5, "{first}");
    assert!(first["edges_saved"].as_u64().unwrap() > 0, "{first}");
    // std's own functions (the parsed vector's drop) are not reported.
    for o in found {
        let at = o["at"].as_str().unwrap();
        assert!(!at.starts_with("library/"), "std reported: {o}");
    }
}

#[test]
fn bench_memoize_finds_the_planted_helpers_and_not_the_varying_ones() {
    let b = common::perfsyn_json(&["bench", "memoize", "--json"]);
    let cases = b["cases"].as_array().expect("cases");
    let case = |id: &str| {
        cases
            .iter()
            .find(|c| c["id"] == id)
            .unwrap_or_else(|| panic!("no case {id}"))
            .clone()
    };
    let parse = case("parse-across-calls");
    assert_eq!(parse["found"], true, "{parse}");
    assert_eq!(parse["rank"], 1, "{parse}");
    let at = parse["at"].as_str().expect("at");
    assert!(
        common::source_of(at).contains("pub fn parse_config"),
        "{at}"
    );
    let reset = case("redundant-reset");
    assert_eq!(
        reset["found"], true,
        "a redundant side effect is reported: {reset}"
    );
    // A helper of an integer argument (never loaded: seen through its result), a helper of a
    // different text on every call, and a key wrapper's `Hash` of a different probe key on
    // every call (the probe key's own accesses are the program's data) are not reported.
    for id in [
        "hash-varying",
        "parse-varying",
        "format-varying",
        "key-hash-varying",
    ] {
        let c = case(id);
        assert_eq!(c["found"], false, "{c}");
        assert!(c["events"].as_u64().unwrap() > 0, "nothing traced: {c}");
    }
    for field in ["recall", "false_positives", "slowdown"] {
        assert!(b[field].is_number(), "{field} missing: {b}");
    }
}

#[test]
fn no_repeated_computations_skips_memoizeit_alone_and_says_so() {
    let off = common::perfsyn_json(&[
        "explore",
        "--method",
        "MemoCases::config_value",
        "--json",
        "--seed",
        "1",
        "--max-programs",
        "60",
        "--confirm-top",
        "0",
        "--no-repeated-computations",
    ]);
    assert_eq!(
        off["memoization"].as_array().map(Vec::len),
        Some(0),
        "{off}"
    );
    let why = off["memoization_skipped"].as_str().unwrap_or_default();
    assert!(why.contains("--no-repeated-computations"), "{off}");
    // Toddler, its sibling, still ran.
    assert!(off.get("repeated_traversals_skipped").is_none(), "{off}");
    assert!(off["repeated_traversals_ms"].is_u64(), "{off}");
}
