//! The relative oracle as explore runs it (PerfSyn's section 3.2.7, "Exposing performance
//! differences"): the cost ratio new/old of the best program against t_rel; with
//! `--direction both` the largest regression and the largest improvement, each judged and
//! confirmed on its own; the top programs timed on both versions.

use anyhow::Result;

use crate::explore::oracle::{attach, Evidence, Found, Needs, Oracle, RelativeEvidence};
use crate::explore::report::ExploreReport;
use crate::explore::{ExploreConfig, OracleKind};
use crate::judge::confirm;
use crate::judge::oracle::relative::{self, Direction, Relative};
use crate::judge::shrink::{shrink_best, ShrinkConfig};
use crate::report::best::BestProgram;
use crate::report::verdict::Verdict;
use crate::run::exec::Executor;
use crate::run::pair::Versions;
use crate::search::objective::Objective;

/// The relative oracle of one run: its objective and the pair it compares.
pub struct RelativeOracle {
    pub objective: Relative,
    pub pair: Option<Versions>,
}

impl RelativeOracle {
    /// The verdict and reason of the best program's `ratio`.
    fn record(&self, cfg: &ExploreConfig, ratio: f64, report: &mut ExploreReport) {
        report.ratio = Some(ratio);
        report.reason = format!(
            "cost new/old = {ratio:.3} on the best program (threshold t_rel = {})",
            cfg.t_rel
        );
        report.verdict = if relative::passes(ratio, cfg.t_rel, cfg.direction) {
            Verdict::Bottleneck
        } else {
            Verdict::NoBottleneck
        };
    }
}

fn own(evidence: &mut Evidence) -> &mut RelativeEvidence {
    match evidence {
        Evidence::Relative(e) => e,
        _ => unreachable!("the relative oracle is handed its own evidence"),
    }
}

impl Oracle for RelativeOracle {
    fn kind(&self) -> OracleKind {
        OracleKind::Relative
    }

    fn objective(&self) -> &dyn Objective {
        &self.objective
    }

    fn runs_pairs(&self) -> bool {
        true
    }

    fn needs(&self, cfg: &ExploreConfig) -> Needs {
        Needs {
            observations: true,
            sides: cfg.direction == Direction::Both,
            ..Needs::default()
        }
    }

    /// The cost ratio new/old of the best program against t_rel.
    fn judge(
        &self,
        _exec: &mut dyn Executor,
        cfg: &ExploreConfig,
        found: Found,
        report: &mut ExploreReport,
    ) -> Result<Evidence> {
        let Found {
            best_obs,
            path_points,
            ref_points,
            side_programs,
            ..
        } = found;
        let ratio = crate::search::objective::ratio(&best_obs);
        report.points = path_points;
        report.ref_points = ref_points;
        self.record(cfg, ratio, report);
        Ok(Evidence::Relative(Box::new(RelativeEvidence {
            ratio,
            side_programs,
        })))
    }

    /// Shrinks a reported program, keeping a ratio past t_rel in the same direction.
    fn shrink(
        &self,
        exec: &mut dyn Executor,
        cfg: &ExploreConfig,
        shrink_cfg: ShrinkConfig,
        evidence: &mut Evidence,
        report: &mut ExploreReport,
    ) -> Result<()> {
        let e = own(evidence);
        let metric = cfg.search.metric;
        let found = relative::passes(e.ratio, cfg.t_rel, cfg.direction);
        let (true, Some(best)) = (found, report.best.as_mut()) else {
            return Ok(());
        };
        let (slower, t_rel, dir) = (e.ratio >= 1.0, cfg.t_rel, cfg.direction);
        shrink_best(exec, best, shrink_cfg, metric, true, &mut |ex, p| {
            let (new, old) = crate::run::exec::run_pairs(ex, std::slice::from_ref(p))?.remove(0);
            let r = (metric.of(&new) + 1.0) / (metric.of(&old) + 1.0);
            let runs = [&new, &old].iter().all(|f| f.is_ok() && f.calls > 0);
            Ok(runs && relative::passes(r, t_rel, dir) && (r >= 1.0) == slower)
        })?;
        e.ratio = (best.cost + 1.0) / (best.cost_ref.unwrap_or(best.cost) + 1.0);
        self.record(cfg, e.ratio, report);
        Ok(())
    }

    /// With `--direction both`: the largest regression and the largest improvement, each
    /// judged (and confirmed, unless confirmation is off) on its own; the verdict is theirs.
    fn explain(
        &self,
        exec: &mut dyn Executor,
        cfg: &ExploreConfig,
        mut evidence: Evidence,
        report: &mut ExploreReport,
    ) -> Result<Evidence> {
        let e = own(&mut evidence);
        let (Some((slower, faster)), Some(pr)) = (e.side_programs.take(), &self.pair) else {
            return Ok(evidence);
        };
        let ratio_of = |b: &BestProgram| (b.cost + 1.0) / (b.cost_ref.unwrap_or(b.cost) + 1.0);
        let sides = relative::Sides::judge(slower, faster, cfg.t_rel, &ratio_of, &mut |b| {
            if cfg.confirm.top == 0 {
                return Ok(None);
            }
            let jobs = confirm_jobs(&[b], pr, 1);
            let c = confirm::confirm(exec, &jobs, &cfg.confirm)?;
            Ok(c.confirmed.first().map(|x| (x.time_ratio, x.significant)))
        })?;
        report.verdict = if sides.any_passes() {
            Verdict::Bottleneck
        } else {
            Verdict::NoBottleneck
        };
        report.reason = sides.describe(cfg.t_rel);
        report.sides = Some(sides);
        Ok(evidence)
    }

    /// Times the top programs on `new` and on `old`.
    fn confirm(
        &self,
        exec: &mut dyn Executor,
        cfg: &ExploreConfig,
        _evidence: &Evidence,
        report: &mut ExploreReport,
    ) -> Result<()> {
        if let Some(pr) = &self.pair {
            let top: Vec<&BestProgram> = report.best.iter().chain(&report.others).collect();
            let jobs = confirm_jobs(&top, pr, cfg.confirm.top);
            attach(report, confirm::confirm(exec, &jobs, &cfg.confirm)?, &jobs);
        }
        Ok(())
    }
}

/// The relative confirmation jobs: the top `top` programs on `new` and on `old`.
fn confirm_jobs(programs: &[&BestProgram], pr: &Versions, top: usize) -> Vec<confirm::Job> {
    programs
        .iter()
        .take(top)
        .enumerate()
        .map(|(i, b)| confirm::Job {
            rank: i + 1,
            kind: "relative",
            a: ("new".into(), pr.new_ty.clone(), b.program.clone()),
            b: ("old".into(), pr.old_ty.clone(), b.program.clone()),
            on_pair: true,
        })
        .collect()
}
