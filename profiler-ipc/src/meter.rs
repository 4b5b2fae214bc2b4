//! Process-wide cost counters and the runtime that feeds them in the worker.
//!
//! The counters are plain relaxed atomics written with load+store (no locked RMW): programs
//! run on one thread, and an edge hit must stay a single `add`. The sanitizer-coverage
//! callbacks, the counting `memcpy`/`memmove`/`memset` and the counting allocator are
//! expanded into the worker binary by [`worker_runtime!`](crate::worker_runtime), so that
//! nothing else (the engine, tests) has its memcpy interposed.
//!
//! # The uninstrumented runtime
//!
//! LLVM's SanitizerCoverage pass never instruments a function whose symbol starts with
//! `__sanitizer_` (the callbacks below rely on it not to recurse). The worker's own hot path
//! uses the same rule: the interpreter's statement loop and run wrapper, the request loop's
//! batch, the program cache's lookup and the feedback encoder are exported as
//! `__sanitizer_perfsyn_*` and kept out of line, so their blocks (and what is inlined into
//! them, this module's counter and clock reads among it) call no coverage callback. Why:
//! those blocks were about 420 of the 440 edges a small program's request executed, each a
//! call of about 15 instructions, and the snapshots around a call under test were
//! perfsyn's own edges inside the call's cost (and its hot lines). What they call out of
//! line stays instrumented: registered wrappers, target code, the counting allocator and
//! memcpy family; so a call's cost is its wrapper's and its target's edges, and fuel
//! counts the edges of that code only.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};

use crate::feedback::Cost;

/// Sanitizer-coverage guard hits, and the count past which the callback leaves its fast
/// path, side by side: the callback reads one address (one GOT load in the position
/// independent worker) and compares once.
#[repr(C)]
pub struct EdgeCounter {
    /// Guard hits over the process's life.
    pub count: AtomicU64,
    /// [`FUEL_END`] while no hot counts are taken, else 0 (every edge takes the slow path,
    /// which counts hits per guard): see [`retrip`].
    trip: AtomicU64,
}

/// Sanitizer-coverage guard hits (see [`EdgeCounter`]).
pub static EDGES: EdgeCounter = EdgeCounter {
    count: AtomicU64::new(0),
    trip: AtomicU64::new(u64::MAX),
};

/// Sets the trip point of the edge callback from [`FUEL_END`] and the hot counters: the
/// callback's fast path is one comparison with it.
#[inline(always)]
fn retrip() {
    let trip = if HOT.load(Relaxed).is_null() {
        FUEL_END.load(Relaxed)
    } else {
        0
    };
    EDGES.trip.store(trip, Relaxed);
}
/// Probe operations (comparisons, hashes, clones of probe types).
pub static PROBE_OPS: AtomicU64 = AtomicU64::new(0);
/// Bytes passed to memcpy, memmove, memset.
pub static BYTES_MOVED: AtomicU64 = AtomicU64::new(0);
/// Allocations (alloc, realloc, alloc_zeroed).
pub static ALLOCS: AtomicU64 = AtomicU64::new(0);
/// Bytes requested from the allocator.
pub static ALLOC_BYTES: AtomicU64 = AtomicU64::new(0);
/// Set when an allocation failed; the worker reports out-of-memory rather than a crash.
pub static ALLOC_FAILED: AtomicBool = AtomicBool::new(false);
/// Hook called with the size of a failed allocation (the worker records it in shared memory).
pub static OOM_HOOK: std::sync::OnceLock<fn(usize)> = std::sync::OnceLock::new();
/// Heap bytes currently allocated (allocations minus deallocations), for the heap limit.
pub static LIVE_BYTES: AtomicU64 = AtomicU64::new(0);
/// Largest number of live heap bytes a program may add to what was live when it started;
/// past it an allocation fails (out of memory). Counted by the allocator, so the limit is
/// the same on every machine, unlike an address-space limit. `u64::MAX` while disarmed.
pub static HEAP_LIMIT: AtomicU64 = AtomicU64::new(u64::MAX);
/// [`LIVE_BYTES`] when the running program started (the base of [`HEAP_LIMIT`]).
pub static HEAP_BASE: AtomicU64 = AtomicU64::new(0);
/// The value of [`EDGES`] past which the running program is out of fuel (`u64::MAX`: no
/// program is metered). See [`arm_fuel`].
pub static FUEL_END: AtomicU64 = AtomicU64::new(u64::MAX);
/// [`EDGES`] when the running program started, moved back by its bytes moved (see
/// [`FUEL_BYTES_PER_EDGE`])
/// and on by what a seam hook spent (which is not the program's): the program has spent
/// `EDGES - FUEL_BASE` of its fuel.
pub static FUEL_BASE: AtomicU64 = AtomicU64::new(0);
/// Bytes moved that cost one edge of fuel: about what libc copies in the time an edge of
/// interpreted, instrumented code takes (10^8 edges and some 6 GB a second). Not the
/// combined cost's 8: fuel bounds time, and 8 would stop byte-heavy programs (a vector
/// grown by `resize` in a loop) at an eighth of the time an edge-heavy one gets.
pub const FUEL_BYTES_PER_EDGE: u64 = 64;
/// Fuel charged for bytes moved over the process's life (see [`moved`]), for [`fuel_mark`].
pub static FUEL_MOVED: AtomicU64 = AtomicU64::new(0);
/// Called when the running program runs out of fuel, before the process exits (the worker
/// records it in shared memory so the supervisor reports a timeout).
pub static FUEL_HOOK: std::sync::OnceLock<fn()> = std::sync::OnceLock::new();
/// Exit status of a worker process that ended because its program ran out of fuel.
pub const EXIT_OUT_OF_FUEL: i32 = 86;

#[inline(always)]
fn bump(c: &AtomicU64, n: u64) {
    c.store(c.load(Relaxed).wrapping_add(n), Relaxed);
}

/// Counts one probe operation; called by the probe types' trait impls.
#[inline(always)]
pub fn probe_op() {
    bump(&PROBE_OPS, 1);
}

/// Counts one edge; called by the sanitizer-coverage callback. The same counter is the
/// program's fuel: past [`FUEL_END`] the program is stopped (see [`arm_fuel`]).
///
/// The fast path is an increment and one comparison with the trip point ([`retrip`]): the
/// callback runs on every edge of the target, about two fifths of a large setup's
/// instructions, and the fuel check and the hot counters' null check took two loads each.
///
/// # Safety
/// `guard` must be a guard numbered by [`number_guards`].
#[inline(always)]
pub unsafe fn edge(guard: *const u32) {
    let e = EDGES.count.load(Relaxed).wrapping_add(1);
    EDGES.count.store(e, Relaxed);
    if e > EDGES.trip.load(Relaxed) {
        // SAFETY: as for this function.
        unsafe { edge_slow(e, guard) };
    }
}

/// The edge callback past its trip point: out of fuel, or counting hits per guard.
/// Uninstrumented (a `__sanitizer_` symbol), so that it may be out of line.
///
/// # Safety
/// `guard` must be a guard numbered by [`number_guards`].
#[export_name = "__sanitizer_perfsyn_edge_slow"]
#[inline(never)]
#[cold]
pub unsafe extern "C" fn edge_slow(e: u64, guard: *const u32) {
    if e > FUEL_END.load(Relaxed) {
        // Disarm first: `out_of_fuel` is instrumented too, and its own edges must not
        // re-enter it.
        FUEL_END.store(u64::MAX, Relaxed);
        retrip();
        out_of_fuel();
    }
    // SAFETY: as for this function.
    unsafe { guard_hit(guard) };
}

/// Number of sanitizer-coverage guards numbered so far (see [`number_guards`]).
pub static GUARDS: AtomicU64 = AtomicU64::new(0);
/// Index of the first guard of the module whose guards were numbered last: LLVM's module
/// constructor calls the PC-table callback right after the guard one, and the table's
/// entries follow the guards' order (see [`crate::hot`]).
pub static LAST_MODULE_FIRST: AtomicU64 = AtomicU64::new(0);
/// Per-guard hit counters for the hot-lines sweep: null unless a program that asked for hot
/// counts is inside a call under test (see [`hot_prepare`], [`hot_resume`]).
///
/// Why a pointer checked on every edge rather than always-on counters: the hot-lines
/// sweep runs a handful of programs, while the search runs thousands per second; a null
/// check keeps the search's edge at one load more, and the array (one `u64` per guard)
/// exists only once a sweep asks for it.
static HOT: std::sync::atomic::AtomicPtr<AtomicU64> =
    std::sync::atomic::AtomicPtr::new(std::ptr::null_mut());
/// The counters of the running program when it asked for hot counts, else null; copied to
/// [`HOT`] during its calls under test.
static HOT_ARMED: std::sync::atomic::AtomicPtr<AtomicU64> =
    std::sync::atomic::AtomicPtr::new(std::ptr::null_mut());
/// The counter array, allocated on first use and kept (one per process).
static HOT_ALLOC: std::sync::atomic::AtomicPtr<AtomicU64> =
    std::sync::atomic::AtomicPtr::new(std::ptr::null_mut());
/// Whether the programs of the current request asked for hot counts (set by the worker).
static HOT_WANTED: AtomicBool = AtomicBool::new(false);
/// The last two guards hit while counting (value = index + 1). The counting `memcpy` family
/// is instrumented too, and counts its bytes first thing, when the last guard is its own
/// entry block's: the one before is the block that called it, which the bytes are charged
/// to (as edges, 8 bytes to one, as in `Cost::combined`). A quadratic `Vec::remove` loop
/// then shows on the line that calls `remove`, although its shifting runs in libc.
static HOT_LAST: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
static HOT_PREV: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
/// The return address of the running `memcpy`, `memmove` or `memset`, stored by the worker's
/// entry stubs for them (x86-64; 0 elsewhere). The block entered last is not always the one
/// that called: a `Vec::remove(0)` shifts its elements after calling `RawVec`'s accessors out
/// of line, whose blocks were entered last, so its bytes showed on a line of `raw_vec.rs`
/// instead of the `remove` call. With the return address they are charged to the call
/// itself ([`MOVES`]).
pub static MOVE_CALLER: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
/// Slots of [`MOVES`]: the call sites of the memcpy family one program's calls under test
/// use (more are charged by [`HOT_PREV`] as before).
pub const MOVE_SLOTS: usize = 256;
/// Bytes moved (as edges, see [`moved`]) per return address of the memcpy family while hot
/// counts are taken: pairs of (address, edges), open addressing, zeroed by [`hot_prepare`].
static MOVES: [AtomicU64; 2 * MOVE_SLOTS] = [const { AtomicU64::new(0) }; 2 * MOVE_SLOTS];

/// Adds `edges` to call site `pc` in [`MOVES`]; false when the table is full.
/// Uninstrumented (see the module doc), so that it counts no guard of its own.
#[export_name = "__sanitizer_perfsyn_record_move"]
#[inline(never)]
fn record_move(pc: usize, edges: u64) -> bool {
    let start = (pc as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) as usize % MOVE_SLOTS;
    for k in 0..MOVE_SLOTS {
        let i = (start + k) % MOVE_SLOTS;
        let key = MOVES[2 * i].load(Relaxed);
        if key == 0 {
            MOVES[2 * i].store(pc as u64, Relaxed);
        } else if key != pc as u64 {
            continue;
        }
        bump(&MOVES[2 * i + 1], edges);
        return true;
    }
    false
}

/// The bytes moved by the running program's calls under test per call site of the memcpy
/// family, as (return address, edges); empty unless it asked for hot counts.
pub fn hot_moves() -> Vec<(usize, u64)> {
    if HOT_ARMED.load(Relaxed).is_null() {
        return Vec::new();
    }
    (0..MOVE_SLOTS)
        .filter_map(|i| {
            let (pc, n) = (MOVES[2 * i].load(Relaxed), MOVES[2 * i + 1].load(Relaxed));
            (pc != 0 && n > 0).then_some((pc as usize, n))
        })
        .collect()
}

/// Numbers the guards in `[start, stop)` 1, 2, ... continuing across calls (one call per
/// instrumented module), so a guard's value is its index plus one. The callback runs for
/// every guard whatever its value, so fuel and [`EDGES`] are unaffected.
///
/// # Safety
/// `[start, stop)` must be the guard array LLVM passes to the init callback.
#[inline(always)]
pub unsafe fn number_guards(start: *mut u32, stop: *mut u32) {
    let mut p = start;
    // SAFETY: a non-empty guard array starts at `start`.
    if p < stop && unsafe { *p } != 0 {
        // Already numbered (LLVM zeroes guards; init may run twice per module).
        // SAFETY: as above.
        LAST_MODULE_FIRST.store(unsafe { *p } as u64 - 1, Relaxed);
        return;
    }
    LAST_MODULE_FIRST.store(GUARDS.load(Relaxed), Relaxed);
    while p < stop {
        let n = GUARDS.load(Relaxed) + 1;
        GUARDS.store(n, Relaxed);
        // SAFETY: the guard array lies between start and stop.
        unsafe { *p = n as u32 };
        p = p.wrapping_add(1);
    }
}

/// Counts one hit of `guard` while a program that asked for hot counts is in a call under
/// test; inlined into the callback because any function it called would itself be
/// instrumented and recurse.
///
/// # Safety
/// `guard` must be a guard numbered by [`number_guards`].
#[inline(always)]
pub unsafe fn guard_hit(guard: *const u32) {
    let hot = HOT.load(Relaxed);
    if hot.is_null() {
        return;
    }
    // SAFETY: the caller passes a numbered guard.
    let i = unsafe { *guard } as usize;
    if i == 0 || i as u64 > GUARDS.load(Relaxed) {
        return;
    }
    // SAFETY: `hot_prepare` allocated one counter per numbered guard, index i - 1 < GUARDS.
    bump(unsafe { &*hot.add(i - 1) }, 1);
    HOT_PREV.store(HOT_LAST.load(Relaxed), Relaxed);
    HOT_LAST.store(i, Relaxed);
}

/// Says whether the programs of the next request want hot counts (the worker sets it from
/// the request header); turning it off disarms the counters.
#[inline]
pub fn set_hot_wanted(on: bool) {
    HOT_WANTED.store(on, Relaxed);
    if !on {
        HOT_ARMED.store(std::ptr::null_mut(), Relaxed);
        HOT.store(std::ptr::null_mut(), Relaxed);
        retrip();
    }
}

/// Prepares the program that starts now: when hot counts are wanted, zeroes the counters
/// (allocating them the first time) and arms them for [`hot_resume`]. Returns whether hot
/// counts are wanted; when not, nothing is touched (the interpreter then never calls
/// [`hot_resume`]).
#[inline]
pub fn hot_prepare() -> bool {
    if !HOT_WANTED.load(Relaxed) {
        return false;
    }
    let n = GUARDS.load(Relaxed) as usize;
    let mut hot = HOT_ALLOC.load(Relaxed);
    if hot.is_null() {
        let counters: Box<[AtomicU64]> = (0..n).map(|_| AtomicU64::new(0)).collect();
        hot = Box::leak(counters).as_mut_ptr();
        HOT_ALLOC.store(hot, Relaxed);
    } else {
        for i in 0..n {
            // SAFETY: the array holds n counters (GUARDS is final once main runs).
            unsafe { &*hot.add(i) }.store(0, Relaxed);
        }
    }
    HOT_LAST.store(0, Relaxed);
    HOT_PREV.store(0, Relaxed);
    for m in &MOVES {
        m.store(0, Relaxed);
    }
    HOT_ARMED.store(hot, Relaxed);
    true
}

/// Starts counting hits per guard (before a call under test); a no-op unless the running
/// program asked for hot counts.
#[inline(always)]
pub fn hot_resume() {
    HOT.store(HOT_ARMED.load(Relaxed), Relaxed);
    retrip();
}

/// Stops counting hits per guard (after a call under test).
#[inline(always)]
pub fn hot_pause() {
    HOT.store(std::ptr::null_mut(), Relaxed);
    retrip();
}

/// The hits per guard of the running program's calls under test, as (guard index, hits)
/// for every guard hit at least once; empty unless it asked for hot counts.
pub fn hot_counts() -> Vec<(u32, u64)> {
    let hot = HOT_ARMED.load(Relaxed);
    if hot.is_null() {
        return Vec::new();
    }
    (0..GUARDS.load(Relaxed) as usize)
        .filter_map(|i| {
            // SAFETY: the array holds GUARDS counters.
            let h = unsafe { &*hot.add(i) }.load(Relaxed);
            (h > 0).then_some((i as u32, h))
        })
        .collect()
}

/// Gives the program that starts now `fuel` edges (setup, calls and the drop of its values
/// all count: the edges of the wrappers, target code and allocator the interpreter calls,
/// not the interpreter's own, which is uninstrumented) and `heap` bytes of heap beyond what
/// is live now.
///
/// Why the process exits instead of unwinding: the callback fires on any edge, inside
/// `nounwind` functions and in the middle of unsafe code whose invariants hold only at its
/// end (a `Vec` between `set_len` and the writes); unwinding from there is undefined
/// behavior, and `longjmp` would skip destructors. Ending the process is sound: the worker's
/// warden forks a new runner (see `rescue`), or without it the supervisor respawns the worker.
#[inline(always)]
pub fn arm_fuel(fuel: u64, heap: u64) {
    HEAP_BASE.store(LIVE_BYTES.load(Relaxed), Relaxed);
    HEAP_LIMIT.store(heap, Relaxed);
    let e = EDGES.count.load(Relaxed);
    FUEL_BASE.store(e, Relaxed);
    FUEL_END.store(e.saturating_add(fuel), Relaxed);
    retrip();
}

/// Gives the running program `fuel` edges from its start instead of what it was armed with
/// (a fork server's child, whose request has a fuel of its own): past them it is stopped at
/// its next edge, as a fresh run with that fuel would have been. `u64::MAX`: unmetered.
pub fn refuel(fuel: u64) {
    if fuel == u64::MAX {
        FUEL_END.store(u64::MAX, Relaxed);
        retrip();
        return;
    }
    // From what is left, not from FUEL_BASE: bytes moved may have taken the base below zero
    // (it only ever serves in differences).
    let e = EDGES.count.load(Relaxed);
    let left = fuel.saturating_sub(e.wrapping_sub(FUEL_BASE.load(Relaxed)));
    FUEL_END.store(e.saturating_add(left), Relaxed);
    retrip();
}

/// The fuel a fork server's child re-arms with once its seam has given back the hook's edges
/// ([`refuel_after_seam`]), and whether one is pending.
static DEFERRED_FUEL: AtomicU64 = AtomicU64::new(0);
static DEFERRED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Re-arms the running program with `fuel` (as [`refuel`]) at [`apply_deferred_refuel`], which
/// the interpreter calls at its seam after giving back the hook's edges.
///
/// Why not [`refuel`] at once: a fork server's child is forked inside the seam hook, whose
/// edges (the zygote's serving loop, for every child it served so far) are still charged to
/// the program until the seam gives them back. Counted from the program's start, they could
/// exceed what was left of its fuel, which `refuel` then saturated to nothing; the seam gave
/// the edges back, but the fuel end stayed short by the setup's cost. A child whose setup
/// was near its fuel timed out where a fresh run completed, so a search's timeouts depended
/// on which worker held which setup (`explore --method Vec::insert --seed 7 --max-programs
/// 3000`: 2076, 2048 and 2499 valid programs on one, two and two workers).
pub fn refuel_after_seam(fuel: u64) {
    DEFERRED_FUEL.store(fuel, Relaxed);
    DEFERRED.store(true, Relaxed);
}

/// Applies a pending [`refuel_after_seam`]; nothing when none is pending.
pub fn apply_deferred_refuel() {
    if DEFERRED.swap(false, Relaxed) {
        refuel(DEFERRED_FUEL.load(Relaxed));
    }
}

/// Stops the fuel check while keeping the running program's count (a zygote serving
/// children: its own edges between them are not any program's; each child re-arms with
/// [`refuel`]).
pub fn suspend_fuel() {
    FUEL_END.store(u64::MAX, Relaxed);
    retrip();
}

/// Gives back to the running program `edges` of fuel that were not its own (a seam hook's:
/// the difference of two [`fuel_mark`]s).
pub fn uncharge_edges(edges: u64) {
    FUEL_BASE.store(FUEL_BASE.load(Relaxed).wrapping_add(edges), Relaxed);
    let end = FUEL_END.load(Relaxed);
    if end != u64::MAX {
        FUEL_END.store(end.saturating_add(edges), Relaxed);
        retrip();
    }
}

/// Fuel counted over the process's life (edges, and bytes moved, see [`moved`]): the
/// difference of two marks is what ran between them (see [`uncharge_edges`]).
pub fn fuel_mark() -> u64 {
    EDGES
        .count
        .load(Relaxed)
        .wrapping_add(FUEL_MOVED.load(Relaxed))
}

/// Fuel the running program has spent so far: edges, and bytes moved (see [`moved`]).
pub fn fuel_spent() -> u64 {
    EDGES
        .count
        .load(Relaxed)
        .wrapping_sub(FUEL_BASE.load(Relaxed))
}

/// Heap bytes currently live, by the counting allocator (0 in a process without it).
#[inline(always)]
pub fn live_bytes() -> u64 {
    LIVE_BYTES.load(Relaxed)
}

/// Stops metering fuel and heap (between programs).
#[inline(always)]
pub fn disarm_fuel() {
    FUEL_END.store(u64::MAX, Relaxed);
    retrip();
    HEAP_LIMIT.store(u64::MAX, Relaxed);
}

#[cold]
#[inline(never)]
fn out_of_fuel() -> ! {
    if let Some(h) = FUEL_HOOK.get() {
        h();
    }
    // SAFETY: _exit ends the process at once; nothing runs after it.
    unsafe { libc::_exit(EXIT_OUT_OF_FUEL) }
}

/// Whether `size` more heap bytes fit the running program's heap limit.
#[inline(always)]
fn heap_allows(size: usize) -> bool {
    let limit = HEAP_LIMIT.load(Relaxed);
    limit == u64::MAX
        || LIVE_BYTES
            .load(Relaxed)
            .wrapping_sub(HEAP_BASE.load(Relaxed))
            .saturating_add(size as u64)
            <= limit
}

/// Counts `n` bytes moved; called by the counting memcpy family, first thing (see
/// [`guard_hit`] on how hot counts charge them to the caller's block).
#[inline(always)]
pub fn moved(n: usize) {
    bump(&BYTES_MOVED, n as u64);
    // Fuel counts bytes moved (libc's copy loops have no edges): a program copying gigabytes
    // runs out of fuel rather than into the wall-clock backstop. Branch-free, so that the
    // callers' edges stay those of a plain count.
    let w = n as u64 / FUEL_BYTES_PER_EDGE;
    bump(&FUEL_MOVED, w);
    FUEL_BASE.store(FUEL_BASE.load(Relaxed).wrapping_sub(w), Relaxed);
    let end = FUEL_END.load(Relaxed);
    FUEL_END.store(end.saturating_sub(w * u64::from(end != u64::MAX)), Relaxed);
    // The trip point follows (branch-free too): it is FUEL_END, or 0 that stays 0.
    let trip = EDGES.trip.load(Relaxed);
    EDGES.trip.store(
        trip.saturating_sub(w * u64::from(trip != u64::MAX)),
        Relaxed,
    );
    charge_move(n);
}

/// Charges `n` bytes moved to their call site while hot counts are taken: the memcpy family's
/// return address when its entry stub gave one ([`MOVES`]), else the block entered before
/// the copy's own ([`HOT_PREV`]). Uninstrumented (see the module doc) and called whether hot
/// counts are taken or not, so that no branch of the instrumented caller depends on them: a
/// call costs the same edges in a hot run as in any other (`worker_program_cache`).
#[export_name = "__sanitizer_perfsyn_charge_move"]
#[inline(never)]
fn charge_move(n: usize) {
    let hot = HOT.load(Relaxed);
    if hot.is_null() {
        return;
    }
    let edges = n as u64 / Cost::BYTES_PER_EDGE;
    let pc = MOVE_CALLER.load(Relaxed);
    if pc != 0 && record_move(pc, edges) {
        return;
    }
    let caller = HOT_PREV.load(Relaxed);
    if caller > 0 {
        // SAFETY: `guard_hit` stores only numbered guards, index caller - 1 < GUARDS, and
        // `hot` holds GUARDS counters.
        bump(unsafe { &*hot.add(caller - 1) }, edges);
    }
}

/// A snapshot of all counters and the thread's CPU clock, taken before a call under test:
/// the clocks first, the counters last. Inlined into the uninstrumented interpreter (see
/// the module doc), so that nothing runs between reading the counters and the call.
#[inline(always)]
pub fn snapshot_before() -> Cost {
    let cpu_ns = thread_cpu_ns();
    let wall_ns = monotonic_ns();
    Cost {
        cpu_ns,
        wall_ns,
        ..counters()
    }
}

/// A snapshot taken after a call under test: the counters first, then the clocks (see
/// [`snapshot_before`]).
#[inline(always)]
pub fn snapshot_after() -> Cost {
    let c = counters();
    Cost {
        cpu_ns: thread_cpu_ns(),
        wall_ns: monotonic_ns(),
        ..c
    }
}

/// Whether a call under test's window may end where its wrapper says the call returned
/// (see [`call_returned`]): [`RETURN_IDLE`], [`RETURN_ARMED`] or [`RETURN_TAKEN`].
static RETURN_STATE: std::sync::atomic::AtomicU8 = std::sync::atomic::AtomicU8::new(RETURN_IDLE);
const RETURN_IDLE: u8 = 0;
const RETURN_ARMED: u8 = 1;
const RETURN_TAKEN: u8 = 2;
/// The snapshot [`call_returned`] took ([`Cost::to_array`]).
static RETURNED: [AtomicU64; 7] = [const { AtomicU64::new(0) }; 7];

/// Lets the next call under test end its window early (see [`call_returned`]). The
/// interpreter calls it just before [`snapshot_before`], and [`returned_or`] right after
/// [`snapshot_after`].
#[inline(always)]
pub fn arm_return() {
    RETURN_STATE.store(RETURN_ARMED, Relaxed);
}

/// Ends the window of the call under test where its wrapper calls it: between the call's
/// return and the drop of a result the program does not keep.
///
/// Why: a registered method whose result is not a registered type (`update_lookup_with_key(self,
/// ..) -> (Option<V>, Self)`, `split_off(&mut self, at) -> Vec<T>`) has its result dropped
/// inside the wrapper. A caller keeps such a result; charging the call for dropping it made
/// a persistent map's O(log n) update look O(n) (dropping the whole new map). Registrations
/// mark the results whose drop is not the call's own work with `{kept}` (`perfsyn init`
/// does for owned results; a `Drain` or a `PeekMut` does its work when dropped and is not
/// marked); their wrappers call this before the drop. The snapshot is the one the
/// interpreter would take; hot counts pause with it; fuel still counts the drop.
/// Uninstrumented (see the module doc); a call outside a window does nothing.
#[export_name = "__sanitizer_perfsyn_call_returned"]
#[inline(never)]
pub fn call_returned() {
    if RETURN_STATE.load(Relaxed) != RETURN_ARMED {
        return;
    }
    let c = snapshot_after();
    hot_pause();
    for (slot, v) in RETURNED.iter().zip(c.to_array()) {
        slot.store(v, Relaxed);
    }
    RETURN_STATE.store(RETURN_TAKEN, Relaxed);
}

/// The end of the window of the call under test that just returned: where its wrapper
/// called [`call_returned`], else `after`. Disarms.
#[inline(always)]
pub fn returned_or(after: Cost) -> Cost {
    let state = RETURN_STATE.load(Relaxed);
    RETURN_STATE.store(RETURN_IDLE, Relaxed);
    if state != RETURN_TAKEN {
        return after;
    }
    let f = |i: usize| RETURNED[i].load(Relaxed);
    Cost::from_array([f(0), f(1), f(2), f(3), f(4), f(5), f(6)])
}

#[inline(always)]
fn counters() -> Cost {
    Cost {
        edges: EDGES.count.load(Relaxed),
        probe_ops: PROBE_OPS.load(Relaxed),
        bytes_moved: BYTES_MOVED.load(Relaxed),
        allocs: ALLOCS.load(Relaxed),
        alloc_bytes: ALLOC_BYTES.load(Relaxed),
        cpu_ns: 0,
        wall_ns: 0,
    }
}

/// The monotonic clock in nanoseconds.
#[inline(always)]
pub fn monotonic_ns() -> u64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime writes into the timespec we own.
    unsafe { libc::clock_gettime(libc::CLOCK_MONOTONIC, &mut ts) };
    ts.tv_sec as u64 * 1_000_000_000 + ts.tv_nsec as u64
}

/// The cost between two snapshots.
#[inline(always)]
pub fn delta(before: &Cost, after: &Cost) -> Cost {
    Cost {
        edges: after.edges.wrapping_sub(before.edges),
        probe_ops: after.probe_ops.wrapping_sub(before.probe_ops),
        bytes_moved: after.bytes_moved.wrapping_sub(before.bytes_moved),
        allocs: after.allocs.wrapping_sub(before.allocs),
        alloc_bytes: after.alloc_bytes.wrapping_sub(before.alloc_bytes),
        cpu_ns: after.cpu_ns.saturating_sub(before.cpu_ns),
        wall_ns: after.wall_ns.saturating_sub(before.wall_ns),
    }
}

/// The clock [`thread_cpu_ns`] reads: the thread CPU clock, or, while its figure is not
/// wanted, a clock the vDSO reads (see [`set_thread_cpu`]).
static CPU_CLOCK: std::sync::atomic::AtomicI32 =
    std::sync::atomic::AtomicI32::new(libc::CLOCK_THREAD_CPUTIME_ID);

/// Whether the calls under test are timed in thread CPU time (`Cost::cpu_ns`; on unless
/// turned off).
///
/// Why a switch: the thread CPU clock has no vDSO path, and on this project's VMs each read
/// is a system call of about 1.3 us, two per call under test, more than the rest of a small
/// program's round trip; the search decides on deterministic costs and rarely wants it.
/// Why a clock id rather than a branch around the read: the snapshots used to run inside the
/// measured window with their own edges, and both settings had to run the same instrumented
/// code, edge for edge (they are now uninstrumented and read the clocks outside it); the
/// libc call behind it is not instrumented.
/// The worker zeroes the figure of the other clock after the program, outside its fuel.
pub fn set_thread_cpu(on: bool) {
    let clock = if on {
        libc::CLOCK_THREAD_CPUTIME_ID
    } else {
        libc::CLOCK_MONOTONIC_COARSE
    };
    CPU_CLOCK.store(clock, Relaxed);
}

/// Whether [`thread_cpu_ns`] reads the thread CPU clock (see [`set_thread_cpu`]).
pub fn thread_cpu_on() -> bool {
    CPU_CLOCK.load(Relaxed) == libc::CLOCK_THREAD_CPUTIME_ID
}

/// CPU time of the calling thread in nanoseconds (another clock while
/// [`set_thread_cpu`] is off: callers then report 0).
#[inline(always)]
pub fn thread_cpu_ns() -> u64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime writes into the timespec we own.
    unsafe { libc::clock_gettime(CPU_CLOCK.load(Relaxed), &mut ts) };
    ts.tv_sec as u64 * 1_000_000_000 + ts.tv_nsec as u64
}

/// The system allocator, counting allocations and bytes.
#[derive(Debug)]
pub struct CountingAlloc;

// SAFETY: forwards every call to `System` unchanged; only counts.
unsafe impl GlobalAlloc for CountingAlloc {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        bump(&ALLOCS, 1);
        bump(&ALLOC_BYTES, layout.size() as u64);
        if !heap_allows(layout.size()) {
            failed(layout.size());
            return std::ptr::null_mut();
        }
        // SAFETY: same contract as ours.
        let p = unsafe { System.alloc(layout) };
        if p.is_null() {
            failed(layout.size());
        } else {
            bump(&LIVE_BYTES, layout.size() as u64);
        }
        p
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE_BYTES.store(
            LIVE_BYTES.load(Relaxed).wrapping_sub(layout.size() as u64),
            Relaxed,
        );
        // SAFETY: same contract as ours.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        bump(&ALLOCS, 1);
        bump(&ALLOC_BYTES, layout.size() as u64);
        if !heap_allows(layout.size()) {
            failed(layout.size());
            return std::ptr::null_mut();
        }
        // SAFETY: same contract as ours.
        let p = unsafe { System.alloc_zeroed(layout) };
        if p.is_null() {
            failed(layout.size());
        } else {
            bump(&LIVE_BYTES, layout.size() as u64);
        }
        p
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        bump(&ALLOCS, 1);
        bump(&ALLOC_BYTES, new_size as u64);
        if new_size > layout.size() && !heap_allows(new_size - layout.size()) {
            failed(new_size);
            return std::ptr::null_mut();
        }
        // SAFETY: same contract as ours.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if p.is_null() {
            failed(new_size);
        } else {
            LIVE_BYTES.store(
                LIVE_BYTES
                    .load(Relaxed)
                    .wrapping_add(new_size as u64)
                    .wrapping_sub(layout.size() as u64),
                Relaxed,
            );
        }
        p
    }
}

/// `Box::new(v)` for the uninstrumented interpreter's own values (its literals): in the
/// worker, the counting allocator's accounting and its `System` allocation inlined into the
/// caller, so that a literal costs no instrumented call (`Box::new`'s out-of-line
/// `box_new_uninit`, `__rust_alloc`, [`CountingAlloc::alloc`]: about a tenth of a setup
/// loop's worker time, all of it charged to the program's fuel).
///
/// The same allocation as `Box::new`'s: the worker's global allocator is always
/// [`CountingAlloc`] (`worker_runtime!`), which forwards to `System`, so the box is freed by
/// it like any other, and the counters ([`LIVE_BYTES`], the heap limit, an allocation that
/// fails) move exactly as they did. Elsewhere (tests, the engine, whose global allocator may
/// be another) it is `Box::new`.
#[inline(always)]
pub fn boxed<T>(v: T) -> Box<T> {
    #[cfg(perfsyn_worker)]
    {
        let layout = Layout::new::<T>();
        if layout.size() != 0 {
            bump(&ALLOCS, 1);
            bump(&ALLOC_BYTES, layout.size() as u64);
            let p = if heap_allows(layout.size()) {
                // SAFETY: the layout's size is not zero.
                unsafe { System.alloc(layout) }
            } else {
                std::ptr::null_mut()
            };
            if p.is_null() {
                failed(layout.size());
                std::alloc::handle_alloc_error(layout);
            }
            bump(&LIVE_BYTES, layout.size() as u64);
            let p = p.cast::<T>();
            // SAFETY: `p` is a fresh allocation of `T`'s layout by the allocator behind the
            // global one (see above), written before the box owns it.
            unsafe {
                p.write(v);
                return Box::from_raw(p);
            }
        }
    }
    Box::new(v)
}

/// Drops a boxed value the uninstrumented interpreter owns, as dropping the box does: the
/// value's own drop (target code, instrumented as ever), then, in the worker, the counting
/// allocator's free inlined (see [`boxed`]) rather than through `__rust_dealloc` and
/// [`CountingAlloc::dealloc`], instrumented calls charged to the program's fuel. The memory
/// is freed also when the value's drop panics, as the box's drop glue does.
#[inline(always)]
pub fn drop_boxed(b: Box<dyn std::any::Any>) {
    #[cfg(perfsyn_worker)]
    {
        /// Frees the box's memory when dropped (also while unwinding).
        struct Free(*mut u8, Layout);
        impl Drop for Free {
            #[inline(always)]
            fn drop(&mut self) {
                if self.1.size() != 0 {
                    LIVE_BYTES.store(
                        LIVE_BYTES.load(Relaxed).wrapping_sub(self.1.size() as u64),
                        Relaxed,
                    );
                    // SAFETY: allocated by `System` with this layout (see `boxed`), once.
                    unsafe { System.dealloc(self.0, self.1) }
                }
            }
        }
        let layout = Layout::for_value(&*b);
        let p = Box::into_raw(b);
        let _free = Free(p.cast::<u8>(), layout);
        // SAFETY: `p` came from a box, which no longer owns it; dropped once.
        unsafe { std::ptr::drop_in_place(p) };
        return;
    }
    #[allow(unreachable_code)]
    drop(b)
}

fn failed(size: usize) {
    ALLOC_FAILED.store(true, Relaxed);
    if let Some(h) = OOM_HOOK.get() {
        h(size);
    }
}

/// Resolves libc's implementation of a memory function, behind our interposed one.
///
/// # Safety
/// `name` must be a NUL-terminated symbol name.
#[doc(hidden)]
pub unsafe fn next_symbol(name: &[u8]) -> usize {
    // SAFETY: dlsym with RTLD_NEXT and a NUL-terminated name.
    unsafe { libc::dlsym(libc::RTLD_NEXT, name.as_ptr() as *const libc::c_char) as usize }
}

/// Expands, in the worker binary, the runtime that feeds the counters: the
/// sanitizer-coverage `trace-pc-guard` callbacks, `memcpy`/`memmove`/`memset` that count
/// bytes and forward to libc through `dlsym(RTLD_NEXT)`, the counting global allocator, and
/// `getrandom`/`syscall`, which serve randomness from the program's stream (`entropy`).
///
/// The callbacks' names start with `__sanitizer_`, which LLVM never instruments, so they do
/// not recurse. While libc's symbol is being resolved, a byte loop through volatile accesses
/// (which LLVM cannot turn back into a memcpy call) does the copy.
#[macro_export]
macro_rules! worker_runtime {
    () => {
        #[global_allocator]
        static PERFSYN_ALLOC: $crate::meter::CountingAlloc = $crate::meter::CountingAlloc;

        /// # Safety
        /// Called by LLVM's module constructor with the module's guard array.
        #[no_mangle]
        pub unsafe extern "C" fn __sanitizer_cov_trace_pc_guard_init(
            start: *mut u32,
            stop: *mut u32,
        ) {
            // SAFETY: LLVM passes the module's guard array.
            unsafe { $crate::meter::number_guards(start, stop) };
        }

        /// # Safety
        /// Called by the instrumented code with one of the guards numbered above. (The trace
        /// build has its own, in `activations`.)
        #[cfg(not(perfsyn_trace))]
        #[no_mangle]
        pub unsafe extern "C" fn __sanitizer_cov_trace_pc_guard(guard: *mut u32) {
            // SAFETY: LLVM passes a guard numbered by the init callback.
            unsafe { $crate::meter::edge(guard) };
        }

        /// # Safety
        /// Called by LLVM's module constructor with the module's PC table.
        #[no_mangle]
        pub unsafe extern "C" fn __sanitizer_cov_pcs_init(beg: *const usize, end: *const usize) {
            // SAFETY: LLVM passes the module's PC table, right after its guards' init.
            unsafe { $crate::hot::record_pcs(beg, end) };
            #[cfg(perfsyn_trace)]
            // SAFETY: as above.
            unsafe {
                $crate::activations::mark_entries(beg, end)
            };
        }

        // Randomness drawn through `getrandom` or `syscall(SYS_getrandom)` comes from the
        // program's own stream (see `entropy`). Jumps written in assembly, so that the two
        // symbols carry no coverage guard: the functions they reach are `__sanitizer_` ones.
        #[cfg(target_arch = "x86_64")]
        ::core::arch::global_asm!(
            ".text",
            ".globl getrandom",
            ".type getrandom,@function",
            "getrandom:",
            "jmp {fill}",
            ".size getrandom, .-getrandom",
            ".globl syscall",
            ".type syscall,@function",
            "syscall:",
            "jmp {sys}",
            ".size syscall, .-syscall",
            fill = sym $crate::entropy::fill,
            sys = sym $crate::entropy::syscall,
        );

        // The memcpy family's entry stubs: each stores its return address for the hot
        // lines (`meter::MOVE_CALLER`), then jumps to the counting function of the same
        // name below. `rax` is free at a call's entry (it carries no argument of these).
        #[cfg(target_arch = "x86_64")]
        ::core::arch::global_asm!(
            ".text",
            ".globl memcpy",
            ".type memcpy,@function",
            "memcpy:",
            "mov rax, qword ptr [rsp]",
            "mov qword ptr [rip + {caller}], rax",
            "jmp {cpy}",
            ".size memcpy, .-memcpy",
            ".globl memmove",
            ".type memmove,@function",
            "memmove:",
            "mov rax, qword ptr [rsp]",
            "mov qword ptr [rip + {caller}], rax",
            "jmp {mov}",
            ".size memmove, .-memmove",
            ".globl memset",
            ".type memset,@function",
            "memset:",
            "mov rax, qword ptr [rsp]",
            "mov qword ptr [rip + {caller}], rax",
            "jmp {set}",
            ".size memset, .-memset",
            caller = sym $crate::meter::MOVE_CALLER,
            cpy = sym perfsyn_mem::memcpy,
            mov = sym perfsyn_mem::memmove,
            set = sym perfsyn_mem::memset,
        );

        mod perfsyn_mem {
            use std::sync::atomic::{AtomicUsize, Ordering};
            static MEMCPY: AtomicUsize = AtomicUsize::new(0);
            static MEMMOVE: AtomicUsize = AtomicUsize::new(0);
            static MEMSET: AtomicUsize = AtomicUsize::new(0);
            static RESOLVING: AtomicUsize = AtomicUsize::new(0);

            type CopyFn = unsafe extern "C" fn(*mut u8, *const u8, usize) -> *mut u8;
            type SetFn = unsafe extern "C" fn(*mut u8, i32, usize) -> *mut u8;

            fn resolve(cache: &AtomicUsize, name: &[u8]) -> usize {
                let f = cache.load(Ordering::Relaxed);
                if f != 0 {
                    return f;
                }
                if RESOLVING.swap(1, Ordering::Acquire) == 1 {
                    return 0;
                }
                // SAFETY: NUL-terminated name.
                let f = unsafe { $crate::meter::next_symbol(name) };
                cache.store(f, Ordering::Relaxed);
                RESOLVING.store(0, Ordering::Release);
                f
            }

            unsafe fn slow_move(d: *mut u8, s: *const u8, n: usize) {
                if (d as usize) <= (s as usize) {
                    for i in 0..n {
                        // SAFETY: caller's memmove contract.
                        unsafe { d.add(i).write_volatile(s.add(i).read_volatile()) };
                    }
                } else {
                    for i in (0..n).rev() {
                        // SAFETY: caller's memmove contract.
                        unsafe { d.add(i).write_volatile(s.add(i).read_volatile()) };
                    }
                }
            }

            #[cfg_attr(not(target_arch = "x86_64"), no_mangle)]
            pub unsafe extern "C" fn memcpy(d: *mut u8, s: *const u8, n: usize) -> *mut u8 {
                $crate::meter::moved(n);
                let f = resolve(&MEMCPY, b"memcpy\0");
                if f == 0 {
                    // SAFETY: memcpy contract.
                    unsafe { slow_move(d, s, n) };
                    return d;
                }
                // SAFETY: f is libc's memcpy.
                let r = unsafe { std::mem::transmute::<usize, CopyFn>(f)(d, s, n) };
                #[cfg(perfsyn_trace)]
                // SAFETY: both ranges were just copied.
                unsafe {
                    $crate::activations::copied(d, s, n)
                };
                r
            }

            #[cfg_attr(not(target_arch = "x86_64"), no_mangle)]
            pub unsafe extern "C" fn memmove(d: *mut u8, s: *const u8, n: usize) -> *mut u8 {
                $crate::meter::moved(n);
                let f = resolve(&MEMMOVE, b"memmove\0");
                if f == 0 {
                    // SAFETY: memmove contract.
                    unsafe { slow_move(d, s, n) };
                    return d;
                }
                // SAFETY: f is libc's memmove.
                let r = unsafe { std::mem::transmute::<usize, CopyFn>(f)(d, s, n) };
                #[cfg(perfsyn_trace)]
                // SAFETY: both ranges were just copied.
                unsafe {
                    $crate::activations::copied(d, s, n)
                };
                r
            }

            #[cfg_attr(not(target_arch = "x86_64"), no_mangle)]
            pub unsafe extern "C" fn memset(d: *mut u8, c: i32, n: usize) -> *mut u8 {
                $crate::meter::moved(n);
                let f = resolve(&MEMSET, b"memset\0");
                if f == 0 {
                    for i in 0..n {
                        // SAFETY: memset contract.
                        unsafe { d.add(i).write_volatile(c as u8) };
                    }
                    return d;
                }
                // SAFETY: f is libc's memset.
                let r = unsafe { std::mem::transmute::<usize, SetFn>(f)(d, c, n) };
                #[cfg(perfsyn_trace)]
                // SAFETY: the range was just set.
                unsafe {
                    $crate::activations::copied(d, std::ptr::null(), n)
                };
                r
            }
        }
    };
}

#[cfg(test)]
mod hot_tests {
    use super::*;

    /// Guards are numbered from one, only hits while a wanting program is inside a call are
    /// counted, and the next program starts from zero.
    #[test]
    fn per_guard_counts_follow_arming() {
        let mut guards = [0u32; 3];
        let range = guards.as_mut_ptr_range();
        // SAFETY: a real array standing for a module's guards.
        unsafe { number_guards(range.start, range.end) };
        let base = guards[0];
        assert_eq!([guards[1], guards[2]], [base + 1, base + 2]);
        assert_eq!(LAST_MODULE_FIRST.load(Relaxed), base as u64 - 1);
        set_hot_wanted(true);
        assert!(hot_prepare());
        // SAFETY: numbered above.
        unsafe { guard_hit(&guards[1]) }; // armed but outside a call: not counted
        hot_resume();
        for _ in 0..5 {
            unsafe { guard_hit(&guards[1]) };
        }
        unsafe { guard_hit(&guards[2]) };
        // A memmove of 80 bytes called from guards[2]'s block, entering at guards[0]'s.
        unsafe { guard_hit(&guards[0]) };
        moved(80);
        // Where the entry stubs gave the return address, the bytes go to that call site.
        MOVE_CALLER.store(0x1234, Relaxed);
        moved(160);
        moved(8);
        MOVE_CALLER.store(0, Relaxed);
        hot_pause();
        assert_eq!(hot_moves(), vec![(0x1234, 21)]);
        unsafe { guard_hit(&guards[2]) }; // after the call: not counted
        let counts = hot_counts();
        assert_eq!(
            counts,
            vec![(guards[0] - 1, 1), (guards[1] - 1, 5), (guards[2] - 1, 11)],
            "guard index = value - 1; the 80 bytes count 10 on the caller's block"
        );
        assert!(hot_prepare());
        assert!(hot_counts().is_empty());
        assert!(hot_moves().is_empty());
        set_hot_wanted(false);
        assert!(!hot_prepare());
        hot_resume();
        unsafe { guard_hit(&guards[1]) };
        hot_pause();
        assert!(hot_counts().is_empty(), "disarmed: nothing is counted");
    }
}
