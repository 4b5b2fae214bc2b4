//! Confirmation by wall-clock time (section 3.4.2, the `ns` column of Table 3.2).
//!
//! The search optimizes a deterministic proxy (sancov edges, bytes moved). The paper checks
//! that the proxy means something on a real machine by re-running the winners with
//! wall-clock timing, repeated enough for a confidence interval. We do the same after every
//! search: each confirmed program runs as two *arms* (relative runs: the `new` and the `old`
//! version; asymptotic runs: the best program at the largest and the smallest size of its
//! sweep), first a few unmeasured warm-up runs, then at least [`MIN_REPS`] measured
//! repetitions per arm in alternating order (a, b, b, a, a, b, ...), so drift of the machine
//! (frequency scaling, a neighbour waking up) hits both arms alike.
//!
//! Significance: Welch's two-sample t-test (unequal variances) at the 95% level, plus a
//! practical threshold: a difference is called significant only if p < 0.05 *and* the time
//! ratio is outside `[1/(1+DELTA), 1+DELTA]` with [`DELTA`] = 10% (SpeedGun uses 5%; see
//! [`DELTA`] for why ours is wider). Two builds of identical code are never perfectly equal
//! (code alignment, cache sets), and with low-noise measurements a 1% gap would pass the
//! t-test alone; it is not a performance difference anyone should act on. The per-arm 95% confidence intervals (Student-t) are
//! reported beside the verdict.
//!
//! Severe outliers (outside Tukey's outer fences, Q1 - 3 IQR and Q3 + 3 IQR) are dropped
//! from each arm before the statistics and counted in the report: a single run preempted by
//! the scheduler or hit by a page fault can take a thousand times longer than the others
//! and would otherwise decide the mean of 30 runs alone.

use anyhow::Result;
use perfsyn_profiler_ipc::{Feedback, Program};
use serde::{Deserialize, Serialize};
use statrs::distribution::{ContinuousCDF, StudentsT};

use crate::run::exec::Executor;

/// The fewest measured repetitions per arm (the paper uses 32 with JMH; 30 is the usual
/// minimum for a t-interval to be robust against moderate non-normality).
pub const MIN_REPS: usize = 30;

/// Practical-significance margin: time ratios within 1 ± 10% are never called significant.
/// SpeedGun's 5% assumes both versions run in one process; ours run in two twin worker
/// processes (one bound to each version), and two twins of identical code (`MinStack::push`,
/// ~75 ns per call, at load 8) measured 1.060 apart with p = 0.036, which 5% called a
/// significant difference. The cost oracle's own threshold (t_rel = 1.2) is wider still.
pub const DELTA: f64 = 0.10;

/// Significance level of the Welch test (two-sided).
pub const ALPHA: f64 = 0.05;

/// Measured pairs per executor call: small enough that the executor spreads a batch over
/// all workers, large enough to amortize the round trip.
const PAIRS_PER_BATCH: usize = 10;

/// How much confirmation to do.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ConfirmConfig {
    /// How many of the top programs to confirm (relative runs; asymptotic runs confirm only
    /// the best, whose sweep is known). 0 switches confirmation off.
    pub top: usize,
    /// Measured repetitions per arm (at least [`MIN_REPS`]).
    pub reps: usize,
    /// Unmeasured warm-up runs per arm.
    pub warmup: usize,
}

impl Default for ConfirmConfig {
    fn default() -> Self {
        ConfirmConfig {
            top: 3,
            reps: MIN_REPS,
            warmup: 5,
        }
    }
}

/// Wall-clock statistics of one arm, in nanoseconds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TimeStats {
    pub n: usize,
    pub mean_ns: f64,
    pub std_dev_ns: f64,
    /// 95% confidence interval of the mean (Student-t with n-1 degrees of freedom).
    pub ci95_low_ns: f64,
    pub ci95_high_ns: f64,
    /// Severe outliers dropped before these statistics (not counted in `n`).
    #[serde(default)]
    pub outliers: usize,
}

/// A sample of wall-clock times: at least two, all finite (checked at construction).
#[derive(Clone, Debug)]
pub struct Sample(Vec<f64>);

impl Sample {
    /// `None` if fewer than two values or any is not finite.
    pub fn new(xs: Vec<f64>) -> Option<Sample> {
        (xs.len() >= 2 && xs.iter().all(|x| x.is_finite())).then_some(Sample(xs))
    }

    /// The sample without its severe outliers (outside Q1 - 3 IQR, Q3 + 3 IQR), and how many
    /// were dropped.
    pub fn without_outliers(&self) -> (Sample, usize) {
        let mut sorted = self.0.clone();
        sorted.sort_by(f64::total_cmp);
        let q = |p: f64| {
            let pos = p * (sorted.len() - 1) as f64;
            let (lo, hi) = (pos.floor() as usize, pos.ceil() as usize);
            sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo as f64)
        };
        let (q1, q3) = (q(0.25), q(0.75));
        let iqr = q3 - q1;
        let (lo, hi) = (q1 - 3.0 * iqr, q3 + 3.0 * iqr);
        let kept: Vec<f64> = self
            .0
            .iter()
            .copied()
            .filter(|x| *x >= lo && *x <= hi)
            .collect();
        let dropped = self.0.len() - kept.len();
        match Sample::new(kept) {
            Some(s) => (s, dropped),
            None => (self.clone(), 0),
        }
    }

    fn mean(&self) -> f64 {
        self.0.iter().sum::<f64>() / self.0.len() as f64
    }

    fn var(&self) -> f64 {
        let m = self.mean();
        self.0.iter().map(|x| (x - m).powi(2)).sum::<f64>() / (self.0.len() - 1) as f64
    }

    /// Mean, standard deviation and the 95% confidence interval of the mean.
    pub fn stats(&self) -> TimeStats {
        let n = self.0.len();
        let mean = self.mean();
        let sd = self.var().sqrt();
        let t = t_quantile(0.975, (n - 1) as f64);
        let half = t * sd / (n as f64).sqrt();
        TimeStats {
            n,
            mean_ns: mean,
            std_dev_ns: sd,
            ci95_low_ns: mean - half,
            ci95_high_ns: mean + half,
            outliers: 0,
        }
    }
}

fn t_quantile(p: f64, df: f64) -> f64 {
    StudentsT::new(0.0, 1.0, df)
        .map(|t| t.inverse_cdf(p))
        .unwrap_or(1.96)
}

/// Welch's t-test: the two-sided p-value for "the means of `a` and `b` are equal".
pub fn welch_p(a: &Sample, b: &Sample) -> f64 {
    let (na, nb) = (a.0.len() as f64, b.0.len() as f64);
    let (va, vb) = (a.var() / na, b.var() / nb);
    let se2 = va + vb;
    if se2 <= 0.0 {
        return if a.mean() == b.mean() { 1.0 } else { 0.0 };
    }
    let t = (a.mean() - b.mean()) / se2.sqrt();
    let df = se2 * se2 / (va * va / (na - 1.0) + vb * vb / (nb - 1.0));
    match StudentsT::new(0.0, 1.0, df.max(1.0)) {
        Ok(d) => (2.0 * (1.0 - d.cdf(t.abs()))).clamp(0.0, 1.0),
        Err(_) => 1.0,
    }
}

/// Whether the difference between two arms is significant (Welch p < [`ALPHA`] and the
/// ratio of means outside 1 ± [`DELTA`]), with the p-value.
pub fn significant(a: &Sample, b: &Sample) -> (bool, f64) {
    let p = welch_p(a, b);
    let ratio = a.mean() / b.mean();
    let practical = ratio >= 1.0 + DELTA || ratio <= 1.0 / (1.0 + DELTA);
    (p < ALPHA && practical, p)
}

/// One arm of a confirmation.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Arm {
    /// `new`/`old` (relative) or `largest`/`smallest` (asymptotic sweep).
    pub label: String,
    /// The registered type the program runs against.
    #[serde(rename = "type")]
    pub ty: String,
    pub input_size: u64,
    /// Heap bytes the program holds at the call (what the sweep measures when the registered
    /// size does not move; see `size_measure`).
    #[serde(default)]
    pub heap_bytes: u64,
    /// Sancov edges of one run (deterministic).
    pub edges: u64,
    /// The search's deterministic cost (edges + bytes moved / 8) of one run.
    pub cost: u64,
    pub time: TimeStats,
}

/// The confirmation of one program.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Confirmation {
    /// 1 = the best program, 2.. = the following ones of the report.
    pub rank: usize,
    /// `relative` (new vs old) or `sweep` (largest vs smallest size of the best program).
    pub kind: String,
    /// The arm under analysis (`new`, or the largest size).
    pub a: Arm,
    /// The reference arm (`old`, or the smallest size).
    pub b: Arm,
    /// Deterministic cost ratio a/b (one run each).
    pub cost_ratio: f64,
    /// Measured ratio of mean wall-clock times a/b.
    pub time_ratio: f64,
    /// Welch's two-sided p-value.
    pub p_value: f64,
    /// p < 0.05 and the time ratio outside 1 ± 5% (see the module doc).
    pub significant: bool,
    /// Programs of this confirmation that did not complete (they are left out of the
    /// statistics; when fewer than 2 measured runs remain per arm there is no confirmation).
    pub failed_runs: usize,
}

/// Why a program could not be confirmed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Unconfirmed {
    pub rank: usize,
    pub reason: String,
}

/// All confirmations of one run.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ConfirmReport {
    pub reps: usize,
    pub warmup: usize,
    /// How significance is decided, for readers of the JSON.
    pub method: String,
    pub confirmed: Vec<Confirmation>,
    pub unconfirmed: Vec<Unconfirmed>,
    /// Which build the times come from: `uninstrumented twin` (the same harness built without
    /// sanitizer coverage) or `instrumented worker` (no twin was available).
    #[serde(default)]
    pub timed_on: String,
}

/// A program to confirm: its rank and its two arms' programs and types.
#[derive(Clone, Debug)]
pub struct Job {
    pub rank: usize,
    pub kind: &'static str,
    pub a: (String, String, Program),
    pub b: (String, String, Program),
    /// Arm `a` runs on the new version and arm `b` on the old version of a pair executor
    /// (a relative confirmation); otherwise both run on the executor itself.
    pub on_pair: bool,
}

impl Job {
    /// Runs the arms listed in `arms` (true: `a`) and returns their feedback in that order.
    /// On a pair, the runs of each side go to their worker in one batch, the side of the
    /// first listed arm first.
    fn run(&self, exec: &mut dyn Executor, arms: &[bool]) -> Result<Vec<Feedback>> {
        let program = |is_a: bool| if is_a { &self.a.2 } else { &self.b.2 };
        if !self.on_pair {
            let batch: Vec<Program> = arms.iter().map(|x| program(*x).clone()).collect();
            return exec.run(&batch);
        }
        let n_a = arms.iter().filter(|x| **x).count();
        let mut side = |is_a: bool, n: usize| -> Result<Vec<Feedback>> {
            let batch = vec![program(is_a).clone(); n];
            match is_a {
                true => exec.run(&batch),
                false => match exec.old() {
                    Some(old) => old.run(&batch),
                    None => anyhow::bail!("a relative confirmation needs a pair of versions"),
                },
            }
        };
        let a_first = arms.first().copied().unwrap_or(true);
        let (fa, fb) = if a_first {
            let fa = side(true, n_a)?;
            (fa, side(false, arms.len() - n_a)?)
        } else {
            let fb = side(false, arms.len() - n_a)?;
            (side(true, n_a)?, fb)
        };
        anyhow::ensure!(
            fa.len() == n_a && fb.len() == arms.len() - n_a,
            "a worker of the pair lost feedback"
        );
        let (mut ia, mut ib) = (fa.into_iter(), fb.into_iter());
        Ok(arms
            .iter()
            .map(|x| if *x { ia.next() } else { ib.next() }.expect("counted"))
            .collect())
    }
}

/// Runs the confirmation of `jobs` (in order: best first) on `exec`.
pub fn confirm(
    exec: &mut dyn Executor,
    jobs: &[Job],
    cfg: &ConfirmConfig,
) -> Result<ConfirmReport> {
    let reps = cfg.reps.max(MIN_REPS);
    let mut out = ConfirmReport {
        reps,
        warmup: cfg.warmup,
        method: format!(
            "Welch t-test p < {ALPHA} and time ratio outside 1 +/- {:.0}%; per-arm 95% Student-t intervals",
            DELTA * 100.0
        ),
        ..ConfirmReport::default()
    };
    // Deterministic figures come from `exec` (instrumented), times from its twin if any.
    let timer = exec.timing().is_some();
    out.timed_on = if timer {
        "uninstrumented twin"
    } else {
        "instrumented worker"
    }
    .into();
    for job in jobs {
        let result = if timer {
            let fb = job.run(exec, &[true, false])?;
            if !(usable(&fb[0]) && usable(&fb[1])) {
                out.unconfirmed.push(Unconfirmed {
                    rank: job.rank,
                    reason: "the program does not complete on both arms".into(),
                });
                continue;
            }
            let costs = Some((fb[0].clone(), fb[1].clone()));
            let twin = exec.timing().expect("checked above");
            confirm_one(twin, job, reps, cfg.warmup, costs)?
        } else {
            confirm_one(exec, job, reps, cfg.warmup, None)?
        };
        match result {
            Ok(c) => out.confirmed.push(c),
            Err(reason) => out.unconfirmed.push(Unconfirmed {
                rank: job.rank,
                reason,
            }),
        }
    }
    Ok(out)
}

/// Confirms one job on `exec`; `costs` (one instrumented run per arm) supplies the
/// deterministic figures when `exec` is an uninstrumented twin.
fn confirm_one(
    exec: &mut dyn Executor,
    job: &Job,
    reps: usize,
    warmup: usize,
    costs: Option<(Feedback, Feedback)>,
) -> Result<std::result::Result<Confirmation, String>> {
    // Warm-up: also gives the deterministic figures of one run per arm.
    let warm: Vec<bool> = [true, false].repeat(warmup.max(1));
    let fb = job.run(exec, &warm)?;
    let (Some(fa), Some(fb0)) = (
        fb.iter().step_by(2).find(|f| usable(f)).cloned(),
        fb.iter().skip(1).step_by(2).find(|f| usable(f)).cloned(),
    ) else {
        return Ok(Err("the program does not complete on both arms".into()));
    };
    let (fa, fb0) = costs.unwrap_or((fa, fb0));
    let mut ta = Vec::with_capacity(reps);
    let mut tb = Vec::with_capacity(reps);
    let mut failed = 0;
    let mut done = 0;
    while done < reps {
        let pairs = PAIRS_PER_BATCH.min(reps - done);
        let mut batch = Vec::with_capacity(2 * pairs);
        let mut a_first = Vec::with_capacity(pairs);
        for k in 0..pairs {
            // a b | b a | a b | ...: each arm runs first half of the time.
            let first = (done + k) % 2 == 0;
            a_first.push(first);
            batch.extend([first, !first]);
        }
        let fbs = job.run(exec, &batch)?;
        for (k, first) in a_first.iter().enumerate() {
            let (x, y) = (&fbs[2 * k], &fbs[2 * k + 1]);
            let (fa_k, fb_k) = if *first { (x, y) } else { (y, x) };
            for (f, v) in [(fa_k, &mut ta), (fb_k, &mut tb)] {
                if usable(f) {
                    v.push(f.cost.wall_ns as f64);
                } else {
                    failed += 1;
                }
            }
        }
        done += pairs;
    }
    let (Some(sa), Some(sb)) = (Sample::new(ta), Sample::new(tb)) else {
        return Ok(Err(format!(
            "{failed} of {} measured runs failed",
            2 * reps
        )));
    };
    let ((sa, out_a), (sb, out_b)) = (sa.without_outliers(), sb.without_outliers());
    let (sig, p) = significant(&sa, &sb);
    let arm = |(label, ty, _): &(String, String, Program), f: &Feedback, s: &Sample, out| Arm {
        label: label.clone(),
        ty: ty.clone(),
        input_size: f.input_size,
        heap_bytes: f.heap_bytes,
        edges: f.cost.edges,
        cost: f.cost.combined(),
        time: TimeStats {
            outliers: out,
            ..s.stats()
        },
    };
    let a = arm(&job.a, &fa, &sa, out_a);
    let b = arm(&job.b, &fb0, &sb, out_b);
    Ok(Ok(Confirmation {
        rank: job.rank,
        kind: job.kind.to_string(),
        cost_ratio: (a.cost as f64 + 1.0) / (b.cost as f64 + 1.0),
        time_ratio: if b.time.mean_ns > 0.0 {
            a.time.mean_ns / b.time.mean_ns
        } else {
            1.0
        },
        p_value: p,
        significant: sig,
        failed_runs: failed,
        a,
        b,
    }))
}

fn usable(f: &Feedback) -> bool {
    f.is_ok() && f.calls > 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interval_of_a_known_sample() {
        // mean 5, sd sqrt(2.5); t(0.975, 4) = 2.776.
        let s = Sample::new(vec![3.0, 4.0, 5.0, 6.0, 7.0]).unwrap().stats();
        assert!((s.mean_ns - 5.0).abs() < 1e-12);
        let half = 2.776_445 * (2.5f64).sqrt() / 5f64.sqrt();
        assert!((s.ci95_high_ns - 5.0 - half).abs() < 1e-4, "{s:?}");
    }

    #[test]
    fn welch_separates_distinct_means_and_not_equal_ones() {
        let a: Vec<f64> = (0..30).map(|i| 100.0 + (i % 5) as f64).collect();
        let b: Vec<f64> = (0..30).map(|i| 200.0 + (i % 7) as f64).collect();
        let c: Vec<f64> = (0..30).map(|i| 100.0 + ((i + 2) % 5) as f64).collect();
        let (sa, sb, sc) = (
            Sample::new(a).unwrap(),
            Sample::new(b).unwrap(),
            Sample::new(c).unwrap(),
        );
        assert!(significant(&sb, &sa).0);
        let (sig, p) = significant(&sa, &sc);
        assert!(!sig && p > 0.5, "p = {p}");
    }

    #[test]
    fn tiny_but_certain_differences_are_not_significant() {
        // 2% apart with almost no noise: the t-test alone would call it significant.
        let a: Vec<f64> = (0..30).map(|i| 100.0 + (i % 2) as f64 * 0.1).collect();
        let b: Vec<f64> = (0..30).map(|i| 102.0 + (i % 2) as f64 * 0.1).collect();
        let (sig, p) = significant(&Sample::new(b).unwrap(), &Sample::new(a).unwrap());
        assert!(p < 1e-6 && !sig);
    }

    #[test]
    fn severe_outliers_are_dropped_and_counted() {
        let mut xs: Vec<f64> = (0..30).map(|i| 100.0 + (i % 5) as f64).collect();
        xs.push(100_000.0);
        let (s, dropped) = Sample::new(xs).unwrap().without_outliers();
        assert_eq!(dropped, 1);
        assert!(s.stats().mean_ns < 110.0);
        let same = Sample::new(vec![5.0; 30]).unwrap().without_outliers();
        assert_eq!(same.1, 0);
    }

    #[test]
    fn samples_check_their_invariants() {
        assert!(Sample::new(vec![1.0]).is_none());
        assert!(Sample::new(vec![1.0, f64::NAN]).is_none());
    }
}
