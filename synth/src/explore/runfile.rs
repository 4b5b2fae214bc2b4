//! Run files: one JSON document per `explore` run with everything needed to reproduce and
//! inspect it (the command line, seed, worker identity, schema hash, and the whole
//! [`ExploreReport`]: best programs as data and as Rust, their feedback, the search
//! statistics, the tree summary and the wall-clock confirmation).
//!
//! The format is described in `docs/run-file.md`. It is versioned: [`FORMAT`] names the kind
//! of document and [`VERSION`] its layout; a file of another kind or version is refused with
//! a one-line error naming the file, never half-read. Writes are atomic (a temporary file in
//! the same directory, then a rename), so a crash never leaves a truncated run file behind.

use std::io::Write;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::explore::report::ExploreReport;

/// The value of the `format` field of every run file.
pub const FORMAT: &str = "perfsyn-run";

/// The layout version this perfsyn writes and reads. Bump it when a field changes meaning
/// or a required field is added; optional additions (`#[serde(default)]`) need no bump.
pub const VERSION: u32 = 1;

/// The worker binary a run used.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WorkerIdentity {
    pub path: PathBuf,
    /// FNV-1a 64 of the binary's bytes, 16 hex digits.
    pub hash: String,
    pub size: u64,
}

/// A run file.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct RunFile {
    /// Always [`FORMAT`].
    pub format: String,
    /// [`VERSION`] of the layout.
    pub version: u32,
    /// perfsyn's own version (Cargo package version) that wrote the file.
    pub perfsyn_version: String,
    /// The command line, program name first.
    pub command_line: Vec<String>,
    pub seed: u64,
    pub worker: WorkerIdentity,
    /// `ApiSchema::hash` of the worker's schema, 16 hex digits (a string: JSON numbers lose
    /// precision above 2^53 in many readers).
    pub schema_hash: String,
    /// Seconds since the Unix epoch when the file was written.
    pub created_unix: u64,
    /// The exact command that reproduces this run (the "Reproduce with" line of `explore`:
    /// the program count reached instead of a time budget, the seed, the harness flag);
    /// `None` in files written before it existed, or by commands that have none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reproduce: Option<String>,
    /// The hash of the mined-values index the search drew from (`harness/mine`), 16 hex
    /// digits; `None` when it drew none. The seed reproduces the run only with this index.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mined_hash: Option<String>,
    pub report: ExploreReport,
}

/// Why a run file cannot be read or written. Every message is one line and names the file.
/// The I/O error is part of the message and deliberately not a `source` (`cause`): the binary
/// prints the whole error chain, which printed the OS reason twice.
#[derive(Debug, thiserror::Error)]
pub enum RunFileError {
    #[error("cannot read run file {path}: {cause}")]
    Io {
        path: PathBuf,
        cause: std::io::Error,
    },
    #[error("run file {path} is not valid JSON (truncated or damaged?): {detail}")]
    NotJson { path: PathBuf, detail: String },
    #[error("{path} is not a perfsyn run file (no \"format\": \"{FORMAT}\" field)")]
    Foreign { path: PathBuf },
    #[error("run file {path} has format version {found}; this perfsyn reads version {VERSION}")]
    Version { path: PathBuf, found: String },
    #[error("run file {path} does not match format version {VERSION}: {detail}")]
    Invalid { path: PathBuf, detail: String },
    #[error("cannot write run file {path}: {cause}")]
    Write {
        path: PathBuf,
        cause: std::io::Error,
    },
}

impl RunFile {
    /// A run file for `report`.
    pub fn new(
        report: ExploreReport,
        command_line: Vec<String>,
        worker: WorkerIdentity,
        schema_hash: u64,
    ) -> RunFile {
        RunFile {
            format: FORMAT.into(),
            version: VERSION,
            perfsyn_version: env!("CARGO_PKG_VERSION").into(),
            command_line,
            seed: report.seed,
            worker,
            schema_hash: hex(schema_hash),
            created_unix: std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_secs()),
            reproduce: None,
            mined_hash: None,
            report,
        }
    }

    /// Reads and checks a run file.
    pub fn load(path: &Path) -> Result<RunFile, RunFileError> {
        let p = || path.to_path_buf();
        let bytes = std::fs::read(path).map_err(|cause| RunFileError::Io { path: p(), cause })?;
        let value: serde_json::Value =
            serde_json::from_slice(&bytes).map_err(|e| RunFileError::NotJson {
                path: p(),
                detail: e.to_string(),
            })?;
        if value.get("format").and_then(|f| f.as_str()) != Some(FORMAT) {
            return Err(RunFileError::Foreign { path: p() });
        }
        match value.get("version").and_then(|v| v.as_u64()) {
            Some(v) if v == VERSION as u64 => {}
            _ => {
                return Err(RunFileError::Version {
                    path: p(),
                    found: value
                        .get("version")
                        .map_or("(none)".into(), |v| v.to_string()),
                })
            }
        }
        serde_json::from_value(value).map_err(|e| RunFileError::Invalid {
            path: p(),
            detail: e.to_string(),
        })
    }

    /// Writes the file atomically: a temporary file next to `path`, then a rename. Creates
    /// the parent directory.
    pub fn save(&self, path: &Path) -> Result<(), RunFileError> {
        let err = |cause| RunFileError::Write {
            path: path.to_path_buf(),
            cause,
        };
        let json = serde_json::to_vec_pretty(self).map_err(|e| err(std::io::Error::other(e)))?;
        write_atomic(path, &json).map_err(err)
    }

    /// The schema hash as a number (`None` if the field is not 16 hex digits).
    pub fn schema_hash_value(&self) -> Option<u64> {
        u64::from_str_radix(&self.schema_hash, 16).ok()
    }
}

/// Writes `bytes` to `path` atomically (temporary file in the same directory + rename).
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    std::fs::create_dir_all(&dir)?;
    let name = path
        .file_name()
        .map_or_else(|| "run".into(), |n| n.to_string_lossy().into_owned());
    let tmp = dir.join(format!(".{name}.{}.tmp", std::process::id()));
    let result = (|| {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

/// The identity of a worker binary: its path, size and a hash of its bytes.
pub fn worker_identity(path: &Path) -> std::io::Result<WorkerIdentity> {
    let bytes = std::fs::read(path)?;
    Ok(WorkerIdentity {
        path: std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf()),
        hash: hex(twox_hash::XxHash3_64::oneshot(&bytes)),
        size: bytes.len() as u64,
    })
}

/// The default run-file location: `target/perfsyn/runs/<method>-<seed>.json` under `base`
/// (the method's `::` and other characters unsafe in file names become `_`).
pub fn default_path(base: &Path, method: &str, seed: u64) -> PathBuf {
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
    base.join("target")
        .join("perfsyn")
        .join("runs")
        .join(format!("{safe}-{seed}.json"))
}

/// The directory default run files go under: the workspace root (where the instrumented
/// worker is built, so runs sit in the same `target/` whatever the current directory) when
/// it exists, else the current directory (an installed binary far from its sources).
pub fn default_base() -> PathBuf {
    let root = crate::harness::worker_build::workspace_root();
    if root.join("Cargo.toml").is_file() {
        root
    } else {
        PathBuf::from(".")
    }
}

fn hex(v: u64) -> String {
    format!("{v:016x}")
}

/// FNV-1a, 64 bits: stable across Rust releases (unlike `DefaultHasher`).
#[cfg(test)]
mod tests {
    use super::*;

    fn check_load_error(content: &str, expect: &str) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("bad.json");
        std::fs::write(&path, content).unwrap();
        let e = RunFile::load(&path).unwrap_err().to_string();
        assert!(e.contains("bad.json"), "{e}");
        assert!(e.contains(expect), "{e}");
        assert!(!e.contains('\n'), "{e}");
    }

    #[test]
    fn load_errors_are_one_line_and_name_the_file() {
        check_load_error("{\"format\": \"perfsyn-run\", \"vers", "not valid JSON");
        check_load_error("{\"name\": \"serde\"}", "not a perfsyn run file");
        check_load_error("[1, 2, 3]", "not a perfsyn run file");
        check_load_error(
            "{\"format\": \"perfsyn-run\", \"version\": 99}",
            "format version 99",
        );
        check_load_error(
            "{\"format\": \"perfsyn-run\", \"version\": 1}",
            "does not match format version 1",
        );
    }

    #[test]
    fn default_path_is_a_safe_file_name() {
        let p = default_path(Path::new("/w"), "OrderedMap::remove", 7);
        assert_eq!(
            p,
            Path::new("/w/target/perfsyn/runs/OrderedMap__remove-7.json")
        );
    }

    #[test]
    fn atomic_write_replaces_and_leaves_no_temporary() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sub").join("r.json");
        write_atomic(&path, b"one").unwrap();
        write_atomic(&path, b"two").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"two");
        let names: Vec<_> = std::fs::read_dir(path.parent().unwrap())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names.len(), 1, "{names:?}");
    }
}
