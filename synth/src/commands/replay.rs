//! `perfsyn replay`: re-run a saved program on the current worker and compare.
//!
//! After a change to the target code (or to perfsyn), replaying a run file shows whether the
//! saved bottleneck still reproduces. The deterministic measurements (sancov edges, probe
//! operations, bytes moved, the input size and the outcome) must match exactly and are
//! flagged when they do not; allocation counts and times are shown beside the saved ones
//! but never flagged (times vary from run to run by nature). A replay is a gate, as
//! `cargo fuzz run` on a saved crash is: [`gate`] turns a difference, or a run file whose
//! method the worker does not know, into an error, so `perfsyn replay` exits non-zero.

use anyhow::{bail, Result};
use perfsyn_profiler_ipc::Feedback;
use serde::{Deserialize, Serialize};

use crate::explore::runfile::RunFile;
use crate::explore::OracleKind;
use crate::report::best::BestProgram;
use crate::run::exec::Executor;

/// One measurement, saved and now.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Row {
    pub metric: String,
    pub saved: Option<u64>,
    pub now: u64,
    /// Whether this metric must reproduce exactly.
    pub exact: bool,
    /// `exact` and different from the saved value.
    pub flagged: bool,
}

/// The replay of one version (the version under analysis, or the reference).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct VersionReplay {
    /// `new`/`old` for relative runs, `program` otherwise.
    pub label: String,
    #[serde(rename = "type")]
    pub ty: String,
    pub outcome_saved: Option<String>,
    pub outcome_now: String,
    pub rows: Vec<Row>,
}

/// The result of a replay.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReplayReport {
    pub method: String,
    pub rank: usize,
    pub seed: u64,
    /// The worker's schema differs from the one the run was made with.
    pub schema_changed: bool,
    /// The worker binary differs from the one the run was made with (not flagged: a rebuild
    /// of unchanged code may differ in bytes).
    pub worker_changed: bool,
    pub versions: Vec<VersionReplay>,
    /// Number of flagged rows (and outcome changes).
    pub differences: usize,
    /// No difference in any deterministic measurement.
    pub reproduced: bool,
}

/// The saved program of rank `rank` (1 = best).
pub fn program_of(run: &RunFile, rank: usize) -> Result<&BestProgram> {
    let all: Vec<&BestProgram> = run.report.best.iter().chain(&run.report.others).collect();
    if all.is_empty() {
        bail!(
            "the run of {} saved no program (verdict {})",
            run.report.method,
            run.report.verdict
        );
    }
    match rank.checked_sub(1).and_then(|i| all.get(i)) {
        Some(b) => Ok(b),
        None => bail!(
            "--rank {rank} is out of range: the run saved {} program(s), ranks 1 to {}",
            all.len(),
            all.len()
        ),
    }
}

/// Replays the program of rank `rank` of `run` on `exec`. `worker_hash` is the current
/// worker's identity hash, compared to the saved one.
pub fn replay(
    exec: &mut dyn Executor,
    run: &RunFile,
    rank: usize,
    worker_hash: &str,
) -> Result<ReplayReport> {
    let best = program_of(run, rank)?;
    let r = &run.report;
    let schema = exec.schema();
    let known = |t: &str| {
        schema
            .ty(t)
            .is_some_and(|ty| ty.method(method_name(&r.method)).is_some())
    };
    if !known(&r.ty) {
        bail!(
            "the worker has no method {} (type {}): the run was made with another harness or corpus",
            r.method,
            r.ty
        );
    }
    let schema_changed = run.schema_hash_value() != Some(exec.schema().hash());
    let program = std::slice::from_ref(&best.program);
    let (jobs, fb): (Vec<(String, String, Option<&Feedback>)>, Vec<Feedback>) =
        if r.oracle == OracleKind::Relative {
            // The same program on both versions of the pair.
            let (new, old) = crate::run::exec::run_pairs(exec, program)?.remove(0);
            let ty = |t: &Option<String>| t.clone().unwrap_or_else(|| r.ty.clone());
            let jobs = vec![
                ("new".into(), ty(&r.new_type), best.feedback.as_ref()),
                ("old".into(), ty(&r.ref_type), best.feedback_ref.as_ref()),
            ];
            (jobs, vec![new, old])
        } else {
            let jobs = vec![("program".into(), r.ty.clone(), best.feedback.as_ref())];
            (jobs, exec.run(program)?)
        };
    let mut versions = Vec::new();
    let mut differences = 0;
    for ((label, ty, saved), now) in jobs.into_iter().zip(fb) {
        let v = compare(label, ty, saved, &now);
        differences += v.rows.iter().filter(|r| r.flagged).count();
        if v.outcome_saved
            .as_deref()
            .is_some_and(|s| s != v.outcome_now)
        {
            differences += 1;
        }
        versions.push(v);
    }
    Ok(ReplayReport {
        method: r.method.clone(),
        rank,
        seed: r.seed,
        schema_changed,
        worker_changed: run.worker.hash != worker_hash,
        versions,
        differences,
        reproduced: differences == 0,
    })
}

/// `Type::method` -> `method`.
fn method_name(spec: &str) -> &str {
    spec.rsplit("::").next().unwrap_or(spec)
}

/// `Ok` when every deterministic measurement reproduced; otherwise one line naming how many
/// differ and which.
pub fn gate(r: &ReplayReport) -> Result<()> {
    if r.reproduced {
        return Ok(());
    }
    let mut which: Vec<String> = Vec::new();
    for v in &r.versions {
        if v.outcome_saved
            .as_deref()
            .is_some_and(|s| s != v.outcome_now)
        {
            which.push(format!("{} outcome", v.label));
        }
        for row in v.rows.iter().filter(|row| row.flagged) {
            which.push(format!("{} {}", v.label, row.metric));
        }
    }
    bail!(
        "NOT reproduced: {} deterministic measurement(s) differ ({})",
        r.differences,
        which.join(", ")
    )
}

fn compare(label: String, ty: String, saved: Option<&Feedback>, now: &Feedback) -> VersionReplay {
    let get = |f: &Feedback| {
        [
            ("edges", f.cost.edges, true),
            ("probe_ops", f.cost.probe_ops, true),
            ("bytes_moved", f.cost.bytes_moved, true),
            ("input_size", f.input_size, true),
            ("allocs", f.cost.allocs, false),
            ("alloc_bytes", f.cost.alloc_bytes, false),
            ("cpu_ns", f.cost.cpu_ns, false),
            ("wall_ns", f.cost.wall_ns, false),
        ]
    };
    let saved_vals = saved.map(get);
    let rows = get(now)
        .iter()
        .enumerate()
        .map(|(i, (name, v, exact))| {
            let s = saved_vals.map(|sv| sv[i].1);
            Row {
                metric: name.to_string(),
                saved: s,
                now: *v,
                exact: *exact,
                flagged: *exact && s.is_some_and(|s| s != *v),
            }
        })
        .collect();
    VersionReplay {
        label,
        ty,
        outcome_saved: saved.map(|f| f.outcome.label().to_string()),
        outcome_now: now.outcome.label().to_string(),
        rows,
    }
}

/// The human-readable replay table.
pub fn render(r: &ReplayReport, file: &str) -> String {
    let mut s = format!(
        "replay of {file}: {} rank {} (seed {})\n",
        r.method, r.rank, r.seed
    );
    if r.schema_changed {
        s.push_str("warning: the worker's API schema differs from the one the run was made with; programs may not mean the same\n");
    }
    if r.worker_changed {
        s.push_str("note: the worker binary differs from the saved one\n");
    }
    for v in &r.versions {
        s.push_str(&format!(
            "\n{} ({}): outcome {} (saved {})\n",
            v.label,
            v.ty,
            v.outcome_now,
            v.outcome_saved.as_deref().unwrap_or("-")
        ));
        s.push_str(&format!(
            "    {:<12} {:>14} {:>14}\n",
            "metric", "saved", "now"
        ));
        for row in &v.rows {
            let mark = if row.flagged {
                "  <-- differs"
            } else if !row.exact {
                "  (not compared)"
            } else {
                ""
            };
            s.push_str(&format!(
                "    {:<12} {:>14} {:>14}{mark}\n",
                row.metric,
                row.saved.map_or("-".into(), |v| v.to_string()),
                row.now
            ));
        }
    }
    s.push_str(&if r.reproduced {
        "\nreproduced: every deterministic measurement matches\n".to_string()
    } else {
        format!(
            "\nNOT reproduced: {} deterministic measurement(s) differ\n",
            r.differences
        )
    });
    s
}
