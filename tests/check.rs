//! `perfsyn check --baseline REV` end to end, through the real binary, on a git repository made
//! in a temporary directory: a commit that makes `Bag::add` scan every earlier item is a
//! confirmed regression (exit 1, the method named, its reproducer printed), and the private
//! helper it changed is listed as not measured, and `--sarif`/`--bmf` hold it at `add`'s
//! definition and its cost ratio, and the scan is reported as a repeated traversal the change
//! introduced (absent from the baseline), and so is a new helper that parses a constant
//! configuration on every call (MemoizeIt), where a helper that did so before is not; a
//! refactor-only commit exits 0.

use std::path::{Path, PathBuf};
use std::process::Output;

mod common;
use common::{git, perfsyn_in, text};

const V1: &str = r#"//! A bag of numbers.

/// A bag of numbers.
#[derive(Debug, Default, Clone)]
pub struct Bag {
    items: Vec<u64>,
}

impl Bag {
    /// An empty bag.
    pub fn new() -> Bag {
        Bag::default()
    }

    /// Adds `x`. Runs in O(1) time (amortized).
    pub fn add(&mut self, x: u64) {
        self.items.push(util::keep(x) * util::unit());
    }

    /// The number of items. O(1).
    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// Whether the bag is empty. O(1).
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }
}

/// A private module's helper: public to the crate's code, nothing a harness can call.
mod util {
    pub fn keep(x: u64) -> u64 {
        x
    }

    /// The configuration every bag runs with.
    pub const CONFIG: &str = "name = bag\nmax_items = 1000000\nscale = 1\nmode = strict\n";

    /// The scale of every item, parsed from the configuration on every call.
    #[inline(never)]
    pub fn unit() -> u64 {
        std::hint::black_box(CONFIG)
            .lines()
            .filter_map(|l| l.split_once('='))
            .find(|(k, _)| k.trim() == "scale")
            .map_or(1, |(_, v)| v.trim().parse().unwrap_or(1))
    }
}
"#;

/// The regression's new helper: it parses the constant configuration again on every add (a
/// repeated computation the change introduced), where `unit` did so before the change too.
const LIMIT: &str = r#"
    /// The most items a bag keeps, parsed from the configuration on every call.
    #[inline(never)]
    pub fn limit() -> usize {
        std::hint::black_box(CONFIG)
            .lines()
            .filter_map(|l| l.split_once('='))
            .find(|(k, _)| k.trim() == "max_items")
            .map_or(0, |(_, v)| v.trim().parse().unwrap_or(0))
    }
}
"#;

fn commit_lib(krate: &Path, src: &str, message: &str) {
    std::fs::write(krate.join("src/lib.rs"), src).unwrap();
    git(krate, &["commit", "-qam", message]);
}

fn check(krate: &Path, extra: &[&str]) -> (Output, serde_json::Value) {
    let args = [
        "check",
        "--baseline",
        "HEAD~1",
        "--max-programs-per-method",
        "150",
        "--json",
        "--sarif",
        "perfsyn.sarif",
        "--bmf",
        "perfsyn-bmf.json",
    ];
    let out = perfsyn_in(krate, &[&args[..], extra].concat());
    let json = serde_json::from_slice(&out.stdout).unwrap_or(serde_json::Value::Null);
    (out, json)
}

#[test]
fn a_commit_that_makes_a_method_scan_fails_the_gate_and_a_refactor_passes_it() {
    let _worker = common::one_crate_worker_at_a_time();
    let tmp = tempfile::tempdir().unwrap();
    let krate: PathBuf = tmp.path().join("bag");
    std::fs::create_dir_all(krate.join("src")).unwrap();
    std::fs::write(
        krate.join("Cargo.toml"),
        "[package]\nname = \"bag\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[workspace]\n",
    )
    .unwrap();
    std::fs::write(krate.join(".gitignore"), "target/\nperfsyn/\n").unwrap();
    std::fs::write(krate.join("src/lib.rs"), V1).unwrap();
    git(&krate, &["init", "-q"]);
    git(&krate, &["add", "."]);
    git(&krate, &["commit", "-qm", "v1"]);
    let init = perfsyn_in(&krate, &["init"]);
    assert!(init.status.success(), "{}", text(&init));

    // Not a git revision: one line, exit 2.
    let bad = perfsyn_in(&krate, &["check", "--baseline", "no-such-rev"]);
    assert_eq!(bad.status.code(), Some(2), "{}", text(&bad));
    assert!(
        text(&bad).contains("`no-such-rev` is not found"),
        "{}",
        text(&bad)
    );

    // The regression: every add scans the earlier items.
    let v2 = V1
        .replace(
            "        self.items.push(util::keep(x) * util::unit());\n    }\n\n    /// The number",
            "        if self.items.len() < util::limit() && !self.items.contains(&x) {\n            self.items.push(util::keep(x) * util::unit());\n        }\n    }\n\n    /// The number",
        )
        .replace("-> u64 {\n        x\n", "-> u64 {\n        x.min(u64::MAX)\n");
    let v2 = format!("{}{LIMIT}", v2.strip_suffix("}\n").unwrap());
    commit_lib(&krate, &v2, "add: keep items unique, at most `limit`");
    let (out, json) = check(&krate, &["--markdown", "check.md"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    let findings = json["findings"].as_array().expect("findings");
    assert_eq!(findings[0]["method"], "Bag::add", "{json}");
    assert_eq!(findings[0]["verdict"], "regression", "{json}");
    assert!(findings[0]["ratio"].as_f64().unwrap() > 1.2, "{json}");
    assert!(findings[0]["risk"].as_f64().unwrap() > 0.0, "{json}");
    let reproducer = findings[0]["reproducer"].as_str().unwrap();
    assert!(reproducer.contains(".add("), "{reproducer}");
    // The scan is a repeated traversal the change introduced: successive adds read the same
    // items again, which the baseline's push did not.
    let traversals = &findings[0]["repeated_traversals"];
    assert_eq!(traversals["baseline_traced"], true, "{json}");
    let src = std::fs::read_to_string(krate.join("src/lib.rs")).unwrap();
    let scan = src
        .lines()
        .position(|l| l.contains(".contains(&x)"))
        .unwrap()
        + 1;
    let at_scan = format!("src/lib.rs:{scan}");
    let listed = traversals["traversals"].as_array().expect("traversals");
    assert!(
        listed.iter().any(|t| t["read"] == at_scan.as_str()
            || t["stack"]
                .as_array()
                .unwrap()
                .iter()
                .any(|c| c == at_scan.as_str())),
        "{json}"
    );
    // `limit`, new, parses the same configuration on every add: a repeated computation the
    // change introduced. `unit` did so before the change too (on a line the change shifted):
    // not introduced.
    let computations = &findings[0]["repeated_computations"];
    assert_eq!(computations["baseline_traced"], true, "{json}");
    let reported: Vec<&str> = computations["opportunities"]
        .as_array()
        .expect("opportunities")
        .iter()
        .map(|o| o["function"].as_str().unwrap())
        .collect();
    let is = |name: &str, helper: &str| name == helper || name.ends_with(&format!("::{helper}"));
    assert!(reported.iter().any(|f| is(f, "limit")), "{json}");
    assert!(!reported.iter().any(|f| is(f, "unit")), "{json}");
    let md = std::fs::read_to_string(krate.join("check.md")).unwrap();
    assert!(
        md.contains("### `Bag::add`: repeated computation introduced by the change"),
        "{md}"
    );
    // The changed private helper is named as not measured, not judged `inconclusive`.
    assert!(findings.iter().all(|f| f["method"] != "keep"), "{json}");
    let not_measured = json["not_measured"].as_array().expect("not_measured");
    assert_eq!(not_measured.len(), 1, "{json}");
    assert_eq!(not_measured[0]["method"], "keep", "{json}");
    // The regression as SARIF (GitHub code scanning), at `add`'s definition in the crate, and
    // its cost ratio in Bencher Metric Format.
    let sarif: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(krate.join("perfsyn.sarif")).unwrap())
            .unwrap();
    common::assert_valid_sarif(&sarif);
    assert_eq!(sarif["version"], "2.1.0");
    let results = sarif["runs"][0]["results"].as_array().unwrap();
    assert_eq!(results.len(), 1, "{sarif}");
    assert_eq!(results[0]["ruleId"], "perfsyn/relative");
    assert_eq!(results[0]["level"], "error");
    let loc = &results[0]["locations"][0]["physicalLocation"];
    assert_eq!(loc["artifactLocation"]["uri"], "src/lib.rs", "{sarif}");
    let src = std::fs::read_to_string(krate.join("src/lib.rs")).unwrap();
    let add_line = src.lines().position(|l| l.contains("pub fn add(")).unwrap() + 1;
    assert_eq!(loc["region"]["startLine"], add_line as u64, "{sarif}");
    let bmf: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(krate.join("perfsyn-bmf.json")).unwrap())
            .unwrap();
    assert!(
        bmf["Bag::add"]["perfsyn-cost-ratio"]["value"]
            .as_f64()
            .unwrap()
            > 1.2,
        "{bmf}"
    );

    // A refactor-only commit on top of v1.
    git(&krate, &["checkout", "-q", "-b", "refactor", "HEAD~1"]);
    commit_lib(
        &krate,
        &V1.replace(
            "        self.items.len()\n",
            "        let n = self.items.len();\n        n\n",
        ),
        "len: name the length",
    );
    // Without the trace builds of a second pair of revisions (minutes): the gate is the point.
    let (out, json) = check(&krate, &["--no-repeated-traversals"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let findings = json["findings"].as_array().expect("findings");
    assert!(
        findings.iter().all(|f| f["verdict"] != "regression"),
        "{json}"
    );
}
