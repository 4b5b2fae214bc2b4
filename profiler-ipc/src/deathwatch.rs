//! Waiting for a worker's own death while keeping its stderr tail.
//!
//! Why: the keeper thread used to read the worker's stderr until end of file and only then
//! wait for the process. End of file comes when *every* holder of the pipe's write end has
//! closed it, and whatever the worker forks inherits it: its zygotes and their children,
//! and any process the target code spawns. A worker that died (a crash, or running out of
//! fuel, on purpose) while a target-spawned process lived on was noticed only at the
//! deadline's kill of its process group, 10 s or more later, with the slot's core idle.
//! (The zygotes exit within a millisecond of the worker, on their socket's end: on seeded
//! explores the change made no measurable difference, `perf record -e sched:*`.)
//!
//! Here the process itself is watched through a pidfd (`pidfd_open`, Linux 5.3), polled
//! together with the pipe: the tail is read as it comes, and once the process has exited,
//! what it wrote before is drained without blocking and the watch ends, whoever else still
//! holds the pipe. Without pidfds (an older kernel) it falls back to reading until end of
//! file, the old behaviour.

use std::io::Read;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};

/// Reads `err` (the process's stderr) into `sink` until process `pid` has exited (it is then
/// a zombie, not reaped), then drains what is left in the pipe without waiting for other
/// writers. Returns whether a pidfd watched the process (else the pipe was read to its end
/// and the caller must still wait for the process).
pub fn watch(
    pid: i32,
    err: Option<&mut std::process::ChildStderr>,
    sink: &mut dyn FnMut(&[u8]),
) -> bool {
    // SAFETY: pidfd_open takes a pid and flags and returns a new fd or -1.
    let raw = unsafe { libc::syscall(libc::SYS_pidfd_open, pid, 0) };
    if raw < 0 {
        if let Some(err) = err {
            read_to_end(err, sink);
        }
        return false;
    }
    // SAFETY: the syscall returned a new fd that nothing else owns.
    let pidfd = unsafe { OwnedFd::from_raw_fd(raw as i32) };
    let Some(err) = err else {
        wait_readable(&[pidfd.as_raw_fd()]);
        return true;
    };
    let mut buf = [0u8; 4096];
    let mut open = true;
    loop {
        let fds = if open {
            vec![pidfd.as_raw_fd(), err.as_raw_fd()]
        } else {
            vec![pidfd.as_raw_fd()]
        };
        let ready = wait_readable(&fds);
        if open && ready.get(1) == Some(&true) {
            match err.read(&mut buf) {
                Ok(0) | Err(_) => open = false,
                Ok(n) => sink(&buf[..n]),
            }
        }
        if ready.first() == Some(&true) {
            break;
        }
    }
    if open {
        drain(err, sink, &mut buf);
    }
    true
}

/// Polls `fds` for input until one is ready; per fd, whether it is (readable, closed or in
/// error). Retries on `EINTR`.
fn wait_readable(fds: &[i32]) -> Vec<bool> {
    let mut p: Vec<libc::pollfd> = fds
        .iter()
        .map(|&fd| libc::pollfd {
            fd,
            events: libc::POLLIN,
            revents: 0,
        })
        .collect();
    loop {
        // SAFETY: `p` is a valid array of `p.len()` pollfds.
        let n = unsafe { libc::poll(p.as_mut_ptr(), p.len() as libc::nfds_t, -1) };
        if n > 0 {
            return p.iter().map(|x| x.revents != 0).collect();
        }
        if n < 0 && std::io::Error::last_os_error().kind() != std::io::ErrorKind::Interrupted {
            // Nothing sensible to wait on: report everything ready, the caller stops.
            return vec![true; p.len()];
        }
    }
}

/// Reads what the pipe holds now, without waiting for writers that are still alive.
fn drain(err: &mut std::process::ChildStderr, sink: &mut dyn FnMut(&[u8]), buf: &mut [u8]) {
    let fd = err.as_raw_fd();
    // SAFETY: fcntl on an fd we own.
    unsafe {
        let fl = libc::fcntl(fd, libc::F_GETFL);
        if fl < 0 || libc::fcntl(fd, libc::F_SETFL, fl | libc::O_NONBLOCK) < 0 {
            return;
        }
    }
    loop {
        match err.read(buf) {
            Ok(0) => return,
            Ok(n) => sink(&buf[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(_) => return, // WouldBlock: nothing more written yet
        }
    }
}

fn read_to_end(err: &mut std::process::ChildStderr, sink: &mut dyn FnMut(&[u8])) {
    let mut buf = [0u8; 4096];
    loop {
        match err.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => sink(&buf[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(_) => break,
        }
    }
}

#[cfg(test)]
mod tests {
    use std::process::{Command, Stdio};

    /// A process that exits while a background child of its own still holds its stderr: the
    /// watch ends at the process's exit with what it wrote, not at the child's.
    #[test]
    fn the_watch_ends_when_the_process_exits_not_when_its_stderr_closes() {
        let mut child = Command::new("sh")
            .args(["-c", "sleep 120 & echo $! >&2; echo bye >&2; exit 3"])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut err = child.stderr.take().unwrap();
        let mut text = Vec::new();
        let watched = super::watch(child.id() as i32, Some(&mut err), &mut |b| {
            text.extend_from_slice(b)
        });
        let text = String::from_utf8(text).unwrap();
        let sleeper: i32 = text.lines().next().unwrap().trim().parse().unwrap();
        // The background sleep still holds the pipe: a read to end of file would still block.
        // SAFETY: signal 0 only checks that the process exists.
        let alive = unsafe { libc::kill(sleeper, 0) } == 0;
        // SAFETY: killing the test's own background process.
        unsafe { libc::kill(sleeper, libc::SIGKILL) };
        assert!(watched, "this kernel has pidfd_open");
        assert!(alive, "the watch waited for the background child");
        assert!(text.contains("bye"), "{text:?}");
        assert_eq!(child.wait().unwrap().code(), Some(3));
    }
}
