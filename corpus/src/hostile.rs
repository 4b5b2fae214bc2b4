//! Hostile targets, for testing the worker sandbox only: each method misbehaves on purpose in
//! one way a real target might (panic, abort, wild write, stack overflow, hang, huge
//! allocation, `exit`, flooding stdout, a child process that outlives it), draws
//! randomness from the operating system, as randomized structures do, or returns a result
//! whose drop is costly. The search never
//! benefits from exploring them; they exist so that tests can check that every such death is
//! classified and contained.

use std::hint::black_box;
use std::io::Write;

use perfsyn_profiler_ipc::register_type;

/// A target that harms the process it runs in, on request.
#[derive(Debug, Default)]
pub struct Hostile;

impl Hostile {
    /// A new hostile target (harmless until a method is called).
    pub fn new() -> Hostile {
        Hostile
    }

    /// Does nothing: the well-behaved neighbour of the others in a batch.
    pub fn noop(&self) {}

    /// Panics (unwinds).
    pub fn panic(&self) {
        panic!("hostile panic");
    }

    /// Aborts the process (SIGABRT).
    pub fn abort(&self) {
        std::process::abort();
    }

    /// Writes through a pointer into the never-mapped first page (SIGSEGV).
    pub fn null_write(&self) {
        let p = black_box(16usize) as *mut u64;
        // SAFETY: not safe at all, on purpose: the first page is never mapped, so this
        // faults instead of corrupting anything.
        unsafe { p.write_volatile(1) };
    }

    /// Recurses until the stack overflows.
    pub fn recurse_forever(&self) {
        black_box(recurse(black_box(0)));
    }

    /// Loops forever.
    pub fn spin_forever(&self) {
        loop {
            black_box(0u64);
        }
    }

    /// Allocates 64 GiB (without touching it): fails under the worker's address-space limit.
    pub fn alloc_64gib(&self) {
        let v: Vec<u8> = Vec::with_capacity(black_box(64usize << 30));
        black_box(&v);
    }

    /// Ends the process with status 0, as a library that calls `exit` would.
    pub fn exit0(&self) {
        std::process::exit(0);
    }

    /// Starts a process that outlives this one (it inherits stderr, as any child a library
    /// spawns does), then aborts: the abort must be reported as the crash it is, without
    /// waiting for the other process, and the other process must end with the worker.
    pub fn orphan_then_abort(&self) {
        let _ = std::process::Command::new("sleep")
            .arg("60")
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::null())
            .spawn();
        std::process::abort();
    }

    /// Writes 8 MiB to stdout.
    pub fn spam_stdout(&self) {
        let line = [b'x'; 1024];
        let mut out = std::io::stdout().lock();
        for _ in 0..8 * 1024 {
            if out.write_all(&line).is_err() {
                break;
            }
        }
        let _ = out.flush();
    }
}

impl Hostile {
    /// As many probe operations as the low 10 bits of a hash under a new std `RandomState`
    /// (seeded through `getrandom`, as std and `rand` 0.9 draw): a cost that follows the
    /// operating system's randomness unless the worker serves it (`entropy`).
    pub fn random_work(&self) -> u64 {
        use std::hash::BuildHasher;
        let d = std::collections::hash_map::RandomState::new().hash_one(0u64);
        work(d & 1023);
        d
    }

    /// The same with a draw through `syscall(SYS_getrandom)`, as `getrandom` 0.2 (under
    /// `rand` 0.8) makes it.
    pub fn random_work_syscall(&self) -> u64 {
        let mut b = [0u8; 8];
        // SAFETY: an 8-byte buffer for getrandom(2).
        let n = unsafe { libc::syscall(libc::SYS_getrandom, b.as_mut_ptr(), b.len(), 0) };
        assert_eq!(n, 8, "getrandom(2) failed");
        let d = u64::from_le_bytes(b);
        work(d & 1023);
        d
    }
}

/// A result whose drop does 1000 probe operations (see [`Hostile::slow_drop`]).
#[derive(Debug)]
pub struct SlowDrop;

impl Drop for SlowDrop {
    fn drop(&mut self) {
        work(1000);
    }
}

impl Hostile {
    /// Returns a value whose drop costs 1000 probe operations and the call none: the
    /// registration measures it both as a result a caller keeps (`{kept}`: the window ends
    /// before the drop) and as one dropped inside the call, as a `Drain` does its work.
    pub fn slow_drop(&self) -> SlowDrop {
        SlowDrop
    }
}

fn work(n: u64) {
    for _ in 0..n {
        perfsyn_profiler_ipc::probe::count_op();
        black_box(());
    }
}

fn recurse(n: u64) -> u64 {
    let frame = black_box([n; 32]);
    if black_box(n) == u64::MAX {
        return frame[1];
    }
    recurse(n + 1).wrapping_add(frame[7])
}

register_type! {
    /// A target that harms its process on request (sandbox tests only).
    pub fn hostile() -> Hostile {
        path: "Hostile", imports: ["perfsyn_corpus::hostile::Hostile"], version: None,
        size: [],
        ctors { new() => Hostile::new(); }
        methods {
            noop(ref self);
            panic(ref self);
            abort(ref self);
            null_write(ref self);
            recurse_forever(ref self);
            spin_forever(ref self);
            alloc_64gib(ref self);
            exit0(ref self);
            spam_stdout(ref self);
            orphan_then_abort(ref self);
            random_work(ref self) -> u64;
            random_work_syscall(ref self) -> u64;
            slow_drop(ref self);
            slow_drop_kept(ref self) {kept} as "{self}.slow_drop()" => |r| r.slow_drop();
        }
        fields {}
    }
}
