//! Two versions as one executor: the same program goes to an `old` worker and a `new` worker.
//!
//! The relative oracle compares two versions of an API on the same program (DESIGN.md, "Two
//! revisions are two workers"). [`PairExecutor`] holds one executor per version: `run` runs
//! the new version, [`Executor::old`] the old one, and [`crate::run::exec::run_pairs`] gives the
//! feedback of both as pairs. Its schema is the new version's; the old version's is
//! [`PairExecutor::old_schema`]. A pair is built in one of two ways:
//!
//! * [`PairExecutor::versions`]: both workers from one binary, each binding one member of every
//!   in-binary version group under the group's name (`profiler_ipc::bind`), so a program
//!   written against `OrderedMap` runs `OldOrderedMap` on one side and `NewOrderedMap` on the
//!   other;
//! * `--baseline REV` (`commands::baseline`): the harness built against REV and against the
//!   working tree.

use std::path::Path;
use std::time::Duration;

use anyhow::{bail, Result};
use perfsyn_profiler_ipc::{ApiSchema, Feedback, Program};

use crate::harness::spec::MethodRef;
use crate::run::exec::Executor;
use crate::run::pool::WorkerPool;

/// An old and a new executor behind one [`Executor`].
pub struct PairExecutor {
    new: Box<dyn Executor>,
    old: Box<dyn Executor>,
    /// Builds the pair of uninstrumented twins for timing, on first use.
    twin: Twin,
}

enum Twin {
    NotTried(Option<Box<dyn FnOnce() -> Option<PairExecutor>>>),
    Started(Box<PairExecutor>),
    Unavailable,
}

impl PairExecutor {
    /// The in-binary pair of `pool`'s binary: as many workers binding each version.
    pub fn of_pool(pool: &WorkerPool) -> Result<PairExecutor> {
        PairExecutor::versions(pool.binary(), pool.workers(), pool.deadline())
    }

    /// Pairs `new` and `old`; `twins` builds the uninstrumented pair for wall-clock timing
    /// (`None`: time on these executors).
    pub fn new(
        new: Box<dyn Executor>,
        old: Box<dyn Executor>,
        twins: Option<Box<dyn FnOnce() -> Option<PairExecutor>>>,
    ) -> PairExecutor {
        PairExecutor {
            new,
            old,
            twin: Twin::NotTried(twins),
        }
    }

    /// The in-binary pair: `workers` workers of `binary` binding the `new` member of every
    /// version group, as many binding the `old` one. Their timing twins are the
    /// uninstrumented build's workers, bound the same way.
    pub fn versions(binary: &Path, workers: usize, deadline: Duration) -> Result<PairExecutor> {
        let new = WorkerPool::start_bound(binary, workers, deadline, Some("new"))?;
        let old = WorkerPool::start_bound(binary, workers, deadline, Some("old"))?;
        let (binary, twin_workers) = (binary.to_path_buf(), workers);
        let twins = move || -> Option<PairExecutor> {
            let plain = crate::harness::worker_build::plain_twin(&binary)?.ok()?;
            let start = |v| WorkerPool::start_bound(&plain, twin_workers, deadline, Some(v)).ok();
            let (n, o) = (start("new")?, start("old")?);
            Some(PairExecutor::new(Box::new(n), Box::new(o), None))
        };
        Ok(PairExecutor::new(
            Box::new(new),
            Box::new(old),
            Some(Box::new(twins)),
        ))
    }

    /// The old version's schema (to tell a missing method from a changed one).
    pub fn old_schema(&self) -> &ApiSchema {
        self.old.schema()
    }

    /// The new version alone, for a method the old one lacks (explored without a baseline).
    pub fn new_side(&mut self) -> &mut dyn Executor {
        self.new.as_mut()
    }
}

impl Executor for PairExecutor {
    fn schema(&self) -> &ApiSchema {
        self.new.schema()
    }

    fn run(&mut self, programs: &[Program]) -> Result<Vec<Feedback>> {
        self.new.run(programs)
    }

    fn run_capped(&mut self, programs: &[Program], fuel: u64) -> Result<Vec<Feedback>> {
        self.new.run_capped(programs, fuel)
    }

    fn old(&mut self) -> Option<&mut dyn Executor> {
        Some(self.old.as_mut())
    }

    fn timing(&mut self) -> Option<&mut dyn Executor> {
        if let Twin::NotTried(build) = &mut self.twin {
            self.twin = match build.take().and_then(|b| b()) {
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

/// Whether `schema` (a worker that binds no version) has a version group with both members.
pub fn has_groups(schema: &ApiSchema) -> bool {
    schema
        .types
        .iter()
        .any(|t| schema.counterpart(&t.name).is_some())
}

/// The spec of `spec`'s method on a pair of in-binary versions, when it names a version group
/// (`OrderedMap::remove`) or one of its members (`NewOrderedMap::remove`) and both members
/// have the method with the same signature: `Group::method`. `schema` binds no version.
pub fn group_spec(schema: &ApiSchema, spec: &str) -> Option<String> {
    let (ty, method) = spec.rsplit_once("::")?;
    let members = crate::harness::spec::resolve_type(schema, ty);
    let t = members.iter().find(|t| t.version.is_some())?;
    let group = &t.version.as_ref()?.group;
    let other = schema.counterpart(&t.name)?;
    let (a, b) = (t.method(method)?, other.method(method)?);
    (a.signature() == b.signature()).then(|| format!("{group}::{method}"))
}

/// The two versions a relative run compares, by the Rust type each side's program names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Versions {
    pub new_ty: String,
    pub old_ty: String,
}

/// Resolves `spec` on the executor's schema; on a pair (`old`: the old version's schema), also
/// the versions the relative oracle compares. A method missing in the old version, or with
/// another signature there, is refused with one line.
pub fn resolve<'s>(
    schema: &'s ApiSchema,
    old: Option<&ApiSchema>,
    spec: &str,
) -> Result<(MethodRef<'s>, Option<Versions>)> {
    let m = crate::harness::spec::resolve_method(schema, spec)?;
    let Some(old) = old else {
        return Ok((m, None));
    };
    let then = old
        .ty(&m.ty.name)
        .and_then(|t| Some((t, t.method(&m.method.name)?)));
    match then {
        None => bail!(
            "{} does not exist in the old version: there is nothing to compare it with",
            m.display()
        ),
        Some((_, om)) if om.signature() != m.method.signature() => bail!(
            "{} differs between the versions ({} old, {} new); only methods with the same signature in both are compared",
            m.display(),
            om.signature(),
            m.method.signature()
        ),
        Some((ot, _)) => {
            let versions = Versions {
                new_ty: m.ty.rust_type().to_string(),
                old_ty: ot.rust_type().to_string(),
            };
            Ok((m, Some(versions)))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use perfsyn_profiler_ipc::schema::{Mode, TypeSchema};

    fn member(name: &str, version: &str, receiver: Mode) -> TypeSchema {
        crate::harness::spec::fixture::one_method_type(
            name,
            "Map",
            Some(("Map", version)),
            "remove",
            receiver,
        )
    }

    /// A fake version: every program's feedback carries the version's tag in its edges.
    struct Tagged(ApiSchema, u64);

    impl Executor for Tagged {
        fn schema(&self) -> &ApiSchema {
            &self.0
        }
        fn run(&mut self, programs: &[Program]) -> Result<Vec<Feedback>> {
            Ok(programs
                .iter()
                .map(|p| {
                    let mut f = Feedback::failed(perfsyn_profiler_ipc::Outcome::Ok);
                    f.cost.edges = self.1 + p.len() as u64;
                    f
                })
                .collect())
        }
    }

    #[test]
    fn the_same_programs_run_on_both_versions_and_come_back_in_pairs() {
        let schema = ApiSchema::default();
        let mut pair = PairExecutor::new(
            Box::new(Tagged(schema.clone(), 1000)),
            Box::new(Tagged(schema, 2000)),
            None,
        );
        let programs = [Program::default(), Program::default()];
        let fb = crate::run::exec::run_pairs(&mut pair, &programs).unwrap();
        assert_eq!(fb.len(), 2);
        for (new, old) in fb {
            assert_eq!((new.cost.edges, old.cost.edges), (1000, 2000));
        }
        // A single version has no old side: a relative run on it is an error, not a guess.
        let mut single = Tagged(ApiSchema::default(), 0);
        assert!(crate::run::exec::run_pairs(&mut single, &programs).is_err());
    }

    #[test]
    fn a_group_or_member_method_names_the_group_only_with_one_signature() {
        let same = ApiSchema {
            types: vec![
                member("OldMap", "old", Mode::Mut),
                member("NewMap", "new", Mode::Mut),
            ],
        };
        assert!(has_groups(&same));
        for spec in ["Map::remove", "OldMap::remove", "NewMap::remove"] {
            assert_eq!(
                group_spec(&same, spec).as_deref(),
                Some("Map::remove"),
                "{spec}"
            );
        }
        assert_eq!(group_spec(&same, "Map::vanish"), None);
        let changed = ApiSchema {
            types: vec![
                member("OldMap", "old", Mode::Mut),
                member("NewMap", "new", Mode::Ref),
            ],
        };
        assert_eq!(group_spec(&changed, "Map::remove"), None);
        let alone = ApiSchema {
            types: vec![member("OldMap", "old", Mode::Mut)],
        };
        assert!(!has_groups(&alone));
    }
}
