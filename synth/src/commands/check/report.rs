//! What `perfsyn check` reports: one finding per touched method, as a terminal table, JSON, and a
//! Markdown summary fit for a pull-request comment, plus the exit code that gates CI.

use std::fmt::Write as _;

use serde::{Deserialize, Serialize};

use crate::commands::check::memoization::CheckComputations;
use crate::commands::check::traversals::CheckTraversals;
use crate::judge::oracle::{memoize, toddler};

/// The verdict on one method (the JSON's `verdict`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum CheckVerdict {
    /// The working tree is slower than the baseline by more than the threshold, confirmed by
    /// timing.
    Regression,
    /// The working tree is faster by more than the threshold, confirmed by timing.
    Improvement,
    /// No program made the two revisions differ by more than the threshold.
    None,
    /// The method could not be judged (not explored within the budget, a signature change, a
    /// method missing in one revision, a gap that timing did not confirm); `reason` says which.
    Inconclusive,
}

impl std::fmt::Display for CheckVerdict {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            CheckVerdict::Regression => "regression",
            CheckVerdict::Improvement => "improvement",
            CheckVerdict::None => "none",
            CheckVerdict::Inconclusive => "inconclusive",
        })
    }
}

/// One touched method.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Finding {
    /// `Type::method`.
    pub method: String,
    pub verdict: CheckVerdict,
    /// Deterministic cost of the working tree over the baseline on the most telling program
    /// (above 1: slower now); absent when nothing ran.
    pub ratio: Option<f64>,
    /// The same programs timed (uninstrumented), when confirmation ran.
    pub time_ratio: Option<f64>,
    /// PerfScope-style risk score of the change (equation 1 of the paper).
    pub risk: f64,
    /// Why the method was touched, in words (riskiest change first).
    pub changes: Vec<String>,
    /// Why the verdict is what it is, in words.
    pub reason: String,
    /// The shrunk reproducer as Rust, when a gap was found.
    pub reproducer: Option<String>,
    /// A command that reproduces the exploration exactly.
    pub reproduce_with: Option<String>,
    /// Repeated traversals (Toddler) of the best programs that the change introduced
    /// (`traversals.rs`); absent when not checked.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub repeated_traversals: Option<CheckTraversals>,
    /// Repeated computations (MemoizeIt) of the best programs that the change introduced
    /// (`memoization.rs`); absent when not checked.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub repeated_computations: Option<CheckComputations>,
}

/// A touched item the harness does not register, so nothing measured it: a private or
/// trait-only function, a free function of a private module, or an item `perfsyn init`
/// skipped (its `// skipped:` reason). Listed apart from the findings so that the table holds
/// only what was judged, and the user still sees what the gate did not cover.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct NotMeasured {
    /// The changed item, as the ranking names it.
    pub method: String,
    pub risk: f64,
    /// Why it is not in the harness, in words.
    pub reason: String,
}

/// The whole check.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct CheckReport {
    /// What was compared with what, in words.
    pub compared: String,
    pub baseline: String,
    pub baseline_sha: String,
    /// Cost ratio above which a gap counts (t_rel of the paper).
    pub threshold: f64,
    /// Touched methods, riskiest first.
    pub findings: Vec<Finding>,
    /// Touched methods not explored because the budget ran out (they are also findings with
    /// verdict `inconclusive`).
    pub skipped_for_budget: usize,
    /// Touched items the harness does not register (riskiest first); not findings.
    #[serde(default)]
    pub not_measured: Vec<NotMeasured>,
}

impl CheckReport {
    /// 1 when a regression is confirmed, else 0 (2 is for errors, decided by the caller).
    pub fn exit_code(&self) -> i32 {
        if self
            .findings
            .iter()
            .any(|f| f.verdict == CheckVerdict::Regression)
        {
            1
        } else {
            0
        }
    }

    /// The terminal table.
    pub fn table(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(s, "{}", self.compared);
        if self.findings.is_empty() {
            if self.not_measured.is_empty() {
                let _ = writeln!(s, "no public method's body or callees changed");
            } else {
                let _ = writeln!(s, "no registered method's body or callees changed");
            }
            let _ = write!(s, "{}", self.not_measured_line());
            return s;
        }
        let w = self
            .findings
            .iter()
            .map(|f| f.method.len())
            .max()
            .unwrap_or(6)
            .max(6);
        let _ = writeln!(
            s,
            "{:<w$}  {:>8}  {:<12}  {:>7}  why",
            "method", "risk", "verdict", "ratio"
        );
        for f in &self.findings {
            let _ = writeln!(
                s,
                "{:<w$}  {:>8}  {:<12}  {:>7}  {}",
                f.method,
                format_risk(f.risk),
                f.verdict.to_string(),
                f.ratio.map(|r| format!("{r:.2}x")).unwrap_or("-".into()),
                f.reason
            );
        }
        let _ = write!(s, "{}", self.not_measured_line());
        for f in self
            .findings
            .iter()
            .filter(|f| f.verdict == CheckVerdict::Regression)
        {
            let _ = writeln!(s, "\nregression in {}:", f.method);
            if let Some(r) = &f.reproducer {
                for line in r.lines() {
                    let _ = writeln!(s, "    {line}");
                }
            }
            if let Some(cmd) = &f.reproduce_with {
                let _ = writeln!(s, "Reproduce with: {cmd}");
            }
        }
        for (f, t) in self.traversals() {
            let _ = writeln!(s, "\n{} in {}:", t.label(), f.method);
            // The section's entries, under this finding's own heading.
            let section = toddler::render(&t.traversals, 3);
            let entries = section
                .trim_start_matches('\n')
                .split_once('\n')
                .map_or("", |(_, rest)| rest);
            let _ = write!(s, "{entries}");
        }
        for (f, c) in self.computations() {
            let _ = writeln!(s, "\n{} in {}:", c.label(), f.method);
            // The section's entries, under this finding's own heading.
            let section = memoize::render(&c.opportunities, 3);
            let entries = section
                .trim_start_matches('\n')
                .split_once('\n')
                .map_or("", |(_, rest)| rest);
            let _ = write!(s, "{entries}");
        }
        s
    }

    /// The findings with a repeated computation to show.
    fn computations(&self) -> impl Iterator<Item = (&Finding, &CheckComputations)> {
        self.findings.iter().filter_map(|f| {
            let c = f.repeated_computations.as_ref()?;
            (!c.opportunities.is_empty()).then_some((f, c))
        })
    }

    /// The findings with a repeated traversal to show.
    fn traversals(&self) -> impl Iterator<Item = (&Finding, &CheckTraversals)> {
        self.findings.iter().filter_map(|f| {
            let t = f.repeated_traversals.as_ref()?;
            (!t.traversals.is_empty()).then_some((f, t))
        })
    }

    /// A Markdown summary for a pull-request comment.
    pub fn markdown(&self) -> String {
        let mut s = String::new();
        let regressions = self
            .findings
            .iter()
            .filter(|f| f.verdict == CheckVerdict::Regression)
            .count();
        let head = match regressions {
            0 => "no performance regression found".to_string(),
            1 => "1 performance regression".to_string(),
            n => format!("{n} performance regressions"),
        };
        let _ = writeln!(s, "## perfsyn check: {head}\n");
        let _ = writeln!(
            s,
            "{} (a gap counts above {:.2}x in deterministic cost, confirmed by timing).\n",
            self.compared, self.threshold
        );
        if self.findings.is_empty() {
            if self.not_measured.is_empty() {
                let _ = writeln!(s, "No public method's body or callees changed.");
            } else {
                let _ = writeln!(s, "No registered method's body or callees changed.\n");
                let _ = write!(s, "{}", self.not_measured_line());
            }
            return s;
        }
        let _ = writeln!(s, "| method | risk | verdict | cost ratio | why |");
        let _ = writeln!(s, "| --- | ---: | --- | ---: | --- |");
        for f in &self.findings {
            let _ = writeln!(
                s,
                "| `{}` | {} | {} | {} | {} |",
                f.method,
                format_risk(f.risk),
                f.verdict,
                f.ratio.map(|r| format!("{r:.2}x")).unwrap_or("-".into()),
                f.reason.replace('|', "\\|")
            );
        }
        if !self.not_measured.is_empty() {
            let _ = write!(s, "\n{}", self.not_measured_line());
        }
        for f in self.findings.iter().filter(|f| f.reproducer.is_some()) {
            let _ = writeln!(s, "\n### `{}`: {}\n", f.method, f.verdict);
            for c in f.changes.iter().take(3) {
                let _ = writeln!(s, "- {}", c.replace('`', "'"));
            }
            if let Some(r) = &f.reproducer {
                let _ = writeln!(s, "\n```rust\n{}\n```", r.trim_end());
            }
            if let Some(cmd) = &f.reproduce_with {
                let _ = writeln!(s, "\nReproduce with: `{cmd}`");
            }
        }
        for (f, t) in self.traversals() {
            let _ = writeln!(s, "\n### `{}`: {}\n", f.method, t.label());
            for r in &t.traversals {
                let _ = writeln!(s, "- `{}`: {}", r.read, r.describe().replace('|', "\\|"));
                if !r.stack.is_empty() {
                    let _ = writeln!(s, "  called from `{}`", r.stack.join("` <- `"));
                }
                let _ = writeln!(s, "\n```rust\n{}\n```", r.program.trim_end());
            }
        }
        for (f, c) in self.computations() {
            let _ = writeln!(s, "\n### `{}`: {}\n", f.method, c.label());
            for o in &c.opportunities {
                let _ = writeln!(s, "- `{}`: {}", o.at, o.describe().replace('|', "\\|"));
                if !o.callers.is_empty() {
                    let _ = writeln!(s, "  called from `{}`", o.callers.join("`, `"));
                }
            }
        }
        s
    }
}

impl CheckReport {
    /// One line naming the touched items nothing measured (empty when there are none).
    fn not_measured_line(&self) -> String {
        if self.not_measured.is_empty() {
            return String::new();
        }
        let names: Vec<&str> = self
            .not_measured
            .iter()
            .map(|n| n.method.as_str())
            .collect();
        format!(
            "not measured (changed, but not registered in the harness: private, trait-only or skipped by `perfsyn init`; reasons in the JSON): {}\n",
            names.join(", ")
        )
    }
}

fn format_risk(r: f64) -> String {
    if r >= 10.0 {
        format!("{r:.0}")
    } else {
        format!("{r:.2}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn finding(method: &str, verdict: CheckVerdict) -> Finding {
        Finding {
            method: method.into(),
            verdict,
            ratio: Some(3.5),
            time_ratio: Some(3.1),
            risk: 110.0,
            changes: vec!["extreme: changed `x`".into()],
            reason: "cost 3.50x the baseline".into(),
            reproducer: Some("let mut b = Bag::new();\nb.push(1);".into()),
            reproduce_with: Some("perfsyn explore --method Bag::push --baseline HEAD~1".into()),
            repeated_traversals: None,
            repeated_computations: None,
        }
    }

    #[test]
    fn a_regression_fails_the_gate_and_is_shown_with_its_reproducer() {
        let r = CheckReport {
            compared: "comparing HEAD~1 with the working tree".into(),
            baseline: "HEAD~1".into(),
            baseline_sha: "abc".into(),
            threshold: 1.2,
            findings: vec![
                finding("Bag::push", CheckVerdict::Regression),
                finding("Bag::len", CheckVerdict::None),
            ],
            skipped_for_budget: 0,
            not_measured: vec![NotMeasured {
                method: "Bag::lm_get".into(),
                risk: 15.0,
                reason: "not registered".into(),
            }],
        };
        assert_eq!(r.exit_code(), 1);
        let mut r = r;
        r.findings[0].repeated_traversals = Some(CheckTraversals {
            traversals: vec![toddler::RepeatedTraversal {
                outer: "successive calls of Bag::push".into(),
                loop_at: None,
                program_kind: "best, calls in a row".into(),
                program: "let mut b = Bag::new();".into(),
                read: "src/lib.rs:14".into(),
                stack: vec!["src/lib.rs:20".into()],
                iterations: 16,
                sequences: 15,
                similar_ratio: 1.0,
                mean_lcs: 40.0,
                mean_lcs_ratio: 1.0,
                reads_per_call: 40.0,
                redundant_reads_per_call: 40.0,
                capped: false,
                growth: vec![("best".into(), 40.0), ("shrunk".into(), 5.0)],
            }],
            baseline_traced: true,
            skipped: None,
        });
        let md = r.markdown();
        assert!(
            md.contains("### `Bag::push`: repeated traversal introduced by the change"),
            "{md}"
        );
        assert!(md.contains("- `src/lib.rs:14`: "), "{md}");
        let t = r.table();
        assert!(
            t.contains("repeated traversal introduced by the change (absent from the baseline on the same programs) in Bag::push:\n    src/lib.rs:14 read again"),
            "{t}"
        );
        assert!(
            t.contains("redundant reads per call: 40 in the best program, 5 in the shrunk program"),
            "{t}"
        );
        assert!(md.contains("1 performance regression"), "{md}");
        assert!(md.contains("```rust\nlet mut b = Bag::new();"), "{md}");
        assert!(
            md.contains("not measured (changed, but not registered"),
            "{md}"
        );
        assert!(!md.contains("| `Bag::lm_get`"), "{md}");
        let t = r.table();
        assert!(t.contains("regression in Bag::push"), "{t}");
        assert!(t.contains("): Bag::lm_get\n"), "{t}");
        let json = serde_json::to_value(&r).unwrap();
        assert_eq!(json["findings"][0]["verdict"], "regression");
        assert_eq!(json["findings"][0]["risk"], 110.0);
    }

    #[test]
    fn a_repeated_computation_the_change_introduced_is_shown_under_its_finding() {
        let mut f = finding("Bag::add", CheckVerdict::None);
        f.repeated_computations = Some(CheckComputations {
            opportunities: vec![memoize::Opportunity {
                function: "limit".into(),
                at: "src/lib.rs:52".into(),
                callers: vec!["src/lib.rs:30".into()],
                activations: 16,
                hit_ratio: 15.0 / 16.0,
                cost_share: 0.25,
                edges: 400,
                edges_saved: 375,
                total_edges: 1600,
                writes: false,
                caches: Vec::new(),
                suggestion: Some("single, global".into()),
                program_kind: "best, calls in a row".into(),
            }],
            baseline_traced: true,
            skipped: None,
        });
        let r = CheckReport {
            compared: String::new(),
            baseline: "HEAD~1".into(),
            baseline_sha: "abc".into(),
            threshold: 1.2,
            findings: vec![f],
            skipped_for_budget: 0,
            not_measured: Vec::new(),
        };
        let t = r.table();
        assert!(
            t.contains("repeated computation introduced by the change (absent from the baseline on the same programs) in Bag::add:\n    limit at src/lib.rs:52: 15 of 16 activations"),
            "{t}"
        );
        assert!(t.contains("        called from src/lib.rs:30\n"), "{t}");
        let md = r.markdown();
        assert!(
            md.contains("### `Bag::add`: repeated computation introduced by the change"),
            "{md}"
        );
        assert!(md.contains("- `src/lib.rs:52`: limit at"), "{md}");
        let json = serde_json::to_value(&r).unwrap();
        let c = &json["findings"][0]["repeated_computations"];
        assert_eq!(c["baseline_traced"], true);
        assert_eq!(c["opportunities"][0]["function"], "limit");
    }

    #[test]
    fn no_regression_passes_the_gate() {
        let r = CheckReport {
            compared: String::new(),
            baseline: "HEAD~1".into(),
            baseline_sha: "abc".into(),
            threshold: 1.2,
            findings: vec![finding("Bag::push", CheckVerdict::Improvement)],
            skipped_for_budget: 0,
            not_measured: Vec::new(),
        };
        assert_eq!(r.exit_code(), 0);
    }
}
