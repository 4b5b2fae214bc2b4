//! `perfsyn compare`: SpeedGun's performance regression testing of thread-safe types
//! (Pradel, Huggler, Gross, ISSTA 2014). For a pair of versions of a concurrent type (declared
//! with `register_concurrent!`), generate multi-threaded tests focused on the changed methods,
//! run each on both versions, and report a regression, an improvement or none.
//!
//! The two versions run on a pair of workers from one binary, each bound to one side of the
//! compared pair ([`PairPools`]), so the same test goes to both; no test is rewritten.
//!
//! The parts: [`generate`] (section 3.1 and 3.3), [`measure`] (Algorithm 1, Algorithm 2 and
//! the executor trait), [`oracle`] (eq. 4-7); the subcommand's options and output live in
//! `crate::cli::compare`, with the other subcommands.
//! The engine learns pairs from the schema; it never links the corpus.

pub mod generate;
pub mod measure;
pub mod oracle;

use anyhow::{bail, Context, Result};
use perfsyn_profiler_ipc::bind::pair_binding;
use perfsyn_profiler_ipc::concurrent::{ConcurrentFeedback, ConcurrentRun};
use perfsyn_profiler_ipc::supervisor::{Pool, PoolConfig};
use perfsyn_profiler_ipc::{ApiSchema, Program};
use rand::rngs::StdRng;
use rand::SeedableRng;
use serde::{Deserialize, Serialize};

use generate::{Generator, Seed};
use measure::{
    ConcurrentExecutor, LengthSearch, MeasureConfig, SeriesStats, Side, TestMeasurement,
};
use oracle::{Change, Counts, OracleConfig, Winner};

/// One version pair of a concurrent type, as the schema declares it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pair {
    pub old: String,
    pub new: String,
    /// `regression`, `improvement`, `none` or `inconclusive`.
    pub expected: String,
    pub origin: String,
    pub changed: Vec<String>,
}

/// Every pair the schema declares, in registration order.
pub fn pairs(schema: &ApiSchema) -> Vec<Pair> {
    schema
        .types
        .iter()
        .filter_map(|t| t.concurrent.as_ref().map(|c| (t, c)))
        .flat_map(|(t, c)| {
            c.pairs.iter().map(|p| Pair {
                old: p.old.clone(),
                new: t.name.clone(),
                expected: p.expected.clone(),
                origin: p.origin.clone(),
                changed: p.changed.clone(),
            })
        })
        .collect()
}

/// The pair `ty` names: its new version (the first pair of it, or the one whose old version is
/// `old`), or its old version when `old` is not given and only one pair has it.
pub fn find_pair(schema: &ApiSchema, ty: &str, old: Option<&str>) -> Result<Pair> {
    let all = pairs(schema);
    let matching: Vec<&Pair> = all
        .iter()
        .filter(|p| p.new == ty && old.is_none_or(|o| p.old == o))
        .collect();
    if let Some(p) = matching.first() {
        return Ok((*p).clone());
    }
    let as_old: Vec<&Pair> = all
        .iter()
        .filter(|p| p.old == ty && old.is_none())
        .collect();
    if as_old.len() == 1 {
        return Ok(as_old[0].clone());
    }
    let names = pair_names(&all);
    match schema.ty(ty) {
        None => bail!("unknown type {ty}; concurrent pairs: {}", names.join(", ")),
        Some(t) if t.concurrent.is_none() => bail!(
            "{ty} is not a concurrent type (register it with register_concurrent!); pairs: {}",
            names.join(", ")
        ),
        Some(_) => bail!(
            "{ty} is not the new version of a pair{}; pairs: {}",
            old.map(|o| format!(" with old version {o}"))
                .unwrap_or_default(),
            names.join(", ")
        ),
    }
}

/// The pairs for an error message, each new version once: `EmcAtomic (old EmcLocked or
/// EmcUnsync)`, in registration order.
fn pair_names(all: &[Pair]) -> Vec<String> {
    let mut news: Vec<&str> = Vec::new();
    for p in all {
        if !news.contains(&p.new.as_str()) {
            news.push(&p.new);
        }
    }
    news.into_iter()
        .map(|n| {
            let olds: Vec<&str> = all
                .iter()
                .filter(|p| p.new == n)
                .map(|p| p.old.as_str())
                .collect();
            format!("{n} (old {})", olds.join(" or "))
        })
        .collect()
}

/// Everything `compare` needs besides the pair.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct CompareConfig {
    /// N: threads (suffixes) per test.
    pub threads: usize,
    /// Tests per pair.
    pub tests: usize,
    pub seed: u64,
    pub measure: MeasureConfig,
    pub oracle: OracleConfig,
}

/// Which version one test found faster.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, strum::EnumString, strum::Display,
)]
#[serde(rename_all = "lowercase")]
#[strum(serialize_all = "lowercase")]
pub enum TestOutcome {
    /// The old version is faster (T_old).
    Old,
    /// The new version is faster (T_new).
    New,
    /// Neither is significantly faster (T_none).
    None,
    /// The measurement could not be trusted (see `reason`).
    Inconclusive,
}

/// One test's result.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct TestReport {
    pub index: usize,
    /// Calls per thread (l).
    pub calls_per_thread: usize,
    pub outcome: TestOutcome,
    pub reason: Option<String>,
    /// Which version ran first.
    pub first: String,
    pub old: Option<SeriesStats>,
    pub new: Option<SeriesStats>,
    /// Mean old / mean new (> 1: the new version is faster).
    pub speedup: Option<f64>,
    /// Repetitions per warm-up and per measurement.
    pub r_w: Option<u32>,
    pub r_s: Option<u32>,
}

/// The result of comparing one pair.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct CompareReport {
    /// The new version.
    #[serde(rename = "type")]
    pub ty: String,
    pub old: String,
    pub expected: String,
    pub origin: String,
    pub verdict: Change,
    /// Mean over conclusive tests of (old time / new time): > 1 faster, < 1 slower.
    pub speedup: Option<f64>,
    pub counts: Counts,
    pub focus: Vec<String>,
    pub length: LengthSearch,
    pub tests: Vec<TestReport>,
    /// The first test, as Rust (prefix and one suffix), against the new version.
    pub test_rust: String,
    pub seed: u64,
    pub threads: usize,
}

/// Compares `pair` (SpeedGun end to end): Algorithm 1 for the length, then `cfg.tests` tests,
/// each measured on both versions and judged by eq. 4-5, then eq. 6-7 over the tests.
pub fn compare(
    exec: &mut dyn ConcurrentExecutor,
    pair: &Pair,
    cfg: &CompareConfig,
    seed_programs: &[Program],
) -> Result<CompareReport> {
    let old_schema = exec.schema(Side::Old).clone();
    let schema = exec.schema(Side::New).clone();
    let seeds: Vec<Seed> = generate::seeds_from(seed_programs, &schema, &pair.old, &pair.new);
    if !seed_programs.is_empty() && seeds.is_empty() {
        bail!(
            "none of the {} programs of the run file builds a {} or {}; seed with a run file \
             of one of the pair's types",
            seed_programs.len(),
            pair.old,
            pair.new
        );
    }
    let gen = Generator::new(
        &old_schema,
        &schema,
        &pair.old,
        &pair.new,
        &pair.changed,
        seeds,
    )?;
    let mut rng = StdRng::seed_from_u64(cfg.seed);
    let threads = cfg.threads.max(1);
    let length = measure::find_length(exec, &gen, threads, &cfg.measure, &mut rng)?;
    let mut counts = Counts::default();
    let mut tests = Vec::new();
    let mut test_rust = String::new();
    let mut speedups = Vec::new();
    for index in 0..cfg.tests {
        let test = gen.generate(&mut rng, threads, length.length);
        if index == 0 {
            test_rust = test
                .print(&schema)
                .unwrap_or_else(|e| format!("// cannot print the test: {e}\n"));
        }
        let m = measure::measure_test(exec, &test, &cfg.measure, &mut rng)?;
        let calls_per_thread = test.suffix_calls();
        let report = match m {
            TestMeasurement::Conclusive {
                old: so,
                new: sn,
                first_old,
                r_w,
                r_s,
            } => {
                let w = oracle::judge_test(&so, &sn, &cfg.oracle);
                counts.add(Some(w));
                let speedup = so.mean() / sn.mean();
                speedups.push(speedup);
                TestReport {
                    index,
                    calls_per_thread,
                    outcome: match w {
                        Winner::Old => TestOutcome::Old,
                        Winner::New => TestOutcome::New,
                        Winner::None => TestOutcome::None,
                    },
                    reason: None,
                    first: if first_old { "old" } else { "new" }.into(),
                    old: Some(SeriesStats::of(&so, cfg.oracle.confidence)),
                    new: Some(SeriesStats::of(&sn, cfg.oracle.confidence)),
                    speedup: Some(speedup),
                    r_w: Some(r_w),
                    r_s: Some(r_s),
                }
            }
            TestMeasurement::Inconclusive { reason, first_old } => {
                counts.add(None);
                TestReport {
                    index,
                    calls_per_thread,
                    outcome: TestOutcome::Inconclusive,
                    reason: Some(reason),
                    first: if first_old { "old" } else { "new" }.into(),
                    old: None,
                    new: None,
                    speedup: None,
                    r_w: None,
                    r_s: None,
                }
            }
        };
        tests.push(report);
    }
    Ok(CompareReport {
        ty: pair.new.clone(),
        old: pair.old.clone(),
        expected: pair.expected.clone(),
        origin: pair.origin.clone(),
        verdict: oracle::verdict(&counts),
        speedup: (!speedups.is_empty())
            .then(|| speedups.iter().sum::<f64>() / speedups.len() as f64),
        counts,
        focus: gen.focus_methods(),
        length,
        tests,
        test_rust,
        seed: cfg.seed,
        threads,
    })
}

/// A pair of worker pools as a [`ConcurrentExecutor`]: both from one binary, one bound to each
/// side of one compared pair (`profiler_ipc::bind::bind_pair`). A type can be the new version
/// of one pair and the old version of another, so the binding is per pair, chosen at start.
#[derive(Debug)]
pub struct PairPools {
    old: Pool,
    new: Pool,
}

impl PairPools {
    /// Starts the workers of `cfg` for `pair`, one pool per side.
    pub fn start(cfg: &PoolConfig, pair: &Pair) -> Result<PairPools> {
        let start = |side: &str| {
            let mut c = cfg.clone();
            c.bind = Some(pair_binding(side, &pair.old, &pair.new));
            Pool::start(c).with_context(|| {
                format!(
                    "cannot start a worker from {} bound to the {side} side of {} -> {}",
                    cfg.worker.display(),
                    pair.old,
                    pair.new
                )
            })
        };
        Ok(PairPools {
            old: start("old")?,
            new: start("new")?,
        })
    }

    fn pool(&mut self, side: Side) -> &mut Pool {
        match side {
            Side::Old => &mut self.old,
            Side::New => &mut self.new,
        }
    }
}

impl ConcurrentExecutor for PairPools {
    fn schema(&self, side: Side) -> &ApiSchema {
        match side {
            Side::Old => self.old.schema(),
            Side::New => self.new.schema(),
        }
    }

    fn run(&mut self, side: Side, run: &ConcurrentRun) -> Result<ConcurrentFeedback> {
        Ok(self.pool(side).run_concurrent(run)?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pair(new: &str, old: &str) -> Pair {
        Pair {
            old: old.into(),
            new: new.into(),
            expected: "none".into(),
            origin: String::new(),
            changed: Vec::new(),
        }
    }

    /// `compare --type Nope` once listed EmcAtomic twice, once per old version.
    #[test]
    fn an_unknown_type_lists_each_new_version_once() {
        let all = [
            pair("EmcLocked", "EmcUnsync"),
            pair("EmcAtomic", "EmcLocked"),
            pair("EmcAtomic", "EmcUnsync"),
        ];
        assert_eq!(
            pair_names(&all),
            [
                "EmcLocked (old EmcUnsync)",
                "EmcAtomic (old EmcLocked or EmcUnsync)"
            ]
        );
    }
}
