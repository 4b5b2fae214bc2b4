//! `perfsyn bench memoize`: the repeated-computation oracle (`judge/oracle/memoize.rs`) on a
//! labeled set of helpers, the harness's `memoize.json`: helpers that recompute an
//! identical result (a parse, a hash, a sort, a format; inside a loop of the method or
//! across its calls), one whose side effect is redundant, and the same kinds of helpers
//! whose input differs on every call. Each case's program is `bench toddler`'s: the
//! receiver filled with values, then the method called in a `repeat` with the loop index.
//! Prints recall (the labeled helper reported), its rank among the method's reports, the
//! varying-input helpers reported (false positives), and the trace build's slowdown against
//! the plain build. The labels are read only here, after the oracle ran.

use std::path::Path;

use anyhow::{bail, Context, Result};
use perfsyn_profiler_ipc::Program;
use serde::{Deserialize, Serialize};

use crate::commands::bench::toddler;
use crate::judge::hotlines::Symbolizer;
use crate::judge::oracle::memoize::Params;

/// One labeled helper of the case list.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Case {
    pub id: String,
    /// `Type::method`: a method taking the receiver and one `u64`.
    pub method: String,
    /// The helper's function name (the last path segment).
    pub helper: String,
    /// Whether calling the helper is a memoization opportunity.
    pub opportunity: bool,
    pub from: String,
}

/// One case's outcome.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct CaseResult {
    pub id: String,
    pub method: String,
    pub helper: String,
    pub opportunity: bool,
    /// The helper was reported.
    pub found: bool,
    /// Its rank among the method's reports (1: first), when reported.
    pub rank: Option<usize>,
    pub hit_ratio: Option<f64>,
    pub suggestion: Option<String>,
    /// Share of the calls' edges the suggested cache saves, when reported.
    pub saved_share: Option<f64>,
    /// `file:line` of the helper, when reported.
    pub at: Option<String>,
    /// Every function reported for the method, best saving first.
    pub reported: Vec<String>,
    pub events: usize,
    pub trace_ns: u64,
    pub plain_ns: f64,
}

/// The result of `perfsyn bench memoize`.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct MemoizeBench {
    /// Opportunities whose helper was reported / opportunities.
    pub recall: f64,
    pub opportunities: usize,
    pub found: usize,
    /// Of those, reported first or second for their method.
    pub top_two: usize,
    /// Varying-input helpers reported.
    pub false_positives: usize,
    pub varying: usize,
    /// Mean over the cases of (trace-build wall time / plain-build wall time) per program.
    pub slowdown: f64,
    pub params: Params,
    pub cases: Vec<CaseResult>,
}

/// Reads the harness's case list.
pub fn load_cases(path: &Path) -> Result<Vec<Case>> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    serde_json::from_str(&text)
        .with_context(|| format!("{} is not a memoize case list", path.display()))
}

/// The program of case `c` (`bench toddler`'s shape: fill, then the method in a `repeat`).
pub fn program(c: &Case) -> Result<Program> {
    toddler::program(&toddler::Case {
        id: c.id.clone(),
        method: c.method.clone(),
        bug: c.opportunity,
        from: c.from.clone(),
        fill: "add".into(),
        arg: "index".into(),
        split: toddler::TUNING.into(),
        calls: toddler::CALLS,
    })
}

/// Whether the reported function `name` is the helper `helper`.
fn is_helper(name: &str, helper: &str) -> bool {
    name == helper || name.ends_with(&format!("::{helper}"))
}

/// Runs the cases on the `trace` build and times them on the `plain` build.
pub fn run(cases: &[Case], trace: &Path, plain: &Path) -> Result<MemoizeBench> {
    let programs: Vec<Program> = cases.iter().map(program).collect::<Result<_>>()?;
    let traces = crate::run::reads::trace_reads(trace, None, &programs)?;
    let mut sym = Symbolizer::new(trace)?;
    let mut results = Vec::new();
    for ((c, prog), t) in cases.iter().zip(&programs).zip(&traces) {
        if t.calls.len() != toddler::CALLS as usize {
            bail!(
                "case {}: {} calls under test ran, not {} (does {} take one u64?)",
                c.id,
                t.calls.len(),
                toddler::CALLS,
                c.method
            );
        }
        let found = crate::explore::memoize::judge(&t.activations, &mut sym);
        let hit = found.iter().position(|o| is_helper(&o.function, &c.helper));
        let o = hit.map(|i| &found[i]);
        results.push(CaseResult {
            id: c.id.clone(),
            method: c.method.clone(),
            helper: c.helper.clone(),
            opportunity: c.opportunity,
            found: hit.is_some(),
            rank: hit.map(|i| i + 1),
            hit_ratio: o.map(|o| o.hit_ratio),
            suggestion: o.and_then(|o| o.suggestion.clone()),
            saved_share: o.map(|o| o.edges_saved as f64 / o.total_edges.max(1) as f64),
            at: o.map(|o| o.at.clone()),
            reported: found.iter().map(|o| o.function.clone()).collect(),
            events: t.activations.events.len(),
            trace_ns: t.nanos,
            plain_ns: toddler::plain_ns(plain, prog)?,
        });
    }
    let opportunities = results.iter().filter(|r| r.opportunity).count();
    let found = results.iter().filter(|r| r.opportunity && r.found).count();
    let top_two = results
        .iter()
        .filter(|r| r.opportunity && r.rank.is_some_and(|k| k <= 2))
        .count();
    let varying = results.len() - opportunities;
    let false_positives = results.iter().filter(|r| !r.opportunity && r.found).count();
    let ratios: Vec<f64> = results
        .iter()
        .filter(|r| r.plain_ns > 0.0)
        .map(|r| r.trace_ns as f64 / r.plain_ns)
        .collect();
    Ok(MemoizeBench {
        recall: found as f64 / opportunities.max(1) as f64,
        opportunities,
        found,
        top_two,
        false_positives,
        varying,
        slowdown: ratios.iter().sum::<f64>() / ratios.len().max(1) as f64,
        params: Params::default(),
        cases: results,
    })
}

/// The table.
pub fn render(b: &MemoizeBench) -> String {
    let mut s = format!(
        "{:<22} {:<26} {:<6} {:<5} {:>4} {:>5} {:>6}  {:<22} {}\n",
        "case", "method", "label", "found", "rank", "hits", "saved", "cache", "at"
    );
    for c in &b.cases {
        s.push_str(&format!(
            "{:<22} {:<26} {:<6} {:<5} {:>4} {:>5} {:>6}  {:<22} {}\n",
            c.id,
            c.method,
            if c.opportunity { "memo" } else { "vary" },
            if c.found { "yes" } else { "no" },
            c.rank.map(|r| r.to_string()).unwrap_or_default(),
            c.hit_ratio
                .map(|r| format!("{:.0}%", 100.0 * r))
                .unwrap_or_default(),
            c.saved_share
                .map(|r| format!("{:.0}%", 100.0 * r))
                .unwrap_or_default(),
            c.suggestion.as_deref().unwrap_or(""),
            c.at.as_deref().unwrap_or("")
        ));
    }
    s.push_str(&format!(
        "\nrecall {}/{} ({:.0}%, {} ranked first or second), false positives {}/{}, trace build slowdown {:.1}x (plain build = 1)\n",
        b.found,
        b.opportunities,
        100.0 * b.recall,
        b.top_two,
        b.false_positives,
        b.varying,
        b.slowdown
    ));
    s
}
