//! `perfsyn bench init`: how much of a crate's API `perfsyn init` registers, on crates from
//! the registry. Each crate of a list (`name@version`, see `init_crates.txt`) is fetched by
//! cargo into a scratch directory outside the repository (the registry's copy of its
//! sources, copied so init can write `perfsyn/` beside them), and `perfsyn init` runs on it
//! through the code path users run. Per crate it reports public methods, the registered
//! share (of all of them, and of those that are not `unsafe fn`: init never registers one,
//! so the 90% goal is judged on the rest), the registrations the compiler rejected, the documented classes read, and the top
//! reasons of `perfsyn/skipped.json`; a crate whose init fails as a whole is a row too.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use anyhow::{bail, Context, Result};
use serde::Serialize;

use crate::harness::discovery::HARNESS_DIR;
use crate::harness::init::{self, skips};

/// The crates the bench runs on when no list is given.
pub const DEFAULT_CRATES: &str = include_str!("init_crates.txt");

/// How many skip reasons a row names.
pub const TOP_REASONS: usize = 3;

/// One crate of the list.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CrateSpec {
    pub name: String,
    pub version: String,
}

impl std::fmt::Display for CrateSpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}@{}", self.name, self.version)
    }
}

/// Reads a list: one `name@version` a line; `#` starts a comment, blank lines are ignored.
pub fn parse_list(text: &str) -> Result<Vec<CrateSpec>> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let Some((name, version)) = line.split_once('@') else {
            bail!("line {}: `{line}` is not name@version", i + 1);
        };
        let (name, version) = (name.trim(), version.trim());
        let word = |s: &str| {
            !s.is_empty()
                && s.chars()
                    .all(|c| c.is_ascii_alphanumeric() || "-_.+".contains(c))
        };
        if !word(name) || !word(version) {
            bail!("line {}: `{line}` is not name@version", i + 1);
        }
        out.push(CrateSpec {
            name: name.into(),
            version: version.into(),
        });
    }
    if out.is_empty() {
        bail!("the crate list names no crate (one name@version a line)");
    }
    Ok(out)
}

/// What init did on one crate.
#[derive(Clone, Debug, Serialize)]
pub struct Row {
    pub krate: String,
    pub public_methods: usize,
    pub registered: usize,
    /// `registered / public_methods`, 0 when init failed.
    pub share: f64,
    /// Public methods that are `unsafe fn`s: never registered, by design (their safety
    /// contract is prose a synthesized program cannot honour, and a cost measured past
    /// undefined behaviour means nothing). Unsafe functions without a receiver are not
    /// methods and not counted.
    pub unsafe_functions: usize,
    /// `registered / (public_methods - unsafe_functions)`: the share of what perfsyn may
    /// call, which the 90% goal is judged on; 0 when init failed.
    pub safe_share: f64,
    pub rejected: usize,
    /// Registrations with a class read from the docs.
    pub documented: usize,
    pub skipped: usize,
    /// The most frequent kinds of skip reason, with their counts, most frequent first.
    pub top_reasons: Vec<(String, usize)>,
    /// Init's own error when it failed as a whole (or the fetch did).
    pub error: Option<String>,
    pub seconds: f64,
}

/// The figures of one run.
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    pub scratch: PathBuf,
    pub rows: Vec<Row>,
}

/// Runs init on each crate of `crates`, fetched into `scratch`; `progress` hears a line per
/// crate.
pub fn run(crates: &[CrateSpec], scratch: &Path, progress: &mut dyn FnMut(&str)) -> Result<Report> {
    std::fs::create_dir_all(scratch)
        .with_context(|| format!("cannot create {}", scratch.display()))?;
    let mut rows = Vec::new();
    for spec in crates {
        progress(&format!("{spec}: fetching"));
        let start = Instant::now();
        let row = match fetch(spec, scratch) {
            Ok(dir) => {
                progress(&format!("{spec}: perfsyn init in {}", dir.display()));
                init_row(spec, &dir)
            }
            Err(e) => failed(spec, format!("fetch failed: {e:#}")),
        };
        let row = Row {
            seconds: start.elapsed().as_secs_f64(),
            ..row
        };
        progress(&format!(
            "{spec}: {}",
            row.error.as_deref().map_or_else(
                || format!("{} of {} registered", row.registered, row.public_methods),
                |e| e.lines().next().unwrap_or("").to_string()
            )
        ));
        rows.push(row);
    }
    Ok(Report {
        scratch: scratch.to_path_buf(),
        rows,
    })
}

fn failed(spec: &CrateSpec, error: String) -> Row {
    Row {
        krate: spec.to_string(),
        public_methods: 0,
        registered: 0,
        share: 0.0,
        unsafe_functions: 0,
        safe_share: 0.0,
        rejected: 0,
        documented: 0,
        skipped: 0,
        top_reasons: Vec::new(),
        error: Some(error),
        seconds: 0.0,
    }
}

/// `perfsyn init --force` on the crate at `dir`, as a row. A panic in init is a failed row,
/// not the end of the bench.
pub fn init_row(spec: &CrateSpec, dir: &Path) -> Row {
    let cfg = init::InitConfig {
        manifest_path: Some(dir.join("Cargo.toml")),
        force: true,
        build: true,
        quiet: true,
    };
    let summary = match std::panic::catch_unwind(|| init::run(&cfg)) {
        Ok(Ok(s)) => s,
        Ok(Err(e)) => return failed(spec, format!("init failed: {e:#}")),
        Err(_) => return failed(spec, "init panicked".into()),
    };
    let skipped = std::fs::read_to_string(dir.join(HARNESS_DIR).join(skips::SKIPPED_FILE))
        .ok()
        .and_then(|t| serde_json::from_str::<skips::SkippedFile>(&t).ok())
        .unwrap_or_default();
    let unsafe_functions = skipped
        .skipped
        .iter()
        .filter(|s| s.reason == skips::SkipReason::UnsafeMethod)
        .count();
    Row {
        krate: spec.to_string(),
        public_methods: summary.public_methods,
        registered: summary.methods,
        share: ratio(summary.methods, summary.public_methods),
        unsafe_functions,
        safe_share: ratio(
            summary.methods,
            summary.public_methods.saturating_sub(unsafe_functions),
        ),
        rejected: summary.rejected,
        documented: summary.documented,
        skipped: skipped.skipped.len(),
        top_reasons: top_reasons(&skipped.skipped, TOP_REASONS),
        error: None,
        seconds: 0.0,
    }
}

/// `part / whole`, 0 for an empty whole.
fn ratio(part: usize, whole: usize) -> f64 {
    if whole > 0 {
        part as f64 / whole as f64
    } else {
        0.0
    }
}

/// The `n` most frequent kinds of reason in `skipped` (the `kind` of [`skips::SkipReason`]
/// as written in `skipped.json`), most frequent first, ties by name.
pub fn top_reasons(skipped: &[skips::Skipped], n: usize) -> Vec<(String, usize)> {
    let mut counts: BTreeMap<String, usize> = BTreeMap::new();
    for s in skipped {
        *counts.entry(reason_kind(&s.reason)).or_default() += 1;
    }
    let mut v: Vec<(String, usize)> = counts.into_iter().collect();
    v.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    v.truncate(n);
    v
}

/// The name a reason has in `skipped.json` (its serde tag).
fn reason_kind(r: &skips::SkipReason) -> String {
    serde_json::to_value(r)
        .ok()
        .and_then(|v| v["kind"].as_str().map(str::to_string))
        .unwrap_or_else(|| "unknown".into())
}

/// The crate's sources in `scratch/<name>-<version>/`, fetched by cargo on first use: a
/// throwaway package depending on exactly that version resolves it (`cargo metadata`
/// downloads it), and the registry's copy is copied out (init writes beside a crate, and
/// the registry's copy is cargo's, not ours).
pub fn fetch(spec: &CrateSpec, scratch: &Path) -> Result<PathBuf> {
    let dir = scratch.join(format!("{}-{}", spec.name, spec.version));
    let src = dir.join("crate");
    if src.join("Cargo.toml").is_file() {
        return Ok(src);
    }
    let probe = dir.join("fetch");
    std::fs::create_dir_all(&probe)?;
    std::fs::write(
        probe.join("Cargo.toml"),
        format!(
            "[package]\nname = \"perfsyn-bench-fetch\"\nversion = \"0.0.0\"\nedition = \"2021\"\n\n[lib]\npath = \"lib.rs\"\n\n[dependencies]\n{} = \"={}\"\n\n[workspace]\n",
            spec.name, spec.version
        ),
    )?;
    std::fs::write(probe.join("lib.rs"), "")?;
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = Command::new(cargo)
        .args(["metadata", "--format-version", "1", "--manifest-path"])
        .arg(probe.join("Cargo.toml"))
        .output()
        .context("cannot run `cargo metadata`")?;
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr);
        let first = err
            .lines()
            .find(|l| l.starts_with("error"))
            .unwrap_or("cargo metadata failed");
        bail!("{first}");
    }
    let meta: serde_json::Value = serde_json::from_slice(&out.stdout)?;
    let manifest = meta["packages"]
        .as_array()
        .and_then(|ps| {
            ps.iter()
                .find(|p| p["name"] == spec.name.as_str() && p["version"] == spec.version.as_str())
        })
        .and_then(|p| p["manifest_path"].as_str())
        .with_context(|| format!("cargo resolved no package {spec}"))?;
    let from = Path::new(manifest)
        .parent()
        .context("a manifest path without a directory")?;
    let partial = dir.join("crate.partial");
    let _ = std::fs::remove_dir_all(&partial);
    copy_tree(from, &partial)?;
    std::fs::rename(&partial, &src)?;
    Ok(src)
}

/// Copies the directory `from` to `to` (files and folders; links are followed).
fn copy_tree(from: &Path, to: &Path) -> Result<()> {
    std::fs::create_dir_all(to)?;
    for entry in
        std::fs::read_dir(from).with_context(|| format!("cannot read {}", from.display()))?
    {
        let entry = entry?;
        let (src, dst) = (entry.path(), to.join(entry.file_name()));
        if src.is_dir() {
            copy_tree(&src, &dst)?;
        } else {
            std::fs::copy(&src, &dst).with_context(|| format!("cannot copy {}", src.display()))?;
        }
    }
    Ok(())
}

/// An error's first line without the command that failed (`; command: ...`), at most 200
/// characters: the table's row; `--json` has it whole.
fn short(e: &str) -> String {
    let line = e.lines().next().unwrap_or("");
    let line = line.split("; command:").next().unwrap_or(line);
    match line.char_indices().nth(200) {
        Some((i, _)) => format!("{}...", &line[..i]),
        None => line.to_string(),
    }
}

/// The table `perfsyn bench init` prints.
pub fn render(r: &Report) -> String {
    let mut out = format!(
        "perfsyn init on {} crates (sources in {})\n",
        r.rows.len(),
        r.scratch.display()
    );
    out.push_str(&format!(
        "{:<26} {:>7} {:>10} {:>6} {:>6} {:>6} {:>8} {:>7}  top skip reasons\n",
        "crate", "public", "registered", "share", "unsafe", "safe", "rejected", "classes"
    ));
    for row in &r.rows {
        if let Some(e) = &row.error {
            out.push_str(&format!(
                "{:<26} init failed as a whole: {}\n",
                row.krate,
                short(e)
            ));
            continue;
        }
        let reasons = row
            .top_reasons
            .iter()
            .map(|(k, n)| format!("{k} {n}"))
            .collect::<Vec<_>>()
            .join(", ");
        out.push_str(&format!(
            "{:<26} {:>7} {:>10} {:>5.0}% {:>6} {:>5.0}% {:>8} {:>7}  {reasons}\n",
            row.krate,
            row.public_methods,
            row.registered,
            100.0 * row.share,
            row.unsafe_functions,
            100.0 * row.safe_share,
            row.rejected,
            row.documented,
        ));
    }
    let ok: Vec<&Row> = r.rows.iter().filter(|r| r.error.is_none()).collect();
    let (public, registered, unsafe_fns) = ok.iter().fold((0, 0, 0), |(p, g, u), r| {
        (
            p + r.public_methods,
            g + r.registered,
            u + r.unsafe_functions,
        )
    });
    out.push_str(&format!(
        "{} of {} crates initialized; {registered} of {public} public methods registered ({:.0}%, {:.0}% of the {} that are not `unsafe fn`); {} under 90% of those\n",
        ok.len(),
        r.rows.len(),
        100.0 * ratio(registered, public),
        100.0 * ratio(registered, public - unsafe_fns),
        public - unsafe_fns,
        ok.iter().filter(|r| r.safe_share < 0.9).count(),
    ));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::harness::init::skips::{SkipReason, Skipped};

    #[test]
    fn crate_list_reads_name_at_version_lines_and_comments() {
        let l = parse_list("# shapes\nheapless@0.8.0  # fixed\n\n petgraph @ 0.8.3\n").unwrap();
        assert_eq!(
            l,
            vec![
                CrateSpec {
                    name: "heapless".into(),
                    version: "0.8.0".into()
                },
                CrateSpec {
                    name: "petgraph".into(),
                    version: "0.8.3".into()
                },
            ]
        );
        let e = parse_list("heapless 0.8.0\n").unwrap_err().to_string();
        assert_eq!(e, "line 1: `heapless 0.8.0` is not name@version");
        assert!(parse_list("# nothing\n").is_err());
    }

    #[test]
    fn a_failed_row_shows_the_error_without_its_command() {
        assert_eq!(
            short("init failed: error[E0428]: clash; command: cargo build --release\nmore"),
            "init failed: error[E0428]: clash"
        );
        assert_eq!(short(&"x".repeat(300)).len(), 203);
    }

    #[test]
    fn the_ninety_percent_goal_is_judged_on_the_methods_that_are_not_unsafe() {
        let row = |krate: &str, public: usize, registered: usize, unsafe_functions: usize| Row {
            krate: krate.into(),
            public_methods: public,
            registered,
            share: ratio(registered, public),
            unsafe_functions,
            safe_share: ratio(registered, public - unsafe_functions),
            rejected: 0,
            documented: 0,
            skipped: 0,
            top_reasons: Vec::new(),
            error: None,
            seconds: 0.0,
        };
        let report = Report {
            scratch: PathBuf::from("/s"),
            // 24 of 27 with 3 unsafe: every safe method; 24 of 27 without: short of 90%.
            rows: vec![row("a@1", 27, 24, 3), row("b@1", 27, 24, 0)],
        };
        let text = render(&report);
        assert!(
            text.contains("48 of 54 public methods registered (89%, 94% of the 51 that are not `unsafe fn`); 1 under 90% of those"),
            "{text}"
        );
        assert!(
            text.contains("a@1                             27         24    89%      3   100%"),
            "{text}"
        );
    }

    #[test]
    fn the_default_crate_list_names_at_least_ten_crates() {
        assert!(parse_list(DEFAULT_CRATES).unwrap().len() >= 10);
    }

    #[test]
    fn top_skip_reasons_are_counted_by_kind_most_frequent_first() {
        let s = |item: &str, reason: SkipReason| Skipped {
            item: item.into(),
            reason,
        };
        let list = vec![
            s("A::f", SkipReason::UnsafeFunction),
            s("A::g", SkipReason::AsyncFunction),
            s("A::h", SkipReason::UnsafeFunction),
            s("B", SkipReason::LifetimeParameter),
            s(
                "C::r",
                SkipReason::RejectedByCompiler {
                    message: "E0308".into(),
                },
            ),
            s(
                "C::q",
                SkipReason::RejectedByCompiler {
                    message: "E0277".into(),
                },
            ),
        ];
        assert_eq!(
            top_reasons(&list, 3),
            vec![
                ("rejected_by_compiler".to_string(), 2),
                ("unsafe_function".to_string(), 2),
                ("async_function".to_string(), 1),
            ]
        );
    }
}
