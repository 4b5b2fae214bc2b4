//! Read tracing, worker side: the values the calls under test read from memory, per reading
//! instruction and call stack (Toddler's IPCS, `../shared/seeds/002_…`, section III-A).
//!
//! Only the *trace build* of a worker (`--cfg perfsyn_trace`, with sanitizer coverage's
//! `-sanitizer-coverage-trace-loads`: see the engine's `harness/worker_build.rs`) records
//! anything: LLVM calls `__sanitizer_cov_load{1,2,4,8,16}(addr)` before every load of the
//! code compiled in the worker, and the callbacks below, armed only during a call under test
//! ([`call_begin`], [`call_end`]), read the value themselves and append it to a fixed buffer.
//! In every other build the hooks are empty and inlined away, so the instrumented worker's
//! costs and the plain worker's times do not move.
//!
//! - The reading instruction is the callback's return address (a naked callback reads it at
//!   `[rsp]`), as Toddler's IP.
//! - Its call stack is a 64-bit mix of up to [`STACK_DEPTH`] return addresses along the
//!   frame-pointer chain (the trace build forces frame pointers), as Toddler hashes call
//!   stacks: eight loads and multiplies per read, against keeping a shadow stack that would
//!   need a callback on every function entry and exit. The walk stays inside the stack
//!   between the reading frame and the frame that started the call under test, so a frame
//!   without a frame pointer (precompiled std) ends it early instead of reading wild memory.
//!   The return addresses of each distinct IPCS are kept once, so the engine can print the
//!   call stack as file:line.
//! - Reads of the stack are ignored (locals and spills are not the data a loop traverses).
//! - Values are kept raw; the engine renumbers the ones that are addresses of memory the
//!   call read by first appearance (Toddler's `identityHashCode`), from [`ReadTrace::addr_lo`]
//!   and [`ReadTrace::addr_hi`]: the range of the non-stack addresses read.
//! - Bounded: at most [`TRACE_CAP`] reads and [`IPCS_CAP`] distinct IPCSs per program; past
//!   either the trace is cut and says so ([`ReadTrace::capped`]).
//!
//! - Function entries ([`Entered`], recorded by `activations`' entry guard) are placed among
//!   the reads (each read keeps the count of activation events before it), so the engine can
//!   cut a call's reads at the entries of one callee from one call site: one inner-loop
//!   iteration each (Toddler's loops inside the call, for loops that call a helper per
//!   element). At most [`crate::activations::ENTERED_CAP`] per program ([`ReadTrace::entered_capped`]).
//!
//! - Loop iterations ([`ReadTrace::loop_hits`]): the engine recovers the natural loops of the
//!   trace binary and names, per loop, a guarded block run once per iteration (its marker;
//!   `perfsyn-worker --trace FILE OUT MARKERS`); each hit of a marker during a call under test
//!   is kept with its frame pointer and placed among the reads as entries are, in the same
//!   bounded buffer (`activations::LOOP_SITE`).
//!
//! The callbacks are `__sanitizer_` symbols, which the coverage pass never instruments (see
//! `meter`), and they call nothing: only pointer arithmetic on static buffers.

use serde::{Deserialize, Serialize};

/// Most reads recorded per program run.
pub const TRACE_CAP: usize = 1 << 21;
/// Most distinct reading instructions with call stack (IPCS) per program run.
pub const IPCS_CAP: usize = 1 << 14;
/// Return addresses mixed into (and kept for) an IPCS's call stack.
pub const STACK_DEPTH: usize = 6;

/// A function entry during a call under test, between two of its reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entered {
    /// Reads of the call before it.
    pub at: u32,
    /// The entry guard's address (the instruction after its callback): the function, and for
    /// an inlined one also the place it was inlined at (each inlined copy has its own guard).
    pub pc: u64,
    /// The return address of the call (the call site), or 0 when the function was inlined
    /// into the frame `fp`.
    pub site: u64,
    /// The frame pointer of the entered function's frame (of the frame it was inlined into).
    pub fp: u64,
    /// Activation events (`activations`) recorded before it.
    pub event: u32,
}

/// A loop recovered from the trace binary, as the oracle needs it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LoopShape {
    /// The marker's guard address (what [`ReadTrace::loop_hits`] carry).
    pub marker: u64,
    /// The loop header's address (what names the loop).
    pub header: u64,
    /// The marker of the innermost loop around it in the same function (0: none): a hit of
    /// it in the same frame ends an instance of this loop.
    pub parent: u64,
}

/// One reading instruction in one call stack.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ipcs {
    /// The link-time address of the instruction after the load's callback (the read).
    pub pc: u64,
    /// Return addresses of its callers, innermost first (link-time addresses).
    pub stack: Vec<u64>,
}

/// What one program's calls under test read.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReadTrace {
    /// Per call under test, in order: its reads as (index into [`ReadTrace::ipcs`], value).
    pub calls: Vec<Vec<(u32, u64)>>,
    /// The distinct IPCSs.
    pub ipcs: Vec<Ipcs>,
    /// The trace was cut at [`TRACE_CAP`] reads or [`IPCS_CAP`] IPCSs.
    pub capped: bool,
    /// Lowest and highest non-stack address read (values in between are addresses).
    pub addr_lo: u64,
    pub addr_hi: u64,
    /// Wall time of the whole program run in the trace build, ns.
    pub nanos: u64,
    /// The same calls as function activations (`activations`: MemoizeIt's input).
    #[serde(default)]
    pub activations: crate::activations::ActivationTrace,
    /// Per call under test, the function entries during it, in order.
    #[serde(default)]
    pub entered: Vec<Vec<Entered>>,
    /// Entries past [`crate::activations::ENTERED_CAP`] were not recorded.
    #[serde(default)]
    pub entered_capped: bool,
    /// Per call under test, the hits of loop markers during it, in order (`pc`: the marker's
    /// guard address, link-time; `site`: 0). Cut with the entries
    /// ([`ReadTrace::entered_capped`]).
    #[serde(default)]
    pub loop_hits: Vec<Vec<Entered>>,
    /// The recovered loops the hits' markers belong to: filled by the engine from the binary
    /// (the worker leaves it empty).
    #[serde(default)]
    pub loops: Vec<LoopShape>,
    /// Per call, per read (parallel to `calls`): activation events recorded before it, so
    /// the engine finds the stores of any stretch of reads (Toddler's output-bound loops).
    #[serde(default)]
    pub read_events: Vec<Vec<u32>>,
}

impl ReadTrace {
    /// Makes every code address link-time: subtracts `bias`, the main executable's load bias
    /// (0 unless the worker is position-independent, as it is when a dependency is also a
    /// shared library, see `worker_build::TRACE_FLAGS` in the engine), from the reads, their
    /// call stacks, the function entries and their call sites (0, an inlined entry, stays 0)
    /// and the activation events' instructions (an entry's PC and return address too). The engine maps these to file:line in the
    /// binary's line tables, which hold link-time addresses. Data addresses are left alone.
    pub fn to_link_time(&mut self, bias: u64) {
        if bias == 0 {
            return;
        }
        let code = |a: &mut u64| {
            if *a != 0 {
                *a = a.wrapping_sub(bias);
            }
        };
        for i in &mut self.ipcs {
            code(&mut i.pc);
            i.stack.iter_mut().for_each(code);
        }
        for e in self
            .entered
            .iter_mut()
            .chain(self.loop_hits.iter_mut())
            .flatten()
        {
            code(&mut e.pc);
            code(&mut e.site);
        }
        for e in &mut self.activations.events {
            code(&mut e.pc);
            if e.kind == crate::activations::Kind::Entry {
                code(&mut e.a);
                code(&mut e.b);
            }
        }
    }
}

/// Places function entries, each `(pc, site, fp, activation events before it)`, in the calls
/// and among the reads of a trace: a call's entries are those after its `Call` event (at index
/// i: `event` above i), and an
/// entry comes after the reads whose events (`read_events`) it does not precede. Entries past
/// a cut activation trace cannot be placed and are left out.
pub fn place_entries(
    marks: &[(u64, u64, u64, u32)],
    activations: &crate::activations::ActivationTrace,
    read_events: &[Vec<u32>],
) -> Vec<Vec<Entered>> {
    let starts: Vec<u32> = activations
        .events
        .iter()
        .enumerate()
        .filter(|(_, e)| e.kind == crate::activations::Kind::Call)
        .map(|(i, _)| i as u32)
        .collect();
    let mut out: Vec<Vec<Entered>> = vec![Vec::new(); read_events.len()];
    for &(pc, site, fp, event) in marks {
        if event as usize >= activations.events.len() {
            continue;
        }
        let Some(call) = starts.partition_point(|&s| s < event).checked_sub(1) else {
            continue;
        };
        let (Some(reads), Some(list)) = (read_events.get(call), out.get_mut(call)) else {
            continue;
        };
        list.push(Entered {
            at: reads.partition_point(|&e| e <= event) as u32,
            pc,
            site,
            fp,
            event,
        });
    }
    out
}

#[cfg(perfsyn_trace)]
pub use imp::{call_begin, call_end, take};

/// Starts recording a call under test (a no-op outside the trace build).
#[cfg(not(perfsyn_trace))]
#[inline(always)]
pub fn call_begin() {}

/// Stops recording a call under test (a no-op outside the trace build).
#[cfg(not(perfsyn_trace))]
#[inline(always)]
pub fn call_end() {}

/// The reads recorded since the last `take` (empty outside the trace build).
#[cfg(not(perfsyn_trace))]
pub fn take() -> ReadTrace {
    ReadTrace::default()
}

/// Whether this binary is a trace build.
pub const fn enabled() -> bool {
    cfg!(perfsyn_trace)
}

#[cfg(all(perfsyn_trace, not(target_arch = "x86_64")))]
compile_error!("the trace build's read callbacks are written for x86_64");

#[cfg(perfsyn_trace)]
mod imp {
    use super::*;
    use std::ptr::{addr_of, addr_of_mut};

    /// A read: IPCS slot + 1 (0 marks the start of a call), and the value.
    #[derive(Clone, Copy)]
    #[repr(C)]
    struct Entry {
        slot: u32,
        /// Activation events recorded before the read's own (in `slot`'s padding).
        event: u32,
        value: u64,
    }

    /// An IPCS slot of the open-addressing table: its key and frames.
    #[derive(Clone, Copy)]
    #[repr(C)]
    struct Slot {
        pc: u64,
        hash: u64,
        frames: [u64; STACK_DEPTH],
        used: bool,
    }

    const EMPTY: Slot = Slot {
        pc: 0,
        hash: 0,
        frames: [0; STACK_DEPTH],
        used: false,
    };

    static mut ENTRIES: [Entry; TRACE_CAP] = [Entry {
        slot: 0,
        event: 0,
        value: 0,
    }; TRACE_CAP];
    static mut SLOTS: [Slot; IPCS_CAP] = [EMPTY; IPCS_CAP];
    /// Per slot, its index in the order of first appearance + 1 (0: unused).
    static mut ORDER: [u32; IPCS_CAP] = [0; IPCS_CAP];

    /// Recorder state; single-threaded like the interpreter.
    struct State {
        armed: bool,
        len: usize,
        distinct: u32,
        capped: bool,
        /// The stack pointer when the call under test started: frames above it are the
        /// interpreter's.
        top: u64,
        lo: u64,
        hi: u64,
    }

    static mut STATE: State = State {
        armed: false,
        len: 0,
        distinct: 0,
        capped: false,
        top: 0,
        lo: u64::MAX,
        hi: 0,
    };

    /// Stack bytes above the recorded top still counted as stack (the interpreter's frames).
    const ABOVE_TOP: u64 = 1 << 20;

    #[inline(always)]
    fn sp() -> u64 {
        let sp: u64;
        // SAFETY: reads a register.
        unsafe { std::arch::asm!("mov {}, rsp", out(reg) sp, options(nomem, nostack)) };
        sp
    }

    /// Arms the recorder for a call under test.
    #[export_name = "__sanitizer_perfsyn_trace_call_begin"]
    #[inline(never)]
    pub fn call_begin() {
        // SAFETY: single-threaded; the callbacks see the state only between begin and end.
        unsafe {
            let s = &mut *addr_of_mut!(STATE);
            s.top = sp();
            crate::activations::begin(s.top, s.top);
            if s.len < TRACE_CAP {
                (*addr_of_mut!(ENTRIES))[s.len] = Entry {
                    slot: 0,
                    event: 0,
                    value: 0,
                };
                s.len += 1;
            } else {
                s.capped = true;
            }
            s.armed = true;
        }
    }

    /// Disarms the recorder.
    #[export_name = "__sanitizer_perfsyn_trace_call_end"]
    #[inline(never)]
    pub fn call_end() {
        // SAFETY: as in `call_begin`.
        unsafe { (*addr_of_mut!(STATE)).armed = false };
        crate::activations::end();
    }

    /// The reads since the last `take`, and resets the recorder.
    pub fn take() -> ReadTrace {
        // SAFETY: called with the recorder disarmed, between programs.
        unsafe {
            let s = &mut *addr_of_mut!(STATE);
            s.armed = false;
            let slots = &*addr_of!(SLOTS);
            let order = &mut *addr_of_mut!(ORDER);
            let mut ipcs = vec![
                Ipcs {
                    pc: 0,
                    stack: Vec::new()
                };
                s.distinct as usize
            ];
            for (i, slot) in slots.iter().enumerate() {
                if slot.used && order[i] > 0 {
                    ipcs[order[i] as usize - 1] = Ipcs {
                        pc: slot.pc,
                        stack: slot
                            .frames
                            .iter()
                            .copied()
                            .take_while(|&f| f != 0)
                            .collect(),
                    };
                }
            }
            let entries = &*addr_of!(ENTRIES);
            let mut calls: Vec<Vec<(u32, u64)>> = Vec::new();
            let mut read_events: Vec<Vec<u32>> = Vec::new();
            for e in &entries[..s.len] {
                if e.slot == 0 {
                    calls.push(Vec::new());
                    read_events.push(Vec::new());
                } else if let (Some(c), Some(ev)) = (calls.last_mut(), read_events.last_mut()) {
                    c.push((order[e.slot as usize - 1] - 1, e.value));
                    ev.push(e.event);
                }
            }
            let activations = crate::activations::take();
            let (mut marks, entered_capped) = crate::activations::take_entered();
            // Loop markers' hits, by their guard's address.
            let hits: Vec<(u64, u64, u64, u32)> = marks
                .iter()
                .filter(|m| m.1 == crate::activations::LOOP_SITE)
                .map(|&(g, _, fp, ev)| (g, 0, fp, ev))
                .collect();
            marks.retain(|m| m.1 != crate::activations::LOOP_SITE);
            let entered = place_entries(&marks, &activations, &read_events);
            let loop_hits = place_entries(&hits, &activations, &read_events);
            let trace = ReadTrace {
                calls,
                ipcs,
                capped: s.capped,
                addr_lo: if s.lo == u64::MAX { 0 } else { s.lo },
                addr_hi: s.hi,
                nanos: 0,
                activations,
                entered,
                entered_capped,
                loop_hits,
                loops: Vec::new(),
                read_events,
            };
            (*addr_of_mut!(SLOTS)).fill(EMPTY);
            order.fill(0);
            *s = State {
                armed: false,
                len: 0,
                distinct: 0,
                capped: false,
                top: 0,
                lo: u64::MAX,
                hi: 0,
            };
            trace
        }
    }

    /// Records one read of `size` bytes at `addr`, by the instruction before `ret`, whose
    /// frame pointer is `fp`.
    ///
    /// # Safety
    /// Called only by the load callbacks with the registers they pass.
    #[export_name = "__sanitizer_perfsyn_trace_read"]
    #[inline(never)]
    unsafe extern "C" fn record(addr: u64, ret: u64, fp: u64, size: u64) {
        // SAFETY: single-threaded; everything below reads memory the instrumented load is
        // about to read (`addr`, `size` bytes), or the stack between here and `top`.
        unsafe {
            let s = &mut *addr_of_mut!(STATE);
            if !s.armed {
                return;
            }
            let value = match size {
                1 => (addr as *const u8).read_unaligned() as u64,
                2 => (addr as *const u16).read_unaligned() as u64,
                4 => (addr as *const u32).read_unaligned() as u64,
                8 => (addr as *const u64).read_unaligned(),
                _ => {
                    let lo = (addr as *const u64).read_unaligned();
                    let hi = ((addr + 8) as *const u64).read_unaligned();
                    lo ^ hi.rotate_left(29).wrapping_mul(0x9e37_79b9_7f4a_7c15)
                }
            };
            let event = crate::activations::load(addr, value, fp, ret);
            if s.capped {
                return;
            }
            let here = sp();
            if addr >= here.wrapping_sub(256) && addr < s.top.wrapping_add(ABOVE_TOP) {
                return; // the stack
            }
            if addr < s.lo {
                s.lo = addr;
            }
            if addr > s.hi {
                s.hi = addr;
            }
            // The call stack: return addresses along the frame-pointer chain, inside the stack
            // between this frame and the call under test's start.
            let mut frames = [0u64; STACK_DEPTH];
            let mut hash = ret.wrapping_mul(0x9e37_79b9_7f4a_7c15);
            let mut f = fp;
            let mut d = 0;
            while d < STACK_DEPTH && f >= here && f < s.top && f & 7 == 0 {
                let r = crate::activations::original_return(f + 8, *((f + 8) as *const u64));
                frames[d] = r;
                hash = (hash.rotate_left(17) ^ r).wrapping_mul(0xff51_afd7_ed55_8ccd);
                d += 1;
                let next = *(f as *const u64);
                if next <= f {
                    break;
                }
                f = next;
            }
            // Find or add the IPCS (linear probing).
            let slots = &mut *addr_of_mut!(SLOTS);
            let order = &mut *addr_of_mut!(ORDER);
            let mut i = ((hash ^ ret) as usize) & (IPCS_CAP - 1);
            let mut probes = 0;
            loop {
                let slot = &mut slots[i];
                if !slot.used {
                    s.distinct += 1;
                    *slot = Slot {
                        pc: ret,
                        hash,
                        frames,
                        used: true,
                    };
                    order[i] = s.distinct;
                    break;
                }
                if slot.pc == ret && slot.hash == hash {
                    break;
                }
                probes += 1;
                if probes == IPCS_CAP / 2 {
                    s.capped = true;
                    return;
                }
                i = (i + 1) & (IPCS_CAP - 1);
            }
            if s.len >= TRACE_CAP {
                s.capped = true;
                return;
            }
            (*addr_of_mut!(ENTRIES))[s.len] = Entry {
                slot: i as u32 + 1,
                event,
                value,
            };
            s.len += 1;
        }
    }

    macro_rules! load_callback {
        ($name:ident, $size:literal) => {
            /// Sanitizer coverage's load callback: passes the address, the return address,
            /// the caller's frame pointer and the size to [`record`].
            ///
            /// # Safety
            /// Called by instrumented code with the address it is about to load from.
            #[unsafe(naked)]
            #[no_mangle]
            pub unsafe extern "C" fn $name(_addr: *const u8) {
                std::arch::naked_asm!(
                    "mov rsi, [rsp]",
                    "mov rdx, rbp",
                    concat!("mov ecx, ", $size),
                    "jmp {rec}",
                    rec = sym record,
                )
            }
        };
    }

    load_callback!(__sanitizer_cov_load1, 1);
    load_callback!(__sanitizer_cov_load2, 2);
    load_callback!(__sanitizer_cov_load4, 4);
    load_callback!(__sanitizer_cov_load8, 8);
    load_callback!(__sanitizer_cov_load16, 16);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::activations::{ActivationTrace, Event, Kind};

    #[test]
    fn code_addresses_become_link_time_and_data_stays() {
        let mut entry = event(Kind::Entry);
        (entry.a, entry.b, entry.pc, entry.fp) = (0x5000_1000, 0x5000_2000, 0x5000_1004, 0x7ff0);
        let mut load = event(Kind::Load);
        (load.a, load.b, load.pc) = (0x9000, 0x5000_0000, 0x5000_3000);
        let mut t = ReadTrace {
            calls: vec![vec![(0, 0x5000_0000)]],
            ipcs: vec![Ipcs {
                pc: 0x5000_0010,
                stack: vec![0x5000_0020, 0x5000_0030],
            }],
            activations: ActivationTrace {
                events: vec![entry, load],
                ..ActivationTrace::default()
            },
            entered: vec![vec![Entered {
                at: 0,
                pc: 0x5000_0040,
                site: 0,
                fp: 0x7ff0,
                event: 0,
            }]],
            ..ReadTrace::default()
        };
        t.to_link_time(0x5000_0000);
        assert_eq!(t.ipcs[0].pc, 0x10);
        assert_eq!(t.ipcs[0].stack, vec![0x20, 0x30]);
        assert_eq!((t.entered[0][0].pc, t.entered[0][0].site), (0x40, 0));
        let [e, l] = &t.activations.events[..] else {
            panic!("two events")
        };
        assert_eq!((e.a, e.b, e.pc, e.fp), (0x1000, 0x2000, 0x1004, 0x7ff0));
        assert_eq!((l.a, l.b, l.pc), (0x9000, 0x5000_0000, 0x3000));
        // The values read are data.
        assert_eq!(t.calls[0][0].1, 0x5000_0000);
    }

    fn event(kind: Kind) -> Event {
        Event {
            kind,
            stack: false,
            fp: 0,
            a: 0,
            b: 0,
            edges: 0,
            len: 0,
            pc: 0,
        }
    }

    #[test]
    fn an_entry_is_placed_in_its_call_after_the_reads_made_before_it() {
        // Events: call 0 at 0, loads 1-2, call 1 at 3, loads 4-5.
        let kinds = [
            Kind::Call,
            Kind::Load,
            Kind::Load,
            Kind::Call,
            Kind::Load,
            Kind::Load,
        ];
        let acts = ActivationTrace {
            events: kinds.into_iter().map(event).collect(),
            ..ActivationTrace::default()
        };
        // Each read keeps the events recorded up to and including its own load.
        let reads = vec![vec![2, 3], vec![5, 6]];
        // An entry after the first read of call 1 (4 events then), one after call 0's first
        // read, and one past the trace (not placed).
        // The last entry of call 0 (3 events: call 1's `Call` not yet recorded) stays in call 0.
        let marks = [(7, 0, 0, 5), (9, 1, 0, 2), (6, 1, 0, 3), (8, 0, 0, 9)];
        let placed = place_entries(&marks, &acts, &reads);
        assert_eq!(
            placed[0].iter().map(|e| (e.pc, e.at)).collect::<Vec<_>>(),
            [(9, 1), (6, 2)]
        );
        assert_eq!(
            placed[1].iter().map(|e| (e.pc, e.at)).collect::<Vec<_>>(),
            [(7, 1)]
        );
    }
}
