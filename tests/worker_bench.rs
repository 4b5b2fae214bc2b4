//! `perfsyn bench ipc --json` end to end (figures are checked for presence and sanity, never
//! against wall-clock goals).

mod worker_support;

use std::process::Command;

#[test]
fn bench_ipc_prints_the_documented_json_figures() {
    let worker = worker_support::worker();
    let out = Command::new(env!("CARGO_BIN_EXE_perfsyn"))
        .args([
            "bench",
            "ipc",
            "--json",
            "--time",
            "50ms",
            "--workers",
            "2",
            "--worker",
        ])
        .arg(&worker)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    for key in [
        "programs_per_sec_worker",
        "programs_per_sec_inprocess",
        "overhead_ratio",
        "roundtrip_us",
        "transport_roundtrip_us",
        "scaling_2_workers",
    ] {
        let x = v[key]
            .as_f64()
            .unwrap_or_else(|| panic!("{key} missing: {v}"));
        assert!(x.is_finite() && x > 0.0, "{key} = {x}");
    }
    for set in ["small", "large"] {
        assert!(v[set]["programs_per_sec_pool"].as_f64().unwrap() > 0.0);
        // The engine's own CPU time: positive (it encodes and decodes every program), and a
        // share of one core, not more (the process has one driving thread; keepers sleep).
        for key in [
            "host_cpu_us_per_program_worker",
            "host_cpu_us_per_program_pool",
        ] {
            let x = v[set][key].as_f64().unwrap_or(-1.0);
            assert!(x.is_finite() && x > 0.0, "{set}.{key} = {x}");
        }
        let share = v[set]["host_core_share_pool"].as_f64().unwrap_or(-1.0);
        assert!(
            share > 0.0 && share < 1.5,
            "{set}.host_core_share_pool = {share}"
        );
    }
    assert_eq!(v["workers"], 2);
    let small_statements = v["small"]["statements"].as_f64().unwrap();
    assert!(
        (8.0..=14.0).contains(&small_statements),
        "{small_statements}"
    );
}
