//! `--json`, `--sarif FILE` and `--bmf FILE` of `hunt`, `report` and `check`: the formats
//! other tools read (scripts, GitHub code scanning, Bencher), written the same way by every
//! command that has them.

use std::path::{Path, PathBuf};

use anyhow::Result;
use clap::Args;

use crate::commands::check::report::CheckReport;
use crate::commands::hunt::report::Summary;
use crate::commands::sarif::{self, Issue, Line};
use crate::harness::Harness;

/// The machine-readable outputs of a command's findings.
#[derive(Debug, Args)]
pub struct FindingOutputs {
    /// Write the findings as SARIF 2.1.0 (GitHub code scanning) to FILE.
    #[arg(long, value_name = "FILE")]
    pub sarif: Option<PathBuf>,
    /// Write per-method measures in Bencher Metric Format (JSON) to FILE.
    #[arg(long, value_name = "FILE")]
    pub bmf: Option<PathBuf>,
}

impl FindingOutputs {
    /// Writes the files asked for from a hunt's summary.
    pub fn write_hunt(&self, s: &Summary, harness: Option<&Harness>) -> Result<()> {
        if let Some(f) = &self.sarif {
            let locate = definitions(harness);
            write_sarif(f, &sarif::hunt_issues(s, &locate))?;
        }
        if let Some(f) = &self.bmf {
            write_json(f, &crate::commands::bmf::from_hunt(&s.methods))?;
        }
        Ok(())
    }

    /// Writes the files asked for from a check's report.
    pub fn write_check(&self, r: &CheckReport, harness: &Harness) -> Result<()> {
        if let Some(f) = &self.sarif {
            let locate = definitions(Some(harness));
            write_sarif(f, &sarif::check_issues(r, &locate))?;
        }
        if let Some(f) = &self.bmf {
            write_json(f, &crate::commands::bmf::from_check(r))?;
        }
        Ok(())
    }
}

/// Finds a method's definition in the harness's crate sources (the corpus's for the built-in
/// harness); nothing without a harness.
fn definitions(harness: Option<&Harness>) -> impl Fn(&str) -> Option<Line> + '_ {
    move |method: &str| {
        let h = harness?;
        let src = if h.builtin {
            h.manifest.parent()?.join("src")
        } else {
            h.crate_dir.join("src")
        };
        crate::commands::definition::find(&src, method).map(|d| Line {
            file: d.file,
            line: d.line,
        })
    }
}

fn write_sarif(file: &Path, issues: &[Issue]) -> Result<()> {
    let here = std::env::current_dir()?;
    let root = sarif::repository_root(&here);
    write_json(file, &sarif::log(issues, &here, root.as_deref()))
}

fn write_json(file: &Path, value: &impl serde::Serialize) -> Result<()> {
    let text = serde_json::to_string_pretty(value)?;
    std::fs::write(file, text + "\n")
        .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", file.display()))
}

/// Prints a hunt's summary: as JSON (`--json`, the document `summary.json` holds), else as
/// the terminal text.
pub fn print_summary(s: &Summary, dir: &Path, json: bool) -> Result<()> {
    if json {
        println!("{}", serde_json::to_string_pretty(s)?);
    } else {
        print!("{}", crate::commands::hunt::report::terminal(s, dir));
    }
    Ok(())
}
