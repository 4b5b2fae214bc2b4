//! Whether the clock contradicts an asymptotic bottleneck: the cost grew faster than the
//! documented class, but wall-clock time between the sweep's largest and smallest inputs did
//! not.
//!
//! Why: the verdict rests on a deterministic cost (instrumented edges and bytes moved), which
//! usually tracks time, but not always. A wrapper of `str::find` (documented O(n)) costs 0.5
//! edges a byte up to needles of a few thousand bytes and 2 past them, where the standard
//! library switches search algorithms: the sweep's points fit O(n^2) with a log-log slope
//! interval of [1.15, 1.49], which excludes O(n)'s 1, and the run reported a bottleneck. The
//! clock, on the uninstrumented twin, took 84 times as long for 100 times the size, which a
//! linear cost explains. A user shown "O(n^2)" there would chase a bug that is not in the
//! code.
//!
//! The rule compares the growth beyond the documented class that each measure shows between
//! the two arms, on a log scale: the claim is withdrawn when the time ratio is significant
//! (`confirm`'s test) and shows less than half of the excess the cost ratio shows, i.e. is at
//! most the geometric mean of the documented class's ratio over the arms' sizes and the cost
//! ratio. Why relative to the cost and not to the class the cost was fitted to: an offset (a
//! fixed cost per call) flattens both ratios alike, so a true O(n) behind a documented O(1)
//! with a large constant has a small cost ratio and a time ratio as small; only a measure
//! that disagrees with the clock is caught. Why half: on the runs behind this rule (strsim's
//! `levenshtein`, similar's LCS diff, a `Vec::remove` loop, a quadratic `unique`, two planted
//! O(n) behind O(1), each confirmed two to five times) the true bottlenecks' time ratios were
//! at least 1.9 times that mean, and the `str::find` wrapper's at most 0.7 times it in three
//! confirmations, one of which (51x the time over 50x the size, for 114x the cost) the bare
//! class allowance would have let through. A clock that shows nothing (calls too short, not
//! significant) withdraws nothing: the deterministic verdict stands, with `confirm`'s note
//! that time could not show it.

use super::fit::Class;

/// The two timed arms of an asymptotic confirmation, as the verdict measured them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TimedArms {
    /// Input size (in the measure the verdict used) of the smallest and the largest arm.
    pub small: u64,
    pub big: u64,
    /// Mean wall-clock time of the largest arm over the smallest's.
    pub time_ratio: f64,
    /// Deterministic cost of the largest arm over the smallest's.
    pub cost_ratio: f64,
    /// Whether the time difference is significant (`confirm`'s Welch test and 5% margin).
    pub significant: bool,
}

/// Why the clock contradicts a claim that the cost grows faster than `expected`, in words;
/// `None` when it does not (or cannot say).
pub fn contradicts(expected: Class, arms: &TimedArms) -> Option<String> {
    if !arms.significant || arms.small == 0 || arms.big <= arms.small {
        return None;
    }
    let allowed = expected.g(arms.big as f64) / expected.g(arms.small as f64);
    let bar = (allowed * arms.cost_ratio.max(allowed)).sqrt();
    if !bar.is_finite() || !arms.time_ratio.is_finite() || arms.time_ratio > bar {
        return None;
    }
    Some(format!(
        "but wall-clock time does not show it: from size {} to {} the time grew {:.1}x where the documented {expected} allows {allowed:.1}x and the cost grew {:.1}x (a bottleneck needs the time past {bar:.1}x, half the cost's excess on a log scale); the cost measure does not track time on these inputs (an algorithm that switches along the sweep?), so no bottleneck is claimed",
        arms.small, arms.big, arms.time_ratio, arms.cost_ratio
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn arms(time_ratio: f64, significant: bool) -> TimedArms {
        TimedArms {
            small: 99,
            big: 9916,
            time_ratio,
            cost_ratio: 212.5,
            significant,
        }
    }

    #[test]
    fn time_within_the_documented_class_withdraws_the_claim() {
        // The `str::find` wrapper: 84x the time for 100x the size.
        let why = contradicts(Class::Linear, &arms(83.6, true)).expect("contradicted");
        assert!(why.contains("83.6x"), "{why}");
        assert!(why.contains("O(n)"), "{why}");
    }

    #[test]
    fn time_that_outgrows_the_documented_class_by_half_the_costs_excess_confirms_it() {
        assert_eq!(contradicts(Class::Linear, &arms(8975.0, true)), None);
        // O(n) allows 100.2x over these sizes, the cost grew 212.5x: the bar is their
        // geometric mean, 145.9x.
        assert_eq!(contradicts(Class::Linear, &arms(150.0, true)), None);
        assert!(contradicts(Class::Linear, &arms(140.0, true)).is_some());
        // Just above what O(n) allows is not enough when the cost grew twice as much.
        assert!(contradicts(Class::Linear, &arms(101.0, true)).is_some());
        // O(log n) allows only about twice the time over these sizes.
        assert!(contradicts(Class::Log, &arms(1.5, true)).is_some());
        assert_eq!(contradicts(Class::Log, &arms(30.0, true)), None);
    }

    #[test]
    fn an_offset_that_flattens_cost_and_time_alike_withdraws_nothing() {
        // A true O(n) behind a documented O(1), whose fixed cost per call dominates the
        // smallest arm: the cost grew only 4.9x over 100x the size, and the time as much.
        let a = TimedArms {
            small: 41,
            big: 4096,
            time_ratio: 4.7,
            cost_ratio: 4.9,
            significant: true,
        };
        assert_eq!(contradicts(Class::Constant, &a), None);
    }

    #[test]
    fn a_clock_that_shows_nothing_or_sizes_that_do_not_grow_withdraw_nothing() {
        assert_eq!(contradicts(Class::Linear, &arms(1.01, false)), None);
        let mut a = arms(1.0, true);
        a.small = 0;
        assert_eq!(contradicts(Class::Linear, &a), None);
        a.small = 9916;
        assert_eq!(contradicts(Class::Linear, &a), None);
    }
}
