//! Which harness a command works on: `--manifest-path`, else the nearest `Cargo.toml` upward
//! from the current directory that has `perfsyn/` beside it, else the built-in corpus (this
//! repository's `corpus/`, found at compile time). Everything a command writes for a user's
//! crate (worker builds, run files, plots) goes under that crate's `target/`.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};

/// The directory `perfsyn init` writes into a user's crate.
pub const HARNESS_DIR: &str = "perfsyn";

/// A harness: the crate under test and the harness crate that registers its API.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Harness {
    /// The crate under test (the directory of its `Cargo.toml`); perfsyn's own root for the
    /// built-in corpus.
    pub crate_dir: PathBuf,
    /// The harness crate's manifest (`<crate>/perfsyn/Cargo.toml`, or `corpus/Cargo.toml`).
    pub manifest: PathBuf,
    /// The harness crate's package name (`-p` of its build).
    pub package: String,
    /// Whether this is perfsyn's built-in corpus.
    pub builtin: bool,
    /// Whether this is a baseline checkout's harness (`check --baseline`, set by
    /// `commands::baseline::prepare`): it builds into its own directory beside the current one.
    pub baseline: bool,
}

impl Harness {
    /// The built-in corpus of this perfsyn build.
    pub fn builtin() -> Harness {
        let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
        Harness {
            manifest: root.join("corpus").join("Cargo.toml"),
            crate_dir: root,
            package: "perfsyn-corpus".into(),
            builtin: true,
            baseline: false,
        }
    }

    /// The harness of the crate at `manifest` (a crate's `Cargo.toml`, or a directory holding
    /// one), which must have been initialized with `perfsyn init`.
    pub fn of_manifest(manifest: &Path) -> Result<Harness> {
        let crate_dir = crate_dir_of(manifest)?;
        if crate_dir == Harness::builtin().crate_dir {
            return Ok(Harness::builtin());
        }
        let harness = crate_dir.join(HARNESS_DIR).join("Cargo.toml");
        if !harness.is_file() {
            bail!(
                "{} has no perfsyn harness ({} is missing); run `perfsyn init --manifest-path {}` first",
                crate_dir.display(),
                harness.display(),
                crate_dir.join("Cargo.toml").display()
            );
        }
        Ok(Harness {
            crate_dir,
            manifest: harness,
            package: "perfsyn-harness".into(),
            builtin: false,
            baseline: false,
        })
    }

    /// `--manifest-path` if given, else the nearest initialized crate upward from the current
    /// directory, else the built-in corpus.
    pub fn find(manifest_path: Option<&Path>) -> Result<Harness> {
        if let Some(m) = manifest_path {
            return Harness::of_manifest(m);
        }
        let cwd = std::env::current_dir().context("cannot read the current directory")?;
        match nearest_initialized(&cwd) {
            Some(dir) => Harness::of_manifest(&dir),
            None => {
                if let Some(dir) = uninitialized_crate(&cwd) {
                    note_uninitialized(&dir);
                }
                Ok(Harness::builtin())
            }
        }
    }

    /// The crate's `target/` directory, where the workers are built.
    pub fn target_dir(&self) -> PathBuf {
        self.crate_dir.join("target")
    }

    /// The harness's data files (evaluation cases and the like): `cases/` beside its
    /// manifest. Commands read them at run time, so the engine names no file of a harness.
    pub fn data_file(&self, name: &str) -> PathBuf {
        let dir = self.manifest.parent().unwrap_or(Path::new("."));
        dir.join("cases").join(name)
    }

    /// Where run files and plots go: `<crate>/target/perfsyn/runs`.
    pub fn runs_dir(&self) -> PathBuf {
        self.target_dir().join("perfsyn").join("runs")
    }

    /// The flag a "Reproduce with" line needs to find this harness again from the current
    /// directory: ` --manifest-path <crate>/Cargo.toml` unless discovery finds it on its own.
    pub fn reproduce_flag(&self) -> String {
        if self.builtin || Harness::find(None).is_ok_and(|h| h == *self) {
            String::new()
        } else {
            format!(
                " --manifest-path {}",
                self.crate_dir.join("Cargo.toml").display()
            )
        }
    }
}

/// The directory of the crate whose manifest is `path` (a `Cargo.toml` or a directory).
pub fn crate_dir_of(path: &Path) -> Result<PathBuf> {
    let manifest = if path.is_dir() {
        path.join("Cargo.toml")
    } else {
        path.to_path_buf()
    };
    if !manifest.is_file() {
        bail!(
            "{} is not a crate: no Cargo.toml at {}",
            path.display(),
            manifest.display()
        );
    }
    let dir = manifest
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_else(|| PathBuf::from("."));
    let dir = if dir.as_os_str().is_empty() {
        PathBuf::from(".")
    } else {
        dir
    };
    dir.canonicalize()
        .with_context(|| format!("cannot resolve {}", dir.display()))
}

/// The nearest crate at or above `from` unless it is part of perfsyn's own workspace, for when
/// no crate there has a harness: a user who runs `perfsyn list` or `explore` in their crate before `perfsyn init`
/// gets the built-in corpus, and without a word they would take its methods for their
/// crate's, or an "unknown method" for a problem of their crate.
fn uninitialized_crate(from: &Path) -> Option<PathBuf> {
    let dir = from.ancestors().find(|d| d.join("Cargo.toml").is_file())?;
    let root = Harness::builtin().crate_dir;
    if dir.starts_with(&root) {
        // Perfsyn's own members share its workspace; a crate with a workspace of its own
        // inside the tree (`examples/own-crate`) is a user's crate like any other.
        let own_workspace = std::fs::read_to_string(dir.join("Cargo.toml"))
            .is_ok_and(|m| m.lines().any(|l| l.trim() == "[workspace]"));
        if dir == root || !own_workspace {
            return None;
        }
    }
    Some(dir.to_path_buf())
}

/// Says once per process, on stderr, that `dir` is not initialized and the built-in corpus
/// is used instead.
fn note_uninitialized(dir: &Path) {
    static SAID: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);
    if !SAID.swap(true, std::sync::atomic::Ordering::Relaxed) {
        eprintln!(
            "note: {} has no perfsyn harness, so this uses perfsyn's built-in corpus; run `perfsyn init` there to explore that crate",
            dir.display()
        );
    }
}

/// The nearest directory at or above `from` with a `Cargo.toml` and `perfsyn/Cargo.toml`.
fn nearest_initialized(from: &Path) -> Option<PathBuf> {
    from.ancestors()
        .find(|d| {
            d.join("Cargo.toml").is_file() && d.join(HARNESS_DIR).join("Cargo.toml").is_file()
        })
        .map(Path::to_path_buf)
}

/// A path under `dir` for `stem.ext` that does not exist yet: `stem.ext`, else `stem-2.ext`,
/// `stem-3.ext`, ... so that a second run with the same seed keeps the first run's file.
pub fn fresh_path(dir: &Path, stem: &str, ext: &str) -> PathBuf {
    let first = dir.join(format!("{stem}.{ext}"));
    if !first.exists() {
        return first;
    }
    (2u32..)
        .map(|k| dir.join(format!("{stem}-{k}.{ext}")))
        .find(|p| !p.exists())
        .expect("some suffix is free")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn discovery_walks_up_to_an_initialized_crate_and_falls_back_to_the_corpus() {
        let tmp = tempfile::tempdir().unwrap();
        let krate = tmp.path().join("mine");
        std::fs::create_dir_all(krate.join("src").join("deep")).unwrap();
        std::fs::write(krate.join("Cargo.toml"), "[package]\nname = \"mine\"\n").unwrap();
        assert_eq!(nearest_initialized(&krate.join("src").join("deep")), None);
        std::fs::create_dir_all(krate.join(HARNESS_DIR)).unwrap();
        std::fs::write(krate.join(HARNESS_DIR).join("Cargo.toml"), "").unwrap();
        assert_eq!(
            nearest_initialized(&krate.join("src").join("deep")),
            Some(krate.clone())
        );
        let h = Harness::find(Some(&krate.join("Cargo.toml"))).unwrap();
        assert!(!h.builtin);
        assert_eq!(
            h.runs_dir(),
            krate.canonicalize().unwrap().join("target/perfsyn/runs")
        );
        assert!(Harness::find(Some(&tmp.path().join("nothing"))).is_err());
    }

    #[test]
    fn a_crate_without_a_harness_is_named_unless_it_is_perfsyns_own() {
        let tmp = tempfile::tempdir().unwrap();
        let deep = tmp.path().join("src").join("deep");
        std::fs::create_dir_all(&deep).unwrap();
        assert_eq!(uninitialized_crate(&deep), None, "no crate at all");
        std::fs::write(tmp.path().join("Cargo.toml"), "[package]\nname = \"x\"\n").unwrap();
        assert_eq!(uninitialized_crate(&deep).as_deref(), Some(tmp.path()));
        let root = Harness::builtin().crate_dir;
        assert_eq!(uninitialized_crate(&root), None);
        assert_eq!(uninitialized_crate(&root.join("corpus").join("src")), None);
        let example = root.join("examples").join("own-crate");
        assert_eq!(
            uninitialized_crate(&example.join("src")).as_deref(),
            Some(example.as_path())
        );
    }

    #[test]
    fn an_uninitialized_crate_is_refused_with_the_init_command() {
        let tmp = tempfile::tempdir().unwrap();
        std::fs::write(tmp.path().join("Cargo.toml"), "[package]\nname = \"x\"\n").unwrap();
        let e = Harness::of_manifest(tmp.path()).unwrap_err().to_string();
        assert!(e.contains("perfsyn init --manifest-path"), "{e}");
    }

    #[test]
    fn a_second_run_with_the_same_name_gets_a_suffix() {
        let tmp = tempfile::tempdir().unwrap();
        let a = fresh_path(tmp.path(), "T__m-1", "json");
        assert!(a.ends_with("T__m-1.json"));
        std::fs::write(&a, "").unwrap();
        let b = fresh_path(tmp.path(), "T__m-1", "json");
        assert!(b.ends_with("T__m-1-2.json"));
    }
}
