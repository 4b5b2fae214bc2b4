//! The engine's view of program execution: submit a batch, get one feedback per program in
//! submission order. The worker pool implements it; so can a fake in unit tests.

use anyhow::Result;
use perfsyn_profiler_ipc::{ApiSchema, Feedback, Program};

/// Runs batches of programs.
///
/// Protocol: `run` returns exactly one [`Feedback`] per program, in the order submitted, so
/// that a seeded search consumes feedback deterministically whatever the number of workers.
/// Invalid, panicking, crashing or hanging programs are feedback, not errors; an `Err`
/// means the executor itself is broken (for example, a worker cannot be restarted).
pub trait Executor {
    /// The API the executor runs programs against.
    fn schema(&self) -> &ApiSchema;
    /// Runs `programs` and returns their feedback in order.
    fn run(&mut self, programs: &[Program]) -> Result<Vec<Feedback>>;

    /// Runs `programs` like [`run`](Executor::run), each feedback also carrying the hits per
    /// code address of its calls under test (`Feedback::hot`), with the binary those
    /// addresses are in; `None` when the executor cannot count them (the default).
    fn run_hot(
        &mut self,
        _programs: &[Program],
    ) -> Result<Option<(Vec<Feedback>, std::path::PathBuf)>> {
        Ok(None)
    }

    /// The executor wall-clock confirmation times programs on: an uninstrumented build of the
    /// same worker (same schema; instrumentation inflates and distorts time), or `None` to
    /// time on this executor. The default is `None`: an executor without a twin (a fake, a
    /// `--worker PATH`) is timed as it is, and the confirmation report says so.
    fn timing(&mut self) -> Option<&mut dyn Executor> {
        None
    }

    /// Programs so far served from a setup the executor had already built (the worker's fork
    /// server); 0 for an executor that does not reuse setups.
    fn setup_reused(&self) -> u64 {
        0
    }

    /// A pair of versions ([`crate::pair::PairExecutor`]): the old version's executor, which
    /// runs the same programs as the reference of the relative oracle (`run` runs the new
    /// version). `None` for a single version.
    fn old(&mut self) -> Option<&mut dyn Executor> {
        None
    }
}

/// Runs `programs` on both versions of a pair: (new, old) feedback per program, in order.
pub fn run_pairs(
    exec: &mut dyn Executor,
    programs: &[Program],
) -> Result<Vec<(Feedback, Feedback)>> {
    let new = exec.run(programs)?;
    let old = exec
        .old()
        .ok_or_else(|| anyhow::anyhow!("a relative run needs a pair of versions"))?
        .run(programs)?;
    anyhow::ensure!(
        new.len() == programs.len() && old.len() == programs.len(),
        "a worker of the pair lost feedback"
    );
    Ok(new.into_iter().zip(old).collect())
}

/// Checks the [`Executor`] contract on `exec` for `programs`: one feedback per program.
pub fn check_executor_contract(exec: &mut dyn Executor, programs: &[Program]) -> Result<()> {
    let fb = exec.run(programs)?;
    anyhow::ensure!(
        fb.len() == programs.len(),
        "executor returned {} feedbacks for {} programs",
        fb.len(),
        programs.len()
    );
    Ok(())
}
