//! `perfsyn fit`: the asymptotic verdict for (size, cost) pairs a user already has.
//!
//! The same code as explore's verdict ([`model_select::judge`]) judges points read from a
//! CSV (`size,cost`, optional header), JSON lines (`{"size":..,"cost":..}`) or a criterion
//! benchmark group whose parameter is the input size: criterion measures each size but has
//! no complexity fit, and this gives its users one.

use std::path::Path;

use anyhow::{bail, Context, Result};
use serde::Serialize;

use crate::judge::oracle::model_select::{self, Selection};
use crate::report::class::Class;

/// The result of `perfsyn fit`, printed as JSON with `--json`.
#[derive(Clone, Debug, Serialize)]
pub struct FitReport {
    /// Where the points came from (a path, `-`, or a criterion directory).
    pub source: String,
    /// `O(...)` or `inconclusive`.
    pub class: String,
    pub expected: Option<String>,
    /// Judged significantly above the expected class.
    pub above_expected: bool,
    /// Reason for `inconclusive`, or the note on the comparison with the expected class.
    pub reason: Option<String>,
    pub min_size: f64,
    pub max_size: f64,
    pub decades: f64,
    pub slope: Option<model_select::Interval>,
    pub runner_up: Option<String>,
    pub points: Vec<(f64, f64)>,
    pub verdict: Selection,
}

/// Judges `points` against an optional expected class.
pub fn fit_points(source: &str, points: Vec<(f64, f64)>, expected: Option<Class>) -> FitReport {
    let v = model_select::judge(&points, expected);
    let e = &v.evidence;
    FitReport {
        source: source.to_string(),
        class: v
            .class
            .map_or_else(|| "inconclusive".to_string(), |c| c.label().to_string()),
        expected: expected.map(|c| c.label().to_string()),
        above_expected: v.above_expected,
        reason: e.reason.clone().or_else(|| v.note.clone()),
        min_size: e.min_size,
        max_size: e.max_size,
        decades: e.decades,
        slope: e.slope,
        runner_up: e.runner_up.map(|c| c.label().to_string()),
        points,
        verdict: v,
    }
}

/// Parses a complexity like `O(n log n)`, with a one-line error.
pub fn parse_class(s: &str) -> Result<Class> {
    Class::parse(s).with_context(|| {
        format!("cannot read the complexity `{s}`; write it like O(1), O(log n), O(n), O(n log n), O(n^2), O(n^3) or O(2^n)")
    })
}

/// Reads `size,cost` CSV lines (an optional header, `#` comments) or JSON lines.
pub fn parse_points(text: &str, source: &str) -> Result<Vec<(f64, f64)>> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let at = || format!("{source}:{}", i + 1);
        let (n, c) = if line.starts_with('{') {
            let v: serde_json::Value = serde_json::from_str(line)
                .with_context(|| format!("{}: not a JSON object: {line}", at()))?;
            let get = |k: &str| v.get(k).and_then(|x| x.as_f64());
            match (get("size"), get("cost")) {
                (Some(n), Some(c)) => (n, c),
                _ => bail!(
                    "{}: a JSON line needs numeric \"size\" and \"cost\" fields",
                    at()
                ),
            }
        } else {
            let f: Vec<&str> = line.split([',', ';', '\t']).map(str::trim).collect();
            if f.len() != 2 {
                bail!("{}: expected `size,cost`, got `{line}`", at());
            }
            match (f[0].parse::<f64>(), f[1].parse::<f64>()) {
                (Ok(n), Ok(c)) => (n, c),
                _ if out.is_empty() && i == first_data_line(text) => continue, // header
                _ => bail!("{}: `{line}` is not two numbers", at()),
            }
        };
        if !(n.is_finite() && c.is_finite() && n >= 0.0 && c >= 0.0) {
            bail!("{}: size and cost must be finite and non-negative", at());
        }
        out.push((n, c));
    }
    if out.is_empty() {
        bail!("{source}: no (size, cost) points");
    }
    Ok(out)
}

fn first_data_line(text: &str) -> usize {
    text.lines()
        .position(|l| !(l.trim().is_empty() || l.trim().starts_with('#')))
        .unwrap_or(0)
}

/// Reads a criterion benchmark group: one sub-directory per input size, each with
/// `new/estimates.json` (the mean's point estimate, in ns). The size is the directory name,
/// or `value_str` of `new/benchmark.json` when the name is not a number.
pub fn read_criterion(dir: &Path) -> Result<Vec<(f64, f64)>> {
    let entries = std::fs::read_dir(dir)
        .with_context(|| format!("cannot read the criterion directory {}", dir.display()))?;
    let mut out = Vec::new();
    for e in entries {
        let p = e?.path();
        let est = p.join("new").join("estimates.json");
        if !est.is_file() {
            continue;
        }
        let v: serde_json::Value = serde_json::from_str(
            &std::fs::read_to_string(&est)
                .with_context(|| format!("cannot read {}", est.display()))?,
        )
        .with_context(|| format!("{} is not JSON", est.display()))?;
        let cost = ["mean", "median"]
            .iter()
            .find_map(|k| v.get(k)?.get("point_estimate")?.as_f64())
            .with_context(|| format!("{} has no mean or median point_estimate", est.display()))?;
        let name = p.file_name().map(|s| s.to_string_lossy().to_string());
        let size = name
            .as_deref()
            .and_then(|s| s.parse::<f64>().ok())
            .or_else(|| {
                let b = std::fs::read_to_string(p.join("new").join("benchmark.json")).ok()?;
                let b: serde_json::Value = serde_json::from_str(&b).ok()?;
                b.get("value_str")?.as_str()?.parse::<f64>().ok()
            });
        let Some(size) = size else {
            bail!(
                "{}: the benchmark parameter is not a number (neither the directory name nor value_str in benchmark.json)",
                p.display()
            );
        };
        out.push((size, cost));
    }
    if out.is_empty() {
        bail!(
            "{}: no <size>/new/estimates.json inside; pass a criterion group directory such as target/criterion/<group>",
            dir.display()
        );
    }
    out.sort_by(|a, b| a.0.total_cmp(&b.0));
    Ok(out)
}

/// The evidence lines of a verdict, for explore's and fit's text output.
pub fn render_evidence(v: &Selection) -> String {
    let e = &v.evidence;
    let mut s = format!("evidence: {}\n", e.describe());
    if let Some(r) = &e.reason {
        s.push_str(&format!("  no class: {r}\n"));
    }
    if let Some(n) = &e.slope_note {
        s.push_str(&format!("  {n}\n"));
    }
    if let Some(n) = &v.note {
        s.push_str(&format!("  {n}\n"));
    }
    if !e.outlier_sizes.is_empty() {
        let o: Vec<String> = e.outlier_sizes.iter().map(|x| x.to_string()).collect();
        s.push_str(&format!("  left out as outliers: sizes {}\n", o.join(", ")));
    }
    s
}

/// The human-readable fit report.
pub fn render(r: &FitReport) -> String {
    let mut s = format!("{}: {}", r.source, r.class);
    if let Some(e) = &r.expected {
        s.push_str(&if r.above_expected {
            format!(" (grows faster than the expected {e})")
        } else if r.class == "inconclusive" {
            format!(" (expected {e})")
        } else {
            format!(" (within the expected {e})")
        });
    }
    s.push('\n');
    s.push_str(&render_evidence(&r.verdict));
    s
}
