//! The order in which a batch's programs go to the workers, and how many go in one request.
//!
//! A batch ends when its last program does, and the search waits for the whole batch
//! before it chooses the next. Program times within one batch differ by three orders of
//! magnitude (a child that doubles a 16k-element setup loop next to one that changes a
//! value), so in submission order a slow program posted last kept one worker busy while
//! the other idled: a scheduler trace (`perf record -a -e sched:sched_switch`) of
//! `explore --method BTreeMap::insert --seed 1 --max-programs 300` showed both cores idle
//! 22% of the search's wall time, most of it in such tails. This is the classic remedy,
//! longest processing time first: programs are posted heaviest first by a static estimate
//! of their work, heavy ones one per request, light ones grouped, so that what is left at
//! the end of a batch is short.
//!
//! Only the posting order changes: every program still gets its own feedback, in
//! submission order, and a program's outcome and costs do not depend on which worker runs
//! it or when (the fork servers' shared table of setups makes both paths equal, see
//! [`crate::forkserver`]).

use crate::program::{Program, Stmt};

/// Each request holds about the work left over this many times the workers (guided
/// self-scheduling): large requests while much is left (few round trips), single programs
/// at the end of a batch, where a request of several would keep one worker busy while the
/// others idle.
const REQUESTS_PER_WORKER: u64 = 4;

/// Statements a run of `p` executes, loop bodies once per iteration (saturating): a
/// static stand-in for its cost, used only to order a batch.
pub fn work_estimate(p: &Program) -> u64 {
    fn work(stmts: &[Stmt]) -> u64 {
        stmts
            .iter()
            .map(|s| match s {
                Stmt::Repeat { n, body } => {
                    1u64.saturating_add((*n as u64).saturating_mul(work(body)))
                }
                _ => 1,
            })
            .fold(0u64, u64::saturating_add)
    }
    work(&p.body)
}

/// The posting plan of a batch: `order` lists the programs' indices heaviest first (ties in
/// submission order), and `chunks` cuts `order` into consecutive requests `[s, e)`.
#[derive(Debug, PartialEq, Eq)]
pub struct Plan {
    pub order: Vec<usize>,
    pub chunks: Vec<(usize, usize)>,
}

/// Plans a batch of programs whose estimated work is `work` for `workers` workers: each
/// request holds programs until its estimate reaches the work not yet planned over
/// `workers * REQUESTS_PER_WORKER`, so a heavy program travels alone, light ones together,
/// and the last requests hold one program each.
pub fn plan(work: &[u64], workers: usize) -> Plan {
    let mut order: Vec<usize> = (0..work.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(work[i]));
    let share = workers.max(1) as u64 * REQUESTS_PER_WORKER;
    let mut left = work.iter().fold(0u64, |a, &w| a.saturating_add(w.max(1)));
    let mut chunks = Vec::new();
    let mut start = 0;
    let mut acc = 0u64;
    let mut target = (left / share).max(1);
    for (k, &i) in order.iter().enumerate() {
        acc = acc.saturating_add(work[i].max(1));
        if acc >= target {
            chunks.push((start, k + 1));
            start = k + 1;
            left = left.saturating_sub(acc);
            acc = 0;
            target = (left / share).max(1);
        }
    }
    if start < order.len() {
        chunks.push((start, order.len()));
    }
    Plan { order, chunks }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::program::Literal;

    fn looped(n: u32) -> Program {
        let mut p = Program::default();
        let v = p.fresh("u64");
        p.body.push(Stmt::Repeat {
            n,
            body: vec![Stmt::Lit {
                out: v,
                value: Literal::Bool(true),
            }],
        });
        p
    }

    #[test]
    fn work_counts_each_iteration_of_a_loop() {
        assert_eq!(work_estimate(&looped(1000)), 1001);
        assert_eq!(work_estimate(&Program::default()), 0);
    }

    #[test]
    fn heavy_programs_go_first_and_alone() {
        let mut work = vec![1u64; 20];
        work[7] = 1000;
        work[12] = 500;
        let p = plan(&work, 2);
        assert_eq!(&p.order[..2], &[7, 12]);
        assert_eq!(p.chunks[0], (0, 1));
        assert_eq!(p.chunks[1], (1, 2));
        // Ties keep submission order, and every program is in exactly one request.
        assert_eq!(&p.order[2..5], &[0, 1, 2]);
        let covered: usize = p.chunks.iter().map(|(s, e)| e - s).sum();
        assert_eq!(covered, 20);
        assert!(p.chunks.windows(2).all(|w| w[0].1 == w[1].0));
    }

    #[test]
    fn requests_shrink_to_single_programs_at_the_end_of_a_batch() {
        let p = plan(&[10; 32], 2);
        assert_eq!(p.order, (0..32).collect::<Vec<_>>());
        let sizes: Vec<usize> = p.chunks.iter().map(|(s, e)| e - s).collect();
        assert_eq!(sizes.iter().sum::<usize>(), 32);
        assert_eq!(sizes[0], 4, "{sizes:?}");
        assert!(sizes.windows(2).all(|w| w[0] >= w[1]), "{sizes:?}");
        assert!(
            sizes[sizes.len() - 4..].iter().all(|&s| s == 1),
            "{sizes:?}"
        );
    }
}
