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

    /// Runs `programs` like [`run`](Executor::run), each with at most `fuel` edges of fuel (and
    /// never more than the executor's own limit): the search's adaptive cap (see
    /// [`crate::search::fuelcap`]). A program that runs out is a timeout. The default ignores the
    /// cap (an executor that meters no fuel).
    fn run_capped(&mut self, programs: &[Program], _fuel: u64) -> Result<Vec<Feedback>> {
        self.run(programs)
    }

    /// Runs `programs` like [`run`](Executor::run), each feedback also carrying the hits per
    /// code address of its calls under test (`Feedback::hot`), with the binary those
    /// addresses are in; `None` when the executor cannot count them (the default).
    fn run_hot(
        &mut self,
        _programs: &[Program],
    ) -> Result<Option<(Vec<Feedback>, std::path::PathBuf)>> {
        Ok(None)
    }

    /// Runs `programs` once each on the trace build of the same worker and returns what their
    /// calls under test read (see [`crate::run::reads`]), with the trace binary (whose line
    /// tables name the reads); `None` when the executor has no trace build (the default: a
    /// fake, a `--worker PATH`, a pair).
    fn run_reads(
        &mut self,
        _programs: &[Program],
    ) -> Result<
        Option<(
            Vec<perfsyn_profiler_ipc::readtrace::ReadTrace>,
            std::path::PathBuf,
        )>,
    > {
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

    /// A pair of versions ([`crate::run::pair::PairExecutor`]): the old version's executor, which
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
    run_pairs_capped(exec, programs, None)
}

/// [`run_pairs`], each program on both versions with at most `fuel` edges when given (see
/// [`Executor::run_capped`]).
pub fn run_pairs_capped(
    exec: &mut dyn Executor,
    programs: &[Program],
    fuel: Option<u64>,
) -> Result<Vec<(Feedback, Feedback)>> {
    let run = |e: &mut dyn Executor| match fuel {
        Some(f) => e.run_capped(programs, f),
        None => e.run(programs),
    };
    let new = run(&mut *exec)?;
    let old = run(exec
        .old()
        .ok_or_else(|| anyhow::anyhow!("a relative run needs a pair of versions"))?)?;
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

/// An executor for unit tests: runs programs in this process with a registry's interpreter
/// (no worker), against the registry's schema.
#[cfg(test)]
pub struct InProcess(pub perfsyn_profiler_ipc::registry::Registry, pub ApiSchema);

#[cfg(test)]
impl Executor for InProcess {
    fn schema(&self) -> &ApiSchema {
        &self.1
    }
    fn run(&mut self, programs: &[Program]) -> Result<Vec<Feedback>> {
        let interp = perfsyn_profiler_ipc::interp::Interpreter::new(&self.0);
        Ok(programs.iter().map(|p| interp.run(p)).collect())
    }
}
