//! `hunt --partition auto` through the real binary: the partition comes from a Kubernetes
//! Indexed Job's `JOB_COMPLETION_INDEX` (0-based, with `--partition-count N` or
//! `PERFSYN_PARTITION_COUNT`) or from `PERFSYN_PARTITION=k/N`, and a missing environment is
//! one `error:` line with exit 2.

use std::path::Path;
use std::process::Command;

const VARS: [&str; 3] = [
    "JOB_COMPLETION_INDEX",
    "PERFSYN_PARTITION_COUNT",
    "PERFSYN_PARTITION",
];

/// `hunt --partition auto` into `out` with exactly the environment `env` of [`VARS`].
fn hunt_auto(out: &Path, extra: &[&str], env: &[(&str, &str)]) -> (i32, String) {
    let mut c = Command::new(env!("CARGO_BIN_EXE_perfsyn"));
    c.args([
        "hunt",
        "--type",
        "PrefixSums",
        "--max-programs-per-method",
        "20",
        "--seed",
        "3",
        "--partition",
        "auto",
        "--out",
        out.to_str().unwrap(),
    ])
    .args(extra);
    for v in VARS {
        c.env_remove(v);
    }
    c.envs(env.iter().copied());
    let o = c.output().expect("run perfsyn");
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

fn partition_of(dir: &Path) -> String {
    let s: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("summary.json")).unwrap()).unwrap();
    s["partition"].as_str().unwrap_or_default().to_string()
}

#[test]
fn auto_partitions_come_from_an_indexed_job_or_a_matrix_variable() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path().join("k8s");
    let (code, err) = hunt_auto(
        &d,
        &["--partition-count", "2"],
        &[("JOB_COMPLETION_INDEX", "1")],
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(partition_of(&d), "2/2");

    let d = tmp.path().join("k8s-env");
    let (code, err) = hunt_auto(
        &d,
        &[],
        &[
            ("JOB_COMPLETION_INDEX", "0"),
            ("PERFSYN_PARTITION_COUNT", "2"),
        ],
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(partition_of(&d), "1/2");

    let d = tmp.path().join("matrix");
    let (code, err) = hunt_auto(&d, &[], &[("PERFSYN_PARTITION", "2/3")]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(partition_of(&d), "2/3");
}

#[test]
fn auto_without_the_environment_is_one_error_line() {
    let tmp = tempfile::tempdir().unwrap();
    for (env, says) in [
        (&[][..], "JOB_COMPLETION_INDEX"),
        (&[("JOB_COMPLETION_INDEX", "1")][..], "--partition-count"),
    ] {
        let d = tmp.path().join("none");
        let (code, err) = hunt_auto(&d, &[], env);
        assert_eq!(code, 2, "{err}");
        let lines: Vec<&str> = err.trim().lines().collect();
        assert_eq!(lines.len(), 1, "{err}");
        assert!(
            lines[0].starts_with("error: --partition auto") && lines[0].contains(says),
            "{err}"
        );
        assert!(!d.exists(), "nothing written on an error");
    }
}
