//! `perfsyn hunt`: explore every method of an API overnight and read a ranked list of
//! findings in the morning.
//!
//! A hunt is a plan (the methods, fixed when it starts and kept in the directory's
//! manifest, see [`dir`]) worked through one method at a time on one worker pool: the
//! search already spreads each method's batches over all workers, so one method at a time
//! keeps every core busy without two searches competing for them. A version group's method
//! is explored once, with the relative oracle; every other method with the asymptotic one.
//! Each finished method's run file is written before the next starts, so a hunt stopped in
//! any way resumes from its files; [`report`] turns whatever is there into the HTML page,
//! `summary.json` and `summary.md`.
//!
//! Stopping: the search cannot be interrupted from outside, so the methods run on a thread
//! of their own and the caller's thread watches a stop flag (set by a signal handler). On
//! stop it waits for a run file being written to be complete, forbids further writes, and
//! returns: the method that was running is dropped and redone by `--resume`.

pub mod dir;
pub mod merge;
pub mod report;
pub mod summary;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::time::Duration;

use anyhow::{bail, Result};
use perfsyn_profiler_ipc::ApiSchema;

use crate::commands::list::Origin;
use crate::explore::report::ExploreReport;
use crate::explore::runfile::{RunFile, WorkerIdentity};
use crate::explore::{explore, ExploreConfig, OracleKind};
use crate::harness::spec;
use crate::judge::confirm::{ConfirmConfig, MIN_REPS};
use crate::judge::oracle::asymptotic::{ScoreKind, Thresholds};
use crate::judge::oracle::relative::Direction;
use crate::run::pool::WorkerPool;
use crate::search::{Budget, Metric, SearchConfig, StrategyKind};
use dir::{HuntDir, HuntSettings, PlannedMethod};

/// Types registered for the worker's sandbox tests only (they panic, abort, hang and eat
/// memory on purpose); a hunt never explores them.
pub const TEST_ONLY_TYPES: &[&str] = &["Hostile"];

/// The harness runtime's crate, whose probe key every harness registers.
const PROBE_CRATE: &str = "perfsyn_profiler_ipc";

/// The runtime's probe types (`Key`), registered by every harness under the runtime's path.
fn is_probe_type(t: &perfsyn_profiler_ipc::schema::TypeSchema) -> bool {
    t.imports
        .iter()
        .any(|i| i.ends_with(&format!("::probe::{}", t.path)))
}

/// The methods a hunt explores, in `perfsyn list` order: every method of the matching
/// types (all types for `None`) except test-only ones; a version group's method once (as
/// `Group::method`, relative oracle) when both versions have it with the same signature.
/// In a crate's harness (`perfsyn init`), `--all` leaves out the std vectors it registers
/// only to build the crate's arguments (bit-vec's `Vec<bool>::push`, for `eq_vec(&[bool])`):
/// they are not the crate's API (`--type Vec` still explores them).
pub fn plan(schema: &ApiSchema, ty: Option<&str>) -> Result<Vec<PlannedMethod>> {
    let types = match ty {
        Some(t) => spec::resolve_type_filter(schema, t)?,
        // A capacity ladder's rungs are their main type at other capacities, not API.
        None => schema.types.iter().filter(|t| !t.is_rung()).collect(),
    };
    // A crate's harness: a type of a crate other than the runtime's, and none of the corpus.
    // The probe key every harness registers is the runtime's
    // (`perfsyn_profiler_ipc::probe::Key`), so it is neither.
    let origins: Vec<Origin> = schema
        .types
        .iter()
        .filter(|t| !is_probe_type(t))
        .map(crate::commands::list::type_origin)
        .collect();
    let crate_harness = ty.is_none()
        && origins
            .iter()
            .any(|o| matches!(o, Origin::Crate(k) if k != PROBE_CRATE))
        && !origins
            .iter()
            .any(|o| matches!(o, Origin::Corpus | Origin::Planted));
    let mut out: Vec<PlannedMethod> = Vec::new();
    let mut skipped = 0;
    for t in types {
        if TEST_ONLY_TYPES.contains(&t.path.as_str()) {
            skipped += t.methods.len();
            continue;
        }
        if crate_harness && crate::commands::list::type_origin(t) == Origin::Std {
            continue;
        }
        let same_path = spec::resolve_type(schema, &t.path).len();
        for m in &t.methods {
            let paired = schema.counterpart(&t.name).is_some_and(|o| {
                o.path == t.path
                    && o.method(&m.name)
                        .is_some_and(|om| om.signature() == m.signature())
            });
            // A method of one member only (or of two unrelated types sharing a path) is
            // named by the full type name, so that it resolves to exactly one type.
            let method = if paired || same_path == 1 {
                format!("{}::{}", t.path, m.name)
            } else {
                format!("{}::{}", t.name, m.name)
            };
            if out.iter().any(|p| p.method == method) {
                continue;
            }
            out.push(PlannedMethod {
                file: dir::run_file_name(out.len(), &method),
                method,
                oracle: if paired {
                    OracleKind::Relative
                } else {
                    OracleKind::Asymptotic
                },
            });
        }
    }
    if out.is_empty() {
        match ty {
            Some(t) if skipped > 0 => bail!(
                "type `{t}` is registered for the worker's sandbox tests only; a hunt does not explore it"
            ),
            _ => bail!("no method to hunt: the worker registers none"),
        }
    }
    Ok(out)
}

/// The strategy named in the settings.
pub fn strategy(name: &str) -> Result<StrategyKind> {
    Ok(match name {
        "astar" => StrategyKind::Astar,
        "aco" => StrategyKind::Aco,
        "random" => StrategyKind::Random,
        other => bail!("unknown strategy `{other}` in the hunt manifest"),
    })
}

/// The explore configuration of one planned method: the oracle chosen by the method (auto),
/// both directions for relative runs, the default asymptotic thresholds, and a short
/// confirmation of the best program only (the hunt spends its time searching).
pub fn explore_config(m: &PlannedMethod, s: &HuntSettings) -> Result<ExploreConfig> {
    let mut search = SearchConfig {
        budget: match s.max_programs_per_method {
            Some(n) => Budget::Programs(n),
            None => Budget::Time(Duration::from_millis(s.budget_per_method_ms)),
        },
        seed: s.seed,
        metric: Metric::Cost,
        ..SearchConfig::default()
    };
    s.switches.apply(&mut search);
    Ok(ExploreConfig {
        method: m.method.clone(),
        strategy: strategy(&s.strategy)?,
        oracle: OracleKind::Auto,
        score: ScoreKind::Growth,
        direction: Direction::Both,
        t_rel: s.t_rel,
        thresholds: Thresholds::default(),
        expect: None,
        search,
        start: None,
        confirm: ConfirmConfig {
            top: 1,
            reps: MIN_REPS,
            ..ConfirmConfig::default()
        },
        repeated_traversals: true,
        repeated_computations: true,
    })
}

/// The command that explores one method of the hunt alone, as the hunt did.
pub fn explore_command(m: &PlannedMethod, s: &HuntSettings) -> String {
    format!(
        "perfsyn explore --method {} --strategy {} --seed {} {} --confirm-top 1{}",
        m.method,
        s.strategy,
        s.seed,
        s.budget_flags(),
        s.switches.flags()
    )
}

/// Observes a running hunt (the CLI draws its progress bar with it). Calls come from the
/// hunt's thread, in this order per method: `started`, then `finished` once its run file is
/// on disk. A method interrupted by a stop gets `started` only.
pub trait HuntObserver: Send {
    /// `done` methods of `total` are finished; `m` starts now.
    fn started(&mut self, done: usize, total: usize, m: &PlannedMethod);
    /// `m` is finished and written; `finding` says whether it ranks as a finding.
    fn finished(&mut self, m: &PlannedMethod, r: &ExploreReport, finding: bool);
    /// The search of `m` reached `p` (called often; the observer decides what to show).
    fn searching(&mut self, _m: &PlannedMethod, _p: &crate::search::Progress) {}
}

/// How a hunt ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Every planned method is finished.
    Complete,
    /// The stop flag was set; what was finished is written, the rest is pending.
    Interrupted,
}

/// Explores every pending method of `dir` on `pool`, writing each run file before the next
/// method starts, until all are done or `stop` is set. Every search draws from `mined`
/// (values mined from the crate's tests; empty: none).
pub fn run(
    dir: Arc<HuntDir>,
    pool: WorkerPool,
    worker: WorkerIdentity,
    mined: Arc<crate::harness::mine::Retriever>,
    stop: Arc<AtomicBool>,
    mut observer: Box<dyn HuntObserver>,
) -> Result<Outcome> {
    let done: Vec<usize> = dir.finished()?.into_iter().map(|(i, _)| i).collect();
    let total = dir.manifest.methods.len();
    let pending: Vec<usize> = (0..total).filter(|i| !done.contains(i)).collect();
    let rank_cfg = report::rank_config(&dir.manifest.settings);
    // Held while a run file is written; the stopping thread takes it to wait for a write
    // in progress and to forbid later ones.
    let writing = Arc::new(Mutex::new(()));
    let (tx, rx) = mpsc::channel::<Result<Outcome>>();
    let command_line: Vec<String> = std::env::args().collect();
    {
        let (dir, stop, writing) = (dir.clone(), stop.clone(), writing.clone());
        let mut pool = pool;
        std::thread::spawn(move || {
            let schema_hash = pool.pool().schema().hash();
            // Version groups run on a pair of workers binding each version (`pair.rs`).
            let mut versions = None;
            let result = (|| -> Result<Outcome> {
                for (finished, i) in (done.len()..).zip(pending) {
                    if stop.load(Ordering::SeqCst) {
                        return Ok(Outcome::Interrupted);
                    }
                    let m = &dir.manifest.methods[i];
                    observer.started(finished, total, m);
                    let mut cfg = explore_config(m, &dir.manifest.settings)?;
                    cfg.search.mutation.mined = mined.clone();
                    // A method that cannot be explored is recorded with the reason, never
                    // stops the hunt.
                    let report = match m.oracle {
                        OracleKind::Relative => crate::explore::versions::explore_on_versions(
                            &mut versions,
                            &pool,
                            &cfg,
                            &mut |p| observer.searching(m, p),
                        ),
                        _ => explore(&mut pool, &cfg, &mut |p| observer.searching(m, p)),
                    }
                    .unwrap_or_else(|e| error_report(m, &cfg, &e));
                    let mut run =
                        RunFile::new(report, command_line.clone(), worker.clone(), schema_hash);
                    run.mined_hash =
                        (!mined.is_empty()).then(|| format!("{:016x}", mined.index.stable_hash()));
                    {
                        let _w = writing.lock().unwrap_or_else(|e| e.into_inner());
                        if stop.load(Ordering::SeqCst) {
                            return Ok(Outcome::Interrupted);
                        }
                        dir.save(m, &run)?;
                    }
                    let finding = report::is_finding(&run.report, &rank_cfg);
                    observer.finished(m, &run.report, finding);
                }
                Ok(Outcome::Complete)
            })();
            let _ = tx.send(result);
        });
    }
    loop {
        match rx.recv_timeout(Duration::from_millis(100)) {
            Ok(result) => return result,
            Err(mpsc::RecvTimeoutError::Timeout) => {
                if stop.load(Ordering::SeqCst) {
                    // Wait for a write in progress; the hunt thread writes nothing after
                    // this (it checks the flag under the same lock). It is left to finish
                    // its search in the background until the process exits.
                    let _w = writing.lock().unwrap_or_else(|e| e.into_inner());
                    return Ok(Outcome::Interrupted);
                }
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                bail!("the hunt thread ended without a result (it panicked; see above)")
            }
        }
    }
}

/// The report recorded for a method whose exploration with `cfg` failed.
fn error_report(m: &PlannedMethod, cfg: &ExploreConfig, e: &anyhow::Error) -> ExploreReport {
    let ty = m
        .method
        .rsplit_once("::")
        .map_or(m.method.clone(), |(t, _)| t.to_string());
    ExploreReport {
        verdict: crate::report::verdict::Verdict::Error,
        reason: format!("{e:#}").replace('\n', " "),
        ..ExploreReport::started(
            m.method.clone(),
            ty,
            m.oracle,
            cfg.strategy,
            cfg.search.seed,
            cfg.search.metric,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use perfsyn_profiler_ipc::schema::TypeSchema;

    /// A minimal type, through JSON so that fields added to the schema later (with serde
    /// defaults) do not break this test.
    fn ty(name: &str, path: &str, methods: &[&str], version: Option<&str>) -> TypeSchema {
        let methods: Vec<serde_json::Value> = methods
            .iter()
            .map(|m| {
                serde_json::json!({"name": m, "receiver": "Ref", "params": [], "ret": null,
                                   "expected": "O(1)", "template": null})
            })
            .collect();
        serde_json::from_value(serde_json::json!({
            "name": name, "path": path, "sized": true,
            "version": version.map(|v| serde_json::json!({"group": path, "version": v})),
            "ctors": [], "methods": methods, "fields": [], "imports": [], "doc": ""
        }))
        .expect("a minimal type")
    }

    #[test]
    fn a_hunts_search_switches_reach_every_search_and_its_explore_command() {
        let m = PlannedMethod {
            method: "Vec::dedup".into(),
            oracle: OracleKind::Asymptotic,
            file: "runs/001-Vec__dedup.json".into(),
        };
        let mut s = HuntSettings {
            ty: None,
            budget_per_method_ms: 1000,
            max_programs_per_method: None,
            strategy: "astar".into(),
            seed: 3,
            t_rel: 1.2,
            switches: Default::default(),
        };
        let on = explore_config(&m, &s).unwrap().search;
        assert!(on.mutation.loops && on.mutation.span_shapes);
        assert!(!explore_command(&m, &s).contains("--no-"));
        s.switches.no_loops = true;
        s.switches.no_span_shapes = true;
        let off = explore_config(&m, &s).unwrap().search;
        assert!(!off.mutation.loops && !off.mutation.span_shapes);
        assert!(
            explore_command(&m, &s).ends_with("--confirm-top 1 --no-loops --no-span-shapes"),
            "{}",
            explore_command(&m, &s)
        );
    }

    #[test]
    fn plan_explores_a_group_method_once_and_skips_test_only_types() {
        let schema = ApiSchema {
            types: vec![
                ty("Vec<Key>", "Vec", &["dedup", "len"], None),
                ty("OldMap", "Map", &["get", "old_only"], Some("old")),
                ty("NewMap", "Map", &["get"], Some("new")),
                ty("Hostile", "Hostile", &["panic_now"], None),
            ],
        };
        let p = plan(&schema, None).unwrap();
        let got: Vec<(&str, &str)> = p
            .iter()
            .map(|m| (m.method.as_str(), <&str>::from(m.oracle)))
            .collect();
        assert_eq!(
            got,
            [
                ("Vec::dedup", "asymptotic"),
                ("Vec::len", "asymptotic"),
                ("Map::get", "relative"),
                ("OldMap::old_only", "asymptotic"),
            ]
        );
        assert_eq!(p[2].file, "runs/003-Map__get.json");
        let e = plan(&schema, Some("Hostile")).unwrap_err().to_string();
        assert!(e.contains("sandbox tests only"), "{e}");
    }

    /// A crate's harness registers `Vec<bool>` (with `push`) so that programs can build a
    /// `&[bool]` argument: `--all` explores the crate's methods, not that; `--type Vec` does.
    #[test]
    fn all_in_a_crate_harness_skips_the_std_vectors_that_build_arguments() {
        let mut vec_bool = ty("Vec<bool>", "Vec", &["push"], None);
        vec_bool.imports = vec!["perfsyn_profiler_ipc::probe::Key".into()];
        // As every harness registers it: under the runtime's path.
        let mut key = ty("Key", "Key", &[], None);
        key.imports = vec!["perfsyn_profiler_ipc::probe::Key".into()];
        let mut bits = ty("BitVec<u32>", "BitVec", &["get", "eq_vec"], None);
        bits.imports = vec!["bit_vec::BitVec".into()];
        let schema = ApiSchema {
            types: vec![key, vec_bool, bits],
        };
        let names =
            |p: Vec<PlannedMethod>| -> Vec<String> { p.into_iter().map(|m| m.method).collect() };
        assert_eq!(
            names(plan(&schema, None).unwrap()),
            ["BitVec::get", "BitVec::eq_vec"]
        );
        assert_eq!(names(plan(&schema, Some("Vec")).unwrap()), ["Vec::push"]);
    }
}
