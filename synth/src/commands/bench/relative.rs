//! The relative half of `perfsyn bench search`: planted version groups (tuning only, disjoint
//! from the suite's) explored with the two-sided relative oracle as the suite runs it, judged
//! like the suite's cases, and the table of gap floors behind [`sides::MIN_GAP`].
//!
//! The floor only decides which explored programs the verdict reads (the search maximizes
//! the gap whatever the floor), so every floor is judged on the same explored programs: one
//! search per (case, strategy, seed), then each floor picks its sides from the search's
//! observations ([`sides::pick_with`]). Two rules are compared: `choose`, the verdict's rule
//! (the floor only ranks: a side without a gap at the floor falls back to its largest gap,
//! and passes on its ratio alone), and `require`, an alternative measured and not adopted
//! (the same pick, but a side passes only when its gap reaches the floor too). The figures
//! that chose the floor are in [`sides::MIN_GAP`]'s doc comment.

use std::time::Instant;

use anyhow::Result;
use serde::Serialize;

use crate::commands::suite::case::{Case, Expected};
use crate::commands::suite::judge::{outcome, relative_outcome, Outcome};
use crate::explore::report::ExploreReport;
use crate::explore::{explore, ExploreConfig, OracleKind};
use crate::judge::oracle::asymptotic::ScoreKind;
use crate::judge::oracle::relative::{self, Direction};
use crate::report::verdict::Verdict;
use crate::run::exec::Executor;
use crate::search::objective::Obs;
use crate::search::{sides, StrategyKind};

/// The paper's threshold (section 3.4: differences of at least 1.2x are reported).
pub const T_REL: f64 = 1.2;

/// The floors compared (cost units; edges for the default cost).
pub const FLOORS: &[f64] = &[
    0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 8.0, 12.0, 16.0, 24.0, 32.0, 64.0, 256.0,
];

/// How a floor enters the verdict.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Rule {
    /// The floor ranks only; a side below it falls back to its largest gap.
    Choose,
    /// As `choose`, and a side passes only when its gap reaches the floor.
    Require,
}

/// One reported side: cost ratio new/old, gap |new - old| and input size of its program.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct SideFig {
    pub ratio: f64,
    pub gap: f64,
    pub size: u64,
    pub passes: bool,
}

/// The outcome under one floor and one rule.
#[derive(Clone, Debug, Serialize)]
pub struct FloorOutcome {
    pub floor: f64,
    pub rule: Rule,
    pub outcome: Outcome,
}

/// One (case, strategy, seed) run.
#[derive(Clone, Debug, Serialize)]
pub struct Run {
    pub id: String,
    pub method: String,
    pub strategy: StrategyKind,
    pub seed: u64,
    pub expected: String,
    /// The real verdict's outcome (the shipped rule and floor).
    pub outcome: Outcome,
    pub verdict: Verdict,
    pub regression: Option<SideFig>,
    pub improvement: Option<SideFig>,
    /// The largest gap on each side among the explored programs.
    pub largest_regression_gap: f64,
    pub largest_improvement_gap: f64,
    pub programs: u64,
    pub elapsed_ms: u64,
    pub floors: Vec<FloorOutcome>,
}

/// Totals of one (floor, rule) over every run.
#[derive(Clone, Debug, Serialize)]
pub struct FloorRow {
    pub floor: f64,
    pub rule: Rule,
    pub detected: usize,
    pub planted: usize,
    pub false_positives: usize,
    pub controls: usize,
}

/// The relative benchmark's results.
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    pub t_rel: f64,
    pub min_gap: f64,
    pub runs: Vec<Run>,
    pub floors: Vec<FloorRow>,
}

/// The explore configuration of one run: the suite's relative settings under a program
/// budget, without wall-clock confirmation.
pub fn explore_config(c: &Case, strategy: StrategyKind, seed: u64, programs: u64) -> ExploreConfig {
    ExploreConfig {
        t_rel: T_REL,
        ..ExploreConfig::bench(
            &c.method,
            strategy,
            OracleKind::Relative,
            ScoreKind::Growth,
            seed,
            programs,
        )
    }
}

/// The side figures and outcome of `obs` under `floor` and `rule`, for a case expecting
/// `expected`.
pub fn judge_floor(
    expected: Expected,
    obs: &[Obs],
    floor: f64,
    rule: Rule,
) -> (Option<SideFig>, Option<SideFig>, Outcome) {
    let (reg, imp) = sides::pick_with(obs.iter().copied().enumerate(), floor);
    let fig = |i: Option<usize>, d: Direction| {
        i.map(|i| {
            let o = obs[i];
            let ratio = crate::search::objective::ratio(&o);
            let gap = (o.cost - o.cost_ref.unwrap_or(o.cost)).abs();
            let visible = rule == Rule::Choose || gap >= floor;
            SideFig {
                ratio,
                gap,
                size: o.size,
                passes: visible && relative::passes(ratio, T_REL, d),
            }
        })
    };
    let (r, i) = (fig(reg, Direction::Slower), fig(imp, Direction::Faster));
    let passes = |s: &Option<SideFig>| s.is_some_and(|s| s.passes);
    let o = relative_outcome(expected, passes(&r), passes(&i));
    (r, i, o)
}

/// The largest gap on each side (regression, improvement) among `obs`.
fn largest_gaps(obs: &[Obs]) -> (f64, f64) {
    obs.iter()
        .filter_map(|o| Some(o.cost - o.cost_ref?))
        .fold((0.0, 0.0), |(r, i), g| (r.max(g), i.max(-g)))
}

/// Runs every relative case with every strategy and seed on `pair` (a pair of workers
/// bound to one version each).
pub fn run(
    pair: &mut dyn Executor,
    cases: &[Case],
    strategies: &[StrategyKind],
    seeds: &[u64],
    programs: u64,
    progress: &mut dyn FnMut(&str),
) -> Result<Report> {
    let mut runs = Vec::new();
    for c in cases {
        for &strategy in strategies {
            for &seed in seeds {
                progress(&format!("{} {} seed {seed}", c.method, strategy.name()));
                let ec = explore_config(c, strategy, seed, programs);
                let t = Instant::now();
                let r = explore(pair, &ec, &mut |_| {})?;
                runs.push(one_run(
                    c,
                    &r,
                    strategy,
                    seed,
                    t.elapsed().as_millis() as u64,
                ));
            }
        }
    }
    let mut floors = Vec::new();
    for rule in [Rule::Choose, Rule::Require] {
        for &floor in FLOORS {
            let at = |r: &&Run| {
                r.floors
                    .iter()
                    .find(|f| f.floor == floor && f.rule == rule)
                    .map(|f| f.outcome)
            };
            let positives: Vec<&Run> = runs.iter().filter(|r| r.expected != "none").collect();
            let controls: Vec<&Run> = runs.iter().filter(|r| r.expected == "none").collect();
            floors.push(FloorRow {
                floor,
                rule,
                detected: positives
                    .iter()
                    .filter(|r| at(r) == Some(Outcome::Detected))
                    .count(),
                planted: positives.len(),
                false_positives: controls
                    .iter()
                    .filter(|r| at(r) == Some(Outcome::FalsePositive))
                    .count(),
                controls: controls.len(),
            });
        }
    }
    Ok(Report {
        t_rel: T_REL,
        min_gap: sides::MIN_GAP,
        runs,
        floors,
    })
}

/// Judges one explore: the real verdict, and every floor under both rules.
fn one_run(c: &Case, r: &ExploreReport, strategy: StrategyKind, seed: u64, ms: u64) -> Run {
    let obs = &r.observations;
    let side = |s: Option<&relative::Side<crate::report::best::BestProgram>>| {
        s.map(|s| SideFig {
            ratio: s.ratio,
            gap: (s.program.cost - s.program.cost_ref.unwrap_or(s.program.cost)).abs(),
            size: s.program.input_size,
            passes: s.passes,
        })
    };
    let sides = r.sides.as_ref();
    let (largest_regression_gap, largest_improvement_gap) = largest_gaps(obs);
    let mut floors = Vec::new();
    for rule in [Rule::Choose, Rule::Require] {
        for &floor in FLOORS {
            let (_, _, outcome) = judge_floor(c.expected, obs, floor, rule);
            floors.push(FloorOutcome {
                floor,
                rule,
                outcome,
            });
        }
    }
    Run {
        id: c.id.clone(),
        method: c.method.clone(),
        strategy,
        seed,
        expected: c.expected.label().to_string(),
        outcome: outcome(c, Ok(r), T_REL),
        verdict: r.verdict,
        regression: side(sides.and_then(|s| s.regression.as_ref())),
        improvement: side(sides.and_then(|s| s.improvement.as_ref())),
        largest_regression_gap,
        largest_improvement_gap,
        programs: r.stats.programs,
        elapsed_ms: ms,
        floors,
    }
}

/// The per-run lines and the floor table.
pub fn render(r: &Report) -> String {
    let mut s = format!(
        "\nrelative tuning cases (two-sided, t_rel = {}, gap floor {}):\n",
        r.t_rel, r.min_gap
    );
    let fig = |x: &Option<SideFig>| match x {
        None => "-".to_string(),
        Some(f) => format!(
            "{:.3} (gap {}, size {}){}",
            f.ratio,
            f.gap,
            f.size,
            if f.passes { " passes" } else { "" }
        ),
    };
    for run in &r.runs {
        s.push_str(&format!(
            "  {:<4} {:<26} {:<7} seed {} {:<7} {:<17} regression {}; improvement {}; largest gaps {} / {}\n",
            run.id,
            run.method,
            run.strategy,
            run.seed,
            run.expected,
            run.outcome.to_string(),
            fig(&run.regression),
            fig(&run.improvement),
            run.largest_regression_gap,
            run.largest_improvement_gap
        ));
    }
    s.push_str("\ngap floor  rule      detected  false positives\n");
    for f in &r.floors {
        s.push_str(&format!(
            "{:>9}  {:<8} {:>9} {:>16}\n",
            f.floor,
            format!("{:?}", f.rule).to_lowercase(),
            format!("{}/{}", f.detected, f.planted),
            format!("{}/{}", f.false_positives, f.controls)
        ));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn o(size: u64, cost: f64, r: f64) -> Obs {
        Obs {
            size,
            cost,
            cost_ref: Some(r),
        }
    }

    #[test]
    fn a_floor_trades_small_gaps_against_diluted_ratios() {
        // A regression of 30 units per call on a call that costs 10 + 40 n: 4x at n = 0,
        // 1.18x at n = 4 (the largest gap, as every gap is 30, the first index wins).
        let obs = [o(4, 200.0, 170.0), o(0, 40.0, 10.0), o(1, 80.0, 50.0)];
        let (r, _, out) = judge_floor(Expected::Slower, &obs, 16.0, Rule::Choose);
        assert_eq!((r.unwrap().size, out), (0, Outcome::Detected));
        // A floor above every gap falls back to the largest gap: the diluted program.
        let (r, _, out) = judge_floor(Expected::Slower, &obs, 64.0, Rule::Choose);
        assert_eq!((r.unwrap().size, out), (4, Outcome::Missed));
    }

    #[test]
    fn require_refuses_a_ratio_on_a_gap_below_the_floor() {
        // Noise: two units on a five-unit call.
        let obs = [o(0, 7.0, 5.0), o(3, 7.0, 5.0)];
        let choose = judge_floor(Expected::None, &obs, 16.0, Rule::Choose);
        assert_eq!(choose.2, Outcome::FalsePositive);
        let require = judge_floor(Expected::None, &obs, 16.0, Rule::Require);
        assert_eq!(require.2, Outcome::CorrectNegative);
        assert!(!require.0.unwrap().passes);
        // With no floor, both rules are the same.
        let zero = judge_floor(Expected::None, &obs, 0.0, Rule::Require);
        assert_eq!(zero.2, Outcome::FalsePositive);
    }

    #[test]
    fn largest_gaps_are_per_side() {
        let obs = [o(0, 7.0, 5.0), o(1, 3.0, 40.0), o(2, 9.0, 9.0)];
        assert_eq!(largest_gaps(&obs), (2.0, 37.0));
    }
}
