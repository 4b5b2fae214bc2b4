//! Concurrent performance tests (SpeedGun, sections 3 and 4): the test model that crosses the
//! process boundary, and the worker-side executor that runs it in threads and times it.
//!
//! A [`ConcurrentTest`] is a sequential prefix that builds one instance of a thread-safe type
//! (registered with [`register_concurrent!`](crate::register_concurrent)), then one suffix per
//! thread; each suffix is a loop body run `repeat` times, and every call in it whose receiver is
//! the shared instance goes through `&self` on a value all threads share. The executor follows
//! the paper's Algorithm 3: per repetition, run the prefix, start the threads behind a barrier,
//! time from the barrier's release to the end of the last suffix, clean up (untimed). Only wall
//! time is measured: the sancov counters are process-global and racy under threads.
//!
//! This module knows nothing of test generation, repetition counts or statistics; the engine
//! decides how often to run a test and judges the times.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Barrier;
use std::time::Instant;

use serde::{Deserialize, Serialize};

use crate::check::{check, ProgramError};
use crate::feedback::Outcome;
use crate::interp::{panic_message, Code, Compiler, Machine, Target};
use crate::program::{Program, Stmt, Var};
use crate::registry::Registry;
use crate::schema::{ApiSchema, Mode};

/// A concurrent test: a sequential prefix, then `suffixes.len()` threads sharing one instance.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ConcurrentTest {
    /// Declares every variable of the test (prefix and suffix locals) and holds the prefix;
    /// the prefix defines `shared` at top level.
    pub prefix: Program,
    /// The instance the threads share; its type is a concurrent type.
    pub shared: Var,
    /// Thread `t` runs `suffixes[t]` as the body of a loop of `repeat` iterations. Suffix
    /// statements may use `shared` only as the receiver of a `&self` call.
    pub suffixes: Vec<Vec<Stmt>>,
    /// Iterations of each suffix loop (SpeedGun's sqrt(l)).
    pub repeat: u32,
}

impl ConcurrentTest {
    /// The type of the shared instance.
    pub fn shared_type(&self) -> &str {
        self.prefix.ty(self.shared)
    }

    /// Calls per thread: the suffix length l of the paper (longest suffix).
    pub fn suffix_calls(&self) -> usize {
        self.suffixes
            .iter()
            .map(|s| s.iter().filter(|s| matches!(s, Stmt::Call { .. })).count())
            .max()
            .unwrap_or(0)
            * self.repeat as usize
    }

    /// The test as one sequential program (the prefix, then each suffix loop in turn): what
    /// the checker and the printer see.
    pub fn sequential(&self) -> Program {
        let mut p = self.prefix.clone();
        for s in &self.suffixes {
            p.body.push(Stmt::Repeat {
                n: self.repeat,
                body: s.clone(),
            });
        }
        p
    }

    /// Checks the test against `schema`: the sequential program type-checks, `shared` is a
    /// concurrent type defined at top level of the prefix, and the suffixes use it only as a
    /// `&self` receiver.
    pub fn check(&self, schema: &ApiSchema) -> Result<(), ProgramError> {
        let err = |stmt: usize, message: String| Err(ProgramError { stmt, message });
        let Some(ty) = self.prefix.vars.get(self.shared.index()) else {
            return err(0, "the shared variable is not declared".into());
        };
        if schema.ty(ty).is_none_or(|t| t.concurrent.is_none()) {
            return err(0, format!("{ty} is not a concurrent type"));
        }
        if !self
            .prefix
            .body
            .iter()
            .any(|s| s.defines() == Some(self.shared))
        {
            return err(0, "the prefix does not define the shared instance".into());
        }
        if self.suffixes.is_empty() || self.repeat == 0 {
            return err(
                0,
                "a concurrent test needs at least one thread and one iteration".into(),
            );
        }
        check(&self.sequential(), schema)?;
        for (t, suffix) in self.suffixes.iter().enumerate() {
            let at = self.prefix.body.len() + t;
            for s in suffix {
                let ok = match s {
                    Stmt::Call {
                        ty, method, args, ..
                    } => {
                        !args.contains(&self.shared)
                            && schema
                                .ty(ty)
                                .and_then(|t| t.method(method))
                                .is_some_and(|m| m.receiver == Mode::Ref || !uses(s, self.shared))
                    }
                    Stmt::Lit { .. } | Stmt::Op { .. } => !uses(s, self.shared),
                    _ => false,
                };
                if !ok {
                    return err(
                        at,
                        "a suffix may only call methods (the shared instance through &self), \
                         bind literals and apply operators"
                            .into(),
                    );
                }
            }
        }
        Ok(())
    }

    /// The test as Rust: the prefix, then the threads in a `std::thread::scope`, with the
    /// suffix of thread 0 written out (the others differ only in their calls).
    pub fn print(&self, schema: &ApiSchema) -> Result<String, ProgramError> {
        let one = ConcurrentTest {
            suffixes: self.suffixes.iter().take(1).cloned().collect(),
            ..self.clone()
        };
        let printed = crate::print::print(&one.sequential(), schema)?;
        let lines: Vec<&str> = printed.body.lines().collect();
        let split = lines
            .iter()
            .rposition(|l| l.starts_with("for "))
            .unwrap_or(lines.len());
        let mut s = String::new();
        for i in &printed.imports {
            s.push_str(&format!("use {i};\n"));
        }
        s.push_str("// Prefix: builds the shared instance (not timed).\n");
        for l in &lines[..split] {
            s.push_str(l);
            s.push('\n');
        }
        s.push_str(&format!(
            "// {} threads start behind a barrier; timed until the last one ends. Thread 0:\n",
            self.suffixes.len()
        ));
        s.push_str("std::thread::scope(|scope| {\n    scope.spawn(|| {\n");
        for l in &lines[split..] {
            s.push_str("        ");
            s.push_str(l);
            s.push('\n');
        }
        s.push_str("    });\n    // ... one scope.spawn per further thread, each with its own suffix\n});\n");
        Ok(s)
    }
}

fn uses(s: &Stmt, v: Var) -> bool {
    match s {
        Stmt::Call { recv, args, .. } => *recv == v || args.contains(&v),
        Stmt::Op { arg, .. } => *arg == v,
        Stmt::Ctor { args, .. } => args.contains(&v),
        _ => false,
    }
}

/// One request: run `test` up to `reps` times, at least `min_reps` times, and stop early once
/// `budget_ns` of wall time (setup included) has passed, if it is not 0.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ConcurrentRun {
    pub test: ConcurrentTest,
    pub reps: u32,
    pub min_reps: u32,
    pub budget_ns: u64,
}

/// What a [`ConcurrentRun`] reports: the measured time of the repetitions that ran (each from
/// the start of the suffixes to the end of the last one).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ConcurrentFeedback {
    pub outcome: Outcome,
    /// Repetitions completed.
    pub reps: u32,
    /// Sum of their measured times.
    pub total_ns: u64,
    pub min_ns: u64,
    pub max_ns: u64,
    /// The measured time of each repetition, for the first [`MAX_TIMES`] repetitions.
    pub times_ns: Vec<u64>,
}

/// Most per-repetition times a [`ConcurrentFeedback`] carries (bounds the record's size).
pub const MAX_TIMES: usize = 4096;

impl ConcurrentFeedback {
    /// A run that ended with `outcome` before any repetition counted.
    pub fn failed(outcome: Outcome) -> ConcurrentFeedback {
        ConcurrentFeedback {
            outcome,
            reps: 0,
            total_ns: 0,
            min_ns: 0,
            max_ns: 0,
            times_ns: Vec::new(),
        }
    }

    /// The `q` quantile (0..=1, nearest rank) of the recorded repetition times, ns; the mean
    /// when none were recorded.
    pub fn quantile_ns(&self, q: f64) -> f64 {
        if self.times_ns.is_empty() {
            return self.mean_ns();
        }
        let mut t = self.times_ns.clone();
        t.sort_unstable();
        let k = ((t.len() - 1) as f64 * q.clamp(0.0, 1.0)).round() as usize;
        t[k] as f64
    }

    /// Mean measured time of one repetition, ns (0 when none ran).
    pub fn mean_ns(&self) -> f64 {
        if self.reps == 0 {
            0.0
        } else {
            self.total_ns as f64 / self.reps as f64
        }
    }
}

/// Runs `run` in this process (the worker). `heartbeat` is called before every repetition,
/// so that the supervisor's per-program deadline applies to one repetition: a deadlocked test
/// stops calling it and gets its worker killed.
pub fn execute(
    registry: &Registry,
    schema: &ApiSchema,
    run: &ConcurrentRun,
    heartbeat: &dyn Fn(),
) -> ConcurrentFeedback {
    let test = &run.test;
    if let Err(e) = test.check(schema) {
        return ConcurrentFeedback::failed(Outcome::Invalid {
            reason: e.to_string(),
        });
    }
    let compiled = match Compiled::new(registry, test) {
        Ok(c) => c,
        Err(reason) => return ConcurrentFeedback::failed(Outcome::Invalid { reason }),
    };
    let start = Instant::now();
    let mut fb = ConcurrentFeedback::failed(Outcome::Ok);
    fb.min_ns = u64::MAX;
    while fb.reps < run.reps.max(1)
        && (fb.reps < run.min_reps.max(1)
            || run.budget_ns == 0
            || (start.elapsed().as_nanos() as u64) < run.budget_ns)
    {
        heartbeat();
        match compiled.once(test) {
            Ok(ns) => {
                fb.reps += 1;
                fb.total_ns += ns;
                fb.min_ns = fb.min_ns.min(ns);
                fb.max_ns = fb.max_ns.max(ns);
                if fb.times_ns.len() < MAX_TIMES {
                    fb.times_ns.push(ns);
                }
            }
            Err(outcome) => {
                fb.outcome = outcome;
                break;
            }
        }
    }
    if fb.reps == 0 {
        fb.min_ns = 0;
    }
    fb
}

/// A test compiled by the interpreter's compiler ([`crate::interp`]): the prefix, and one loop
/// per thread, run on the interpreter's machine.
struct Compiled {
    prefix: Vec<Code>,
    suffixes: Vec<Vec<Code>>,
    vars: usize,
    share: crate::registry::ShareFn,
}

impl Compiled {
    fn new(registry: &Registry, test: &ConcurrentTest) -> Result<Compiled, String> {
        let vars = &test.prefix.vars;
        let prefix = Compiler {
            registry,
            target: Target::Concurrent { shared: None },
        }
        .compile(vars, &test.prefix.body)?;
        let suffix = Compiler {
            registry,
            target: Target::Concurrent {
                shared: Some(test.shared),
            },
        };
        let suffixes = test
            .suffixes
            .iter()
            .map(|body| {
                let repeat = Stmt::Repeat {
                    n: test.repeat,
                    body: body.clone(),
                };
                suffix.compile(vars, std::slice::from_ref(&repeat))
            })
            .collect::<Result<_, _>>()?;
        let share = registry
            .ty(test.shared_type())
            .and_then(|t| t.share)
            .ok_or("the shared type has no share function")?;
        Ok(Compiled {
            prefix,
            suffixes,
            vars: test.prefix.vars.len(),
            share,
        })
    }

    /// One repetition (Algorithm 3, lines 3-10): the measured time, or why it failed.
    fn once(&self, test: &ConcurrentTest) -> Result<u64, Outcome> {
        let mut buffers = crate::interp::Buffers::default();
        let mut m = Machine::new(&mut buffers, self.vars, None);
        let r = catch_unwind(AssertUnwindSafe(|| -> Result<(), String> {
            for (i, c) in self.prefix.iter().enumerate() {
                m.top = i;
                m.exec(c)?;
            }
            Ok(())
        }));
        match r {
            Ok(Ok(())) => {}
            Ok(Err(reason)) => return Err(Outcome::Invalid { reason }),
            Err(p) => {
                return Err(Outcome::Panic {
                    stmt: m.top as u32,
                    message: panic_message(&*p),
                })
            }
        }
        let value = m.b.slots[test.shared.index()]
            .take()
            .ok_or_else(|| Outcome::Invalid {
                reason: "the prefix moved the shared instance away".into(),
            })?;
        let shared = (self.share)(value).map_err(|e| Outcome::Invalid { reason: e.0 })?;
        drop(m);
        if catch_unwind(AssertUnwindSafe(move || drop(buffers))).is_err() {
            return Err(Outcome::Panic {
                stmt: test.prefix.body.len() as u32,
                message: "panic while dropping the prefix's values".into(),
            });
        }
        let barrier = Barrier::new(self.suffixes.len() + 1);
        let suffix_stmt = test.prefix.body.len() as u32;
        let spans = std::thread::scope(|scope| {
            let handles: Vec<_> = self
                .suffixes
                .iter()
                .enumerate()
                .map(|(t, code)| {
                    let barrier = &barrier;
                    // Each thread's machine holds a handle; the last one drops in this thread
                    // after the scope, as below.
                    let shared = shared.clone();
                    std::thread::Builder::new()
                        .name(format!("suffix-{t}"))
                        .spawn_scoped(scope, move || {
                            let mut buffers = crate::interp::Buffers::default();
                            let mut m = Machine::new(&mut buffers, self.vars, Some(shared));
                            barrier.wait();
                            let begin = Instant::now();
                            let r = catch_unwind(AssertUnwindSafe(|| {
                                code.iter().try_for_each(|c| m.exec(c))
                            }));
                            let end = Instant::now();
                            drop(m);
                            let dropped = catch_unwind(AssertUnwindSafe(move || drop(buffers)));
                            match (r, dropped) {
                                (Ok(Ok(())), Ok(())) => Ok((begin, end)),
                                (Ok(Err(reason)), _) => Err(Outcome::Invalid { reason }),
                                (Err(p), _) => Err(Outcome::Panic {
                                    stmt: suffix_stmt + t as u32,
                                    message: panic_message(&*p),
                                }),
                                (_, Err(p)) => Err(Outcome::Panic {
                                    stmt: suffix_stmt + t as u32,
                                    message: panic_message(&*p),
                                }),
                            }
                        })
                })
                .collect();
            // A thread that could not start leaves the barrier one short: the others would
            // wait forever, so this is reported (and the deadline kills the worker if needed).
            if handles.iter().any(|h| h.is_err()) {
                return vec![Err(Outcome::Invalid {
                    reason: "cannot start a suffix thread".into(),
                })];
            }
            barrier.wait();
            handles
                .into_iter()
                .flatten()
                .map(|h| {
                    h.join().unwrap_or_else(|p| {
                        Err(Outcome::Panic {
                            stmt: suffix_stmt,
                            message: panic_message(&*p),
                        })
                    })
                })
                .collect::<Vec<Result<(Instant, Instant), Outcome>>>()
        });
        // From the start of the first suffix to the end of the last (each thread reads the
        // clock itself: the main thread may be scheduled late after the barrier).
        let mut span: Option<(Instant, Instant)> = None;
        for r in spans {
            let (b, e) = r?;
            span = Some(span.map_or((b, e), |(b0, e0)| (b0.min(b), e0.max(e))));
        }
        let ns = span.map_or(0, |(b, e)| e.duration_since(b).as_nanos() as u64);
        if catch_unwind(AssertUnwindSafe(move || drop(shared))).is_err() {
            return Err(Outcome::Panic {
                stmt: suffix_stmt,
                message: "panic while dropping the shared instance".into(),
            });
        }
        Ok(ns)
    }
}
