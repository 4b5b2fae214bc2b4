//! Running concurrent tests and measuring them (SpeedGun sections 3.2 and 4): the test-length
//! search of Algorithm 1 and the warm-up / steady-state measurement of Algorithm 2, driven from
//! the engine; each request runs Algorithm 3 (`repeatAndMeasure`) in the worker.
//!
//! Deviations, all for a 2-core machine shared with other work, and all documented on the
//! options: Algorithm 1 bisects on a log scale (suitable lengths span orders of magnitude
//! across types) and estimates r_T from a probe of `steady / 8` per version instead of filling
//! a whole steady phase; `steady` is the whole steady phase (m_min measurements fill it), not
//! the span of one measurement; and after the warm-up the two versions' measurements are
//! interleaved, in random order per round, so that a burst of load from elsewhere hits both
//! series instead of one (the paper measures one version, then the other); and a measurement
//! is a low quantile (`--quantile`) of the times of its r_s repetitions rather than their sum,
//! so that repetitions stretched by unrelated processes being scheduled (common on 2 shared
//! cores) do not move it.

use anyhow::Result;
use perfsyn_profiler_ipc::concurrent::{ConcurrentFeedback, ConcurrentRun, ConcurrentTest};
use perfsyn_profiler_ipc::ApiSchema;
use perfsyn_profiler_ipc::Outcome;
use rand::rngs::StdRng;
use rand::RngExt;
use serde::{Deserialize, Serialize};
use std::time::Duration;

use super::generate::Generator;
use super::oracle::Series;

/// One version of the compared pair.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    Old,
    New,
}

/// Runs concurrent tests on a pair of versions, one request at a time: the same test on the
/// old or the new version (DESIGN.md, "Two revisions are two workers").
///
/// Protocol: `run` executes `run.test` on version `side` between `min_reps` and `reps` times
/// (stopping early once `budget_ns` of wall time has passed, if not 0) and reports the
/// measured time of the repetitions that completed. A test that panics, deadlocks or is
/// ill-formed is *data*: an `Ok` feedback whose outcome says so; `Err` means the executor
/// itself cannot serve.
pub trait ConcurrentExecutor {
    /// The schema version `side` offers.
    fn schema(&self, side: Side) -> &ApiSchema;
    fn run(&mut self, side: Side, run: &ConcurrentRun) -> Result<ConcurrentFeedback>;
}

/// Thresholds of Algorithms 1 and 2 (the paper's values in each field's doc).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct MeasureConfig {
    /// Warm-up phase t_w per version and test.
    pub warmup: Duration,
    /// Steady-state phase t_s per version and test.
    pub steady: Duration,
    /// t_min: shortest mean test time that counts as measurable.
    pub t_min: Duration,
    /// r_min: fewest repetitions the steady phase must hold.
    pub r_min: u32,
    /// maxTries of Algorithm 1.
    pub max_tries: u32,
    /// startMin and startMax of Algorithm 1 (calls per suffix).
    pub start_min: usize,
    pub start_max: usize,
    /// Length used when Algorithm 1 gives up.
    pub fallback_length: usize,
    /// m_min, m_max of Algorithm 2.
    pub m_min: usize,
    pub m_max: usize,
    /// sigma_stop, sigma_acceptable of Algorithm 2 (relative to the mean).
    pub sigma_stop: f64,
    pub sigma_acceptable: f64,
    /// Which quantile of a measurement's repetition times stands for it (0.5: the median).
    pub quantile: f64,
}

/// One try of Algorithm 1.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LengthTry {
    pub length: usize,
    /// Mean test time per version (ms), when the probe ran.
    pub old_ms: Option<f64>,
    pub new_ms: Option<f64>,
    pub too_short: bool,
    pub too_long: bool,
    /// Why the probe failed (panic, timeout...), if it did.
    pub failure: Option<String>,
}

/// The result of Algorithm 1.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LengthSearch {
    pub length: usize,
    /// False when the search gave up and `length` is the fallback.
    pub found: bool,
    pub reason: String,
    pub tries: Vec<LengthTry>,
}

fn failure(fb: &ConcurrentFeedback) -> Option<String> {
    match &fb.outcome {
        Outcome::Ok if fb.reps > 0 => None,
        Outcome::Ok => Some("no repetition completed".into()),
        Outcome::Panic { message, .. } => Some(format!("panic: {message}")),
        Outcome::Timeout => Some("deadlock or hang (killed at the deadline)".into()),
        o => Some(format!("{}: {o:?}", o.label())),
    }
}

/// Algorithm 1: a suffix length whose tests take longer than t_min on average and still fit
/// r_min repetitions into the steady phase, for both versions.
pub fn find_length(
    exec: &mut dyn ConcurrentExecutor,
    gen: &Generator<'_>,
    threads: usize,
    cfg: &MeasureConfig,
    rng: &mut StdRng,
) -> Result<LengthSearch> {
    let (mut lo, mut hi) = (cfg.start_min.max(1), cfg.start_max.max(cfg.start_min + 1));
    let mut tries = Vec::new();
    let t_s = cfg.steady.as_nanos() as f64;
    let t_min = cfg.t_min.as_nanos() as f64;
    let probe = (cfg.steady / 8).as_nanos() as u64;
    let give_up = |tries: Vec<LengthTry>, reason: String| LengthSearch {
        length: cfg.fallback_length,
        found: false,
        reason,
        tries,
    };
    while lo < hi && (tries.len() as u32) < cfg.max_tries {
        let l = ((lo as f64 * hi as f64).sqrt().round() as usize).clamp(lo, hi);
        let test = gen.generate(rng, threads, l);
        let run = |t: ConcurrentTest| ConcurrentRun {
            test: t,
            reps: 100_000,
            min_reps: 3,
            budget_ns: probe,
        };
        let fo = exec.run(Side::Old, &run(test.clone()))?;
        let fnew = exec.run(Side::New, &run(test))?;
        if let Some(f) = failure(&fo).or_else(|| failure(&fnew)) {
            tries.push(LengthTry {
                length: l,
                old_ms: None,
                new_ms: None,
                too_short: false,
                too_long: false,
                failure: Some(f),
            });
            continue;
        }
        let (t1, t2) = (fo.mean_ns(), fnew.mean_ns());
        let too_short = t1 <= t_min || t2 <= t_min;
        let too_long = t_s / t1 <= cfg.r_min as f64 || t_s / t2 <= cfg.r_min as f64;
        tries.push(LengthTry {
            length: l,
            old_ms: Some(t1 / 1e6),
            new_ms: Some(t2 / 1e6),
            too_short,
            too_long,
            failure: None,
        });
        match (too_short, too_long) {
            (true, true) => {
                return Ok(give_up(
                    tries,
                    "a test is too short and too long at once: one version is more than \
                     steady / (r_min * t_min) times slower; lower --r-min or --t-min"
                        .into(),
                ))
            }
            (false, false) => {
                return Ok(LengthSearch {
                    length: l,
                    found: true,
                    reason: format!("{} tries", tries.len()),
                    tries,
                })
            }
            (true, false) => {
                if l == lo {
                    lo += 1
                } else {
                    lo = l
                }
            }
            (false, true) => {
                if l == hi {
                    hi -= 1
                } else {
                    hi = l
                }
            }
        }
    }
    let reason = if tries.iter().all(|t| t.failure.is_some()) && !tries.is_empty() {
        format!(
            "every probe failed ({}); using --fallback-length {}",
            tries[0].failure.clone().unwrap_or_default(),
            cfg.fallback_length
        )
    } else {
        format!(
            "no length within --max-tries {} (or the range --start-min..--start-max) met both \
             constraints; using --fallback-length {}",
            cfg.max_tries, cfg.fallback_length
        )
    };
    Ok(give_up(tries, reason))
}

/// Summary of one version's steady-state series.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SeriesStats {
    /// Measurements (each the mean of `reps_per_measurement` repetitions).
    pub n: usize,
    pub mean_ms: f64,
    pub ci_low_ms: f64,
    pub ci_high_ms: f64,
    /// Standard deviation over mean.
    pub rel_sd: f64,
}

impl SeriesStats {
    pub fn of(s: &Series, confidence: f64) -> SeriesStats {
        let half = s.interval(confidence) / 2.0;
        SeriesStats {
            n: s.len(),
            mean_ms: s.mean() / 1e6,
            ci_low_ms: (s.mean() - half) / 1e6,
            ci_high_ms: (s.mean() + half) / 1e6,
            rel_sd: s.sd() / s.mean(),
        }
    }
}

/// The measurements of one test, or why it is inconclusive.
#[derive(Clone, Debug)]
pub enum TestMeasurement {
    Conclusive {
        old: Series,
        new: Series,
        first_old: bool,
        r_w: u32,
        r_s: u32,
    },
    Inconclusive {
        reason: String,
        first_old: bool,
    },
}

/// Section 4's steps 1-4 for one test on both versions: estimate r_w and r_s (one pair of
/// numbers for both versions), pick the first version at random, warm both up, then gather
/// the steady-state series by Algorithm 2 (interleaved; see the module doc).
pub fn measure_test(
    exec: &mut dyn ConcurrentExecutor,
    test: &ConcurrentTest,
    cfg: &MeasureConfig,
    rng: &mut StdRng,
) -> Result<TestMeasurement> {
    let first_old = rng.random_bool(0.5);
    let inconclusive = |reason: String| Ok(TestMeasurement::Inconclusive { reason, first_old });
    let sides = if first_old {
        [Side::Old, Side::New]
    } else {
        [Side::New, Side::Old]
    };
    // Step 1: estimate the time of one repetition from a short probe of each version.
    let mut means = Vec::new();
    for side in sides {
        let fb = exec.run(
            side,
            &ConcurrentRun {
                test: test.clone(),
                reps: 100_000,
                min_reps: 2,
                budget_ns: (cfg.steady / 10).as_nanos() as u64,
            },
        )?;
        if let Some(f) = failure(&fb) {
            return inconclusive(f);
        }
        means.push(fb.mean_ns());
    }
    let t_bar = means.iter().sum::<f64>() / means.len() as f64;
    let r_w = (cfg.warmup.as_nanos() as f64 / t_bar).ceil().max(1.0) as u32;
    let r_s = (cfg.steady.as_nanos() as f64 / (cfg.m_min.max(1) as f64 * t_bar))
        .round()
        .max(1.0) as u32;
    if (r_s as usize * cfg.m_min) < cfg.r_min as usize {
        return inconclusive(format!(
            "too few repetitions: the steady phase holds {} (r_s {r_s} x m_min {}), fewer than \
             --r-min {}",
            r_s as usize * cfg.m_min,
            cfg.m_min,
            cfg.r_min
        ));
    }
    // Warm-up phase (Algorithm 2, line 2), both versions in the chosen order.
    for side in sides {
        let fb = exec.run(
            side,
            &ConcurrentRun {
                test: test.clone(),
                reps: r_w,
                min_reps: r_w,
                budget_ns: 0,
            },
        )?;
        if let Some(f) = failure(&fb) {
            return inconclusive(f);
        }
    }
    // Steady state (lines 3-17), one measurement of each version per round.
    let mut m_old: Vec<f64> = Vec::new();
    let mut m_new: Vec<f64> = Vec::new();
    let spread = |m: &[f64]| {
        Series::new(m.to_vec())
            .map(|s| s.sd() / s.mean())
            .unwrap_or(f64::INFINITY)
    };
    loop {
        let order = if rng.random_bool(0.5) {
            [true, false]
        } else {
            [false, true]
        };
        for is_old in order {
            let side = if is_old { Side::Old } else { Side::New };
            let fb = exec.run(
                side,
                &ConcurrentRun {
                    test: test.clone(),
                    reps: r_s,
                    min_reps: r_s,
                    budget_ns: 0,
                },
            )?;
            if let Some(f) = failure(&fb) {
                return inconclusive(f);
            }
            let per_rep = fb.quantile_ns(cfg.quantile);
            if is_old {
                m_old.push(per_rep)
            } else {
                m_new.push(per_rep)
            }
        }
        let n = m_old.len();
        if n < cfg.m_min.max(2) {
            continue;
        }
        let (so, sn) = (spread(&m_old), spread(&m_new));
        if so <= cfg.sigma_stop && sn <= cfg.sigma_stop {
            break;
        }
        if n >= cfg.m_max {
            if so <= cfg.sigma_acceptable && sn <= cfg.sigma_acceptable {
                break;
            }
            return inconclusive(format!(
                "too much spread after --m-max {} measurements: sd/mean {:.3} (old), {:.3} \
                 (new) > --sigma-acceptable {}",
                cfg.m_max, so, sn, cfg.sigma_acceptable
            ));
        }
    }
    match (Series::new(m_old), Series::new(m_new)) {
        (Some(old), Some(new)) => Ok(TestMeasurement::Conclusive {
            old,
            new,
            first_old,
            r_w,
            r_s,
        }),
        _ => inconclusive("a measured time was zero".into()),
    }
}
