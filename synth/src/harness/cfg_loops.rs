//! Natural loops of one compiled function, from its machine code: Toddler's dynamic loops
//! (`../shared/seeds/002_…`, section III) need to know where a loop's iterations start, and
//! the trace build's binary is what ran. The function's x86-64 code is decoded (iced-x86),
//! cut into basic blocks at jump targets, after jumps and returns, and at extra leaders the
//! caller knows (the sanitizer-coverage PC table's block addresses); the blocks' dominators
//! come from Cooper, Harvey and Kennedy's iterative algorithm, and a back edge is an edge
//! whose target dominates its source: the target is a loop header, and the blocks that reach
//! the source without passing the header are the loop's body (all back edges to one header
//! make one loop). Nesting: a loop's parent is the smallest other loop whose body holds its
//! header.
//!
//! What the code cannot show: an indirect jump (a `match` compiled to a jump table) ends its
//! block with no known successor, so a loop closed only through one is not found; a jump out
//! of the function (a tail call) ends its block too.

use iced_x86::{Decoder, DecoderOptions, FlowControl};

/// One basic block: `[start, end)` and its successors (block indices).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Block {
    pub start: u64,
    pub end: u64,
    pub succs: Vec<usize>,
}

/// A natural loop: its header block, its body (block indices, the header included, sorted),
/// the sources of its back edges, and the innermost loop around it (index into the list).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NaturalLoop {
    pub header: usize,
    pub body: Vec<usize>,
    pub latches: Vec<usize>,
    pub parent: Option<usize>,
}

/// A function's blocks (in address order; block 0 is the entry), the immediate dominator of
/// each reachable block (`None`: unreachable from the entry, or the entry itself), and its
/// natural loops (outer loops before the loops they hold).
#[derive(Clone, Debug, Default)]
pub struct FunctionLoops {
    pub blocks: Vec<Block>,
    pub idom: Vec<Option<usize>>,
    pub loops: Vec<NaturalLoop>,
}

impl FunctionLoops {
    /// The block holding address `addr`.
    pub fn block_at(&self, addr: u64) -> Option<usize> {
        let k = self
            .blocks
            .partition_point(|b| b.start <= addr)
            .checked_sub(1)?;
        (addr < self.blocks[k].end).then_some(k)
    }

    /// Whether block `a` dominates block `b` (every block dominates itself).
    pub fn dominates(&self, a: usize, b: usize) -> bool {
        let mut x = b;
        loop {
            if x == a {
                return true;
            }
            match self.idom[x] {
                Some(d) => x = d,
                None => return false,
            }
        }
    }
}

impl FunctionLoops {
    /// The natural loop of each back edge of loop `k` alone (its body: the header and the
    /// blocks that reach that edge's source without passing the header), largest first.
    /// Why: machine code may close two loops of the source at one block (an outer loop's
    /// next pass jumping straight into its inner loop's first iteration), and the back
    /// edges to one header then make one natural loop whose iterations are neither's.
    pub fn per_latch(&self, k: usize) -> Vec<NaturalLoop> {
        let l = &self.loops[k];
        let mut preds: Vec<Vec<usize>> = vec![Vec::new(); self.blocks.len()];
        for (b, blk) in self.blocks.iter().enumerate() {
            for &s in &blk.succs {
                preds[s].push(b);
            }
        }
        let mut out: Vec<NaturalLoop> = l
            .latches
            .iter()
            .map(|&latch| {
                let mut body = vec![l.header];
                let mut work = vec![latch];
                while let Some(b) = work.pop() {
                    if !body.contains(&b) && l.body.binary_search(&b).is_ok() {
                        body.push(b);
                        work.extend(preds[b].iter().copied());
                    }
                }
                body.sort_unstable();
                NaturalLoop {
                    header: l.header,
                    body,
                    latches: vec![latch],
                    parent: None,
                }
            })
            .collect();
        out.sort_by_key(|s| std::cmp::Reverse(s.body.len()));
        out
    }
}

/// How one instruction passes control on.
enum Flow {
    Next,
    /// An unconditional jump to a known address.
    Jump(u64),
    /// A conditional jump: the target or the next instruction.
    Branch(u64),
    /// Nothing known follows (return, indirect jump, trap).
    Stop,
}

/// The loops of the function whose code is `code`, loaded at `start`; `leaders` are addresses
/// that start a block wherever they fall on an instruction (the others are ignored).
pub fn function_loops(code: &[u8], start: u64, leaders: &[u64]) -> FunctionLoops {
    let end = start + code.len() as u64;
    let inside = |a: u64| a >= start && a < end;
    let mut insns: Vec<(u64, u64, Flow)> = Vec::new();
    let mut decoder = Decoder::with_ip(64, code, start, DecoderOptions::NONE);
    while decoder.can_decode() {
        let i = decoder.decode();
        if i.is_invalid() {
            // Padding or data: nothing after it is known to be reached from here.
            insns.push((i.ip(), i.next_ip(), Flow::Stop));
            continue;
        }
        let flow = match i.flow_control() {
            FlowControl::Next | FlowControl::Call | FlowControl::IndirectCall => Flow::Next,
            FlowControl::UnconditionalBranch if inside(i.near_branch_target()) => {
                Flow::Jump(i.near_branch_target())
            }
            FlowControl::ConditionalBranch if inside(i.near_branch_target()) => {
                Flow::Branch(i.near_branch_target())
            }
            // A conditional jump out of the function (a tail call on one path) falls through.
            FlowControl::ConditionalBranch => Flow::Next,
            _ => Flow::Stop,
        };
        insns.push((i.ip(), i.next_ip(), flow));
    }
    // Leaders: the entry, jump targets, what follows a jump or a stop, the caller's leaders.
    let starts: std::collections::HashSet<u64> = insns.iter().map(|i| i.0).collect();
    let mut lead: std::collections::BTreeSet<u64> = std::collections::BTreeSet::new();
    lead.insert(start);
    for (_, next, flow) in &insns {
        match flow {
            Flow::Next => {}
            Flow::Jump(t) | Flow::Branch(t) => {
                lead.insert(*t);
                lead.insert(*next);
            }
            Flow::Stop => {
                lead.insert(*next);
            }
        }
    }
    lead.extend(leaders.iter().copied().filter(|a| starts.contains(a)));
    lead.retain(|a| starts.contains(a));
    let heads: Vec<u64> = lead.into_iter().collect();
    let index = |a: u64| heads.binary_search(&a).ok();
    let mut blocks: Vec<Block> = Vec::with_capacity(heads.len());
    let mut at = 0usize;
    for (k, &h) in heads.iter().enumerate() {
        while at < insns.len() && insns[at].0 < h {
            at += 1;
        }
        let stop = heads.get(k + 1).copied().unwrap_or(end);
        let mut last = at;
        while last + 1 < insns.len() && insns[last + 1].0 < stop {
            last += 1;
        }
        let (_, next, flow) = &insns[last];
        let mut succs = Vec::new();
        match flow {
            Flow::Next => succs.extend(index(*next)),
            Flow::Jump(t) => succs.extend(index(*t)),
            Flow::Branch(t) => {
                succs.extend(index(*t));
                succs.extend(index(*next));
            }
            Flow::Stop => {}
        }
        succs.dedup();
        blocks.push(Block {
            start: h,
            end: (*next).min(stop).max(h + 1),
            succs,
        });
    }
    loops_of(blocks)
}

/// Dominators and natural loops of `blocks` (block 0 the entry).
pub fn loops_of(blocks: Vec<Block>) -> FunctionLoops {
    let n = blocks.len();
    if n == 0 {
        return FunctionLoops::default();
    }
    let mut preds: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (b, blk) in blocks.iter().enumerate() {
        for &s in &blk.succs {
            preds[s].push(b);
        }
    }
    // Reverse postorder from the entry (iterative depth-first search).
    let mut post: Vec<usize> = Vec::with_capacity(n);
    let mut seen = vec![false; n];
    let mut stack: Vec<(usize, usize)> = vec![(0, 0)];
    seen[0] = true;
    while let Some(&mut (b, ref mut k)) = stack.last_mut() {
        if let Some(&s) = blocks[b].succs.get(*k) {
            *k += 1;
            if !seen[s] {
                seen[s] = true;
                stack.push((s, 0));
            }
        } else {
            post.push(b);
            stack.pop();
        }
    }
    let mut order = vec![usize::MAX; n];
    for (k, &b) in post.iter().enumerate() {
        order[b] = k;
    }
    // Cooper, Harvey, Kennedy: "A Simple, Fast Dominance Algorithm".
    let mut idom: Vec<Option<usize>> = vec![None; n];
    idom[0] = Some(0);
    let mut changed = true;
    while changed {
        changed = false;
        for &b in post.iter().rev().skip(1) {
            let mut new: Option<usize> = None;
            for &p in &preds[b] {
                if idom[p].is_none() {
                    continue;
                }
                new = Some(match new {
                    None => p,
                    Some(mut x) => {
                        let mut y = p;
                        while x != y {
                            while order[x] < order[y] {
                                x = idom[x].unwrap_or(0);
                            }
                            while order[y] < order[x] {
                                y = idom[y].unwrap_or(0);
                            }
                        }
                        x
                    }
                });
            }
            if new.is_some() && idom[b] != new {
                idom[b] = new;
                changed = true;
            }
        }
    }
    idom[0] = None;
    let mut f = FunctionLoops {
        blocks,
        idom,
        loops: Vec::new(),
    };
    // Back edges, grouped by header.
    let mut by_header: std::collections::BTreeMap<usize, Vec<usize>> = Default::default();
    for (b, blk) in f.blocks.iter().enumerate() {
        if !seen[b] {
            continue;
        }
        for &h in &blk.succs {
            if f.dominates(h, b) {
                by_header.entry(h).or_default().push(b);
            }
        }
    }
    for (h, latches) in by_header {
        let mut body = vec![false; n];
        body[h] = true;
        let mut work: Vec<usize> = latches.clone();
        while let Some(b) = work.pop() {
            if !body[b] {
                body[b] = true;
                work.extend(preds[b].iter().copied().filter(|&p| seen[p]));
            }
        }
        f.loops.push(NaturalLoop {
            header: h,
            body: (0..n).filter(|&b| body[b]).collect(),
            latches,
            parent: None,
        });
    }
    // Outer loops first (larger bodies), then parents: the smallest loop holding the header.
    f.loops
        .sort_by_key(|l| (std::cmp::Reverse(l.body.len()), l.header));
    for k in 0..f.loops.len() {
        let h = f.loops[k].header;
        f.loops[k].parent = (0..k)
            .rev()
            .find(|&o| f.loops[o].body.binary_search(&h).is_ok());
    }
    f
}

/// Hand-assembled functions the tests of this file and of `loop_headers` decode, one
/// instruction per element (addresses from 0x1000).
#[cfg(test)]
pub(crate) mod fixtures {
    /// 1000: xor eax, eax; 1002: add eax, [rdi] (header); 1004: add rdi, 8; 1008: dec rsi;
    /// 100b: jne 1002; 100d: ret.
    pub(crate) const SUM_LOOP: [&[u8]; 6] = [
        &[0x31, 0xc0],
        &[0x03, 0x07],
        &[0x48, 0x83, 0xc7, 0x08],
        &[0x48, 0xff, 0xce],
        &[0x75, 0xf5],
        &[0xc3],
    ];
    /// An outer loop at 1005 around an inner one at 100a: 1000: mov ecx, 4; 1005: mov edx, 8;
    /// 100a: add eax, [rdi] (inner header); 100c: dec edx; 100e: jne 100a; 1010: dec ecx;
    /// 1012: jne 1005; 1014: ret.
    pub(crate) const NESTED: [&[u8]; 8] = [
        &[0xb9, 0x04, 0x00, 0x00, 0x00],
        &[0xba, 0x08, 0x00, 0x00, 0x00],
        &[0x03, 0x07],
        &[0xff, 0xca],
        &[0x75, 0xfa],
        &[0xff, 0xc9],
        &[0x75, 0xf1],
        &[0xc3],
    ];
    /// An outer loop closed at its inner loop's header: 1000: xor eax, eax; 1002: jmp 1008;
    /// 1004: add eax, [rdi] (inner latch); 1006: nop; nop; 1008: cmp eax, esi (header);
    /// 100a: jne 1004 (inner back edge); 100c: dec ecx (outer latch); 100e: jne 1008 (outer
    /// back edge); 1010: ret.
    pub(crate) const SHARED_HEADER: [&[u8]; 9] = [
        &[0x31, 0xc0],
        &[0xeb, 0x04],
        &[0x03, 0x07],
        &[0x90, 0x90],
        &[0x39, 0xf0],
        &[0x75, 0xf8],
        &[0xff, 0xc9],
        &[0x75, 0xf8],
        &[0xc3],
    ];
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Hand-assembled x86-64, one instruction per line (addresses from 0x1000).
    fn code(parts: &[&[u8]]) -> Vec<u8> {
        parts.concat()
    }

    #[test]
    fn a_backward_conditional_jump_closes_a_loop_at_its_target() {
        // 1000: xor eax, eax
        // 1002: add eax, [rdi]        <- header
        // 1004: add rdi, 8
        // 1008: dec rsi
        // 100b: jne 1002
        // 100d: ret
        let c = code(&fixtures::SUM_LOOP);
        let f = function_loops(&c, 0x1000, &[]);
        assert_eq!(f.loops.len(), 1, "{f:?}");
        let l = &f.loops[0];
        assert_eq!(f.blocks[l.header].start, 0x1002);
        assert_eq!(l.body, vec![l.header]);
        assert_eq!(f.block_at(0x1008), Some(l.header));
        assert_eq!(f.block_at(0x100d).map(|b| f.blocks[b].start), Some(0x100d));
    }

    #[test]
    fn a_cold_block_jumping_back_into_straight_code_is_no_loop() {
        // The entry tests and jumps forward to a cold block, which jumps back to the middle:
        // 1000: test edi, edi
        // 1002: je 100a               -> cold
        // 1004: mov eax, 1            <- join (reached from the entry and from cold)
        // 1009: ret
        // 100a: mov eax, 2            cold
        // 100f: jmp 1004              backward, but 1004 does not dominate 100a
        let c = code(&[
            &[0x85, 0xff],
            &[0x74, 0x06],
            &[0xb8, 0x01, 0x00, 0x00, 0x00],
            &[0xc3],
            &[0xb8, 0x02, 0x00, 0x00, 0x00],
            &[0xeb, 0xf3],
        ]);
        let f = function_loops(&c, 0x1000, &[]);
        assert!(f.loops.is_empty(), "{f:?}");
        // The join is dominated by the entry only.
        let join = f.block_at(0x1004).unwrap();
        let cold = f.block_at(0x100a).unwrap();
        assert_eq!(f.idom[join], Some(0));
        assert_eq!(f.idom[cold], Some(0));
    }

    #[test]
    fn a_loop_entered_in_its_middle_has_the_dominating_block_as_header() {
        // A rotated loop entered at its test (the jump into the loop is forward), so the
        // block at the lowest address (the body) is not the header:
        let c = code(&[
            &[0xeb, 0x06],             // 1000: jmp 1008
            &[0x03, 0x07],             // 1002: add eax, [rdi]
            &[0x48, 0x83, 0xc7, 0x08], // 1004: add rdi, 8
            &[0x48, 0x39, 0xf7],       // 1008: cmp rdi, rsi  <- header (test)
            &[0x75, 0xf5],             // 100b: jne 1002
            &[0xc3],                   // 100d: ret
        ]);
        let f = function_loops(&c, 0x1000, &[]);
        assert_eq!(f.loops.len(), 1, "{f:?}");
        let l = &f.loops[0];
        assert_eq!(f.blocks[l.header].start, 0x1008, "{f:?}");
        let body: Vec<u64> = l.body.iter().map(|&b| f.blocks[b].start).collect();
        assert_eq!(body, vec![0x1002, 0x1008]);
        // The back edge is the body's fall-through into the test, not the backward jump.
        assert_eq!(
            l.latches
                .iter()
                .map(|&b| f.blocks[b].start)
                .collect::<Vec<_>>(),
            [0x1002]
        );
    }

    #[test]
    fn an_inner_loop_is_nested_in_the_outer_one() {
        // 1000: mov ecx, 4            outer init
        // 1005: mov edx, 8            <- outer header
        // 100a: add eax, [rdi]        <- inner header
        // 100c: dec edx
        // 100e: jne 100a              inner back edge
        // 1010: dec ecx
        // 1012: jne 1005              outer back edge
        // 1014: ret
        let c = code(&fixtures::NESTED);
        let f = function_loops(&c, 0x1000, &[]);
        assert_eq!(f.loops.len(), 2, "{f:?}");
        let (outer, inner) = (&f.loops[0], &f.loops[1]);
        assert_eq!(f.blocks[outer.header].start, 0x1005);
        assert_eq!(f.blocks[inner.header].start, 0x100a);
        assert_eq!(inner.parent, Some(0));
        assert_eq!(outer.parent, None);
        assert!(outer.body.contains(&inner.header));
        assert!(!inner.body.contains(&outer.header));
    }

    #[test]
    fn an_outer_loop_closed_at_its_inner_loops_header_splits_by_back_edge() {
        // The outer loop's next pass jumps into the inner loop's header (as rustc emitted a
        // list walk per element): one header, two back edges.
        // 1000: xor eax, eax
        // 1002: jmp 1008              -> shared header
        // 1004: add eax, [rdi]        inner latch (falls into the header)
        // 1006: nop; nop
        // 1008: cmp eax, esi          <- header
        // 100a: jne 1004              inner back edge
        // 100c: dec ecx               outer latch
        // 100e: jne 1008              outer back edge
        // 1010: ret
        let c = code(&fixtures::SHARED_HEADER);
        let f = function_loops(&c, 0x1000, &[]);
        assert_eq!(f.loops.len(), 1, "{f:?}");
        assert_eq!(f.loops[0].latches.len(), 2);
        let mut split: Vec<Vec<u64>> = f
            .per_latch(0)
            .iter()
            .map(|l| l.body.iter().map(|&b| f.blocks[b].start).collect())
            .collect();
        split.sort();
        // Each back edge's cycle through the header alone.
        assert_eq!(split, [vec![0x1004, 0x1008], vec![0x1008, 0x100c]]);
    }

    #[test]
    fn a_caller_leader_splits_a_block_and_the_split_stays_in_the_loop() {
        // The loop of the first test, with a leader at 1004 (a PC-table block address).
        let c = code(&fixtures::SUM_LOOP);
        let f = function_loops(&c, 0x1000, &[0x1004, 0x1005]);
        let l = &f.loops[0];
        let body: Vec<u64> = l.body.iter().map(|&b| f.blocks[b].start).collect();
        // 0x1005 is inside an instruction: ignored.
        assert_eq!(body, vec![0x1002, 0x1004]);
        assert_eq!(f.blocks[l.header].start, 0x1002);
    }
}
