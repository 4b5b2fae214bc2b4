//! A second sweep above a change of regime, when the verdict sweep gives no verdict because
//! its lower points belong to another regime than its upper ones.
//!
//! A B-tree rope keeps text in leaves of about 1 KB: up to one leaf, a lookup scans the
//! leaf (cost grows with the size); once the text splits into several leaves it descends
//! the tree and scans one short leaf (cost falls by 5-15 times, then grows slowly). The
//! verdict sweep (41..4096 bytes) straddles that boundary, the cost scatters around every
//! class by 40-80%, and ropey got `inconclusive` for 93 of 232 documented methods. The
//! complexity of a method is its cost at large inputs, so when the cost *falls* by more
//! than half between two consecutive sizes of the sweep (a growing input getting cheaper is
//! a change of structure, not noise), the program is swept again with its smallest size
//! above that fall: the top aims for [`DECADES_ABOVE`] x the first size after the fall, with
//! loops up to [`LOOP_REACH`] x the search's limit (the user's fuel still bounds every
//! run), and only the points at or above that size are judged. The judgement is the same
//! as any other's (a class needs a decade of sizes and enough points; a bottleneck needs
//! the documented class to fit significantly worse), and the reason names the range judged
//! and the fall that excluded the lower points.

use anyhow::Result;
use perfsyn_profiler_ipc::{Feedback, Program};

use crate::judge::oracle::asymptotic::{judge, Judgement, Thresholds};
use crate::judge::size_measure::{self, SizeMeasure};
use crate::report::class::Class;
use crate::run::exec::Executor;
use crate::search::Metric;

/// The top of the second sweep aims for this many times the first size after the fall: the
/// sweep spans two decades, so its smallest size then lies above the fall.
pub const DECADES_ABOVE: u64 = 100;

/// The second sweep's loops may reach this many times the search's loop limit.
pub const LOOP_REACH: u32 = 16;

/// The last fall of the cost by more than half between consecutive sizes of `points`
/// (sorted by size): the first size after it, and the two points; `None` without one.
pub fn fall(points: &[(u64, f64)]) -> Option<(u64, (u64, f64), (u64, f64))> {
    let mut out = None;
    for w in points.windows(2) {
        let ((s0, c0), (s1, c1)) = (w[0], w[1]);
        if s1 > s0 && c0 > 0.0 && c1 < c0 / 2.0 {
            out = Some((s1, w[0], w[1]));
        }
    }
    out
}

/// The points at or above `from`.
pub fn above(points: &[(u64, f64)], from: u64) -> Vec<(u64, f64)> {
    points.iter().copied().filter(|p| p.0 >= from).collect()
}

/// The second sweep of `program` above the fall in `points` and its judgement, with the
/// note for the reason; `None` when the points do not fall or the sweep above gives no
/// reliable judgement either.
#[allow(clippy::too_many_arguments)]
pub fn judge_above_fall(
    exec: &mut dyn Executor,
    program: &Program,
    size: u64,
    points: &[(u64, f64)],
    max_loop: u32,
    metric: Metric,
    expected: Option<Class>,
    t: &Thresholds,
) -> Result<Option<Above>> {
    let Some((from, before, after)) = fall(points) else {
        return Ok(None);
    };
    let reach = max_loop.saturating_mul(LOOP_REACH);
    let target = from.saturating_mul(DECADES_ABOVE);
    let sweep = crate::judge::sweep::sweeps_to(exec, program, size, reach, target)?.main;
    if sweep.is_empty() {
        return Ok(None);
    }
    let sweep_fb = exec.run(&sweep)?;
    let pts = above(
        &size_measure::points(&sweep_fb, SizeMeasure::Len, metric),
        from,
    );
    let j = judge(&pts, expected, t);
    if !j.reliable {
        return Ok(None);
    }
    let (lo, hi) = (
        pts.first().map_or(0, |p| p.0),
        pts.last().map_or(0, |p| p.0),
    );
    let note = format!(
        "judged on sizes {lo}..{hi} only: on the first sweep the cost fell from {:.0} at size {} to {:.0} at size {} as the input grew, a change of regime, so the sizes below {from} were left out",
        before.1, before.0, after.1, after.0
    );
    Ok(Some(Above {
        sweep,
        sweep_fb,
        points: pts,
        judgement: j,
        note,
    }))
}

/// A sweep above a fall and its judgement.
#[derive(Clone, Debug)]
pub struct Above {
    pub sweep: Vec<Program>,
    pub sweep_fb: Vec<Feedback>,
    pub points: Vec<(u64, f64)>,
    pub judgement: Judgement,
    pub note: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_last_fall_by_more_than_half_starts_the_upper_regime() {
        // ropey's `Rope::line` (sizes in bytes): the text splits into leaves past ~1 KB.
        let pts = [
            (60, 327.0),
            (117, 536.0),
            (189, 531.0),
            (318, 739.0),
            (522, 986.0),
            (861, 1533.0),
            (1413, 259.0),
            (2334, 281.0),
            (3810, 314.0),
            (6144, 369.0),
        ];
        assert_eq!(fall(&pts), Some((1413, (861, 1533.0), (1413, 259.0))));
        assert_eq!(above(&pts, 1413).len(), 4);
        // A cost that dips by less than half is noise, not a regime.
        let noisy = [(10, 100.0), (20, 60.0), (40, 110.0)];
        assert_eq!(fall(&noisy), None);
    }
}
