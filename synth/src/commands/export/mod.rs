//! `perfsyn export`: turns a saved program of a run file into Rust a developer can keep.
//!
//! Three formats (see [`Format`]): the program itself as a `#[test]` that runs it once, a
//! regression test that fails while the bottleneck is there, and a criterion benchmark.
//! A regression test must fail on the bug in an ordinary `cargo test`, so before writing
//! it the export runs the program at the test's sizes through the worker and picks the
//! first measure that shows the finding there: probe operations, allocations, bytes
//! allocated (deterministic), else a ratio of times with a margin derived from the
//! worker's own times (`perfsyn_profiler_ipc::regress`). When none shows it, the export is
//! an error rather than a test that cannot fail. The printed program comes from `print_with`, which
//! refuses what it cannot express; so does this module (a program without a call under
//! test, an asymptotic test for a program without a loop), always naming what is missing,
//! so an export is either Rust that compiles or an error.
//!
//! The engine does not link the corpus: exported files name the runtime
//! (`perfsyn_profiler_ipc::regress`) and the types' crates by path, as text taken from the
//! worker's schema. `use` lines are at module level, each file is self-contained.

pub mod gungraun;
pub mod into;

use std::path::Path;
use std::process::{Command, Stdio};

use perfsyn_profiler_ipc::check::ProgramError;
use perfsyn_profiler_ipc::print::{print, print_with, PrintOptions};
use perfsyn_profiler_ipc::{ApiSchema, Program, Stmt};

use perfsyn_profiler_ipc::regress::{check_growth_of, class_exponent};
use perfsyn_profiler_ipc::Feedback;

use crate::explore::runfile::RunFile;
use crate::explore::OracleKind;
use crate::report::best::BestProgram;
use crate::report::verdict::Verdict;
use crate::run::exec::Executor;

/// What to export.
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    strum::EnumString,
    strum::Display,
    strum::IntoStaticStr,
    strum::VariantArray,
    strum::EnumMessage,
)]
#[strum(serialize_all = "lowercase")]
pub enum Format {
    /// A regression test asserting the bottleneck is absent (fails while it is there).
    Test,
    /// A criterion benchmark over the input size, for both versions when there are two.
    Bench,
    /// The synthesized program as plain Rust in a `#[test]` that runs it once.
    Program,
    /// A gungraun (callgrind) benchmark that fails when the instructions of the calls under
    /// test grow above a limit derived from the finding (see `export_gungraun`).
    Gungraun,
}

impl Format {
    /// The name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Format::Test => "test",
            Format::Bench => "bench",
            Format::Program => "program",
            Format::Gungraun => "gungraun",
        }
    }
}

/// What `export` needs besides the run file and the schema.
#[derive(Clone, Debug)]
pub struct ExportConfig {
    pub format: Format,
    /// Which saved program: 1 is the best.
    pub rank: usize,
    /// The run file's path, quoted in the header.
    pub run_path: Option<std::path::PathBuf>,
    /// The name the file will be run by (`cargo test --test NAME`), quoted in the header.
    pub target_name: Option<String>,
}

/// An exported file.
#[derive(Clone, Debug)]
pub struct Exported {
    pub source: String,
    /// Reasons the file may not show the finding (also written into its header).
    pub warnings: Vec<String>,
    /// What a regression test measures (`probe operations`, `time ratio`, ...).
    pub measure: Option<String>,
}

/// Why a program cannot be exported. Every message is one line.
#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    #[error("the run of {method} saved no program (verdict {verdict})")]
    NoProgram { method: String, verdict: Verdict },
    #[error("--rank {rank} is out of range: the run saved {count} program(s), ranks 1 to {count}")]
    Rank { rank: usize, count: usize },
    #[error("cannot print the program of rank {rank}: {source}")]
    Print { rank: usize, source: ProgramError },
    #[error("the program of rank {rank} has no call under test to measure")]
    NoCallUnderTest { rank: usize },
    #[error("an asymptotic regression test needs the input size as a parameter, but the program of rank {rank} has no loop; export --format program or bench instead")]
    NoLoop { rank: usize },
    #[error("the run of {method} has no documented complexity to assert against; explore it again with --expect CLASS")]
    NoExpectedClass { method: String },
    #[error(
        "a relative run exports on the pair of versions it compared; this executor has one version"
    )]
    NotAPair,
    #[error("both versions are the Rust type {0} (two git revisions): one test cannot hold both; export --format program or bench instead")]
    SameType(String),
    #[error("the worker's schema has no type {0}: the run was made with another corpus")]
    UnknownType(String),
    #[error("no measure a plain `cargo test` can see grows with this finding at the test's sizes ({0}), so a regression test could not fail; export --format bench instead")]
    NoGrowingMeasure(String),
    #[error("no instruction gap for a gungraun limit: {0}")]
    NoInstructionGap(String),
    #[error("the worker could not run the program at the test's sizes: {0}")]
    Worker(String),
    #[error("the program times out in the worker even with loops of at most {0} iterations")]
    Timeout(i64),
}

/// What an exported regression test measures, chosen per finding by [`choose_measure`].
#[derive(Clone, Debug, PartialEq)]
pub enum Measure {
    /// A deterministic count of the calls under test; `name` as `regress` spells it.
    Count(&'static str),
    /// A ratio of times (low quantiles) that must stay below `max`; `why` says how `max`
    /// was derived.
    Time { max: f64, why: String },
}

/// The deterministic measures an ordinary `cargo test` can read, in order of preference.
const COUNTS: [(&str, &str); 3] = [
    ("probe operations", "ops"),
    ("allocations", "allocs"),
    ("bytes allocated", "alloc_bytes"),
];

fn count_of(name: &str, f: &Feedback) -> u64 {
    match name {
        "probe operations" => f.cost.probe_ops,
        "allocations" => f.cost.allocs,
        _ => f.cost.alloc_bytes,
    }
}

/// The work the worker counts that a plain `cargo test` cannot read, which predicts time:
/// when none of [`COUNTS`] shows the finding, a time ratio is asserted only if one of these
/// does. The worker's own times are not used: its clock (thread CPU time, a system call)
/// costs more than a small call under test, so they do not say what a test would measure.
const WORK: [&str; 2] = ["coverage edges", "bytes moved"];

fn work_of(name: &str, f: &Feedback) -> u64 {
    match name {
        "coverage edges" => f.cost.edges,
        _ => f.cost.bytes_moved,
    }
}

/// How far apart the bug's predicted time ratio and the fixed version's must be before a
/// time test is written: the test's bound sits at their geometric mean, so each side keeps
/// a factor of at least 2 against a loaded machine's noise.
const TIME_MIN_EXCESS: f64 = 4.0;

/// The variable the exported functions measure with.
const METER: &str = "meter";
/// The loop-scale parameter of the exported functions.
const SCALE: &str = "n";

/// Exports program `cfg.rank` of `run`, printed against `schema`.
pub fn export(
    run: &RunFile,
    exec: &mut dyn Executor,
    cfg: &ExportConfig,
) -> Result<Exported, ExportError> {
    let schema = &exec.schema().clone();
    let old_schema = exec.old().map(|o| o.schema().clone());
    let r = &run.report;
    let all: Vec<&BestProgram> = r.best.iter().chain(&r.others).collect();
    if all.is_empty() {
        return Err(ExportError::NoProgram {
            method: r.method.clone(),
            verdict: r.verdict,
        });
    }
    let best = *cfg
        .rank
        .checked_sub(1)
        .and_then(|i| all.get(i))
        .ok_or(ExportError::Rank {
            rank: cfg.rank,
            count: all.len(),
        })?;
    let rank = cfg.rank;
    let program = &best.program;
    if !has_call_under_test(&program.body) {
        return Err(ExportError::NoCallUnderTest { rank });
    }
    let mut plan = Plan::new(run, best, schema, old_schema.as_ref(), cfg.format)?;
    // The program the file holds, whose figures the header quotes: the best one, or the
    // one before shrinking when only that shows a measure `cargo test` can read.
    let mut shown = best.clone();
    let mut warnings = Vec::new();
    let mut measured = None;
    let body = match cfg.format {
        Format::Program => {
            let printed =
                print(program, schema).map_err(|source| ExportError::Print { rank, source })?;
            let mut s = String::new();
            for i in &printed.imports {
                s.push_str(&format!("use {i};\n"));
            }
            let bare = perfsyn_profiler_ipc::print::Printed {
                imports: Vec::new(),
                body: printed.body.clone(),
            };
            s.push('\n');
            s + &bare.as_fn(&format!("{}_program", plan.fn_base), "#[test]\n")
        }
        Format::Test => {
            let measure = match (choose_measure(&plan, exec), &best.shrunk_from) {
                (Ok(m), _) => m,
                // Shrinking keeps the verdict on perfsyn's own cost (coverage edges), which
                // a plain `cargo test` cannot read: the program before shrinking may still
                // show a measure it can.
                (Err(e @ ExportError::NoGrowingMeasure(_)), Some(from)) => {
                    let unshrunk = BestProgram {
                        program: from.program.clone(),
                        rust: from.rust.clone(),
                        input_size: from.input_size,
                        cost: from.cost,
                        statements: from.statements,
                        shrunk_from: None,
                        ..best.clone()
                    };
                    let before =
                        Plan::new(run, &unshrunk, schema, old_schema.as_ref(), cfg.format)?;
                    let m = choose_measure(&before, exec).map_err(|_| e)?;
                    warnings.push(format!(
                        "the shrunk program shows nothing a plain `cargo test` can measure; this is the program before shrinking ({} statements)",
                        from.statements
                    ));
                    plan = before;
                    shown = unshrunk;
                    m
                }
                (Err(e), _) => return Err(e),
            };
            measured = Some(match &measure {
                Measure::Count(name) => name.to_string(),
                Measure::Time { .. } => "time ratio".to_string(),
            });
            plan.test(&measure, rank)?
        }
        Format::Bench => plan.bench(rank)?,
        Format::Gungraun => {
            let gate = crate::commands::export::gungraun::gate(&plan, exec)?;
            measured = Some(format!("instructions (Ir), at most +{:.1}%", gate.percent));
            crate::commands::export::gungraun::bench(&plan, &gate, rank)?
        }
    };
    let mut source = header(run, &shown, cfg, &plan, &warnings);
    source.push('\n');
    source.push_str(&body);
    let source = rustfmt(&source).unwrap_or(source);
    Ok(Exported {
        source,
        warnings,
        measure: measured,
    })
}

/// What an export of one run looks like: which members, which scale, which names.
pub(crate) struct Plan {
    pub(crate) method: String,
    /// `snake_case` of the method, for function names.
    pub(crate) fn_base: String,
    /// The largest common divisor of the loop counts, if the program has loops: the value
    /// of the scale parameter that gives the program's own counts.
    pub(crate) unit: Option<u32>,
    /// The largest loop count over the unit: the scale `n` makes loops up to `max_k * n`.
    max_k: u32,
    pub(crate) kind: Kind,
    /// `use` paths the printed programs need, gathered for the module's top.
    imports: std::cell::RefCell<Vec<String>>,
    /// The largest loop count the test's sizes reach ([`SCALE_TARGET`], lowered by
    /// [`choose_measure`] while the worker times out at the test's sizes).
    pub(crate) scale_target: std::cell::Cell<i64>,
}

pub(crate) enum Kind {
    /// One type; the test asserts the documented class.
    Asymptotic {
        ty: Member,
        expected: Option<String>,
        /// The class the run's fit found (`empirical`), which predicts the bug's time ratio.
        found: Option<String>,
    },
    /// Two members; the test asserts subject <= t_rel x reference.
    Relative {
        subject: Member,
        reference: Member,
        t_rel: f64,
    },
}

/// A type of the export and the alias it is used through.
pub(crate) struct Member {
    /// Registry name.
    name: String,
    /// `Subject` or `Reference`.
    pub(crate) alias: &'static str,
    /// What the alias stands for (a full path where the registry gives one).
    pub(crate) target: String,
    /// The program (the same on both members of a relative run: each worker of the pair
    /// binds its own version under the program's type names).
    program: Program,
    /// The schema of the member's version, which prints its program.
    schema: ApiSchema,
    /// Whether the member is the old version of the pair (runs on its old worker).
    old: bool,
    /// The member's own Rust type, which names it in comments and bench labels (the two
    /// members of a version group share `name`, the group's).
    pub(crate) label: String,
}

/// What the alias of a registered type stands for: the import naming it, with the type's
/// generic arguments (`slotmap::SlotMap<slotmap::DefaultKey,Key>`: without them the alias of
/// a generic type does not compile), else the Rust type itself.
fn alias_target(rust: &str, imports: &[String]) -> String {
    let (base, args) = rust.split_at(rust.find('<').unwrap_or(rust.len()));
    let last = base.rsplit("::").next().unwrap_or(base);
    imports
        .iter()
        .find(|i| i.rsplit("::").next() == Some(last))
        .map(|i| format!("{i}{args}"))
        .unwrap_or_else(|| rust.to_string())
}

impl Member {
    fn new(
        schema: &ApiSchema,
        name: &str,
        alias: &'static str,
        program: Program,
        old: bool,
    ) -> Result<Member, ExportError> {
        let t = schema
            .ty(name)
            .ok_or_else(|| ExportError::UnknownType(name.to_string()))?;
        let rust = t.rust_type();
        let target = alias_target(rust, &t.imports);
        Ok(Member {
            name: name.to_string(),
            alias,
            target,
            program,
            label: rust.to_string(),
            schema: schema.clone(),
            old,
        })
    }

    /// Whether the member is a namespace of free functions (see `TypeSchema::is_namespace`).
    pub(crate) fn is_namespace(&self) -> bool {
        self.schema.ty(&self.name).is_some_and(|t| t.is_namespace())
    }

    pub(crate) fn alias_line(&self, doc: &str) -> String {
        format!("{doc}type {} = {};\n", self.alias, self.target)
    }
}

impl Plan {
    fn new(
        run: &RunFile,
        best: &BestProgram,
        schema: &ApiSchema,
        old_schema: Option<&ApiSchema>,
        format: Format,
    ) -> Result<Plan, ExportError> {
        let r = &run.report;
        let program = &best.program;
        let kind = if r.oracle == OracleKind::Relative {
            let old_schema = old_schema.ok_or(ExportError::NotAPair)?;
            let ratio = r
                .ratio
                // Shrinking keeps the direction, so the run's ratio holds for the best
                // program before shrinking too.
                .filter(|_| {
                    r.best.as_ref().is_some_and(|b| {
                        b.program == *program
                            || b.shrunk_from
                                .as_ref()
                                .is_some_and(|f| f.program == *program)
                    })
                })
                .unwrap_or_else(|| (best.cost + 1.0) / (best.cost_ref.unwrap_or(0.0) + 1.0));
            // The slower member on this input is the subject: the one that must get faster.
            let subject_is_new = ratio >= 1.0;
            let member = |old: bool, alias| {
                let sch = if old { old_schema } else { schema };
                Member::new(sch, &r.ty, alias, program.clone(), old)
            };
            let (subject, reference) = (
                member(!subject_is_new, "Subject")?,
                member(subject_is_new, "Reference")?,
            );
            // A gungraun bench runs `Subject` alone and compares it with a baseline saved
            // on another commit, so two revisions of one type are what it gates.
            if subject.target == reference.target && format != Format::Gungraun {
                return Err(ExportError::SameType(subject.target));
            }
            Kind::Relative {
                subject,
                reference,
                t_rel: t_rel_of(&run.command_line),
            }
        } else {
            Kind::Asymptotic {
                ty: Member::new(schema, &r.ty, "Subject", program.clone(), false)?,
                expected: r.expected.map(|c| c.label().to_string()),
                found: r.empirical.map(|c| c.label().to_string()),
            }
        };
        Ok(Plan {
            method: r.method.clone(),
            fn_base: snake(&r.method),
            unit: loop_unit(program),
            max_k: max_loop_multiple(program),
            kind,
            imports: Default::default(),
            scale_target: std::cell::Cell::new(SCALE_TARGET),
        })
    }

    fn members(&self) -> Vec<&Member> {
        match &self.kind {
            Kind::Asymptotic { ty, .. } => vec![ty],
            Kind::Relative {
                subject, reference, ..
            } => vec![subject, reference],
        }
    }

    /// `run_subject(n: i64) -> Meter` (or `run_subject() -> Meter` without loops): the
    /// program of `m`, measuring its calls under test.
    fn run_fn(&self, m: &Member, rank: usize) -> Result<String, ExportError> {
        self.run_fn_with(m, rank, None)
    }

    /// [`Plan::run_fn`], or with `measure_with` a `run_subject(n: i64)` whose calls under
    /// test go through that function (`PrintOptions::measure_with`) instead of a meter.
    pub(crate) fn run_fn_with(
        &self,
        m: &Member,
        rank: usize,
        measure_with: Option<&str>,
    ) -> Result<String, ExportError> {
        let metered = measure_with.is_none();
        let opts = PrintOptions {
            loop_scale: self.unit.map(|u| (SCALE.to_string(), u)),
            aliases: vec![(m.name.clone(), m.alias.to_string())],
            meter: metered.then(|| METER.to_string()),
            measure_with: measure_with.map(String::from),
        };
        let printed = print_with(&m.program, &m.schema, &opts)
            .map_err(|source| ExportError::Print { rank, source })?;
        let param = if self.unit.is_some() {
            format!("{SCALE}: i64")
        } else {
            String::new()
        };
        let scale_doc = match self.unit {
            Some(u) => format!(
                "\n/// Loop counts are multiples of `{SCALE}`; {SCALE} = {u} gives the synthesized program."
            ),
            None => String::new(),
        };
        let on = if m.is_namespace() {
            String::new()
        } else {
            format!(" on `{}`", m.alias)
        };
        let ret = if metered { " -> Meter" } else { "" };
        let mut s = format!(
            "/// The synthesized program{on}, measuring the calls of `{}`.{scale_doc}\nfn run_{}({param}){ret} {{\n",
            self.method,
            m.alias.to_lowercase()
        );
        self.imports
            .borrow_mut()
            .extend(printed.imports.iter().cloned());
        if metered {
            s.push_str(&format!("    let mut {METER} = Meter::new();\n"));
        }
        for line in printed.body.lines() {
            s.push_str("    ");
            s.push_str(line);
            s.push('\n');
        }
        if metered {
            s.push_str(&format!("    {METER}\n"));
        }
        s.push_str("}\n");
        Ok(s)
    }

    fn aliases(&self) -> String {
        match &self.kind {
            // Free functions are called by path: no type to alias.
            Kind::Asymptotic { ty, .. } if ty.is_namespace() => String::new(),
            Kind::Asymptotic { ty, .. } => ty.alias_line(&format!(
                "/// The type under test (`{}`). To check a fix, point this alias at the fixed type;\n/// it needs the same constructors and methods.\n",
                ty.label
            )),
            Kind::Relative {
                subject, reference, ..
            } => {
                subject.alias_line(&format!(
                    "/// The slower version on this input (`{}`). To check a fix, point this alias at the\n/// fixed type (for a version group: the faster member, `{}`).\n",
                    subject.label, reference.label
                )) + &reference.alias_line(&format!(
                    "/// The reference version (`{}`), the faster one on this input.\n",
                    reference.label
                ))
            }
        }
    }

    /// The scales of the test and bench: three quarters of the largest power of two that
    /// keeps every loop at or below the scale target, of a quarter and of a sixteenth of it.
    pub(crate) fn sizes(&self) -> Vec<i64> {
        let Some(_) = self.unit else {
            return vec![1];
        };
        let mut large = 1i64;
        while (large * 2) * i64::from(self.max_k.max(1)) <= self.scale_target.get() {
            large *= 2;
        }
        // Three quarters of powers of two: a collection that doubles its capacity has just
        // grown at a power of two, so an allocation measure there would show the amortized
        // resize of one call, not the finding.
        let mut v: Vec<i64> = [large / 16, large / 4, large]
            .into_iter()
            .map(|n| (n - n / 4).max(1))
            .collect();
        v.dedup();
        v
    }

    /// The program of `m` with every loop at scale `n` (as the exported code runs it).
    pub(crate) fn scaled(&self, m: &Member, n: i64) -> Program {
        fn walk(stmts: &mut [Stmt], unit: u32, n: i64) {
            for s in stmts {
                if let Stmt::Repeat { n: count, body } = s {
                    *count = ((*count / unit) as i64 * n).clamp(1, u32::MAX as i64) as u32;
                    walk(body, unit, n);
                }
            }
        }
        let mut p = m.program.clone();
        if let Some(u) = self.unit {
            walk(&mut p.body, u.max(1), n);
        }
        p
    }

    pub(crate) fn call(&self, m: &Member, n: &str) -> String {
        let arg = if self.unit.is_some() { n } else { "" };
        format!("run_{}({arg})", m.alias.to_lowercase())
    }

    /// The module's `use` lines: the runtime's, then every type's the programs print.
    pub(crate) fn uses(&self, runtime: &str) -> String {
        let mut all = self.imports.borrow().clone();
        perfsyn_profiler_ipc::print::dedup_imports(&mut all);
        let mut s = format!("{runtime}\n");
        for i in all {
            s.push_str(&format!("use {i};\n"));
        }
        s.push('\n');
        s
    }

    fn test(&self, measure: &Measure, rank: usize) -> Result<String, ExportError> {
        let mut body = String::new();
        let alloc = matches!(measure, Measure::Count(n) if *n != "probe operations");
        if alloc {
            body.push_str("/// Counts the allocations of the calls under test (per thread).\n#[global_allocator]\nstatic ALLOC: regress::CountingAlloc = regress::CountingAlloc;\n\n");
        }
        body.push_str(&self.aliases());
        body.push('\n');
        let getter = |name: &str| COUNTS.iter().find(|c| c.0 == name).map_or("ops", |c| c.1);
        match &self.kind {
            Kind::Asymptotic { ty, expected, .. } => {
                let expected = expected
                    .clone()
                    .ok_or_else(|| ExportError::NoExpectedClass {
                        method: self.method.clone(),
                    })?;
                if self.unit.is_none() {
                    return Err(ExportError::NoLoop { rank });
                }
                body.push_str(&self.run_fn(ty, rank)?);
                let sizes = self.sizes();
                match measure {
                    Measure::Count(name) => {
                        let sizes: Vec<String> = sizes.iter().map(|n| n.to_string()).collect();
                        // `.iter()`, not `.into_iter()`: an array's `into_iter` yields
                        // references before edition 2021 (im 15, edition 2018, did not compile).
                        body.push_str(&format!(
                            "\n/// Fails while the {name} of `{m}` grow faster than its documented\n/// {expected}.\n#[test]\nfn {base}_grows_no_faster_than_documented() {{\n    let _serial = regress::serial();\n    let points: Vec<(u64, u64)> = [{sizes}]\n        .iter()\n        .map(|&n| (n as u64, {call}.{get}()))\n        .collect();\n    regress::assert_growth_of({m:?}, {name:?}, {expected:?}, &points);\n}}\n",
                            m = self.method,
                            base = self.fn_base,
                            sizes = sizes.join(", "),
                            call = self.call(ty, "n"),
                            get = getter(name),
                        ));
                    }
                    Measure::Time { max, why } => {
                        let (small, large) = (sizes[0], *sizes.last().unwrap_or(&sizes[0]));
                        body.push_str(&format!(
                            "\n/// The largest time ratio `n = {large}` over `n = {small}` allowed: {why}.\nconst MAX_TIME_RATIO: f64 = {max:.3};\n\n/// Fails while the time of `{m}` grows faster than its documented {expected}\n/// (interleaved repetitions, a low quantile of each side, so load slows both alike).\n#[test]\nfn {base}_time_grows_no_faster_than_documented() {{\n    let _serial = regress::serial();\n    let ratio = regress::time_ratio(101, || {cl}, || {cs});\n    regress::assert_time_ratio({m:?}, ratio, MAX_TIME_RATIO, \"n = {large} over n = {small}\");\n}}\n",
                            m = self.method,
                            base = self.fn_base,
                            cl = self.call(ty, &large.to_string()),
                            cs = self.call(ty, &small.to_string()),
                        ));
                    }
                }
            }
            Kind::Relative {
                subject,
                reference,
                t_rel,
                ..
            } => {
                let n = *self.sizes().last().unwrap_or(&1);
                if self.unit.is_some() {
                    body.push_str(&format!(
                        "/// The loop scale the test runs at.\nconst N: i64 = {n};\n"
                    ));
                }
                body.push_str(&self.run_fn(subject, rank)?);
                body.push('\n');
                body.push_str(&self.run_fn(reference, rank)?);
                match measure {
                    Measure::Count(name) => {
                        body.push_str(&format!(
                            "\n/// perfsyn's threshold: the subject may cost at most this many times the reference.\nconst T_REL: f64 = {t_rel:?};\n\n/// Fails while `{m}` of `Subject` costs (in {name}) more than `T_REL`\n/// times that of `Reference` on the synthesized input.\n#[test]\nfn {base}_costs_no_more_than_reference() {{\n    let _serial = regress::serial();\n    let subject = {cs}.{get}();\n    let reference = {cr}.{get}();\n    regress::assert_ratio({m:?}, subject, reference, T_REL);\n}}\n",
                            m = self.method,
                            base = self.fn_base,
                            cs = self.call(subject, "N"),
                            cr = self.call(reference, "N"),
                            get = getter(name),
                        ));
                    }
                    Measure::Time { max, why } => {
                        body.push_str(&format!(
                            "\n/// The largest time ratio `Subject` over `Reference` allowed: {why}.\nconst MAX_TIME_RATIO: f64 = {max:.3};\n\n/// Fails while `{m}` of `Subject` takes more than `MAX_TIME_RATIO` times as long as\n/// that of `Reference` (interleaved repetitions, a low quantile of each side).\n#[test]\nfn {base}_time_no_more_than_reference() {{\n    let _serial = regress::serial();\n    let ratio = regress::time_ratio(101, || {cs}, || {cr});\n    regress::assert_time_ratio({m:?}, ratio, MAX_TIME_RATIO, \"Subject over Reference\");\n}}\n",
                            m = self.method,
                            base = self.fn_base,
                            cs = self.call(subject, "N"),
                            cr = self.call(reference, "N"),
                        ));
                    }
                }
            }
        }
        let runtime = "use perfsyn_profiler_ipc::regress::{self, Meter};";
        Ok(self.uses(runtime) + &body)
    }

    fn bench(&self, rank: usize) -> Result<String, ExportError> {
        let mut s = String::new();
        s.push_str(&self.aliases());
        s.push('\n');
        for m in self.members() {
            s.push_str(&self.run_fn(m, rank)?);
            s.push('\n');
        }
        let sizes: Vec<String> = self.sizes().iter().map(|n| n.to_string()).collect();
        let looped = self.unit.is_some();
        let mut inner = String::new();
        for m in self.members() {
            let call = self.call(m, "n");
            let routine = format!(
                "b.iter_custom(|iters| (0..iters).map(|_| {call}.elapsed()).sum::<Duration>())"
            );
            if looped {
                inner.push_str(&format!(
                    "        group.bench_with_input(BenchmarkId::new({label:?}, n), &n, |b, &n| {{\n            {routine}\n        }});\n",
                    label = m.label,
                ));
            } else {
                // Without loops there is one size: no loop over sizes (clippy's
                // `single_element_loop`) and no size parameter.
                inner.push_str(&format!(
                    "    group.bench_function({label:?}, |b| {{\n        {routine}\n    }});\n",
                    label = m.label,
                ));
            }
        }
        let body = if looped {
            format!("    for n in [{}] {{\n{inner}    }}\n", sizes.join(", "))
        } else {
            format!("    // The program has no loop: one size.\n{inner}")
        };
        s.push_str(&format!(
            "/// Times only the calls of `{m}`{scales}{both}.\nfn bench(c: &mut Criterion) {{\n    let mut group = c.benchmark_group({m:?});\n{body}    group.finish();\n}}\n\ncriterion_group!(benches, bench);\ncriterion_main!(benches);\n",
            m = self.method,
            scales = if looped { ", at several loop scales" } else { "" },
            both = if self.members().len() > 1 { ", for both versions" } else { "" },
        ));
        let criterion = if looped {
            "criterion::{criterion_group, criterion_main, BenchmarkId, Criterion}"
        } else {
            "criterion::{criterion_group, criterion_main, Criterion}"
        };
        let runtime = format!("use std::time::Duration;\n\nuse {criterion};\nuse perfsyn_profiler_ipc::regress::Meter;");
        Ok(self.uses(&runtime) + &s)
    }
}

/// The header comment: what was found, by which command and seed, and how to run the file.
fn header(
    run: &RunFile,
    best: &BestProgram,
    cfg: &ExportConfig,
    plan: &Plan,
    warnings: &[String],
) -> String {
    let r = &run.report;
    let name = cfg.target_name.clone().unwrap_or_else(|| "NAME".into());
    let mut h = vec![
        format!(
            "perfsyn {} export of `{}` (program of rank {} of the run).",
            cfg.format.name(),
            r.method,
            cfg.rank
        ),
        String::new(),
    ];
    let found = match &plan.kind {
        Kind::Asymptotic { .. } => format!(
            "Found: {}: {} (asymptotic oracle, fit error {}).",
            r.verdict,
            r.reason,
            r.fit_error
                .filter(|e| e.is_finite())
                .map_or("-".into(), |e| format!("{:.2}%", e * 100.0))
        ),
        Kind::Relative {
            subject, reference, ..
        } => format!(
            "Found: {}: {}; relative oracle, `{}` is the slower version on this input, `{}` the faster.",
            r.verdict, r.reason, subject.label, reference.label
        ),
    };
    h.push(found);
    h.push(format!(
        "The program: {} mutations from p0, input size {}, cost {} ({} metric).",
        best.mutations, best.input_size, best.cost, r.metric
    ));
    // The exact "Reproduce with" command when the run file has it (the command line as
    // typed names the binary's path and a time budget, which does not reproduce the run).
    h.push(match &run.reproduce {
        Some(cmd) => format!(
            "Found by (reproduce with): `{cmd}` (perfsyn {}).",
            run.perfsyn_version
        ),
        None => format!(
            "Found by: `{}` (seed {}, perfsyn {}).",
            shell_join(&run.command_line),
            r.seed,
            run.perfsyn_version
        ),
    });
    if let Some(p) = &cfg.run_path {
        h.push(format!("Run file: {}", p.display()));
    }
    if !r.hot_lines.is_empty() {
        h.push("Hot lines (hits in the call under test, fastest-growing first):".into());
        h.extend(
            r.hot_lines
                .iter()
                .take(3)
                .map(|l| format!("  {}", l.describe())),
        );
    }
    if let Some(t) = r.repeated_traversals.first() {
        h.push(format!(
            "Repeated traversal (Toddler) in the loop of {}, in the {} program:",
            t.outer, t.program_kind
        ));
        h.push(format!("  {}", t.describe()));
    }
    h.push(String::new());
    match cfg.format {
        Format::Program => {
            h.push(
                "Run: put this file in `tests/` of a crate with `perfsyn-profiler-ipc` and the types' crates as dev-dependencies,"
                    .into(),
            );
            h.push(format!(
                "then `cargo test --test {name}`. It runs the program once."
            ));
        }
        Format::Test => {
            h.push(
                "Run: put this file in `tests/` of a crate with `perfsyn-profiler-ipc` and the types' crates as dev-dependencies,"
                    .into(),
            );
            h.push(format!(
                "then `cargo test --test {name}`. It fails while the bottleneck is there."
            ));
            h.push(
                "It measures what perfsyn saw grow with this finding when it exported it (see the test);"
                    .into(),
            );
            let free = matches!(&plan.kind, Kind::Asymptotic { ty, .. } if ty.is_namespace());
            h.push(if free {
                // A free function is called by path: no alias to point elsewhere.
                "to check a fix, run it again once the function is fixed.".into()
            } else {
                "to check a fix, point the `Subject` alias at the fixed type.".into()
            });
        }
        Format::Gungraun => h.extend(crate::commands::export::gungraun::how_to_run(&name)),
        Format::Bench => {
            h.push("Run: put this file in `benches/` of a crate with `perfsyn-profiler-ipc` and the types' crates as dev-dependencies and".into());
            h.push(format!("`criterion = \"0.5\"` as a dev-dependency, declare `[[bench]] name = \"{name}\" harness = false`,"));
            h.push(format!(
                "then `cargo bench --bench {name}`. Only the calls under test are timed."
            ));
        }
    }
    for w in warnings {
        h.push(String::new());
        h.push(format!("Warning: {w}"));
    }
    let mut s = String::new();
    for l in h {
        if l.is_empty() {
            s.push_str("//!\n");
        } else {
            s.push_str(&format!("//! {l}\n"));
        }
    }
    s
}

fn has_call_under_test(stmts: &[Stmt]) -> bool {
    stmts.iter().any(|s| match s {
        Stmt::Call { under_test, .. } => *under_test,
        Stmt::Repeat { body, .. } => has_call_under_test(body),
        _ => false,
    })
}

/// The largest number of loop iterations the exported tests and benches scale to: large
/// enough that a bug above the documented class shows, small enough that a quadratic runs
/// in a second in a debug build.
const SCALE_TARGET: i64 = 4096;

/// The largest loop count divided by the loop unit (1 without loops).
fn max_loop_multiple(p: &Program) -> u32 {
    fn walk(stmts: &[Stmt], out: &mut Vec<u32>) {
        for s in stmts {
            if let Stmt::Repeat { n, body } = s {
                out.push(*n);
                walk(body, out);
            }
        }
    }
    let mut counts = Vec::new();
    walk(&p.body, &mut counts);
    let unit = loop_unit(p).unwrap_or(1).max(1);
    counts.iter().map(|n| n / unit).max().unwrap_or(1)
}

/// Runs the finding's program(s) at the test's sizes through `exec` and picks the first
/// measure an ordinary `cargo test` can read that shows the finding there: for an
/// asymptotic finding a growth beyond the documented class (as `regress` judges it), for a
/// relative one a ratio above t_rel; else a time ratio when the worker's times show at
/// least [`TIME_MIN_EXCESS`] times the allowed ratio.
fn choose_measure(plan: &Plan, exec: &mut dyn Executor) -> Result<Measure, ExportError> {
    loop {
        match choose_measure_at(plan, exec) {
            // Loops whose bodies grow with the index (a vector of i elements per iteration)
            // make the program quadratic in the scale: smaller sizes, down to 64 iterations.
            Err(ExportError::Timeout(t)) if plan.unit.is_some() && t > MIN_SCALE_TARGET => {
                plan.scale_target.set(t / 4);
            }
            r => return r,
        }
    }
}

/// The smallest scale target [`choose_measure`] lowers to.
pub(crate) const MIN_SCALE_TARGET: i64 = 64;

/// [`choose_measure`] at the plan's current sizes.
fn choose_measure_at(plan: &Plan, exec: &mut dyn Executor) -> Result<Measure, ExportError> {
    let sizes = plan.sizes();
    let mut run = |m: &Member, programs: Vec<Program>| run_member(plan, exec, m, programs);
    match &plan.kind {
        Kind::Asymptotic {
            ty,
            expected,
            found,
        } => {
            let Some(expected) = expected else {
                return Err(ExportError::NoExpectedClass {
                    method: plan.method.clone(),
                });
            };
            let fb = run(ty, sizes.iter().map(|n| plan.scaled(ty, *n)).collect())?;
            for (name, _) in COUNTS {
                let pts: Vec<(u64, u64)> = sizes
                    .iter()
                    .zip(&fb)
                    .map(|(n, f)| (*n as u64, count_of(name, f)))
                    .collect();
                if check_growth_of(&plan.method, name, expected, &pts).is_err() {
                    return Ok(Measure::Count(name));
                }
            }
            let (small, large) = (sizes[0], *sizes.last().unwrap_or(&sizes[0]));
            let ends = fb.first().zip(fb.last());
            let (Some(work), Some((fs, fl))) = (
                WORK.iter().find(|name| {
                    let pts: Vec<(u64, u64)> = sizes
                        .iter()
                        .zip(&fb)
                        .map(|(n, f)| (*n as u64, work_of(name, f)))
                        .collect();
                    check_growth_of(&plan.method, name, expected, &pts).is_err()
                }),
                ends,
            ) else {
                return Err(ExportError::NoGrowingMeasure(format!(
                    "n = {small} to {large}: probe operations, allocations, bytes allocated, coverage edges and bytes moved all stay within {expected}"
                )));
            };
            let ratio_of = |f: &Feedback| work_of(work, f) as f64 + 1.0;
            let work_ratio = ratio_of(fl) / ratio_of(fs);
            time_bound(expected, found.as_deref(), small, large, work, work_ratio)
        }
        Kind::Relative {
            subject,
            reference,
            t_rel,
            ..
        } => {
            let n = *sizes.last().unwrap_or(&1);
            let at = if plan.unit.is_some() {
                format!("n = {n}")
            } else {
                "the program has no loop".to_string()
            };
            let (s, r) = (plan.scaled(subject, n), plan.scaled(reference, n));
            let (fs, fr) = (
                run(subject, vec![s.clone()])?,
                run(reference, vec![r.clone()])?,
            );
            for (name, _) in COUNTS {
                let (a, b) = (count_of(name, &fs[0]), count_of(name, &fr[0]));
                if (a as f64 + 1.0) / (b as f64 + 1.0) > *t_rel {
                    return Ok(Measure::Count(name));
                }
            }
            // The work the worker counts (deterministic, unlike its times) predicts the
            // subject's time over the reference's; a fixed version gives 1.
            let (name, work) = WORK
                .iter()
                .map(|name| {
                    let w = |f: &Feedback| work_of(name, f) as f64 + 1.0;
                    (*name, w(&fs[0]) / w(&fr[0]))
                })
                .fold(
                    ("coverage edges", 0.0),
                    |a, b| if b.1 > a.1 { b } else { a },
                );
            if work >= TIME_MIN_EXCESS {
                return Ok(Measure::Time {
                    max: work.sqrt(),
                    why: format!("the {name} of the calls under test are {work:.1}x the reference's in perfsyn's worker and a fixed version gives 1; the bound is their geometric mean"),
                });
            }
            Err(ExportError::NoGrowingMeasure(format!(
                "{at}: probe operations, allocations and bytes within t_rel = {t_rel}; the versions differ only in {name} ({work:.2}x), closer than the {TIME_MIN_EXCESS}x a time ratio needs to stay clear of a loaded machine's noise"
            )))
        }
    }
}

/// Runs `programs` on `m`'s version (its worker of the pair for an old member); a timeout is
/// [`ExportError::Timeout`] at the plan's current scale target.
pub(crate) fn run_member(
    plan: &Plan,
    exec: &mut dyn Executor,
    m: &Member,
    programs: Vec<Program>,
) -> Result<Vec<Feedback>, ExportError> {
    let on = match (m.old, exec.old()) {
        (false, _) => exec.run(&programs),
        (true, Some(old)) => old.run(&programs),
        (true, None) => return Err(ExportError::NotAPair),
    };
    let fb = on.map_err(|e| ExportError::Worker(e.to_string()))?;
    match fb.iter().find(|f| !f.is_ok() || f.calls == 0) {
        Some(f) if f.outcome.label() == "timeout" => {
            Err(ExportError::Timeout(plan.scale_target.get()))
        }
        Some(f) => Err(ExportError::Worker(format!(
            "outcome {}",
            f.outcome.label()
        ))),
        None => Ok(fb),
    }
}

/// The time test of an asymptotic finding, or why there is none: the ratio of times at
/// `large` over `small` that the documented class allows, the one the bug is expected to
/// show (the found class's, but no more than the `work` measure of the worker grew, whose
/// constant part dilutes time alike), and a bound at their geometric mean when they are at
/// least [`TIME_MIN_EXCESS`] apart.
fn time_bound(
    expected: &str,
    found: Option<&str>,
    small: i64,
    large: i64,
    work: &str,
    work_ratio: f64,
) -> Result<Measure, ExportError> {
    let ratio = |class: &str| {
        class_exponent(class, &[small as u64, large as u64])
            .map(|e| (large as f64 / small as f64).powf(e))
    };
    let allowed = ratio(expected).unwrap_or(1.0);
    let predicted = found.and_then(ratio);
    let bug = predicted.map_or(work_ratio, |p| p.min(work_ratio));
    let found_text = match (found, predicted) {
        (Some(f), Some(p)) => format!("the found {f} predicts {p:.1}, "),
        _ => String::new(),
    };
    if bug >= allowed * TIME_MIN_EXCESS {
        return Ok(Measure::Time {
            max: (bug * allowed).sqrt(),
            why: format!(
                "the documented {expected} allows {allowed:.1}; {found_text}the {work} of the call under test grow {work_ratio:.1}x in perfsyn's worker; the bound is the geometric mean of {allowed:.1} and {bug:.1}"
            ),
        });
    }
    Err(ExportError::NoGrowingMeasure(format!(
        "n = {small} to {large}: probe operations, allocations and bytes stay within {expected}; {found_text}the {work} grow {work_ratio:.1}x against {allowed:.1} allowed, closer than the {TIME_MIN_EXCESS}x a time ratio needs to stay clear of a loaded machine's noise"
    )))
}

/// The greatest common divisor of the program's loop counts (`None` without loops).
fn loop_unit(p: &Program) -> Option<u32> {
    fn gcd(a: u32, b: u32) -> u32 {
        if b == 0 {
            a
        } else {
            gcd(b, a % b)
        }
    }
    p.body
        .iter()
        .filter_map(|s| match s {
            Stmt::Repeat { n, .. } => Some(*n),
            _ => None,
        })
        .reduce(gcd)
}

/// `--t-rel` of the command line that made the run, else the default 1.2.
fn t_rel_of(args: &[String]) -> f64 {
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let v = if a == "--t-rel" {
            it.next().map(String::as_str)
        } else {
            a.strip_prefix("--t-rel=")
        };
        if let Some(x) = v.and_then(|v| v.parse::<f64>().ok()) {
            return x;
        }
    }
    1.2
}

/// A method name as a snake_case identifier: `OrderedMap::remove` -> `ordered_map_remove`.
pub fn snake(method: &str) -> String {
    let mut s = String::new();
    let mut prev_lower = false;
    for c in method.chars() {
        if c.is_ascii_uppercase() {
            if prev_lower {
                s.push('_');
            }
            s.push(c.to_ascii_lowercase());
            prev_lower = false;
        } else if c.is_ascii_alphanumeric() {
            s.push(c);
            prev_lower = true;
        } else {
            if !s.ends_with('_') && !s.is_empty() {
                s.push('_');
            }
            prev_lower = false;
        }
    }
    s.trim_matches('_').to_string()
}

/// The command line as one copyable string (arguments with spaces or quotes are quoted).
fn shell_join(args: &[String]) -> String {
    args.iter()
        .map(|a| {
            if !a.is_empty()
                && a.chars()
                    .all(|c| c.is_ascii_alphanumeric() || "-_./:=,@".contains(c))
            {
                a.clone()
            } else {
                format!("'{}'", a.replace('\'', "'\\''"))
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// `source` formatted by `rustfmt --edition 2021`, or `None` when rustfmt is not available
/// or refuses it (the caller keeps the unformatted text, which compiles all the same).
fn rustfmt(source: &str) -> Option<String> {
    use std::io::Write;
    let mut child = Command::new("rustfmt")
        .args(["--edition", "2021", "--emit", "stdout"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .ok()?;
    child.stdin.take()?.write_all(source.as_bytes()).ok()?;
    let out = child.wait_with_output().ok()?;
    (out.status.success() && !out.stdout.is_empty())
        .then(|| String::from_utf8(out.stdout).ok())
        .flatten()
}

/// Writes an export to `path` (atomically) or stdout.
pub fn write(exported: &Exported, path: Option<&Path>) -> std::io::Result<()> {
    match path {
        Some(p) => crate::explore::runfile::write_atomic(p, exported.source.as_bytes()),
        None => {
            use std::io::Write;
            std::io::stdout().write_all(exported.source.as_bytes())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_threshold_are_read_from_the_run() {
        assert_eq!(snake("OrderedMap::remove"), "ordered_map_remove");
        assert_eq!(
            snake("EnumeratedDistribution::probability"),
            "enumerated_distribution_probability"
        );
        assert_eq!(snake("Vec::dedup"), "vec_dedup");
        let args = |s: &str| s.split(' ').map(String::from).collect::<Vec<_>>();
        assert_eq!(t_rel_of(&args("perfsyn explore --t-rel 1.5")), 1.5);
        assert_eq!(t_rel_of(&args("perfsyn explore --t-rel=2")), 2.0);
        assert_eq!(t_rel_of(&args("perfsyn explore")), 1.2);
        assert_eq!(
            shell_join(&args("perfsyn explore --method A::b")),
            "perfsyn explore --method A::b"
        );
        assert_eq!(shell_join(&["a b".to_string()]), "'a b'");
    }

    /// The alias of a generic type keeps its arguments (slotmap's exported test said
    /// `type Subject = slotmap::SlotMap;`, which does not compile).
    #[test]
    fn the_alias_of_a_generic_type_keeps_its_arguments() {
        let imports = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(
            alias_target(
                "SlotMap<slotmap::DefaultKey,Key>",
                &imports(&["slotmap::SlotMap", "perfsyn_profiler_ipc::probe::Key"])
            ),
            "slotmap::SlotMap<slotmap::DefaultKey,Key>"
        );
        assert_eq!(
            alias_target(
                "TombstoneSet",
                &imports(&["perfsyn_corpus::planted::TombstoneSet"])
            ),
            "perfsyn_corpus::planted::TombstoneSet"
        );
        assert_eq!(alias_target("Vec<Key>", &imports(&[])), "Vec<Key>");
    }

    #[test]
    fn time_bound_sits_between_the_documented_and_the_found_class() {
        // Inbox::add_unique: documented O(1), found O(n), sizes 16x apart, the worker's
        // edges grew 11.3x: the bug is expected at 11.3 (not 16), the bound at sqrt(11.3).
        let m = time_bound("O(1)", Some("O(n)"), 192, 3072, "coverage edges", 11.3).unwrap();
        let Measure::Time { max, why } = m else {
            panic!("{m:?}")
        };
        assert!((max - 11.3f64.sqrt()).abs() < 1e-9, "{max}");
        assert!(why.contains("O(n) predicts 16.0"), "{why}");
        // Without a found class the work alone predicts; O(n^2) over O(n): 256 against 16.
        let Ok(Measure::Time { max, .. }) =
            time_bound("O(n)", None, 192, 3072, "coverage edges", 256.0)
        else {
            panic!()
        };
        assert!((max - 64.0).abs() < 1e-6, "{max}");
        // O(n log n) over O(n) on 16x: 1.5x apart, too close for time: refused, saying why.
        let e = time_bound(
            "O(n)",
            Some("O(n log n)"),
            192,
            3072,
            "coverage edges",
            40.0,
        )
        .unwrap_err()
        .to_string();
        assert!(e.contains("closer than the 4x"), "{e}");
        assert_eq!(e.lines().count(), 1);
    }

    #[test]
    fn loop_unit_is_the_gcd_of_the_loop_counts() {
        let rep = |n| Stmt::Repeat { n, body: vec![] };
        let p = Program {
            vars: vec![],
            body: vec![rep(16384), rep(4096), rep(16384)],
        };
        assert_eq!(loop_unit(&p), Some(4096));
        assert_eq!(loop_unit(&Program::default()), None);
    }
}
