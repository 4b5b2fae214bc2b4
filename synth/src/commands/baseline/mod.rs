//! Builds the pair of workers `--baseline REV` compares (`check`, and `explore --baseline`):
//! the harness against the working tree, and the same harness against REV's sources; `git.rs`
//! checks REV out beside the working tree.
//!
//! The baseline always uses the *current* harness (copied into the checkout of REV, its build
//! directory left out): the registrations are then the same on both sides, so a method whose
//! signature changed fails to compile or shows up as a schema difference, and a revision that
//! predates `perfsyn init` still works. The registrations of methods and constructors the
//! working tree defines and REV does not are left out of the baseline's copy (it would not
//! compile with them), so such a method is refused with one line, as missing at REV. So are
//! whole types added since REV: their registration, its entry in the registry, their import
//! and any method line of another type that names them.

pub mod git;

use std::collections::BTreeSet;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};

use crate::commands::baseline::git::Baseline;
use crate::commands::check::risk::CrateFns;
use crate::harness::discovery::HARNESS_DIR;
use crate::harness::generated::registration_at;
use crate::harness::worker_build;
use crate::harness::Harness;
use crate::run::exec::Executor;
use crate::run::pair::PairExecutor;
use crate::run::pool::WorkerPool;

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
    let added = Added::since(&h.crate_dir.join("src"), &old_crate.join("src"))?;
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
    // A free function is ranked by its bare name (`unique`); its registered spelling is
    // `crate::unique` (see `spec::resolve_method`).
    let spelled = crate::harness::spec::resolve_method(open.pair.schema(), method)
        .map(|m| m.display())
        .unwrap_or_else(|_| method.to_string());
    let (ty, name) = spelled
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

/// What the working tree defines and REV does not.
#[derive(Debug, Default)]
struct Added {
    /// Functions, as `Type::name` (or `name`).
    fns: BTreeSet<String>,
    /// Type names.
    types: BTreeSet<String>,
}

impl Added {
    /// What the crate's sources in `new_src` define and those in `old_src` do not.
    fn since(new_src: &Path, old_src: &Path) -> Result<Added> {
        let now = CrateFns::read(new_src)?;
        let then = CrateFns::read(old_src)?;
        let fns: BTreeSet<&str> = then.names().collect();
        let types: BTreeSet<&str> = then.types().collect();
        Ok(Added {
            fns: now
                .names()
                .filter(|n| !fns.contains(n))
                .map(str::to_string)
                .collect(),
            types: now
                .types()
                .filter(|n| !types.contains(n))
                .map(str::to_string)
                .collect(),
        })
    }

    fn is_empty(&self) -> bool {
        self.fns.is_empty() && self.types.is_empty()
    }

    /// Whether `text` names one of the added types as a whole word.
    fn names_a_type(&self, text: &str) -> bool {
        text.split(|c: char| !(c.is_alphanumeric() || c == '_'))
            .any(|w| self.types.contains(w))
    }
}

/// The type a registration's header line (`pub fn name() -> Type<..> {`) registers, without
/// its path and generics, and the registration's function name.
fn registration_header(line: &str) -> Option<(&str, &str)> {
    let rest = line.trim_start().strip_prefix("pub fn ")?;
    let (name, ty) = rest.split_once("() -> ")?;
    let ty = ty.trim_end_matches('{').trim();
    let base = ty.split('<').next().unwrap_or(ty);
    Some((name, base.rsplit("::").next().unwrap_or(base)))
}

/// `text` (a generated harness file) without the lines registering what `added` holds: the
/// method or constructor lines of added functions (a line inside a registration names
/// `Type::name`), and for an added type its whole registration (with its doc comment), its
/// `name(),` line in the registry, its `use` line and any other registration's line naming
/// it.
fn without_registrations(text: &str, added: &Added) -> String {
    let lines: Vec<&str> = text.lines().collect();
    // Registrations of added types: their function names and the lines they span.
    let mut dropped_fns = BTreeSet::new();
    let mut dropped = vec![false; lines.len()];
    let mut i = 0;
    while i < lines.len() {
        match registration_header(lines[i]) {
            Some((name, ty)) if added.types.contains(ty) => {
                dropped_fns.insert(name.to_string());
                let indent = &lines[i][..lines[i].len() - lines[i].trim_start().len()];
                let mut start = i;
                while start > 0 && lines[start - 1].trim_start().starts_with("///") {
                    start -= 1;
                }
                let close = format!("{indent}}}");
                let end = (i + 1..lines.len())
                    .find(|&j| lines[j] == close)
                    .unwrap_or(lines.len() - 1);
                dropped[start..=end].iter_mut().for_each(|d| *d = true);
                i = end + 1;
            }
            _ => i += 1,
        }
    }
    let mut out = String::with_capacity(text.len());
    for (i, line) in lines.iter().enumerate() {
        if dropped[i] {
            continue;
        }
        let t = line.trim();
        let registry_entry = t
            .strip_suffix("(),")
            .is_some_and(|name| dropped_fns.contains(name));
        let import = t
            .strip_prefix("use ")
            .and_then(|u| u.strip_suffix(';'))
            .and_then(|u| u.rsplit("::").next())
            .is_some_and(|last| added.types.contains(last));
        let item = registration_at(text, i + 1);
        let in_registration = item.is_some() && registration_header(line).is_none();
        let names_added_type = in_registration && added.names_a_type(t);
        let item = item.map(|item| match item.split_once('<') {
            // `Wrapper<u64>::get` -> `Wrapper::get`, as the crate's functions are keyed.
            Some((ty, rest)) => format!("{ty}{}", rest.rsplit_once('>').map_or("", |r| r.1)),
            None => item,
        });
        let added_fn = item.is_some_and(|item| item.contains("::") && added.fns.contains(&item));
        if registry_entry || import || names_added_type || added_fn {
            continue;
        }
        out.push_str(line);
        out.push('\n');
    }
    out
}

/// Copies the harness crate (without its build output) over `to`, leaving out the
/// registrations of `added` (functions and types REV does not have).
fn copy_harness(from: &Path, to: &Path, added: &Added) -> Result<()> {
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
        let added = Added {
            fns: ["SortedSet::first".to_string(), "helper".to_string()]
                .into_iter()
                .collect(),
            types: BTreeSet::new(),
        };
        let out = without_registrations(text, &added);
        assert_eq!(out, text.replace("            first(ref self);\n", ""));
        assert_eq!(without_registrations(text, &Added::default()), text);
    }

    /// A type added since REV loses its import, its registry entry, its whole registration
    /// with its doc comment, and the lines of other registrations that name it; the rest of
    /// the file is unchanged.
    #[test]
    fn a_type_added_since_rev_is_left_out_whole() {
        let text = "\
use perfsyn_profiler_ipc::probe::{FixedState, Key};
use perfsyn_profiler_ipc::{register_type, Registry};
use shapes::Bag;
use shapes::fresh::Tally;

/// Every registered type of this harness.
pub fn registry() -> Registry {
    Registry::new(vec![
        perfsyn_profiler_ipc::probe::key(),
        bag(),
        tally(),
    ])
}

register_type! {
    /// A bag.
    pub fn bag() -> Bag {
        ctors {
            new() => <Bag>::new();
        }
        methods {
            add(mut self, x: copy u64);
            absorb(mut self, t: val Tally);
        }
        fields {}
    }

    /// Counts.
    /// Added later.
    pub fn tally() -> Tally<u64> {
        ctors {
            new() => <Tally<u64>>::new();
        }
        methods {
            total(ref self) -> u64;
        }
        fields {}
    }
}
";
        let added = Added {
            fns: ["Tally::new".to_string(), "Tally::total".to_string()]
                .into_iter()
                .collect(),
            types: ["Tally".to_string()].into_iter().collect(),
        };
        let out = without_registrations(text, &added);
        let mut want = text.to_string();
        for gone in [
            "use shapes::fresh::Tally;\n",
            "        tally(),\n",
            "            absorb(mut self, t: val Tally);\n",
        ] {
            want = want.replacen(gone, "", 1);
        }
        let block = want.find("    /// Counts.").unwrap();
        let end = want.rfind("}\n").unwrap();
        want.replace_range(block..end, "");
        assert_eq!(out, want);
        assert!(!out.contains("Tally"), "{out}");
        assert!(
            out.contains("bag(),") && out.contains("add(mut self"),
            "{out}"
        );
    }
}
