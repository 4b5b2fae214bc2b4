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
        Ok(WorkerPool { pool })
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
}
