//! A cost that follows capacity, not length (real binary, real worker): a hash map filled
//! with n keys, emptied again and given one key keeps the capacity of n, and `clear` then
//! costs O(capacity) while `len()` stays 1. The registered size gives the fit one size only;
//! the heap bytes the worker counts give it the capacity, and the verdict says so.
//! Deterministic: one program (`--max-programs 1`), no confirmation.

mod common;

use serde_json::{json, Value};

/// `for i in 0..4096 { m.<method>(Key::new(i)) }` into variables `a` (u64) and `b` (Key).
fn fill(method: &str, a: usize, b: usize) -> Value {
    json!({"Repeat": {"n": 4096, "body": [
        {"Lit": {"out": a, "value": {"Index": {"ty": "U64", "pattern": "I"}}}},
        {"Ctor": {"out": b, "ty": "Key", "ctor": "new", "args": [a]}},
        {"Call": {"out": null, "ty": MAP, "method": method, "recv": 0, "args": [b], "under_test": false}}
    ]}})
}

const MAP: &str = "HashMap<Key,u64,FixedState>";

#[test]
fn clearing_a_map_that_shrank_is_judged_in_heap_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let program = json!({
        "vars": [MAP, "u64", "Key", "u64", "Key", "u64", "Key"],
        "body": [
            {"Ctor": {"out": 0, "ty": MAP, "ctor": "default", "args": []}},
            fill("increment", 1, 2),
            fill("remove", 3, 4),
            {"Lit": {"out": 5, "value": {"Int": {"ty": "U64", "value": 77}}}},
            {"Ctor": {"out": 6, "ty": "Key", "ctor": "new", "args": [5]}},
            {"Call": {"out": null, "ty": MAP, "method": "increment", "recv": 0, "args": [6], "under_test": false}},
            {"Call": {"out": null, "ty": MAP, "method": "clear", "recv": 0, "args": [], "under_test": true}}
        ]
    });
    let r = common::explore_program(dir.path(), "HashMap::clear", program, &["--expect", "O(1)"]);
    assert_eq!(r["points_from"], "sweep-heap-bytes", "{r}");
    assert_eq!(r["verdict"], "bottleneck", "{}", r["reason"]);
    assert_eq!(r["empirical"], "O(n)", "{}", r["reason"]);
    let reason = r["reason"].as_str().unwrap();
    assert!(
        reason.contains("heap bytes") && reason.contains("registered size stays 1"),
        "{reason}"
    );
    // The sweep's sizes are heap bytes: the capacity of up to 4096 keys and beyond.
    let largest = r["points"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p[0].as_u64().unwrap())
        .max()
        .unwrap();
    assert!(largest > 64 * 1024, "{}", r["points"]);
    // The reported program may be shrunk; it still holds heap beyond its one key.
    let fb = &r["best"]["feedback"];
    assert_eq!(fb["input_size"], 1, "{fb}");
    assert!(fb["heap_bytes"].as_u64().unwrap() > 0, "{fb}");
}
