//! Which explored programs a two-sided relative run reports: on each side (regression,
//! improvement) the program with the most extreme cost ratio new/old among those whose gap
//! is at least [`MIN_GAP`].
//!
//! Why not the largest gap (the search's score, eq. 3.3): the verdict compares a ratio with
//! t_rel, and for a change that costs a constant amount per call or per element the gap
//! keeps growing with the input while the ratio falls toward 1 (the shared work dominates).
//! A temporary list that adds 28 cost units to a 39-unit call is a 1.7x regression on one
//! element and a 1.06x one on 256; the largest gap picks the second. The ratio alone would
//! pick programs whose gap is a couple of edges (a call that costs 3 instead of 4 passes
//! any threshold), which no wall clock can see and no user cares about: [`MIN_GAP`] keeps
//! those out. A side where no program reaches [`MIN_GAP`] falls back to its largest gap.

use crate::search::objective::Obs;

/// The smallest gap |c_new - c_old| (in the metric's units; edges for the default cost) a
/// program needs to be chosen for its ratio: a handful of branches, so that a ratio never
/// rests on two or three edges.
///
/// Checked on the relative tuning cases of `perfsyn bench search` only
/// (`corpus/cases/bench_search.json` R1-R4, RK1-RK3, disjoint from the suite; command
/// `perfsyn bench search --cases 'R?,RK?'`: 400 programs, seeds 1-2, A*, ACO and random):
/// every floor from 0 to 256 gives the same outcomes, 24/24 planted changes detected and
/// 0/18 false positives, so the tuning cases do not pin the value and 16 is kept. The
/// figures that bound it: the smallest reported gap of a planted change is 8 (R1, a
/// constant 8 units per call, 1.471x at size 0); the noise controls' largest gap is 1
/// (ratios 1.062 and 1.083: the cheapest call already costs about 11 units, so one edge
/// cannot reach t_rel). Making the floor a condition for a side to pass (rather than only
/// ranking) was measured too and rejected: at 16 it loses R1 and one R4 run (17/24) and
/// prevents no false positive.
pub const MIN_GAP: f64 = 16.0;

/// The programs reported on each side among `obs` (index, observation):
/// `(regression, improvement)`. A regression costs more on the version under analysis; on
/// each side the largest ratio among gaps of at least [`MIN_GAP`] wins, ties to the larger
/// gap and then the first index, so the choice is deterministic; a side without such a gap
/// takes its largest gap.
pub fn pick(obs: impl IntoIterator<Item = (usize, Obs)>) -> (Option<usize>, Option<usize>) {
    pick_with(obs, MIN_GAP)
}

/// [`pick`] with another floor than [`MIN_GAP`] (`perfsyn bench search` compares floors).
pub fn pick_with(
    obs: impl IntoIterator<Item = (usize, Obs)>,
    min_gap: f64,
) -> (Option<usize>, Option<usize>) {
    // Per side: (index, gap, ratio on that side) of the best by ratio and of the best by gap.
    type Best = Option<(usize, f64, f64)>;
    let mut by_ratio: [Best; 2] = [None, None];
    let mut by_gap: [Best; 2] = [None, None];
    for (i, o) in obs {
        let Some(r) = o.cost_ref else { continue };
        let gap = o.cost - r;
        if gap == 0.0 || !gap.is_finite() {
            continue;
        }
        let side = usize::from(gap < 0.0);
        let (gap, ratio) = if side == 0 {
            (gap, (o.cost + 1.0) / (r + 1.0))
        } else {
            (-gap, (r + 1.0) / (o.cost + 1.0))
        };
        if by_gap[side].is_none_or(|(_, g, _)| gap > g) {
            by_gap[side] = Some((i, gap, ratio));
        }
        let better = |(_, g, q): (usize, f64, f64)| ratio > q || (ratio == q && gap > g);
        if gap >= min_gap && by_ratio[side].is_none_or(better) {
            by_ratio[side] = Some((i, gap, ratio));
        }
    }
    let choose = |s: usize| by_ratio[s].or(by_gap[s]).map(|x| x.0);
    (choose(0), choose(1))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn o(cost: f64, r: f64) -> Obs {
        Obs {
            size: 1,
            cost,
            cost_ref: Some(r),
        }
    }

    #[test]
    fn the_largest_ratio_with_a_visible_gap_wins_on_each_side() {
        let obs = [
            o(67.0, 39.0),       // regression 1.7x, gap 28
            o(14176.0, 13377.0), // regression 1.06x, the largest gap
            o(4.0, 3.0),         // regression 1.25x, gap 1: too small to count
            o(30.0, 15.0),       // regression 1.94x, gap 15: too small as well
            o(40.0, 400.0),      // improvement 9.8x
            o(9000.0, 9500.0),   // improvement 1.06x, larger gap
            o(5.0, 5.0),
        ];
        assert_eq!(pick(obs.iter().copied().enumerate()), (Some(0), Some(4)));
    }

    #[test]
    fn small_gaps_fall_back_to_the_largest_gap() {
        let obs = [o(13.0, 14.0), o(3.0, 5.0), o(8.0, 7.0)];
        assert_eq!(pick(obs.iter().copied().enumerate()), (Some(2), Some(1)));
        assert_eq!(pick([(0, o(3.0, 3.0))]), (None, None));
        let solo = Obs {
            size: 1,
            cost: 5.0,
            cost_ref: None,
        };
        assert_eq!(pick([(0, solo)]), (None, None));
    }

    #[test]
    fn the_floor_decides_which_gaps_are_ranked_by_ratio() {
        // Ratios 2.0 (gap 4), 1.5 (gap 20) and 1.1 (gap 100).
        let obs = [o(7.0, 3.0), o(59.0, 39.0), o(1099.0, 999.0)];
        let at = |f: f64| pick_with(obs.iter().copied().enumerate(), f).0;
        assert_eq!(at(0.0), Some(0));
        assert_eq!(at(5.0), Some(1));
        assert_eq!(at(21.0), Some(2));
        // Above every gap: the largest gap.
        assert_eq!(at(1000.0), Some(2));
    }

    #[test]
    fn equal_ratios_go_to_the_larger_gap_then_the_first_index() {
        let obs = [o(50.0, 24.0), o(101.0, 50.0), o(101.0, 50.0)];
        // 51/25 = 2.04 and 102/51 = 2.0: the first has the larger ratio.
        assert_eq!(pick(obs.iter().copied().enumerate()).0, Some(0));
        let obs = [o(99.0, 49.0), o(199.0, 99.0), o(199.0, 99.0)];
        // Both ratios are 2.0: the larger gap (index 1) wins over index 2.
        assert_eq!(pick(obs.iter().copied().enumerate()).0, Some(1));
    }
}
