//! The shared-memory protocol between the supervisor and a worker: region layout, header
//! fields and message framing. Both ends are built from this one file.
//!
//! Layout of a worker's region (a sealed memfd, inherited as fd [`REGION_FD`]):
//!
//! ```text
//! 0                 Header (atomics; host-written and worker-written fields on separate lines)
//! HEADER_SIZE       request area   (host writes, worker reads)   REQ_FRACTION of the rest
//! resp_off          response area  (worker writes, host reads)   the rest
//! ```
//!
//! The pool's doorbell (a [`Bell`](crate::shm::Bell) in its own small memfd, fd [`BELL_FD`])
//! is shared by all workers of a pool: a worker rings it when it finishes its handshake or a
//! request, and each worker's keeper thread rings it when the worker dies, so one supervisor
//! thread waits for all workers on one futex.
//!
//! A [`REQ_CONCURRENT`] request is one frame `[u32 len][bincode ConcurrentRun]` (a threaded
//! test, run in the worker; see [`crate::concurrent`]); the worker answers with one frame
//! `[u32 len][bincode ConcurrentFeedback]`, `done` = 1, and refreshes `start_ns` before every
//! repetition so that the deadline applies per repetition (a deadlock is a timeout).
//!
//! A [`REQ_RUN`] request is `count` frames `[u32 len][bincode Program]`; the worker answers with one
//! frame `[u32 len][bincode Feedback]` per program, appended as soon as that program ends,
//! and publishes their number in `done` (release). Everything before program `done` is
//! therefore safe even if the worker dies while running it. A message that does not fit its
//! area is an error, never a truncation; the worker caps the strings inside a feedback
//! record ([`MAX_TEXT`]) so that a record never exceeds [`MAX_RECORD`].

use std::sync::atomic::{AtomicU32, AtomicU64};

use crate::feedback::{Feedback, Outcome};

/// "PERFSYN1" in little-endian.
pub const MAGIC: u64 = u64::from_le_bytes(*b"PERFSYN1");
/// Bumped on every incompatible change of this file (3: the concurrent request; 4: fuel and
/// heap limits, `fuel_out`; 5: `want_hot` and the feedback's hot addresses; 6: `setup_reused`;
/// 7: `Feedback::heap_bytes`; 8: `idle_spin_ns`; 9: `thread_cpu`; 10: `Pattern::HashBelow` in
/// the programs a request carries; 11: `fuel` per request, `Feedback::fuel_spent`; 12:
/// `MethodSchema::kept` in the hello's schema; 13: `TypeSchema::origin` in it; 14:
/// `Literal::Text` in the programs a request carries).
pub const VERSION: u32 = 14;
/// The region's fd number in the worker.
pub const REGION_FD: i32 = 3;
/// The pool doorbell's fd number in the worker.
pub const BELL_FD: i32 = 4;
/// Bytes reserved for the header.
pub const HEADER_SIZE: usize = 4096;
/// Size of the doorbell memfd.
pub const BELL_SIZE: usize = 4096;
/// Where the doorbell memfd holds the table of setups the workers ran
/// ([`crate::seen::SeenTable`], zeroed at creation); a worker uses it when the page
/// is large enough.
pub const SEEN_OFFSET: usize = 64;
const _: () = assert!(
    SEEN_OFFSET + std::mem::size_of::<crate::seen::SeenTable>() <= BELL_SIZE
        && SEEN_OFFSET >= std::mem::size_of::<crate::shm::Bell>()
);
/// Longest panic message or crash detail a feedback record carries (longer ones are cut
/// with a marker: the text is target output, not protocol data).
pub const MAX_TEXT: usize = 1024;
/// Upper bound of one encoded feedback record, frame included.
pub const MAX_RECORD: usize = 2 * MAX_TEXT + 256;
/// Upper bound of a record of a request with `want_hot` set: [`crate::hot::HOT_MAX`]
/// addresses of at most 20 encoded bytes each more (ordinary requests keep their batches).
pub const MAX_HOT_RECORD: usize = MAX_RECORD + crate::hot::HOT_MAX * 20;
/// Smallest region the supervisor accepts.
pub const MIN_REGION: usize = HEADER_SIZE + 64 * 1024;

/// Request kinds (`Header::req_kind`).
pub const REQ_RUN: u32 = 1;
pub const REQ_SHUTDOWN: u32 = 2;
/// Run one concurrent test (a `ConcurrentRun`) for some repetitions.
pub const REQ_CONCURRENT: u32 = 3;

/// Worker states (`Header::state`).
pub const STATE_STARTING: u32 = 0;
/// Hello written (schema in the response area, `hello_bytes` long).
pub const STATE_READY: u32 = 1;
/// The worker rejected the region (bad magic or version); `error` says which.
pub const STATE_REJECTED: u32 = 2;

/// Worker error codes (`Header::error`).
pub const ERR_NONE: u32 = 0;
pub const ERR_BAD_MAGIC: u32 = 1;
pub const ERR_BAD_VERSION: u32 = 2;
pub const ERR_BAD_REQUEST: u32 = 3;
pub const ERR_RECORD_TOO_LARGE: u32 = 4;
pub const ERR_HELLO_TOO_LARGE: u32 = 5;

/// Fields the host writes before spawning the worker.
#[repr(C, align(64))]
#[derive(Debug)]
pub struct Fixed {
    pub magic: AtomicU64,
    pub version: AtomicU32,
    pub header_size: AtomicU32,
    pub region_size: AtomicU64,
    pub req_off: AtomicU64,
    pub req_cap: AtomicU64,
    pub resp_off: AtomicU64,
    pub resp_cap: AtomicU64,
    /// Heap bytes one program may hold (0: unlimited; the address-space limit still holds).
    pub heap_limit: AtomicU64,
    /// How long an idle worker spins for the next request before sleeping on the futex:
    /// [`IDLE_SPIN`] when the pool leaves a core free for the supervisor, else 0 (a worker
    /// spinning on the core the supervisor needs to post its next request only delays it).
    pub idle_spin_ns: AtomicU64,
    /// 1: time the calls under test in thread CPU time (`Cost::cpu_ns`); 0: report 0 and
    /// spare the two system calls per call (see `meter::set_thread_cpu`).
    pub thread_cpu: AtomicU32,
}

/// See [`Fixed::idle_spin_ns`]: a supervisor that feeds requests back to back answers well
/// within it.
pub const IDLE_SPIN: std::time::Duration = std::time::Duration::from_micros(50);

/// Fields the host writes per request.
#[repr(C, align(64))]
#[derive(Debug)]
pub struct ToWorker {
    /// Futex word: bumped once per request, after the request is written.
    pub req_seq: AtomicU32,
    /// Set by the worker while it sleeps on `req_seq`.
    pub worker_sleeping: AtomicU32,
    pub req_kind: AtomicU32,
    pub req_count: AtomicU32,
    pub req_bytes: AtomicU64,
    /// 1: the programs of this request report their hot addresses (`Feedback::hot`).
    pub want_hot: AtomicU32,
    /// Fuel of each program of this request: edges it may execute (0: unmetered). Per
    /// request, so that a search can cap it below the pool's (see `Pool::run_with_fuel`).
    pub fuel: AtomicU64,
}

/// Fields the worker writes.
#[repr(C, align(64))]
#[derive(Debug)]
pub struct FromWorker {
    pub state: AtomicU32,
    pub error: AtomicU32,
    pub hello_bytes: AtomicU32,
    /// Equal to `req_seq` once the request is complete.
    pub resp_seq: AtomicU32,
    /// Feedback records written for the current request (release).
    pub done: AtomicU32,
    /// Programs started in the current request; `started > done` while one runs.
    pub started: AtomicU32,
    /// `CLOCK_MONOTONIC` ns at which program `started - 1` began (written before `started`).
    pub start_ns: AtomicU64,
    /// Bytes of the response area in use.
    pub resp_bytes: AtomicU64,
    /// Set by the allocator's failure hook: the coming abort is an out-of-memory.
    pub oom: AtomicU32,
    /// Set when the worker asks to be replaced (its CPU-time budget is half used).
    pub retire: AtomicU32,
    pub pid: AtomicU32,
    /// Set by the worker just before it exits because the running program ran out of fuel:
    /// a deterministic timeout.
    pub fuel_out: AtomicU32,
    /// Programs of the current request served from a cached setup (a fork server's zygote,
    /// see `forkserver`).
    pub setup_reused: AtomicU32,
}

/// The header at offset 0 of a worker region.
#[repr(C)]
#[derive(Debug)]
pub struct Header {
    pub fixed: Fixed,
    pub to_worker: ToWorker,
    pub from_worker: FromWorker,
}

const _: () = assert!(std::mem::size_of::<Header>() <= HEADER_SIZE);

/// Offsets and capacities of the two areas of a region of `size` bytes.
pub fn areas(size: usize) -> (usize, usize, usize, usize) {
    let rest = size - HEADER_SIZE;
    // Programs are larger than feedback records on average, but a request of k programs
    // needs room for k records of up to MAX_RECORD: split evenly.
    let req_cap = (rest / 2) & !63;
    let resp_off = HEADER_SIZE + req_cap;
    (HEADER_SIZE, req_cap, resp_off, size - resp_off)
}

/// Cuts a target-provided text to [`MAX_TEXT`] bytes (on a char boundary).
pub fn cap_text(s: &mut String) {
    if s.len() > MAX_TEXT {
        let mut end = MAX_TEXT - 16;
        while !s.is_char_boundary(end) {
            end -= 1;
        }
        s.truncate(end);
        s.push_str("... (cut)");
    }
}

/// Caps the strings of a feedback record so that its encoding fits [`MAX_RECORD`].
#[inline]
pub fn cap_feedback(fb: &mut Feedback) {
    match &mut fb.outcome {
        Outcome::Panic { message, .. } => cap_text(message),
        Outcome::Invalid { reason } => cap_text(reason),
        Outcome::Crash { detail, .. } => cap_text(detail),
        Outcome::Ok | Outcome::Exited { .. } | Outcome::Timeout | Outcome::OutOfMemory => {}
    }
}

/// Caps the strings of a concurrent feedback record (see [`cap_feedback`]).
pub fn cap_concurrent(fb: &mut crate::concurrent::ConcurrentFeedback) {
    let mut f = Feedback::failed(std::mem::replace(&mut fb.outcome, Outcome::Ok));
    cap_feedback(&mut f);
    fb.outcome = f.outcome;
}

/// Writes one frame (`[u32 len][bytes]`) encoding `v` at `buf[0..]`; returns its length,
/// or `None` if it does not fit.
pub fn put_frame<T: serde::Serialize>(buf: &mut [u8], v: &T) -> Option<usize> {
    if buf.len() < 4 {
        return None;
    }
    let n = crate::wire::encode_into(v, &mut buf[4..]).ok()?;
    buf[..4].copy_from_slice(&(n as u32).to_le_bytes());
    Some(4 + n)
}

/// Writes one frame holding the program `p` (the same bytes as [`put_frame`], by the
/// engine's hand-written encoder, see [`crate::progwire`]); returns its length, or `None`
/// if it does not fit.
#[inline]
pub fn put_program(buf: &mut [u8], p: &crate::program::Program) -> Option<usize> {
    if buf.len() < 4 {
        return None;
    }
    let n = crate::progwire::encode_program(p, &mut buf[4..])?;
    buf[..4].copy_from_slice(&(n as u32).to_le_bytes());
    Some(4 + n)
}

/// Writes one frame holding the feedback record `fb` (the same bytes as [`put_frame`], by
/// the worker's fast encoder, see [`crate::fastwire`]); returns its length, or `None` if
/// it does not fit.
#[inline]
pub fn put_feedback(buf: &mut [u8], fb: &Feedback) -> Option<usize> {
    if buf.len() < 4 {
        return None;
    }
    let n = crate::fastwire::encode_feedback(fb, &mut buf[4..])?;
    crate::fastwire::put(buf, 0, (n as u32).to_le_bytes());
    Some(4 + n)
}

/// Reads the frame at `buf[0..]`: its payload and total length.
#[inline]
pub fn get_frame(buf: &[u8]) -> Option<(&[u8], usize)> {
    let len = u32::from_le_bytes(buf.get(..4)?.try_into().ok()?) as usize;
    let payload = buf.get(4..4 + len)?;
    Some((payload, 4 + len))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::feedback::Cost;

    #[test]
    fn a_capped_record_fits_max_record() {
        let mut fb = Feedback {
            outcome: Outcome::Crash {
                signal: 6,
                detail: "é".repeat(100_000),
            },
            cost: Cost {
                edges: u64::MAX,
                probe_ops: u64::MAX,
                bytes_moved: u64::MAX,
                allocs: u64::MAX,
                alloc_bytes: u64::MAX,
                cpu_ns: u64::MAX,
                wall_ns: u64::MAX,
            },
            input_size: u64::MAX,
            heap_bytes: u64::MAX,
            calls: u32::MAX,
            hot: Vec::new(),
            fuel_spent: u64::MAX,
        };
        cap_feedback(&mut fb);
        let mut buf = vec![0u8; MAX_RECORD];
        let n = put_frame(&mut buf, &fb).expect("fits");
        let (payload, used) = get_frame(&buf[..n]).unwrap();
        assert_eq!(used, n);
        let back: Feedback = crate::wire::decode(payload).unwrap();
        assert_eq!(back, fb);
    }

    #[test]
    fn frames_that_do_not_fit_are_refused() {
        let mut buf = vec![0u8; 8];
        assert!(put_frame(&mut buf, &"a long string".to_string()).is_none());
    }
}
