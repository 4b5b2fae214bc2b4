//! The worker pool as an [`Executor`]: starts the (instrumented) worker processes and
//! adapts the supervisor's errors to the engine's.

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use anyhow::{Context, Result};
use perfsyn_profiler_ipc::supervisor::{Pool, PoolConfig};
use perfsyn_profiler_ipc::{ApiSchema, Feedback, Program};

use crate::run::exec::Executor;

/// Whether pools started from now on time the calls under test in thread CPU time (see
/// `PoolConfig::thread_cpu`): off unless the command reports or optimizes that figure.
static THREAD_CPU: AtomicBool = AtomicBool::new(false);

/// Makes the pools this process starts from now on measure `Cost::cpu_ns` (`on`), or not.
pub fn time_thread_cpu(on: bool) {
    THREAD_CPU.store(on, Ordering::Relaxed);
}

/// A started pool of workers.
pub struct WorkerPool {
    pool: Pool,
    binary: std::path::PathBuf,
    workers: usize,
    deadline: Duration,
    /// The version the workers bind (see `profiler_ipc::bind`).
    bind: Option<String>,
    /// The uninstrumented twin's pool for wall-clock timing, started on first use.
    twin: Twin,
}

enum Twin {
    NotTried,
    Started(Box<WorkerPool>),
    Unavailable,
}

impl WorkerPool {
    /// Starts `workers` workers of `binary` with a per-program `deadline`, metered in fuel
    /// (edges at a fixed nominal rate) so that it does not depend on the machine's load; the
    /// wall clock is only a backstop (see `supervisor::fuel_for`).
    pub fn start(binary: &Path, workers: usize, deadline: Duration) -> Result<WorkerPool> {
        WorkerPool::start_bound(binary, workers, deadline, None)
    }

    /// As [`WorkerPool::start`], the workers binding version `bind` (`old`/`new`) of each
    /// version group: one side of an in-binary pair (see `pair.rs`).
    pub fn start_bound(
        binary: &Path,
        workers: usize,
        deadline: Duration,
        bind: Option<&str>,
    ) -> Result<WorkerPool> {
        WorkerPool::start_with(binary, workers, deadline, bind, None)
    }

    /// As [`WorkerPool::start_bound`]; `setup_reuse` overrides the pool's default (the
    /// environment's [`perfsyn_profiler_ipc::forkserver::ENV`]).
    fn start_with(
        binary: &Path,
        workers: usize,
        deadline: Duration,
        bind: Option<&str>,
        setup_reuse: Option<bool>,
    ) -> Result<WorkerPool> {
        let mut cfg = PoolConfig::new(binary.to_path_buf()).with_budget(deadline);
        cfg.workers = workers;
        if let Some(r) = setup_reuse {
            cfg.setup_reuse = r;
        }
        cfg.bind = bind.map(str::to_string);
        cfg.thread_cpu = THREAD_CPU.load(Ordering::Relaxed);
        let pool = Pool::start(cfg)
            .with_context(|| format!("cannot start workers from {}", binary.display()))?;
        Ok(WorkerPool {
            pool,
            binary: binary.to_path_buf(),
            workers,
            deadline,
            bind: bind.map(str::to_string),
            twin: Twin::NotTried,
        })
    }

    /// The underlying supervisor.
    pub fn pool(&self) -> &Pool {
        &self.pool
    }

    /// The worker binary the pool runs.
    pub fn binary(&self) -> &Path {
        &self.binary
    }

    /// Worker processes in the pool.
    pub fn workers(&self) -> usize {
        self.workers
    }

    /// The per-program deadline the pool was started with.
    pub fn deadline(&self) -> Duration {
        self.deadline
    }
}

impl Executor for WorkerPool {
    fn schema(&self) -> &ApiSchema {
        self.pool.schema()
    }

    fn run(&mut self, programs: &[Program]) -> Result<Vec<Feedback>> {
        Ok(self.pool.run(programs)?)
    }

    fn run_capped(&mut self, programs: &[Program], fuel: u64) -> Result<Vec<Feedback>> {
        Ok(self.pool.run_with_fuel(programs, fuel)?)
    }

    fn setup_reused(&self) -> u64 {
        self.pool.stats().setup_reused
    }

    fn run_hot(
        &mut self,
        programs: &[Program],
    ) -> Result<Option<(Vec<Feedback>, std::path::PathBuf)>> {
        Ok(Some((self.pool.run_hot(programs)?, self.binary.clone())))
    }

    fn run_reads(
        &mut self,
        programs: &[Program],
    ) -> Result<
        Option<(
            Vec<perfsyn_profiler_ipc::readtrace::ReadTrace>,
            std::path::PathBuf,
        )>,
    > {
        let Some(bin) = crate::run::reads::trace_binary(&self.binary) else {
            return Ok(None);
        };
        let bin = bin?;
        let traces = crate::run::reads::trace_reads(&bin, self.bind.as_deref(), programs)?;
        Ok(Some((traces, bin)))
    }

    fn timing(&mut self) -> Option<&mut dyn Executor> {
        if let Twin::NotTried = self.twin {
            // Building the twin can fail (say, the harness changed since the instrumented
            // build); confirmation then times the instrumented worker and says so.
            // The twin builds every setup in the process that times the call: a program
            // served from a forked setup pays a copy-on-write fault on each page its call
            // first writes, which a program that built its own input does not. petgraph's
            // `Graph::add_edge` (O(1), 150 ns) timed 54x slower at 29192 nodes than at 294
            // with setups reused (the large setup was forked, the small one was not), 1.7x
            // without.
            let started = crate::harness::worker_build::plain_twin(&self.binary)
                .and_then(Result::ok)
                .and_then(|bin| {
                    WorkerPool::start_with(
                        &bin,
                        self.workers,
                        self.deadline,
                        self.bind.as_deref(),
                        Some(false),
                    )
                    .ok()
                })
                .filter(|twin| twin.schema() == self.schema());
            self.twin = match started {
                Some(p) => Twin::Started(Box::new(p)),
                None => Twin::Unavailable,
            };
        }
        match &mut self.twin {
            Twin::Started(p) => Some(p.as_mut()),
            _ => None,
        }
    }
}
