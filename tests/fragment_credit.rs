//! Coverage-guided fragment choice (`synth/src/search/credit.rs`) end to end: the corpus's
//! planted template reader (`corpus/src/template.rs`) is quadratic only in unclosed `{%`
//! after other text on a line, a token two of its forty tests' strings hold. Drawn by
//! frequency among the values and their parts, it is not grown within the budget; probed
//! (it reaches code no other fragment does) and then grown after another text, it is.
//! Real binary, real worker; deterministic (a program budget, no clock).

mod common;

use common::perfsyn_json;

fn explore(extra: &[&str]) -> serde_json::Value {
    let mut args = vec![
        "explore",
        "--method",
        "TemplateText::count_tags",
        "--max-programs",
        "300",
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
fn a_rare_token_that_reaches_new_code_is_grown_after_text_and_exposes_the_quadratic_path() {
    let with = explore(&[]);
    assert_eq!(with["verdict"], "bottleneck", "{}", with["reason"]);
    assert_eq!(with["empirical"], "O(n^2)", "{}", with["reason"]);
    let rust = with["best"]["rust"].as_str().unwrap_or_default();
    // The token repeated after some other text (at a line's start it would be linear).
    let grown = rust
        .lines()
        .find(|l| l.contains("\"{%\".repeat("))
        .unwrap_or_else(|| panic!("the token grows as text: {rust}"));
    assert!(
        grown.contains("String::from(") || grown.contains(".concat()"),
        "after another text: {rust}"
    );

    let without = explore(&["--no-fragment-credit"]);
    assert_ne!(
        without["verdict"], "bottleneck",
        "{}",
        without["best"]["rust"]
    );
    let rust = without["best"]["rust"].as_str().unwrap_or_default();
    assert!(!rust.contains("{%"), "{rust}");
}
