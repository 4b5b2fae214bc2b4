//! Builds a harness's workers on first use, the way cargo-fuzz builds fuzz targets: `cargo
//! build --release` of the harness crate with sanitizer-coverage flags into
//! `<crate>/target/perfsyn-worker`, with an explicit `--target` so the flags reach only target
//! artifacts (build scripts and proc macros would fail to link with them), and the same
//! harness without instrumentation into `<crate>/target/perfsyn-worker-plain` (the twin that
//! wall-clock confirmation times). `explore` starts the twin's build in the background, at a
//! low CPU priority, while the search runs ([`prebuild_plain`]); otherwise it is built when a
//! confirmation first needs it. (The two builds share no artifacts: built into one directory,
//! the twin of a small crate still compiled all 42 of its units, the host's proc macros
//! included, so each keeps its own directory.) The built-in corpus is built by
//! exactly this path. Cargo's incremental build makes every later call a no-op check.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicI32, Ordering};
use std::sync::Mutex;

use anyhow::{bail, Context, Result};

use crate::harness::diagnostics::{parse_line, CargoMessage, Diagnostic};
use crate::harness::Harness;

/// The sanitizer-coverage flags of the instrumented worker. The PC table and line tables
/// serve hot lines (see `hotlines`): the table maps each guard to its block's address, the
/// line tables map addresses to file:line; neither adds work on an edge. `perfsyn_worker`
/// keeps the harness runtime's own bookkeeping free of edges (see
/// `perfsyn_profiler_ipc::probe::count_op`), so costs do not move with its codegen.
///
/// `-Crelocation-model=static` links the worker as a position-dependent executable. Why: in a
/// position-independent one every crate but the binary's reaches the runtime's counters
/// through the GOT, so every edge of the target paid a dependent load of the counter's
/// address before its increment (`probe::Key::cmp` was a GOT load, a push/pop frame and two
/// counter updates; now two RIP-relative updates and no frame). The model changes only
/// how addresses are formed after the coverage pass, not which blocks carry guards: the
/// pinned costs (`tests/worker_cost_stability.rs`) and seeded searches are unchanged, and
/// `explore --method BTreeMap::insert --seed 1` ran 9-14% faster. Hot lines subtract a load
/// bias of 0. A harness whose dependencies include a shared library (`crate-type =
/// ["cdylib", "rlib"]`) keeps the default, position-independent model (see
/// [`STATIC_RELOCATION`]).
pub const SANCOV_FLAGS: &str = "-Cpasses=sancov-module -Cllvm-args=-sanitizer-coverage-level=3 \
     -Cllvm-args=-sanitizer-coverage-trace-pc-guard -Cllvm-args=-sanitizer-coverage-pc-table \
     -Cdebuginfo=line-tables-only -Ccodegen-units=16 -Crelocation-model=static \
     --cfg perfsyn_worker";

/// The flags of the trace build (Toddler's read tracing, `readtrace` in the harness runtime,
/// and MemoizeIt's activations, `activations`): a callback before every load and store of
/// the code compiled in the worker and on every integer comparison, an edge callback with
/// the PC table (whose entry flags mark function entries: the activations, and the edges
/// they cost), frame pointers for the runtime's cheap call-stack hash and for telling
/// activations apart, line tables to map reads to file:line, and the static relocation model
/// (as [`SANCOV_FLAGS`], and left out as there when a dependency is also a shared library:
/// the runtime then subtracts the load bias, `ReadTrace::to_link_time`, so the addresses it
/// reports are link-time addresses either way). Built only when a trace check first needs it.
pub const TRACE_FLAGS: &str = "-Cpasses=sancov-module -Cllvm-args=-sanitizer-coverage-level=3 \
     -Cllvm-args=-sanitizer-coverage-trace-pc-guard -Cllvm-args=-sanitizer-coverage-pc-table \
     -Cllvm-args=-sanitizer-coverage-trace-loads -Cllvm-args=-sanitizer-coverage-trace-stores \
     -Cllvm-args=-sanitizer-coverage-trace-compares -Cforce-frame-pointers=yes \
     -Cdebuginfo=line-tables-only -Crelocation-model=static --cfg perfsyn_trace";

/// Cross-crate ThinLTO for the instrumented worker, set through cargo's environment so that it
/// applies to any harness's release profile. Why: sancov inserts a call to
/// `__sanitizer_cov_trace_pc_guard` on every edge, and without LTO the call cannot be inlined
/// into other crates (the callback is defined in the worker binary, the edges live in std's
/// generics, the target crate and its dependencies). The call and the registers it clobbers
/// were about half of worker time on loop-heavy programs; inlined, an edge is a load, an add, a
/// store and a compare. The edges themselves are placed before LTO, so every cost is the same
/// as without it (the pinned costs of the worker tests hold); only the wall time per unit of
/// fuel falls. Thin rather than fat: it links in parallel and inlines the callback at least as
/// often here (35 call sites left of 32909, against 1214 with fat LTO).
pub const WORKER_LTO: (&str, &str) = ("CARGO_PROFILE_RELEASE_LTO", "thin");

/// Lints capped at warnings in a user's crate's worker builds: the crate is a path
/// dependency of its harness, so cargo does not cap its lints as it caps a registry
/// dependency's, and a lint a newer rustc denies by default (dlv-list 0.6:
/// `dangerous_implicit_autorefs`) would stop a crate that builds as a dependency. Lints never
/// change the code, so the worker measures the same crate. The built-in corpus keeps its own
/// lints (its workers are not rebuilt for this).
pub const CAP_LINTS: &str = "--cap-lints=warn";

/// The relocation model of [`SANCOV_FLAGS`] and [`TRACE_FLAGS`], left out when a dependency of the harness
/// is also a shared library: RUSTFLAGS reach every crate of the build, and cargo links a
/// dependency's `cdylib` too, which position-dependent code cannot be linked into (the
/// linker: "relocation R_X86_64_32 ... can not be used when making a shared object;
/// recompile with -fPIC"). The worker is then a position-independent executable, and hot
/// lines subtract its load bias (see `perfsyn_profiler_ipc::hot`); costs are the same, only
/// each edge is slower.
pub const STATIC_RELOCATION: &str = "-Crelocation-model=static ";

/// The RUSTFLAGS of a worker build of `h`; `None`: none (cargo's own defaults).
pub fn rustflags(h: &Harness, build: Build) -> Option<String> {
    let cap = (!h.builtin).then_some(CAP_LINTS);
    match build {
        Build::Instrumented => {
            let sancov = if !h.builtin && links_a_shared_library(h) {
                SANCOV_FLAGS.replace(STATIC_RELOCATION, "")
            } else {
                SANCOV_FLAGS.to_string()
            };
            Some(match cap {
                Some(c) => format!("{sancov} {c}"),
                None => sancov,
            })
        }
        Build::Plain => cap.map(str::to_string),
        Build::Trace => {
            let trace = if !h.builtin && links_a_shared_library(h) {
                TRACE_FLAGS.replace(STATIC_RELOCATION, "")
            } else {
                TRACE_FLAGS.to_string()
            };
            Some(match cap {
                Some(c) => format!("{trace} {c}"),
                None => trace,
            })
        }
    }
}

/// Whether a package the harness depends on has a `cdylib` or `dylib` target, by `cargo
/// metadata` (asked once per harness; `false` when cargo cannot say, and the build then
/// reports what fails).
fn links_a_shared_library(h: &Harness) -> bool {
    static SEEN: Mutex<Vec<(PathBuf, bool)>> = Mutex::new(Vec::new());
    let mut seen = SEEN.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((_, shared)) = seen.iter().find(|(m, _)| *m == h.manifest) {
        return *shared;
    }
    let out = Command::new(cargo())
        .current_dir(&h.crate_dir)
        .args(["metadata", "--format-version", "1", "--manifest-path"])
        .arg(&h.manifest)
        .stderr(Stdio::null())
        .output();
    let shared = out.ok().filter(|o| o.status.success()).is_some_and(|o| {
        let meta: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap_or_default();
        meta["packages"].as_array().is_some_and(|ps| {
            ps.iter()
                .flat_map(|p| p["targets"].as_array().into_iter().flatten())
                .flat_map(|t| t["crate_types"].as_array().into_iter().flatten())
                .any(|k| k == "cdylib" || k == "dylib")
        })
    });
    seen.push((h.manifest.clone(), shared));
    shared
}

/// The binary every harness builds.
pub const WORKER_BIN: &str = "perfsyn-worker";

/// The workspace that holds the built-in corpus (this package's own root).
pub fn workspace_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The host triple rustc was built for (cargo needs it explicitly to scope RUSTFLAGS).
///
/// Asked in the crate's own directory, so that a `rust-toolchain.toml` there picks the same
/// rustc as the build; when that toolchain cannot run (not installed), rustc's own complaint
/// is the error, not a missing line of its output.
fn host_triple(crate_dir: &Path) -> Result<String> {
    let out = Command::new(rustc())
        .arg("-vV")
        .current_dir(crate_dir)
        .output()
        .context("cannot run `rustc -vV`: is a Rust toolchain installed?")?;
    let text = String::from_utf8_lossy(&out.stdout);
    if let Some(triple) = text.lines().find_map(|l| l.strip_prefix("host: ")) {
        return Ok(triple.to_string());
    }
    let err = String::from_utf8_lossy(&out.stderr);
    let why = err
        .lines()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("no output");
    bail!(
        "rustc cannot run in {}: {} (install that toolchain, or change the crate's rust-toolchain file)",
        crate_dir.display(),
        why.trim()
    )
}

fn cargo() -> String {
    std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string())
}

fn rustc() -> String {
    std::env::var("RUSTC").unwrap_or_else(|_| "rustc".to_string())
}

/// Which build of a harness.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Build {
    /// With sanitizer coverage: the worker the search runs (deterministic costs).
    Instrumented,
    /// Without: the twin whose wall-clock times confirmation measures.
    Plain,
    /// With load tracing: the build whose runs record what the calls under test read.
    Trace,
}

impl Build {
    fn dir_name(self) -> &'static str {
        match self {
            Build::Instrumented => "perfsyn-worker",
            Build::Plain => "perfsyn-worker-plain",
            Build::Trace => "perfsyn-worker-trace",
        }
    }
}

/// Where the instrumented build of the crate at `root` goes.
pub fn target_dir(root: &Path) -> PathBuf {
    root.join("target").join(Build::Instrumented.dir_name())
}

/// Where a build goes. `PERFSYN_WORKER_TARGET_DIR`, when set, replaces `<crate>/target` (tests
/// share one build directory between copies of a crate).
fn build_dir(h: &Harness, build: Build) -> PathBuf {
    // A baseline checkout (`check --baseline`) builds a harness of the same package name
    // against other sources: in a shared directory it gets its own subdirectory, or the two
    // revisions' workers would overwrite each other.
    let baseline = h.baseline;
    let base = std::env::var_os("PERFSYN_WORKER_TARGET_DIR")
        .filter(|_| !h.builtin)
        .map(|d| {
            let d = PathBuf::from(d);
            if baseline {
                d.join("baseline")
            } else {
                d
            }
        })
        .unwrap_or_else(|| h.target_dir());
    base.join(build.dir_name())
}

/// Builds (or re-checks) the instrumented worker of the built-in corpus.
pub fn ensure_worker(quiet: bool) -> Result<PathBuf> {
    ensure_harness_worker(&Harness::builtin(), quiet)
}

/// Builds (or re-checks) the instrumented worker of harness `h` and returns its path. The
/// harness is remembered so that [`plain_twin`] can build its uninstrumented twin later.
pub fn ensure_harness_worker(h: &Harness, quiet: bool) -> Result<PathBuf> {
    let bin = build(h, Build::Instrumented, quiet)?;
    check_instrumented(&bin)?;
    BUILT
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .push((bin.clone(), h.clone()));
    Ok(bin)
}

/// Harnesses whose instrumented workers this process built, by binary.
static BUILT: Mutex<Vec<(PathBuf, Harness)>> = Mutex::new(Vec::new());

/// An uninstrumented twin being built in the background: the instrumented binary it is the
/// twin of, the thread, and cargo's process id (its process group) once started.
type Prebuild = (
    PathBuf,
    std::thread::JoinHandle<Result<PathBuf>>,
    std::sync::Arc<AtomicI32>,
);
static PREBUILDS: Mutex<Vec<Prebuild>> = Mutex::new(Vec::new());

/// Ends an unfinished background build of a twin when dropped (the command ended without
/// confirming anything): cargo and its compilers are stopped, not left running.
#[must_use = "dropping the guard stops the background build"]
pub struct PrebuildGuard(Option<PathBuf>);

impl Drop for PrebuildGuard {
    fn drop(&mut self) {
        let Some(binary) = self.0.take() else { return };
        let found = {
            let mut pre = PREBUILDS.lock().unwrap_or_else(|e| e.into_inner());
            pre.iter()
                .position(|(b, _, _)| *b == binary)
                .map(|i| pre.remove(i))
        };
        if let Some((_, handle, pid)) = found {
            // -1 tells a build that has not started cargo yet not to.
            let pid = pid.swap(-1, Ordering::SeqCst);
            if pid > 0 && !handle.is_finished() {
                // SAFETY: signals the process group cargo leads (see `build_at`).
                unsafe { libc::kill(-pid, libc::SIGTERM) };
            }
            let _ = handle.join();
        }
    }
}

fn harness_of(binary: &Path) -> Option<Harness> {
    BUILT
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .iter()
        .find(|(b, _)| b == binary)
        .map(|(_, h)| h.clone())
}

/// Starts building the uninstrumented twin of `binary` on a background thread, with cargo
/// at a low CPU priority, so that it is ready (or nearly) when confirmation first needs it
/// instead of starting then; [`plain_twin`] waits for it. A no-op for a binary not built by
/// [`ensure_harness_worker`] in this process, or whose twin is already under way.
pub fn prebuild_plain(binary: &Path) -> PrebuildGuard {
    let Some(h) = harness_of(binary) else {
        return PrebuildGuard(None);
    };
    let mut pre = PREBUILDS.lock().unwrap_or_else(|e| e.into_inner());
    if pre.iter().any(|(b, _, _)| b == binary) {
        return PrebuildGuard(None);
    }
    let pid = std::sync::Arc::new(AtomicI32::new(0));
    let started = pid.clone();
    let handle = std::thread::spawn(move || build_at(&h, Build::Plain, true, Some(&started)));
    pre.push((binary.to_path_buf(), handle, pid));
    PrebuildGuard(Some(binary.to_path_buf()))
}

/// The uninstrumented twin of `binary`, built on demand (or the background build
/// [`prebuild_plain`] started, waited for): `None` when `binary` was not built by
/// [`ensure_harness_worker`] in this process (a `--worker PATH` has no known source).
pub fn plain_twin(binary: &Path) -> Option<Result<PathBuf>> {
    let started = {
        let mut pre = PREBUILDS.lock().unwrap_or_else(|e| e.into_inner());
        pre.iter()
            .position(|(b, _, _)| b == binary)
            .map(|i| pre.remove(i).1)
    };
    if let Some(handle) = started {
        // A failed background build is tried again in the foreground, which reports it.
        if let Ok(Ok(bin)) = handle.join() {
            return Some(Ok(bin));
        }
    }
    let h = harness_of(binary)?;
    Some(build(&h, Build::Plain, true))
}

/// The read-tracing build of `binary`'s harness, built on first use: `None` when `binary` was
/// not built by [`ensure_harness_worker`] in this process.
pub fn trace_twin(binary: &Path) -> Option<Result<PathBuf>> {
    let h = harness_of(binary)?;
    Some(build(&h, Build::Trace, true))
}

/// Runs the cargo build of `build` for harness `h`; returns the binary.
pub fn build(h: &Harness, build: Build, quiet: bool) -> Result<PathBuf> {
    build_at(h, build, quiet, None)
}

/// [`build`]; in the `background` (which receives cargo's process id), cargo and the
/// compilers it starts run at a low CPU priority in a process group of their own.
fn build_at(
    h: &Harness,
    build: Build,
    quiet: bool,
    background: Option<&AtomicI32>,
) -> Result<PathBuf> {
    if !h.manifest.is_file() {
        bail!(
            "cannot build the worker: no harness at {} (pass --worker PATH to use a built one)",
            h.manifest.display()
        );
    }
    let triple = host_triple(&h.crate_dir)?;
    let target = build_dir(h, build);
    let mut cmd = Command::new(cargo());
    cmd.current_dir(&h.crate_dir)
        .args(["build", "--release", "--manifest-path"])
        .arg(&h.manifest)
        .args(["-p", &h.package, "--bin", WORKER_BIN])
        .arg("--target-dir")
        .arg(&target)
        .args(["--message-format", "json"])
        .env_remove("CARGO_ENCODED_RUSTFLAGS")
        .env_remove("CARGO_TARGET_DIR")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut flags = String::new();
    if build != Build::Plain {
        cmd.args(["--target", &triple]);
    }
    if build == Build::Instrumented {
        cmd.env(WORKER_LTO.0, WORKER_LTO.1);
        flags = format!("{}={} ", WORKER_LTO.0, WORKER_LTO.1);
    }
    let flags = match rustflags(h, build) {
        Some(f) => {
            cmd.env("RUSTFLAGS", &f);
            format!("{flags}RUSTFLAGS=\"{f}\" ")
        }
        None => {
            cmd.env_remove("RUSTFLAGS");
            flags
        }
    };
    let shown = format!(
        "{flags}cargo build --release --manifest-path {} -p {} --bin {WORKER_BIN}{} --target-dir {}",
        h.manifest.display(),
        h.package,
        if build != Build::Plain { format!(" --target {triple}") } else { String::new() },
        target.display()
    );
    if background.is_some() {
        use std::os::unix::process::CommandExt;
        // SAFETY: setpgid and setpriority are async-signal-safe; they give the child its own
        // process group (so it can be stopped with its compilers) and a lower priority,
        // inherited by the compilers cargo starts, so the search keeps the CPU.
        unsafe {
            cmd.pre_exec(|| {
                libc::setpgid(0, 0);
                libc::setpriority(libc::PRIO_PROCESS, 0, 10);
                Ok(())
            });
        }
    }
    let mut child = cmd
        .spawn()
        .with_context(|| format!("cannot run cargo to build the worker (`{shown}`)"))?;
    if let Some(pid) = background {
        if pid
            .compare_exchange(0, child.id() as i32, Ordering::SeqCst, Ordering::SeqCst)
            .is_err()
        {
            // Cancelled while starting: stop it, as the guard would have.
            let _ = child.kill();
            let _ = child.wait();
            bail!("the background build of the uninstrumented worker was cancelled");
        }
    }
    let bar = (!quiet).then(|| {
        let b = indicatif::ProgressBar::new_spinner();
        b.set_style(
            indicatif::ProgressStyle::with_template(match build {
                Build::Instrumented => "{spinner} building instrumented worker: {msg}",
                Build::Plain => "{spinner} building uninstrumented worker: {msg}",
                Build::Trace => "{spinner} building read-tracing worker: {msg}",
            })
            .expect("static template"),
        );
        b.enable_steady_tick(std::time::Duration::from_millis(120));
        b
    });
    // Cargo's own lines (`Compiling x`, `error: could not compile`) on stderr, read beside
    // the compiler's messages on stdout.
    let status_bar = bar.clone();
    let stderr = child.stderr.take().map(|err| {
        std::thread::spawn(move || {
            let mut lines = Vec::new();
            for line in BufReader::new(err).lines().map_while(|l| l.ok()) {
                if let Some(b) = &status_bar {
                    let l = line.trim();
                    if l.starts_with("Compiling") || l.starts_with("Finished") {
                        b.set_message(l.to_string());
                    }
                }
                lines.push(line);
            }
            lines
        })
    });
    // The log as rustc renders it, each line with the diagnostic it comes from.
    let mut log = Vec::new();
    let mut from: Vec<Option<usize>> = Vec::new();
    let mut diagnostics = Vec::new();
    if let Some(out) = child.stdout.take() {
        for line in BufReader::new(out).lines().map_while(|l| l.ok()) {
            if let CargoMessage::Diagnostic(d) = parse_line(&line) {
                for l in d.rendered.lines() {
                    log.push(l.to_string());
                    from.push(Some(diagnostics.len()));
                }
                diagnostics.push(d);
            }
        }
    }
    if let Some(lines) = stderr.and_then(|t| t.join().ok()) {
        log.extend(lines);
    }
    from.resize(log.len(), None);
    let status = child.wait().context("waiting for cargo")?;
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    if !status.success() {
        let built = BuildLog {
            lines: log,
            from,
            diagnostics,
        };
        let message = build_failure_in(h, &built);
        let lines = harness_errors_in(h, &built);
        if !lines.is_empty() {
            return Err(RejectedRegistrations { lines, message }.into());
        }
        bail!(BuildFailed {
            crate_fails: message.starts_with(CRATE_FAILS),
            message,
            command: shown
        });
    }
    let bin = match build {
        Build::Instrumented | Build::Trace => target.join(&triple).join("release").join(WORKER_BIN),
        Build::Plain => target.join("release").join(WORKER_BIN),
    };
    if !bin.exists() {
        bail!(
            "cargo reported success but {} does not exist",
            bin.display()
        );
    }
    Ok(bin)
}

/// A worker build's output: the lines rustc rendered and cargo printed, and the
/// compiler's diagnostics they come from.
struct BuildLog {
    lines: Vec<String>,
    /// For each line, the diagnostic it renders (`None`: one of cargo's).
    from: Vec<Option<usize>>,
    diagnostics: Vec<Diagnostic>,
}

impl BuildLog {
    fn diagnostic_at(&self, line: usize) -> Option<&Diagnostic> {
        self.diagnostics.get((*self.from.get(line)?)?)
    }
}

/// A worker build that failed for another reason than rejected registrations: the first
/// error, in the compiler's or linker's words; the command it ran, for whoever reruns it.
#[derive(Debug)]
pub struct BuildFailed {
    pub message: String,
    pub command: String,
    /// The crate under test itself does not compile (not its generated harness): the fix is
    /// in the user's code, so `init` keeps no harness it would have to rebuild anyway.
    pub crate_fails: bool,
}

/// How [`failure`] begins the message of a build whose first error is in the crate itself.
const CRATE_FAILS: &str = "the crate ";

impl std::fmt::Display for BuildFailed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for BuildFailed {}

/// A failed build of a generated harness whose every error is in the harness's own
/// `src/lib.rs`: the registrations there the compiler rejects (`init` drops them and builds
/// again). Displays as the usual one-line build failure.
#[derive(Debug)]
pub struct RejectedRegistrations {
    /// Each error's lines in the harness's `src/lib.rs` (1-based; where rustc points first,
    /// then the other lines its snippet shows: an error inside `register_type!` points at
    /// the macro and labels the registration) and rustc's message.
    pub lines: Vec<(Vec<usize>, String)>,
    pub message: String,
}

impl std::fmt::Display for RejectedRegistrations {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for RejectedRegistrations {}

/// The errors of a failed build of the generated harness located in its `src/lib.rs` (a
/// registration's error may come with others located in the runtime's macros, which go away
/// with it; if they do not, the next build fails again and `init` reports that failure).
#[cfg(test)]
fn harness_errors(h: &Harness, log: &[String]) -> Vec<(Vec<usize>, String)> {
    harness_errors_at(h, log)
        .into_iter()
        .map(|(_, lines, message)| (lines, message))
        .collect()
}

/// [`harness_errors`] of a build, each error in the compiler's words for it (see
/// [`Diagnostic::summary`]).
fn harness_errors_in(h: &Harness, b: &BuildLog) -> Vec<(Vec<usize>, String)> {
    let lib = harness_lib(h);
    harness_errors_at(h, &b.lines)
        .into_iter()
        .map(|(i, lines, message)| match b.diagnostic_at(i) {
            Some(d) => (lines, d.summary(&lib)),
            None => (lines, message),
        })
        .collect()
}

/// The generated registrations of a harness (`perfsyn/src/lib.rs`).
fn harness_lib(h: &Harness) -> PathBuf {
    h.manifest
        .parent()
        .unwrap_or(&h.crate_dir)
        .join("src")
        .join("lib.rs")
}

/// [`harness_errors`], each with the index of its log line.
fn harness_errors_at(h: &Harness, log: &[String]) -> Vec<(usize, Vec<usize>, String)> {
    if h.builtin {
        return Vec::new();
    }
    let failed_package = log
        .iter()
        .find_map(|l| l.split("could not compile `").nth(1))
        .and_then(|r| r.split('`').next());
    if failed_package != Some(h.package.as_str()) {
        return Vec::new();
    }
    let harness_lib = harness_lib(h);
    let mut out = Vec::new();
    for (i, l) in log.iter().enumerate() {
        if !l.starts_with("error")
            || l.starts_with("error: could not compile")
            || l.starts_with("error: aborting due to")
        {
            continue;
        }
        let place = log[i + 1..]
            .iter()
            .take(4)
            .find_map(|l| l.trim().strip_prefix("--> "));
        let Some(place) = place else {
            continue;
        };
        let mut parts = place.split(':');
        let file = parts.next().unwrap_or_default();
        let line: Option<usize> = parts.next().and_then(|n| n.parse().ok());
        let in_lib = if Path::new(file).is_absolute() {
            Path::new(file) == harness_lib
        } else {
            file == "src/lib.rs"
        };
        if let (Some(line), true) = (line, in_lib) {
            // The snippet: numbered source lines up to the next location or the next message.
            let shown = log[i + 1..]
                .iter()
                .skip_while(|l| !l.trim().starts_with("--> "))
                .skip(1)
                .take_while(|l| !l.trim().starts_with("--> ") && !l.trim().is_empty())
                .filter_map(|l| l.split('|').next()?.trim().parse::<usize>().ok())
                .filter(|&n| n != line);
            let lines = std::iter::once(line).chain(shown).collect();
            out.push((i, lines, l.trim().to_string()));
        }
    }
    out
}

/// Line `i` of a build log, with the lines that finish it when it ends in a colon (cargo's
/// "rustc 1.95.0 is not supported by the following package:" names the package and the
/// version it needs on the next line).
fn continued(log: &[String], i: usize) -> String {
    let mut message = log[i].trim().to_string();
    if message.ends_with(':') {
        for l in log[i + 1..].iter().take(3) {
            let l = l.trim();
            if l.is_empty() || l.starts_with("-->") || l.starts_with("error") || l.starts_with('|')
            {
                break;
            }
            message.push(' ');
            message.push_str(l);
        }
    }
    message
}

/// The first compiler error of a failed build, where it is, and whose code it is in: the
/// crate under test, or the generated harness (naming the registration it is in).
pub fn build_failure(h: &Harness, log: &[String]) -> String {
    failure(h, log, &|i| continued(log, i))
}

/// [`build_failure`] of a build, its error in the compiler's (or the linker's) words.
fn build_failure_in(h: &Harness, b: &BuildLog) -> String {
    let lib = harness_lib(h);
    failure(h, &b.lines, &|i| match b.diagnostic_at(i) {
        Some(d) => d.summary(&lib),
        None => continued(&b.lines, i),
    })
}

/// [`build_failure`], the message of log line `i` written by `message_of`.
fn failure(h: &Harness, log: &[String], message_of: &dyn Fn(usize) -> String) -> String {
    let Some(i) = log.iter().position(|l| l.starts_with("error")) else {
        return format!(
            "building the worker failed ({})",
            log.last()
                .map(String::as_str)
                .unwrap_or("cargo printed nothing")
        );
    };
    let message = message_of(i);
    let message = message.as_str();
    let place = log[i + 1..]
        .iter()
        .take(4)
        .find_map(|l| l.trim().strip_prefix("--> "))
        .map(str::to_string);
    let Some(place) = place else {
        return format!("building the worker failed: {message}");
    };
    let file = place.split(':').next().unwrap_or_default();
    let path = if Path::new(file).is_absolute() {
        PathBuf::from(file)
    } else {
        h.crate_dir.join(file)
    };
    let harness_dir = h.manifest.parent().unwrap_or(&h.crate_dir);
    // Both crates print `src/lib.rs`; cargo's "could not compile `NAME`" says whose it is.
    let failed_package = log
        .iter()
        .find_map(|l| l.split("could not compile `").nth(1))
        .and_then(|r| r.split('`').next());
    let in_harness = !h.builtin
        && (failed_package == Some(h.package.as_str())
            || (failed_package.is_none() && path.starts_with(harness_dir)));
    let path = if in_harness && !Path::new(file).is_absolute() {
        harness_dir.join(file)
    } else {
        path
    };
    if in_harness {
        let line: usize = place
            .split(':')
            .nth(1)
            .and_then(|n| n.parse().ok())
            .unwrap_or(0);
        let item = std::fs::read_to_string(&path)
            .ok()
            .and_then(|text| crate::harness::generated::registration_at(&text, line));
        match item {
            Some(item) => format!(
                "the generated harness does not compile: the registration of `{item}` ({place}): {message}; fix or delete it there, or regenerate with `perfsyn init --force`"
            ),
            None => format!("the generated harness does not compile ({place}): {message}"),
        }
    } else if h.builtin {
        format!("building the instrumented worker failed ({message} at {place})")
    } else {
        format!(
            "{CRATE_FAILS}{} does not compile: {message} at {place}",
            h.crate_dir.display()
        )
    }
}

/// Refuses a worker without sanitizer-coverage guards: its edges would all be zero and every
/// verdict meaningless.
pub fn check_instrumented(bin: &Path) -> Result<()> {
    match sancov_guards(bin) {
        Ok(0) => bail!(
            "{} is not instrumented (no sanitizer-coverage guards): omit --worker and perfsyn builds an instrumented one, or build it with RUSTFLAGS=\"{SANCOV_FLAGS}\" and an explicit --target",
            bin.display()
        ),
        Ok(_) => Ok(()),
        Err(e) => bail!("cannot read the worker {}: {e}", bin.display()),
    }
}

/// The number of sanitizer-coverage guards in the ELF binary `bin`: the size of its
/// `__sancov_guards` section over 4 (0 when it has none). Reads only the ELF header, the
/// section headers and their name table: every explore checks its worker, a 20-30 MB file.
pub fn sancov_guards(bin: &Path) -> Result<u64> {
    use std::os::unix::fs::FileExt;
    let f = std::fs::File::open(bin)?;
    let mut read = |off: u64, len: usize| {
        let mut buf = vec![0u8; len];
        f.read_exact_at(&mut buf, off).ok().map(|_| buf)
    };
    elf_section_size(&mut read, b"__sancov_guards")
        .map(|n| n / 4)
        .context("not a 64-bit little-endian ELF file")
}

/// The size of section `name` in a 64-bit little-endian ELF image that `read(offset, len)`
/// reads from (`Some(0)` if absent).
fn elf_section_size(
    read: &mut dyn FnMut(u64, usize) -> Option<Vec<u8>>,
    name: &[u8],
) -> Option<u64> {
    let u16_at = |d: &[u8], o: usize| Some(u16::from_le_bytes(d.get(o..o + 2)?.try_into().ok()?));
    let u32_at = |d: &[u8], o: usize| Some(u32::from_le_bytes(d.get(o..o + 4)?.try_into().ok()?));
    let u64_at = |d: &[u8], o: usize| Some(u64::from_le_bytes(d.get(o..o + 8)?.try_into().ok()?));
    let eh = read(0, 64)?;
    if eh.get(..4)? != b"\x7fELF" || *eh.get(4)? != 2 || *eh.get(5)? != 1 {
        return None;
    }
    let shoff = u64_at(&eh, 0x28)?;
    let shentsize = u16_at(&eh, 0x3a)? as usize;
    let shnum = u16_at(&eh, 0x3c)? as usize;
    let shstrndx = u16_at(&eh, 0x3e)? as usize;
    if shentsize < 0x28 || shstrndx >= shnum {
        return None;
    }
    let sh = read(shoff, shnum.checked_mul(shentsize)?)?;
    let at = |i: usize| i * shentsize;
    let strtab = read(
        u64_at(&sh, at(shstrndx) + 0x18)?,
        usize::try_from(u64_at(&sh, at(shstrndx) + 0x20)?).ok()?,
    )?;
    for i in 0..shnum {
        let off = u32_at(&sh, at(i))? as usize;
        let n = strtab.get(off..)?.iter().position(|b| *b == 0)?;
        if &strtab[off..off + n] == name {
            return u64_at(&sh, at(i) + 0x20);
        }
    }
    Some(0)
}

/// The worker to use: `--worker PATH` if given (it must exist and be instrumented), else the
/// instrumented build of the harness found from the current directory.
pub fn resolve_worker(given: Option<&Path>, quiet: bool) -> Result<PathBuf> {
    match given {
        Some(p) => resolve_worker_in(Some(p), &Harness::builtin(), quiet),
        None => resolve_worker_in(None, &Harness::find(None)?, quiet),
    }
}

/// The worker to use for harness `h`: `--worker PATH` if given (it must exist and be
/// instrumented), else `h`'s instrumented build.
pub fn resolve_worker_in(given: Option<&Path>, h: &Harness, quiet: bool) -> Result<PathBuf> {
    match given {
        Some(p) if p.is_file() => {
            check_instrumented(p)?;
            Ok(p.to_path_buf())
        }
        Some(p) => bail!(
            "--worker {}: no such file (omit --worker and perfsyn builds the instrumented one)",
            p.display()
        ),
        None => ensure_harness_worker(h, quiet),
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

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::harness_errors;
    use crate::harness::Harness;

    /// A user's crate is a path dependency of its harness, whose lints cargo does not cap:
    /// both of its worker builds cap them, so a lint a newer rustc denies does not stop it;
    /// the corpus keeps its flags.
    #[test]
    fn a_user_crate_builds_with_its_lints_capped() {
        use super::{rustflags, Build, SANCOV_FLAGS};
        let user = Harness {
            crate_dir: PathBuf::from("/c"),
            manifest: PathBuf::from("/c/perfsyn/Cargo.toml"),
            package: "perfsyn-harness".into(),
            builtin: false,
            baseline: false,
        };
        let inst = rustflags(&user, Build::Instrumented).unwrap();
        assert!(inst.starts_with(SANCOV_FLAGS) && inst.ends_with("--cap-lints=warn"));
        assert_eq!(
            rustflags(&user, Build::Plain).as_deref(),
            Some("--cap-lints=warn")
        );
        let corpus = Harness::builtin();
        assert_eq!(
            rustflags(&corpus, Build::Instrumented).as_deref(),
            Some(SANCOV_FLAGS)
        );
        assert_eq!(rustflags(&corpus, Build::Plain), None);
    }

    /// arrayvec's first `init` (abridged): one error at a registration, one inside the
    /// `register_type!` macro whose snippet labels the registration, and a note in the crate.
    #[test]
    fn a_harness_build_log_gives_each_error_with_the_lines_it_shows() {
        let log: Vec<String> = r#"   Compiling perfsyn-harness v0.0.0 (/c/perfsyn)
error[E0277]: the trait bound `Key: std::marker::Copy` is not satisfied
   --> src/lib.rs:74:13
    |
 74 |             try_extend_from_slice(mut self, other: slice Key);
    |             ^^^^^^^^^^^^^^^^^^^^^ the trait `std::marker::Copy` is not implemented for `Key`
    |
note: required by a bound in `ArrayVec::<T, CAP>::try_extend_from_slice`
   --> /c/src/arrayvec.rs:605:18
    |
605 |         where T: Copy,
    |                  ^^^^ required by this bound

error[E0308]: mismatched types
   --> src/lib.rs:36:1
    |
 36 | / register_type! {
 38 | |     pub fn vec_key() -> Vec<Key> {
...   |
127 | |             simplify(val self) -> CapacityError<Key>;
    | |                                   ------------------ expected due to this
132 | | }
    | |_^ expected `CapacityError<Key>`, found `CapacityError`

error: could not compile `perfsyn-harness` (lib) due to 2 previous errors"#
            .lines()
            .map(str::to_string)
            .collect();
        let h = harness_at_c();
        let errors = harness_errors(&h, &log);
        let lines: Vec<&[usize]> = errors.iter().map(|(l, _)| l.as_slice()).collect();
        assert_eq!(lines, [&[74][..], &[36, 38, 127, 132][..]]);
        assert_eq!(errors[1].1, "error[E0308]: mismatched types");
        // The crate's own failure is not the harness's.
        let crate_log: Vec<String> = log
            .iter()
            .map(|l| l.replace("`perfsyn-harness`", "`arrayvec`"))
            .collect();
        assert!(harness_errors(&h, &crate_log).is_empty());
    }

    /// A user crate's harness at `/c/perfsyn`.
    fn harness_at_c() -> Harness {
        Harness {
            crate_dir: PathBuf::from("/c"),
            manifest: PathBuf::from("/c/perfsyn/Cargo.toml"),
            package: "perfsyn-harness".into(),
            builtin: false,
            baseline: false,
        }
    }

    #[test]
    fn a_message_ending_in_a_colon_keeps_the_lines_that_finish_it() {
        let log: Vec<String> = [
            "error: rustc 1.95.0 is not supported by the following package:",
            "  skiplist@2.0.1 requires rustc 1.98",
            "",
        ]
        .iter()
        .map(|l| l.to_string())
        .collect();
        let h = harness_at_c();
        assert_eq!(
            super::build_failure(&h, &log),
            "building the worker failed: error: rustc 1.95.0 is not supported by the following package: skiplist@2.0.1 requires rustc 1.98"
        );
    }
}
