//! Values mined from the crate's own tests (TestMiner, `synth/src/harness/mine`) end to end:
//! the corpus's planted markup scanner (`corpus/src/markup.rs`) is quadratic only in
//! unclosed `<!` tokens, a fragment of its syntax its own test passes and the built-in
//! strings never hold. Real binary, real worker; deterministic (a program budget, no clock).

mod common;

use common::{perfsyn_json, perfsyn_text};

const METHOD: &str = "MarkupScanner::count_comments";

fn explore(extra: &[&str]) -> serde_json::Value {
    let mut args = vec![
        "explore",
        "--method",
        METHOD,
        "--max-programs",
        "400",
        "--seed",
        "1",
        "--confirm-top",
        "0",
        // No repeated-traversal or repeated-computation check: they change no verdict,
        // ran the best program again on the trace build, and nothing here reads them.
        "--no-repeated-traversals",
        "--no-repeated-computations",
        "--json",
    ];
    args.extend_from_slice(extra);
    perfsyn_json(&args)
}

#[test]
fn list_counts_the_values_a_parameter_can_draw_from_the_tests() {
    let (code, out, err) = perfsyn_text(&["list", "--type", "MarkupScanner"]);
    assert_eq!(code, 0, "{err}");
    let row = out
        .lines()
        .find(|l| l.starts_with(METHOD))
        .unwrap_or_else(|| panic!("{out}"));
    assert!(out.lines().next().unwrap().contains("mined"), "{out}");
    let cols: Vec<&str> = row.split_whitespace().collect();
    assert_eq!(cols[4], "3", "three strings its test passes: {out}");
}

#[test]
fn a_quadratic_path_behind_a_token_of_the_tests_is_found_with_mined_values_only() {
    let with = explore(&[]);
    assert_eq!(with["verdict"], "bottleneck", "{}", with["reason"]);
    assert_eq!(with["empirical"], "O(n^2)", "{}", with["reason"]);
    let rust = with["best"]["rust"].as_str().unwrap_or_default();
    assert!(
        rust.contains("<!"),
        "the shrunk program holds the token: {rust}"
    );
    assert!(rust.contains(".repeat("), "and grows it as text: {rust}");
    // Shrunk to the minimal trigger: the two-character token alone, repeated (no longer
    // fragment, no second part), as a developer would write it.
    let text = rust
        .lines()
        .find(|l| l.contains(".repeat("))
        .and_then(|l| l.split_once(" = "))
        .map(|(_, e)| e.trim_end_matches(';'))
        .unwrap_or_default();
    let count = text
        .strip_prefix("\"<!\".repeat(")
        .and_then(|t| t.strip_suffix(')'));
    assert!(
        count.is_some_and(|n| n.parse::<u32>().is_ok()),
        "the shrunk text is the token repeated, nothing else: {rust}"
    );

    let without = explore(&["--no-mined-values"]);
    assert_ne!(
        without["verdict"], "bottleneck",
        "{}",
        without["best"]["rust"]
    );
    let rust = without["best"]["rust"].as_str().unwrap_or_default();
    assert!(!rust.contains('<'), "{rust}");
}
