//! The exit status policy (`synth/src/cli/exit.rs`) through the real binary: bad input is one
//! `error:` line and exit 2 in every subcommand, as clap's usage errors are; 1 is kept for
//! findings (`check`'s regression, `replay`'s changed measurement, tested in their own files).

mod common;

use common::perfsyn_text;

fn assert_bad_input(args: &[&str], says: &str) {
    let (code, out, err) = perfsyn_text(args);
    assert_eq!(code, 2, "perfsyn {args:?}: exit 2 expected\n{err}");
    let lines: Vec<&str> = err.lines().filter(|l| !l.trim().is_empty()).collect();
    assert_eq!(lines.len(), 1, "one error line expected:\n{err}");
    assert!(lines[0].starts_with("error"), "{err}");
    assert!(lines[0].contains(says), "`{says}` not in: {err}");
    assert!(out.is_empty(), "nothing on stdout: {out}");
}

#[test]
fn bad_input_exits_2_in_every_subcommand() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("missing.json");
    let missing = missing.to_str().unwrap();
    assert_bad_input(
        &["explore", "--method", "Vec::push", "--t-rel", "0.5"],
        "--t-rel must be greater than 1",
    );
    assert_bad_input(
        &["explore", "--method", "Vec::push", "--from", missing],
        "missing.json",
    );
    assert_bad_input(&["replay", missing], "missing.json");
    assert_bad_input(&["fit", missing], "missing.json");
    let out = dir.path().join("out");
    assert_bad_input(
        &["report", missing, "--out", out.to_str().unwrap()],
        "missing.json",
    );
    // clap's own usage errors are 2 as well.
    let (code, _, _) = perfsyn_text(&["explore", "--no-such-flag"]);
    assert_eq!(code, 2);
}
