//! The worker's sandbox: what the child does between `fork` and `exec`, and how a dead
//! worker's end is read back as an [`Outcome`].
//!
//! In the child (async-signal-safe calls only): the region and doorbell fds are moved to
//! their fixed numbers, resource limits are set (address space, CPU time as a backstop to the
//! per-program deadline, no core dumps, few fds), the child gets its own process group (so a
//! kill reaches anything it forks) and dies with its parent (`PR_SET_PDEATHSIG`).
//! Every process the worker forks later (the fuel rescue's runners, the fork server's zygotes
//! and children) asks for that again with `die_with_parent`: a fork does not inherit it.

use std::os::fd::RawFd;
use std::time::Duration;

use rustix::process::{Resource, Rlimit, Signal};

use crate::feedback::Outcome;

/// The limits of one worker process.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// `RLIMIT_AS` in bytes (virtual memory: threads and malloc arenas count too).
    pub address_space: u64,
    /// `RLIMIT_CPU` soft limit in seconds (the hard limit is a few seconds more). A backstop
    /// only: deadlines are enforced per program by the supervisor, and a worker retires when
    /// half of this budget is used.
    pub cpu_seconds: u64,
    /// `RLIMIT_NOFILE`.
    pub open_files: u64,
}

impl Limits {
    /// Limits for a worker with the given address-space cap and per-program deadline.
    pub fn new(address_space: u64, deadline: Duration) -> Limits {
        Limits {
            address_space,
            cpu_seconds: cpu_backstop(deadline),
            open_files: 32,
        }
    }
}

/// Asks the kernel to kill this process when its parent dies: what the worker is set up to
/// do in [`in_child`], done again by every process forked from it (the fuel rescue's
/// runners, the fork server's zygotes and their children), as the setting is not inherited.
pub(crate) fn die_with_parent() {
    let _ = rustix::process::set_parent_process_death_signal(Some(Signal::KILL));
}

/// Moves `fd` to `target` so that it survives `exec`. When `fd` already is `target`, `dup2`
/// does nothing and would leave close-on-exec set, so the flag is cleared explicitly.
fn inherit(fd: RawFd, target: RawFd) -> std::io::Result<()> {
    // SAFETY: plain fd syscalls on fds we own; async-signal-safe.
    unsafe {
        if fd == target {
            let flags = libc::fcntl(fd, libc::F_GETFD);
            if flags < 0 || libc::fcntl(fd, libc::F_SETFD, flags & !libc::FD_CLOEXEC) < 0 {
                return Err(std::io::Error::last_os_error());
            }
        } else if libc::dup2(fd, target) < 0 {
            // dup2 clears close-on-exec on the new fd.
            return Err(std::io::Error::last_os_error());
        }
    }
    Ok(())
}

/// Runs in the child after `fork`, before `exec` (from `Command::pre_exec`).
///
/// `fds` are (inherited fd, number it must have in the worker), at most 8 pairs. `parent` is
/// the supervisor's pid, to catch the race where it died before `PR_SET_PDEATHSIG` was armed.
pub fn in_child(fds: &[(RawFd, RawFd)], limits: &Limits, parent: i32) -> std::io::Result<()> {
    // Two phases, so that a source that is another pair's target is not clobbered: first
    // copy every source above all targets (close-on-exec copies), then move them down.
    let above = fds.iter().map(|p| p.1).max().unwrap_or(0) + 1;
    let mut staged = [(-1, -1); 8];
    if fds.len() > staged.len() {
        return Err(std::io::Error::other("too many fds to inherit"));
    }
    for (k, &(fd, target)) in fds.iter().enumerate() {
        let fd = if fd < above {
            // SAFETY: fcntl on an fd we own; async-signal-safe.
            let c = unsafe { libc::fcntl(fd, libc::F_DUPFD_CLOEXEC, above) };
            if c < 0 {
                return Err(std::io::Error::last_os_error());
            }
            c
        } else {
            fd
        };
        staged[k] = (fd, target);
    }
    for &(fd, target) in &staged[..fds.len()] {
        inherit(fd, target)?;
    }
    rustix::process::setpgid(None, None)?;
    rustix::process::set_parent_process_death_signal(Some(Signal::KILL))?;
    if rustix::process::getppid().map(|p| p.as_raw_nonzero().get()) != Some(parent) {
        // The supervisor is already gone.
        // SAFETY: _exit is async-signal-safe.
        unsafe { libc::_exit(111) };
    }
    let set = |r: Resource, soft: u64, hard: u64| {
        rustix::process::setrlimit(
            r,
            Rlimit {
                current: Some(soft),
                maximum: Some(hard),
            },
        )
    };
    set(Resource::Core, 0, 0)?;
    set(Resource::As, limits.address_space, limits.address_space)?;
    set(
        Resource::Cpu,
        limits.cpu_seconds,
        limits.cpu_seconds.saturating_add(5),
    )?;
    set(Resource::Nofile, limits.open_files, limits.open_files)?;
    Ok(())
}

/// How a worker process ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Death {
    Exited(i32),
    Signaled(i32),
}

impl Death {
    /// From a std exit status.
    pub fn of(status: std::process::ExitStatus) -> Death {
        use std::os::unix::process::ExitStatusExt;
        match (status.code(), status.signal()) {
            (Some(c), _) => Death::Exited(c),
            (None, Some(s)) => Death::Signaled(s),
            (None, None) => Death::Signaled(0),
        }
    }
}

/// What the supervisor knows about a worker that died while running a program.
#[derive(Debug)]
pub struct Autopsy<'a> {
    pub death: Death,
    /// The supervisor killed it because the program ran past its deadline.
    pub timed_out: bool,
    /// The worker's allocator reported a failed allocation before dying.
    pub oom: bool,
    /// The tail of the worker's stderr.
    pub stderr_tail: &'a str,
}

/// The outcome of the program a worker was running when it died.
pub fn classify(a: &Autopsy<'_>) -> Outcome {
    if a.timed_out {
        return Outcome::Timeout;
    }
    let tail = a.stderr_tail;
    if a.oom || tail.contains("memory allocation of") {
        return Outcome::OutOfMemory;
    }
    match a.death {
        Death::Exited(code) => Outcome::Exited { code },
        Death::Signaled(sig) => {
            if sig == libc::SIGXCPU {
                // The CPU-time backstop.
                return Outcome::Timeout;
            }
            let detail = if tail.contains("has overflowed its stack") {
                "stack overflow".to_string()
            } else {
                let name = signal_name(sig);
                match last_line(tail) {
                    Some(l) => format!("{name}: {l}"),
                    None => name.to_string(),
                }
            };
            Outcome::Crash {
                signal: sig,
                detail,
            }
        }
    }
}

fn last_line(s: &str) -> Option<&str> {
    s.lines().rev().map(str::trim).find(|l| !l.is_empty())
}

/// A short name for a signal number.
pub fn signal_name(sig: i32) -> &'static str {
    match sig {
        libc::SIGABRT => "SIGABRT",
        libc::SIGSEGV => "SIGSEGV",
        libc::SIGBUS => "SIGBUS",
        libc::SIGILL => "SIGILL",
        libc::SIGFPE => "SIGFPE",
        libc::SIGKILL => "SIGKILL",
        libc::SIGTERM => "SIGTERM",
        libc::SIGXCPU => "SIGXCPU",
        libc::SIGTRAP => "SIGTRAP",
        libc::SIGPIPE => "SIGPIPE",
        _ => "signal",
    }
}

/// A bounded buffer keeping the last bytes written to it (a worker's stderr).
#[derive(Debug, Default)]
pub struct Tail {
    buf: Vec<u8>,
}

impl Tail {
    /// Bytes kept.
    pub const CAP: usize = 8192;

    /// Appends, dropping the oldest bytes past [`Tail::CAP`].
    pub fn push(&mut self, data: &[u8]) {
        self.buf.extend_from_slice(data);
        if self.buf.len() > Self::CAP {
            let cut = self.buf.len() - Self::CAP;
            self.buf.drain(..cut);
        }
    }

    /// The kept text (lossy UTF-8).
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.buf).into_owned()
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        self.buf.clear();
    }
}

/// Converts a deadline into whole CPU seconds for the backstop: generous, it only catches a
/// worker the supervisor somehow failed to kill.
pub fn cpu_backstop(deadline: Duration) -> u64 {
    (deadline.as_secs() * 60).clamp(600, 36_000)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn autopsy(death: Death, tail: &str) -> Outcome {
        classify(&Autopsy {
            death,
            timed_out: false,
            oom: false,
            stderr_tail: tail,
        })
    }

    #[test]
    fn deaths_are_classified_from_status_and_stderr() {
        assert_eq!(autopsy(Death::Exited(0), ""), Outcome::Exited { code: 0 });
        assert_eq!(
            autopsy(
                Death::Signaled(libc::SIGABRT),
                "\nthread 'main' has overflowed its stack\nfatal runtime error: stack overflow\n"
            ),
            Outcome::Crash {
                signal: libc::SIGABRT,
                detail: "stack overflow".into()
            }
        );
        assert_eq!(
            autopsy(
                Death::Signaled(libc::SIGABRT),
                "memory allocation of 68719476736 bytes failed\n"
            ),
            Outcome::OutOfMemory
        );
        assert!(matches!(
            autopsy(Death::Signaled(libc::SIGSEGV), ""),
            Outcome::Crash { signal, .. } if signal == libc::SIGSEGV
        ));
    }

    #[test]
    fn tail_keeps_the_last_bytes() {
        let mut t = Tail::default();
        t.push(&vec![b'a'; Tail::CAP]);
        t.push(b"end");
        assert_eq!(t.text().len(), Tail::CAP);
        assert!(t.text().ends_with("aend"));
    }
}
