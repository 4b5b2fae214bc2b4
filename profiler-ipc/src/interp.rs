//! The in-process interpreter: executes a program against a registry and measures the
//! calls under test.
//!
//! A program is first checked ([`crate::check`]) and compiled to a tree of resolved
//! function pointers, so a `repeat 10000` loop costs no name lookups. Values live in
//! `Box<dyn Any>` slots; a call moves its operands out of their slots into a scratch array,
//! calls the registered wrapper, and puts back the ones not passed by value. Only the
//! wrapper call of a statement marked `under_test` runs between the two counter snapshots.
//! Target panics are caught per program and returned as data with the statement index.
//!
//! With [`RunLimits`] set, a program is metered in fuel (edges executed from its first
//! statement to the drop of its values, see [`meter::arm_fuel`]) and heap bytes.

use std::any::Any;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::Ordering::Relaxed;

use crate::check::check;
use crate::feedback::{Cost, Feedback, Outcome};
use crate::meter;
use crate::program::{IntTy, Literal, Op, Program, Stmt, Var};
use crate::registry::{
    CtorFn, GetFieldFn, MethodFn, Registry, SetFieldFn, SharedMethodFn, SizeFn, Slot,
};
use crate::schema::{ApiSchema, Mode};

/// Executes programs against one registry.
pub struct Interpreter<'r> {
    registry: &'r Registry,
    schema: ApiSchema,
    limits: Option<RunLimits>,
}

/// The deterministic limits of one program run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RunLimits {
    /// Edges the program may execute (setup, calls and the drop of its values), bytes moved
    /// counting [`meter::FUEL_BYTES_PER_EDGE`] to an edge.
    pub fuel: u64,
    /// Heap bytes the program may hold beyond what was live when it started.
    pub heap: u64,
}

/// A program checked and compiled ([`Interpreter::prepare`]), or why it is invalid: a
/// worker keeps one per program it caches (see [`crate::progcache`]), so that a program sent
/// again skips both steps, about three fifths of a small program's instructions.
pub struct Prepared {
    code: Result<Vec<Code>, String>,
    /// The program's [`seam`].
    seam: Option<usize>,
    /// The machine's buffers of the last run, so that a run of a cached program allocates
    /// none of the interpreter's own.
    spare: Buffers,
}

impl Prepared {
    /// Whether the program passed the checker and compiled.
    pub fn accepted(&self) -> bool {
        self.code.is_ok()
    }

    /// The program's [`seam`].
    pub fn seam(&self) -> Option<usize> {
        self.seam
    }
}

impl std::fmt::Debug for Prepared {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.code {
            Ok(code) => write!(f, "Prepared({} statements)", code.len()),
            Err(reason) => write!(f, "Prepared(invalid: {reason})"),
        }
    }
}

impl<'r> Interpreter<'r> {
    /// An interpreter for `registry`.
    pub fn new(registry: &'r Registry) -> Interpreter<'r> {
        Interpreter {
            registry,
            schema: registry.schema(),
            limits: None,
        }
    }

    /// Meters every later run with `limits` (`None`: unmetered).
    pub fn set_limits(&mut self, limits: Option<RunLimits>) {
        self.limits = limits;
    }

    /// The limits later runs are metered with.
    pub fn limits(&self) -> Option<RunLimits> {
        self.limits
    }

    /// The schema of the registry.
    pub fn schema(&self) -> &ApiSchema {
        &self.schema
    }

    /// Runs `p` once and returns its feedback. Never unwinds: target panics become
    /// [`Outcome::Panic`].
    pub fn run(&self, p: &Program) -> Feedback {
        self.run_with(p, &mut |_| {})
    }

    /// Runs `p`, calling `inspect` with the final slots (used by tests to compare the
    /// interpreter's final state with that of the printed program).
    pub fn run_with(&self, p: &Program, inspect: &mut dyn FnMut(&[Slot])) -> Feedback {
        self.run_seamed(p, inspect, &mut || None)
    }

    /// Whether `p` passes the checker and compiles (then [`Interpreter::run_seamed`] can
    /// switch to it at a seam).
    pub fn accepts(&self, p: &Program) -> bool {
        self.prepare(p).accepted()
    }

    /// Runs `p`, calling `at_seam` once when execution reaches `p`'s [`seam`]. If it returns a
    /// program (one that [`Interpreter::accepts`] and that has the same statements and
    /// variable types up to the same seam), execution continues with that program's
    /// statements from the seam on, and the feedback is that program's. The fork server
    /// forks inside `at_seam`, so that children continue from the built setup.
    ///
    /// Edges and heap bytes spent inside `at_seam` are not charged to the program's fuel and
    /// heap, and the fresh path ([`Interpreter::run`]) passes through the same seam with a
    /// hook that does nothing: both paths charge exactly the same.
    pub fn run_seamed(
        &self,
        p: &Program,
        inspect: &mut dyn FnMut(&[Slot]),
        at_seam: &mut dyn FnMut() -> Option<Program>,
    ) -> Feedback {
        self.run_seamed_at(p, None, inspect, at_seam)
    }

    /// As [`Interpreter::run_seamed`], calling `at_seam` at `at` (one of [`seams`] of `p`)
    /// instead of at `p`'s own seam when given: the fork server builds an ancestor's shorter
    /// setup that `p` starts with.
    pub fn run_seamed_at(
        &self,
        p: &Program,
        at: Option<usize>,
        inspect: &mut dyn FnMut(&[Slot]),
        at_seam: &mut dyn FnMut() -> Option<Program>,
    ) -> Feedback {
        let mut prepared = self.prepare(p);
        if at.is_some() {
            prepared.seam = at;
        }
        match prepared.code {
            Ok(mut code) => self.execute(
                p,
                &mut code,
                prepared.seam,
                inspect,
                at_seam,
                &mut prepared.spare,
            ),
            Err(reason) => Feedback::failed(Outcome::Invalid { reason }),
        }
    }

    /// Checks and compiles `p` once, for [`Interpreter::run_prepared`].
    pub fn prepare(&self, p: &Program) -> Prepared {
        let code = match check(p, &self.schema) {
            Ok(()) => self.compile(&p.vars, &p.body),
            Err(e) => Err(e.to_string()),
        };
        Prepared {
            code,
            seam: seam(&p.body),
            spare: Buffers::default(),
        }
    }

    /// Runs `p`, which `prepared` was prepared from, without checking or compiling it again:
    /// the same feedback as [`Interpreter::run`] (both do exactly the same between arming
    /// fuel and disarming it; checking and compiling come before).
    #[inline]
    pub fn run_prepared(&self, p: &Program, prepared: &mut Prepared) -> Feedback {
        match &mut prepared.code {
            Ok(code) => self.execute(
                p,
                code,
                prepared.seam,
                &mut |_| {},
                &mut || None,
                &mut prepared.spare,
            ),
            Err(reason) => Feedback::failed(Outcome::Invalid {
                reason: reason.clone(),
            }),
        }
    }

    /// Runs the compiled `code` of `p`, whose [`seam`] is `seam` (see
    /// [`Interpreter::run_seamed`]). `code` is left as it was unless `at_seam` switched to
    /// another program. Uninstrumented (see `meter`, "The uninstrumented runtime").
    #[export_name = "__sanitizer_perfsyn_interp_execute"]
    #[inline(never)]
    fn execute(
        &self,
        p: &Program,
        code: &mut Vec<Code>,
        seam: Option<usize>,
        inspect: &mut dyn FnMut(&[Slot]),
        at_seam: &mut dyn FnMut() -> Option<Program>,
        spare: &mut Buffers,
    ) -> Feedback {
        let mut m = Machine::new(spare, p.vars.len(), None);
        m.hot = meter::hot_prepare();
        // The seam was found before fuel is armed (by `prepare`): finding it scans the
        // statements after it, which differ between programs sharing a setup, so a zygote's
        // program would be charged another count of edges than the one it serves.
        if let Some(l) = self.limits {
            meter::arm_fuel(l.fuel, l.heap);
        }
        m.heap_base = meter::live_bytes();
        let mut switch = || {
            let next = at_seam()?;
            match self.compile(&next.vars, &next.body) {
                Ok(c) => Some((c, next.vars.len())),
                // The hook's contract is a program this interpreter accepts; continuing with
                // the old one would report its costs as the new one's.
                Err(_) => std::process::abort(),
            }
        };
        let result = catch_unwind(AssertUnwindSafe(|| m.exec_top(code, seam, &mut switch)));
        if m.hot {
            meter::hot_pause(); // a call that panicked did not pause
        }
        let outcome = match result {
            Ok(Ok(())) => Outcome::Ok,
            Ok(Err(reason)) => Outcome::Invalid { reason },
            Err(payload) => Outcome::Panic {
                stmt: m.top as u32,
                message: panic_message(&*payload),
            },
        };
        if outcome == Outcome::Ok {
            inspect(&m.b.slots);
        }
        let mut fb = Feedback {
            outcome,
            cost: m.cost,
            input_size: m.input_size.unwrap_or(0),
            heap_bytes: m.heap_bytes,
            calls: m.calls,
            hot: if m.hot {
                // Collecting is the worker's work, not the program's: a run with hot counts
                // spends the fuel of the same run without them.
                let since = meter::fuel_mark();
                let hot = crate::hot::collect();
                meter::uncharge_edges(meter::fuel_mark().wrapping_sub(since));
                hot
            } else {
                Vec::new()
            },
            fuel_spent: 0,
        };
        // Dropping target values runs target code too; a panic there must not escape (the
        // slots are empty after it either way: `clear` shortens the vector first).
        let dropped = catch_unwind(AssertUnwindSafe(|| drop_all(&mut m.b.slots)));
        if self.limits.is_some() {
            fb.fuel_spent = meter::fuel_spent();
            meter::disarm_fuel();
        }
        m.empty_buffers();
        if dropped.is_err() && fb.is_ok() {
            return Feedback {
                outcome: Outcome::Panic {
                    stmt: code.len() as u32,
                    message: "panic while dropping the program's values".into(),
                },
                ..fb
            };
        }
        fb
    }

    fn compile(&self, vars: &[String], stmts: &[Stmt]) -> Result<Vec<Code>, String> {
        let c = Compiler {
            registry: self.registry,
            target: Target::Measured,
        };
        c.compile(vars, stmts)
    }
}

/// What compiled code is for.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Target {
    /// A program whose calls under test are measured (the interpreter).
    Measured,
    /// A concurrent test ([`crate::concurrent`]): only wall time is measured, so calls under
    /// test run like any other; fields are not supported; a call whose receiver is `shared`
    /// goes through `&self` on the value the threads share.
    Concurrent { shared: Option<Var> },
}

/// Compiles statements to [`Code`] for one [`Target`], resolving names to function pointers.
pub(crate) struct Compiler<'r> {
    pub(crate) registry: &'r Registry,
    pub(crate) target: Target,
}

impl Compiler<'_> {
    /// Compiles `stmts`, whose variables have the types `vars`.
    pub(crate) fn compile(&self, vars: &[String], stmts: &[Stmt]) -> Result<Vec<Code>, String> {
        stmts.iter().map(|s| self.compile_one(vars, s)).collect()
    }

    fn compile_one(&self, vars: &[String], s: &Stmt) -> Result<Code, String> {
        let ty = |name: &str| {
            self.registry
                .ty(name)
                .ok_or_else(|| format!("unknown type {name}"))
        };
        Ok(match s {
            Stmt::Lit { out, value } => Code::Lit {
                out: *out,
                value: value.clone(),
            },
            Stmt::Ctor {
                out,
                ty: t,
                ctor,
                args,
            } => {
                let td = ty(t)?;
                let i = td
                    .schema
                    .ctors
                    .iter()
                    .position(|c| &c.name == ctor)
                    .ok_or("unknown constructor")?;
                let modes = td.schema.ctors[i].params.iter().map(|p| p.mode);
                Code::Ctor {
                    out: *out,
                    f: td.ctors[i],
                    args: args.iter().copied().zip(modes).collect(),
                }
            }
            Stmt::Call {
                out,
                ty: t,
                method,
                recv,
                args,
                under_test,
            } => {
                let td = ty(t)?;
                let i = td
                    .schema
                    .methods
                    .iter()
                    .position(|m| &m.name == method)
                    .ok_or("unknown method")?;
                let ms = &td.schema.methods[i];
                if let Target::Concurrent { shared: Some(sh) } = self.target {
                    if *recv == sh {
                        let f = *td.shared_methods.get(i).ok_or_else(|| {
                            format!("{t}::{method} cannot be called through &self")
                        })?;
                        return Ok(Code::Shared {
                            out: *out,
                            f,
                            args: args
                                .iter()
                                .copied()
                                .zip(ms.params.iter().map(|p| p.mode))
                                .collect(),
                        });
                    }
                }
                let mut ops = vec![(*recv, ms.receiver)];
                ops.extend(args.iter().copied().zip(ms.params.iter().map(|p| p.mode)));
                let mut sizes = vec![td.size];
                // A free function of integers only (`fib(n)`, `binomial(n, k)`): its input is
                // the numbers themselves, so their values are its size. Elsewhere an integer
                // is a key or an index beside a sized value, and counts nothing.
                let numbers = td.schema.is_namespace()
                    && !ms.params.is_empty()
                    && ms.params.iter().all(|p| IntTy::from_name(&p.ty).is_some());
                for p in &ms.params {
                    sizes.push(if numbers {
                        Some(int_size as SizeFn)
                    } else {
                        // A string's size is its length, also where the harness registers
                        // no `String` type of its own (a text that grows is an input).
                        self.registry
                            .ty(&p.ty)
                            .and_then(|t| t.size)
                            .or_else(|| (p.ty == "String").then_some(str_size as SizeFn))
                    });
                }
                Code::Call {
                    out: *out,
                    f: td.methods[i],
                    ops,
                    sizes,
                    under_test: *under_test && matches!(self.target, Target::Measured),
                    recv_through_ref: changes_through_ref(td),
                }
            }
            Stmt::Op { out, op, arg } => Code::Op {
                out: *out,
                op: *op,
                arg: *arg,
            },
            Stmt::GetField { out, target, field }
            | Stmt::SetField {
                target,
                field,
                value: out,
            } => {
                if let Target::Concurrent { .. } = self.target {
                    return Err("field access is not supported in concurrent tests".into());
                }
                let tname = vars[target.index()].clone();
                let td = ty(&tname)?;
                let i = td
                    .schema
                    .fields
                    .iter()
                    .position(|f| &f.name == field)
                    .ok_or("unknown field")?;
                match s {
                    Stmt::GetField { .. } => Code::Get {
                        out: *out,
                        target: *target,
                        f: td.fields[i].0,
                    },
                    _ => Code::Set {
                        target: *target,
                        value: *out,
                        f: td.fields[i].1,
                    },
                }
            }
            Stmt::Repeat { n, body } => Code::Repeat {
                n: *n,
                body: self.compile(vars, body)?,
                locals: body.iter().filter_map(Stmt::defines).collect(),
            },
        })
    }
}

/// Top-level loops with fewer iterations than this are not worth a seam: forking costs
/// more than rebuilding them.
pub const SEAM_MIN_ITERATIONS: u32 = 256;

/// The seam of a program: the index of the top-level statement just after its last loop of
/// at least [`SEAM_MIN_ITERATIONS`] iterations that comes before the first statement
/// measuring a call under test. Everything before it is setup that programs with the same
/// statements up to their seam share (the fork server builds it once). `None` when there
/// is no such loop or nothing is measured.
pub fn seam(body: &[Stmt]) -> Option<usize> {
    seams(body).last().copied()
}

/// Every index at which a program could be seamed, ascending: the statement just after each
/// top-level loop of at least [`SEAM_MIN_ITERATIONS`] iterations before the first statement
/// measuring a call under test; the last one is its [`seam`]. The earlier ones are where
/// the setups of its ancestors end (a child mostly appends a loop to its parent's setup).
pub fn seams(body: &[Stmt]) -> Vec<usize> {
    fn measures(s: &Stmt) -> bool {
        match s {
            Stmt::Call { under_test, .. } => *under_test,
            Stmt::Repeat { body, .. } => body.iter().any(measures),
            _ => false,
        }
    }
    let Some(first) = body.iter().position(measures) else {
        return Vec::new();
    };
    body[..first]
        .iter()
        .enumerate()
        .filter(|(_, s)| matches!(s, Stmt::Repeat { n, .. } if *n >= SEAM_MIN_ITERATIONS))
        .map(|(i, _)| i + 1)
        .collect()
}

/// Gives back to the running program the edges and heap bytes spent since `since` (edges and
/// live bytes then): the work of a seam hook is not the program's.
fn uncharge_since(since: (u64, u64)) {
    let edges = meter::fuel_mark().wrapping_sub(since.0);
    let live = meter::LIVE_BYTES.load(Relaxed).wrapping_sub(since.1);
    meter::uncharge_edges(edges);
    if meter::HEAP_LIMIT.load(Relaxed) != u64::MAX {
        let base = meter::HEAP_BASE.load(Relaxed);
        meter::HEAP_BASE.store(base.wrapping_add(live), Relaxed);
    }
}

/// Extracts the message of a panic payload.
pub fn panic_message(payload: &dyn Any) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        s.to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "panic with a non-string payload".to_string()
    }
}

/// Installs a panic hook that prints nothing (panics are returned as data; the default hook
/// would write to stderr and, with backtraces on, cost ~150 ms per panic).
pub fn quiet_panics() {
    std::panic::set_hook(Box::new(|_| {}));
}

/// A compiled statement.
pub(crate) enum Code {
    Lit {
        out: Var,
        value: Literal,
    },
    Ctor {
        out: Var,
        f: CtorFn,
        args: Vec<(Var, Mode)>,
    },
    Call {
        out: Option<Var>,
        f: MethodFn,
        ops: Vec<(Var, Mode)>,
        sizes: Vec<Option<SizeFn>>,
        under_test: bool,
        /// The receiver's type has no size function and changes only through `&self`
        /// (see [`changes_through_ref`]): a setup call on it counts as a mutation.
        recv_through_ref: bool,
    },
    /// A call through `&self` on the value a concurrent test's threads share.
    Shared {
        out: Option<Var>,
        f: SharedMethodFn,
        args: Vec<(Var, Mode)>,
    },
    Op {
        out: Var,
        op: Op,
        arg: Var,
    },
    Get {
        out: Var,
        target: Var,
        f: GetFieldFn,
    },
    Set {
        target: Var,
        value: Var,
        f: SetFieldFn,
    },
    Repeat {
        n: u32,
        body: Vec<Code>,
        locals: Vec<Var>,
    },
}

/// The variables of one run (of one thread, for a concurrent test) and what it measured.
pub(crate) struct Machine<'b> {
    /// The slots, the mutation counts and the scratch array (see [`Buffers`]).
    pub(crate) b: &'b mut Buffers,
    cost: Cost,
    input_size: Option<u64>,
    /// Live heap bytes when the program started, and what its values held beyond that just
    /// before the first call under test (see `Feedback::heap_bytes`).
    heap_base: u64,
    heap_bytes: u64,
    calls: u32,
    /// The top-level statement running (a panic's `stmt`).
    pub(crate) top: usize,
    i: i64,
    n: i64,
    /// The program counts hits per guard during its calls under test (see `meter::hot_prepare`).
    hot: bool,
    /// The value a concurrent test's threads share, for [`Code::Shared`] calls.
    shared: Option<crate::registry::Shared>,
}

impl Machine<'_> {
    /// Runs the top-level statements; at `seam`, asks `switch` for the code to continue with
    /// (see [`Interpreter::run_seamed`]). Uninstrumented, as [`Machine::exec`].
    #[export_name = "__sanitizer_perfsyn_interp_exec_top"]
    fn exec_top(
        &mut self,
        code: &mut Vec<Code>,
        seam: Option<usize>,
        switch: &mut dyn FnMut() -> Option<(Vec<Code>, usize)>,
    ) -> Result<(), String> {
        let mut i = 0;
        while i < code.len() {
            if seam == Some(i) {
                let since = (meter::fuel_mark(), meter::LIVE_BYTES.load(Relaxed));
                let live = meter::live_bytes();
                if let Some((next, vars)) = switch() {
                    *code = next;
                    // Variables past the shared setup hold nothing yet.
                    self.b.slots.resize_with(vars, || None);
                    self.b.mutations.resize(vars, 0);
                }
                // The heap the program's values hold (`Feedback::heap_bytes`) leaves out what
                // the hook left live, the switched-to program's code instead of the old one's
                // among it: a fresh run of that program compiled it before `heap_base`.
                self.heap_base = self
                    .heap_base
                    .wrapping_add(meter::live_bytes().wrapping_sub(live));
                uncharge_since(since);
                // A fork server's child takes its own fuel only now (see
                // `meter::refuel_after_seam`).
                meter::apply_deferred_refuel();
            }
            self.top = i;
            self.exec(&code[i])?;
            i += 1;
        }
        Ok(())
    }

    /// Executes one compiled statement. Uninstrumented (see `meter`, "The uninstrumented
    /// runtime"): only the wrappers and target code it calls count edges, and a call under
    /// test's window holds nothing of the interpreter between its two snapshots.
    #[export_name = "__sanitizer_perfsyn_interp_exec"]
    pub(crate) fn exec(&mut self, c: &Code) -> Result<(), String> {
        match c {
            Code::Repeat { n, body, locals } => {
                self.n = *n as i64;
                for i in 0..*n {
                    self.i = i as i64;
                    for c in body {
                        self.step(c)?;
                    }
                    for l in locals {
                        if let Some(v) = self.b.slots[l.index()].take() {
                            meter::drop_boxed(v);
                        }
                    }
                }
                Ok(())
            }
            c => self.step(c),
        }
    }

    /// Executes one compiled statement other than a loop, inlined into [`Machine::exec`]
    /// twice: for a top-level statement and for each statement of a loop's body, so that a
    /// loop's statements cost no call of `exec`. A nested loop is a call of `exec`.
    #[inline(always)]
    fn step(&mut self, c: &Code) -> Result<(), String> {
        match c {
            Code::Lit { out, value } => {
                let v = literal(value, self.i, self.n);
                put(&mut self.b.slots[out.index()], v);
            }
            Code::Ctor { out, f, args } => {
                self.gather(args);
                let r = f(&mut self.b.scratch);
                self.restore(args);
                put(&mut self.b.slots[out.index()], r.map_err(|e| e.0)?);
            }
            Code::Call {
                out,
                f,
                ops,
                sizes,
                under_test,
                recv_through_ref,
            } => {
                self.gather(ops);
                let r = if *under_test {
                    if self.input_size.is_none() {
                        // Indexed rather than zipped: `Zip::new` is instrumented out of line.
                        // `sizes`, `ops` and the gathered scratch have the same length.
                        let mut size = 0u64;
                        for (k, (var, _)) in ops.iter().enumerate() {
                            size += match (sizes.get(k), self.b.scratch.get(k)) {
                                (Some(Some(f)), Some(Some(v))) => f(&**v),
                                _ => self.b.mutations[var.index()],
                            };
                        }
                        self.input_size = Some(size);
                        self.heap_bytes = meter::live_bytes().saturating_sub(self.heap_base);
                    }
                    if self.hot {
                        meter::hot_resume();
                    }
                    meter::arm_return();
                    let before = meter::snapshot_before();
                    crate::readtrace::call_begin();
                    let r = f(&mut self.b.scratch);
                    crate::readtrace::call_end();
                    let after = meter::returned_or(meter::snapshot_after());
                    if self.hot {
                        meter::hot_pause();
                    }
                    self.cost.add(&meter::delta(&before, &after));
                    self.calls += 1;
                    r
                } else {
                    for (k, (var, mode)) in ops.iter().enumerate() {
                        if mode.mutates() || (k == 0 && *recv_through_ref) {
                            self.b.mutations[var.index()] += 1;
                        }
                    }
                    f(&mut self.b.scratch)
                };
                self.restore(ops);
                match (out, r.map_err(|e| e.0)?) {
                    (Some(o), Some(v)) => put(&mut self.b.slots[o.index()], v),
                    (None, Some(v)) => meter::drop_boxed(v),
                    (_, None) => {}
                }
            }
            Code::Shared { out, f, args } => {
                if self.shared.is_none() {
                    return Err("a shared call outside a suffix".into());
                }
                self.gather(args);
                let shared = self.shared.as_deref().expect("checked above");
                let r = f(shared, &mut self.b.scratch);
                self.restore(args);
                match (out, r.map_err(|e| e.0)?) {
                    (Some(o), Some(v)) => put(&mut self.b.slots[o.index()], v),
                    (None, Some(v)) => meter::drop_boxed(v),
                    (_, None) => {}
                }
            }
            Code::Op { out, op, arg } => {
                let v = self.b.slots[arg.index()]
                    .as_deref()
                    .ok_or("operator on a dead variable")?;
                let r = apply_op(*op, v).ok_or("operator on a wrong type")?;
                put(&mut self.b.slots[out.index()], r);
            }
            Code::Get { out, target, f } => {
                let v = self.b.slots[target.index()]
                    .as_deref()
                    .ok_or("field read on a dead variable")?;
                let r = f(v).map_err(|e| e.0)?;
                put(&mut self.b.slots[out.index()], r);
            }
            Code::Set { target, value, f } => {
                let x = self.b.slots[value.index()]
                    .take()
                    .ok_or("field write from a dead variable")?;
                let t = self.b.slots[target.index()]
                    .as_deref_mut()
                    .ok_or("field write on a dead variable")?;
                f(t, x).map_err(|e| e.0)?;
            }
            Code::Repeat { .. } => return self.exec(c),
        }
        Ok(())
    }

    #[inline(always)]
    fn gather(&mut self, ops: &[(Var, Mode)]) {
        drop_all(&mut self.b.scratch);
        for (v, _) in ops {
            let s = self.b.slots[v.index()].take();
            self.b.scratch.push(s);
        }
    }

    #[inline(always)]
    fn restore(&mut self, ops: &[(Var, Mode)]) {
        for (k, (v, mode)) in ops.iter().enumerate() {
            if !mode.moves() {
                let back = self.b.scratch[k].take();
                if let Some(old) = std::mem::replace(&mut self.b.slots[v.index()], back) {
                    meter::drop_boxed(old);
                }
            }
        }
        drop_all(&mut self.b.scratch);
    }
}

/// Drops the values of `slots` one at a time and empties it, inlined: `Vec::clear` calls the
/// slice's drop glue, an instrumented function out of line. Each value is taken out before
/// its drop, so after a panic the vector holds only values not dropped yet.
#[inline(always)]
fn drop_all(slots: &mut Vec<Slot>) {
    for s in slots.iter_mut() {
        if let Some(v) = s.take() {
            meter::drop_boxed(v);
        }
    }
    // SAFETY: 0 is within the capacity, and every element is `None`, which owns nothing.
    unsafe { slots.set_len(0) };
}

/// Stores `v` in `slot`, dropping what it held by [`meter::drop_boxed`]: an assignment calls
/// the drop glue of `Slot`, an instrumented function out of line, even when the slot is
/// empty (as it almost always is). The old value is dropped after the store rather than
/// before; nothing can see the slot in between, and after a panic in that drop the slot
/// holds `v` either way.
#[inline(always)]
fn put(slot: &mut Slot, v: Box<dyn Any>) {
    if let Some(old) = slot.replace(v) {
        meter::drop_boxed(old);
    }
}

/// The vectors of a [`Machine`]: a run borrows them, and a cached program keeps them
/// between its runs (see [`Prepared`]), so that a run allocates none of the interpreter's
/// own. Empty between runs.
#[derive(Default)]
pub(crate) struct Buffers {
    pub(crate) slots: Vec<Slot>,
    /// Setup calls that took each variable by `&mut`: the input size of a value whose type
    /// registers no size function (a fair default for types without `len()`).
    mutations: Vec<u64>,
    scratch: Vec<Slot>,
}

impl<'b> Machine<'b> {
    /// A machine with `vars` empty slots in `b` (empty); `shared` serves the
    /// [`Code::Shared`] calls.
    #[inline(always)]
    pub(crate) fn new(
        b: &'b mut Buffers,
        vars: usize,
        shared: Option<crate::registry::Shared>,
    ) -> Machine<'b> {
        debug_assert!(b.slots.is_empty() && b.scratch.is_empty());
        // Pushes rather than `resize`: inlined into the uninstrumented interpreter, not a
        // call of instrumented generic code.
        if b.slots.capacity() < vars {
            b.slots.reserve(vars);
            b.mutations.reserve(vars);
        }
        b.mutations.clear();
        for _ in 0..vars {
            b.slots.push(None);
            b.mutations.push(0);
        }
        // The scratch starts at 8 operands, as a new one did: a call with more grows it
        // during the run, which `Feedback::heap_bytes` sees when it comes before the first
        // call under test, in every run alike.
        if b.scratch.capacity() != 8 {
            b.scratch = Vec::with_capacity(8);
        }
        Machine {
            b,
            cost: Cost::default(),
            input_size: None,
            heap_base: 0,
            heap_bytes: 0,
            calls: 0,
            top: 0,
            i: 0,
            n: 0,
            hot: false,
            shared,
        }
    }

    /// Empties the machine's vectors for the next run. The slots were dropped already
    /// unless a drop panicked; the scratch holds the operands of a call that panicked. What
    /// is left is dropped here, after the program's fuel, as when the machine owned its
    /// vectors (each pass takes out the value it drops, so the loops end).
    #[inline(always)]
    fn empty_buffers(&mut self) {
        let slots = &mut self.b.slots;
        while catch_unwind(AssertUnwindSafe(|| drop_all(slots))).is_err() {}
        let scratch = &mut self.b.scratch;
        while catch_unwind(AssertUnwindSafe(|| drop_all(scratch))).is_err() {}
    }
}

/// The input size of an integer argument of a free function of integers only: its value
/// (0 when negative).
fn int_size(v: &dyn Any) -> u64 {
    macro_rules! of {
        ($($t:ty),*) => {$(
            if let Some(x) = v.downcast_ref::<$t>() {
                return u64::try_from(*x).unwrap_or(0);
            }
        )*};
    }
    of!(u8, u32, u64, usize, i32, i64);
    0
}

/// Whether a type's input size counts the setup calls through `&self`: it has no size
/// function and every method takes `&self` (interior mutability: a lock-free queue, a
/// `RefCell` cache). A type without a size function is sized by the setup calls that may
/// have changed it; counting only `&mut self` calls left such a type at size 0 whatever
/// a program did (heapless's `MpMcQueue::enqueue(&self)`), so no class could be measured.
fn changes_through_ref(td: &crate::registry::TypeDef) -> bool {
    td.size.is_none()
        && !td.schema.is_namespace()
        && !td.schema.methods.is_empty()
        && td.schema.methods.iter().all(|m| m.receiver == Mode::Ref)
}

/// The length of a `String` argument, in bytes.
fn str_size(v: &dyn Any) -> u64 {
    v.downcast_ref::<String>().map_or(0, |s| s.len() as u64)
}

/// Materializes a literal as a value of its Rust type (boxed by [`meter::boxed`]: no
/// instrumented call when inlined into the uninstrumented interpreter).
#[inline(always)]
pub fn literal(l: &Literal, i: i64, n: i64) -> Box<dyn Any> {
    match l {
        Literal::Bool(b) => meter::boxed(*b),
        Literal::Char(c) => meter::boxed(*c),
        Literal::Str(s) => meter::boxed(s.clone()),
        Literal::Int { ty, value } => int_value(*ty, *value),
        Literal::Index { ty, pattern } => int_value(*ty, ty.clamp(pattern.eval(i, n))),
        Literal::Text { shape, a, b, n } => meter::boxed(shape.eval(a, b, *n)),
    }
}

#[inline(always)]
fn int_value(ty: IntTy, v: i64) -> Box<dyn Any> {
    match ty {
        IntTy::U8 => meter::boxed(v as u8),
        IntTy::U32 => meter::boxed(v as u32),
        IntTy::U64 => meter::boxed(v as u64),
        IntTy::Usize => meter::boxed(v as usize),
        IntTy::I32 => meter::boxed(v as i32),
        IntTy::I64 => meter::boxed(v),
    }
}

macro_rules! int_op {
    ($v:expr, $op:expr, $($t:ty),*) => {$(
        if let Some(x) = $v.downcast_ref::<$t>() {
            let x = *x;
            let r: $t = match $op {
                Op::Inc => x.saturating_add(1),
                Op::Dec => x.saturating_sub(1),
                Op::Double => x.saturating_mul(2),
                Op::Halve => x / 2,
                _ => return None,
            };
            return Some(Box::new(r));
        }
    )*};
}

/// Applies a type-specific operator; `None` if it does not apply to the value's type.
pub fn apply_op(op: Op, v: &dyn Any) -> Option<Box<dyn Any>> {
    int_op!(v, op, u8, u32, u64, usize, i32, i64);
    if let Some(b) = v.downcast_ref::<bool>() {
        return (op == Op::Toggle).then(|| Box::new(!*b) as Box<dyn Any>);
    }
    if let Some(s) = v.downcast_ref::<String>() {
        return match op {
            Op::Append => Some(Box::new(format!("{s}a"))),
            Op::Repeat2 => Some(Box::new(s.repeat(2))),
            _ => None,
        };
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::registry::Registry;

    #[derive(Default)]
    pub struct Counter(u64);

    crate::register_type! {
        fn namespace() -> () {
            name: "crate", path: "crate", imports: [], version: None, size: [],
            ctors { new() as "" => (); }
            methods {
                count_to(ref self, n: copy u64) -> u64 as "demo::count_to({n})"
                    => |_n| (0..n).sum::<u64>();
                flag(ref self, b: copy bool) -> bool as "demo::flag({b})" => |_n| !b;
            }
            fields {}
        }
        fn counter() -> Counter {
            path: "Counter", imports: [], version: None, size: [],
            ctors { default() => Counter::default(); }
            methods { add(mut self, n: copy u64) as "{self}.0 += {n}" => |c| c.0 += n; }
            fields {}
        }
        fn shared_counter() -> SharedCounter {
            path: "SharedCounter", imports: [], version: None, size: [],
            ctors { default() => SharedCounter::default(); }
            methods {
                add(ref self, n: copy u64) as "{self}.0.set({self}.0.get() + {n})"
                    => |c| c.0.set(c.0.get() + n);
            }
            fields {}
        }
    }

    #[derive(Default)]
    pub struct SharedCounter(std::cell::Cell<u64>);

    /// The input size of `ty::add(1)` after `setup` calls of it, on a fresh value of `ty`.
    fn size_after_adds(ty: &str, setup: u32) -> u64 {
        let registry = Registry::new(vec![counter(), shared_counter()]);
        let mut p = Program::default();
        let r = p.fresh(ty);
        let x = p.fresh("u64");
        let add = |under_test| Stmt::Call {
            out: None,
            ty: ty.into(),
            method: "add".into(),
            recv: r,
            args: vec![x],
            under_test,
        };
        p.body = vec![
            Stmt::Ctor {
                out: r,
                ty: ty.into(),
                ctor: "default".into(),
                args: vec![],
            },
            Stmt::Lit {
                out: x,
                value: Literal::Int {
                    ty: IntTy::U64,
                    value: 1,
                },
            },
            Stmt::Repeat {
                n: setup,
                body: vec![add(false)],
            },
            add(true),
        ];
        let fb = Interpreter::new(&registry).run(&p);
        assert!(fb.is_ok(), "{:?}", fb.outcome);
        fb.input_size
    }

    /// A type without a size function is sized by the setup calls that may have changed
    /// it: those through `&mut self`, or, when every method takes `&self` (interior
    /// mutability, heapless's `MpMcQueue::enqueue(&self)`), those through `&self`.
    #[test]
    fn a_type_that_changes_only_through_shared_references_is_sized_by_its_setup_calls() {
        assert_eq!(size_after_adds("Counter", 5), 5);
        assert_eq!(size_after_adds("SharedCounter", 5), 5);
        assert_eq!(size_after_adds("SharedCounter", 9), 9);
    }

    /// The input size of `ty::method(lit)` called on a fresh value of `ty`.
    fn size_of_call(ty: &str, ctor: &str, method: &str, lit: Literal, lit_ty: &str) -> u64 {
        let registry = Registry::new(vec![namespace(), counter()]);
        let mut p = Program::default();
        let r = p.fresh(ty);
        let x = p.fresh(lit_ty);
        p.body = vec![
            Stmt::Ctor {
                out: r,
                ty: ty.into(),
                ctor: ctor.into(),
                args: vec![],
            },
            Stmt::Lit { out: x, value: lit },
            Stmt::Call {
                out: None,
                ty: ty.into(),
                method: method.into(),
                recv: r,
                args: vec![x],
                under_test: true,
            },
        ];
        let fb = Interpreter::new(&registry).run(&p);
        assert!(fb.is_ok(), "{:?}", fb.outcome);
        fb.input_size
    }

    /// A free function of integers only is sized by their values; an integer passed to a
    /// type's method, or a free function's other arguments, count nothing.
    #[test]
    fn integer_arguments_size_only_free_functions_of_integers() {
        let n = |value| Literal::Int {
            ty: IntTy::U64,
            value,
        };
        assert_eq!(size_of_call("crate", "new", "count_to", n(300), "u64"), 300);
        assert_eq!(size_of_call("Counter", "default", "add", n(300), "u64"), 0);
        assert_eq!(
            size_of_call("crate", "new", "flag", Literal::Bool(true), "bool"),
            0
        );
    }
}
