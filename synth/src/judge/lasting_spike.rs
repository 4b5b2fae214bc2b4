//! A point left out of a fit at the sweep's largest size is checked before the verdict
//! stands: a spike that lasts above that size is where the program's behaviour begins, not
//! noise, and the verdict is `inconclusive` instead of the class of the points below it.
//!
//! Why: the fit gives no weight to a point far off the others (an amortized resize that
//! happens at one size of the sweep). When that point is the largest, it may instead be the
//! only one that reaches what the search found: a bounded buffer whose push shifts every
//! element once full was swept with its capacity fixed and its loops scaled, so only the
//! largest point was full; that point was left out, and the report said `no-bottleneck (cost
//! grows as O(1))` beside a fit error of 298% and a clock ratio of 42.8x. Both kinds of
//! point look alike; they differ just above their size. The largest program is run once
//! more with its loops [`NEIGHBOUR`] times as long: an amortized resize happens at one size
//! and is gone there (`VecDeque::push_front` at 8192 elements, not at 9216), a full buffer
//! stays full. A spike is *lasting* when the neighbour's cost stays above the geometric
//! middle of the spike and what the fit of the points kept predicts there.

use anyhow::Result;
use perfsyn_profiler_ipc::{Program, Stmt};

use crate::judge::swept::Swept;
use crate::run::exec::Executor;
use crate::search::Metric;

/// The neighbour of the largest program: its loops this many times as long.
pub const NEIGHBOUR: f64 = 1.125;
/// A left-out point is a spike when it costs more than this many times what the fit of the
/// points kept predicts at its size.
pub const SPIKE: f64 = 2.0;

/// `p` with every loop count (at any depth) `NEIGHBOUR` times as large, at least one more.
pub fn neighbour(p: &Program) -> Program {
    fn grow(body: &mut [Stmt]) {
        for s in body {
            if let Stmt::Repeat { n, body } = s {
                let m = (f64::from(*n) * NEIGHBOUR).round() as u32;
                *n = m.max(n.saturating_add(1));
                grow(body);
            }
        }
    }
    let mut q = p.clone();
    grow(&mut q.body);
    q
}

/// Whether a spike of cost `spike` lasts at a neighbour costing `next` where the fit of the
/// points kept predicts `fitted`: the neighbour stays above their geometric middle.
pub fn lasts(spike: f64, fitted: f64, next: f64) -> bool {
    next >= (spike.max(0.0) * fitted.max(1.0)).sqrt()
}

/// Checks a judgement that is not a bottleneck and left out the largest size as a spike
/// (see the module doc): when the spike lasts, the judgement becomes unreliable, with the
/// figures in its reason. Runs one program, and only in that case.
pub fn check(exec: &mut dyn Executor, swept: &mut Swept, metric: Metric) -> Result<()> {
    let j = &swept.judgement;
    if !j.reliable || j.bottleneck || !swept.points_from.is_sweep() {
        return Ok(());
    }
    let Some(&(top, spike)) = swept.points.iter().max_by_key(|p| p.0) else {
        return Ok(());
    };
    if !j.outliers.iter().any(|o| o.0 == top) {
        return Ok(());
    }
    let Some(fit) = j.fit else {
        return Ok(());
    };
    let expected = fit.at(top as f64).max(1.0);
    if spike <= SPIKE * expected {
        return Ok(());
    }
    let Some(at) = swept
        .sweep_fb
        .iter()
        .position(|f| swept.measure.of(f) == top)
    else {
        return Ok(());
    };
    let next = neighbour(&swept.sweep[at]);
    let fb = exec.run(std::slice::from_ref(&next))?.remove(0);
    if !fb.is_ok() || fb.calls == 0 {
        return Ok(());
    }
    let (size, cost) = (swept.measure.of(&fb), metric.of(&fb));
    let expected_next = fit.at(size as f64).max(1.0);
    if !lasts(spike, expected_next, cost) {
        return Ok(());
    }
    let j = &mut swept.judgement;
    j.reliable = false;
    j.bottleneck = false;
    j.verdict.evidence.reason = Some(format!(
        "the largest size ({top}) cost {spike} where the {} fit of the smaller sizes predicts {expected:.0}, and the cost stayed at {cost} at size {size} just above it: the program's behaviour begins near the largest size, which the points below do not show, so no class is claimed from them (a size or capacity the sweep does not scale with the loops?)",
        fit.class.label()
    ));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_spike_lasts_when_its_neighbour_stays_above_the_middle() {
        // A full buffer: 32780 at the top, 8 below, still full just above.
        assert!(lasts(32780.0, 8.0, 36870.0));
        // An amortized resize: gone just above its size.
        assert!(!lasts(4122.0, 12.0, 12.0));
    }

    #[test]
    fn the_neighbour_lengthens_every_loop() {
        let p = Program {
            vars: vec![],
            body: vec![
                Stmt::Repeat {
                    n: 8192,
                    body: vec![Stmt::Repeat { n: 1, body: vec![] }],
                },
                Stmt::Repeat { n: 3, body: vec![] },
            ],
        };
        let q = neighbour(&p);
        let counts: Vec<u32> = q
            .body
            .iter()
            .filter_map(|s| match s {
                Stmt::Repeat { n, body } => Some(
                    std::iter::once(*n)
                        .chain(body.iter().filter_map(|b| match b {
                            Stmt::Repeat { n, .. } => Some(*n),
                            _ => None,
                        }))
                        .collect::<Vec<u32>>(),
                ),
                _ => None,
            })
            .flatten()
            .collect();
        assert_eq!(counts, vec![9216, 2, 4]);
    }
}
