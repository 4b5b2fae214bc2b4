//! `perfsyn suite`: our Table 3.2. Runs every case of the bottleneck corpus (the 22
//! bottlenecks of the PerfSyn chapter, Listing 3.1's `Messages`, Toddler's two loop bugs) and
//! the negative controls with each strategy, and says on its own which were detected, missed
//! or falsely reported.
//!
//! The case list is data in the engine: cases name methods by spec (`Group::method`) and are
//! checked against the worker's schema before anything runs, so the engine never links the
//! corpus. Each case records what the paper (or the port) expects: a direction for the
//! relative oracle, a class for the asymptotic oracle, or nothing for a negative control.
//!
//! Relative cases search with the one-sided score of eq. 3.4 in the expected direction (the
//! paper's alternative formulation): the question each case asks is whether the search
//! finds a program showing *that* effect; a two-sided search may settle on the other side
//! where a change helps one input and hurts another (IDs 11 and 13). Controls search both
//! sides (eq. 3.3), so any gap of t_rel counts against them.
//!
//! Time to expose: for the relative oracle, the search records the first moment the best
//! program's cost ratio passed t_rel ([`crate::search::Stats::expose_ms`]). For the
//! asymptotic oracle the verdict needs a sweep and a fit, too costly to repeat on every
//! improvement, so we report the moment the search first reached the best score, i.e. found
//! the program the final verdict was judged on: an upper bound of the true time to expose.

use std::time::Duration;

use anyhow::{bail, Result};
use perfsyn_profiler_ipc::ApiSchema;
use serde::{Deserialize, Serialize};

use crate::confirm::{ConfirmConfig, MIN_REPS};
use crate::exec::Executor;
use crate::explore::{explore, ExploreConfig, ExploreReport, OracleKind};
use crate::oracle::asymptotic::{ScoreKind, Thresholds};
use crate::oracle::relative::Direction;
use crate::search::{Budget, Metric, SearchConfig, StrategyKind};
use crate::spec;

/// Which oracle a case uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum CaseOracle {
    Relative,
    Asymptotic,
}

/// What a case expects the search to show.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Expected {
    /// The new version is slower (a regression, `-` in Table 3.2).
    Slower,
    /// The new version is faster (an improvement, `+` in Table 3.2).
    Faster,
    /// The method grows as this class, beyond its documented one.
    Class(&'static str),
    /// A negative control: nothing may be reported.
    None,
}

impl Expected {
    /// As in the JSON output: `slower`, `faster`, a class like `O(n)`, or `none`.
    pub fn label(self) -> &'static str {
        match self {
            Expected::Slower => "slower",
            Expected::Faster => "faster",
            Expected::Class(c) => c,
            Expected::None => "none",
        }
    }
}

/// One row of the suite.
#[derive(Clone, Copy, Debug)]
pub struct Case {
    /// Table 3.2's ID, `M1`/`M2` for Listing 3.1, `T1`/`T2` for Toddler, `C…` for controls.
    pub id: &'static str,
    /// The method spec, `Group::method` for version groups.
    pub method: &'static str,
    pub oracle: CaseOracle,
    pub expected: Expected,
    /// Where the case comes from.
    pub source: &'static str,
}

const fn rel(id: &'static str, method: &'static str, e: Expected, source: &'static str) -> Case {
    Case {
        id,
        method,
        oracle: CaseOracle::Relative,
        expected: e,
        source,
    }
}

const fn asy(id: &'static str, method: &'static str, e: Expected, source: &'static str) -> Case {
    Case {
        id,
        method,
        oracle: CaseOracle::Asymptotic,
        expected: e,
        source,
    }
}

use Expected::{Class, Faster, None as Nothing, Slower};

/// Every case, in table order: 26 positive cases, then the negative controls.
pub const CASES: &[Case] = &[
    rel(
        "1",
        "ArrayUtils::remove_all",
        Slower,
        "ArrayUtils.removeAll",
    ),
    rel(
        "2",
        "ArrayUtils::remove_elements",
        Faster,
        "ArrayUtils.removeElements",
    ),
    rel("3", "ArrayUtils::index_of", Faster, "ArrayUtils.indexOf"),
    rel(
        "4",
        "ArrayUtils::is_not_empty",
        Slower,
        "ArrayUtils.isNotEmpty",
    ),
    rel(
        "5",
        "ArrayUtils::is_same_length",
        Faster,
        "ArrayUtils.isSameLength",
    ),
    rel("6", "CharSetUtils::squeeze", Faster, "CharSetUtils.squeeze"),
    rel(
        "7",
        "StringUtils::levenshtein",
        Faster,
        "StringUtils.getLevenDist",
    ),
    rel(
        "8",
        "IdentityStack::contains_all",
        Slower,
        "IdentityStack.containsAll",
    ),
    rel(
        "9",
        "IdentityStack::remove_all",
        Slower,
        "IdentityStack.removeAll",
    ),
    rel(
        "10",
        "IdentityStack::retain_all",
        Slower,
        "IdentityStack.retainAll",
    ),
    rel(
        "11",
        "ListOrderedMap::remove",
        Faster,
        "ListOrderedMap.remove",
    ),
    rel(
        "12",
        "ListOrderedSet::add_all",
        Faster,
        "ListOrderedSet.addAll",
    ),
    rel(
        "13",
        "ListOrderedSet::add_all_at",
        Slower,
        "ListOrderedSet.addAllAtIndex",
    ),
    rel(
        "14",
        "ListOrderedSet::to_array",
        Faster,
        "ListOrderedSet.toArray",
    ),
    rel(
        "15",
        "ListOrderedSet::remove",
        Faster,
        "ListOrderedSet.remove",
    ),
    rel("16", "VectorSet::add_all", Slower, "VectorSet.addAll"),
    rel("17", "VectorSet::clone", Faster, "VectorSet.clone"),
    rel("18", "TreeList::add_all", Faster, "TreeList.addAll"),
    rel(
        "19",
        "TreeList::add_all_at",
        Faster,
        "TreeList.addAllAtIndex",
    ),
    asy(
        "20",
        "EnumeratedDistribution::probability",
        Class("O(n)"),
        "EnumIntDist.probability",
    ),
    asy(
        "21",
        "FilteredNavigableMap::is_empty",
        Class("O(n)"),
        "NavigableMap.isEmpty",
    ),
    asy("22", "Sets::power_set", Class("O(n)"), "Sets.powerSet"),
    asy(
        "M1",
        "Messages::log",
        Class("O(n^2)"),
        "Listing 3.1, list containment",
    ),
    rel("M2", "Messages::log", Faster, "Listing 3.1, makeUnique"),
    asy(
        "T1",
        "CandlestickRenderer::draw",
        Class("O(n^2)"),
        "Toddler Fig. 1, max volume",
    ),
    asy(
        "T2",
        "JavaHashSet::remove_all",
        Class("O(n^2)"),
        "Toddler Fig. 2, removeAll",
    ),
    rel("C1", "MinStack::push", Nothing, "identical versions"),
    rel(
        "C2",
        "RingBuffer::push",
        Nothing,
        "refactor: helper extracted",
    ),
    rel(
        "C3",
        "RingBuffer::pop",
        Nothing,
        "refactor: helper extracted",
    ),
    rel(
        "C4",
        "SortedKeys::insert",
        Nothing,
        "refactor: match -> if let",
    ),
    rel(
        "C5",
        "SortedKeys::count_below",
        Nothing,
        "refactor: loop -> iterator",
    ),
    rel("C6", "ListOrderedMap::get", Nothing, "unchanged method"),
    rel("C7", "IdentityStack::push", Nothing, "unchanged method"),
    asy("C8", "Vec::contains", Nothing, "O(n), documented O(n)"),
    asy(
        "C9",
        "PrefixSums::rebuild",
        Nothing,
        "O(n), documented O(n)",
    ),
    asy(
        "C10",
        "PrefixSums::range_sum",
        Nothing,
        "O(1), documented O(1)",
    ),
    asy(
        "C11",
        "EnumeratedDistribution::sample_size",
        Nothing,
        "O(1), documented O(1)",
    ),
    asy(
        "C12",
        "Sets::power_set_size",
        Nothing,
        "O(1), documented O(1)",
    ),
    asy(
        "C13",
        "BTreeMap::insert",
        Nothing,
        "O(log n), documented O(log n)",
    ),
    asy(
        "C14",
        "FilteredNavigableMap::len",
        Nothing,
        "O(n), documented O(n)",
    ),
];

/// Suite settings.
#[derive(Clone, Debug)]
pub struct SuiteConfig {
    pub strategies: Vec<StrategyKind>,
    /// The time budget of one search (one case, one strategy).
    pub budget_per_case: Duration,
    /// Only cases whose ID or method matches one of these comma-separated patterns
    /// (`*` matches any run of characters); all when `None`.
    pub cases: Option<String>,
    /// Switch off the loop extension (the paper's program model).
    pub no_loops: bool,
    pub seed: u64,
    /// t_rel of the relative oracle.
    pub t_rel: f64,
}

/// The outcome of one case with one strategy.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct CaseRun {
    /// `detected` | `missed` | `false-positive` | `correct-negative`.
    pub outcome: String,
    /// Milliseconds until the reporting threshold was met (null unless detected or
    /// falsely reported; see the module doc for the asymptotic approximation).
    pub tte_ms: Option<u64>,
    /// Mutations of the best program.
    pub mutations: Option<usize>,
    /// Relative: cost new/old of the best program.
    pub ratio: Option<f64>,
    /// Asymptotic: the fitted class.
    pub empirical: Option<String>,
    /// Measured wall-clock ratio of the best program, when confirmed.
    pub time_ratio: Option<f64>,
    pub verdict: String,
    pub reason: String,
    pub programs: u64,
}

/// One case's row.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct CaseReport {
    pub id: String,
    pub method: String,
    pub oracle: CaseOracle,
    pub expected: String,
    /// The documented class of an asymptotic case's method.
    pub documented: Option<String>,
    pub source: String,
    /// Per strategy name.
    pub strategies: std::collections::BTreeMap<String, CaseRun>,
}

/// Per-strategy totals.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct StrategySummary {
    pub detected: usize,
    pub positives: usize,
    pub false_positives: usize,
    pub controls: usize,
    pub median_tte_ms: Option<u64>,
    pub max_tte_ms: Option<u64>,
    pub missed: Vec<String>,
}

/// The whole suite, printed as JSON with `--json`.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SuiteReport {
    pub cases: Vec<CaseReport>,
    pub summary: std::collections::BTreeMap<String, StrategySummary>,
    /// Positive cases detected by at least one strategy.
    pub detected_by_any: usize,
    pub positives: usize,
    pub seed: u64,
    pub budget_per_case_ms: u64,
    pub no_loops: bool,
}

/// Live progress: which run is next.
#[derive(Clone, Debug)]
pub struct SuiteProgress<'a> {
    pub done: usize,
    pub total: usize,
    pub case: &'a Case,
    pub strategy: StrategyKind,
}

/// The cases selected by `patterns` (comma-separated; `*` is a wildcard; matched against the
/// ID and the method, case-insensitively).
pub fn select(patterns: Option<&str>) -> Result<Vec<Case>> {
    let Some(p) = patterns else {
        return Ok(CASES.to_vec());
    };
    let pats: Vec<String> = p
        .split(',')
        .map(|s| s.trim().to_lowercase())
        .filter(|s| !s.is_empty())
        .collect();
    let out: Vec<Case> = CASES
        .iter()
        .filter(|c| {
            pats.iter()
                .any(|p| glob(p, &c.id.to_lowercase()) || glob(p, &c.method.to_lowercase()))
        })
        .copied()
        .collect();
    if out.is_empty() {
        bail!(
            "--cases {p} matches no case; IDs are 1-22, M1, M2, T1, T2 and C1-C{} (patterns may use *)",
            CASES.iter().filter(|c| c.id.starts_with('C')).count()
        );
    }
    Ok(out)
}

/// Whether `text` matches `pat`, where `*` matches any run of characters.
fn glob(pat: &str, text: &str) -> bool {
    let parts: Vec<&str> = pat.split('*').collect();
    if parts.len() == 1 {
        return pat == text;
    }
    let mut rest = text;
    for (i, part) in parts.iter().enumerate() {
        if i == 0 {
            let Some(r) = rest.strip_prefix(part) else {
                return false;
            };
            rest = r;
        } else if i == parts.len() - 1 {
            return rest.ends_with(part);
        } else {
            match rest.find(part) {
                Some(at) => rest = &rest[at + part.len()..],
                None => return false,
            }
        }
    }
    true
}

/// Checks that every case's method exists in the worker's schema, in the form its oracle
/// needs (a version group with the method in both versions, or a documented class).
pub fn check_cases(schema: &ApiSchema, cases: &[Case]) -> Result<()> {
    let mut problems = Vec::new();
    for c in cases {
        let (ty, method) = c.method.rsplit_once("::").unwrap_or((c.method, ""));
        let types = spec::resolve_type(schema, ty);
        let with: Vec<_> = types
            .iter()
            .filter(|t| t.method(method).is_some())
            .collect();
        let problem = match c.oracle {
            CaseOracle::Relative => {
                let versions: Vec<_> = with.iter().filter_map(|t| t.version.as_ref()).collect();
                let ok = versions.len() == 2
                    && versions.iter().any(|v| v.version == "old")
                    && versions.iter().any(|v| v.version == "new");
                (!ok).then_some("needs a version group with the method in `old` and `new`")
            }
            CaseOracle::Asymptotic => match with.first() {
                None => Some("is not registered"),
                Some(t) if t.method(method).and_then(|m| m.expected.as_ref()).is_none() => {
                    Some("has no documented complexity")
                }
                Some(_) => None,
            },
        };
        if let Some(p) = problem {
            problems.push(format!("case {} `{}` {p}", c.id, c.method));
        }
    }
    if !problems.is_empty() {
        bail!(
            "the worker's API does not have what the suite needs (is it an old or a foreign worker?):\n  {}",
            problems.join("\n  ")
        );
    }
    Ok(())
}

/// The explore configuration of one case with one strategy.
pub fn explore_config(c: &Case, strategy: StrategyKind, cfg: &SuiteConfig) -> ExploreConfig {
    let mut search = SearchConfig {
        budget: Budget::Time(cfg.budget_per_case),
        seed: cfg.seed,
        metric: Metric::Cost,
        ..SearchConfig::default()
    };
    search.mutation.loops = !cfg.no_loops;
    if c.oracle == CaseOracle::Relative {
        search.expose_ratio = Some(cfg.t_rel);
    }
    ExploreConfig {
        method: c.method.to_string(),
        strategy,
        oracle: match c.oracle {
            CaseOracle::Relative => OracleKind::Relative,
            CaseOracle::Asymptotic => OracleKind::Asymptotic,
        },
        score: ScoreKind::Growth,
        direction: match c.expected {
            Expected::Slower => Direction::Slower,
            Expected::Faster => Direction::Faster,
            _ => Direction::Both,
        },
        t_rel: cfg.t_rel,
        thresholds: Thresholds::default(),
        expect: None,
        search,
        start: None,
        confirm: ConfirmConfig {
            top: 1,
            reps: MIN_REPS,
            ..ConfirmConfig::default()
        },
    }
}

/// Judges one explore report against the case's expectation.
pub fn judge(c: &Case, r: &ExploreReport) -> CaseRun {
    let reported = r.verdict == "bottleneck";
    let positive = c.expected != Expected::None;
    let outcome = match (positive, reported) {
        (true, true) => "detected",
        (true, false) => "missed",
        (false, true) => "false-positive",
        (false, false) => "correct-negative",
    };
    let tte_ms = if !reported {
        None
    } else {
        match c.oracle {
            CaseOracle::Relative => r.stats.expose_ms,
            CaseOracle::Asymptotic => {
                let best = r.best.as_ref().map_or(f64::INFINITY, |b| b.score);
                r.stats
                    .best_history
                    .iter()
                    .find(|(_, s)| *s >= best)
                    .map(|(ms, _)| *ms)
            }
        }
    };
    CaseRun {
        outcome: outcome.into(),
        tte_ms,
        mutations: r.best.as_ref().map(|b| b.mutations),
        ratio: r.ratio,
        empirical: r.empirical.clone(),
        time_ratio: r.time_ratio,
        verdict: r.verdict.clone(),
        reason: r.reason.clone(),
        programs: r.stats.programs,
    }
}

/// Runs the suite on one executor (one worker pool for every case).
pub fn run(
    exec: &mut dyn Executor,
    cfg: &SuiteConfig,
    progress: &mut dyn FnMut(&SuiteProgress<'_>),
) -> Result<SuiteReport> {
    let cases = select(cfg.cases.as_deref())?;
    let schema = exec.schema().clone();
    check_cases(&schema, &cases)?;
    let total = cases.len() * cfg.strategies.len();
    let mut done = 0;
    let mut rows = Vec::new();
    for c in &cases {
        let (ty, method) = c.method.rsplit_once("::").unwrap_or((c.method, ""));
        let documented = spec::resolve_type(&schema, ty)
            .iter()
            .find_map(|t| t.method(method).and_then(|m| m.expected.clone()));
        let mut row = CaseReport {
            id: c.id.into(),
            method: c.method.into(),
            oracle: c.oracle,
            expected: c.expected.label().into(),
            documented: (c.oracle == CaseOracle::Asymptotic)
                .then_some(documented)
                .flatten(),
            source: c.source.into(),
            strategies: Default::default(),
        };
        for &s in &cfg.strategies {
            progress(&SuiteProgress {
                done,
                total,
                case: c,
                strategy: s,
            });
            let ecfg = explore_config(c, s, cfg);
            let run = match explore(exec, &ecfg, &mut |_| {}) {
                Ok(r) => judge(c, &r),
                // A failed run is a miss (or, for a control, not a report), never a crash of
                // the suite; the reason says what went wrong.
                Err(e) => CaseRun {
                    outcome: if c.expected == Expected::None {
                        "correct-negative"
                    } else {
                        "missed"
                    }
                    .into(),
                    tte_ms: None,
                    mutations: None,
                    ratio: None,
                    empirical: None,
                    time_ratio: None,
                    verdict: "error".into(),
                    reason: format!("{e:#}"),
                    programs: 0,
                },
            };
            row.strategies.insert(s.name().into(), run);
            done += 1;
        }
        rows.push(row);
    }
    let mut summary = std::collections::BTreeMap::new();
    for &s in &cfg.strategies {
        summary.insert(s.name().to_string(), summarize(&rows, s.name()));
    }
    let positives: Vec<&CaseReport> = rows.iter().filter(|r| r.expected != "none").collect();
    Ok(SuiteReport {
        detected_by_any: positives
            .iter()
            .filter(|r| r.strategies.values().any(|x| x.outcome == "detected"))
            .count(),
        positives: positives.len(),
        cases: rows,
        summary,
        seed: cfg.seed,
        budget_per_case_ms: cfg.budget_per_case.as_millis() as u64,
        no_loops: cfg.no_loops,
    })
}

/// The totals of one strategy.
pub fn summarize(rows: &[CaseReport], strategy: &str) -> StrategySummary {
    let mut s = StrategySummary::default();
    let mut ttes = Vec::new();
    for r in rows {
        let Some(x) = r.strategies.get(strategy) else {
            continue;
        };
        match x.outcome.as_str() {
            "detected" => {
                s.positives += 1;
                s.detected += 1;
                ttes.extend(x.tte_ms);
            }
            "missed" => {
                s.positives += 1;
                s.missed.push(r.id.clone());
            }
            "false-positive" => {
                s.controls += 1;
                s.false_positives += 1;
            }
            _ => s.controls += 1,
        }
    }
    ttes.sort_unstable();
    s.median_tte_ms = (!ttes.is_empty()).then(|| ttes[ttes.len() / 2]);
    s.max_tte_ms = ttes.last().copied();
    s
}

/// The table in the shape of Table 3.2, then the summary.
pub fn render(r: &SuiteReport, strategies: &[StrategyKind]) -> String {
    let mut s = String::new();
    let mut head = format!("{:<4} {:<37} {:<5} {:<7}", "ID", "method", "orcl", "expect");
    for st in strategies {
        head.push_str(&format!(
            " | {:<6} {:>4} {:>11} {:>9} {:>7} {:<3}",
            st.name(),
            "muts",
            "perf(bc)",
            "perf(ns)",
            "tte(s)",
            ""
        ));
    }
    s.push_str(&head);
    s.push('\n');
    s.push_str(&"-".repeat(head.len()));
    s.push('\n');
    for c in &r.cases {
        s.push_str(&format!(
            "{:<4} {:<37} {:<5} {:<7}",
            c.id,
            c.method,
            match c.oracle {
                CaseOracle::Relative => "rel",
                CaseOracle::Asymptotic => "asym",
            },
            c.expected
        ));
        for st in strategies {
            let Some(x) = c.strategies.get(st.name()) else {
                continue;
            };
            let perf = match c.oracle {
                CaseOracle::Relative => x.ratio.map(signed_ratio).unwrap_or_else(|| "-".into()),
                CaseOracle::Asymptotic => x.empirical.clone().unwrap_or_else(|| "-".into()),
            };
            let time = match c.oracle {
                CaseOracle::Relative => x.time_ratio.map(signed_ratio),
                CaseOracle::Asymptotic => x.time_ratio.map(|t| format!("{t:.2}x")),
            }
            .unwrap_or_else(|| "-".into());
            let mark = match x.outcome.as_str() {
                "detected" => "ok",
                "missed" => "MISS",
                "false-positive" => "FP",
                _ => "ok-",
            };
            s.push_str(&format!(
                " | {:<6} {:>4} {:>11} {:>9} {:>7} {:<3}",
                mark,
                x.mutations.map_or("-".into(), |m| m.to_string()),
                perf,
                time,
                x.tte_ms
                    .map_or("-".into(), |t| format!("{:.1}", t as f64 / 1000.0)),
                ""
            ));
        }
        s.push('\n');
    }
    s.push_str(
        "\nperf(bc): cost ratio of the best program, + new faster, - new slower (Table 3.2's sign), \
         or the fitted class; perf(ns): measured wall-clock ratio; tte: time to expose.\n\
         ok = detected, MISS = missed, FP = false positive, ok- = control correctly not reported.\n\n",
    );
    for st in strategies {
        if let Some(x) = r.summary.get(st.name()) {
            s.push_str(&format!(
                "{:<6}: detected {}/{}, false positives {}/{}, time to expose median {} max {}{}\n",
                st.name(),
                x.detected,
                x.positives,
                x.false_positives,
                x.controls,
                x.median_tte_ms
                    .map_or("-".into(), |t| format!("{:.1}s", t as f64 / 1000.0)),
                x.max_tte_ms
                    .map_or("-".into(), |t| format!("{:.1}s", t as f64 / 1000.0)),
                if x.missed.is_empty() {
                    String::new()
                } else {
                    format!("; missed: {}", x.missed.join(", "))
                }
            ));
        }
    }
    s.push_str(&format!(
        "detected by at least one strategy: {}/{} (budget {:.0}s per case and strategy, seed {}{})\n",
        r.detected_by_any,
        r.positives,
        r.budget_per_case_ms as f64 / 1000.0,
        r.seed,
        if r.no_loops { ", --no-loops" } else { "" }
    ));
    s
}

/// A cost ratio new/old in Table 3.2's notation: `+2.00x` when new is twice as fast,
/// `-2.00x` when it is twice as slow.
fn signed_ratio(r: f64) -> String {
    if r >= 1.0 {
        format!("-{r:.2}x")
    } else {
        format!("+{:.2}x", 1.0 / r)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn case_list_is_well_formed() {
        let mut ids = std::collections::HashSet::new();
        for c in CASES {
            assert!(ids.insert(c.id), "duplicate id {}", c.id);
            assert!(c.method.contains("::"), "{}", c.method);
        }
        let positives = CASES
            .iter()
            .filter(|c| c.expected != Expected::None)
            .count();
        let controls = CASES.len() - positives;
        assert_eq!(positives, 26);
        assert!(controls >= 10);
    }

    #[test]
    fn patterns_select_by_id_or_method() {
        assert_eq!(select(Some("9")).unwrap().len(), 1);
        assert_eq!(select(Some("C1")).unwrap()[0].method, "MinStack::push");
        assert!(select(Some("treelist::*")).unwrap().len() == 2);
        assert!(select(Some("nothing-like-this")).is_err());
        assert!(glob("c*", "c12"));
        assert!(!glob("c*", "12"));
        assert_eq!(signed_ratio(0.5), "+2.00x");
        assert_eq!(signed_ratio(2.0), "-2.00x");
    }
}
