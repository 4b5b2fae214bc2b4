//! Toddler's loops recovered from a trace worker binary (DESIGN.md, "A trace build beside the
//! two we have": loop headers from the binary). Every function that holds a
//! sanitizer-coverage block (an entry of the `__sancov_pcs` PC table) is decoded and its
//! natural loops taken (`cfg_loops`). The trace runtime learns each loop's *marker*: the
//! guard (its variable's address, read from the `mov`/`lea` before each
//! `__sanitizer_cov_trace_pc_guard` call) of a block that runs exactly once per iteration
//! that goes round (the header when its
//! block carries a guard; the coverage pass skips a block that dominates all its successors,
//! often a header, and then the guarded block nearest the header that lies in no inner loop
//! and dominates every back edge's source). A hit of the marker in one activation to its next
//! hit is one iteration (`readtrace::ReadTrace::loop_hits`; the oracle in
//! `judge/oracle/toddler_loops.rs`).
//!
//! Why guards, not PC-table addresses: a block merged away after the coverage pass keeps its
//! guard call but its PC-table entry becomes 1 (65 of 40583 entries in the corpus's trace
//! worker, among them the blocks of a list walk per element).
//!
//! Only functions with PC-table entries are decoded (the rest of the binary, precompiled std
//! and the runtime's own callbacks, carry no guard a hit could come from). The result is kept
//! per binary path and modification time for the life of the process.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Instant, SystemTime};

use anyhow::{bail, Context, Result};
use object::{Object, ObjectSection, ObjectSymbol, RelocationTarget};

use crate::harness::cfg_loops::{function_loops, FunctionLoops};

/// A natural loop of the binary whose iterations the trace runtime can mark.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecoveredLoop {
    /// The header block's address (link-time): what names the loop. For one of several
    /// cycles closed at one header, its marker block's address (the header's line is the
    /// other cycle's as much as its own).
    pub header: u64,
    /// The guard whose hits mark the iterations (the link-time address of its variable in
    /// `__sancov_guards`; for [`marked_loops`], its block's address).
    pub marker: u64,
    /// The innermost marked loop of the same function around this one (index into the list).
    pub parent: Option<usize>,
}

/// What recovery found in one binary, with the figures a bench reports.
#[derive(Clone, Debug, Default)]
pub struct Recovered {
    pub loops: Vec<RecoveredLoop>,
    /// Functions decoded (those with a PC-table entry).
    pub functions: usize,
    /// Natural loops found, marked or not.
    pub natural: usize,
    /// PC-table entries.
    pub guards: usize,
    /// Marked loops whose marker is their header's own guard.
    pub at_header: usize,
    /// Wall time of the recovery, ms.
    pub millis: u64,
}

impl Recovered {
    /// The loops by marker (guard address).
    pub fn by_marker(&self) -> HashMap<u64, usize> {
        self.loops
            .iter()
            .enumerate()
            .map(|(k, l)| (l.marker, k))
            .collect()
    }

    /// The markers, one hexadecimal link-time guard address a line: the file the trace
    /// worker reads (`perfsyn-worker --trace FILE OUT MARKERS`).
    pub fn markers_text(&self) -> String {
        self.loops
            .iter()
            .map(|l| format!("{:x}\n", l.marker))
            .collect()
    }
}

type Cache = Mutex<HashMap<PathBuf, (Option<SystemTime>, Arc<Recovered>)>>;

/// The loops of the trace worker `binary`, recovered once per process and binary version.
pub fn recovered(binary: &Path) -> Result<Arc<Recovered>> {
    static CACHE: std::sync::OnceLock<Cache> = std::sync::OnceLock::new();
    let cache = CACHE.get_or_init(Default::default);
    let stamp = std::fs::metadata(binary).and_then(|m| m.modified()).ok();
    if let Some((s, r)) = cache.lock().unwrap_or_else(|e| e.into_inner()).get(binary) {
        if *s == stamp {
            return Ok(r.clone());
        }
    }
    let r = Arc::new(recover(binary)?);
    cache
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .insert(binary.to_path_buf(), (stamp, r.clone()));
    Ok(r)
}

/// Recovers the loops of `binary` (see the module doc).
pub fn recover(binary: &Path) -> Result<Recovered> {
    let began = Instant::now();
    let data = std::fs::read(binary)
        .with_context(|| format!("cannot read the trace worker {}", binary.display()))?;
    let file = object::File::parse(&*data)
        .with_context(|| format!("{} is not an object file", binary.display()))?;
    let mut pcs = pc_table(&file)?;
    pcs.sort_unstable();
    pcs.dedup();
    let Some(callback) = file
        .symbols()
        .find(|s| s.name() == Ok("__sanitizer_cov_trace_pc_guard"))
        .map(|s| s.address())
    else {
        bail!("the trace worker has no __sanitizer_cov_trace_pc_guard");
    };
    let mut out = Recovered {
        guards: pcs.len(),
        ..Recovered::default()
    };
    let mut functions: Vec<(u64, u64, object::SectionIndex)> = file
        .symbols()
        .filter(|s| s.kind() == object::SymbolKind::Text && s.size() > 0)
        .filter_map(|s| Some((s.address(), s.size(), s.section_index()?)))
        .collect();
    functions.sort_unstable_by_key(|f| (f.0, std::cmp::Reverse(f.1)));
    functions.dedup_by_key(|f| f.0);
    for (addr, size, section) in functions {
        let lo = pcs.partition_point(|&p| p < addr);
        let hi = pcs.partition_point(|&p| p < addr + size);
        if lo == hi {
            continue;
        }
        let Some(code) = file
            .section_by_index(section)
            .ok()
            .and_then(|s| s.data_range(addr, size).ok().flatten())
        else {
            continue;
        };
        out.functions += 1;
        let f = function_loops(code, addr, &pcs[lo..hi]);
        out.natural += f.loops.len();
        // Each block's guard (the first one called in it).
        let mut guard_of: HashMap<u64, u64> = HashMap::new();
        for (at, guard) in guard_calls(code, addr, callback) {
            if let Some(b) = f.block_at(at) {
                guard_of.entry(f.blocks[b].start).or_insert(guard);
            }
        }
        let mut guarded: Vec<u64> = guard_of.keys().copied().collect();
        guarded.sort_unstable();
        let first = out.loops.len();
        out.at_header += marked_loops(&f, &guarded, &mut out.loops);
        for l in &mut out.loops[first..] {
            l.marker = guard_of[&l.marker];
        }
    }
    out.millis = began.elapsed().as_millis() as u64;
    Ok(out)
}

/// The PC table's block addresses (pairs of words: PC, flags), link-time. In a
/// position-independent binary the table's words are filled by relative relocations, whose
/// addends are the addresses.
fn pc_table(file: &object::File<'_>) -> Result<Vec<u64>> {
    let Some(section) = file.section_by_name("__sancov_pcs") else {
        bail!("the trace worker has no sanitizer-coverage PC table (__sancov_pcs)");
    };
    let bytes = section.data().context("cannot read the PC table")?;
    let mut pcs: Vec<u64> = bytes
        .chunks_exact(16)
        .map(|w| u64::from_le_bytes(w[..8].try_into().unwrap_or_default()))
        .collect();
    if pcs.iter().all(|&p| p == 0) {
        let (lo, hi) = (section.address(), section.address() + section.size());
        for (at, r) in file.dynamic_relocations().into_iter().flatten() {
            if at >= lo
                && at < hi
                && (at - lo) % 16 == 0
                && r.target() == RelocationTarget::Absolute
            {
                if let Some(p) = pcs.get_mut(((at - lo) / 16) as usize) {
                    *p = r.addend() as u64;
                }
            }
        }
    }
    pcs.retain(|&p| p != 0);
    Ok(pcs)
}

/// The guard calls of the function whose code is `code`, loaded at `start`: the call's
/// address and the guard's (link-time), from the instruction that put it in `rdi` just
/// before (`mov edi, imm32` in a position-dependent binary, `lea rdi, [rip + d]` otherwise).
fn guard_calls(code: &[u8], start: u64, callback: u64) -> Vec<(u64, u64)> {
    use iced_x86::{Decoder, DecoderOptions, Mnemonic, OpKind, Register};
    let mut out = Vec::new();
    let mut rdi: Option<u64> = None;
    let mut decoder = Decoder::with_ip(64, code, start, DecoderOptions::NONE);
    while decoder.can_decode() {
        let i = decoder.decode();
        if i.is_call_near() && i.near_branch_target() == callback {
            if let Some(g) = rdi.take() {
                out.push((i.ip(), g));
            }
            continue;
        }
        if i.op_count() >= 1
            && i.op0_kind() == OpKind::Register
            && matches!(i.op0_register(), Register::EDI | Register::RDI)
        {
            rdi = match (i.mnemonic(), i.op_count() == 2) {
                (Mnemonic::Mov, true)
                    if matches!(i.op1_kind(), OpKind::Immediate32 | OpKind::Immediate32to64) =>
                {
                    Some(i.immediate(1))
                }
                (Mnemonic::Lea, true) if i.is_ip_rel_memory_operand() => {
                    Some(i.ip_rel_memory_address())
                }
                _ => None,
            };
        }
    }
    out
}

/// Appends the loops of `f` that have a marker (see the module doc); `guarded` the sorted
/// addresses of the function's blocks that call a guard. Returns how many are marked at
/// their header.
fn marked_loops(f: &FunctionLoops, guarded: &[u64], out: &mut Vec<RecoveredLoop>) -> usize {
    let mut at_header = 0;
    let first = out.len();
    // Index in `out` of each of the function's loops that got a marker.
    let mut placed: Vec<Option<usize>> = vec![None; f.loops.len()];
    for (k, l) in f.loops.iter().enumerate() {
        let inner: Vec<usize> = f
            .loops
            .iter()
            .filter(|c| c.parent == Some(k))
            .flat_map(|c| c.body.iter().copied())
            .collect();
        let candidates: Vec<usize> = l
            .body
            .iter()
            .copied()
            .filter(|&b| guarded.binary_search(&f.blocks[b].start).is_ok())
            .filter(|b| !inner.contains(b))
            .filter(|&b| l.latches.iter().all(|&s| f.dominates(b, s)))
            .collect();
        // The parent: the innermost enclosing loop that got a marker.
        let mut p = l.parent;
        while let Some(q) = p {
            if placed[q].is_some() {
                break;
            }
            p = f.loops[q].parent;
        }
        let parent = p.and_then(|q| placed[q]);
        // They lie on one chain of dominators: the one nearest the header dominates the rest.
        if let Some(&marker) = candidates
            .iter()
            .find(|&&c| candidates.iter().all(|&o| f.dominates(c, o)))
        {
            at_header += (marker == l.header) as usize;
            placed[k] = Some(out.len());
            out.push(RecoveredLoop {
                header: f.blocks[l.header].start,
                marker: f.blocks[marker].start,
                parent,
            });
            continue;
        }
        // No block runs once per pass of every back edge: two loops of the source closed at
        // one header (`cfg_loops::FunctionLoops::per_latch`). Each back edge's cycle is
        // marked by a guarded block of its own (in no other's cycle) that dominates its
        // source, so each marker runs once per pass of its own cycle.
        if l.latches.len() < 2 {
            continue;
        }
        let cycles = f.per_latch(k);
        for (j, c) in cycles.iter().enumerate() {
            let own: Vec<usize> = c
                .body
                .iter()
                .copied()
                .filter(|&b| guarded.binary_search(&f.blocks[b].start).is_ok())
                .filter(|b| !inner.contains(b))
                .filter(|b| {
                    cycles
                        .iter()
                        .enumerate()
                        .all(|(i, o)| i == j || o.body.binary_search(b).is_err())
                })
                .filter(|&b| f.dominates(b, c.latches[0]))
                .collect();
            if let Some(&marker) = own
                .iter()
                .find(|&&m| own.iter().all(|&o| f.dominates(m, o)))
            {
                out.push(RecoveredLoop {
                    header: f.blocks[marker].start,
                    marker: f.blocks[marker].start,
                    parent,
                });
            }
        }
    }
    debug_assert!(out[first..]
        .iter()
        .all(|l| l.parent.is_none_or(|p| p >= first)));
    at_header
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An outer loop at 0x1005 around an inner one at 0x100a (blocks 0x1000, 0x1005, 0x100a,
    /// 0x1010, 0x1014); see `cfg_loops`' nested test.
    fn nested() -> FunctionLoops {
        let code: Vec<u8> = crate::harness::cfg_loops::fixtures::NESTED.concat();
        function_loops(&code, 0x1000, &[])
    }

    fn marks(guarded: &[u64]) -> Vec<(u64, u64, Option<usize>)> {
        let mut out = Vec::new();
        marked_loops(&nested(), guarded, &mut out);
        out.iter().map(|l| (l.header, l.marker, l.parent)).collect()
    }

    #[test]
    fn a_guard_is_the_address_put_in_rdi_before_the_callback_is_called() {
        let code: Vec<u8> = [
            &[0xbf, 0x5c, 0xed, 0x65, 0x00][..], // 1000: mov edi, 0x65ed5c
            &[0xe8, 0xf6, 0x0f, 0x00, 0x00],     // 1005: call 2000
            &[0x48, 0x8d, 0x3d, 0x00, 0x01, 0x00, 0x00], // 100a: lea rdi, [rip + 0x100]
            &[0xe8, 0xea, 0x0f, 0x00, 0x00],     // 1011: call 2000
            &[0xe8, 0xe5, 0x0f, 0x00, 0x00],     // 1016: call 2000 (rdi not set)
            &[0xe8, 0xe5, 0x0f, 0x00, 0x00],     // 101b: call 2005 (another function)
        ]
        .concat();
        assert_eq!(
            guard_calls(&code, 0x1000, 0x2000),
            [(0x1005, 0x65ed5c), (0x1011, 0x1111)]
        );
    }

    #[test]
    fn a_guarded_header_marks_its_loop() {
        assert_eq!(
            marks(&[0x1005, 0x100a, 0x1010]),
            [(0x1005, 0x1005, None), (0x100a, 0x100a, Some(0))]
        );
    }

    #[test]
    fn an_unguarded_header_is_marked_by_the_guarded_block_that_dominates_its_back_edge() {
        // The outer header has no guard: its latch (0x1010, run once per outer pass) marks it.
        assert_eq!(
            marks(&[0x100a, 0x1010]),
            [(0x1005, 0x1010, None), (0x100a, 0x100a, Some(0))]
        );
    }

    #[test]
    fn two_loops_closed_at_one_header_are_marked_by_their_own_back_edges() {
        // `cfg_loops`' shared-header function: the inner cycle 1008 -> 1004 -> 1008 and the
        // outer one 1008 -> 100c -> 1008; guards at 1004 and 100c, none at the header.
        let code: Vec<u8> = crate::harness::cfg_loops::fixtures::SHARED_HEADER.concat();
        let f = function_loops(&code, 0x1000, &[]);
        let mut out = Vec::new();
        marked_loops(&f, &[0x1004, 0x100c], &mut out);
        let mut got: Vec<(u64, u64)> = out.iter().map(|l| (l.header, l.marker)).collect();
        got.sort();
        // Each named by its own marker block (the header's line is both cycles').
        assert_eq!(got, [(0x1004, 0x1004), (0x100c, 0x100c)]);
        // A guard at the header marks the one natural loop.
        let mut out = Vec::new();
        marked_loops(&f, &[0x1004, 0x1008, 0x100c], &mut out);
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].marker, 0x1008);
    }

    #[test]
    fn a_guard_inside_an_inner_loop_never_marks_the_outer_one() {
        // Only the inner header is guarded: it runs eight times per outer pass.
        assert_eq!(marks(&[0x100a]), [(0x100a, 0x100a, None)]);
        assert!(marks(&[]).is_empty());
    }
}
