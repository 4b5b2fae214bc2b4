//! End-to-end tests of `perfsyn compare` (SpeedGun) through the real binary and the real
//! instrumented worker, with short phases. No wall-clock time is asserted: only verdicts on
//! pairs whose difference is an order of magnitude beyond the noise, and that a deadlocking
//! version ends as inconclusive tests instead of a hang.

use serde_json::Value;

mod common;

/// Timed runs one at a time: the test harness runs tests in parallel threads, and two
/// comparisons at once would each measure the other.
static SERIAL: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn compare(ty: &str, extra: &[&str]) -> Value {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    // Short phases; r_min and t_min lowered to match (steady / r_min must exceed t_min by
    // more than the ratio between the versions, or Algorithm 1 gives up).
    let mut args = vec![
        "compare", "--type", ty, "--json", "--tests", "2", "--seed", "7",
    ];
    args.extend(["--warmup", "50ms", "--steady", "300ms"]);
    args.extend(["--r-min", "5", "--t-min", "0.2ms", "--start-max", "4096"]);
    args.extend(extra);
    common::perfsyn_json(&args)
}

/// PoolFine -> PoolCoarse puts a blocking activation back under the pool's lock: about 4x
/// slower with 8 threads, whatever else the machine runs.
#[test]
fn a_lock_held_across_blocking_work_is_a_regression() {
    let r = compare("PoolCoarse", &[]);
    assert_eq!(r["expected"], "regression");
    assert_eq!(r["verdict"], "regression", "{r:#}");
    assert!(r["speedup"].as_f64().unwrap() < 0.8, "{r:#}");
    assert!(r["test_rust"]
        .as_str()
        .unwrap()
        .contains("std::thread::scope"));
    assert!(r["test_rust"]
        .as_str()
        .unwrap()
        .contains("PoolCoarse::new()"));
}

/// IsoChronology -> IsoChronologyCached only changes how the instance is obtained.
#[test]
fn a_refactoring_without_a_cost_is_not_reported() {
    let r = compare("IsoChronologyCached", &[]);
    assert_eq!(r["expected"], "none");
    let v = r["verdict"].as_str().unwrap();
    assert!(v == "none" || v == "inconclusive", "{r:#}");
}

/// EmcDeadlock re-locks the mutex it holds: every run of it hangs until the worker is killed
/// at the per-repetition deadline; perfsyn must finish with inconclusive tests.
#[test]
fn a_deadlocking_version_makes_tests_inconclusive_not_a_hang() {
    let r = compare("EmcDeadlock", &["--deadline", "300ms", "--max-tries", "2"]);
    assert_eq!(r["verdict"], "inconclusive", "{r:#}");
    assert_eq!(r["counts"]["inconclusive"], 2, "{r:#}");
    let reason = r["tests"][0]["reason"].as_str().unwrap_or("");
    assert!(reason.contains("deadlock"), "{reason}");
}
