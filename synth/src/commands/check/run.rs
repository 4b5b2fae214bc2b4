//! `perfsyn check --baseline REV`: the touched public methods, riskiest first, each explored by
//! the relative oracle over the pair of workers, within a total time budget.
//!
//! A finding is a `regression` when the largest-regression side of the two-sided relative
//! verdict passes t_rel in deterministic cost (on the shrunk program) and wall-clock timing does
//! not contradict it (a significant speed-up on the same program makes it `inconclusive`, with
//! that said). Improvements are judged the same way; everything else is `none`, or
//! `inconclusive` with the reason in words.

use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use anyhow::Result;

use crate::commands::baseline::{self, OpenBaseline};
use crate::commands::check::report::{CheckReport, CheckVerdict, Finding, NotMeasured};
use crate::commands::check::risk::{self, ChangedMethod};
use crate::commands::partition::Partition;
use crate::explore::report::ExploreReport;
use crate::explore::{explore_with, ExploreConfig, OracleKind};
use crate::harness::Harness;
use crate::judge::shrink::ShrinkConfig;
use crate::run::exec::Executor as _;

/// What `check` needs beyond the harness.
pub struct CheckConfig {
    pub rev: String,
    /// Total wall-clock budget for the explorations (the ranking and builds are not counted).
    pub budget: Duration,
    /// Per-method exploration settings (method and oracle are set per method).
    pub explore: ExploreConfig,
    pub shrink: ShrinkConfig,
    pub workers: usize,
    pub deadline: Duration,
    pub partition: Option<Partition>,
    /// The flags to repeat in "Reproduce with" lines (e.g. ` --manifest-path ...`).
    pub reproduce_suffix: String,
    pub quiet: bool,
}

/// Runs the check; progress lines go to `log`.
pub fn run(h: &Harness, cfg: &CheckConfig, log: &mut dyn FnMut(&str)) -> Result<CheckReport> {
    let (base, old_harness) = baseline::prepare(h, &cfg.rev)?;
    let old_src = old_harness.crate_dir.join("src");
    let mut touched = risk::changed_methods(&old_src, &h.crate_dir.join("src"))?;
    if let Some(p) = cfg.partition {
        touched = p.select(&touched, |m| m.method.clone());
    }
    log(&format!(
        "{}; {} touched public method{}",
        base.describe(),
        touched.len(),
        if touched.len() == 1 { "" } else { "s" }
    ));
    if touched.is_empty() {
        // Nothing to explore: no workers to build.
        return Ok(CheckReport {
            compared: base.describe(),
            baseline: base.rev.clone(),
            baseline_sha: base.sha.clone(),
            threshold: cfg.explore.t_rel,
            findings: Vec::new(),
            skipped_for_budget: 0,
            not_measured: Vec::new(),
        });
    }
    let mut open = baseline::start(h, base, old_harness, cfg.workers, cfg.deadline, cfg.quiet)?;
    let (touched, not_measured) = split_registered(h, &open, touched);
    if !not_measured.is_empty() {
        log(&format!(
            "{} of them not registered in the harness (not measured)",
            not_measured.len()
        ));
    }
    let started = Instant::now();
    let mut findings = Vec::new();
    let mut skipped = 0;
    for m in &touched {
        let builds = Duration::from_millis(open.twin_setup_ms.load(Ordering::Relaxed));
        let f = if started.elapsed().saturating_sub(builds) >= cfg.budget {
            skipped += 1;
            finding(
                m,
                CheckVerdict::Inconclusive,
                format!(
                    "not explored: the --budget of {}s ran out",
                    cfg.budget.as_secs()
                ),
            )
        } else {
            log(&format!("exploring {} (risk {:.2})", m.method, m.risk));
            judge_one(&mut open, m, cfg)?
        };
        findings.push(f);
    }
    Ok(CheckReport {
        compared: open.baseline.describe(),
        baseline: open.baseline.rev.clone(),
        baseline_sha: open.baseline.sha.clone(),
        threshold: cfg.explore.t_rel,
        findings,
        skipped_for_budget: skipped,
        not_measured,
    })
}

/// Splits the touched items into those a side of the pair registers (explored) and those
/// neither does (listed as not measured, with why). Why: the ranking reads the crate's
/// sources, so it also names private helpers, trait impls on foreign types and items `init`
/// skipped; exploring them only produced `inconclusive` rows ("`check_store` is not a method
/// spec") at the top of a pull-request summary, above the methods that were judged. A method
/// added since REV keeps its own path (`explore_new`), which says when it is not registered.
fn split_registered(
    h: &Harness,
    open: &OpenBaseline,
    touched: Vec<ChangedMethod>,
) -> (Vec<ChangedMethod>, Vec<NotMeasured>) {
    let registered = |method: &str| {
        [open.pair.schema(), open.pair.old_schema()]
            .into_iter()
            .any(|s| crate::harness::spec::resolve_method(s, method).is_ok())
    };
    let (keep, drop): (Vec<_>, Vec<_>) = touched
        .into_iter()
        .partition(|m| m.new || registered(&m.method));
    let not_measured = drop
        .into_iter()
        .map(|m| NotMeasured {
            reason: crate::harness::init::skipped_reason(h, &m.method).unwrap_or_else(|| {
                "not registered in the harness (not a public method of a registered type, or a private function)".to_string()
            }),
            method: m.method,
            risk: m.risk,
        })
        .collect();
    (keep, not_measured)
}

fn finding(m: &ChangedMethod, verdict: CheckVerdict, reason: String) -> Finding {
    Finding {
        method: m.method.clone(),
        verdict,
        ratio: None,
        time_ratio: None,
        risk: m.risk,
        changes: m.reasons.clone(),
        reason,
        reproducer: None,
        reproduce_with: None,
        repeated_traversals: None,
        repeated_computations: None,
    }
}

/// A method REV lacks has nothing to be compared with: it is explored alone, with the
/// asymptotic oracle on the working tree's worker (deterministic cost only, no timing), and
/// its verdict is said in the reason; the finding stays `inconclusive`, so it never fails the
/// gate, which is about regressions since REV.
fn explore_new(open: &mut OpenBaseline, m: &ChangedMethod, cfg: &CheckConfig) -> Finding {
    let rev = open.baseline.rev.clone();
    if crate::harness::spec::resolve_method(open.pair.new_side().schema(), &m.method).is_err() {
        // A constructor, or a method `perfsyn init` did not register.
        return finding(
            m,
            CheckVerdict::Inconclusive,
            format!("new since {rev}: nothing to compare with, and not a registered method"),
        );
    }
    let mut ecfg = cfg.explore.clone();
    ecfg.method = m.method.clone();
    ecfg.oracle = OracleKind::Asymptotic;
    ecfg.confirm.top = 0;
    let why = match explore_with(open.pair.new_side(), &ecfg, cfg.shrink, &mut |_| {}) {
        Ok(r) => format!(
            "new since {rev}, explored alone (no baseline): {}: {}",
            r.verdict, r.reason
        ),
        Err(e) => format!("new since {rev}: nothing to compare with ({e:#})"),
    };
    finding(m, CheckVerdict::Inconclusive, why)
}

fn judge_one(open: &mut OpenBaseline, m: &ChangedMethod, cfg: &CheckConfig) -> Result<Finding> {
    if m.new {
        return Ok(explore_new(open, m, cfg));
    }
    if let Err(e) = baseline::check_comparable(open, &m.method) {
        return Ok(finding(m, CheckVerdict::Inconclusive, e.to_string()));
    }
    let mut ecfg = cfg.explore.clone();
    ecfg.method = m.method.clone();
    ecfg.oracle = OracleKind::Relative;
    let report = match explore_with(&mut open.pair, &ecfg, cfg.shrink, &mut |_| {}) {
        Ok(r) => r,
        Err(e) => {
            return Ok(finding(
                m,
                CheckVerdict::Inconclusive,
                format!("exploration failed: {e}"),
            ))
        }
    };
    let mut f = verdict_of(m, &report, cfg, &open.baseline.rev);
    if cfg.explore.repeated_traversals {
        f.repeated_traversals = crate::commands::check::traversals::introduced(open, &report)?;
        f.repeated_computations = crate::commands::check::memoization::introduced(open, &report)?;
    }
    if cfg.explore.repeated_computations {
        f.repeated_computations = crate::commands::check::memoization::introduced(open, &report)?;
    }
    Ok(f)
}

/// The finding for one explored method (pure: testable without workers).
pub fn verdict_of(m: &ChangedMethod, r: &ExploreReport, cfg: &CheckConfig, rev: &str) -> Finding {
    let mut f = finding(m, CheckVerdict::None, String::new());
    f.ratio = r.ratio;
    let reproduce = format!(
        "perfsyn explore --method {} --baseline {rev} --seed {} --max-programs {}{}",
        m.method, r.seed, r.stats.programs, cfg.reproduce_suffix
    );
    let Some(sides) = &r.sides else {
        f.verdict = CheckVerdict::Inconclusive;
        f.reason = if r.reason.is_empty() {
            format!("no verdict ({})", r.verdict)
        } else {
            r.reason.clone()
        };
        return f;
    };
    let t = cfg.explore.t_rel;
    for (side, verdict, slower) in [
        (&sides.regression, CheckVerdict::Regression, true),
        (&sides.improvement, CheckVerdict::Improvement, false),
    ] {
        let Some(s) = side else { continue };
        if !s.passes {
            continue;
        }
        f.ratio = Some(s.ratio);
        f.time_ratio = s.time_ratio;
        f.reproducer = Some(s.program.rust.clone());
        f.reproduce_with = Some(reproduce.clone());
        let contradicted =
            s.time_significant == Some(true) && s.time_ratio.is_some_and(|tr| (tr > 1.0) != slower);
        let word = if slower { "slower" } else { "faster" };
        if contradicted {
            f.verdict = CheckVerdict::Inconclusive;
            f.reason = format!(
                "cost {:.2}x the baseline, but the timed run says the opposite ({:.2}x)",
                s.ratio,
                s.time_ratio.unwrap_or(f64::NAN)
            );
        } else {
            f.verdict = verdict;
            let timed = match (s.time_ratio, s.time_significant) {
                (Some(tr), Some(true)) => format!(", timed {tr:.2}x"),
                (Some(tr), _) => format!(", timed {tr:.2}x (not significant)"),
                _ => String::new(),
            };
            f.reason = format!(
                "{word}: cost {:.2}x the baseline (threshold {t}){timed}",
                s.ratio
            );
        }
        return f;
    }
    f.reason = format!(
        "no program made the revisions differ by {t}x or more ({} programs)",
        r.stats.programs
    );
    f
}
