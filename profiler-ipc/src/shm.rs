//! Shared memory between the engine and a worker: a sealed memfd mapped by both processes,
//! and shared (not process-private) futex wake-ups with a short spin first.
//!
//! A [`Region`] is created by the supervisor, sized once and sealed (so it can never shrink
//! under the other side's mapping: no SIGBUS), handed to the worker as an inherited fd, and
//! mapped with `MmapRaw` by both. Its layout (a [`crate::protocol::Header`] of atomics, then a
//! request area and a response area) is defined in [`crate::protocol`].

use std::fs::File;
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::sync::atomic::{AtomicU32, Ordering::SeqCst};
use std::time::{Duration, Instant};

use memmap2::{MmapOptions, MmapRaw};
use rustix::fs::{MemfdFlags, SealFlags};
use rustix::thread::futex;

/// A shared mapping of a sealed memfd.
#[derive(Debug)]
pub struct Region {
    fd: OwnedFd,
    map: MmapRaw,
}

// SAFETY: the mapping is plain shared memory; every access that can race goes through
// atomics or through areas whose ownership the protocol hands over with acquire/release.
unsafe impl Send for Region {}
// SAFETY: as above.
unsafe impl Sync for Region {}

impl Region {
    /// Creates a zeroed region of `size` bytes, sealed against resizing, close-on-exec.
    pub fn create(name: &str, size: usize) -> std::io::Result<Region> {
        let fd = rustix::fs::memfd_create(name, MemfdFlags::CLOEXEC | MemfdFlags::ALLOW_SEALING)?;
        rustix::fs::ftruncate(&fd, size as u64)?;
        rustix::fs::fcntl_add_seals(&fd, SealFlags::SHRINK | SealFlags::GROW | SealFlags::SEAL)?;
        Region::map(fd)
    }

    /// Maps an inherited region (worker side); its size is the file's size.
    pub fn map(fd: OwnedFd) -> std::io::Result<Region> {
        let file = File::from(fd);
        let len = file.metadata()?.len() as usize;
        let map = MmapOptions::new().len(len).map_raw(&file)?;
        Ok(Region {
            fd: file.into(),
            map,
        })
    }

    /// The region's fd (to hand to a child).
    pub fn fd(&self) -> BorrowedFd<'_> {
        self.fd.as_fd()
    }

    /// Size in bytes.
    pub fn len(&self) -> usize {
        self.map.len()
    }

    /// Whether the region is empty (never, for a region the protocol accepts).
    pub fn is_empty(&self) -> bool {
        self.map.len() == 0
    }

    /// Base address of the mapping.
    pub fn base(&self) -> *mut u8 {
        self.map.as_mut_ptr()
    }

    /// A `T` at `offset`, which must be in bounds and aligned (checked).
    ///
    /// `T` must be valid for any bit pattern and only have interior mutability (atomics).
    pub fn at<T>(&self, offset: usize) -> &T {
        assert!(
            offset + std::mem::size_of::<T>() <= self.len(),
            "region too small"
        );
        let p = self.base().wrapping_add(offset);
        assert_eq!(p as usize % std::mem::align_of::<T>(), 0, "misaligned");
        // SAFETY: in bounds and aligned (checked); the mapping lives as long as `self`; the
        // callers only place atomics here, valid for any bit pattern (zeroed at creation).
        unsafe { &*(p as *const T) }
    }

    /// Copies `len` bytes at `offset` out of the region.
    pub fn read(&self, offset: usize, len: usize) -> Vec<u8> {
        assert!(offset.checked_add(len).is_some_and(|e| e <= self.len()));
        let mut v = vec![0u8; len];
        // SAFETY: in bounds (checked); the protocol guarantees the writer is done with them.
        unsafe { std::ptr::copy_nonoverlapping(self.base().add(offset), v.as_mut_ptr(), len) };
        v
    }

    /// A mutable view of `len` bytes at `offset`.
    ///
    /// # Safety
    /// The protocol must give this side exclusive use of those bytes for the view's lifetime.
    #[allow(clippy::mut_from_ref)]
    #[inline]
    pub unsafe fn bytes_mut(&self, offset: usize, len: usize) -> &mut [u8] {
        assert!(offset.checked_add(len).is_some_and(|e| e <= self.len()));
        // SAFETY: in bounds (checked); exclusivity is the caller's contract.
        unsafe { std::slice::from_raw_parts_mut(self.base().add(offset), len) }
    }

    /// A shared view of `len` bytes at `offset`.
    ///
    /// # Safety
    /// The protocol must guarantee that nobody writes those bytes during the view's lifetime.
    #[inline]
    pub unsafe fn bytes(&self, offset: usize, len: usize) -> &[u8] {
        assert!(offset.checked_add(len).is_some_and(|e| e <= self.len()));
        // SAFETY: in bounds (checked); no writer is the caller's contract.
        unsafe { std::slice::from_raw_parts(self.base().add(offset), len) }
    }
}

/// Wakes every waiter of `word` in any process (a shared futex: the word lives in a
/// `MAP_SHARED` mapping, so the kernel keys it by file and offset).
pub fn wake(word: &AtomicU32) {
    let _ = futex::wake(word, futex::Flags::empty(), i32::MAX as u32);
}

/// Blocks while `word == expected`, at most `timeout` (forever if `None`). Returns early on a
/// wake-up, a changed value or a signal; callers re-check their condition.
pub fn wait(word: &AtomicU32, expected: u32, timeout: Option<Duration>) {
    let ts = timeout.map(|d| rustix::time::Timespec {
        tv_sec: d.as_secs() as i64,
        tv_nsec: d.subsec_nanos() as _,
    });
    let _ = futex::wait(word, futex::Flags::empty(), expected, ts.as_ref());
}

/// Spins up to `budget` until `word != seen`; returns whether it changed. Spinning a few
/// microseconds catches most replies without a sleep (a futex wake of an idle vCPU costs
/// about 10 us here, a caught spin about 0.5 us). Uninstrumented in the worker (see `meter`,
/// "The uninstrumented runtime"): each turn of the loop was an edge.
#[export_name = "__sanitizer_perfsyn_shm_spin_until_changed"]
#[inline(never)]
///
/// The clock is first read after [`SPIN_TURNS`] turns: most replies come before, and a
/// read of the clock (about 33 ns here) was a tenth of a round trip's waiting.
pub fn spin_until_changed(word: &AtomicU32, seen: u32, budget: Duration) -> bool {
    // The loop is written out rather than calling `spin_turns`: in the worker this function
    // must hold no instrumented code.
    let mut start = None;
    loop {
        for _ in 0..SPIN_TURNS {
            if word.load(SeqCst) != seen {
                return true;
            }
            std::hint::spin_loop();
        }
        let t = *start.get_or_insert_with(Instant::now);
        if t.elapsed() >= budget {
            return word.load(SeqCst) != seen;
        }
    }
}

/// Turns of [`spin_turns`].
pub const SPIN_TURNS: u32 = 64;

/// Spins [`SPIN_TURNS`] turns, reading no clock, until `word != seen`; returns whether it
/// changed. For the engine (instrumented in the worker, where nothing calls it).
pub fn spin_turns(word: &AtomicU32, seen: u32) -> bool {
    for _ in 0..SPIN_TURNS {
        if word.load(SeqCst) != seen {
            return true;
        }
        std::hint::spin_loop();
    }
    false
}

/// A doorbell: a futex word that notifiers bump, and a flag telling them whether the
/// listener sleeps (so that a notifier makes a syscall only when someone waits).
#[repr(C)]
#[derive(Debug)]
pub struct Bell {
    pub seq: AtomicU32,
    pub sleeping: AtomicU32,
}

impl Bell {
    /// Rings: bumps the sequence and wakes the listener if it sleeps.
    #[inline]
    pub fn ring(&self) {
        self.seq.fetch_add(1, SeqCst);
        if self.sleeping.load(SeqCst) != 0 {
            wake(&self.seq);
        }
    }

    /// The current sequence, to pass to [`Bell::wait_past`] after checking conditions.
    pub fn seen(&self) -> u32 {
        self.seq.load(SeqCst)
    }

    /// Waits until the sequence moves past `seen`: spins `spin` first, then sleeps on the
    /// futex at most `timeout`.
    pub fn wait_past(&self, seen: u32, spin: Duration, timeout: Option<Duration>) {
        if spin_until_changed(&self.seq, seen, spin) {
            return;
        }
        self.sleeping.store(1, SeqCst);
        if self.seq.load(SeqCst) == seen {
            wait(&self.seq, seen, timeout);
        }
        self.sleeping.store(0, SeqCst);
    }
}

/// Nanoseconds of `CLOCK_MONOTONIC`, the same clock in every process.
///
/// Through libc rather than rustix: rustix reads the vDSO itself and faults under valgrind,
/// which does not map it, so the worker and the engine could not be profiled with callgrind
/// (the instruction counts behind the round-trip figures of `perfsyn bench ipc`).
#[inline(always)]
pub fn monotonic_ns() -> u64 {
    crate::meter::monotonic_ns()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn region_is_sealed_and_zeroed() {
        let r = Region::create("perfsyn-test", 1 << 16).unwrap();
        assert_eq!(r.len(), 1 << 16);
        assert!(r.read(0, 1 << 16).iter().all(|&b| b == 0));
        // A sealed memfd refuses to shrink.
        assert!(rustix::fs::ftruncate(r.fd(), 0).is_err());
    }

    #[test]
    fn bell_wakes_a_sleeping_thread() {
        let r = std::sync::Arc::new(Region::create("perfsyn-test", 4096).unwrap());
        let bell: &Bell = r.at(0);
        let seen = bell.seen();
        let r2 = r.clone();
        let t = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(20));
            r2.at::<Bell>(0).ring();
        });
        let start = Instant::now();
        while bell.seen() == seen && start.elapsed() < Duration::from_secs(10) {
            bell.wait_past(
                seen,
                Duration::from_micros(5),
                Some(Duration::from_secs(10)),
            );
        }
        assert_ne!(bell.seen(), seen);
        t.join().unwrap();
    }
}
