//! A worker outlives a program that runs out of fuel on its fresh path.
//!
//! Why: fuel runs out inside target code, where the only sound way out is to end the process
//! (see `meter`, "Why the process exits instead of unwinding"). On the fresh path that ended
//! the worker, and the pool started a new one: exec, the dynamic loader, the registry, the
//! handshake. Measured with `perf record -e sched:sched_process_exec` on `explore --method
//! Vec::dedup --seed 3 --max-programs 300` (22 timeouts, 12 of them fresh): 9-10 ms of wall
//! time from one worker's exit to its successor's first program, with that worker's slot idle,
//! 12 times in a search phase of 460 ms on two workers.
//!
//! Here the worker process splits once, after its start-up and before its hello. The process
//! the supervisor started becomes a *warden* that never runs a program: it forks a *runner*,
//! which says hello and serves every request as the worker did. When the runner ends because
//! the program it was running ran out of fuel, the warden writes that program's record (the
//! timeout the supervisor writes after such a death), and forks a new runner from its own
//! unused state, the state a new worker has at its hello, which goes on with the batch's next
//! program. Results are those of a respawn: the new runner has no cached programs and no
//! zygotes, as a new worker has none, and a program's feedback does not depend on either.
//! Any other end of a runner (a crash, an abort, an exit, a kill) the warden passes on as its
//! own end, so that the supervisor sees what it saw when the runner was the worker: the same
//! exit code or signal, the same stderr (shared), the same flags in the region.
//!
//! Off with `PERFSYN_FUEL_RESCUE=0` (a pool's `fuel_rescue: false`): a timeout then costs
//! the worker, as before.

use std::sync::atomic::Ordering::*;

use crate::feedback::{Feedback, Outcome};
use crate::protocol::{self, FromWorker, ToWorker};

/// Environment variable that turns the rescue off in the worker (`0`).
pub const ENV: &str = "PERFSYN_FUEL_RESCUE";

/// Where a new runner takes over an interrupted request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Resume {
    /// The request's sequence number.
    pub seq: u32,
    /// The index of the request's first program not run yet.
    pub from: usize,
}

/// The parts of a worker's region a run request uses: the ones a runner serves it from and
/// the warden reads and writes after a fuel-out.
pub struct Region<'a> {
    pub input: &'a ToWorker,
    pub out: &'a FromWorker,
    /// The request area.
    pub req: &'a [u8],
    /// The response area.
    pub resp: &'a mut [u8],
}

/// Splits the worker into a warden and its runner, unless the rescue is off. Returns in the
/// runner only: `None` in the first (which says hello and waits for requests), `Some` in one
/// that takes over an interrupted request. Returns in this very process when the rescue is
/// off or a fork fails: the worker then runs programs itself.
pub fn split(mut region: Region<'_>) -> Option<Resume> {
    if std::env::var(ENV).is_ok_and(|v| v == "0") {
        return None;
    }
    let mut resume = None;
    loop {
        // SAFETY: the worker is single-threaded here (before its hello, or in the warden,
        // which runs nothing but this loop); the child returns into the worker's loop.
        let pid = unsafe { libc::fork() };
        if pid == 0 {
            crate::sandbox::die_with_parent();
            return resume;
        }
        if pid < 0 {
            // No runner: this process runs the programs itself from here on (a later
            // fuel-out then ends the worker, as without the rescue).
            return resume;
        }
        let status = wait(pid);
        resume = match after_fuel_out(status, &mut region) {
            Some(r) => Some(r),
            None => pass_on(status),
        };
    }
}

/// Writes the timeout record of the program a runner that ended with `status` was running, if
/// it ended because that program ran out of fuel in a run request; where the next runner
/// takes over, or `None` for any other end.
fn after_fuel_out(status: i32, region: &mut Region<'_>) -> Option<Resume> {
    let (input, out) = (region.input, region.out);
    let fuel_out = libc::WIFEXITED(status)
        && libc::WEXITSTATUS(status) == crate::meter::EXIT_OUT_OF_FUEL
        && out.fuel_out.load(SeqCst) != 0;
    let seq = input.req_seq.load(Acquire);
    if !fuel_out || input.req_kind.load(Relaxed) != protocol::REQ_RUN {
        return None;
    }
    if out.resp_seq.load(Acquire) == seq {
        return None;
    }
    let (started, done) = (
        out.started.load(Acquire) as usize,
        out.done.load(Acquire) as usize,
    );
    let count = input.req_count.load(Relaxed) as usize;
    if started != done + 1 || started > count {
        return None;
    }
    let written = out.resp_bytes.load(Relaxed) as usize;
    let fb = Feedback::failed(Outcome::Timeout);
    let n = protocol::put_feedback(region.resp.get_mut(written..)?, &fb)?;
    if crate::trace::on() {
        if let Some(p) = program(region.req, done) {
            crate::trace::program("fuel-out", &p, &fb, 0);
        }
    }
    out.resp_bytes.store((written + n) as u64, Relaxed);
    out.fuel_out.store(0, SeqCst);
    out.done.store(started as u32, Release);
    Some(Resume { seq, from: started })
}

/// Program `i` of a request, decoded (for the trace).
fn program(req: &[u8], i: usize) -> Option<crate::program::Program> {
    let mut at = 0;
    for _ in 0..i {
        at += protocol::get_frame(req.get(at..)?)?.1;
    }
    let (payload, _) = protocol::get_frame(req.get(at..)?)?;
    crate::wire::decode(payload).ok()
}

/// Waits for runner `pid`; its wait status.
fn wait(pid: i32) -> i32 {
    let mut status = 0;
    loop {
        // SAFETY: waits for our own child.
        let r = unsafe { libc::waitpid(pid, &mut status, 0) };
        if r == pid {
            return status;
        }
        if r < 0 && std::io::Error::last_os_error().kind() != std::io::ErrorKind::Interrupted {
            // Cannot happen for our own child; end as a crash would.
            exit(101);
        }
    }
}

/// Ends the warden as the runner ended: with its exit code, or by its signal.
fn pass_on(status: i32) -> ! {
    if libc::WIFSIGNALED(status) {
        let sig = libc::WTERMSIG(status);
        // SAFETY: resets the signal to its default action, unblocks it and raises it; the
        // process ends by it (every signal a process can die from ends it by default).
        unsafe {
            libc::signal(sig, libc::SIG_DFL);
            let mut set: libc::sigset_t = std::mem::zeroed();
            libc::sigemptyset(&mut set);
            libc::sigaddset(&mut set, sig);
            libc::sigprocmask(libc::SIG_UNBLOCK, &set, std::ptr::null_mut());
            libc::raise(sig);
        }
        exit(128 + sig);
    }
    exit(if libc::WIFEXITED(status) {
        libc::WEXITSTATUS(status)
    } else {
        101
    })
}

/// Ends the process at once: no destructors, no atexit handlers.
fn exit(code: i32) -> ! {
    // SAFETY: _exit ends the process; nothing runs after it.
    unsafe { libc::_exit(code) }
}
