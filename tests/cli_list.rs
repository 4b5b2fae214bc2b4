//! `perfsyn list` end to end: the real binary, the real (instrumented) worker's schema.
//!
//! The first run builds the worker into `target/perfsyn-worker` (cached afterwards).

use std::process::Output;

mod common;
use common::perfsyn;

fn stderr_of(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn list_json_has_every_registered_method() {
    let out = perfsyn(&["list", "--json"]);
    assert!(
        out.status.success(),
        "list --json failed:\n{}",
        stderr_of(&out)
    );
    let rows: serde_json::Value =
        serde_json::from_slice(&out.stdout).expect("list --json prints JSON");
    let rows = rows.as_array().expect("a JSON array");
    assert!(rows.len() >= 60, "only {} methods listed", rows.len());
    for r in rows {
        let method = r["method"].as_str().expect("method is a string");
        let (ty, name) = method.split_once("::").expect("method is `Type::name`");
        assert!(!ty.is_empty() && !name.is_empty(), "{method}");
        let sig = r["signature"].as_str().expect("signature is a string");
        assert!(sig.starts_with(&format!("fn {name}(")), "{method}: {sig}");
        assert!(
            r["expected"].is_null() || r["expected"].as_str().is_some_and(|e| e.starts_with("O(")),
            "{method}: expected is {}",
            r["expected"]
        );
    }
    let find = |m: &str| rows.iter().find(|r| r["method"] == m);
    let dedup = find("Vec::dedup").expect("Vec::dedup is listed");
    assert_eq!(dedup["signature"], "fn dedup(&mut self)");
    assert_eq!(dedup["expected"], "O(n)");
    let push_front = find("VecDeque::push_front").expect("VecDeque::push_front is listed");
    assert_eq!(push_front["expected"], "O(1)");
    let len = find("VecDeque::len").expect("VecDeque::len is listed");
    assert!(len["expected"].is_null(), "no documented complexity: null");
    let probability = find("EnumeratedDistribution::probability").expect("planted method");
    assert_eq!(probability["expected"], "O(1)");
    // Std's own methods, the corpus's wrappers on std types, and planted bottlenecks are told
    // apart (a user once read Vec::retain_even as a std method).
    assert_eq!(dedup["origin"], "std");
    for wrapper in [
        "Vec::retain_even",
        "Vec::select_nth",
        "Vec::sort_by_key_desc",
    ] {
        assert_eq!(
            find(wrapper).expect(wrapper)["origin"],
            "corpus",
            "{wrapper}"
        );
    }
    assert_eq!(probability["origin"], "planted");
    assert_eq!(
        find("PrefixSums::push").expect("a control")["origin"],
        "corpus"
    );
    // A version group is listed once, through its old member, with both versions.
    let remove: Vec<_> = rows
        .iter()
        .filter(|r| r["method"] == "OrderedMap::remove")
        .collect();
    assert_eq!(remove.len(), 1, "{remove:?}");
    assert_eq!(remove[0]["group"], "OrderedMap");
    assert_eq!(remove[0]["versions"], serde_json::json!(["old", "new"]));
}

#[test]
fn list_type_filter_restricts_the_rows() {
    let out = perfsyn(&["list", "--type", "HashMap", "--json"]);
    assert!(out.status.success(), "{}", stderr_of(&out));
    let rows: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let rows = rows.as_array().expect("array");
    assert!(!rows.is_empty());
    assert!(rows.iter().all(|r| r["method"]
        .as_str()
        .is_some_and(|m| m.starts_with("HashMap::"))));
}

/// `list --type MinStack` once printed every method twice (once per version).
#[test]
fn list_type_filter_on_a_version_group_lists_each_method_once() {
    let out = perfsyn(&["list", "--type", "MinStack"]);
    assert!(out.status.success(), "{}", stderr_of(&out));
    let text = String::from_utf8_lossy(&out.stdout);
    let push = text
        .lines()
        .filter(|l| l.starts_with("MinStack::push "))
        .count();
    assert_eq!(push, 1, "{text}");
    assert!(text.contains("old/new"), "{text}");
}

/// An unknown type is a one-line error naming close matches, not a panic.
fn assert_unknown_type(ty: &str, must_suggest: Option<&str>) {
    let out = perfsyn(&["list", "--type", ty]);
    assert!(!out.status.success(), "list --type {ty} succeeded");
    assert_eq!(
        out.status.code(),
        Some(2),
        "exit status of list --type {ty} (2: bad input)"
    );
    let err = stderr_of(&out);
    assert!(!err.contains("panicked"), "{err}");
    let lines: Vec<&str> = err.lines().filter(|l| l.starts_with("error")).collect();
    assert_eq!(lines.len(), 1, "one error line expected:\n{err}");
    let line = lines[0];
    assert!(line.contains(&format!("`{ty}`")), "{line}");
    assert!(line.contains("closest matches"), "{line}");
    if let Some(s) = must_suggest {
        assert!(line.contains(s), "`{s}` not suggested: {line}");
    }
    assert!(out.stdout.is_empty(), "nothing on stdout");
}

#[test]
fn list_unknown_type_suggests_close_matches() {
    assert_unknown_type("Nope", None);
    assert_unknown_type("Vex", Some("Vec"));
}
