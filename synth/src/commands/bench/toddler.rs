//! `perfsyn bench toddler`: the repeated-traversal oracle (`judge/oracle/toddler.rs`) on a
//! labeled set of loops, the harness's `toddler.json` (ports of the Toddler paper's bug
//! patterns and loops that look redundant but are not bugs). Each case's program fills the
//! receiver with [`FILL`] values, then calls the method under test [`CALLS`] times in a
//! `repeat` (the loop whose iterations the oracle compares), or once for a case whose loop
//! is inside the call (`"calls": 1`: a helper called per element). Prints recall on the bugs, the
//! non-bugs flagged, and the trace build's slowdown against the plain build on the same
//! programs (whole program runs, each checked and compiled once, as a worker runs a program
//! it has not seen).

use std::path::Path;
use std::process::Command;

use anyhow::{bail, Context, Result};
use perfsyn_profiler_ipc::{IntTy, Literal, Pattern, Program, Stmt, Var};
use serde::{Deserialize, Serialize};

use crate::judge::hotlines::Symbolizer;
use crate::judge::oracle::toddler::{findings_and_loops, JudgedLoop, Params};

/// Values each case's receiver is filled with.
pub const FILL: u32 = 64;
/// The filled values lie below this bound (an `above` argument is over it).
const FILL_BOUND: u32 = 1 << 20;
/// Calls of the method under test: the loop's iterations.
pub const CALLS: u32 = 20;
/// Runs of each program on the plain build (the slowdown's reference).
const PLAIN_REPEATS: u32 = 20;

/// One labeled loop of the case list.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Case {
    pub id: String,
    /// `Type::method`: a method taking the receiver and one `u64`.
    pub method: String,
    /// Whether the loop is a performance bug (a repeated traversal worth fixing).
    pub bug: bool,
    /// Where the loop's shape comes from.
    pub from: String,
    /// The name of the receiver's method that fills it with one `u64`.
    #[serde(default = "default_fill")]
    pub fill: String,
    /// The argument of each call: `index` (the loop index, the default) or `above` (one
    /// value above every filled one: an insert at the end, as of the newest timestamp).
    #[serde(default = "default_arg")]
    pub arg: String,
    /// `tuning` (the rule may be changed after looking at its result) or `held-out` (written
    /// and labeled before the rule last changed; reported apart, never tuned on).
    #[serde(default = "default_split")]
    pub split: String,
    /// Calls of the method under test ([`CALLS`] by default). 1: the loop judged is inside the
    /// call (a helper called per element), not across calls.
    #[serde(default = "default_calls")]
    pub calls: u32,
}

fn default_calls() -> u32 {
    CALLS
}

fn default_split() -> String {
    TUNING.to_string()
}

/// The split of cases the rule may be tuned on.
pub const TUNING: &str = "tuning";
/// The split of cases reported apart and never tuned on.
pub const HELD_OUT: &str = "held-out";

fn default_arg() -> String {
    "index".to_string()
}

fn default_fill() -> String {
    "add".to_string()
}

/// One case's outcome.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct CaseResult {
    pub id: String,
    pub method: String,
    pub bug: bool,
    pub split: String,
    /// Calls of the method under test the program made.
    #[serde(default)]
    pub calls: u32,
    pub flagged: bool,
    /// The strongest repeated read, `file:line`, when flagged.
    pub read: Option<String>,
    /// Its loop's call site when the loop is inside one call, `file:line`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub loop_at: Option<String>,
    pub similar_ratio: Option<f64>,
    pub mean_lcs: Option<f64>,
    /// The loops inside one call the oracle judged (however they were marked).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub inner_loops: Vec<JudgedLoop>,
    pub reads: usize,
    pub trace_ns: u64,
    pub plain_ns: f64,
}

/// The result of `perfsyn bench toddler`.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ToddlerBench {
    /// Bugs flagged / bugs.
    pub recall: f64,
    pub bugs: usize,
    pub bugs_found: usize,
    /// Non-bugs flagged.
    pub false_positives: usize,
    pub non_bugs: usize,
    /// Median over the cases of (trace-build wall time / plain-build wall time) per program
    /// (the paper averages; one program descheduled on a shared machine moves a mean of 46
    /// ratios by tens, the median not at all). The mean is kept beside it.
    pub slowdown: f64,
    #[serde(default)]
    pub slowdown_mean: f64,
    pub params: Params,
    /// The same figures over each split alone: `held_out` is the one to quote.
    pub tuning: SplitFigures,
    pub held_out: SplitFigures,
    /// The loops recovered from the trace build (`harness/loop_headers.rs`); absent when the
    /// oracle was told not to use them (`PERFSYN_NO_LOOP_HEADERS`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub recovered_loops: Option<RecoveryFigures>,
    pub cases: Vec<CaseResult>,
}

/// What loop recovery found in the trace build, and what it cost.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct RecoveryFigures {
    /// Functions decoded (those holding a sanitizer-coverage block).
    pub functions: usize,
    /// Natural loops found.
    pub natural_loops: usize,
    /// Of them, loops with a marker the runtime records (their header's own guard, or
    /// another guarded block run once per iteration).
    pub marked_loops: usize,
    pub marked_at_header: usize,
    /// Wall time of one recovery, ms.
    pub millis: u64,
}

/// Recall and false positives over one split of the cases.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SplitFigures {
    pub recall: f64,
    pub bugs: usize,
    pub bugs_found: usize,
    pub false_positives: usize,
    pub non_bugs: usize,
}

impl SplitFigures {
    fn of<'a>(results: impl Iterator<Item = &'a CaseResult>) -> SplitFigures {
        let (mut bugs, mut bugs_found, mut non_bugs, mut false_positives) = (0, 0, 0, 0);
        for r in results {
            match (r.bug, r.flagged) {
                (true, f) => {
                    bugs += 1;
                    bugs_found += f as usize;
                }
                (false, f) => {
                    non_bugs += 1;
                    false_positives += f as usize;
                }
            }
        }
        SplitFigures {
            recall: bugs_found as f64 / bugs.max(1) as f64,
            bugs,
            bugs_found,
            false_positives,
            non_bugs,
        }
    }

    fn line(&self) -> String {
        format!(
            "recall {}/{} ({:.0}%), false positives {}/{}",
            self.bugs_found,
            self.bugs,
            100.0 * self.recall,
            self.false_positives,
            self.non_bugs
        )
    }
}

/// Reads the harness's case list.
pub fn load_cases(path: &Path) -> Result<Vec<Case>> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    serde_json::from_str(&text)
        .with_context(|| format!("{} is not a toddler case list", path.display()))
}

/// The program of case `c`: `let r = T::new(); for i in 0..FILL { r.fill(hash(i)) }; for i in
/// 0..calls { r.method(i) }` (the last loop's calls under test; `calls` is [`CALLS`] unless
/// the case says).
pub fn program(c: &Case) -> Result<Program> {
    let Some((ty, method)) = c.method.rsplit_once("::") else {
        bail!("case {}: method {} is not Type::method", c.id, c.method);
    };
    let arg = match c.arg.as_str() {
        "index" => Pattern::I,
        "above" => Pattern::Const(2 * FILL_BOUND as i64),
        other => bail!("case {}: arg must be index or above, not {other}", c.id),
    };
    let mut p = Program::default();
    let r = p.fresh(ty);
    let x = p.fresh("u64");
    let y = p.fresh("u64");
    let call = |method: &str, arg: Var, under_test: bool| Stmt::Call {
        out: None,
        ty: ty.to_string(),
        method: method.to_string(),
        recv: r,
        args: vec![arg],
        under_test,
    };
    p.body = vec![
        Stmt::Ctor {
            out: r,
            ty: ty.to_string(),
            ctor: "new".into(),
            args: vec![],
        },
        Stmt::Repeat {
            n: FILL,
            body: vec![
                Stmt::Lit {
                    out: x,
                    value: Literal::Index {
                        ty: IntTy::U64,
                        pattern: Pattern::HashBelow {
                            seed: 7,
                            bound: FILL_BOUND,
                        },
                    },
                },
                call(&c.fill, x, false),
            ],
        },
        Stmt::Repeat {
            n: c.calls,
            body: vec![
                Stmt::Lit {
                    out: y,
                    value: Literal::Index {
                        ty: IntTy::U64,
                        pattern: arg,
                    },
                },
                call(method, y, true),
            ],
        },
    ];
    Ok(p)
}

/// Runs the cases on the `trace` build and times them on the `plain` build.
pub fn run(cases: &[Case], trace: &Path, plain: &Path) -> Result<ToddlerBench> {
    let programs: Vec<Program> = cases.iter().map(program).collect::<Result<_>>()?;
    let recovered_loops = if std::env::var_os(crate::run::reads::NO_LOOP_HEADERS_ENV).is_some() {
        None
    } else {
        let r = crate::harness::loop_headers::recover(trace)?;
        Some(RecoveryFigures {
            functions: r.functions,
            natural_loops: r.natural,
            marked_loops: r.loops.len(),
            marked_at_header: r.at_header,
            millis: r.millis,
        })
    };
    let traces = crate::run::reads::trace_reads(trace, None, &programs)?;
    let mut sym = Symbolizer::new(trace)?;
    let p = Params::default();
    let mut results = Vec::new();
    for c in cases {
        if c.split != TUNING && c.split != HELD_OUT {
            bail!(
                "case {}: split must be {TUNING} or {HELD_OUT}, not {}",
                c.id,
                c.split
            );
        }
    }
    for ((c, prog), t) in cases.iter().zip(&programs).zip(&traces) {
        if t.calls.len() != c.calls as usize {
            bail!(
                "case {}: {} calls under test ran, not {} (does {} take one u64?)",
                c.id,
                t.calls.len(),
                c.calls,
                c.method
            );
        }
        let outer = format!("successive calls of {}", c.method);
        let (found, inner_loops) = findings_and_loops(t, &outer, "case", "", &p, &mut sym);
        let best = found.first();
        results.push(CaseResult {
            id: c.id.clone(),
            method: c.method.clone(),
            bug: c.bug,
            split: c.split.clone(),
            calls: c.calls,
            flagged: best.is_some(),
            read: best.map(|f| f.read.clone()),
            loop_at: best.and_then(|f| f.loop_at.clone()),
            similar_ratio: best.map(|f| f.similar_ratio),
            mean_lcs: best.map(|f| f.mean_lcs),
            inner_loops,
            reads: t.calls.iter().map(Vec::len).sum(),
            trace_ns: t.nanos,
            plain_ns: plain_ns(plain, prog)?,
        });
    }
    let bugs = results.iter().filter(|r| r.bug).count();
    let bugs_found = results.iter().filter(|r| r.bug && r.flagged).count();
    let non_bugs = results.len() - bugs;
    let false_positives = results.iter().filter(|r| !r.bug && r.flagged).count();
    let mut ratios: Vec<f64> = results
        .iter()
        .filter(|r| r.plain_ns > 0.0)
        .map(|r| r.trace_ns as f64 / r.plain_ns)
        .collect();
    Ok(ToddlerBench {
        recall: bugs_found as f64 / bugs.max(1) as f64,
        bugs,
        bugs_found,
        false_positives,
        non_bugs,
        slowdown: median(&mut ratios),
        slowdown_mean: ratios.iter().sum::<f64>() / ratios.len().max(1) as f64,
        params: p,
        tuning: SplitFigures::of(results.iter().filter(|r| r.split == TUNING)),
        held_out: SplitFigures::of(results.iter().filter(|r| r.split == HELD_OUT)),
        recovered_loops,
        cases: results,
    })
}

/// The median of `v` (0 when empty).
fn median(v: &mut [f64]) -> f64 {
    if v.is_empty() {
        return 0.0;
    }
    v.sort_by(f64::total_cmp);
    let m = v.len() / 2;
    if v.len() % 2 == 1 {
        v[m]
    } else {
        (v[m - 1] + v[m]) / 2.0
    }
}

/// Wall time of one run of `p` on the plain build, checked and compiled as a worker does for
/// a program it has not seen (the worker's `--bench-inprocess`, with decoding).
pub fn plain_ns(plain: &Path, p: &Program) -> Result<f64> {
    #[derive(Deserialize)]
    struct Rate {
        programs_per_sec_with_decode: f64,
    }
    let file = std::env::temp_dir().join(format!("perfsyn-toddler-{}.json", std::process::id()));
    std::fs::write(&file, serde_json::to_string(&[p])?)?;
    let out = Command::new(plain)
        .arg("--bench-inprocess")
        .arg(&file)
        .arg(PLAIN_REPEATS.to_string())
        .output()
        .with_context(|| format!("cannot run {}", plain.display()))?;
    let _ = std::fs::remove_file(&file);
    if !out.status.success() {
        bail!(
            "the plain worker failed: {}",
            String::from_utf8_lossy(&out.stderr).trim()
        );
    }
    let r: Rate = serde_json::from_slice(&out.stdout).context("the plain worker's rate")?;
    Ok(1e9 / r.programs_per_sec_with_decode.max(1e-9))
}

/// The table.
pub fn render(b: &ToddlerBench) -> String {
    let mut s = format!(
        "{:<24} {:<36} {:<8} {:<6} {:<7} {:>6} {:>6}  {}\n",
        "case", "method", "split", "label", "flagged", "sim", "lcs", "read"
    );
    for c in &b.cases {
        s.push_str(&format!(
            "{:<24} {:<36} {:<8} {:<6} {:<7} {:>6} {:>6}  {}\n",
            c.id,
            c.method,
            c.split,
            if c.bug { "bug" } else { "ok" },
            if c.flagged { "yes" } else { "no" },
            c.similar_ratio
                .map(|r| format!("{:.0}%", 100.0 * r))
                .unwrap_or_default(),
            c.mean_lcs.map(|l| format!("{l:.0}")).unwrap_or_default(),
            c.read.as_deref().unwrap_or("")
        ));
    }
    s.push_str(&format!(
        "\nrecall {}/{} ({:.0}%), false positives {}/{}, trace build slowdown {:.1}x median, {:.1}x mean (plain build = 1)\n",
        b.bugs_found,
        b.bugs,
        100.0 * b.recall,
        b.false_positives,
        b.non_bugs,
        b.slowdown,
        b.slowdown_mean
    ));
    s.push_str(&format!(
        "held-out cases: {}; tuning cases: {}\n",
        b.held_out.line(),
        b.tuning.line()
    ));
    if let Some(r) = &b.recovered_loops {
        s.push_str(&format!(
            "loops recovered from the trace build: {} natural loops in {} functions, {} marked ({} at their header), in {} ms\n",
            r.natural_loops, r.functions, r.marked_loops, r.marked_at_header, r.millis
        ));
    }
    s
}
