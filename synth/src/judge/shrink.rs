//! Shrinking: a reported program is reduced before it is shown, stored and exported.
//!
//! The search keeps whatever statements got it to the bottleneck, most of them loops that
//! have nothing to do with the method. A reproducer a developer keeps must be small, so the
//! best program is reduced as proptest shrinks and `cargo fuzz tmin` minimizes: delta
//! debugging (ddmin) over its statements (loops included), halving of loop counts, and
//! simpler literal values, each candidate kept only when it keeps the verdict. What "keeps
//! the verdict" means is the caller's (`explore` builds it from the oracle that judged the
//! run: the same class on a re-sweep, or a ratio above t_rel in the same direction); this
//! module only sees a predicate, so it depends on no oracle.
//!
//! A growing text (`Literal::Text`, the loop of a string) is shrunk as a loop is: its count
//! halved, its shape reduced to fewer parts, its fragments shortened character runs at a
//! time, so the shown program holds the minimal trigger (`"<!".repeat(n)`). A mined value
//! with a span repeated in place (`TextShape::Span`, `SpanPair`) keeps its value and spans:
//! only its count shrinks, so it stays the valid input it was.
//!
//! The result is 1-minimal (removing any one statement, halving any loop or text count, or
//! shortening a text's fragment by one character loses the verdict) unless the budget of verdict checks ([`ShrinkConfig::budget`], the flag
//! `--shrink-budget`) ran out first, which [`ShrinkRecord::stopped_by_budget`] records.

use std::collections::HashSet;

use anyhow::Result;
use perfsyn_profiler_ipc::check::check;
use perfsyn_profiler_ipc::print::print;
use perfsyn_profiler_ipc::{ApiSchema, Literal, Pattern, Program, Stmt, TextShape, Var};

use crate::report::best::{BestProgram, ShrinkRecord};
use crate::run::exec::Executor;
use crate::search::Metric;

/// The default of `--shrink-budget`: verdict checks one shrink may spend. An asymptotic
/// check runs a sweep (about nine programs), a relative one two programs.
pub const DEFAULT_BUDGET: usize = 150;

/// How much shrinking may cost.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ShrinkConfig {
    /// The most candidates whose verdict is checked (each check executes programs); 0
    /// turns shrinking off. Candidates the checker refuses cost nothing.
    pub budget: usize,
}

impl Default for ShrinkConfig {
    fn default() -> Self {
        ShrinkConfig {
            budget: DEFAULT_BUDGET,
        }
    }
}

/// The outcome of [`shrink`].
#[derive(Clone, Debug, PartialEq)]
pub struct Shrunk {
    pub program: Program,
    pub checks: usize,
    pub stopped_by_budget: bool,
}

/// Reduces `p` while `keeps_verdict` holds. `p` itself is assumed to keep it. Candidates
/// that the checker refuses against `schema` are skipped without a check; calls under
/// test are never removed.
pub fn shrink(
    p: &Program,
    schema: &ApiSchema,
    cfg: ShrinkConfig,
    keeps_verdict: &mut dyn FnMut(&Program) -> Result<bool>,
) -> Result<Shrunk> {
    let mut s = Shrinker {
        schema,
        budget: cfg.budget,
        checks: 0,
        seen: HashSet::new(),
        keeps_verdict,
    };
    let mut cur = compact(p);
    s.seen.insert(cur.stable_hash());
    let mut exhausted = cfg.budget == 0;
    while !exhausted {
        let before = cur.clone();
        for phase in [Phase::Statements, Phase::Loops, Phase::Values] {
            match s.phase(phase, cur.clone())? {
                Step::Done(q) => cur = q,
                Step::OutOfBudget(q) => {
                    cur = q;
                    exhausted = true;
                    break;
                }
            }
        }
        if cur == before {
            break;
        }
    }
    Ok(Shrunk {
        program: cur,
        checks: s.checks,
        stopped_by_budget: exhausted,
    })
}

/// Shrinks `best` in place with [`shrink`], then runs the result once (on both versions of
/// the pair for a `relative` run) so that its feedback, cost and
/// input size are the shrunk program's own, as `replay` and `export` expect. The program
/// before shrinking goes to [`BestProgram::shrunk_from`]. `keeps_verdict` gets the executor
/// to run candidates on.
pub fn shrink_best(
    exec: &mut dyn Executor,
    best: &mut BestProgram,
    cfg: ShrinkConfig,
    metric: Metric,
    relative: bool,
    keeps_verdict: &mut dyn FnMut(&mut dyn Executor, &Program) -> Result<bool>,
) -> Result<()> {
    if cfg.budget == 0 {
        return Ok(());
    }
    let schema = exec.schema().clone();
    let r = shrink(&best.program, &schema, cfg, &mut |p| keeps_verdict(exec, p))?;
    let one = std::slice::from_ref(&r.program);
    let fb = if relative {
        let (new, old) = crate::run::exec::run_pairs(exec, one)?.remove(0);
        vec![new, old]
    } else {
        exec.run(one)?
    };
    let runs = fb.iter().all(|f| f.is_ok() && f.calls > 0);
    let rust = print(&r.program, &schema).map(|p| p.body);
    let (true, Ok(rust)) = (runs, rust) else {
        // Cannot happen for a program that kept the verdict; keep the original rather
        // than show a program that does not run.
        return Ok(());
    };
    let record = ShrinkRecord {
        statements: best.program.len(),
        program: best.program.clone(),
        rust: std::mem::replace(&mut best.rust, rust),
        input_size: best.input_size,
        cost: best.cost,
        checks: r.checks,
        budget: cfg.budget,
        stopped_by_budget: r.stopped_by_budget,
    };
    best.statements = r.program.len();
    best.program = r.program;
    best.input_size = fb[0].input_size;
    best.cost = metric.of(&fb[0]);
    best.cost_ref = fb.get(1).map(|f| metric.of(f));
    best.feedback = Some(fb[0].clone());
    best.feedback_ref = fb.get(1).cloned();
    best.shrunk_from = Some(record);
    Ok(())
}

/// One line for the terminal report, naming the flag when the budget stopped shrinking.
pub fn describe(r: &ShrinkRecord, now: usize) -> String {
    let tail = if r.stopped_by_budget {
        format!(
            "stopped by --shrink-budget {} before it was 1-minimal",
            r.budget
        )
    } else {
        "1-minimal: removing any statement, halving any loop or text, or shortening a text's fragment loses the verdict".into()
    };
    format!(
        "shrunk from {} to {now} statements in {} verdict checks ({tail})",
        r.statements, r.checks
    )
}

#[derive(Clone, Copy)]
enum Phase {
    Statements,
    Loops,
    Values,
}

enum Step {
    Done(Program),
    OutOfBudget(Program),
}

struct Shrinker<'a> {
    schema: &'a ApiSchema,
    budget: usize,
    checks: usize,
    seen: HashSet<u64>,
    keeps_verdict: &'a mut dyn FnMut(&Program) -> Result<bool>,
}

/// A statement's position: indices from the top level down through loop bodies.
type Path = Vec<usize>;

impl Shrinker<'_> {
    /// Whether candidate `q` is valid, new and keeps the verdict. `None` when the budget is
    /// spent.
    fn try_candidate(&mut self, q: &Program) -> Result<Option<bool>> {
        if check(q, self.schema).is_err() || !self.seen.insert(q.stable_hash()) {
            return Ok(Some(false));
        }
        if self.checks >= self.budget {
            return Ok(None);
        }
        self.checks += 1;
        Ok(Some((self.keeps_verdict)(q)?))
    }

    fn phase(&mut self, phase: Phase, p: Program) -> Result<Step> {
        match phase {
            Phase::Statements => self.ddmin(p),
            Phase::Loops => self.halve_loops(p),
            Phase::Values => self.simplify_values(p),
        }
    }

    /// ddmin over the removable statements: remove chunks of n-ths, refining to single
    /// statements; a successful removal restarts at the coarsest useful granularity.
    fn ddmin(&mut self, mut cur: Program) -> Result<Step> {
        let mut n = 2usize;
        loop {
            let units = removable(&cur.body);
            if units.is_empty() {
                return Ok(Step::Done(cur));
            }
            let n_eff = n.min(units.len());
            let chunk = units.len().div_ceil(n_eff);
            let mut reduced = false;
            for part in units.chunks(chunk) {
                let q = compact(&remove(&cur, part));
                match self.try_candidate(&q)? {
                    None => return Ok(Step::OutOfBudget(cur)),
                    Some(true) => {
                        cur = q;
                        reduced = true;
                        break;
                    }
                    Some(false) => {}
                }
            }
            if reduced {
                n = (n_eff - 1).max(2);
            } else if chunk == 1 {
                return Ok(Step::Done(cur));
            } else {
                n = (n_eff * 2).min(units.len());
            }
        }
    }

    /// Halves each loop count, and each growing text's count (`Literal::Text`, the loop of
    /// a string), while the verdict holds.
    fn halve_loops(&mut self, mut cur: Program) -> Result<Step> {
        for path in loops(&cur.body) {
            while let Some(n) = at(&cur.body, &path).and_then(count_of) {
                if n <= 1 {
                    break;
                }
                let half = n / 2;
                let mut q = cur.clone();
                if let Some(n) = at_mut(&mut q.body, &path).and_then(count_of_mut) {
                    *n = half;
                }
                match self.try_candidate(&q)? {
                    None => return Ok(Step::OutOfBudget(cur)),
                    Some(true) => cur = q,
                    Some(false) => break,
                }
            }
        }
        Ok(Step::Done(cur))
    }

    /// Replaces literals by simpler ones (0, shorter strings, the plain loop index) when the
    /// verdict holds with them.
    fn simplify_values(&mut self, mut cur: Program) -> Result<Step> {
        for path in literals(&cur.body) {
            let Some(Stmt::Lit { value, .. }) = at(&cur.body, &path) else {
                continue;
            };
            for simpler in simpler_values(value) {
                let mut q = cur.clone();
                if let Some(Stmt::Lit { value, .. }) = at_mut(&mut q.body, &path) {
                    *value = simpler;
                }
                match self.try_candidate(&q)? {
                    None => return Ok(Step::OutOfBudget(cur)),
                    Some(true) => {
                        cur = q;
                        break;
                    }
                    Some(false) => {}
                }
            }
        }
        Ok(Step::Done(cur))
    }
}

/// Simpler values for a literal, simplest first.
fn simpler_values(v: &Literal) -> Vec<Literal> {
    match v {
        Literal::Int { ty, value } if *value != 0 => {
            let mut out = vec![Literal::Int { ty: *ty, value: 0 }];
            if value / 2 != 0 {
                out.push(Literal::Int {
                    ty: *ty,
                    value: value / 2,
                });
            }
            out
        }
        Literal::Str(s) if !s.is_empty() => {
            let half: String = s.chars().take(s.chars().count() / 2).collect();
            let mut out = vec![Literal::Str(String::new())];
            if !half.is_empty() {
                out.push(Literal::Str(half));
            }
            out
        }
        Literal::Text { shape, a, b, n } => simpler_texts(*shape, a, b, *n),
        Literal::Bool(true) => vec![Literal::Bool(false)],
        Literal::Char(c) if *c != 'a' => vec![Literal::Char('a')],
        Literal::Index { ty, pattern } => {
            let simpler: &[Pattern] = match pattern {
                Pattern::I => &[],
                Pattern::Const(0) => &[],
                Pattern::Const(_) => &[Pattern::Const(0)],
                _ => &[Pattern::I],
            };
            simpler
                .iter()
                .map(|p| Literal::Index {
                    ty: *ty,
                    pattern: *p,
                })
                .collect()
        }
        _ => Vec::new(),
    }
}

/// Simpler growing texts, fewest parts first: one fragment repeated (either of the two),
/// then the same shape with a fragment shortened by a run of characters (halves first, down
/// to single characters, as ddmin), so that repeated shrinking ends at the shortest
/// fragment that keeps the verdict: the minimal trigger a developer reads as
/// `"<!".repeat(n)`. A fragment never becomes empty (a text of nothing does not grow).
fn simpler_texts(shape: TextShape, a: &str, b: &str, n: u32) -> Vec<Literal> {
    let text = |shape, a: &str, b: &str| Literal::Text {
        shape,
        a: a.to_string(),
        b: b.to_string(),
        n,
    };
    let mut out = Vec::new();
    if let TextShape::Span { .. } | TextShape::SpanPair { .. } = shape {
        // A value with its spans repeated in place is valid input because it is whole: a
        // part of it, or one span of a pair alone, is not. Only its count shrinks.
        return out;
    }
    if shape != TextShape::Repeat {
        out.push(text(TextShape::Repeat, a, ""));
        if !b.is_empty() {
            out.push(text(TextShape::Repeat, b, ""));
        }
        if !b.is_empty() && shape != TextShape::Then {
            // One part for the shapes that repeat both: `a` once, then `b` n times.
            out.push(text(TextShape::Then, a, b));
        }
    }
    for shorter in shorter_fragments(a) {
        out.push(text(shape, &shorter, b));
    }
    if shape != TextShape::Repeat {
        for shorter in shorter_fragments(b) {
            out.push(text(shape, a, &shorter));
        }
    }
    out
}

/// `s` with one run of characters removed, runs of half its length first, then quarters,
/// down to single characters; never empty.
fn shorter_fragments(s: &str) -> Vec<String> {
    let chars: Vec<char> = s.chars().collect();
    let mut out: Vec<String> = Vec::new();
    let mut run = chars.len() / 2;
    while run >= 1 {
        for start in (0..chars.len()).step_by(run) {
            let end = (start + run).min(chars.len());
            let q: String = chars[..start].iter().chain(&chars[end..]).collect();
            if !q.is_empty() && !out.contains(&q) {
                out.push(q);
            }
        }
        run /= 2;
    }
    out
}

/// Paths of every statement that may be removed (all but calls under test), parents
/// before their children.
fn removable(stmts: &[Stmt]) -> Vec<Path> {
    fn walk(stmts: &[Stmt], prefix: &mut Path, out: &mut Vec<Path>) {
        for (i, s) in stmts.iter().enumerate() {
            prefix.push(i);
            match s {
                Stmt::Call {
                    under_test: true, ..
                } => {}
                Stmt::Repeat { body, .. } => {
                    if !contains_call_under_test(body) {
                        out.push(prefix.clone());
                    }
                    walk(body, prefix, out);
                }
                _ => out.push(prefix.clone()),
            }
            prefix.pop();
        }
    }
    let mut out = Vec::new();
    walk(stmts, &mut Vec::new(), &mut out);
    out
}

fn contains_call_under_test(stmts: &[Stmt]) -> bool {
    stmts.iter().any(|s| match s {
        Stmt::Call { under_test, .. } => *under_test,
        Stmt::Repeat { body, .. } => contains_call_under_test(body),
        _ => false,
    })
}

/// Paths of the loops and of the growing texts: whatever has a count to halve.
fn loops(stmts: &[Stmt]) -> Vec<Path> {
    paths_where(stmts, &|s| count_of(s).is_some())
}

/// The count of a loop or of a growing text.
fn count_of(s: &Stmt) -> Option<u32> {
    match s {
        Stmt::Repeat { n, .. }
        | Stmt::Lit {
            value: Literal::Text { n, .. },
            ..
        } => Some(*n),
        _ => None,
    }
}

fn count_of_mut(s: &mut Stmt) -> Option<&mut u32> {
    match s {
        Stmt::Repeat { n, .. }
        | Stmt::Lit {
            value: Literal::Text { n, .. },
            ..
        } => Some(n),
        _ => None,
    }
}

fn literals(stmts: &[Stmt]) -> Vec<Path> {
    paths_where(stmts, &|s| matches!(s, Stmt::Lit { .. }))
}

fn paths_where(stmts: &[Stmt], pred: &dyn Fn(&Stmt) -> bool) -> Vec<Path> {
    fn walk(stmts: &[Stmt], pred: &dyn Fn(&Stmt) -> bool, prefix: &mut Path, out: &mut Vec<Path>) {
        for (i, s) in stmts.iter().enumerate() {
            prefix.push(i);
            if pred(s) {
                out.push(prefix.clone());
            }
            if let Stmt::Repeat { body, .. } = s {
                walk(body, pred, prefix, out);
            }
            prefix.pop();
        }
    }
    let mut out = Vec::new();
    walk(stmts, pred, &mut Vec::new(), &mut out);
    out
}

fn at<'a>(stmts: &'a [Stmt], path: &[usize]) -> Option<&'a Stmt> {
    let (first, rest) = path.split_first()?;
    let s = stmts.get(*first)?;
    match (rest.is_empty(), s) {
        (true, _) => Some(s),
        (false, Stmt::Repeat { body, .. }) => at(body, rest),
        _ => None,
    }
}

fn at_mut<'a>(stmts: &'a mut [Stmt], path: &[usize]) -> Option<&'a mut Stmt> {
    let (first, rest) = path.split_first()?;
    let s = stmts.get_mut(*first)?;
    if rest.is_empty() {
        return Some(s);
    }
    match s {
        Stmt::Repeat { body, .. } => at_mut(body, rest),
        _ => None,
    }
}

/// `p` without the statements at `paths`; loops left empty go too.
fn remove(p: &Program, paths: &[Path]) -> Program {
    fn walk(stmts: &[Stmt], prefix: &mut Path, drop: &HashSet<Path>) -> Vec<Stmt> {
        let mut out = Vec::new();
        for (i, s) in stmts.iter().enumerate() {
            prefix.push(i);
            if !drop.contains(prefix) {
                match s {
                    Stmt::Repeat { n, body } => {
                        let body = walk(body, prefix, drop);
                        if !body.is_empty() {
                            out.push(Stmt::Repeat { n: *n, body });
                        }
                    }
                    other => out.push(other.clone()),
                }
            }
            prefix.pop();
        }
        out
    }
    let drop: HashSet<Path> = paths.iter().cloned().collect();
    Program {
        vars: p.vars.clone(),
        body: walk(&p.body, &mut Vec::new(), &drop),
    }
}

/// `p` with the variables no statement defines dropped and the rest renumbered in order
/// of first definition, so the printed names stay small (`set0`, `n1`).
pub fn compact(p: &Program) -> Program {
    fn defined(stmts: &[Stmt], out: &mut Vec<Var>) {
        for s in stmts {
            if let Some(v) = s.defines() {
                if !out.contains(&v) {
                    out.push(v);
                }
            }
            if let Stmt::Repeat { body, .. } = s {
                defined(body, out);
            }
        }
    }
    let mut order = Vec::new();
    defined(&p.body, &mut order);
    let map = |v: Var| -> Var {
        order
            .iter()
            .position(|o| *o == v)
            .map_or(v, |i| Var(i as u32))
    };
    fn rename(stmts: &mut [Stmt], map: &dyn Fn(Var) -> Var) {
        for s in stmts {
            match s {
                Stmt::Lit { out, .. } => *out = map(*out),
                Stmt::Ctor { out, args, .. } => {
                    *out = map(*out);
                    args.iter_mut().for_each(|a| *a = map(*a));
                }
                Stmt::Call {
                    out, recv, args, ..
                } => {
                    *out = out.map(map);
                    *recv = map(*recv);
                    args.iter_mut().for_each(|a| *a = map(*a));
                }
                Stmt::Op { out, arg, .. } => {
                    *out = map(*out);
                    *arg = map(*arg);
                }
                Stmt::GetField { out, target, .. } => {
                    *out = map(*out);
                    *target = map(*target);
                }
                Stmt::SetField { target, value, .. } => {
                    *target = map(*target);
                    *value = map(*value);
                }
                Stmt::Repeat { body, .. } => rename(body, map),
            }
        }
    }
    // A variable used but never defined (an invalid program) keeps the program as it is.
    let mut q = p.clone();
    let all_defined = uses(&p.body).iter().all(|v| order.contains(v));
    if !all_defined {
        return q;
    }
    rename(&mut q.body, &map);
    q.vars = order.iter().map(|v| p.vars[v.index()].clone()).collect();
    q
}

fn uses(stmts: &[Stmt]) -> Vec<Var> {
    let mut out = Vec::new();
    for s in stmts {
        match s {
            Stmt::Ctor { args, .. } => out.extend(args),
            Stmt::Call { recv, args, .. } => {
                out.push(*recv);
                out.extend(args);
            }
            Stmt::Op { arg, .. } => out.push(*arg),
            Stmt::GetField { target, .. } => out.push(*target),
            Stmt::SetField { target, value, .. } => out.extend([*target, *value]),
            Stmt::Repeat { body, .. } => out.extend(uses(body)),
            Stmt::Lit { .. } => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use perfsyn_profiler_ipc::IntTy;

    /// A schema with one collection type and `u64` literals, enough for the checker.
    fn schema() -> ApiSchema {
        serde_json::from_value(serde_json::json!({"types": [{
            "name": "Set", "path": "Set", "sized": true, "version": null,
            "ctors": [{"name": "new", "params": [], "template": null}],
            "methods": [
                {"name": "insert", "receiver": "Mut", "params": [{"name": "x", "ty": "u64", "mode": "Copy"}], "ret": null, "expected": null, "template": null},
                {"name": "is_empty", "receiver": "Ref", "params": [], "ret": "bool", "expected": "O(1)", "template": null}
            ],
            "fields": [], "imports": [], "doc": ""
        }]}))
        .expect("schema")
    }

    /// set = Set::new(); n = 7; loop 4096 { x = i; set.insert(x) }; loop 256 { y = hash(i);
    /// set.insert(y) }; m = 5; set.is_empty() under test.
    fn noisy() -> Program {
        let mut p = Program::default();
        let set = p.fresh("Set");
        let n = p.fresh("u64");
        let x = p.fresh("u64");
        let y = p.fresh("u64");
        let m = p.fresh("u64");
        let flag = p.fresh("bool");
        let insert = |v: Var| Stmt::Call {
            out: None,
            ty: "Set".into(),
            method: "insert".into(),
            recv: set,
            args: vec![v],
            under_test: false,
        };
        let idx = |out, pattern| Stmt::Lit {
            out,
            value: Literal::Index {
                ty: IntTy::U64,
                pattern,
            },
        };
        p.body = vec![
            Stmt::Ctor {
                out: set,
                ty: "Set".into(),
                ctor: "new".into(),
                args: vec![],
            },
            Stmt::Lit {
                out: n,
                value: Literal::Int {
                    ty: IntTy::U64,
                    value: 7,
                },
            },
            Stmt::Repeat {
                n: 4096,
                body: vec![idx(x, Pattern::Hash(3)), insert(x)],
            },
            Stmt::Repeat {
                n: 256,
                body: vec![idx(y, Pattern::ModK(5)), insert(y)],
            },
            insert(n),
            Stmt::Lit {
                out: m,
                value: Literal::Int {
                    ty: IntTy::U64,
                    value: 5,
                },
            },
            Stmt::Call {
                out: Some(flag),
                ty: "Set".into(),
                method: "is_empty".into(),
                recv: set,
                args: vec![],
                under_test: true,
            },
        ];
        p
    }

    /// The number of elements the program inserts.
    fn inserted(stmts: &[Stmt], times: u64) -> u64 {
        stmts
            .iter()
            .map(|s| match s {
                Stmt::Call {
                    method,
                    under_test: false,
                    ..
                } if method == "insert" => times,
                Stmt::Repeat { n, body } => inserted(body, times * *n as u64),
                _ => 0,
            })
            .sum()
    }

    #[test]
    fn keeps_what_the_verdict_needs_and_drops_the_rest() {
        let s = schema();
        let p = noisy();
        check(&p, &s).unwrap();
        // The "verdict": at least 100 elements inserted before the call under test.
        let mut checks = 0;
        let r = shrink(&p, &s, ShrinkConfig::default(), &mut |q| {
            checks += 1;
            Ok(inserted(&q.body, 1) >= 100)
        })
        .unwrap();
        assert!(!r.stopped_by_budget);
        assert_eq!(r.checks, checks);
        check(&r.program, &s).unwrap();
        // Set::new, one loop { index, insert } (three statements), the call under test.
        assert_eq!(r.program.len(), 5, "{:#?}", r.program);
        let Stmt::Repeat { n, body } = &r.program.body[1] else {
            panic!("{:#?}", r.program)
        };
        // 1-minimal in the loop count: halving loses the verdict.
        assert!(*n >= 100 && *n / 2 < 100, "n = {n}");
        assert!(matches!(
            body[0],
            Stmt::Lit {
                value: Literal::Index {
                    pattern: Pattern::I,
                    ..
                },
                ..
            }
        ));
        // Variables are renumbered densely.
        assert_eq!(r.program.vars, vec!["Set", "u64", "bool"]);
    }

    /// A set, a text literal of `shape` over `a` and `b` repeated `n` times, and the call
    /// under test (which does not read the text: the shrink tests' verdicts look at it).
    fn set_and_text(shape: TextShape, a: &str, b: &str, n: u32) -> Program {
        let mut p = Program::default();
        let set = p.fresh("Set");
        let t = p.fresh("String");
        p.body = vec![
            Stmt::Ctor {
                out: set,
                ty: "Set".into(),
                ctor: "new".into(),
                args: vec![],
            },
            Stmt::Lit {
                out: t,
                value: Literal::Text {
                    shape,
                    a: a.into(),
                    b: b.into(),
                    n,
                },
            },
            Stmt::Call {
                out: None,
                ty: "Set".into(),
                method: "is_empty".into(),
                recv: set,
                args: vec![],
                under_test: true,
            },
        ];
        p
    }

    #[test]
    fn a_growing_text_shrinks_to_its_shortest_fragment_and_fewest_parts() {
        let s = schema();
        let p = set_and_text(TextShape::Interleave, "<!-- a", "x", 4096);
        check(&p, &s).unwrap();
        // The "verdict": the text holds at least 100 unclosed `<!` tokens.
        let keeps = |q: &Program| -> bool {
            q.body.iter().any(|st| match st {
                Stmt::Lit {
                    value: Literal::Text { shape, a, b, n },
                    ..
                } => {
                    let text = shape.eval(a, b, *n);
                    text.matches("<!").count() >= 100 && !text.contains("-->")
                }
                _ => false,
            })
        };
        let r = shrink(&p, &s, ShrinkConfig::default(), &mut |q| Ok(keeps(q))).unwrap();
        assert!(!r.stopped_by_budget);
        let text = r.program.body.iter().find_map(|st| match st {
            Stmt::Lit {
                value: Literal::Text { shape, a, b, n },
                ..
            } => Some((*shape, a.clone(), b.clone(), *n)),
            _ => None,
        });
        let (shape, a, b, n) = text.expect("the text stays");
        assert_eq!(
            (shape, a.as_str(), b.as_str()),
            (TextShape::Repeat, "<!", "")
        );
        // 1-minimal in its count: halving loses the verdict.
        assert!((100..200).contains(&n), "n = {n}");
        let rust = print(&r.program, &s).unwrap().body;
        assert!(rust.contains(&format!("\"<!\".repeat({n})")), "{rust}");
    }

    #[test]
    fn a_span_repeated_in_place_keeps_its_value_and_shrinks_its_count() {
        let s = schema();
        let shape = TextShape::SpanPair {
            open: 0,
            open_end: 3,
            close: 7,
            close_end: 11,
        };
        let p = set_and_text(shape, "<r><i/></r>", "", 4096);
        check(&p, &s).unwrap();
        // The "verdict": a balanced text at least 100 deep.
        let keeps = |q: &Program| -> bool {
            q.body.iter().any(|st| match st {
                Stmt::Lit {
                    value: Literal::Text { shape, a, b, n },
                    ..
                } => {
                    let text = shape.eval(a, b, *n);
                    let opens = text.matches("<r>").count();
                    opens >= 100 && opens == text.matches("</r>").count()
                }
                _ => false,
            })
        };
        let r = shrink(&p, &s, ShrinkConfig::default(), &mut |q| Ok(keeps(q))).unwrap();
        let kept = r.program.body.iter().find_map(|st| match st {
            Stmt::Lit {
                value: Literal::Text { shape, a, n, .. },
                ..
            } => Some((*shape, a.clone(), *n)),
            _ => None,
        });
        let (kept_shape, a, n) = kept.expect("the text stays");
        assert_eq!((kept_shape, a.as_str()), (shape, "<r><i/></r>"));
        assert!((100..200).contains(&n), "n = {n}");
    }

    #[test]
    fn the_budget_stops_shrinking_and_says_so() {
        let s = schema();
        let p = noisy();
        let r = shrink(&p, &s, ShrinkConfig { budget: 2 }, &mut |q| {
            Ok(inserted(&q.body, 1) >= 100)
        })
        .unwrap();
        assert!(r.stopped_by_budget);
        assert_eq!(r.checks, 2);
        let rec = ShrinkRecord {
            statements: p.len(),
            program: p.clone(),
            rust: String::new(),
            input_size: 0,
            cost: 0.0,
            checks: r.checks,
            budget: 2,
            stopped_by_budget: true,
        };
        assert!(describe(&rec, r.program.len()).contains("--shrink-budget 2"));
        let off = shrink(&p, &s, ShrinkConfig { budget: 0 }, &mut |_| {
            panic!("no check with budget 0")
        })
        .unwrap();
        assert_eq!(off.program, compact(&p));
    }

    #[test]
    fn a_verdict_that_needs_everything_keeps_everything() {
        let s = schema();
        let p = compact(&noisy());
        let r = shrink(&p, &s, ShrinkConfig::default(), &mut |q| Ok(*q == p)).unwrap();
        assert_eq!(r.program, p);
        assert!(!r.stopped_by_budget);
    }
}
