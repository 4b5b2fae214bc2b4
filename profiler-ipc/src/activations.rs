//! Function activations on the trace build, worker side: the event stream from which the
//! engine rebuilds every activation of the calls under test, its input and its output
//! (MemoizeIt, `../shared/seeds/003_…`, chapter 2; the engine's `judge/oracle/memoize.rs`).
//!
//! The trace build (`harness/worker_build.rs`, `TRACE_FLAGS`) adds to the read callbacks of
//! `readtrace`:
//! - `trace-pc-guard` at level 3 with the PC table: a callback on every edge, counted (the
//!   cost of an activation, as edges are the search's cost), and an event when the guard's
//!   PC-table entry carries LLVM's function-entry flag. The event keeps the entry's PC (the
//!   function), the frame pointer (the activation: frames below it are its callees', and an
//!   event from a frame at or above it means it returned) and the function's return address
//!   (its caller's line).
//! - `trace-stores`: an event per store; the value is read back at the next callback (the
//!   store callback runs before the store). A store is an activation's output.
//! - `trace-compares`: the operands of integer comparisons and switches. Why: arguments in
//!   registers are never loaded, so a helper taking an integer would show the same (empty)
//!   input on every call; the values its code compares are what it depends on, and they
//!   repeat exactly when its input does (the code is deterministic).
//! - every load, from `readtrace::record`.
//! - the worker's `memcpy`, `memmove` and `memset` (precompiled std copies through them): a
//!   load of the source's bytes and a store of the destination's, each as one hashed value.
//! - returns: the entry callback replaces the function's return address with a trampoline
//!   that records `rax` (its result, when it returns one in a register) and jumps back (a
//!   shadow stack keeps the real addresses; a panic hook puts them back before unwinding,
//!   and the read recorder's call-stack walk reads them through [`original_return`]). Why:
//!   a result in a register is the only output of a pure helper, and without it a helper
//!   of an integer argument (never loaded) looks the same on every call.
//!
//! Stack accesses are kept only above the accessing frame (in its callers' frames: an
//! argument passed by reference, a result returned through a pointer); the engine counts
//! them for an activation only when they lie above that activation's frame.
//!
//! Bounded: at most [`EVENT_CAP`] events per program; past it the trace is cut and says so.
//! In every other build the hooks are empty.

use serde::{Deserialize, Serialize};

/// Most events recorded per program run.
pub const EVENT_CAP: usize = 1 << 20;

/// Most function entries and loop-marker hits kept per program run for Toddler's inner loops
/// (`readtrace`).
pub const ENTERED_CAP: usize = 1 << 19;

/// The call site an entry of the `ENTERED` buffer carries when it is a hit of a loop marker
/// ([`mark_loops`]), not a function entry; its PC is then the marker's guard address.
pub const LOOP_SITE: u64 = u64::MAX;

/// What an event is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[repr(u8)]
pub enum Kind {
    /// A call under test starts.
    Call = 0,
    /// A function entry: `a` its PC, `b` its return address.
    Entry = 1,
    /// A load: `a` the address, `b` the value.
    Load = 2,
    /// A store: `a` the address, `b` the value stored.
    Store = 3,
    /// A comparison: `a`, `b` its operands.
    Cmp = 4,
    /// The activation whose frame pointer is `fp` returns `a` (`rax`).
    Return = 5,
}

/// One event, from the frame whose frame pointer is `fp`, after `edges` edges of the program.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Event {
    pub kind: Kind,
    /// The access is to the stack (loads and stores).
    pub stack: bool,
    pub fp: u64,
    pub a: u64,
    pub b: u64,
    pub edges: u64,
    /// Bytes written by a store (a copy's length, saturated); 0 for other events. Why: the
    /// engine tells a read of a temporary this iteration wrote from a read of data it did
    /// not (`judge/oracle/toddler_memory.rs`).
    #[serde(default)]
    pub len: u32,
    /// The instruction (return address of its callback; for a copy, of the `memcpy` call),
    /// so the engine can leave out perfsyn's runtime (its allocation counters).
    pub pc: u64,
}

/// What one program's calls under test did, as events.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ActivationTrace {
    pub events: Vec<Event>,
    /// Cut at [`EVENT_CAP`] events.
    pub capped: bool,
    /// Range of the non-stack addresses accessed (values in between are addresses).
    pub heap_lo: u64,
    pub heap_hi: u64,
    /// Range of the stack accessed (values in between are addresses of the stack).
    pub stack_lo: u64,
    pub stack_hi: u64,
}

#[cfg(perfsyn_trace)]
pub use imp::{
    begin, copied, end, load, mark_entries, mark_loops, original_return, take, take_entered,
};

/// Marks loop markers (a no-op outside the trace build).
///
/// # Safety
/// Nothing is read outside the trace build.
#[cfg(not(perfsyn_trace))]
pub unsafe fn mark_loops(_guards: &[u64]) {}

/// Starts recording a call under test (a no-op outside the trace build).
#[cfg(not(perfsyn_trace))]
#[inline(always)]
pub fn begin(_sp: u64, _top: u64) {}

/// Stops recording (a no-op outside the trace build).
#[cfg(not(perfsyn_trace))]
#[inline(always)]
pub fn end() {}

/// The events since the last `take` (empty outside the trace build).
#[cfg(not(perfsyn_trace))]
pub fn take() -> ActivationTrace {
    ActivationTrace::default()
}

#[cfg(perfsyn_trace)]
mod imp {
    use super::*;
    use std::ptr::{addr_of, addr_of_mut};

    const ZERO: Event = Event {
        kind: Kind::Call,
        stack: false,
        fp: 0,
        a: 0,
        b: 0,
        edges: 0,
        len: 0,
        pc: 0,
    };
    static mut EVENTS: [Event; EVENT_CAP] = [ZERO; EVENT_CAP];
    /// Hijacked returns, innermost last: (address of the return-address slot, original).
    const SHADOW_CAP: usize = 1 << 14;
    static mut SHADOW: [(u64, u64); SHADOW_CAP] = [(0, 0); SHADOW_CAP];
    static mut SHADOW_LEN: usize = 0;
    static HOOKED: std::sync::Once = std::sync::Once::new();
    /// One bit per guard index: the guard's block is a function entry.
    const ENTRY_WORDS: usize = 1 << 16;
    static mut ENTRIES: [u64; ENTRY_WORDS] = [0; ENTRY_WORDS];
    /// One bit per guard index: the guard's block marks the iterations of a loop recovered
    /// from the binary (the engine's `harness/loop_headers.rs`).
    static mut LOOPS: [u64; ENTRY_WORDS] = [0; ENTRY_WORDS];

    /// Function entries: (entry guard PC, call site or 0 when inlined, frame pointer, events
    /// recorded before it).
    static mut ENTERED: [(u64, u64, u64, u32); ENTERED_CAP] = [(0, 0, 0, 0); ENTERED_CAP];
    static mut ENTERED_LEN: usize = 0;
    static mut ENTERED_CUT: bool = false;

    /// Keeps a function entry (see `ENTERED`).
    #[inline(always)]
    fn entered(pc: u64, site: u64, fp: u64, events: usize) {
        // SAFETY: single-threaded, like the interpreter.
        unsafe {
            let n = &mut *addr_of_mut!(ENTERED_LEN);
            if *n >= ENTERED_CAP {
                *addr_of_mut!(ENTERED_CUT) = true;
                return;
            }
            (*addr_of_mut!(ENTERED))[*n] = (pc, site, fp, events as u32);
            *n += 1;
        }
    }

    /// The function entries since the last call, whether some were cut, and resets them.
    pub fn take_entered() -> (Vec<(u64, u64, u64, u32)>, bool) {
        // SAFETY: called between programs, disarmed.
        unsafe {
            let n = *addr_of!(ENTERED_LEN);
            let out = (&*addr_of!(ENTERED))[..n].to_vec();
            let cut = *addr_of!(ENTERED_CUT);
            *addr_of_mut!(ENTERED_LEN) = 0;
            *addr_of_mut!(ENTERED_CUT) = false;
            (out, cut)
        }
    }

    struct State {
        armed: bool,
        len: usize,
        capped: bool,
        edges: u64,
        /// The stack: `[low, top + ABOVE_TOP)`.
        top: u64,
        /// A store whose value is still to be read: (event index + 1, address, size).
        pending: (usize, u64, u64),
        heap_lo: u64,
        heap_hi: u64,
        stack_lo: u64,
    }

    static mut STATE: State = State {
        armed: false,
        len: 0,
        capped: false,
        edges: 0,
        top: 0,
        pending: (0, 0, 0),
        heap_lo: u64::MAX,
        heap_hi: 0,
        stack_lo: u64::MAX,
    };

    /// Stack bytes above the recorded top still counted as stack (the interpreter's frames).
    const ABOVE_TOP: u64 = 1 << 20;
    /// Stack bytes below the deepest frame still counted as stack (red zone, callbacks).
    const BELOW: u64 = 1 << 16;

    /// Marks the function entries of the module whose guards were numbered last, from its PC
    /// table (pairs of words: PC, flags; flag 1 is a function entry).
    ///
    /// # Safety
    /// `beg..end` must be the module's PC table.
    pub unsafe fn mark_entries(beg: *const usize, end: *const usize) {
        let first = crate::meter::LAST_MODULE_FIRST.load(std::sync::atomic::Ordering::Relaxed);
        // SAFETY: both pointers delimit one table; single-threaded module constructors.
        unsafe {
            let words = end.offset_from(beg).max(0) as usize;
            let bits = &mut *addr_of_mut!(ENTRIES);
            for i in 0..words / 2 {
                if *beg.add(2 * i + 1) & 1 != 0 {
                    let g = first as usize + i;
                    if g / 64 < ENTRY_WORDS {
                        bits[g / 64] |= 1 << (g % 64);
                    }
                }
            }
        }
    }

    /// Marks the guards at the link-time addresses `guards` (the engine's loop markers), so
    /// that their hits are recorded as loop iterations during a call under test. Called
    /// before any program runs, after the guards were numbered.
    ///
    /// # Safety
    /// Each address must be a guard variable of this binary.
    pub unsafe fn mark_loops(guards: &[u64]) {
        let bias = crate::hot::load_bias() as u64;
        // SAFETY: single-threaded, before the recorder is armed; the caller passes guards.
        unsafe {
            let bits = &mut *addr_of_mut!(LOOPS);
            for &g in guards {
                let n = *(g.wrapping_add(bias) as *const u32) as usize;
                let i = n.wrapping_sub(1);
                if n > 0 && i / 64 < ENTRY_WORDS {
                    bits[i / 64] |= 1 << (i % 64);
                }
            }
        }
    }

    /// The trampoline's address.
    #[inline(always)]
    fn tramp_addr() -> u64 {
        trampoline as *const () as usize as u64
    }

    /// Puts every hijacked return address back (before a panic unwinds through them).
    /// Uninstrumented, like every function of the recorder (a `__sanitizer_` name).
    #[export_name = "__sanitizer_perfsyn_act_restore_returns"]
    #[inline(never)]
    extern "C" fn restore_returns() {
        // SAFETY: single-threaded; each slot was a live return-address slot when hijacked,
        // and is still one while its function has not returned.
        unsafe {
            let shadow = &*addr_of!(SHADOW);
            let len = *addr_of!(SHADOW_LEN);
            for &(slot, orig) in shadow[..len].iter().rev() {
                if *(slot as *const u64) == tramp_addr() {
                    *(slot as *mut u64) = orig;
                }
            }
            *addr_of_mut!(SHADOW_LEN) = 0;
        }
    }

    /// The real return address of the frame whose return-address slot is `slot` and holds
    /// `ret` (`ret` itself unless it is the trampoline).
    #[export_name = "__sanitizer_perfsyn_act_original_return"]
    #[inline(never)]
    pub extern "C" fn original_return(slot: u64, ret: u64) -> u64 {
        if ret != tramp_addr() {
            return ret;
        }
        // SAFETY: single-threaded.
        unsafe {
            let shadow = &*addr_of!(SHADOW);
            let len = *addr_of!(SHADOW_LEN);
            for &(s, orig) in shadow[..len].iter().rev() {
                if s == slot && orig != tramp_addr() {
                    return orig;
                }
            }
        }
        ret
    }

    /// Arms the recorder for a call under test whose frames lie below `top`.
    #[inline(always)]
    pub fn begin(sp: u64, top: u64) {
        HOOKED.call_once(|| {
            let prev = std::panic::take_hook();
            let show = std::env::var_os("PERFSYN_TRACE_PANICS").is_some();
            std::panic::set_hook(Box::new(move |info| {
                restore_returns();
                if show {
                    eprintln!("perfsyn-worker: traced program panicked: {info}");
                }
                prev(info)
            }));
        });
        restore_returns();
        // SAFETY: single-threaded, like the interpreter.
        unsafe {
            let s = &mut *addr_of_mut!(STATE);
            s.top = top;
            if sp < s.stack_lo {
                s.stack_lo = sp;
            }
            push(s, Kind::Call, false, sp, 0, 0, 0);
            s.armed = true;
        }
    }

    /// Disarms the recorder.
    #[inline(always)]
    pub fn end() {
        // SAFETY: as in `begin`.
        unsafe {
            let s = &mut *addr_of_mut!(STATE);
            resolve(s);
            s.armed = false;
        }
    }

    /// The events since the last `take`, and resets the recorder.
    pub fn take() -> ActivationTrace {
        // SAFETY: called between programs, disarmed.
        unsafe {
            let s = &mut *addr_of_mut!(STATE);
            let events = (&*addr_of!(EVENTS))[..s.len].to_vec();
            let t = ActivationTrace {
                events,
                capped: s.capped,
                heap_lo: if s.heap_lo == u64::MAX { 0 } else { s.heap_lo },
                heap_hi: s.heap_hi,
                stack_lo: if s.stack_lo == u64::MAX {
                    0
                } else {
                    s.stack_lo.saturating_sub(BELOW)
                },
                stack_hi: s.top.wrapping_add(ABOVE_TOP),
            };
            *s = State {
                armed: false,
                len: 0,
                capped: false,
                edges: 0,
                top: 0,
                pending: (0, 0, 0),
                heap_lo: u64::MAX,
                heap_hi: 0,
                stack_lo: u64::MAX,
            };
            t
        }
    }

    #[inline(always)]
    fn push(s: &mut State, kind: Kind, stack: bool, fp: u64, a: u64, b: u64, pc: u64) -> bool {
        push_len(s, kind, stack, fp, a, b, pc, 0)
    }

    /// [`push`] with the bytes a store wrote.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn push_len(
        s: &mut State,
        kind: Kind,
        stack: bool,
        fp: u64,
        a: u64,
        b: u64,
        pc: u64,
        len: u32,
    ) -> bool {
        if s.len >= EVENT_CAP {
            s.capped = true;
            return false;
        }
        // SAFETY: `len` is below the cap; single-threaded.
        unsafe {
            (*addr_of_mut!(EVENTS))[s.len] = Event {
                kind,
                stack,
                fp,
                a,
                b,
                edges: s.edges,
                len,
                pc,
            };
        }
        s.len += 1;
        true
    }

    /// Reads the value of the last store, which has happened by the time of the next callback.
    #[inline(always)]
    unsafe fn resolve(s: &mut State) {
        let (i, addr, size) = s.pending;
        if i == 0 {
            return;
        }
        s.pending.0 = 0;
        // SAFETY: the instrumented store wrote `size` bytes at `addr` just before this callback.
        let v = unsafe { read(addr, size) };
        // SAFETY: `i - 1` indexes a recorded event.
        unsafe { (*addr_of_mut!(EVENTS))[i - 1].b = v };
    }

    #[inline(always)]
    unsafe fn read(addr: u64, size: u64) -> u64 {
        // SAFETY: the caller passes memory the instrumented code accesses.
        unsafe {
            match size {
                1 => (addr as *const u8).read_unaligned() as u64,
                2 => (addr as *const u16).read_unaligned() as u64,
                4 => (addr as *const u32).read_unaligned() as u64,
                8 => (addr as *const u64).read_unaligned(),
                _ => {
                    let lo = (addr as *const u64).read_unaligned();
                    let hi = ((addr + 8) as *const u64).read_unaligned();
                    lo ^ hi.rotate_left(29).wrapping_mul(0x9e37_79b9_7f4a_7c15)
                }
            }
        }
    }

    /// Whether the access at `addr` by the frame `fp` is kept, and whether it is a stack one.
    #[inline(always)]
    fn classify(s: &mut State, addr: u64, fp: u64, sp: u64) -> Option<bool> {
        if addr >= sp.wrapping_sub(BELOW) && addr < s.top.wrapping_add(ABOVE_TOP) {
            if sp < s.stack_lo {
                s.stack_lo = sp;
            }
            // Only the callers' frames: the frame's own locals are no one's input.
            return (addr > fp).then_some(true);
        }
        if addr < s.heap_lo {
            s.heap_lo = addr;
        }
        if addr > s.heap_hi {
            s.heap_hi = addr;
        }
        Some(false)
    }

    #[inline(always)]
    fn sp() -> u64 {
        let sp: u64;
        // SAFETY: reads a register.
        unsafe { std::arch::asm!("mov {}, rsp", out(reg) sp, options(nomem, nostack)) };
        sp
    }

    /// A load of `value` at `addr` by the frame `fp` (called by `readtrace::record`); the
    /// events recorded so far (the read recorder keeps it beside the read).
    #[inline(always)]
    pub fn load(addr: u64, value: u64, fp: u64, pc: u64) -> u32 {
        // SAFETY: single-threaded.
        unsafe {
            let s = &mut *addr_of_mut!(STATE);
            if !s.armed {
                return s.len as u32;
            }
            resolve(s);
            if let Some(stack) = classify(s, addr, fp, sp()) {
                push(s, Kind::Load, stack, fp, addr, value, pc);
            }
            s.len as u32
        }
    }

    #[export_name = "__sanitizer_perfsyn_act_store"]
    #[inline(never)]
    unsafe extern "C" fn store(addr: u64, fp: u64, size: u64, pc: u64) {
        // SAFETY: single-threaded; `addr` is about to be written by the instrumented code.
        unsafe {
            let s = &mut *addr_of_mut!(STATE);
            if !s.armed {
                return;
            }
            resolve(s);
            if let Some(stack) = classify(s, addr, fp, sp()) {
                if push_len(s, Kind::Store, stack, fp, addr, 0, pc, size as u32) {
                    s.pending = (s.len, addr, size);
                }
            }
        }
    }

    #[export_name = "__sanitizer_perfsyn_act_cmp"]
    #[inline(never)]
    unsafe extern "C" fn cmp(a: u64, b: u64, fp: u64, pc: u64) {
        // SAFETY: single-threaded.
        unsafe {
            let s = &mut *addr_of_mut!(STATE);
            if !s.armed {
                return;
            }
            resolve(s);
            push(s, Kind::Cmp, false, fp, a, b, pc);
        }
    }

    #[export_name = "__sanitizer_perfsyn_act_guard"]
    #[inline(never)]
    unsafe extern "C" fn guard(g: *const u32, ret: u64, fp: u64) {
        // SAFETY: single-threaded; `g` is a numbered guard; `fp` the entering frame's.
        unsafe {
            let s = &mut *addr_of_mut!(STATE);
            if !s.armed {
                return;
            }
            s.edges += 1;
            resolve(s);
            let i = (*g as usize).wrapping_sub(1);
            let loops = &*addr_of!(LOOPS);
            if i / 64 < ENTRY_WORDS && loops[i / 64] & (1 << (i % 64)) != 0 {
                // A loop's marker: an iteration of it in the activation `fp` (`readtrace`).
                entered(g as u64, LOOP_SITE, fp, s.len);
            }
            let bits = &*addr_of!(ENTRIES);
            if i / 64 < ENTRY_WORDS && bits[i / 64] & (1 << (i % 64)) != 0 {
                // The entry guard of a function inlined into this frame's (the coverage pass
                // runs before inlining), or a tail call into this frame: the same activation.
                let len = *addr_of!(SHADOW_LEN);
                if len > 0 && (*addr_of!(SHADOW))[len - 1].0 == fp + 8 {
                    entered(ret, 0, fp, s.len);
                    return;
                }
                let frame_ok = fp >= sp() && fp < s.top && fp & 7 == 0;
                let caller = if frame_ok {
                    original_return(fp + 8, *((fp + 8) as *const u64))
                } else {
                    0
                };
                // Toddler's inner loops (`readtrace::Entered`): a call made from `caller`.
                entered(ret, caller, fp, s.len);
                push(s, Kind::Entry, false, fp, ret, caller, ret);
                let len = &mut *addr_of_mut!(SHADOW_LEN);
                if frame_ok && *len < SHADOW_CAP {
                    let slot = fp + 8;
                    (*addr_of_mut!(SHADOW))[*len] = (slot, *(slot as *const u64));
                    *len += 1;
                    *(slot as *mut u64) = tramp_addr();
                }
            }
        }
    }

    /// Pops the innermost hijacked return, records it with the result `rax`, and gives the
    /// real return address.
    #[export_name = "__sanitizer_perfsyn_act_return"]
    #[inline(never)]
    extern "C" fn returned(rax: u64) -> u64 {
        // SAFETY: single-threaded; the trampoline runs only for a hijacked return, whose
        // entry is the innermost one of the shadow stack.
        unsafe {
            let len = &mut *addr_of_mut!(SHADOW_LEN);
            if *len == 0 {
                // Cannot happen: a hijacked slot is always on the shadow stack.
                std::process::abort();
            }
            *len -= 1;
            let (slot, orig) = (*addr_of!(SHADOW))[*len];
            let s = &mut *addr_of_mut!(STATE);
            if s.armed {
                resolve(s);
                push(s, Kind::Return, false, slot - 8, rax, 0, orig);
            }
            orig
        }
    }

    /// Where a hijacked function returns to: saves the result registers, asks [`returned`]
    /// for the real return address, restores them and returns there.
    #[unsafe(naked)]
    #[export_name = "__sanitizer_perfsyn_act_trampoline"]
    unsafe extern "C" fn trampoline() {
        std::arch::naked_asm!(
            "sub rsp, 8",
            "push rax",
            "push rdx",
            "sub rsp, 40",
            "movdqu [rsp], xmm0",
            "movdqu [rsp + 16], xmm1",
            "mov rdi, rax",
            "call {rec}",
            "mov [rsp + 56], rax",
            "movdqu xmm0, [rsp]",
            "movdqu xmm1, [rsp + 16]",
            "add rsp, 40",
            "pop rdx",
            "pop rax",
            "ret",
            rec = sym returned,
        )
    }

    /// A copy of `n` bytes from `src` (null: a `memset`) to `dst` by the worker's `memcpy`
    /// family, after it happened: a load of the source and a store of the destination, each
    /// one hashed value. Inlined into the (instrumented) `memcpy` for its frame pointer; the
    /// work is in an uninstrumented function, whose own accesses are not traced.
    ///
    /// # Safety
    /// `dst..dst + n` and (unless null) `src..src + n` must be readable.
    #[inline(always)]
    pub unsafe fn copied(dst: *const u8, src: *const u8, n: usize) {
        let fp: u64;
        // SAFETY: reads a register.
        unsafe { std::arch::asm!("mov {}, rbp", out(reg) fp, options(nomem, nostack)) };
        // SAFETY: both ranges were just copied.
        unsafe { copied_rec(dst, src, n, fp) }
    }

    /// FNV-1a of `n` bytes at `p`.
    ///
    /// # Safety
    /// `p..p + n` must be readable.
    #[inline(always)]
    unsafe fn hash_bytes(p: *const u8, n: usize) -> u64 {
        let mut h = 0xcbf2_9ce4_8422_2325u64 ^ n as u64;
        for i in 0..n {
            // SAFETY: the caller's range.
            h = (h ^ unsafe { *p.add(i) } as u64).wrapping_mul(0x100_0000_01b3);
        }
        h
    }

    #[export_name = "__sanitizer_perfsyn_act_copied"]
    #[inline(never)]
    unsafe extern "C" fn copied_rec(dst: *const u8, src: *const u8, n: usize, fp: u64) {
        // SAFETY: single-threaded; both ranges were just copied.
        unsafe {
            let s = &mut *addr_of_mut!(STATE);
            if !s.armed || n == 0 {
                return;
            }
            resolve(s);
            let here = sp();
            let pc = crate::meter::MOVE_CALLER.load(std::sync::atomic::Ordering::Relaxed) as u64;
            if !src.is_null() {
                if let Some(stack) = classify(s, src as u64, fp, here) {
                    push(s, Kind::Load, stack, fp, src as u64, hash_bytes(src, n), pc);
                }
            }
            if let Some(stack) = classify(s, dst as u64, fp, here) {
                push_len(
                    s,
                    Kind::Store,
                    stack,
                    fp,
                    dst as u64,
                    hash_bytes(dst, n),
                    pc,
                    n.min(u32::MAX as usize) as u32,
                );
            }
        }
    }

    /// Sanitizer coverage's edge callback on the trace build.
    ///
    /// # Safety
    /// Called by instrumented code with a numbered guard.
    #[unsafe(naked)]
    #[no_mangle]
    pub unsafe extern "C" fn __sanitizer_cov_trace_pc_guard(_guard: *mut u32) {
        std::arch::naked_asm!(
            "mov rsi, [rsp]",
            "mov rdx, rbp",
            "jmp {rec}",
            rec = sym guard,
        )
    }

    macro_rules! store_callback {
        ($name:ident, $size:literal) => {
            /// Sanitizer coverage's store callback: address, frame pointer, size.
            ///
            /// # Safety
            /// Called by instrumented code with the address it is about to store to.
            #[unsafe(naked)]
            #[no_mangle]
            pub unsafe extern "C" fn $name(_addr: *const u8) {
                std::arch::naked_asm!(
                    "mov rsi, rbp",
                    concat!("mov edx, ", $size),
                    "mov rcx, [rsp]",
                    "jmp {rec}",
                    rec = sym store,
                )
            }
        };
    }

    store_callback!(__sanitizer_cov_store1, 1);
    store_callback!(__sanitizer_cov_store2, 2);
    store_callback!(__sanitizer_cov_store4, 4);
    store_callback!(__sanitizer_cov_store8, 8);
    store_callback!(__sanitizer_cov_store16, 16);

    macro_rules! cmp_callback {
        ($name:ident, $ty:ty, $ext:literal) => {
            /// Sanitizer coverage's comparison callback: both operands, frame pointer.
            ///
            /// # Safety
            /// Called by instrumented code.
            #[unsafe(naked)]
            #[no_mangle]
            pub unsafe extern "C" fn $name(_a: $ty, _b: $ty) {
                std::arch::naked_asm!(
                    $ext,
                    "mov rdx, rbp",
                    "mov rcx, [rsp]",
                    "jmp {rec}",
                    rec = sym cmp,
                )
            }
        };
    }

    cmp_callback!(
        __sanitizer_cov_trace_cmp1,
        u8,
        "movzx edi, dil\nmovzx esi, sil"
    );
    cmp_callback!(
        __sanitizer_cov_trace_cmp2,
        u16,
        "movzx edi, di\nmovzx esi, si"
    );
    cmp_callback!(
        __sanitizer_cov_trace_cmp4,
        u32,
        "mov edi, edi\nmov esi, esi"
    );
    cmp_callback!(__sanitizer_cov_trace_cmp8, u64, "nop");
    cmp_callback!(
        __sanitizer_cov_trace_const_cmp1,
        u8,
        "movzx edi, dil\nmovzx esi, sil"
    );
    cmp_callback!(
        __sanitizer_cov_trace_const_cmp2,
        u16,
        "movzx edi, di\nmovzx esi, si"
    );
    cmp_callback!(
        __sanitizer_cov_trace_const_cmp4,
        u32,
        "mov edi, edi\nmov esi, esi"
    );
    cmp_callback!(__sanitizer_cov_trace_const_cmp8, u64, "nop");

    /// Sanitizer coverage's switch callback: the value switched on (its cases are constants).
    ///
    /// # Safety
    /// Called by instrumented code.
    #[unsafe(naked)]
    #[no_mangle]
    pub unsafe extern "C" fn __sanitizer_cov_trace_switch(_val: u64, _cases: *const u64) {
        std::arch::naked_asm!(
            "xor esi, esi",
            "mov rdx, rbp",
            "mov rcx, [rsp]",
            "jmp {rec}",
            rec = sym cmp,
        )
    }
}
