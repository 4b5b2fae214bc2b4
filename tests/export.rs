//! `perfsyn export` end to end: three suite cases (one asymptotic, two relative) are
//! explored with the real binary and worker, each exported in all three formats into a
//! throwaway crate that depends on the corpus by path, and that crate's tests are run:
//! `program` tests pass, `test` tests fail on the buggy version with a message naming the
//! measured growth or ratio and pass once their `Subject` alias points at a fixed version,
//! and benchmarks compile (against a stand-in for criterion, see [`CRITERION_STUB`]) and run
//! once. Every exported file is rustfmt-clean and builds with `-D warnings`.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

mod common;
use common::perfsyn;

/// One explored case and how its `test` export is fixed.
struct Case {
    /// File-name stem in the throwaway crate.
    stem: &'static str,
    method: &'static str,
    /// What the failing test's message must name.
    failure: &'static str,
    /// The fixed type the `Subject` alias is pointed at (`None`: the run's `Reference`, the
    /// faster member of the version group).
    fixed: Option<&'static str>,
}

const CASES: &[Case] = &[
    Case {
        stem: "enumerated_distribution",
        method: "EnumeratedDistribution::probability",
        failure: "probe operations grow as n^",
        fixed: Some("perfsyn_corpus::export_fixtures::FixedEnumeratedDistribution"),
    },
    Case {
        stem: "ordered_map",
        method: "OrderedMap::remove",
        failure: "cost ratio subject/reference = ",
        fixed: None,
    },
    Case {
        stem: "list_ordered_map",
        method: "ListOrderedMap::remove",
        failure: "cost ratio subject/reference = ",
        fixed: None,
    },
];

/// The parts of criterion 0.5's API an exported benchmark uses, so the throwaway crate
/// builds offline and in seconds. It runs each benchmark routine once (one iteration), as
/// `cargo test --benches` does with the real criterion. Users get the real criterion: the
/// export's header says to add it.
const CRITERION_STUB: &str = r#"//! Stand-in for criterion in perfsyn's export test.
use std::time::Duration;

#[derive(Default)]
pub struct Criterion;

impl Criterion {
    pub fn benchmark_group<S: Into<String>>(&mut self, name: S) -> BenchmarkGroup {
        BenchmarkGroup { name: name.into() }
    }
}

pub struct BenchmarkGroup {
    name: String,
}

impl BenchmarkGroup {
    pub fn bench_with_input<I: ?Sized, F: FnMut(&mut Bencher, &I)>(
        &mut self,
        id: BenchmarkId,
        input: &I,
        mut f: F,
    ) -> &mut Self {
        let mut b = Bencher::default();
        f(&mut b, input);
        println!("bench {}/{}: {:?}", self.name, id.0, b.0);
        self
    }

    pub fn bench_function<S: Into<String>, F: FnMut(&mut Bencher)>(
        &mut self,
        id: S,
        mut f: F,
    ) -> &mut Self {
        let mut b = Bencher::default();
        f(&mut b);
        println!("bench {}/{}: {:?}", self.name, id.into(), b.0);
        self
    }

    pub fn finish(self) {}
}

pub struct BenchmarkId(String);

impl BenchmarkId {
    pub fn new<S: Into<String>, P: std::fmt::Display>(name: S, parameter: P) -> BenchmarkId {
        BenchmarkId(format!("{}/{parameter}", name.into()))
    }
}

#[derive(Default)]
pub struct Bencher(Duration);

impl Bencher {
    pub fn iter_custom<R: FnMut(u64) -> Duration>(&mut self, mut routine: R) {
        self.0 = routine(1);
    }
}

#[macro_export]
macro_rules! criterion_group {
    ($name:ident, $($target:path),+ $(,)?) => {
        pub fn $name() {
            let mut c = $crate::Criterion::default();
            $($target(&mut c);)+
        }
    };
}

#[macro_export]
macro_rules! criterion_main {
    ($($group:path),+ $(,)?) => {
        fn main() {
            $($group();)+
        }
    };
}
"#;

fn check_ok(out: &Output, what: &str) {
    assert!(
        out.status.success(),
        "{what} failed:\n{}\n{}",
        String::from_utf8_lossy(&out.stderr),
        String::from_utf8_lossy(&out.stdout)
    );
}

fn write_if_changed(path: &Path, text: &str) {
    if std::fs::read_to_string(path).ok().as_deref() != Some(text) {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap_or_else(|e| panic!("write {}: {e}", path.display()));
    }
}

/// The throwaway crate, reused across runs so it builds incrementally. Its target directory
/// is the one of the corpus's `printed_compiles` test, which builds the same dependencies
/// with the same flags, so neither builds them twice.
fn scratch() -> (PathBuf, PathBuf) {
    let tmp = Path::new(env!("CARGO_TARGET_TMPDIR"));
    (
        tmp.join("export_e2e"),
        tmp.join("printed_compiles").join("target"),
    )
}

/// Runs cargo in the throwaway crate with the flags every invocation shares (the same
/// flags, so that no invocation rebuilds what another built).
fn cargo(dir: &Path, target: &Path, args: &[&str]) -> Output {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    Command::new(cargo)
        .current_dir(dir)
        .args(args)
        .arg("--offline")
        .arg("--target-dir")
        .arg(target)
        .env("RUSTFLAGS", "-D warnings")
        .env_remove("CARGO_ENCODED_RUSTFLAGS")
        .env_remove("CARGO_TARGET_DIR")
        .env_remove("CARGO_BUILD_TARGET_DIR")
        .output()
        .expect("run cargo in the throwaway crate")
}

/// `source` with its `type Subject = ...;` line pointed at `fixed`.
fn point_subject_at(source: &str, fixed: &str) -> String {
    let line = source
        .lines()
        .find(|l| l.starts_with("type Subject = "))
        .expect("an exported test declares `type Subject`");
    source.replacen(line, &format!("type Subject = {fixed};"), 1)
}

/// What `type Reference = ...;` stands for in `source`.
fn reference_of(source: &str) -> String {
    source
        .lines()
        .find_map(|l| l.strip_prefix("type Reference = "))
        .and_then(|l| l.strip_suffix(';'))
        .expect("a relative export declares `type Reference`")
        .to_string()
}

#[test]
fn exported_programs_tests_and_benches_build_run_and_catch_the_bottleneck() {
    let (dir, target) = scratch();
    let runs = tempfile::tempdir().unwrap();
    let mut benches = Vec::new();
    let mut files = Vec::new();
    for c in CASES {
        // Explore, exporting the regression test through the `explore --export` shortcut.
        let run = runs.path().join(format!("{}.json", c.stem));
        let test_file = dir.join("tests").join(format!("{}_test.rs", c.stem));
        std::fs::create_dir_all(test_file.parent().unwrap()).unwrap();
        let out = perfsyn(&[
            "explore",
            "--method",
            c.method,
            "--max-programs",
            "250",
            "--seed",
            "1",
            "--confirm-top",
            "0",
            // No repeated-traversal or repeated-computation check: they change no verdict,
            // ran the best program again on the trace build, and nothing here reads them.
            "--no-repeated-traversals",
            "--no-repeated-computations",
            "--json",
            "--out",
            run.to_str().unwrap(),
            "--export",
            test_file.to_str().unwrap(),
        ]);
        check_ok(&out, &format!("explore {} --export", c.method));
        let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(
            report["verdict"], "bottleneck",
            "{}: {}",
            c.method, report["reason"]
        );
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!stderr.contains("warning:"), "{}: {stderr}", c.method);

        // The other formats through `perfsyn export`.
        let program_file = dir.join("tests").join(format!("{}_program.rs", c.stem));
        let bench_file = dir.join("benches").join(format!("{}_bench.rs", c.stem));
        for (format, file) in [("program", &program_file), ("bench", &bench_file)] {
            let out = perfsyn(&[
                "export",
                run.to_str().unwrap(),
                "--format",
                format,
                "-o",
                file.to_str().unwrap(),
            ]);
            check_ok(&out, &format!("export {} --format {format}", c.method));
        }

        // Each member's benchmark has its own label (its Rust type), also for the two members
        // of a version group, whose programs name the group.
        let bench_src = std::fs::read_to_string(&bench_file).unwrap();
        let labels: Vec<&str> = bench_src
            .split("BenchmarkId::new(")
            .skip(1)
            .filter_map(|s| s.split(',').next())
            .collect();
        let distinct: std::collections::BTreeSet<&&str> = labels.iter().collect();
        assert_eq!(distinct.len(), labels.len(), "{}: {labels:?}", c.method);

        // The same test pointed at a fixed version.
        let test_src = std::fs::read_to_string(&test_file).unwrap();
        for needle in [
            "//! perfsyn test export of",
            "Found: bottleneck",
            "--seed 1",
            &format!("cargo test --test {}_test", c.stem),
        ] {
            assert!(
                test_src.contains(needle),
                "header lacks {needle:?}:\n{test_src}"
            );
        }
        let fixed = c
            .fixed
            .map_or_else(|| reference_of(&test_src), String::from);
        let fixed_file = dir.join("tests").join(format!("{}_fixed.rs", c.stem));
        write_if_changed(&fixed_file, &point_subject_at(&test_src, &fixed));

        let program_src = std::fs::read_to_string(&program_file).unwrap();
        // Shrinking may leave no loop (a relative finding needs none), so only the test shape is asserted.
        assert!(program_src.contains("#[test]") && program_src.contains("fn "));
        assert!(
            !program_src.contains("Interpreter") && !program_src.contains("perfsyn_profiler_ipc")
        );
        benches.push(format!("{}_bench", c.stem));
        files.extend([test_file, program_file, bench_file]);
    }

    // Exported code is rustfmt-clean.
    let out = Command::new("rustfmt")
        .args(["--edition", "2021", "--check"])
        .args(&files)
        .output()
        .expect("run rustfmt");
    check_ok(&out, "rustfmt --check of the exported files");

    // The throwaway crate: the corpus by path, the criterion stand-in, one bench per case.
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus");
    let runtime = Path::new(env!("CARGO_MANIFEST_DIR")).join("profiler-ipc");
    let mut manifest = format!(
        "[package]\nname = \"perfsyn-export-e2e\"\nversion = \"0.0.0\"\nedition = \"2021\"\npublish = false\n\n\
         [dependencies]\nperfsyn-corpus = {{ path = {:?} }}\nperfsyn-profiler-ipc = {{ path = {:?} }}\n\n\
         [dev-dependencies]\ncriterion = {{ path = \"criterion\" }}\n\n[workspace]\n",
        corpus.display().to_string(),
        runtime.display().to_string()
    );
    for b in &benches {
        manifest.push_str(&format!("\n[[bench]]\nname = \"{b}\"\nharness = false\n"));
    }
    write_if_changed(&dir.join("Cargo.toml"), &manifest);
    write_if_changed(
        &dir.join("src").join("lib.rs"),
        "//! Exported files live in tests/ and benches/.\n",
    );
    write_if_changed(
        &dir.join("criterion").join("Cargo.toml"),
        "[package]\nname = \"criterion\"\nversion = \"0.5.0\"\nedition = \"2021\"\npublish = false\n",
    );
    write_if_changed(
        &dir.join("criterion").join("src").join("lib.rs"),
        CRITERION_STUB,
    );
    // The workspace's resolution, so the crate builds offline with the same versions.
    let lock = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("Cargo.lock"))
        .expect("the workspace's Cargo.lock");
    write_if_changed(&dir.join("Cargo.lock"), &lock);

    // Everything builds without warnings.
    let out = cargo(&dir, &target, &["test", "--all-targets", "--no-run"]);
    check_ok(
        &out,
        &format!("building the exported files in {}", dir.display()),
    );

    for c in CASES {
        let run =
            |target_kind: &str, name: &str| cargo(&dir, &target, &["test", target_kind, name]);
        let program = run("--test", &format!("{}_program", c.stem));
        check_ok(&program, &format!("{} program", c.method));

        let test = run("--test", &format!("{}_test", c.stem));
        let text = String::from_utf8_lossy(&test.stdout);
        assert!(
            !test.status.success(),
            "{}: the exported test passes on the buggy version:\n{text}",
            c.method
        );
        assert!(
            text.contains(c.failure),
            "{}: unexpected failure:\n{text}",
            c.method
        );
        assert!(
            text.contains(c.method),
            "{}: the message names the method:\n{text}",
            c.method
        );

        let fixed = run("--test", &format!("{}_fixed", c.stem));
        check_ok(
            &fixed,
            &format!("{} test pointed at the fixed version", c.method),
        );

        let bench = run("--bench", &format!("{}_bench", c.stem));
        check_ok(&bench, &format!("{} bench", c.method));
        let text = String::from_utf8_lossy(&bench.stdout);
        let timed = text.lines().filter(|l| l.starts_with("bench ")).count();
        let versions = if c.fixed.is_some() { 1 } else { 2 };
        assert!(
            timed >= versions,
            "{}: bench ran {timed} routines:\n{text}",
            c.method
        );
    }
}

#[test]
fn export_errors_are_one_line_and_name_the_problem() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.json");
    std::fs::write(&bad, "{\"name\": \"x\"}").unwrap();
    let out = perfsyn(&["export", bad.to_str().unwrap(), "--format", "test"]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("not a perfsyn run file"), "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");

    let out = perfsyn(&["export", bad.to_str().unwrap(), "--format", "nope"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("program"));
}

#[test]
fn export_into_places_the_file_and_adds_the_dev_dependencies() {
    let dir = tempfile::tempdir().unwrap();
    let run = dir.path().join("run.json");
    let out = perfsyn(&[
        "explore",
        "--method",
        "EnumeratedDistribution::probability",
        "--max-programs",
        "60",
        "--seed",
        "1",
        "--confirm-top",
        "0",
        // No repeated-traversal or repeated-computation check: they change no verdict,
        // ran the best program again on the trace build, and nothing here reads them.
        "--no-repeated-traversals",
        "--no-repeated-computations",
        "--json",
        "--out",
        run.to_str().unwrap(),
    ]);
    check_ok(&out, "explore");
    let krate = dir.path().join("user");
    let manifest = "[package]\nname = \"user\"   # mine\nversion = \"0.1.0\"\nedition = \"2021\"\n";
    std::fs::create_dir_all(&krate).unwrap();
    let into = |format: &str| {
        perfsyn(&[
            "export",
            run.to_str().unwrap(),
            "--format",
            format,
            "--into",
            krate.to_str().unwrap(),
        ])
    };
    // No manifest: one line, non-zero.
    let out = into("bench");
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("has no Cargo.toml"), "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");

    std::fs::write(krate.join("Cargo.toml"), manifest).unwrap();
    check_ok(&into("bench"), "export --into");
    let bench = krate.join("benches/perfsyn_enumerated_distribution_probability_bench.rs");
    assert!(bench.is_file());
    let toml = std::fs::read_to_string(krate.join("Cargo.toml")).unwrap();
    assert!(toml.starts_with(manifest), "{toml}");
    for needle in [
        "criterion = \"0.5\"",
        "perfsyn-profiler-ipc = { path = ",
        "perfsyn-corpus = { path = ",
        "[[bench]]\nname = \"perfsyn_enumerated_distribution_probability_bench\"\nharness = false",
    ] {
        assert!(toml.contains(needle), "lacks {needle:?}:\n{toml}");
    }
    // The file exists: refused unless --force.
    let out = into("bench");
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("--force"));
}
