//! The capacity sweep: a program whose receiver is a fixed-capacity type, run at each
//! capacity of the type's ladder (`harness/rungs.rs`) and judged on the sizes that gives.
//!
//! Why: a constructor that fills a fixed-capacity container (`ArrayString::zero_filled()`)
//! makes the largest input in one statement, so the search prefers it, and no loop of the
//! program varies its size: the loop sweep of `ArrayString::pop`'s best program gave sizes
//! 7936..8192 (0.01 decades) and no class. There the capacity is the input size, and the
//! ladder's registrations (16, 128, 1024 and the main 8192) give four sizes over 2.7 decades.
//! It is tried only when the loop sweep gave no verdict, and kept only when it gives one; a
//! program whose size does not follow the capacity gives one size here and changes nothing.

use anyhow::Result;
use perfsyn_profiler_ipc::{Program, Stmt};

use crate::harness::rungs;
use crate::judge::oracle::asymptotic::{judge, Thresholds};
use crate::judge::size_measure::{self, SizeMeasure};
use crate::judge::swept::{PointsFrom, Swept};
use crate::report::class::Class;
use crate::run::exec::Executor;
use crate::search::Metric;

/// The type of the receiver of `p`'s first call under test.
pub fn receiver_type(body: &[Stmt]) -> Option<&str> {
    body.iter().find_map(|s| match s {
        Stmt::Call {
            ty,
            under_test: true,
            ..
        } => Some(ty.as_str()),
        Stmt::Repeat { body, .. } => receiver_type(body),
        _ => None,
    })
}

/// `p` at every level of its receiver's capacity ladder, smallest capacity first (empty when
/// the receiver has no ladder).
pub fn ladder_programs(schema: &perfsyn_profiler_ipc::ApiSchema, p: &Program) -> Vec<Program> {
    let Some(ty) = receiver_type(&p.body) else {
        return Vec::new();
    };
    rungs::ladder(schema, ty)
        .iter()
        .filter_map(|t| rungs::at_level(schema, p, rungs::level(t)))
        .collect()
}

/// `p` judged on the capacity sweep, when its receiver has a ladder and the sweep gives a
/// verdict (`None` otherwise).
pub fn judge_on_ladder(
    exec: &mut dyn Executor,
    p: &Program,
    metric: Metric,
    expected: Option<Class>,
    t: &Thresholds,
) -> Result<Option<Swept>> {
    let sweep = ladder_programs(exec.schema(), p);
    if sweep.len() < t.min_points {
        return Ok(None);
    }
    let sweep_fb = exec.run(&sweep)?;
    let points = size_measure::points(&sweep_fb, SizeMeasure::Len, metric);
    let judgement = judge(&points, expected, t);
    if !judgement.reliable {
        return Ok(None);
    }
    let capacities: Vec<String> =
        rungs::ladder(exec.schema(), receiver_type(&p.body).unwrap_or(""))
            .iter()
            .map(|t| t.name.clone())
            .collect();
    Ok(Some(Swept {
        sweep,
        sweep_fb,
        points,
        points_from: PointsFrom::CapacityLadder,
        judgement,
        measure: SizeMeasure::Len,
        rearranging_note: None,
        scaled: vec![format!(
            "the receiver's capacity: the program at {}",
            capacities.join(", ")
        )],
    }))
}
