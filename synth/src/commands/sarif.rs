//! SARIF 2.1.0 (the OASIS Static Analysis Results Interchange Format) for `check --sarif` and
//! `hunt --sarif`.
//!
//! Why: GitHub code scanning (and most review tools) read SARIF and annotate the pull request
//! at the file and line; a perfsyn finding otherwise lives in a terminal log or an HTML report
//! nobody opens. One result per finding: bottlenecks of a hunt and regressions of a check,
//! plus undocumented methods growing faster than linearly as `note`s. Each result sits at the
//! top hot line in the crate under test when the run has one, else at the method's definition
//! ([`crate::commands::definition`]), else at the method's name alone (a logical location). The rule id
//! is one per oracle (`perfsyn/asymptotic`, `perfsyn/relative`), stable across versions, and
//! each result carries a fingerprint of its rule and method, so code scanning tracks a
//! finding across commits even when its hot line moves.
//!
//! GitHub's limits: at most 25,000 results per run (more are dropped, with a note in the
//! run's properties) and short messages (each is cut to [`MAX_MESSAGE`] bytes).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::commands::check::report::{CheckReport, CheckVerdict};
use crate::commands::hunt::report::Summary;
use crate::commands::hunt::summary::MethodSummary;
use crate::report::class::Class;

/// The JSON schema of SARIF 2.1.0, as `$schema`.
pub const SCHEMA: &str = "https://json.schemastore.org/sarif-2.1.0.json";
/// GitHub code scanning's limit of results per run.
pub const MAX_RESULTS: usize = 25_000;
/// The longest message text written, in bytes.
pub const MAX_MESSAGE: usize = 1000;

/// The oracle behind a result, one rule each.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Rule {
    /// A cost class above the documented one.
    Asymptotic,
    /// A cost gap between two versions.
    Relative,
}

impl Rule {
    pub fn id(self) -> &'static str {
        match self {
            Rule::Asymptotic => "perfsyn/asymptotic",
            Rule::Relative => "perfsyn/relative",
        }
    }

    fn descriptor(self) -> ReportingDescriptor {
        let (name, short, full) = match self {
            Rule::Asymptotic => (
                "UnexpectedComplexity",
                "Cost grows faster than documented",
                "perfsyn synthesized programs whose deterministic cost (coverage edges and bytes moved) grows with the input size faster than the method's documented complexity class, confirmed on the clock.",
            ),
            Rule::Relative => (
                "PerformanceRegression",
                "Slower than the other version",
                "perfsyn ran the same synthesized programs on two versions of the method and the one under analysis costs more than the threshold times the other, confirmed on the clock.",
            ),
        };
        ReportingDescriptor {
            id: self.id().into(),
            name: name.into(),
            short_description: Message { text: short.into() },
            full_description: Message { text: full.into() },
            default_configuration: Configuration {
                level: "warning".into(),
            },
            help_uri: "https://example.invalid/perfsyn#readme".into(),
        }
    }
}

/// How serious a result is (SARIF's `level`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    Error,
    Warning,
    Note,
}

impl Level {
    fn name(self) -> &'static str {
        match self {
            Level::Error => "error",
            Level::Warning => "warning",
            Level::Note => "note",
        }
    }
}

/// A file and 1-based line, the path as the run names it (relative to where perfsyn ran, or
/// absolute).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    pub file: PathBuf,
    pub line: u32,
}

/// One finding, before it becomes a SARIF result.
#[derive(Clone, Debug)]
pub struct Issue {
    pub rule: Rule,
    pub level: Level,
    /// `Type::method`.
    pub method: String,
    pub message: String,
    /// Where to annotate; `None`: the method's name only.
    pub at: Option<Line>,
}

/// The issues of a hunt: its ranked findings, then the undocumented super-linear methods as
/// notes. `locate` gives a method's definition when its run has no hot line in the crate.
pub fn hunt_issues(s: &Summary, locate: &dyn Fn(&str) -> Option<Line>) -> Vec<Issue> {
    let row = |m: &str| s.methods.iter().find(|r| r.method == m);
    let at = |m: &str| {
        row(m)
            .and_then(|r| r.hot_line.as_ref())
            .map(|h| Line {
                file: PathBuf::from(&h.file),
                line: h.line,
            })
            .or_else(|| locate(m))
    };
    let mut out = Vec::new();
    for f in s.relative.iter().chain(&s.asymptotic) {
        let rule = if f.ratio.is_some() && f.oracle == crate::explore::OracleKind::Relative {
            Rule::Relative
        } else {
            Rule::Asymptotic
        };
        let what = match rule {
            Rule::Relative => format!(
                "`{}` costs {} times the other version on a synthesized program ({}).",
                f.method,
                f.ratio.map_or("?".into(), |r| format!("{r:.2}")),
                f.reason
            ),
            Rule::Asymptotic => format!(
                "`{}` costs {} where {} is documented{}.",
                f.method,
                f.empirical.map_or("?", Class::label),
                f.expected.map_or("nothing", Class::label),
                row(&f.method).map_or(String::new(), figures)
            ),
        };
        out.push(Issue {
            rule,
            level: Level::Warning,
            method: f.method.clone(),
            message: format!("{what} Reproduce: {}", f.export_command),
            at: at(&f.method),
        });
    }
    for (n, class) in crate::commands::hunt::report::superlinear_undocumented(s) {
        out.push(Issue {
            rule: Rule::Asymptotic,
            level: Level::Note,
            method: n.method.clone(),
            message: format!(
                "`{}` has no documented complexity and its cost grows as {}{}. If it should be faster, judge it with: {} --expect \"O(n)\"",
                n.method,
                class.label(),
                row(&n.method).map_or(String::new(), figures),
                n.explore_command
            ),
            at: at(&n.method),
        });
    }
    out
}

/// ` (cost 123 at size 4096, fitted exponent 2.01)`, from what the row has.
fn figures(r: &MethodSummary) -> String {
    let mut parts = Vec::new();
    if let (Some(n), Some(c)) = (r.largest_size, r.cost_at_largest_size) {
        parts.push(format!("cost {c:.0} at size {n}"));
    }
    if let Some(e) = r.fitted_exponent {
        parts.push(format!("fitted exponent {e:.2}"));
    }
    if parts.is_empty() {
        String::new()
    } else {
        format!(" ({})", parts.join(", "))
    }
}

/// The issues of a check: its confirmed regressions (errors: they fail the gate).
pub fn check_issues(r: &CheckReport, locate: &dyn Fn(&str) -> Option<Line>) -> Vec<Issue> {
    r.findings
        .iter()
        .filter(|f| f.verdict == CheckVerdict::Regression)
        .map(|f| Issue {
            rule: Rule::Relative,
            level: Level::Error,
            method: f.method.clone(),
            message: format!(
                "`{}` is slower than {}: {}{}",
                f.method,
                r.baseline,
                f.reason,
                f.reproduce_with
                    .as_deref()
                    .map_or(String::new(), |c| format!(" Reproduce: {c}"))
            ),
            at: locate(&f.method),
        })
        .collect()
}

/// The SARIF log of `issues`. File paths become URIs relative to `root` (the repository's
/// top, under `%SRCROOT%`) when they lie under it; `base` is the directory relative paths
/// are relative to.
pub fn log(issues: &[Issue], base: &Path, root: Option<&Path>) -> SarifLog {
    let mut rules: Vec<Rule> = issues.iter().map(|i| i.rule).collect();
    rules.sort();
    rules.dedup();
    let results: Vec<SarifResult> = issues
        .iter()
        .take(MAX_RESULTS)
        .map(|i| {
            let physical = i.at.as_ref().map(|l| PhysicalLocation {
                artifact_location: artifact(&l.file, base, root),
                region: Region {
                    start_line: l.line.max(1),
                },
            });
            SarifResult {
                rule_id: i.rule.id().into(),
                rule_index: rules.iter().position(|r| *r == i.rule).unwrap_or(0),
                level: i.level.name().into(),
                message: Message {
                    text: cut(&i.message, MAX_MESSAGE),
                },
                locations: vec![Location {
                    physical_location: physical,
                    logical_locations: vec![LogicalLocation {
                        fully_qualified_name: i.method.clone(),
                        kind: "function".into(),
                    }],
                }],
                partial_fingerprints: BTreeMap::from([(
                    "perfsynMethod/v1".to_string(),
                    format!("{}:{}", i.rule.id(), i.method),
                )]),
            }
        })
        .collect();
    let dropped = issues.len().saturating_sub(MAX_RESULTS);
    SarifLog {
        schema: SCHEMA.into(),
        version: "2.1.0".into(),
        runs: vec![Run {
            tool: Tool {
                driver: Driver {
                    name: "perfsyn".into(),
                    version: env!("CARGO_PKG_VERSION").into(),
                    information_uri: "https://example.invalid/perfsyn".into(),
                    rules: rules.iter().map(|r| r.descriptor()).collect(),
                },
            },
            results,
            properties: (dropped > 0).then(|| {
                BTreeMap::from([(
                    "droppedResults".to_string(),
                    serde_json::Value::from(dropped),
                )])
            }),
        }],
    }
}

/// The top of the git repository holding `dir` (the nearest ancestor with `.git`).
pub fn repository_root(dir: &Path) -> Option<PathBuf> {
    dir.ancestors()
        .find(|d| d.join(".git").exists())
        .map(Path::to_path_buf)
}

fn artifact(file: &Path, base: &Path, root: Option<&Path>) -> ArtifactLocation {
    let abs = if file.is_absolute() {
        file.to_path_buf()
    } else {
        base.join(file)
    };
    let abs = abs.canonicalize().unwrap_or(abs);
    let under_root = root
        .map(|r| r.canonicalize().unwrap_or_else(|_| r.to_path_buf()))
        .and_then(|r| abs.strip_prefix(&r).ok().map(Path::to_path_buf));
    match under_root {
        Some(rel) => ArtifactLocation {
            uri: uri_path(&rel),
            uri_base_id: Some("%SRCROOT%".into()),
        },
        None if file.is_relative() => ArtifactLocation {
            uri: uri_path(file),
            uri_base_id: Some("%SRCROOT%".into()),
        },
        None => ArtifactLocation {
            uri: format!("file://{}", uri_path(&abs)),
            uri_base_id: None,
        },
    }
}

/// A path with `/` separators and the characters a URI cannot hold escaped.
fn uri_path(p: &Path) -> String {
    let s = p
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .filter(|c| c != "/")
        .collect::<Vec<_>>()
        .join("/");
    let mut out = String::new();
    if p.is_absolute() {
        out.push('/');
    }
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~/".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// `text` cut to at most `max` bytes on a character boundary, with `...` when cut.
fn cut(text: &str, max: usize) -> String {
    if text.len() <= max {
        return text.to_string();
    }
    let mut end = max - 3;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}...", &text[..end])
}

/// The SARIF log object (the parts perfsyn writes).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SarifLog {
    #[serde(rename = "$schema")]
    pub schema: String,
    pub version: String,
    pub runs: Vec<Run>,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Run {
    pub tool: Tool,
    pub results: Vec<SarifResult>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub properties: Option<BTreeMap<String, serde_json::Value>>,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Tool {
    pub driver: Driver,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Driver {
    pub name: String,
    pub version: String,
    pub information_uri: String,
    pub rules: Vec<ReportingDescriptor>,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ReportingDescriptor {
    pub id: String,
    pub name: String,
    pub short_description: Message,
    pub full_description: Message,
    pub default_configuration: Configuration,
    pub help_uri: String,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Configuration {
    pub level: String,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Message {
    pub text: String,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SarifResult {
    pub rule_id: String,
    pub rule_index: usize,
    pub level: String,
    pub message: Message,
    pub locations: Vec<Location>,
    pub partial_fingerprints: BTreeMap<String, String>,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Location {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub physical_location: Option<PhysicalLocation>,
    pub logical_locations: Vec<LogicalLocation>,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PhysicalLocation {
    pub artifact_location: ArtifactLocation,
    pub region: Region,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ArtifactLocation {
    pub uri: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub uri_base_id: Option<String>,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Region {
    pub start_line: u32,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LogicalLocation {
    pub fully_qualified_name: String,
    pub kind: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn issue(n: usize) -> Issue {
        Issue {
            rule: Rule::Relative,
            level: Level::Error,
            method: format!("T::m{n}"),
            message: "é".repeat(800),
            at: Some(Line {
                file: "src/lib.rs".into(),
                line: 3,
            }),
        }
    }

    #[test]
    fn results_stay_within_githubs_limits() {
        let issues: Vec<Issue> = (0..MAX_RESULTS + 2).map(issue).collect();
        let l = log(&issues, Path::new("/nowhere"), None);
        assert_eq!(l.runs[0].results.len(), MAX_RESULTS);
        let r = &l.runs[0].results[0];
        assert!(r.message.text.len() <= MAX_MESSAGE);
        assert_eq!(
            r.locations[0]
                .physical_location
                .as_ref()
                .unwrap()
                .artifact_location
                .uri,
            "src/lib.rs"
        );
        assert_eq!(l.runs[0].properties.as_ref().unwrap()["droppedResults"], 2);
    }
}
