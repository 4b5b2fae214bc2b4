//! Explore and replay on the in-binary pair of a version group: the pair is started from the
//! pool's binary on first use and kept for the next method of the same run (a hunt), and a
//! saved relative run gets its pair back (`replay`, `export`).

use anyhow::{bail, Result};

use crate::explore::report::ExploreReport;
use crate::explore::runfile::RunFile;
use crate::explore::{explore, ExploreConfig, OracleKind};
use crate::run::pair::PairExecutor;
use crate::run::pool::WorkerPool;
use crate::search::Progress;

/// Explores `cfg` on the in-binary pair of `pool`'s binary, started into `slot` on first use
/// (a hunt explores every version group's methods on one pair).
pub fn explore_on_versions(
    slot: &mut Option<PairExecutor>,
    pool: &WorkerPool,
    cfg: &ExploreConfig,
    progress: &mut dyn FnMut(&Progress),
) -> Result<ExploreReport> {
    let pair = match slot {
        Some(p) => p,
        None => slot.insert(PairExecutor::of_pool(pool)?),
    };
    explore(pair, cfg, progress)
}

/// The pair a saved run's programs run on again (`replay`, `export`): for a relative run of an
/// in-binary version group, the pair of `pool`'s binary; `None` for any other run. Refuses,
/// with one line, a relative run this binary cannot rebuild the pair of.
pub fn for_saved_run(run: &RunFile, pool: &WorkerPool) -> Result<Option<PairExecutor>> {
    let r = &run.report;
    if r.oracle != OracleKind::Relative {
        return Ok(None);
    }
    if r.new_type.is_none() {
        bail!(
            "this relative run was written when version groups were compared by renaming types, a format no longer read; explore {} again",
            r.method
        );
    }
    let schema = pool.pool().schema();
    let is_group = schema
        .types
        .iter()
        .any(|t| t.version.as_ref().is_some_and(|v| v.group == r.ty));
    if !is_group {
        bail!(
            "the worker has no version group {}: the run compared two git revisions (run `perfsyn explore --baseline` again) or another harness",
            r.ty
        );
    }
    Ok(Some(PairExecutor::of_pool(pool)?))
}
