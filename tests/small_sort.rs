//! SmallSort end to end (real binary, real worker): an insertion sort over at most 64 probe
//! keys, documented O(n^2) and truly so. The worst case, 64 * 63 / 2 = 2016 comparisons,
//! needs keys in decreasing order, not more keys; the search must get there even though the
//! documented class already predicts the growth. Deterministic: a program budget, no time.

use std::process::Command;

#[test]
fn the_default_search_reaches_the_worst_case_of_a_correctly_documented_sort() {
    for seed in ["1", "2"] {
        let out = Command::new(env!("CARGO_BIN_EXE_perfsyn"))
            .args([
                "explore",
                "--method",
                "SmallSort::insertion_sort",
                "--metric",
                "probe_ops",
                "--max-programs",
                "300",
                "--seed",
                seed,
                "--json",
            ])
            .output()
            .expect("run the perfsyn binary");
        assert!(
            out.status.success(),
            "explore failed:\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let r: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
        let best = &r["best"];
        assert_eq!(best["metric_value"], 2016.0, "seed {seed}: {best}");
        assert_eq!(best["input_size"], 64, "seed {seed}: {best}");
        assert_eq!(r["metric"], "probe_ops");
    }
}
