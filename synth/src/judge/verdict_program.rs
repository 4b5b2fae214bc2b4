//! The program an asymptotic verdict is swept on when the best-scoring one gives no verdict
//! (too few sizes, or a scatter no class explains): the widest one, the program with a loop
//! that reached the largest input.
//!
//! Why: the growth score rewards cost beyond the documented class, so for a method documented
//! O(n) that costs O(1) on most inputs (`VecDeque::remove(0)`, a rotation by 0) every larger
//! input scores lower than the empty one. p0 stays the best program; it has no loop to sweep,
//! and the verdict was `inconclusive` (one size) although the search had run the method on
//! thousands of elements. The widest program's sweep gives the sizes. It is judged by the same
//! statistics as any other, so a bottleneck found there is reported as one, and a method
//! within its class gets `no-bottleneck` instead of no answer.

use anyhow::Result;
use perfsyn_profiler_ipc::{Feedback, Program, Stmt};

use crate::judge::oracle::asymptotic::{judge, Judgement, Thresholds};
use crate::judge::size_measure::{self, SizeMeasure};
use crate::judge::swept::{PointsFrom, Swept};
use crate::report::class::Class;
use crate::run::exec::Executor;
use crate::search::{Metric, Node};

/// The widest node besides `besides`: a program with a loop (so it can be swept) that ran the
/// call under test on the largest input; the costlier one of equal sizes, the earlier one
/// of equal costs (deterministic).
pub fn widest(nodes: &[Node], besides: usize) -> Option<usize> {
    let mut best: Option<usize> = None;
    for (i, n) in nodes.iter().enumerate() {
        let sweepable = n
            .program
            .body
            .iter()
            .any(|s| matches!(s, Stmt::Repeat { .. }));
        if i == besides || !sweepable || !n.feedback.is_ok() || n.feedback.calls == 0 {
            continue;
        }
        let better = best.is_none_or(|b| {
            let o = &nodes[b].obs;
            (n.obs.size, n.obs.cost) > (o.size, o.cost)
        });
        if better {
            best = Some(i);
        }
    }
    best.filter(|&i| nodes[i].obs.size > 0)
}

/// Sweeps `program` (which ran on an input of `size`) and judges it as `explore` judges its
/// best program: the sweep when it gives enough sizes, else `path_points`; the heap bytes
/// when the registered size gives no verdict.
#[allow(clippy::too_many_arguments)]
pub fn sweep_and_judge(
    exec: &mut dyn Executor,
    program: &Program,
    size: u64,
    path_points: Vec<(u64, f64)>,
    max_loop: u32,
    metric: Metric,
    expected: Option<Class>,
    t: &Thresholds,
) -> Result<Swept> {
    let crate::judge::sweep::Sweeps {
        main: sweep,
        rearranging_kept,
        arguments_kept,
        scaled,
    } = crate::judge::sweep::sweeps(exec, program, size, max_loop)?;
    let sweep_fb = if sweep.is_empty() {
        Vec::new()
    } else {
        exec.run(&sweep)?
    };
    let by_len = size_measure::points(&sweep_fb, SizeMeasure::Len, metric);
    let mut sizes: Vec<u64> = by_len.iter().map(|p| p.0).collect();
    sizes.dedup();
    let (mut points, mut points_from) = if sizes.len() >= t.min_points {
        (by_len, PointsFrom::Sweep)
    } else {
        let mut p = path_points;
        p.sort_by(|a, b| a.0.cmp(&b.0).then(a.1.total_cmp(&b.1)));
        (p, PointsFrom::Path)
    };
    let j = judge(&points, expected, t);
    let (judgement, measure, heap) = size_measure::choose(j, &sweep_fb, metric, expected, t);
    if let Some(p) = heap {
        points = p;
        points_from = PointsFrom::SweepHeapBytes;
    }
    let mut swept = Swept {
        sweep,
        sweep_fb,
        points,
        points_from,
        judgement,
        measure,
        rearranging_note: None,
        scaled,
    };
    if !swept.judgement.reliable {
        // A fixed-capacity receiver whose size the capacity sets (see `capacity_sweep`).
        let ladder =
            crate::judge::capacity_sweep::judge_on_ladder(exec, program, metric, expected, t)?;
        if let Some(mut on_ladder) = ladder {
            crate::judge::lasting_spike::check(exec, &mut on_ladder, metric)?;
            return Ok(on_ladder);
        }
    }
    if !swept.judgement.reliable && swept.points_from == PointsFrom::Sweep {
        let above = crate::judge::regime::judge_above_fall(
            exec,
            program,
            size,
            &swept.points,
            max_loop,
            metric,
            expected,
            t,
        )?;
        if let Some(a) = above {
            swept = Swept {
                sweep: a.sweep,
                sweep_fb: a.sweep_fb,
                points: a.points,
                points_from: PointsFrom::SweepAboveFall,
                judgement: a.judgement,
                measure: SizeMeasure::Len,
                rearranging_note: Some(a.note),
                scaled: Vec::new(),
            };
            // The rearranging check below is the first sweep's; this one stands alone.
            return Ok(swept);
        }
    }
    let swept = match rearranging_kept {
        Some(alt) if swept.judgement.bottleneck && swept.points_from != PointsFrom::Path => {
            robust_to_rearranging(exec, swept, alt, metric, expected, t)?
        }
        _ => swept,
    };
    let mut swept = match (arguments_kept, expected) {
        (Some(alt), Some(c))
            if c <= Class::Log
                && swept.judgement.bottleneck
                && swept.points_from != PointsFrom::Path =>
        {
            in_the_receivers_size(exec, swept, alt, metric, c, t)?
        }
        _ => swept,
    };
    crate::judge::lasting_spike::check(exec, &mut swept, metric)?;
    Ok(swept)
}

/// A bottleneck against a documented O(1) or O(log n) holds only when the sweep that keeps
/// the loops growing only the call's arguments at their count (`sweep::argument_only`) gives
/// it too: a method that cost O(1) or O(log n) in its argument's length could not even read
/// the argument, so such a class speaks of the receiver's size, and growth in the arguments
/// alone is not against it (`WordSet::insert(&str)` over a `BTreeSet<String>`: O(n) in the
/// word's length with the set empty). When the second sweep disagrees, its judgement (often:
/// too few sizes, as the receiver never grew) is the verdict, and the note says why.
fn in_the_receivers_size(
    exec: &mut dyn Executor,
    swept: Swept,
    alt: Vec<Program>,
    metric: Metric,
    expected: Class,
    t: &Thresholds,
) -> Result<Swept> {
    let alt_fb = exec.run(&alt)?;
    let points = size_measure::points(&alt_fb, swept.measure, metric);
    let j = judge(&points, Some(expected), t);
    if j.bottleneck {
        return Ok(swept);
    }
    let note = format!(
        "the cost grew as {} with the call's arguments, but the documented {expected} speaks of the receiver's size: with the loops that grow only the arguments kept at their count the sweep gives {}",
        label(&swept.judgement),
        label(&j),
    );
    Ok(judged_on(swept, alt, alt_fb, points, j, note))
}

/// A judgement's class, in words.
pub(crate) fn label(j: &Judgement) -> String {
    j.fit
        .map_or("no class".to_string(), |f| f.class.label().to_string())
}

/// `swept` replaced by the judgement on another sweep of the same program, with why.
pub(crate) fn judged_on(
    swept: Swept,
    sweep: Vec<Program>,
    sweep_fb: Vec<Feedback>,
    points: Vec<(u64, f64)>,
    judgement: Judgement,
    note: String,
) -> Swept {
    Swept {
        sweep,
        sweep_fb,
        points,
        judgement,
        rearranging_note: Some(note),
        ..swept
    }
}

/// A bottleneck holds only when the sweep with the rearranging loops kept at their count
/// gives it too, with the same class: a class that needs those loops scaled (and so the
/// input's arrangement drifting along the sweep) is not a class of the input size. When the
/// second sweep disagrees, its judgement is the verdict, and the note says why.
fn robust_to_rearranging(
    exec: &mut dyn Executor,
    swept: Swept,
    alt: Vec<Program>,
    metric: Metric,
    expected: Option<Class>,
    t: &Thresholds,
) -> Result<Swept> {
    let alt_fb = exec.run(&alt)?;
    let points = size_measure::points(&alt_fb, swept.measure, metric);
    // The loops were told apart at the top of the sweep only: one whose elements overlap
    // another loop's there (adding keys that are already in) carries the size lower down.
    // Only loops that move no size at any point of the sweep are rearranging ones.
    let sizes = |pts: &[(u64, f64)]| pts.iter().map(|p| p.0).collect::<Vec<_>>();
    if sizes(&points) != sizes(&swept.points) {
        return Ok(swept);
    }
    let j = judge(&points, expected, t);
    let class = |j: &Judgement| j.fit.map(|f| f.class);
    if j.bottleneck && class(&j) == class(&swept.judgement) {
        return Ok(swept);
    }
    let note = format!(
        "the sweep that scales every loop gave {}, but with the loops that only rearrange the input (same size, same heap bytes) kept at their count it gives {}: the class depends on the arrangement, not on the size",
        label(&swept.judgement),
        label(&j),
    );
    Ok(judged_on(swept, alt, alt_fb, points, j, note))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::objective::Obs;
    use perfsyn_profiler_ipc::{Cost, Outcome};

    fn node(size: u64, cost: f64, with_loop: bool, ok: bool) -> Node {
        let body = if with_loop {
            vec![Stmt::Repeat {
                n: 4,
                body: Vec::new(),
            }]
        } else {
            Vec::new()
        };
        Node {
            program: Program {
                vars: Vec::new(),
                body,
            },
            parent: None,
            mutation: None,
            depth: 0,
            feedback: Feedback {
                outcome: if ok { Outcome::Ok } else { Outcome::Timeout },
                cost: Cost::default(),
                input_size: size,
                heap_bytes: 0,
                calls: 1,
                hot: Vec::new(),
                fuel_spent: 0,
            },
            feedback_ref: None,
            obs: Obs {
                size,
                cost,
                cost_ref: None,
            },
            score: 0.0,
            novel: false,
            expansions: 0,
            found_ms: 0,
        }
    }

    #[test]
    fn the_widest_sweepable_program_is_chosen() {
        let nodes = vec![
            node(0, 11.0, false, true),
            node(4096, 11.0, true, true),
            node(65536, 11.0, false, true),
            node(8192, 11.0, true, false),
            node(4096, 30.0, true, true),
            node(4096, 30.0, true, true),
        ];
        assert_eq!(widest(&nodes, 0), Some(4));
        assert_eq!(widest(&nodes, 4), Some(5));
        assert_eq!(widest(&nodes[..1], 0), None);
        assert_eq!(
            widest(&[node(0, 5.0, true, true)], 9),
            None,
            "size 0 is no wider"
        );
    }
}
