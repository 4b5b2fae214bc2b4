//! An optional per-program timing trace of the worker, for measuring where search time goes
//! (`PERFSYN_WORKER_TRACE=DIR`: each worker process appends one line per program to
//! `DIR/worker-<pid>.tsv`). Off unless the variable is set; it changes no result: it only
//! reads the monotonic clock around a program and writes after its feedback is published.
//!
//! Columns: path (how the program was served, see `forkserver::SetupCache::last`: `fresh`,
//! `exact`, `prefix`, `start`, `ancestor`, `starved`), outcome, fuel spent, edges of the
//! calls under test, wall ns of the calls under test, wall ns of the whole program in the
//! worker (setup, calls, drops), and the monotonic clock when it ended (ns). A timeout on
//! the fresh path ends its runner; the worker's
//! warden writes its line, with path `fuel-out` and times 0 (see `rescue`). A program over
//! 20 ms, and a fuel-out, is followed by a line `#` and its JSON.

use std::io::Write;
use std::sync::OnceLock;

/// The environment variable naming the trace directory.
pub const ENV: &str = "PERFSYN_WORKER_TRACE";

static DIR: OnceLock<Option<std::path::PathBuf>> = OnceLock::new();

/// Whether tracing is on.
pub fn on() -> bool {
    DIR.get_or_init(|| std::env::var_os(ENV).map(Into::into))
        .is_some()
}

/// Appends one line for a program (no-op when tracing is off).
pub fn program(
    path: &str,
    p: &crate::program::Program,
    fb: &crate::feedback::Feedback,
    total_ns: u64,
) {
    let Some(Some(dir)) = DIR.get() else {
        return;
    };
    let outcome = match &fb.outcome {
        crate::feedback::Outcome::Ok => "ok",
        crate::feedback::Outcome::Panic { .. } => "panic",
        crate::feedback::Outcome::Timeout => "timeout",
        crate::feedback::Outcome::OutOfMemory => "oom",
        crate::feedback::Outcome::Invalid { .. } => "invalid",
        _ => "other",
    };
    let file = dir.join(format!("worker-{}.tsv", std::process::id()));
    if let Ok(mut f) = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(file)
    {
        let _ = writeln!(
            f,
            "{path}\t{outcome}\t{}\t{}\t{}\t{total_ns}\t{}",
            fb.fuel_spent,
            fb.cost.edges,
            fb.cost.wall_ns,
            crate::shm::monotonic_ns()
        );
        if total_ns > 20_000_000 || path == "fuel-out" {
            let _ = writeln!(f, "#\t{}", serde_json::to_string(p).unwrap_or_default());
        }
    }
}

/// Appends a line `phase start_ns end_ns` (monotonic clock) to `DIR/phases.tsv`, so that the
/// programs' lines can be told apart by phase: the engine writes its search phase, whose
/// programs per second `bench search` and the throughput script report (no-op when off).
pub fn phase(name: &str, start_ns: u64, end_ns: u64) {
    if !on() {
        return;
    }
    let Some(Some(dir)) = DIR.get() else {
        return;
    };
    if let Ok(mut f) = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(dir.join("phases.tsv"))
    {
        let _ = writeln!(f, "{name}\t{start_ns}\t{end_ns}");
    }
}
