//! `perfsyn export --format gungraun`: a finding as a gungraun (formerly iai-callgrind)
//! library benchmark that fails on an instruction-count regression.
//!
//! Why it exists: a regression test (`--format test`) must see the finding in something a
//! plain `cargo test` can read (probe operations, allocations) or in a time ratio wide
//! enough to clear a loaded machine's noise (4x). A finding whose versions differ only in
//! work, by 2x, has neither, and `export --format test` refuses it. Callgrind counts
//! instructions, which are as deterministic as perfsyn's own cost (coverage edges), so
//! gungraun can gate a difference that small: it compares each benchmark's instructions
//! with a saved baseline and exits 3 when they grew more than a set percentage.
//!
//! What the file measures: the finding's program at its sizes (a relative finding: the
//! slower version, `Subject`, at the export's largest scale; an asymptotic finding: the
//! program at its smallest and largest scale), with callgrind counting only inside the calls
//! under test: each goes through `perfsyn_call_under_test` (`PrintOptions::measure_with`),
//! the benchmark's entry point, so building the input does not dilute the difference.
//!
//! The limit, from the finding: the worker runs the same programs and reports how many
//! times the bug's coverage edges are the fixed code's (`q`: the subject's over the
//! reference's for a relative finding; for an asymptotic one, the edges' growth from the
//! smallest to the largest scale over the growth the documented class allows). The soft
//! limit on `Ir` is half that excess, `50 * (q - 1)` percent: a baseline saved on the fixed
//! code and a run on the bug differ by about `q`, so the bug fails with a factor of margin,
//! and the fix (0%) and changes smaller than half the finding pass.

use perfsyn_profiler_ipc::regress::class_exponent;
use perfsyn_profiler_ipc::Feedback;

use crate::commands::export::{run_member, ExportError, Kind, Plan, MIN_SCALE_TARGET};
use crate::run::exec::Executor;

/// The gungraun version the file is written for; the runner (`gungraun-runner`) must be the
/// same version.
pub const VERSION: &str = "0.20.0";

/// The function every call under test goes through; callgrind counts only inside it.
const MEASURED: &str = "perfsyn_call_under_test";

/// The smallest limit written: a gate tighter than this catches unrelated changes.
const MIN_PERCENT: f64 = 1.0;

/// The limit of an export and how it was derived.
#[derive(Clone, Debug, PartialEq)]
pub struct Gate {
    /// The bug's coverage edges over the fixed code's, as the worker counted them.
    pub ratio: f64,
    /// The soft limit on `Ir`, in percent over the baseline.
    pub percent: f64,
    /// How `ratio` was measured, for the file's doc comment.
    pub why: String,
}

/// Half the excess of `ratio` in percent, or `None` when that is below [`MIN_PERCENT`].
pub fn limit_percent(ratio: f64) -> Option<f64> {
    let p = 50.0 * (ratio - 1.0);
    (p.is_finite() && p >= MIN_PERCENT).then_some(p)
}

/// The coverage edges of a run, plus one (a program without edges still divides).
fn edges(f: &Feedback) -> f64 {
    f.cost.edges as f64 + 1.0
}

/// Measures the finding's instruction gap through the worker at the export's sizes (lowering
/// them while the worker times out, as the regression test does) and derives the limit.
pub(crate) fn gate(plan: &Plan, exec: &mut dyn Executor) -> Result<Gate, ExportError> {
    loop {
        match gate_at(plan, exec) {
            Err(ExportError::Timeout(t)) if plan.unit.is_some() && t > MIN_SCALE_TARGET => {
                plan.scale_target.set(t / 4);
            }
            r => return r,
        }
    }
}

fn gate_at(plan: &Plan, exec: &mut dyn Executor) -> Result<Gate, ExportError> {
    let sizes = plan.sizes();
    let (small, large) = (sizes[0], *sizes.last().unwrap_or(&sizes[0]));
    let (ratio, why) = match &plan.kind {
        Kind::Relative {
            subject, reference, ..
        } => {
            let s = run_member(plan, exec, subject, vec![plan.scaled(subject, large)])?;
            let r = run_member(plan, exec, reference, vec![plan.scaled(reference, large)])?;
            let q = edges(&s[0]) / edges(&r[0]);
            let at = if plan.unit.is_some() {
                format!(" at n = {large}")
            } else {
                String::new()
            };
            (
                q,
                format!(
                    "the calls under test of `{}` take {q:.2}x the coverage edges of `{}`'s{at} in perfsyn's worker",
                    subject.label, reference.label
                ),
            )
        }
        Kind::Asymptotic { ty, expected, .. } => {
            let Some(expected) = expected else {
                return Err(ExportError::NoExpectedClass {
                    method: plan.method.clone(),
                });
            };
            if plan.unit.is_none() || small == large {
                return Err(ExportError::NoInstructionGap(
                    "the program has no loop to scale, so no growth to limit".into(),
                ));
            }
            let fb = run_member(
                plan,
                exec,
                ty,
                vec![plan.scaled(ty, small), plan.scaled(ty, large)],
            )?;
            let grew = edges(&fb[1]) / edges(&fb[0]);
            let allowed = class_exponent(expected, &[small as u64, large as u64])
                .map_or(1.0, |e| (large as f64 / small as f64).powf(e));
            (
                grew / allowed,
                format!(
                    "the coverage edges of the calls under test grow {grew:.1}x from n = {small} to n = {large} in perfsyn's worker, where the documented {expected} allows {allowed:.1}x"
                ),
            )
        }
    };
    let percent = limit_percent(ratio).ok_or_else(|| {
        ExportError::NoInstructionGap(format!(
            "{why}: a gap of {ratio:.3}x, below the {:.0}% a limit needs",
            2.0 * MIN_PERCENT
        ))
    })?;
    Ok(Gate {
        ratio,
        percent,
        why,
    })
}

/// The benchmark file's body (after the header): the program on `Subject` through
/// [`MEASURED`], one benchmark per size, and `main!` with the `Ir` soft limit.
pub(crate) fn bench(plan: &Plan, gate: &Gate, rank: usize) -> Result<String, ExportError> {
    let sizes = plan.sizes();
    let (member, bench_sizes, fixed) = match &plan.kind {
        Kind::Relative {
            subject, reference, ..
        } => (
            subject,
            vec![*sizes.last().unwrap_or(&1)],
            if subject.target == reference.target {
                // Two revisions of one type (`check --baseline REV`): the fix is a commit.
                "the fixed code (the base commit)".to_string()
            } else {
                format!(
                    "the faster version (`type Subject = {};`)",
                    reference.target
                )
            },
        ),
        Kind::Asymptotic { ty, .. } => {
            let (small, large) = (sizes[0], *sizes.last().unwrap_or(&sizes[0]));
            (ty, vec![small, large], "the fixed type".to_string())
        }
    };
    let mut s = String::new();
    if !member.is_namespace() {
        s.push_str(&member.alias_line(&format!(
            "/// The type under test (`{}`). To check the gate, save the baseline with this alias\n/// pointed at {fixed}, then run against it as it is.\n",
            member.label
        )));
        s.push('\n');
    }
    s.push_str(&format!(
        "/// The largest growth of the calls' instructions (`Ir`) over the baseline, in percent:\n/// {why}; the limit is half that excess, so the bug fails and the fixed code passes.\nconst MAX_IR_INCREASE_PERCENT: f64 = {p:.1};\n\n",
        why = gate.why,
        p = gate.percent,
    ));
    s.push_str(&format!(
        "/// Runs one call under test. Callgrind counts only inside this function (the\n/// benchmark's entry point), so building the input is not counted.\n#[inline(never)]\nfn {MEASURED}<R>(call: impl FnOnce() -> R) -> R {{\n    std::hint::black_box(call())\n}}\n\n"
    ));
    s.push_str(&plan.run_fn_with(member, rank, Some(MEASURED))?);
    s.push('\n');
    let name = &plan.fn_base;
    if plan.unit.is_some() {
        s.push_str("#[library_benchmark]\n");
        for n in &bench_sizes {
            s.push_str(&format!("#[bench::n_{n}({n})]\n"));
        }
        s.push_str(&format!(
            "fn {name}(n: i64) {{\n    {};\n}}\n",
            plan.call(member, "n")
        ));
    } else {
        s.push_str(&format!(
            "// The program has no loop: one size.\n#[library_benchmark]\nfn {name}() {{\n    {};\n}}\n",
            plan.call(member, "")
        ));
    }
    s.push_str(&format!(
        "\nlibrary_benchmark_group!(name = perfsyn; benchmarks = {name});\n\nmain!(\n    config = LibraryBenchmarkConfig::default().tool(\n        Callgrind::default()\n            .entry_point(EntryPoint::Custom(\"*{MEASURED}*\".to_owned()))\n            .soft_limits([(EventKind::Ir, MAX_IR_INCREASE_PERCENT)])\n    );\n    library_benchmark_groups = perfsyn\n);\n"
    ));
    let runtime = "use gungraun::{\n    library_benchmark, library_benchmark_group, main, Callgrind, EntryPoint, EventKind,\n    LibraryBenchmarkConfig,\n};";
    Ok(plan.uses(runtime) + &s)
}

/// The header's lines on how to run the file and gate a change with it.
pub fn how_to_run(name: &str) -> Vec<String> {
    vec![
        format!("Run: put this file in `benches/` of a crate with the types' crates and `gungraun = \"{VERSION}\"`"),
        format!("as dev-dependencies, declare `[[bench]] name = \"{name}\" harness = false`, install valgrind and"),
        format!("the runner of the same version (`cargo install gungraun-runner --version {VERSION}`)."),
        "The gate (CI): on the base commit, where the code is fast,".into(),
        format!("  `cargo bench --bench {name} -- --save-baseline=base`;"),
        "then on the change".into(),
        format!("  `cargo bench --bench {name} -- --baseline=base`,"),
        "which exits 3 when the instructions of the calls under test grew more than".into(),
        "`MAX_IR_INCREASE_PERCENT` over the base's (instruction counts do not vary between runs).".into(),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Half the excess: a 2.27x finding gives +63.5%, so the bug (+127%) fails with a factor
    /// of two of margin; a gap too small to gate gives none.
    #[test]
    fn the_limit_is_half_the_findings_excess() {
        assert!((limit_percent(2.27).unwrap() - 63.5).abs() < 1e-9);
        assert_eq!(limit_percent(3.0), Some(100.0));
        assert_eq!(limit_percent(1.01), None);
        assert_eq!(limit_percent(0.5), None);
        assert_eq!(limit_percent(f64::NAN), None);
    }
}
