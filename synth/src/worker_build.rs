//! Builds the instrumented `perfsyn-worker` on first use, the way cargo-fuzz builds fuzz
//! targets: `cargo build --release` with sanitizer-coverage flags into its own target
//! directory, with an explicit `--target` so the flags reach only target artifacts (build
//! scripts and proc macros would fail to link with them). Cargo's incremental build makes
//! every later call a no-op check.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use anyhow::{bail, Context, Result};

/// The sanitizer-coverage flags of the instrumented worker.
pub const SANCOV_FLAGS: &str = "-Cpasses=sancov-module -Cllvm-args=-sanitizer-coverage-level=3 \
     -Cllvm-args=-sanitizer-coverage-trace-pc-guard -Ccodegen-units=16";

/// The workspace that holds the corpus (this package's own root).
pub fn workspace_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The host triple rustc was built for (cargo needs it explicitly to scope RUSTFLAGS).
fn host_triple() -> Result<String> {
    let out = Command::new(rustc())
        .arg("-vV")
        .output()
        .context("cannot run `rustc -vV`: is a Rust toolchain installed?")?;
    let text = String::from_utf8_lossy(&out.stdout);
    text.lines()
        .find_map(|l| l.strip_prefix("host: "))
        .map(str::to_string)
        .context("`rustc -vV` printed no host triple")
}

fn cargo() -> String {
    std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string())
}

fn rustc() -> String {
    std::env::var("RUSTC").unwrap_or_else(|_| "rustc".to_string())
}

/// Where the instrumented build goes.
pub fn target_dir(root: &Path) -> PathBuf {
    root.join("target").join("perfsyn-worker")
}

/// Builds (or re-checks) the instrumented worker and returns the path of the binary.
/// Progress goes to stderr unless `quiet`.
pub fn ensure_worker(quiet: bool) -> Result<PathBuf> {
    let root = workspace_root();
    if !root.join("corpus").join("Cargo.toml").exists() {
        bail!(
            "cannot build the worker: no corpus at {} (pass --worker PATH to use a built one)",
            root.join("corpus").display()
        );
    }
    let triple = host_triple()?;
    let target = target_dir(&root);
    let mut cmd = Command::new(cargo());
    cmd.current_dir(&root)
        .args([
            "build",
            "--release",
            "-p",
            "perfsyn-corpus",
            "--bin",
            "perfsyn-worker",
        ])
        .args(["--target", &triple])
        .arg("--target-dir")
        .arg(&target)
        .args(["--message-format", "human"])
        .env("RUSTFLAGS", SANCOV_FLAGS)
        .env_remove("CARGO_ENCODED_RUSTFLAGS")
        .env_remove("CARGO_TARGET_DIR")
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    let shown = format!(
        "RUSTFLAGS=\"{SANCOV_FLAGS}\" cargo build --release -p perfsyn-corpus --bin perfsyn-worker --target {triple} --target-dir {}",
        target.display()
    );
    let mut child = cmd
        .spawn()
        .with_context(|| format!("cannot run cargo to build the worker (`{shown}`)"))?;
    let bar = (!quiet).then(|| {
        let b = indicatif::ProgressBar::new_spinner();
        b.set_style(
            indicatif::ProgressStyle::with_template(
                "{spinner} building instrumented worker: {msg}",
            )
            .expect("static template"),
        );
        b.enable_steady_tick(std::time::Duration::from_millis(120));
        b
    });
    let mut tail = Vec::new();
    if let Some(err) = child.stderr.take() {
        for line in BufReader::new(err).lines().map_while(|l| l.ok()) {
            if let Some(b) = &bar {
                let l = line.trim();
                if l.starts_with("Compiling") || l.starts_with("Finished") {
                    b.set_message(l.to_string());
                }
            }
            tail.push(line);
            if tail.len() > 40 {
                tail.remove(0);
            }
        }
    }
    let status = child.wait().context("waiting for cargo")?;
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    if !status.success() {
        let first_error = tail
            .iter()
            .find(|l| l.starts_with("error"))
            .cloned()
            .unwrap_or_else(|| tail.last().cloned().unwrap_or_default());
        bail!("building the instrumented worker failed ({first_error}); command: {shown}");
    }
    let bin = target.join(&triple).join("release").join("perfsyn-worker");
    if !bin.exists() {
        bail!(
            "cargo reported success but {} does not exist",
            bin.display()
        );
    }
    Ok(bin)
}

/// The worker to use: `--worker PATH` if given (it must exist), else the instrumented build.
pub fn resolve_worker(given: Option<&Path>, quiet: bool) -> Result<PathBuf> {
    match given {
        Some(p) if p.is_file() => Ok(p.to_path_buf()),
        Some(p) => bail!(
            "--worker {}: no such file (build it with `cargo build --release -p perfsyn-corpus`, or omit --worker)",
            p.display()
        ),
        None => ensure_worker(quiet),
    }
}

/// Reads a worker's schema without starting a session (`perfsyn-worker --schema`).
pub fn read_schema(worker: &Path) -> Result<perfsyn_profiler_ipc::ApiSchema> {
    let out = Command::new(worker)
        .arg("--schema")
        .stderr(Stdio::piped())
        .output()
        .with_context(|| format!("cannot run the worker {}", worker.display()))?;
    if !out.status.success() {
        bail!(
            "the worker {} failed to print its schema: {}",
            worker.display(),
            String::from_utf8_lossy(&out.stderr).trim()
        );
    }
    serde_json::from_slice(&out.stdout).with_context(|| {
        format!(
            "the worker {} printed a schema that is not valid JSON",
            worker.display()
        )
    })
}
