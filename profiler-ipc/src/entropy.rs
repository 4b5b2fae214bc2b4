//! Randomness a target draws, made a function of the program: the same program costs the
//! same on every run, so a seed reproduces a search on crates that randomize.
//!
//! Why: skiplist 1.3 draws each node's level from `rand::rng()`, seeded by the operating
//! system; `explore --method OrderedSkipList::pop_last --seed 1` gave `inconclusive` on one
//! run and `no-bottleneck, O(1)` on the next, with best costs 4138 and 14. A type holding a
//! std `HashMap` (its `RandomState`) moves its probe sequences the same way.
//!
//! How, in the worker binary (see `worker_runtime!`):
//! - `getrandom` (the libc function std, `getrandom` 0.3 and `rand` 0.9 call) and `syscall`
//!   (which `getrandom` 0.2, under `rand` 0.8, calls with `SYS_getrandom`) are defined in
//!   the binary, ahead of libc's; they fill buffers from a fixed stream ([`fill`]) that
//!   restarts at every program ([`reset`]). Other system calls go to the kernel unchanged.
//! - Generators are seeded once per thread (`rand`'s `ThreadRng`, std's `RandomState` keys)
//!   and keep their state from one program to the next on the worker's thread. The first
//!   program that draws on a thread draws the stream's start, as on any fresh thread; once a
//!   program has drawn on the worker's own thread ([`tainted`]), every later program runs
//!   on a thread of its own, and setup reuse stops (a zygote forked from that thread would
//!   inherit its generators). A worker that never sees a draw pays nothing.
//!
//! Not covered: seeds from the clock or from addresses, `/dev/urandom` read as a file, and
//! process-wide generators seeded once (their value follows the first program that seeded
//! them in that worker).

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};

/// The stream's start (any constant: the worker's draws are a function of the program).
const SEED: u64 = 0x9e37_79b9_7f4a_7c15;

static STATE: AtomicU64 = AtomicU64::new(SEED);
static DRAWS: AtomicU64 = AtomicU64::new(0);
static TAINTED: AtomicBool = AtomicBool::new(false);

/// Restarts the stream: called before every program.
#[inline(always)]
pub fn reset() {
    STATE.store(SEED, Relaxed);
}

/// Requests for randomness over the process's life.
#[inline(always)]
pub fn draws() -> u64 {
    DRAWS.load(Relaxed)
}

/// Whether a program has drawn on the worker's own thread (see the module doc).
#[inline(always)]
pub fn tainted() -> bool {
    TAINTED.load(Relaxed)
}

/// Records that a program drew on the worker's own thread.
#[inline(always)]
pub fn taint() {
    TAINTED.store(true, Relaxed);
}

/// splitmix64's step.
fn next(s: &mut u64) -> u64 {
    *s = s.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *s;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Fills `len` bytes at `buf` from the stream; returns `len` (what `getrandom` returns).
/// Uninstrumented (a `__sanitizer_` symbol): a draw costs no edges of its own.
///
/// # Safety
/// `buf` must be valid for `len` bytes of writes.
#[export_name = "__sanitizer_perfsyn_entropy_fill"]
pub unsafe extern "C" fn fill(buf: *mut u8, len: usize, _flags: u32) -> isize {
    DRAWS.store(DRAWS.load(Relaxed) + 1, Relaxed);
    let mut s = STATE.load(Relaxed);
    let mut i = 0;
    while i < len {
        let word = next(&mut s).to_le_bytes();
        let n = (len - i).min(8);
        for (k, b) in word.iter().take(n).enumerate() {
            // SAFETY: i + k < len, within the caller's buffer.
            unsafe { buf.add(i + k).write_volatile(*b) };
        }
        i += n;
    }
    STATE.store(s, Relaxed);
    len as isize
}

/// `syscall(2)` as libc's: `SYS_getrandom` is served by [`fill`], every other call goes to
/// the kernel, with libc's convention (-1 and `errno` on failure). Called through the
/// binary's `syscall` symbol with its variadic arguments in the registers and stack slot a
/// six-argument call uses (the x86-64 calling convention passes both alike).
///
/// # Safety
/// As for `syscall(2)` with these arguments.
#[cfg(target_arch = "x86_64")]
#[export_name = "__sanitizer_perfsyn_syscall"]
pub unsafe extern "C" fn syscall(
    n: i64,
    a1: i64,
    a2: i64,
    a3: i64,
    a4: i64,
    a5: i64,
    a6: i64,
) -> i64 {
    if n == libc::SYS_getrandom {
        // SAFETY: the caller's getrandom contract.
        return unsafe { fill(a1 as *mut u8, a2 as usize, a3 as u32) } as i64;
    }
    let ret: i64;
    // SAFETY: a system call with the caller's arguments, as libc's `syscall` makes it.
    unsafe {
        std::arch::asm!(
            "syscall",
            inlateout("rax") n => ret,
            in("rdi") a1,
            in("rsi") a2,
            in("rdx") a3,
            in("r10") a4,
            in("r8") a5,
            in("r9") a6,
            lateout("rcx") _,
            lateout("r11") _,
            options(nostack),
        );
    }
    if (-4095..0).contains(&ret) {
        // SAFETY: errno is this thread's.
        unsafe { *libc::__errno_location() = (-ret) as i32 };
        return -1;
    }
    ret
}

/// Runs `f` on a thread of its own with the worker thread's stack size (8 MiB, glibc's
/// default for the main thread), so that thread-local generators start unseeded and a
/// target's recursion overflows at the same depth as on the worker's thread.
pub fn on_own_thread<R: Send>(f: impl FnOnce() -> R + Send) -> R {
    std::thread::scope(|s| {
        std::thread::Builder::new()
            .stack_size(8 << 20)
            .spawn_scoped(s, f)
            .map(|h| h.join())
    })
    .unwrap_or_else(|e| panic!("perfsyn-worker: cannot start a program's thread: {e}"))
    .unwrap_or_else(|p| std::panic::resume_unwind(p))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stream_restarts_at_every_program() {
        let draw = || {
            let mut b = [0u8; 13];
            // SAFETY: a real buffer.
            unsafe { fill(b.as_mut_ptr(), b.len(), 0) };
            b
        };
        reset();
        let (a, b) = (draw(), draw());
        assert_ne!(a, b);
        reset();
        assert_eq!(draw(), a);
        assert_eq!(draw(), b);
    }
}
