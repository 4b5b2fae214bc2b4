//! The capacity sweep through the verdict's entry point (`verdict_program::sweep_and_judge`):
//! its own file, as the test imports both modules and neither imports the other back.

use anyhow::Result;
use perfsyn_profiler_ipc::{Program, Stmt};

use crate::harness::spec::fixture::one_method_type;
use crate::judge::capacity_sweep::receiver_type;
use crate::judge::oracle::asymptotic::Thresholds;
use crate::judge::swept::PointsFrom;
use crate::judge::verdict_program::sweep_and_judge;
use crate::report::class::Class;
use crate::run::exec::Executor;
use crate::search::Metric;
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
