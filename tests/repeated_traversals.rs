//! End-to-end tests of Toddler's repeated-traversal oracle through the real binary, the real
//! instrumented worker and the real trace build: a planted traversal is reported with its
//! file:line, a nested loop that reads each value once is not. Expected lines are found by
//! their source text, never by number.

mod common;

/// The case `id` of `bench toddler --json`'s cases.
fn case_of(cases: &[serde_json::Value], id: &str) -> serde_json::Value {
    cases
        .iter()
        .find(|c| c["id"] == id)
        .unwrap_or_else(|| panic!("no case {id}"))
        .clone()
}

#[test]
fn explore_reports_a_planted_cache_scan_at_its_loop() {
    let dir = tempfile::tempdir().unwrap();
    let run = dir.path().join("run.json");
    let run_arg = run.to_str().unwrap();
    let r = common::perfsyn_json(&[
        "explore",
        "--method",
        "TraversalBugs::cache_get",
        "--json",
        "--seed",
        "1",
        "--max-programs",
        "150",
        "--confirm-top",
        "0",
        "--out",
        run_arg,
    ]);
    let found = r["repeated_traversals"]
        .as_array()
        .unwrap_or_else(|| panic!("no repeated_traversals list: {r}"));
    let first = found
        .first()
        .unwrap_or_else(|| panic!("the planted scan is not reported: {r}"));
    let read = first["read"].as_str().expect("read");
    assert!(read.starts_with("corpus/src/traversals.rs:"), "{first}");
    assert!(
        common::source_of(read).contains("for (i, &key) in self.keys.iter()")
            || common::source_of(read).contains("if key == k"),
        "{read} is `{}`",
        common::source_of(read)
    );
    assert!(first["similar_ratio"].as_f64().unwrap() >= 0.7, "{first}");
    assert!(first["iterations"].as_u64().unwrap() >= 10, "{first}");
    assert!(
        first["program"].as_str().unwrap().contains("cache_get"),
        "{first}"
    );
    assert!(
        r["repeated_traversals_ms"].is_u64(),
        "the oracle's own time is not reported: {r}"
    );

    // The same explore without the oracle: the same class verdict, no finding, no time.
    let off = common::perfsyn_json(&[
        "explore",
        "--method",
        "TraversalBugs::cache_get",
        "--json",
        "--seed",
        "1",
        "--max-programs",
        "150",
        "--confirm-top",
        "0",
        "--no-repeated-traversals",
    ]);
    for field in ["verdict", "expected", "empirical"] {
        assert_eq!(off[field], r[field], "{field} differs without the oracle");
    }
    assert_eq!(off["repeated_traversals"].as_array().map(Vec::len), Some(0));
    assert!(off.get("repeated_traversals_ms").is_none(), "{off}");

    // An exported test's header names the loop and the read.
    let (code, out, err) = common::perfsyn_text(&["export", run_arg, "--format", "test"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains(
            "Repeated traversal (Toddler) in the loop of successive calls of TraversalBugs::cache_get"
        ),
        "{out}"
    );
    assert!(out.contains(read), "{out}");
}

#[test]
fn explore_finds_a_walk_made_only_on_a_hit_by_repeating_the_programs_own_keys() {
    let r = common::perfsyn_json(&[
        "explore",
        "--method",
        "TraversalBugs::recent_get",
        "--json",
        "--seed",
        "1",
        "--max-programs",
        "150",
        "--confirm-top",
        "0",
    ]);
    let found = r["repeated_traversals"]
        .as_array()
        .unwrap_or_else(|| panic!("no repeated_traversals list: {r}"));
    let walk = found
        .iter()
        .find(|f| {
            f["read"]
                .as_str()
                .is_some_and(|read| common::source_of(read).contains("self.recent.iter().position"))
        })
        .unwrap_or_else(|| panic!("the walk of the recency list is not reported: {r}"));
    assert!(
        walk["program_kind"]
            .as_str()
            .unwrap()
            .contains("calls in a row on its own keys"),
        "{walk}"
    );
}

#[test]
fn bench_toddler_flags_the_planted_scan_and_not_a_nested_single_pass() {
    let b = common::perfsyn_json(&["bench", "toddler", "--json"]);
    let cases = b["cases"].as_array().expect("cases");
    assert!(cases.len() >= 30, "{b}");
    let case = |id: &str| case_of(cases, id);
    let scan = case("cache-get-scan");
    assert_eq!(scan["flagged"], true, "{scan}");
    let read = scan["read"].as_str().expect("read");
    assert!(
        common::source_of(read).contains("for (i, &key) in self.keys.iter()")
            || common::source_of(read).contains("if key == k"),
        "{read} is `{}`",
        common::source_of(read)
    );
    let rows = case("nested-rows-columns");
    assert_eq!(rows["flagged"], false, "{rows}");
    // Every call reads its row (a case whose calls read nothing would pass for no reason).
    assert!(
        rows["reads"].as_u64().unwrap() >= 20 * 2,
        "the nested loop did not read its rows: {rows}"
    );
    for field in ["recall", "false_positives", "slowdown"] {
        assert!(b[field].is_number(), "{field} missing: {b}");
    }
}

#[test]
fn bench_toddler_reports_the_held_out_cases_apart() {
    let b = common::perfsyn_json(&["bench", "toddler", "--json"]);
    let cases = b["cases"].as_array().expect("cases");
    let count = |split: &str, bug: bool| {
        cases
            .iter()
            .filter(|c| c["split"] == split && c["bug"] == bug)
            .count() as u64
    };
    for (split, field) in [("held-out", "held_out"), ("tuning", "tuning")] {
        let f = &b[field];
        assert_eq!(f["bugs"].as_u64(), Some(count(split, true)), "{field}: {f}");
        assert_eq!(
            f["non_bugs"].as_u64(),
            Some(count(split, false)),
            "{field}: {f}"
        );
        let flagged = |bug: bool| {
            cases
                .iter()
                .filter(|c| c["split"] == split && c["bug"] == bug && c["flagged"] == true)
                .count() as u64
        };
        assert_eq!(
            f["bugs_found"].as_u64(),
            Some(flagged(true)),
            "{field}: {f}"
        );
        assert_eq!(
            f["false_positives"].as_u64(),
            Some(flagged(false)),
            "{field}: {f}"
        );
    }
    assert!(
        count("held-out", true) >= 5 && count("held-out", false) >= 5,
        "{b}"
    );
    // A scan inside std's iterator code (`collect`, then `contains`) is named by the line of
    // the crate that called it, not by std's macro.
    let solr = case_of(cases, "solr-9-filter-keywords");
    let read = solr["read"].as_str().expect("flagged");
    assert!(read.starts_with("corpus/src/traversals.rs:"), "{solr}");
}

#[test]
fn bench_toddler_finds_a_helper_loop_in_one_call_at_its_call_site_and_not_a_helper_reading_its_element(
) {
    let b = common::perfsyn_json(&["bench", "toddler", "--json"]);
    let cases = b["cases"].as_array().expect("cases");
    let case = |id: &str| case_of(cases, id);
    // `is_subset` asks `other_contains` per element, a linear scan each: quadratic in the one
    // call the program makes. The loop is named by the line calling the helper.
    let subset = case("subset-contains-per-element");
    assert_eq!(subset["calls"], 1, "{subset}");
    assert_eq!(subset["flagged"], true, "{subset}");
    let loop_at = subset["loop_at"].as_str().expect("a loop inside the call");
    assert!(
        common::source_of(loop_at).contains("self.items.iter().all(|&v| self.other_contains(v))"),
        "{loop_at} is `{}`",
        common::source_of(loop_at)
    );
    let read = subset["read"].as_str().expect("read");
    assert!(
        common::source_of(read).contains("self.other.iter().any(|&v| v == x)"),
        "{read} is `{}`",
        common::source_of(read)
    );
    // The same shape whose helper reads only its own element is linear: not reported.
    let own = case("helper-reads-own-element");
    assert_eq!(own["flagged"], false, "{own}");
    assert!(own["reads"].as_u64().unwrap() >= 64, "{own}");
}

#[test]
fn bench_toddler_cuts_inline_loops_in_one_call_at_headers_recovered_from_the_binary() {
    let b = common::perfsyn_json(&["bench", "toddler", "--json"]);
    let recovered = &b["recovered_loops"];
    assert!(
        recovered["marked_loops"].as_u64().unwrap_or(0) > 100,
        "{recovered}"
    );
    let cases = b["cases"].as_array().expect("cases");
    let case = |id: &str| case_of(cases, id);
    let header_loop = |c: &serde_json::Value| {
        c["inner_loops"]
            .as_array()
            .into_iter()
            .flatten()
            .find(|l| l["marked_by"] == "header")
            .cloned()
            .unwrap_or_else(|| panic!("no loop recovered from the binary was judged: {c}"))
    };
    // A dedup scanning its result per element (the scan inlined): the loop is the one over
    // the elements, named by its own line, one iteration per element.
    let dedup = case("dedup-scan-result");
    assert_eq!(dedup["flagged"], true, "{dedup}");
    let loop_at = dedup["loop_at"].as_str().expect("a loop inside the call");
    assert!(
        common::source_of(loop_at).contains("for &v in &self.items"),
        "{loop_at} is `{}`",
        common::source_of(loop_at)
    );
    let l = header_loop(&dedup);
    assert_eq!(l["at"].as_str(), Some(loop_at), "{dedup}");
    assert!(l["iterations"].as_u64().unwrap() >= 60, "{l}");
    // A matrix of products, one row per element by an inlined helper: judged at the loop
    // over the rows (each iteration reads all of `other` and writes a new row), not reported.
    let rows = case("helper-writes-product-row");
    assert_eq!(rows["flagged"], false, "{rows}");
    let l = header_loop(&rows);
    assert!(l["iterations"].as_u64().unwrap() >= 60, "{l}");
    let at = common::source_of(l["at"].as_str().unwrap());
    assert!(
        at.contains("self.fill_row(i)") || at.contains("for i in 0..n"),
        "{l} is `{at}`"
    );
}

#[test]
fn bench_toddler_does_not_report_output_bound_rows_but_reports_a_rebuilt_temporary() {
    let b = common::perfsyn_json(&["bench", "toddler", "--json"]);
    let cases = b["cases"].as_array().expect("cases");
    let case = |id: &str| case_of(cases, id);
    // Every call re-reads all values and keeps a new result for each: output-bound.
    for id in ["product-row-kept", "helper-writes-product-row"] {
        let c = case(id);
        assert_eq!(c["flagged"], false, "{c}");
    }
    // Every call stores as many values, but the same ones (Toddler's Solr bug): reported.
    let solr = case("solr-9-filter-keywords");
    assert_eq!(solr["flagged"], true, "{solr}");
}

#[test]
fn bench_toddler_does_not_report_equal_values_read_from_new_memory() {
    let b = common::perfsyn_json(&["bench", "toddler", "--json"]);
    let cases = b["cases"].as_array().expect("cases");
    let c = case_of(cases, "single-pass-repeated-input");
    // Every call reads a record no call read before, whose bytes equal the others': the
    // values repeat across the calls, the memory does not.
    assert_eq!(c["flagged"], false, "{c}");
}
