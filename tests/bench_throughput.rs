//! `perfsyn bench throughput` through the real binary and worker, on a tiny budget.

use std::process::Command;

#[test]
fn bench_throughput_json_lists_each_method_with_its_rate_and_setup_share() {
    let out = Command::new(env!("CARGO_BIN_EXE_perfsyn"))
        .args([
            "bench",
            "throughput",
            "--methods",
            "Vec::dedup",
            "--max-programs",
            "20",
            "--workers",
            "1",
            "--json",
        ])
        .output()
        .expect("run perfsyn");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let r: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let t = r["throughput"].as_array().expect("a throughput list");
    assert_eq!(t.len(), 1);
    assert_eq!(t[0]["method"], "Vec::dedup");
    assert_eq!(t[0]["programs"], 20);
    assert!(t[0]["programs_per_sec"].as_f64().unwrap() > 0.0);
    let share = t[0]["setup_share"].as_f64().unwrap();
    assert!((0.0..=1.0).contains(&share), "setup_share {share}");
}
