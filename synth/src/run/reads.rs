//! Runs programs on a harness's trace build (`worker_build::Build::Trace`) and reads back
//! what their calls under test read (`perfsyn_profiler_ipc::readtrace`): the input of the
//! repeated-traversal oracle. The trace build runs only a handful of chosen programs, one
//! worker process per batch, outside the pool: its overhead never touches the search.
//!
//! The worker is told the markers of the loops recovered from its binary
//! (`harness/loop_headers.rs`) and records their hits; each trace then carries the shapes of
//! the loops it hit (`ReadTrace::loops`). [`NO_LOOP_HEADERS_ENV`] set, or a binary whose loops
//! cannot be recovered, leaves them out (the oracle then marks loops by reads alone).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};

use crate::harness::loop_headers::Recovered;
use perfsyn_profiler_ipc::readtrace::{LoopShape, ReadTrace};
use perfsyn_profiler_ipc::Program;

/// Longest a batch of traced programs may run before the worker is stopped.
pub const TRACE_DEADLINE: Duration = Duration::from_secs(60);

/// Set (to anything), the trace worker is not told the recovered loops: the oracle's loops
/// inside one call come from entries and reads alone (what `bench toddler` compares against).
pub const NO_LOOP_HEADERS_ENV: &str = "PERFSYN_NO_LOOP_HEADERS";

/// Runs `programs` once each on the trace build `binary` (bound to `bind`'s version, if any);
/// one trace per program, in order.
pub fn trace_reads(
    binary: &Path,
    bind: Option<&str>,
    programs: &[Program],
) -> Result<Vec<ReadTrace>> {
    static BATCH: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = BATCH.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("perfsyn-reads-{}-{n}", std::process::id()));
    std::fs::create_dir_all(&dir)
        .with_context(|| format!("cannot make {} for the traced programs", dir.display()))?;
    let result = run_in(binary, bind, programs, &dir);
    let _ = std::fs::remove_dir_all(&dir);
    result
}

fn run_in(
    binary: &Path,
    bind: Option<&str>,
    programs: &[Program],
    dir: &Path,
) -> Result<Vec<ReadTrace>> {
    let input = dir.join("programs.json");
    let output = dir.join("reads.bin");
    std::fs::write(&input, serde_json::to_string(programs)?)?;
    let recovered = if std::env::var_os(NO_LOOP_HEADERS_ENV).is_some() {
        None
    } else {
        crate::harness::loop_headers::recovered(binary).ok()
    };
    let mut cmd = Command::new(binary);
    cmd.arg("--trace").arg(&input).arg(&output);
    if let Some(r) = &recovered {
        let markers = dir.join("markers.txt");
        std::fs::write(&markers, r.markers_text())?;
        cmd.arg(&markers);
    }
    cmd.stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    match bind {
        Some(v) => cmd.env(perfsyn_profiler_ipc::bind::BIND_ENV, v),
        None => cmd.env_remove(perfsyn_profiler_ipc::bind::BIND_ENV),
    };
    let mut child = cmd
        .spawn()
        .with_context(|| format!("cannot start the trace worker {}", binary.display()))?;
    let start = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait()? {
            break s;
        }
        if start.elapsed() > TRACE_DEADLINE {
            let _ = child.kill();
            let _ = child.wait();
            bail!(
                "the trace worker ran past {} s on {} programs",
                TRACE_DEADLINE.as_secs(),
                programs.len()
            );
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    if !status.success() {
        let mut err = String::new();
        if let Some(mut e) = child.stderr.take() {
            use std::io::Read;
            let _ = e.read_to_string(&mut err);
        }
        bail!(
            "the trace worker failed ({status}): {}",
            err.lines().last().unwrap_or("no message")
        );
    }
    let bytes = std::fs::read(&output).context("the trace worker wrote no trace")?;
    let mut traces: Vec<ReadTrace> = perfsyn_profiler_ipc::wire::decode(&bytes)
        .map_err(|e| anyhow::anyhow!("cannot read the trace worker's output: {e}"))?;
    if let Some(r) = &recovered {
        let by_marker = r.by_marker();
        for t in &mut traces {
            t.loops = shapes(r, &by_marker, t);
        }
    }
    if traces.len() != programs.len() {
        bail!(
            "the trace worker returned {} traces for {} programs",
            traces.len(),
            programs.len()
        );
    }
    Ok(traces)
}

/// The recovered loops whose markers `t` hit, with the loops around them (`by_marker`: the
/// loops of `r` by marker).
fn shapes(
    r: &Recovered,
    by_marker: &std::collections::HashMap<u64, usize>,
    t: &ReadTrace,
) -> Vec<LoopShape> {
    let mut wanted: std::collections::BTreeSet<usize> = std::collections::BTreeSet::new();
    for h in t.loop_hits.iter().flatten() {
        let mut at = by_marker.get(&h.pc).copied();
        while let Some(k) = at {
            if !wanted.insert(k) {
                break;
            }
            at = r.loops[k].parent;
        }
    }
    wanted
        .into_iter()
        .map(|k| {
            let l = &r.loops[k];
            LoopShape {
                marker: l.marker,
                header: l.header,
                parent: l.parent.map_or(0, |p| r.loops[p].marker),
            }
        })
        .collect()
}

/// The trace build beside the instrumented worker `binary`, built on first use; `None` for a
/// binary this process did not build (`--worker PATH`).
pub fn trace_binary(binary: &Path) -> Option<Result<PathBuf>> {
    crate::harness::worker_build::trace_twin(binary)
}
