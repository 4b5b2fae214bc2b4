//! `perfsyn bench values`: what values mined from a crate's own tests buy the search, on
//! crates from the registry that read text. Each crate of a list (`name@version` and the
//! methods to explore, see `values_crates.txt`) is fetched and initialized as `bench init`
//! does (its fetch and init are reused), then each method is explored twice through the
//! command users run (`perfsyn explore`, same seed and program budget): with mined values
//! and with `--no-mined-values`. Per (crate, method) and arm it reports the distinct
//! edge-hit counts the search reached (the worker reports how many coverage edges a call
//! hit, not which ones: see `search::Stats::distinct_edge_counts`), the distinct valid
//! programs (the search never reruns a program it has seen) and the verdict with its class.

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{bail, Context, Result};
use serde::Serialize;

use crate::commands::bench::init::{self, CrateSpec};

/// The crates the bench runs on when no list is given.
pub const DEFAULT_CRATES: &str = include_str!("values_crates.txt");

/// One crate of the list and the methods to explore on it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CrateMethods {
    pub spec: CrateSpec,
    pub methods: Vec<String>,
}

/// Reads a list: `name@version method[,method...]` a line; `#` starts a comment, blank lines
/// are ignored.
pub fn parse_list(text: &str) -> Result<Vec<CrateMethods>> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let mut words = line.split_whitespace();
        let spec = words.next().unwrap_or("");
        let spec = init::parse_list(spec)
            .with_context(|| format!("line {}: `{line}` is not name@version", i + 1))?
            .remove(0);
        let methods: Vec<String> = words
            .flat_map(|w| w.split(','))
            .map(str::trim)
            .filter(|m| !m.is_empty())
            .map(str::to_string)
            .collect();
        if methods.is_empty() {
            bail!("line {}: `{line}` names no method after the crate", i + 1);
        }
        out.push(CrateMethods { spec, methods });
    }
    if out.is_empty() {
        bail!("the crate list names no crate (name@version and methods, one a line)");
    }
    Ok(out)
}

/// The budget of each explore.
#[derive(Clone, Debug, Serialize)]
pub struct ValuesConfig {
    pub max_programs: u64,
    pub seed: u64,
}

/// One explore's figures.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Arm {
    /// Distinct edge-hit counts among the valid programs.
    pub edge_counts: u64,
    pub valid: u64,
    pub programs: u64,
    pub verdict: String,
    /// The class the verdict's fit found, as its label.
    pub class: Option<String>,
    /// Why the explore gave no report (its first error line).
    pub error: Option<String>,
}

/// One (crate, method): the two arms.
#[derive(Clone, Debug, Serialize)]
pub struct Row {
    pub krate: String,
    pub method: String,
    pub mined: Arm,
    pub without: Arm,
}

/// The figures of one run.
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    pub scratch: PathBuf,
    pub config: ValuesConfig,
    pub rows: Vec<Row>,
}

/// Fetches and initializes each crate of `crates` in `scratch`, then explores each of its
/// methods with and without mined values; `progress` hears a line per step.
pub fn run(
    crates: &[CrateMethods],
    scratch: &Path,
    cfg: &ValuesConfig,
    progress: &mut dyn FnMut(&str),
) -> Result<Report> {
    std::fs::create_dir_all(scratch)
        .with_context(|| format!("cannot create {}", scratch.display()))?;
    let exe = std::env::current_exe().context("cannot find perfsyn's own executable")?;
    let mut rows = Vec::new();
    for c in crates {
        progress(&format!("{}: fetching and perfsyn init", c.spec));
        let dir = init::fetch(&c.spec, scratch).and_then(|dir| {
            match init::init_row(&c.spec, &dir).error {
                Some(e) => bail!("{e}"),
                None => Ok(dir),
            }
        });
        for m in &c.methods {
            let (mined, without) = match &dir {
                Ok(dir) => (
                    explore(&exe, dir, m, cfg, true),
                    explore(&exe, dir, m, cfg, false),
                ),
                Err(e) => {
                    let failed = Arm {
                        error: Some(format!("{e:#}").lines().next().unwrap_or("").into()),
                        ..Arm::default()
                    };
                    (failed.clone(), failed)
                }
            };
            progress(&format!(
                "{} {m}: edge counts {} with mined values, {} without",
                c.spec, mined.edge_counts, without.edge_counts
            ));
            rows.push(Row {
                krate: c.spec.to_string(),
                method: m.clone(),
                mined,
                without,
            });
        }
    }
    Ok(Report {
        scratch: scratch.to_path_buf(),
        config: cfg.clone(),
        rows,
    })
}

/// `perfsyn explore --json` on `method` in the crate at `dir`, as an arm.
fn explore(exe: &Path, dir: &Path, method: &str, cfg: &ValuesConfig, mined: bool) -> Arm {
    let mut cmd = Command::new(exe);
    cmd.current_dir(dir).args([
        "explore",
        "--method",
        method,
        "--max-programs",
        &cfg.max_programs.to_string(),
        "--seed",
        &cfg.seed.to_string(),
        "--confirm-top",
        "0",
        "--json",
    ]);
    if !mined {
        cmd.arg("--no-mined-values");
    }
    let failed = |e: String| Arm {
        error: Some(e),
        ..Arm::default()
    };
    let out = match cmd.output() {
        Ok(o) => o,
        Err(e) => return failed(format!("cannot run explore: {e}")),
    };
    let Ok(v) = serde_json::from_slice::<serde_json::Value>(&out.stdout) else {
        let err = String::from_utf8_lossy(&out.stderr);
        let line = err
            .lines()
            .find(|l| l.starts_with("error"))
            .or_else(|| err.lines().last())
            .unwrap_or("explore printed no report");
        return failed(line.to_string());
    };
    let n = |k: &str| v["stats"][k].as_u64().unwrap_or(0);
    Arm {
        edge_counts: n("distinct_edge_counts"),
        valid: n("valid"),
        programs: n("programs"),
        verdict: v["verdict"].as_str().unwrap_or("?").to_string(),
        class: v["empirical"].as_str().map(str::to_string),
        error: None,
    }
}

/// The report as a table.
pub fn render(r: &Report) -> String {
    let mut s = format!(
        "{} programs per explore, seed {} (mined / without; edges: distinct edge-hit counts)\n",
        r.config.max_programs, r.config.seed
    );
    s += &format!(
        "{:<24} {:<28} {:>13} {:>13} {:<30} {:<30}\n",
        "crate", "method", "edges", "valid", "verdict mined", "verdict without"
    );
    let verdict = |a: &Arm| match &a.error {
        Some(e) => format!("error: {}", e.chars().take(23).collect::<String>()),
        None => format!("{} {}", a.verdict, a.class.as_deref().unwrap_or("-")),
    };
    for row in &r.rows {
        s += &format!(
            "{:<24} {:<28} {:>13} {:>13} {:<30} {:<30}\n",
            row.krate,
            row.method,
            format!("{} / {}", row.mined.edge_counts, row.without.edge_counts),
            format!("{} / {}", row.mined.valid, row.without.valid),
            verdict(&row.mined),
            verdict(&row.without),
        );
    }
    let (m, w): (u64, u64) = r.rows.iter().fold((0, 0), |(m, w), x| {
        (m + x.mined.edge_counts, w + x.without.edge_counts)
    });
    if w > 0 {
        s += &format!(
            "edge counts over all rows: {m} with mined values, {w} without ({:+.0}%)\n",
            (m as f64 / w as f64 - 1.0) * 100.0
        );
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn list_lines_name_a_crate_and_its_methods() {
        let l = parse_list(
            "# c\nglob@0.3.1  Pattern::matches,crate::glob # x\n\nshlex@1.3.0 crate::split\n",
        )
        .unwrap();
        assert_eq!(l.len(), 2);
        assert_eq!(l[0].spec.name, "glob");
        assert_eq!(l[0].methods, ["Pattern::matches", "crate::glob"]);
        assert_eq!(l[1].methods, ["crate::split"]);
    }

    #[test]
    fn list_line_without_methods_is_refused() {
        assert!(parse_list("glob@0.3.1\n").is_err());
        assert!(parse_list("glob Pattern::matches\n").is_err());
    }

    #[test]
    fn builtin_list_names_six_crates() {
        assert!(parse_list(DEFAULT_CRATES).unwrap().len() >= 6);
    }
}
