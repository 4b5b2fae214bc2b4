//! Two revisions as one executor: the same program goes to an `old` worker and a `new` worker.
//!
//! A git revision cannot be compiled into the binary that holds the working tree, so
//! `--baseline REV` runs two workers, one per build of the harness (DESIGN.md, "Two revisions are
//! two workers"). [`PairExecutor`] presents them to the engine as one executor whose schema is
//! the new worker's, plus, for every type both revisions register, an old twin named
//! `Type@baseline` that forms a version group with it. The relative oracle, the search's
//! counterpart programs and the confirmation then work exactly as for an in-binary version group:
//! a program that names a `@baseline` type is routed to the old worker with the suffix removed,
//! every other program to the new worker, and the feedback comes back in submission order.

use anyhow::Result;
use perfsyn_profiler_ipc::schema::VersionSchema;
use perfsyn_profiler_ipc::{ApiSchema, Feedback, Program, Stmt};

use crate::exec::Executor;

/// The suffix of the old revision's types in a pair's schema.
pub const BASELINE_SUFFIX: &str = "@baseline";

/// An old and a new executor behind one [`Executor`].
pub struct PairExecutor {
    new: Box<dyn Executor>,
    old: Box<dyn Executor>,
    schema: ApiSchema,
    /// Builds the pair of uninstrumented twins for timing, on first use.
    twin: Twin,
}

enum Twin {
    NotTried(Option<Box<dyn FnOnce() -> Option<PairExecutor>>>),
    Started(Box<PairExecutor>),
    Unavailable,
}

impl PairExecutor {
    /// Pairs `new` and `old`; `twins` builds the uninstrumented pair for wall-clock timing
    /// (`None`: time on these executors).
    pub fn new(
        new: Box<dyn Executor>,
        old: Box<dyn Executor>,
        twins: Option<Box<dyn FnOnce() -> Option<PairExecutor>>>,
    ) -> PairExecutor {
        let schema = paired_schema(new.schema(), old.schema());
        PairExecutor {
            new,
            old,
            schema,
            twin: Twin::NotTried(twins),
        }
    }

    /// The old revision's schema (to tell a missing method from a changed one).
    pub fn old_schema(&self) -> &ApiSchema {
        self.old.schema()
    }
}

impl Executor for PairExecutor {
    fn schema(&self) -> &ApiSchema {
        &self.schema
    }

    fn run(&mut self, programs: &[Program]) -> Result<Vec<Feedback>> {
        let mut new_idx = Vec::new();
        let mut new_batch = Vec::new();
        let mut old_idx = Vec::new();
        let mut old_batch = Vec::new();
        for (i, p) in programs.iter().enumerate() {
            match to_old(p) {
                Some(o) => {
                    old_idx.push(i);
                    old_batch.push(o);
                }
                None => {
                    new_idx.push(i);
                    new_batch.push(p.clone());
                }
            }
        }
        let mut out: Vec<Option<Feedback>> = vec![None; programs.len()];
        if !new_batch.is_empty() {
            for (i, f) in new_idx.into_iter().zip(self.new.run(&new_batch)?) {
                out[i] = Some(f);
            }
        }
        if !old_batch.is_empty() {
            for (i, f) in old_idx.into_iter().zip(self.old.run(&old_batch)?) {
                out[i] = Some(f);
            }
        }
        out.into_iter()
            .map(|f| f.ok_or_else(|| anyhow::anyhow!("a worker of the pair lost feedback")))
            .collect()
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

/// The new schema plus an old twin (`Type@baseline`, version `old`) of every type both register;
/// the new type becomes version `new` of a group named after it.
pub fn paired_schema(new: &ApiSchema, old: &ApiSchema) -> ApiSchema {
    let mut out = new.clone();
    let mut twins = Vec::new();
    for t in &mut out.types {
        // Types already in an in-binary group, and concurrent types, keep their own pairing.
        if t.version.is_some() || t.concurrent.is_some() {
            continue;
        }
        let Some(o) = old.ty(&t.name) else {
            continue;
        };
        t.version = Some(VersionSchema {
            group: t.name.clone(),
            version: "new".into(),
        });
        let mut twin = o.clone();
        twin.version = Some(VersionSchema {
            group: t.name.clone(),
            version: "old".into(),
        });
        if twin.rust.is_empty() {
            twin.rust = twin.name.clone();
        }
        twin.name = format!("{}{BASELINE_SUFFIX}", o.name);
        twin.path = format!("{}{BASELINE_SUFFIX}", o.path);
        twins.push(twin);
    }
    out.types.extend(twins);
    out
}

/// The program for the old worker when `p` names a baseline type (suffix removed), else `None`.
fn to_old(p: &Program) -> Option<Program> {
    fn names_baseline(stmts: &[Stmt]) -> bool {
        stmts.iter().any(|s| match s {
            Stmt::Ctor { ty, .. } | Stmt::Call { ty, .. } => ty.ends_with(BASELINE_SUFFIX),
            Stmt::Repeat { body, .. } => names_baseline(body),
            _ => false,
        })
    }
    names_baseline(&p.body)
        .then(|| p.retyped(&|t: &str| t.strip_suffix(BASELINE_SUFFIX).map(str::to_string)))
}
