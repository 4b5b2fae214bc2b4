//! Builds the pair of workers `--baseline REV` compares: the harness against the working tree,
//! and the same harness against REV's sources.
//!
//! The baseline always uses the *current* harness (copied into the checkout of REV, its build
//! directory left out): the registrations are then the same on both sides, so a method whose
//! signature changed fails to compile or shows up as a schema difference, and a revision that
//! predates `perfsyn init` still works. The registrations of methods and constructors the
//! working tree defines and REV does not are left out of the baseline's copy (it would not
//! compile with them), so such a method is refused with one line, as missing at REV.

use std::collections::BTreeSet;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};

use crate::check::git::Baseline;
use crate::check::risk::CrateFns;
use crate::exec::Executor;
use crate::harness::discovery::HARNESS_DIR;
use crate::harness::init::registration_at;
use crate::harness::Harness;
use crate::pair::PairExecutor;
use crate::pool::WorkerPool;
use crate::worker_build;

/// A started pair and what it compares.
pub struct OpenBaseline {
    pub baseline: Baseline,
    pub pair: PairExecutor,
    /// The harness of the baseline's checkout.
    pub old_harness: Harness,
    /// Milliseconds spent building and starting the uninstrumented twins, which the pair
    /// does lazily at the first confirmation: `check --budget` counts explorations only.
    pub twin_setup_ms: Arc<AtomicU64>,
}

impl OpenBaseline {
    /// What each side of the pair is, appended to the Rust types a relative report names
    /// (`new_type`, `ref_type`), so that the run file says which revisions it compared.
    pub fn version_labels(&self) -> (String, String) {
        let b = &self.baseline;
        let sha = &b.sha[..b.sha.len().min(10)];
        (
            "in the working tree".into(),
            format!("at {} ({sha})", b.rev),
        )
    }
}

/// Resolves `rev` for `h`'s crate, checks it out, builds both workers and starts them.
pub fn open(
    h: &Harness,
    rev: &str,
    workers: usize,
    deadline: Duration,
    quiet: bool,
) -> Result<OpenBaseline> {
    let (baseline, old_harness) = prepare(h, rev)?;
    start(h, baseline, old_harness, workers, deadline, quiet)
}

/// Resolves `rev`, checks it out and puts the current harness beside its sources; returns the
/// baseline and the harness of its checkout (nothing is built yet).
pub fn prepare(h: &Harness, rev: &str) -> Result<(Baseline, Harness)> {
    if h.builtin {
        bail!("--baseline compares two revisions of your own crate: run it inside a crate initialized with `perfsyn init` (or pass --manifest-path)");
    }
    let baseline = Baseline::resolve(&h.crate_dir, rev)?;
    let old_crate = baseline.checkout(&h.target_dir())?;
    let added = added_since(&h.crate_dir.join("src"), &old_crate.join("src"))?;
    copy_harness(
        &h.crate_dir.join(HARNESS_DIR),
        &old_crate.join(HARNESS_DIR),
        &added,
    )?;
    let old_harness = Harness {
        baseline: true,
        ..Harness::of_manifest(&old_crate)?
    };
    Ok((baseline, old_harness))
}

/// Builds both workers and starts the pair.
pub fn start(
    h: &Harness,
    baseline: Baseline,
    old_harness: Harness,
    workers: usize,
    deadline: Duration,
    quiet: bool,
) -> Result<OpenBaseline> {
    let new_bin = worker_build::ensure_harness_worker(h, quiet)?;
    let old_bin = worker_build::ensure_harness_worker(&old_harness, quiet).map_err(|e| {
        anyhow::anyhow!(
            "the harness does not build against {} ({}): {e}",
            baseline.rev,
            &baseline.sha[..baseline.sha.len().min(10)]
        )
    })?;
    let new = WorkerPool::start(&new_bin, workers, deadline)?;
    let old = WorkerPool::start(&old_bin, workers, deadline)?;
    let twin_setup_ms = Arc::new(AtomicU64::new(0));
    let spent = twin_setup_ms.clone();
    let twins = move || -> Option<PairExecutor> {
        let began = Instant::now();
        let _count = Spent(&spent, began);
        let start = |bin: &Path| -> Option<WorkerPool> {
            let plain = worker_build::plain_twin(bin)?.ok()?;
            WorkerPool::start(&plain, workers, deadline).ok()
        };
        let (n, o) = (start(&new_bin)?, start(&old_bin)?);
        Some(PairExecutor::new(Box::new(n), Box::new(o), None))
    };
    let pair = PairExecutor::new(Box::new(new), Box::new(old), Some(Box::new(twins)));
    Ok(OpenBaseline {
        baseline,
        pair,
        old_harness,
        twin_setup_ms,
    })
}

/// Adds the time since its start to its counter when dropped (on every return path).
struct Spent<'a>(&'a AtomicU64, Instant);

impl Drop for Spent<'_> {
    fn drop(&mut self) {
        self.0
            .fetch_add(self.1.elapsed().as_millis() as u64, Ordering::Relaxed);
    }
}

/// Refuses a method the pair cannot compare, with one line: missing at REV, missing now, or
/// with a different signature.
pub fn check_comparable(open: &OpenBaseline, method: &str) -> Result<()> {
    let (ty, name) = method
        .rsplit_once("::")
        .with_context(|| format!("`{method}` is not a method spec; write it as Type::method"))?;
    let find = |schema: &perfsyn_profiler_ipc::ApiSchema| {
        schema
            .types
            .iter()
            .filter(|t| t.path == ty || t.name == ty)
            .find_map(|t| t.method(name).map(|m| m.signature()))
    };
    let now = find(open.pair.schema());
    let then = find(open.pair.old_schema());
    let rev = &open.baseline.rev;
    match (now, then) {
        (None, _) => bail!("{method} does not exist in the working tree (see `perfsyn list`)"),
        (Some(_), None) => {
            bail!("{method} does not exist at {rev}: there is nothing to compare it with")
        }
        (Some(a), Some(b)) if a != b => bail!(
            "{method} has a different signature at {rev} ({b}) than now ({a}); only methods with the same signature in both revisions are compared"
        ),
        _ => Ok(()),
    }
}

/// The functions (`Type::name`) the crate's sources in `new_src` define and those in
/// `old_src` do not.
fn added_since(new_src: &Path, old_src: &Path) -> Result<BTreeSet<String>> {
    let now = CrateFns::read(new_src)?;
    let then = CrateFns::read(old_src)?;
    let then: BTreeSet<&str> = then.names().collect();
    Ok(now
        .names()
        .filter(|n| !then.contains(n))
        .map(str::to_string)
        .collect())
}

/// `text` (a generated harness file) without the lines registering one of `added` (a
/// method or constructor line inside a registration names `Type::name`).
fn without_registrations(text: &str, added: &BTreeSet<String>) -> String {
    let mut out = String::with_capacity(text.len());
    for (i, line) in text.lines().enumerate() {
        let item = registration_at(text, i + 1).map(|item| match item.split_once('<') {
            // `Wrapper<u64>::get` -> `Wrapper::get`, as the crate's functions are keyed.
            Some((ty, rest)) => format!("{ty}{}", rest.rsplit_once('>').map_or("", |r| r.1)),
            None => item,
        });
        if item.is_some_and(|item| item.contains("::") && added.contains(&item)) {
            continue;
        }
        out.push_str(line);
        out.push('\n');
    }
    out
}

/// Copies the harness crate (without its build output) over `to`, leaving out the
/// registrations of `added` (functions REV does not have).
fn copy_harness(from: &Path, to: &Path, added: &BTreeSet<String>) -> Result<()> {
    if !from.join("Cargo.toml").is_file() {
        bail!(
            "{} has no harness; run `perfsyn init` first",
            from.parent().unwrap_or(from).display()
        );
    }
    let edit = |path: &Path, bytes: Vec<u8>| -> Vec<u8> {
        let rs = path.extension().is_some_and(|e| e == "rs");
        match String::from_utf8(bytes) {
            Ok(text) if rs && !added.is_empty() => without_registrations(&text, added).into_bytes(),
            Ok(text) => text.into_bytes(),
            Err(e) => e.into_bytes(),
        }
    };
    copy_dir(from, to, &edit).with_context(|| {
        format!(
            "cannot copy the harness {} to {}",
            from.display(),
            to.display()
        )
    })
}

fn copy_dir(
    from: &Path,
    to: &Path,
    edit: &dyn Fn(&Path, Vec<u8>) -> Vec<u8>,
) -> std::io::Result<()> {
    std::fs::create_dir_all(to)?;
    for entry in std::fs::read_dir(from)? {
        let entry = entry?;
        let name = entry.file_name();
        if name == "target" {
            continue;
        }
        let (src, dst) = (entry.path(), to.join(&name));
        if entry.file_type()?.is_dir() {
            copy_dir(&src, &dst, edit)?;
        } else {
            // Unchanged files keep their timestamps, so cargo does not rebuild the harness.
            let want = edit(&src, std::fs::read(&src)?);
            if std::fs::read(&dst).ok().as_ref() != Some(&want) {
                std::fs::write(&dst, &want)?;
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A method added since REV (`first`) is left out of the baseline's harness; the others,
    /// and every line that is not a registration of an added function, stay.
    #[test]
    fn registrations_of_functions_added_since_rev_are_left_out() {
        let text = "register_type! {\n    pub fn sorted_set() -> SortedSet {\n        ctors {\n            new() => <SortedSet>::new();\n        }\n        methods {\n            len(ref self) -> usize;\n            first(ref self);\n        }\n    }\n}\n";
        let added: BTreeSet<String> = ["SortedSet::first".to_string(), "helper".to_string()]
            .into_iter()
            .collect();
        let out = without_registrations(text, &added);
        assert_eq!(out, text.replace("            first(ref self);\n", ""));
        assert_eq!(without_registrations(text, &BTreeSet::new()), text);
    }
}
