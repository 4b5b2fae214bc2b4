//! The worker pool as an [`Executor`]: starts the (instrumented) worker processes and
//! adapts the supervisor's errors to the engine's.

use std::path::Path;
use std::time::Duration;

use anyhow::{Context, Result};
use perfsyn_profiler_ipc::supervisor::{Pool, PoolConfig};
use perfsyn_profiler_ipc::{ApiSchema, Feedback, Program};

use crate::exec::Executor;

/// A started pool of workers.
pub struct WorkerPool {
    pool: Pool,
    binary: std::path::PathBuf,
    workers: usize,
    deadline: Duration,
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
        let mut cfg = PoolConfig::new(binary.to_path_buf()).with_budget(deadline);
        cfg.workers = workers;
        let pool = Pool::start(cfg)
            .with_context(|| format!("cannot start workers from {}", binary.display()))?;
        Ok(WorkerPool {
            pool,
            binary: binary.to_path_buf(),
            workers,
            deadline,
            twin: Twin::NotTried,
        })
    }

    /// The underlying supervisor.
    pub fn pool(&self) -> &Pool {
        &self.pool
    }
}

impl Executor for WorkerPool {
    fn schema(&self) -> &ApiSchema {
        self.pool.schema()
    }

    fn run(&mut self, programs: &[Program]) -> Result<Vec<Feedback>> {
        Ok(self.pool.run(programs)?)
    }

    fn setup_reused(&self) -> u64 {
        self.pool.stats().setup_reused
    }

    fn timing(&mut self) -> Option<&mut dyn Executor> {
        if let Twin::NotTried = self.twin {
            // Building the twin can fail (say, the harness changed since the instrumented
            // build); confirmation then times the instrumented worker and says so.
            let started = crate::worker_build::plain_twin(&self.binary)
                .and_then(Result::ok)
                .and_then(|bin| WorkerPool::start(&bin, self.workers, self.deadline).ok())
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
