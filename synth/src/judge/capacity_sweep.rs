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
fn receiver_type(body: &[Stmt]) -> Option<&str> {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::harness::spec::fixture::one_method_type;
    use crate::judge::verdict_program::sweep_and_judge;
    use perfsyn_profiler_ipc::schema::{Mode, Rung, TypeSchema};
    use perfsyn_profiler_ipc::{ApiSchema, Feedback, Outcome};

    fn ring(name: &str, capacity: Option<u64>) -> TypeSchema {
        TypeSchema {
            rung: capacity.map(|capacity| Rung {
                of: "Ring<8192>".into(),
                capacity,
            }),
            ..one_method_type(name, "Ring", None, "sum", Mode::Ref)
        }
    }

    /// A ring built full by its constructor: its size is its capacity (read from the
    /// receiver's type name), and `sum` walks it (cost = size).
    struct Full(ApiSchema);

    impl Executor for Full {
        fn schema(&self) -> &ApiSchema {
            &self.0
        }
        fn run(&mut self, programs: &[Program]) -> Result<Vec<Feedback>> {
            Ok(programs
                .iter()
                .map(|p| {
                    let ty = receiver_type(&p.body).unwrap_or("");
                    let cap: u64 = ty
                        .trim_start_matches("Ring<")
                        .trim_end_matches('>')
                        .parse()
                        .unwrap_or(0);
                    let mut f = Feedback::failed(Outcome::Ok);
                    f.input_size = cap;
                    f.cost.edges = 3 * cap + 10;
                    f.calls = 1;
                    f
                })
                .collect())
        }
    }

    fn filled_then_summed() -> Program {
        let mut p = Program::default();
        let r = p.fresh("Ring<8192>");
        p.body = vec![
            Stmt::Ctor {
                out: r,
                ty: "Ring<8192>".into(),
                ctor: "zero_filled".into(),
                args: vec![],
            },
            Stmt::Call {
                out: None,
                ty: "Ring<8192>".into(),
                method: "sum".into(),
                recv: r,
                args: vec![],
                under_test: true,
            },
        ];
        p
    }

    /// A program without a loop whose receiver's constructor fills it (`zero_filled`): the
    /// path gives one size and no class; the capacity ladder gives four sizes over 2.7
    /// decades and the class. A receiver without rungs gets no capacity sweep.
    #[test]
    fn a_filled_fixed_capacity_receiver_is_judged_over_its_capacity_ladder() {
        let schema = ApiSchema {
            types: vec![
                ring("Ring<8192>", None),
                ring("Ring<1024>", Some(1024)),
                ring("Ring<128>", Some(128)),
                ring("Ring<16>", Some(16)),
            ],
        };
        let mut exec = Full(schema);
        let t = Thresholds::default();
        let p = filled_then_summed();
        let s = sweep_and_judge(
            &mut exec,
            &p,
            8192,
            vec![(8192, 24586.0)],
            1 << 14,
            Metric::Cost,
            None,
            &t,
        )
        .unwrap();
        assert_eq!(s.points_from, PointsFrom::CapacityLadder);
        let sizes: Vec<u64> = s.points.iter().map(|p| p.0).collect();
        assert_eq!(sizes, [16, 128, 1024, 8192]);
        assert!(s.judgement.reliable);
        assert_eq!(s.judgement.verdict.class, Some(Class::Linear));
        let mut alone = Full(ApiSchema {
            types: vec![ring("Ring<8192>", None)],
        });
        let s = sweep_and_judge(
            &mut alone,
            &p,
            8192,
            vec![(8192, 24586.0)],
            1 << 14,
            Metric::Cost,
            None,
            &t,
        )
        .unwrap();
        assert_eq!(s.points_from, PointsFrom::Path);
        assert!(!s.judgement.reliable);
    }
}
