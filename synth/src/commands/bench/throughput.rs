//! `perfsyn bench throughput`: how many programs per second a realistic explore runs, and
//! how much of the workers' time goes to something other than the call under test.
//!
//! `bench ipc` measures the boundary with tiny programs; real searches build inputs of
//! thousands of elements for every child program. This runs the real `explore` (fixed seeds
//! and program budgets, no confirmation) on several corpus methods through an executor that
//! times each batch and sums the measured calls' wall time, so that speed-ups of the worker
//! (setup reuse, cheaper round trips) show on the workload they are meant for.

use std::time::Instant;

use anyhow::Result;
use perfsyn_profiler_ipc::{ApiSchema, Feedback, Program};
use serde::{Deserialize, Serialize};

use crate::explore::{explore, ExploreConfig, OracleKind};
use crate::judge::oracle::asymptotic::ScoreKind;
use crate::run::exec::Executor;
use crate::search::StrategyKind;

/// The methods measured by default: the built-in corpus's `throughput.json` (data with the
/// corpus, not names in engine code): vectors, ordered and hashed maps, with setups of
/// thousands of elements once the search has grown them.
pub fn default_methods() -> Result<Vec<String>> {
    let path = crate::harness::Harness::builtin().data_file("throughput.json");
    let text = std::fs::read_to_string(&path)
        .map_err(|e| anyhow::anyhow!("cannot read {}: {e}", path.display()))?;
    serde_json::from_str(&text).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))
}

/// One method's figures.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Throughput {
    pub method: String,
    pub seed: u64,
    pub programs: u64,
    /// Programs per wall-clock second of the search.
    pub programs_per_sec: f64,
    /// Share of the workers' time (`workers` x time inside the executor) not spent in the
    /// calls under test: building setup state, interpreting, and the boundary.
    pub setup_share: f64,
    /// Share of the programs served from a setup a worker had already built (its fork
    /// server); 0 with `PERFSYN_SETUP_REUSE=0`.
    #[serde(default)]
    pub setup_reused_share: f64,
}

/// The result of `perfsyn bench throughput`.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ThroughputBench {
    pub workers: usize,
    pub max_programs: u64,
    pub throughput: Vec<Throughput>,
}

/// Counts the time spent in `run` and the measured calls' wall time.
struct Timed<'a> {
    inner: &'a mut dyn Executor,
    busy_ns: u128,
    call_ns: u128,
}

impl Executor for Timed<'_> {
    fn schema(&self) -> &ApiSchema {
        self.inner.schema()
    }

    fn setup_reused(&self) -> u64 {
        self.inner.setup_reused()
    }

    fn run(&mut self, programs: &[Program]) -> Result<Vec<Feedback>> {
        let t = Instant::now();
        let fb = self.inner.run(programs)?;
        self.busy_ns += t.elapsed().as_nanos();
        self.call_ns += fb.iter().map(|f| f.cost.wall_ns as u128).sum::<u128>();
        Ok(fb)
    }

    fn run_capped(&mut self, programs: &[Program], fuel: u64) -> Result<Vec<Feedback>> {
        let t = Instant::now();
        let fb = self.inner.run_capped(programs, fuel)?;
        self.busy_ns += t.elapsed().as_nanos();
        self.call_ns += fb.iter().map(|f| f.cost.wall_ns as u128).sum::<u128>();
        Ok(fb)
    }
}

/// Runs a seeded explore of each method with `max_programs` programs on `exec` (a pool of
/// `workers` workers).
pub fn run(
    exec: &mut dyn Executor,
    workers: usize,
    methods: &[String],
    seed: u64,
    max_programs: u64,
) -> Result<ThroughputBench> {
    let mut out = Vec::new();
    for m in methods {
        let cfg = ExploreConfig::bench(
            m,
            StrategyKind::Astar,
            OracleKind::Asymptotic,
            ScoreKind::Growth,
            seed,
            max_programs,
        );
        let mut timed = Timed {
            inner: exec,
            busy_ns: 0,
            call_ns: 0,
        };
        let reused = timed.setup_reused();
        let r = explore(&mut timed, &cfg, &mut |_| {})?;
        let reused = timed.setup_reused() - reused;
        let secs = (r.stats.elapsed_ms as f64 / 1000.0).max(1e-3);
        let worker_ns = timed.busy_ns as f64 * workers as f64;
        out.push(Throughput {
            method: r.method.clone(),
            seed,
            programs: r.stats.programs,
            programs_per_sec: r.stats.programs as f64 / secs,
            setup_share: if worker_ns > 0.0 {
                (1.0 - timed.call_ns as f64 / worker_ns).clamp(0.0, 1.0)
            } else {
                0.0
            },
            setup_reused_share: reused as f64 / (r.stats.programs.max(1)) as f64,
        });
    }
    Ok(ThroughputBench {
        workers,
        max_programs,
        throughput: out,
    })
}

/// A table for the terminal.
pub fn render(b: &ThroughputBench) -> String {
    let mut s = format!(
        "{} workers, {} programs per explore\n{:<22} {:>10} {:>12} {:>12}\n",
        b.workers, b.max_programs, "method", "programs/s", "setup share", "setup reused"
    );
    for t in &b.throughput {
        s.push_str(&format!(
            "{:<22} {:>10.1} {:>11.1}% {:>11.1}%\n",
            t.method,
            t.programs_per_sec,
            t.setup_share * 100.0,
            t.setup_reused_share * 100.0
        ));
    }
    s
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_default_methods_parse_and_are_specs() {
        let m = super::default_methods().unwrap();
        assert!(!m.is_empty());
        assert!(m.iter().all(|s| s.contains("::")), "{m:?}");
    }
}
