//! `perfsyn fit --expect C` as a CI gate, through the real binary (no worker): exit 1 when
//! the points grow significantly faster than C, 0 when within it, 2 on bad input; and the
//! runner-up it prints is the next most plausible class, not O(1), for a clean series.

use std::process::Output;

mod common;

fn fit(args: &[&str], input: &str) -> Output {
    let mut all = vec!["fit"];
    all.extend_from_slice(args);
    common::perfsyn_stdin(&all, input)
}

/// `size,cost` lines of `cost(n)` over sizes 100..3200, doubling.
fn series(cost: impl Fn(u64) -> u64) -> String {
    [100u64, 200, 400, 800, 1600, 3200]
        .iter()
        .map(|&n| format!("{n},{}\n", cost(n)))
        .collect()
}

#[test]
fn expect_exits_1_above_the_class_0_within_it_and_2_on_bad_input() {
    let linear = series(|n| n / 10);
    let quadratic = series(|n| n * n / 1000);
    let out = fit(&["-", "--expect", "O(n)"], &linear);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let out = fit(&["-", "--expect", "O(n)"], &quadratic);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("O(n^2) (grows faster than the expected O(n))"),
        "{text}"
    );
    // Within a higher expectation: 0.
    let out = fit(&["-", "--expect", "O(n^2)"], &quadratic);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    // Bad input, bad class: 2, one line.
    for (args, input) in [
        (&["-", "--expect", "O(n)"][..], "100,10\nfoo\n"),
        (&["-", "--expect", "O(fast)"][..], linear.as_str()),
    ] {
        let out = fit(args, input);
        assert_eq!(out.status.code(), Some(2), "{out:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.trim().lines().count(), 1, "{err}");
    }
}

#[test]
fn the_runner_up_of_a_clean_quadratic_series_is_a_neighbouring_class() {
    let out = fit(&["-", "--json"], &series(|n| n * n / 1000));
    assert!(out.status.success(), "{out:?}");
    let r: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(r["class"], "O(n^2)", "{r}");
    let runner_up = r["runner_up"].as_str().unwrap_or_default();
    assert!(
        ["O(n log n)", "O(n^3)"].contains(&runner_up),
        "runner-up {runner_up}: {r}"
    );
    let out = fit(&["-", "--json"], &series(|n| n / 10));
    let r: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(r["class"], "O(n)", "{r}");
    assert!(
        ["O(log n)", "O(n log n)"].contains(&r["runner_up"].as_str().unwrap_or_default()),
        "{r}"
    );
}
