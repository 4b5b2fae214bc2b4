//! The hunt directory: a manifest (`hunt.json`) that identifies the directory as a perfsyn
//! hunt and fixes what it hunts, one run file per finished method under `runs/`, and the
//! reports. Durability rests on two rules: a run file is written atomically (a temporary
//! file, then a rename) before the next method starts, and a method counts as finished
//! exactly when its run file exists. A hunt killed at any moment, SIGKILL included, therefore loses at most
//! the method it was running, and `--resume` recomputes the rest from the files alone.
//!
//! Nothing here ever overwrites a directory it did not create: a non-empty directory without
//! a manifest, a damaged manifest, or one of another version is refused with one line.
//!
//! A hunt split over machines (`--partition k/N`) writes one such directory per partition. Its
//! manifest lists only the partition's methods (so running and resuming it is an ordinary
//! hunt), and records the whole plan, its hash and k/N, so that [`super::merge`] can tell the
//! partitions of one hunt from those of another and name the methods of a missing one.

use std::fs::File;
use std::os::fd::AsRawFd;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::commands::partition::Partition;
use crate::explore::runfile::{write_atomic, RunFile, RunFileError};
use crate::explore::OracleKind;

/// The value of the manifest's `format` field.
pub const FORMAT: &str = "perfsyn-hunt";

/// The manifest layout this perfsyn writes and reads.
pub const VERSION: u32 = 1;

/// The manifest's file name inside the hunt directory.
pub const MANIFEST: &str = "hunt.json";

/// Where the run files go, relative to the hunt directory.
pub const RUNS: &str = "runs";

/// What a hunt explores and how; fixed when the hunt starts, reused by `--resume`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HuntSettings {
    /// The `--type` filter, or null for `--all`.
    #[serde(rename = "type")]
    pub ty: Option<String>,
    /// The time budget of each method's search; unused when `max_programs_per_method` is set.
    pub budget_per_method_ms: u64,
    /// A program budget per method instead of the time budget: with it, the same seed gives
    /// the same findings on any machine, which partitions of one hunt need.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_programs_per_method: Option<u64>,
    /// `astar`, `aco` or `random`. Kept a string, not a [`crate::search::StrategyKind`]:
    /// `--report` rebuilds the reports of a directory without searching, so a manifest
    /// naming a strategy this build does not know still gives its report; only exploring
    /// refuses it, naming the manifest (`super::strategy`).
    pub strategy: String,
    pub seed: u64,
    /// t_rel of the relative oracle and of the ranking.
    pub t_rel: f64,
    /// Parts of the search switched off, as explore's `--no-*` flags.
    #[serde(default, skip_serializing_if = "SearchSwitches::is_default")]
    pub switches: SearchSwitches,
}

/// Parts of the search a hunt switches off for every method, as explore's flags of the same
/// names do (`cli/common.rs`, `SearchArgs`), so a hunt can be run without one to see what
/// it adds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct SearchSwitches {
    pub no_loops: bool,
    pub no_mined_values: bool,
    pub no_fragment_credit: bool,
    pub no_span_shapes: bool,
}

impl SearchSwitches {
    fn is_default(&self) -> bool {
        *self == SearchSwitches::default()
    }

    /// The switches as explore flags (` --no-loops --no-span-shapes`; empty when none).
    pub fn flags(&self) -> String {
        [
            (self.no_loops, " --no-loops"),
            (self.no_mined_values, " --no-mined-values"),
            (self.no_fragment_credit, " --no-fragment-credit"),
            (self.no_span_shapes, " --no-span-shapes"),
        ]
        .iter()
        .filter(|(on, _)| *on)
        .map(|(_, f)| *f)
        .collect()
    }

    /// Switches the parts off in `cfg` (mined values are the hunt's to leave out: it draws
    /// from none when `no_mined_values`).
    pub fn apply(&self, cfg: &mut crate::search::SearchConfig) {
        cfg.mutation.loops &= !self.no_loops;
        if self.no_fragment_credit {
            cfg.mutation.credit = crate::search::credit::FragmentCredit::disabled();
        }
        cfg.mutation.span_shapes &= !self.no_span_shapes;
    }
}

impl HuntSettings {
    /// The per-method budget in words: `20 programs` or `1.5s`.
    pub fn budget_text(&self) -> String {
        match self.max_programs_per_method {
            Some(n) => format!("{n} program{}", if n == 1 { "" } else { "s" }),
            None => format!("{}s", self.budget_per_method_ms as f64 / 1000.0),
        }
    }

    /// The budget as `explore` flags: `--max-programs 20` or `--budget 1.5s`.
    pub fn budget_flags(&self) -> String {
        match self.max_programs_per_method {
            Some(n) => format!("--max-programs {n}"),
            None => format!("--budget {}s", self.budget_per_method_ms as f64 / 1000.0),
        }
    }
}

/// One method of the hunt, in the order it is explored.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlannedMethod {
    /// The spec given to explore: `Path::method`, `Group::method` for a version group.
    pub method: String,
    /// `relative` (a version group's method, explored once for the group) or `asymptotic`.
    pub oracle: OracleKind,
    /// The run file, relative to the hunt directory (`runs/NNN-Name__method.json`).
    pub file: String,
}

/// The manifest, `DIR/hunt.json`.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Manifest {
    /// Always [`FORMAT`].
    pub format: String,
    /// [`VERSION`].
    pub version: u32,
    pub perfsyn_version: String,
    /// The command that started the hunt, program name first.
    pub command_line: Vec<String>,
    pub created_unix: u64,
    /// `ApiSchema::hash` of the worker the hunt started with, 16 hex digits.
    pub schema_hash: String,
    pub settings: HuntSettings,
    /// The methods this directory explores: the whole plan, or one partition's share of it.
    pub methods: Vec<PlannedMethod>,
    /// [`plan_hash`] of the whole plan, 16 hex digits; with the settings and the schema hash
    /// it identifies the hunt across its partitions. Empty in manifests written before
    /// partitions existed (then it is the hash of `methods`, see [`Manifest::identity`]).
    #[serde(default)]
    pub plan_hash: String,
    /// Set when this directory holds one partition of a hunt.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub partition: Option<PartitionInfo>,
}

/// Which share of a hunt a partition directory holds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PartitionInfo {
    /// k/N.
    pub part: Partition,
    /// The whole plan, every partition's methods, in plan order.
    pub plan: Vec<PlannedMethod>,
}

/// What makes two directories parts of one hunt: equal identities.
#[derive(Clone, Debug, PartialEq)]
pub struct HuntIdentity<'a> {
    pub settings: &'a HuntSettings,
    pub plan_hash: String,
    pub schema_hash: &'a str,
    /// N, 1 for an unpartitioned hunt.
    pub partitions: usize,
}

impl Manifest {
    /// A new hunt's manifest for `plan`, or for partition `part` of it.
    pub fn new(
        command_line: Vec<String>,
        schema_hash: String,
        settings: HuntSettings,
        plan: Vec<PlannedMethod>,
        part: Option<Partition>,
    ) -> Manifest {
        let (methods, partition) = match part {
            Some(p) => (
                p.select(&plan, |m| m.method.clone()),
                Some(PartitionInfo {
                    part: p,
                    plan: plan.clone(),
                }),
            ),
            None => (plan.clone(), None),
        };
        Manifest {
            format: FORMAT.into(),
            version: VERSION,
            perfsyn_version: env!("CARGO_PKG_VERSION").into(),
            command_line,
            created_unix: std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_secs()),
            schema_hash,
            settings,
            methods,
            plan_hash: plan_hash(&plan),
            partition,
        }
    }

    /// The whole plan of the hunt (for a partition, every partition's methods).
    pub fn plan(&self) -> &[PlannedMethod] {
        match &self.partition {
            Some(p) => &p.plan,
            None => &self.methods,
        }
    }

    /// The hunt's identity.
    pub fn identity(&self) -> HuntIdentity<'_> {
        HuntIdentity {
            settings: &self.settings,
            plan_hash: if self.plan_hash.is_empty() {
                plan_hash(self.plan())
            } else {
                self.plan_hash.clone()
            },
            schema_hash: &self.schema_hash,
            partitions: self.partition.as_ref().map_or(1, |p| p.part.count()),
        }
    }
}

/// A stable hash of a plan (FNV-1a over its JSON), 16 hex digits: equal exactly when two
/// hunts explore the same methods in the same order with the same oracles and file names.
pub fn plan_hash(plan: &[PlannedMethod]) -> String {
    let bytes = serde_json::to_vec(plan).expect("a plan serializes");
    let h = bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ *b as u64).wrapping_mul(0x0100_0000_01b3)
    });
    format!("{h:016x}")
}

/// Why a hunt directory cannot be used. Every message is one line and names the path.
#[derive(Debug, thiserror::Error)]
pub enum HuntDirError {
    #[error("{path} exists and is not a directory; pick another --out")]
    NotADirectory { path: PathBuf },
    #[error("{path} is not empty and is not a perfsyn hunt directory (no {MANIFEST}); refusing to write into it, pick another --out")]
    Foreign { path: PathBuf },
    #[error("{path} is not a perfsyn hunt directory (no {MANIFEST}); drop --resume to start a hunt there")]
    NothingToResume { path: PathBuf },
    #[error("{path} is damaged ({detail}); refusing to overwrite it, pick another --out")]
    Damaged { path: PathBuf, detail: String },
    #[error("{path} is not a perfsyn hunt manifest (no \"format\": \"{FORMAT}\"); refusing to overwrite it, pick another --out")]
    ForeignManifest { path: PathBuf },
    #[error("{path} has hunt format version {found}; this perfsyn reads version {VERSION}")]
    Version { path: PathBuf, found: String },
    #[error("{path} already holds a perfsyn hunt ({done} of {total} methods done); pass --resume to continue it, or pick another --out")]
    Exists {
        path: PathBuf,
        done: usize,
        total: usize,
    },
    #[error("another perfsyn hunt is writing {path} right now")]
    Locked { path: PathBuf },
    #[error("run file of {method} is damaged: {source}")]
    RunFile {
        method: String,
        source: RunFileError,
    },
    #[error("cannot use the hunt directory {path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
}

/// An opened hunt directory.
#[derive(Debug)]
pub struct HuntDir {
    pub path: PathBuf,
    pub manifest: Manifest,
    /// The directory itself, flock-ed while the hunt writes; released by the kernel even on
    /// SIGKILL.
    _lock: Option<File>,
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> HuntDirError + '_ {
    move |source| HuntDirError::Io {
        path: path.to_path_buf(),
        source,
    }
}

impl HuntDir {
    /// Starts a hunt in `path`, which must not exist or be an empty directory. Writes the
    /// manifest before anything else.
    pub fn create(path: &Path, manifest: Manifest) -> Result<HuntDir, HuntDirError> {
        if path.exists() {
            if !path.is_dir() {
                return Err(HuntDirError::NotADirectory { path: path.into() });
            }
            if path.join(MANIFEST).exists() {
                // Says "already a hunt" (or why the manifest cannot be read) instead of
                // merely "not empty".
                let existing = Self::open(path)?;
                let done = existing.finished()?.len();
                return Err(HuntDirError::Exists {
                    path: path.into(),
                    done,
                    total: existing.manifest.methods.len(),
                });
            }
            if std::fs::read_dir(path).map_err(io(path))?.next().is_some() {
                return Err(HuntDirError::Foreign { path: path.into() });
            }
        }
        std::fs::create_dir_all(path.join(RUNS)).map_err(io(path))?;
        let lock = lock(path)?;
        let dir = HuntDir {
            path: path.to_path_buf(),
            manifest,
            _lock: Some(lock),
        };
        let json = serde_json::to_vec_pretty(&dir.manifest).expect("the manifest serializes");
        let m = path.join(MANIFEST);
        write_atomic(&m, &json).map_err(io(&m))?;
        Ok(dir)
    }

    /// Opens an existing hunt for reading (`--report`): checks the manifest only.
    pub fn open(path: &Path) -> Result<HuntDir, HuntDirError> {
        if !path.is_dir() {
            return Err(if path.exists() {
                HuntDirError::NotADirectory { path: path.into() }
            } else {
                HuntDirError::NothingToResume { path: path.into() }
            });
        }
        let m = path.join(MANIFEST);
        if !m.exists() {
            let empty = std::fs::read_dir(path).map_err(io(path))?.next().is_none();
            return Err(if empty {
                HuntDirError::NothingToResume { path: path.into() }
            } else {
                HuntDirError::Foreign { path: path.into() }
            });
        }
        let manifest = read_manifest(&m)?;
        Ok(HuntDir {
            path: path.to_path_buf(),
            manifest,
            _lock: None,
        })
    }

    /// Opens an existing hunt to continue it (`--resume`): checks the manifest and every
    /// finished run file, then takes the directory's lock and removes the temporary files a
    /// killed hunt left behind.
    pub fn resume(path: &Path) -> Result<HuntDir, HuntDirError> {
        let mut dir = Self::open(path)?;
        dir.finished()?;
        dir._lock = Some(lock(path)?);
        for sub in [path.to_path_buf(), path.join(RUNS)] {
            let Ok(entries) = std::fs::read_dir(&sub) else {
                continue;
            };
            for e in entries.flatten() {
                let name = e.file_name().to_string_lossy().into_owned();
                if name.starts_with('.') && name.ends_with(".tmp") {
                    let _ = std::fs::remove_file(e.path());
                }
            }
        }
        std::fs::create_dir_all(path.join(RUNS)).map_err(io(path))?;
        Ok(dir)
    }

    /// The run file of a planned method.
    pub fn run_path(&self, m: &PlannedMethod) -> PathBuf {
        self.path.join(&m.file)
    }

    /// The finished methods (their run files exist), in plan order, with their run files.
    /// A run file that exists but cannot be read is an error: it is never silently redone.
    pub fn finished(&self) -> Result<Vec<(usize, RunFile)>, HuntDirError> {
        let mut out = Vec::new();
        for (i, m) in self.manifest.methods.iter().enumerate() {
            let p = self.run_path(m);
            if !p.exists() {
                continue;
            }
            let run = RunFile::load(&p).map_err(|source| HuntDirError::RunFile {
                method: m.method.clone(),
                source,
            })?;
            out.push((i, run));
        }
        Ok(out)
    }

    /// Writes a finished method's run file (atomically) and its plot next to it.
    pub fn save(&self, m: &PlannedMethod, run: &RunFile) -> Result<(), RunFileError> {
        let p = self.run_path(m);
        // The plot first: the run file's rename is what marks the method finished.
        match crate::commands::plot::write(&run.report, &crate::commands::plot::path_for(&p)) {
            Ok(()) | Err(crate::commands::plot::PlotError::Empty) => {}
            // A plot is a convenience; the report redraws it from the run file.
            Err(_) => {}
        }
        run.save(&p)
    }
}

fn read_manifest(m: &Path) -> Result<Manifest, HuntDirError> {
    let damaged = |detail: String| HuntDirError::Damaged {
        path: m.to_path_buf(),
        detail,
    };
    let bytes = std::fs::read(m).map_err(io(m))?;
    let value: serde_json::Value =
        serde_json::from_slice(&bytes).map_err(|e| damaged(format!("not valid JSON: {e}")))?;
    if value.get("format").and_then(|f| f.as_str()) != Some(FORMAT) {
        return Err(HuntDirError::ForeignManifest { path: m.into() });
    }
    match value.get("version").and_then(|v| v.as_u64()) {
        Some(v) if v == VERSION as u64 => {}
        _ => {
            return Err(HuntDirError::Version {
                path: m.into(),
                found: value
                    .get("version")
                    .map_or("(none)".into(), |v| v.to_string()),
            })
        }
    }
    serde_json::from_value(value).map_err(|e| damaged(e.to_string()))
}

/// Takes the directory's advisory lock, so that two hunts never write one directory at once
/// (flock on the directory itself: no lock file to leave behind, and the kernel releases it
/// when the process dies).
fn lock(dir: &Path) -> Result<File, HuntDirError> {
    let f = File::open(dir).map_err(io(dir))?;
    // SAFETY: flock on a file descriptor we own; no memory is involved.
    let rc = unsafe { libc::flock(f.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) };
    if rc != 0 {
        return Err(HuntDirError::Locked { path: dir.into() });
    }
    Ok(f)
}

/// A run-file name for the `index`-th method: `NNN-Name__method.json`, ASCII letters,
/// digits, `-` and `_` only (the index keeps names unique whatever the method is called).
pub fn run_file_name(index: usize, method: &str) -> String {
    let safe: String = method
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    format!("{RUNS}/{:03}-{safe}.json", index + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn manifest() -> Manifest {
        Manifest::new(
            vec!["perfsyn".into()],
            "0".repeat(16),
            HuntSettings {
                ty: None,
                budget_per_method_ms: 1000,
                max_programs_per_method: None,
                strategy: "astar".into(),
                seed: 1,
                t_rel: 1.2,
                switches: Default::default(),
            },
            vec![PlannedMethod {
                method: "Vec::dedup".into(),
                oracle: OracleKind::Asymptotic,
                file: run_file_name(0, "Vec::dedup"),
            }],
            None,
        )
    }

    #[test]
    fn a_manifest_without_plan_hash_still_has_an_identity() {
        // Manifests written before partitions existed lack `plan_hash` and `partition`.
        let m = manifest();
        let mut v = serde_json::to_value(&m).unwrap();
        v.as_object_mut().unwrap().remove("plan_hash");
        let old: Manifest = serde_json::from_value(v).unwrap();
        assert_eq!(old.identity(), m.identity());
    }

    fn check_open_error(setup: impl FnOnce(&Path), expect: &str) {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("hunt");
        setup(&dir);
        let e = match HuntDir::create(&dir, manifest()) {
            Ok(_) => panic!("{} was accepted", dir.display()),
            Err(e) => e.to_string(),
        };
        assert!(e.contains(expect), "{e}");
        assert!(!e.contains('\n'), "{e}");
    }

    #[test]
    fn foreign_damaged_and_existing_dirs_are_refused_in_one_line() {
        check_open_error(
            |d| {
                std::fs::create_dir(d).unwrap();
                std::fs::write(d.join("notes.txt"), "mine").unwrap();
            },
            "not a perfsyn hunt directory",
        );
        check_open_error(
            |d| {
                std::fs::create_dir(d).unwrap();
                std::fs::write(d.join(MANIFEST), "{\"format\": \"perfsyn-hunt\", \"ver").unwrap();
            },
            "damaged",
        );
        check_open_error(
            |d| {
                std::fs::create_dir(d).unwrap();
                std::fs::write(d.join(MANIFEST), "{\"name\": 1}").unwrap();
            },
            "not a perfsyn hunt manifest",
        );
        check_open_error(
            |d| {
                std::fs::create_dir(d).unwrap();
                std::fs::write(
                    d.join(MANIFEST),
                    "{\"format\": \"perfsyn-hunt\", \"version\": 7}",
                )
                .unwrap();
            },
            "version 7",
        );
        check_open_error(|d| std::fs::write(d, "a file").unwrap(), "not a directory");
        check_open_error(
            |d| drop(HuntDir::create(d, manifest()).unwrap()),
            "pass --resume",
        );
    }

    #[test]
    fn a_second_hunt_on_the_same_dir_is_refused_while_the_first_runs() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("hunt");
        let _first = HuntDir::create(&dir, manifest()).unwrap();
        let e = HuntDir::resume(&dir).unwrap_err().to_string();
        assert!(e.contains("another perfsyn hunt"), "{e}");
    }

    #[test]
    fn run_file_names_are_safe_and_numbered() {
        assert_eq!(
            run_file_name(6, "Vec<Key>::dedup"),
            "runs/007-Vec_Key___dedup.json"
        );
    }
}
