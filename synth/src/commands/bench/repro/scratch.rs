//! The scratch crate of `perfsyn bench repro`: one crate that every exported file of a run is
//! placed into (`export --into`), built once with cargo for all of them (`--keep-going`, so
//! one file that does not compile does not hide the others), its test and bench executables
//! run one by one, and checked once with `cargo clippy --all-targets -- -D warnings`. One
//! crate and one target directory for every case because cargo runs are what is slow here.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};

/// The scratch crate under `root`.
pub struct Scratch {
    pub dir: PathBuf,
    pub target: PathBuf,
}

/// What one cargo invocation said, per target (the file stem of a test or bench).
#[derive(Debug, Default)]
pub struct CargoOutcome {
    /// Executables built, by target name.
    pub executables: BTreeMap<String, PathBuf>,
    /// The first diagnostic (error, or warning with `-D warnings`) of each target that had one.
    pub diagnostics: BTreeMap<String, String>,
    /// Targets that produced a diagnostic of level error.
    pub failed: Vec<String>,
}

/// How an executable ended.
#[derive(Debug)]
pub struct Ran {
    /// `Some(code)`, or `None` when it was killed (a signal, or the time limit).
    pub code: Option<i32>,
    pub timed_out: bool,
    pub output: String,
}

impl Scratch {
    /// Prepares the crate at `root/crate` for a new run: a fresh manifest (with `deps`, the
    /// `[dev-dependencies]` lines the exports cannot add themselves) and empty `tests/` and
    /// `benches/`; the target directory and Cargo.lock stay, so later runs build only what
    /// changed. The first run takes its lock file from perfsyn's workspace, so the crates
    /// both use resolve to the same versions.
    pub fn reset(root: &Path, deps: &[(String, PathBuf)]) -> Result<Scratch> {
        let dir = root.join("crate");
        for sub in ["tests", "benches"] {
            let d = dir.join(sub);
            if d.exists() {
                std::fs::remove_dir_all(&d)
                    .with_context(|| format!("cannot clear {}", d.display()))?;
            }
        }
        std::fs::create_dir_all(dir.join("src"))
            .with_context(|| format!("cannot create {}", dir.display()))?;
        let mut manifest = String::from(
            "# Written by `perfsyn bench repro` on every run; exported files are placed here with\n# `perfsyn export --into`, which adds the dev-dependencies they need.\n[package]\nname = \"perfsyn-bench-repro\"\nversion = \"0.0.0\"\nedition = \"2021\"\npublish = false\n",
        );
        if !deps.is_empty() {
            manifest.push_str("\n[dev-dependencies]\n");
            for (name, path) in deps {
                manifest.push_str(&format!(
                    "{name} = {{ path = {:?} }}\n",
                    path.display().to_string()
                ));
            }
        }
        manifest.push_str("\n[workspace]\n");
        std::fs::write(dir.join("Cargo.toml"), manifest)?;
        std::fs::write(
            dir.join("src/lib.rs"),
            "//! Exported files live in tests/ and benches/.\n",
        )?;
        let lock = dir.join("Cargo.lock");
        if !lock.exists() {
            let ws = crate::harness::worker_build::workspace_root().join("Cargo.lock");
            if let Ok(text) = std::fs::read_to_string(ws) {
                std::fs::write(&lock, text)?;
            }
        }
        Ok(Scratch {
            target: root.join("target"),
            dir,
        })
    }

    fn cargo(&self, args: &[&str]) -> Command {
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
        let mut c = Command::new(cargo);
        // The subcommand, then the target directory, then its arguments (clippy's end with
        // `-- -D warnings`, after which cargo reads nothing).
        c.current_dir(&self.dir)
            .arg(args[0])
            .arg("--target-dir")
            .arg(&self.target)
            .args(&args[1..])
            .env_remove("CARGO_TARGET_DIR")
            .env_remove("CARGO_BUILD_TARGET_DIR")
            .env_remove("CARGO_ENCODED_RUSTFLAGS")
            .env_remove("RUSTFLAGS")
            .stdin(Stdio::null());
        c
    }

    /// Builds every test and bench (debug profile, as `cargo test` does).
    pub fn build(&self) -> Result<CargoOutcome> {
        self.run_json(&[
            "build",
            "--tests",
            "--benches",
            "--keep-going",
            "--message-format=json",
        ])
    }

    /// `cargo clippy --all-targets -- -D warnings`, per target.
    pub fn clippy(&self) -> Result<CargoOutcome> {
        self.run_json(&[
            "clippy",
            "--all-targets",
            "--keep-going",
            "--message-format=json",
            "--",
            "-D",
            "warnings",
        ])
    }

    fn run_json(&self, args: &[&str]) -> Result<CargoOutcome> {
        let out = self
            .cargo(args)
            .stderr(Stdio::piped())
            .output()
            .with_context(|| format!("cannot run cargo {}", args[0]))?;
        let mut o = CargoOutcome::default();
        for line in out.stdout.split(|b| *b == b'\n') {
            let Ok(v) = serde_json::from_slice::<serde_json::Value>(line) else {
                continue;
            };
            let target = v["target"]["name"].as_str().unwrap_or_default().to_string();
            match v["reason"].as_str() {
                Some("compiler-artifact") => {
                    if let Some(exe) = v["executable"].as_str() {
                        o.executables.insert(target, PathBuf::from(exe));
                    }
                }
                Some("compiler-message") => {
                    let m = &v["message"];
                    let spanned = m["spans"].as_array().is_some_and(|s| !s.is_empty());
                    let level = m["level"].as_str().unwrap_or_default();
                    if !spanned || !(level == "error" || level == "warning") {
                        continue;
                    }
                    if level == "error" && !o.failed.contains(&target) {
                        o.failed.push(target.clone());
                    }
                    let text = m["message"].as_str().unwrap_or_default();
                    let at = m["spans"][0]["line_start"].as_u64().unwrap_or(0);
                    o.diagnostics
                        .entry(target)
                        .or_insert_with(|| format!("line {at}: {level}: {text}"));
                }
                _ => {}
            }
        }
        // A cargo failure that no target explains (a manifest or resolution error) is the
        // run's error, not a case's.
        if !out.status.success() && o.failed.is_empty() {
            let err = String::from_utf8_lossy(&out.stderr);
            let first = err
                .lines()
                .find(|l| l.starts_with("error"))
                .unwrap_or("(no error line)");
            bail!(
                "cargo {} failed in {}: {first}",
                args[0],
                self.dir.display()
            );
        }
        Ok(o)
    }
}

/// Runs `exe` with `args` in `dir`, killing it after `limit`; its output goes through a file
/// (no pipe to fill).
pub fn run_exe(exe: &Path, args: &[&str], dir: &Path, limit: Duration) -> Result<Ran> {
    let log_path = dir.join(format!(
        "{}.log",
        exe.file_name()
            .map_or("run".into(), |n| n.to_string_lossy())
    ));
    let log = std::fs::File::create(&log_path)
        .with_context(|| format!("cannot create {}", log_path.display()))?;
    let mut child = Command::new(exe)
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(log.try_clone()?)
        .stderr(log)
        .spawn()
        .with_context(|| format!("cannot run {}", exe.display()))?;
    let start = Instant::now();
    let mut timed_out = false;
    let status = loop {
        if let Some(s) = child.try_wait()? {
            break s;
        }
        if start.elapsed() > limit {
            timed_out = true;
            // This process started the child; it is the only one killed.
            let _ = child.kill();
            break child.wait()?;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let output = std::fs::read_to_string(&log_path).unwrap_or_default();
    Ok(Ran {
        code: status.code(),
        timed_out,
        output,
    })
}
