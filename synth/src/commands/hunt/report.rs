//! The hunt's reports, rebuilt from the directory alone: `report.html` (one self-contained
//! page: inline CSS, plots inlined as SVG, no script, no external resource), `summary.json`
//! for scripts and `summary.md` for pasting into an issue or a pull request.
//!
//! Findings are the finished methods whose verdict is `bottleneck` and that pass the
//! filters of section 3.2.8; they are ranked by [`crate::commands::rank`], one list per oracle as the
//! paper ranks each oracle its own way (relative: regressions first, then by score;
//! asymptotic: highest empirical class first). Everything else is listed with the reason.
//!
//! The HTML comes from one minijinja template (`report.html`, beside this file) with HTML
//! auto-escaping: every piece of text from a run (method names with `<Key>`, programs,
//! reasons) is escaped by the engine, not by hand. The only text marked safe is the SVG of
//! the plots, which plotters writes and escapes itself.

use std::path::Path;

use minijinja::value::{Serde, Value};
use minijinja::{context, Environment};
use serde::{Deserialize, Serialize};

use super::dir::{HuntDir, HuntSettings, PlannedMethod};
use crate::commands::rank::{filter_reason, rank, RankConfig};
use crate::explore::report::ExploreReport;
use crate::explore::runfile::{write_atomic, RunFile};
use crate::explore::OracleKind;
use crate::report::class::Class;
use crate::report::verdict::Verdict;

/// Hot lines shown per finding.
pub const HOT_SHOWN: usize = 3;

/// The value of `summary.json`'s `format` field.
pub const SUMMARY_FORMAT: &str = "perfsyn-hunt-summary";

/// One finding, as in `summary.json`.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Finding {
    /// 1-based rank within its oracle's list.
    pub rank: usize,
    /// `R1`, `R2`, ... for relative findings, `A1`, ... for asymptotic ones.
    pub label: String,
    pub method: String,
    #[serde(rename = "type")]
    pub ty: String,
    pub oracle: OracleKind,
    pub verdict: Verdict,
    pub reason: String,
    #[serde(default, with = "crate::report::class::label")]
    pub expected: Option<Class>,
    #[serde(default, with = "crate::report::class::label")]
    pub empirical: Option<Class>,
    pub fit_error: Option<f64>,
    /// Relative: cost new/old of the best program.
    pub ratio: Option<f64>,
    pub time_ratio: Option<f64>,
    pub time_significant: Option<bool>,
    pub score: Option<f64>,
    pub input_size: Option<u64>,
    pub mutations: Option<usize>,
    /// The run file, as a path under the hunt directory given on the command line.
    pub run_file: String,
    pub export_command: String,
    pub explore_command: String,
    /// The top lines of the call under test by growth (asymptotic findings; see `hotlines`).
    #[serde(default)]
    pub hot_lines: Vec<crate::judge::hotlines::HotLine>,
}

/// A finished method without a finding.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct NoFinding {
    pub method: String,
    pub oracle: OracleKind,
    pub verdict: Verdict,
    /// Why it is not a finding: the verdict's reason, or the ranking filter that left it out.
    pub reason: String,
    pub run_file: String,
    /// The measured class, when the sweep fitted one (`O(n^2)`).
    #[serde(default, with = "crate::report::class::label")]
    pub empirical: Option<Class>,
    /// How to explore the method alone, with this hunt's settings.
    #[serde(default)]
    pub explore_command: String,
}

/// The methods without a documented class whose cost grew faster than linearly, fastest
/// first. Why: a hunt judges a method against its documentation, and a crate that documents
/// no class (litemap, hashlink, rust-lapper) got "0 findings" with its quadratic methods
/// folded among the O(1) ones (litemap's `extend_from_litemap`, O(n^2) when the maps
/// overlap). They are not findings (nothing says they should be faster), but they are what
/// a user hunting blowups across an API reads first.
pub fn superlinear_undocumented(s: &Summary) -> Vec<(&NoFinding, Class)> {
    let mut out: Vec<(&NoFinding, Class)> = s
        .no_finding
        .iter()
        .filter(|n| n.verdict == Verdict::Undocumented)
        .filter_map(|n| Some((n, n.empirical?)))
        .filter(|(_, c)| *c > Class::Linear)
        .collect();
    out.sort_by_key(|n| std::cmp::Reverse(n.1));
    out
}

/// `summary.json`.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Summary {
    /// Always [`SUMMARY_FORMAT`].
    pub format: String,
    pub version: u32,
    pub perfsyn_version: String,
    /// The command that started the hunt.
    pub command_line: Vec<String>,
    pub settings: HuntSettings,
    /// `k/N` when the directory holds one partition of a hunt (then the counts are the
    /// partition's); null for a whole hunt.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub partition: Option<String>,
    pub methods_total: usize,
    pub methods_done: usize,
    pub complete: bool,
    /// Relative findings, most severe first (section 3.2.8).
    pub relative: Vec<Finding>,
    /// Asymptotic findings, highest empirical class first (section 3.2.8).
    pub asymptotic: Vec<Finding>,
    pub no_finding: Vec<NoFinding>,
    /// Repeated traversals (Toddler) of every method, documented or not, most redundant
    /// reads per call first.
    #[serde(default)]
    pub repeated_traversals: Vec<TraversalRow>,
    /// Repeated computations (MemoizeIt) of every method, documented or not, most edges a
    /// cache saves first (each function once, from the method where it saves most).
    #[serde(default)]
    pub repeated_computations: Vec<ComputationRow>,
    /// Every finished method with its verdict and key figures, in plan order (see
    /// [`super::summary`]); what `hunt --json` and `report --json` print.
    #[serde(default)]
    pub methods: Vec<super::summary::MethodSummary>,
    /// Methods not explored yet (an interrupted hunt).
    pub pending: Vec<String>,
    /// How to continue (incomplete) or regenerate (complete) this hunt.
    pub continue_command: String,
}

/// One repeated traversal of a hunt: the method and its strongest repeated read.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct TraversalRow {
    pub method: String,
    pub traversal: crate::judge::oracle::toddler::RepeatedTraversal,
    pub run_file: String,
}

/// One repeated computation of a hunt: the method whose program showed it, and the function.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ComputationRow {
    pub method: String,
    pub opportunity: crate::judge::oracle::memoize::Opportunity,
    pub run_file: String,
}

/// The repeated computations of `reports`, each function once (where its cache saves the
/// largest share of its method's edges), ranked by that share.
fn computation_rows(reports: &[ExploreReport], files: &[String]) -> Vec<ComputationRow> {
    let share = |o: &crate::judge::oracle::memoize::Opportunity| {
        o.edges_saved as f64 / o.total_edges.max(1) as f64
    };
    let mut rows: Vec<ComputationRow> = Vec::new();
    for (r, f) in reports.iter().zip(files) {
        for o in &r.memoization {
            match rows.iter_mut().find(|x| x.opportunity.at == o.at) {
                Some(x) if share(&x.opportunity) >= share(o) => {}
                Some(x) => {
                    *x = ComputationRow {
                        method: r.method.clone(),
                        opportunity: o.clone(),
                        run_file: f.clone(),
                    }
                }
                None => rows.push(ComputationRow {
                    method: r.method.clone(),
                    opportunity: o.clone(),
                    run_file: f.clone(),
                }),
            }
        }
    }
    rows.sort_by(|a, b| {
        share(&b.opportunity)
            .total_cmp(&share(&a.opportunity))
            .then(a.opportunity.at.cmp(&b.opportunity.at))
    });
    rows
}

/// The repeated traversals of `reports` (each method's strongest), ranked by redundant reads
/// per call.
fn traversal_rows(reports: &[ExploreReport], files: &[String]) -> Vec<TraversalRow> {
    let mut rows: Vec<TraversalRow> = reports
        .iter()
        .zip(files)
        .filter_map(|(r, f)| {
            let t = r.repeated_traversals.first()?;
            Some(TraversalRow {
                method: r.method.clone(),
                traversal: t.clone(),
                run_file: f.clone(),
            })
        })
        .collect();
    rows.sort_by(|a, b| {
        b.traversal
            .redundant_reads_per_call
            .total_cmp(&a.traversal.redundant_reads_per_call)
            .then(a.method.cmp(&b.method))
    });
    rows
}

/// A command line as a user types it: the program name as `perfsyn`, whatever path started it.
pub fn command_text(cl: &[String]) -> String {
    let mut parts = vec!["perfsyn".to_string()];
    parts.extend(cl.iter().skip(1).cloned());
    parts.join(" ")
}

/// The ranking thresholds of a hunt.
pub fn rank_config(s: &HuntSettings) -> RankConfig {
    RankConfig {
        t_rel: s.t_rel,
        ..RankConfig::default()
    }
}

/// Whether a report is a finding: reported by its oracle and kept by the ranking filters.
pub fn is_finding(r: &ExploreReport, cfg: &RankConfig) -> bool {
    r.verdict == Verdict::Bottleneck && filter_reason(r, cfg).is_none()
}

/// The summary of what `dir` holds; `shown` is how the directory is named in commands.
pub fn summarize(dir: &HuntDir, runs: &[(usize, RunFile)], shown: &str) -> Summary {
    let m = &dir.manifest;
    let cfg = rank_config(&m.settings);
    let reports: Vec<ExploreReport> = runs.iter().map(|(_, r)| r.report.clone()).collect();
    let planned = |k: usize| &m.methods[runs[k].0];
    let file = |p: &PlannedMethod| format!("{}/{}", shown.trim_end_matches('/'), p.file);
    let ranking = rank(&reports, &cfg);
    let finding = |k: usize, rank: usize, prefix: &str| {
        let r = &reports[k];
        let p = planned(k);
        Finding {
            rank,
            label: format!("{prefix}{rank}"),
            method: r.method.clone(),
            ty: r.ty.clone(),
            oracle: r.oracle,
            verdict: r.verdict,
            reason: r.reason.clone(),
            expected: r.expected,
            empirical: r.empirical,
            fit_error: r.fit_error,
            ratio: r.ratio,
            time_ratio: r.time_ratio,
            time_significant: r.time_significant,
            score: r.best.as_ref().map(|b| b.score),
            input_size: r.best.as_ref().map(|b| b.input_size),
            mutations: r.best.as_ref().map(|b| b.mutations),
            run_file: file(p),
            export_command: format!("perfsyn export {} --format test", file(p)),
            explore_command: super::explore_command(p, &m.settings),
            hot_lines: r.hot_lines.iter().take(HOT_SHOWN).cloned().collect(),
        }
    };
    let keep = |ids: &[usize], prefix: &str| -> Vec<Finding> {
        ids.iter()
            .filter(|&&k| reports[k].verdict == Verdict::Bottleneck)
            .enumerate()
            .map(|(i, &k)| finding(k, i + 1, prefix))
            .collect()
    };
    let relative = keep(&ranking.relative, "R");
    let asymptotic = keep(&ranking.asymptotic, "A");
    let mut no_finding = Vec::new();
    for (k, r) in reports.iter().enumerate() {
        if is_finding(r, &cfg) {
            continue;
        }
        let reason = match filter_reason(r, &cfg) {
            Some(f) if r.verdict == Verdict::Bottleneck => format!("{}; left out: {f}", r.reason),
            _ => r.reason.clone(),
        };
        no_finding.push(NoFinding {
            method: r.method.clone(),
            oracle: r.oracle,
            verdict: r.verdict,
            reason,
            run_file: file(planned(k)),
            empirical: r.empirical,
            explore_command: super::explore_command(planned(k), &m.settings),
        });
    }
    let methods = reports
        .iter()
        .enumerate()
        .map(|(k, r)| super::summary::method_summary(r, is_finding(r, &cfg), file(planned(k))))
        .collect();
    let done: Vec<usize> = runs.iter().map(|(i, _)| *i).collect();
    let pending: Vec<String> = m
        .methods
        .iter()
        .enumerate()
        .filter(|(i, _)| !done.contains(i))
        .map(|(_, p)| p.method.clone())
        .collect();
    let complete = pending.is_empty();
    let files: Vec<String> = (0..reports.len()).map(|k| file(planned(k))).collect();
    let repeated_traversals = traversal_rows(&reports, &files);
    let repeated_computations = computation_rows(&reports, &files);
    Summary {
        format: SUMMARY_FORMAT.into(),
        version: 1,
        perfsyn_version: env!("CARGO_PKG_VERSION").into(),
        command_line: m.command_line.clone(),
        settings: m.settings.clone(),
        partition: m.partition.as_ref().map(|p| p.part.to_string()),
        methods_total: m.methods.len(),
        methods_done: runs.len(),
        complete,
        relative,
        asymptotic,
        no_finding,
        repeated_traversals,
        repeated_computations,
        methods,
        pending,
        continue_command: if complete {
            format!("perfsyn hunt --report {shown}")
        } else {
            format!("perfsyn hunt --out {shown} --resume")
        },
    }
}

/// Writes `report.html`, `summary.json` and `summary.md` into the hunt directory
/// (atomically each) and returns the summary. `shown` names the directory in commands.
pub fn write_reports(dir: &HuntDir, shown: &str) -> anyhow::Result<Summary> {
    let runs = dir.finished()?;
    let s = summarize(dir, &runs, shown);
    let by_method = |method: &str| {
        runs.iter()
            .find(|(_, r)| r.report.method == method)
            .map(|(_, r)| &r.report)
    };
    let html = html(&s, &by_method);
    let put = |name: &str, bytes: &[u8]| -> anyhow::Result<()> {
        let p = dir.path.join(name);
        write_atomic(&p, bytes).map_err(|e| anyhow::anyhow!("cannot write {}: {e}", p.display()))
    };
    put("report.html", html.as_bytes())?;
    put("summary.json", serde_json::to_string_pretty(&s)?.as_bytes())?;
    put("summary.md", markdown(&s).as_bytes())?;
    Ok(s)
}

/// `1 finding`, `2 findings`: a count with its noun in the right number.
pub fn count(n: usize, noun: &str) -> String {
    format!("{n} {noun}{}", if n == 1 { "" } else { "s" })
}

/// A fraction as a percentage with one decimal, `-` when unknown or not a number.
pub fn percent(x: Option<f64>) -> String {
    match x {
        Some(x) if x.is_finite() => format!("{:.1}%", x * 100.0),
        _ => "-".into(),
    }
}

/// A cost or time ratio new/old in words: `3.10x slower` or `2.00x faster`.
pub fn ratio_words(r: f64) -> String {
    if !r.is_finite() {
        "not measurable".into()
    } else if r >= 1.0 {
        format!("{r:.2}x slower")
    } else if r > 0.0 {
        format!("{:.2}x faster", 1.0 / r)
    } else {
        format!("{r:.3}")
    }
}

/// What the finding shows, in one short phrase.
fn evidence(f: &Finding) -> String {
    match (f.oracle, f.ratio) {
        (OracleKind::Relative, Some(r)) => format!("cost new/old {r:.3} (new {})", ratio_words(r)),
        _ => format!(
            "{} where {} is documented (fit error {})",
            f.empirical.map_or("?", Class::label),
            f.expected.map_or("nothing", Class::label),
            percent(f.fit_error)
        ),
    }
}

fn time_words(f: &Finding) -> String {
    let Some(t) = f.time_ratio.filter(|t| t.is_finite()) else {
        return "not measured".into();
    };
    let sig = match f.time_significant {
        Some(true) => "significant",
        Some(false) => "not significant",
        None => "significance unknown",
    };
    if f.oracle == OracleKind::Relative {
        format!("new/old {t:.2} ({sig})")
    } else {
        format!("largest/smallest input {t:.2}x ({sig})")
    }
}

/// The HTML page. `report_of` gives a finished method's report (for the program and plot).
pub fn html<'a>(s: &Summary, report_of: &dyn Fn(&str) -> Option<&'a ExploreReport>) -> String {
    let card = |f: &Finding| {
        let r = report_of(&f.method);
        context! {
            f => Value::from(Serde(f)),
            evidence => evidence(f),
            time => time_words(f),
            faster => f.oracle == OracleKind::Relative && f.ratio.is_some_and(|x| x < 1.0),
            program => r.and_then(|r| r.best.as_ref()).map(|b| b.rust.trim_end().to_string()),
            // plotters escapes the text it writes; the SVG element goes in as markup.
            svg => r
                .and_then(|r| crate::commands::plot::render_svg(r).ok())
                .map(|svg| Value::from_safe_string(strip_xml_prolog(&svg).to_string())),
        }
    };
    let mut groups = Vec::new();
    if !s.relative.is_empty() {
        groups.push(context! {
            title => "Relative performance (version groups)",
            note => "Ranked as in section 3.2.8: cost ratios beyond t_rel only, regressions (new slower) first, then by the score of the best program.",
            cards => s.relative.iter().map(card).collect::<Vec<_>>(),
        });
    }
    if !s.asymptotic.is_empty() {
        groups.push(context! {
            title => "Unexpected asymptotic complexity",
            note => "Ranked as in section 3.2.8: fits within t_err (the largest fit error kept) over at least t_size distinct input sizes only, highest empirical class first.",
            cards => s.asymptotic.iter().map(card).collect::<Vec<_>>(),
        });
    }
    let overview: Vec<Value> = s
        .relative
        .iter()
        .chain(&s.asymptotic)
        .map(|f| {
            context! { f => Value::from(Serde(f)), evidence => evidence(f), time => time_words(f) }
        })
        .collect();
    let findings = s.relative.len() + s.asymptotic.len();
    let ctx = context! {
        s => Value::from(Serde(s)),
        partition => s.partition.clone(),
        findings_text => count(findings, "finding"),
        methods_total_text => count(s.methods_total, "method"),
        pending_text => count(s.pending.len(), "method"),
        command => command_text(&s.command_line),
        budget => s.settings.budget_text(),
        cards => overview,
        groups => groups,
        fast => superlinear_undocumented(s)
            .into_iter()
            .map(|(n, c)| context! { method => n.method.clone(), class => c.label(), explore => n.explore_command.clone() })
            .collect::<Vec<_>>(),
    };
    template()
        .get_template(TEMPLATE)
        .and_then(|t| t.render(ctx))
        .expect("the report template renders any summary")
}

/// The report template's name; its `.html` suffix switches on HTML auto-escaping.
const TEMPLATE: &str = "report.html";

fn template() -> Environment<'static> {
    let mut env = Environment::new();
    env.set_undefined_behavior(minijinja::UndefinedBehavior::Strict);
    env.add_template(TEMPLATE, include_str!("report.html"))
        .expect("the report template parses");
    env
}

/// The SVG element alone (an XML declaration is not allowed inside HTML).
fn strip_xml_prolog(svg: &str) -> &str {
    svg.find("<svg").map_or(svg, |i| &svg[i..])
}

/// `summary.md`: the findings as tables, the rest folded.
pub fn markdown(s: &Summary) -> String {
    let cell = |t: &str| t.replace('|', "\\|").replace('\n', " ");
    let findings = s.relative.len() + s.asymptotic.len();
    let mut m = format!(
        "## perfsyn hunt{}: {} in {} of {}{}\n\n",
        s.partition
            .as_ref()
            .map_or(String::new(), |p| format!(" (partition {p})")),
        count(findings, "finding"),
        s.methods_done,
        count(s.methods_total, "method"),
        if s.complete { "" } else { " (incomplete)" }
    );
    m.push_str(&format!(
        "`{}` (strategy {}, {} per method, seed {}, perfsyn {})\n\n",
        command_text(&s.command_line),
        s.settings.strategy,
        s.settings.budget_text(),
        s.settings.seed,
        s.perfsyn_version
    ));
    if !s.relative.is_empty() {
        m.push_str("### Relative findings (version groups)\n\nRanked as in section 3.2.8: regressions first, then by score.\n\n");
        m.push_str(
            "| # | method | cost new/old | time new/old | export |\n|---|---|---|---|---|\n",
        );
        for f in &s.relative {
            m.push_str(&format!(
                "| {} | `{}` | {} | {} | `{}` |\n",
                f.label,
                cell(&f.method),
                f.ratio
                    .filter(|r| r.is_finite())
                    .map_or("-".into(), |r| format!("{r:.3} ({})", ratio_words(r))),
                cell(&time_short(f)),
                cell(&f.export_command)
            ));
        }
        m.push('\n');
    }
    if !s.asymptotic.is_empty() {
        m.push_str("### Asymptotic findings\n\nRanked as in section 3.2.8: highest empirical class first.\n\n");
        m.push_str("| # | method | documented | empirical | fit error | time largest/smallest | export |\n|---|---|---|---|---|---|---|\n");
        for f in &s.asymptotic {
            m.push_str(&format!(
                "| {} | `{}` | {} | {} | {} | {} | `{}` |\n",
                f.label,
                cell(&f.method),
                cell(f.expected.map_or("-", Class::label)),
                cell(f.empirical.map_or("-", Class::label)),
                percent(f.fit_error),
                cell(&time_short(f)),
                cell(&f.export_command)
            ));
        }
        m.push('\n');
    }
    if findings == 0 {
        m.push_str("No finding.\n\n");
    }
    let fast = superlinear_undocumented(s);
    if !fast.is_empty() {
        m.push_str("### Undocumented, growing faster than linearly\n\nNo documented class to judge these against, so they are not findings; if one costs more than it should, judge it with `--expect CLASS`.\n\n| method | empirical | explore |\n|---|---|---|\n");
        for (n, c) in &fast {
            m.push_str(&format!(
                "| `{}` | {} | `{} --expect \"O(n)\"` |\n",
                cell(&n.method),
                c.label(),
                cell(&n.explore_command)
            ));
        }
        m.push('\n');
    }
    if !s.repeated_traversals.is_empty() {
        m.push_str("### Repeated traversals\n\nToddler: a read whose values repeat across the iterations of a loop (here, the calls of the method), whatever the documented class; ranked by redundant reads per call.\n\n| method | read | redundant reads per call | similar iterations | program |\n|---|---|---|---|---|\n");
        for r in &s.repeated_traversals {
            let t = &r.traversal;
            m.push_str(&format!(
                "| `{}` | `{}` | {:.0} of {:.0} | {:.0}% of {} | {} |\n",
                cell(&r.method),
                cell(&t.read),
                t.redundant_reads_per_call,
                t.reads_per_call,
                100.0 * t.similar_ratio,
                t.iterations,
                cell(&t.program_kind)
            ));
        }
        m.push('\n');
    }
    if !s.repeated_computations.is_empty() {
        m.push_str("### Repeated computations\n\nMemoizeIt: a function whose calls repeat an earlier (input, output) pair, whatever the documented class; ranked by the share of its method's edges the suggested cache saves.\n\n| function | at | called from | hits | cache | saves | method |\n|---|---|---|---|---|---|---|\n");
        for r in &s.repeated_computations {
            let o = &r.opportunity;
            m.push_str(&format!(
                "| `{}` | `{}` | {} | {:.0}% of {} | {} | {:.0}% | `{}` |\n",
                cell(&o.function),
                cell(&o.at),
                cell(&o.callers.join(", ")),
                100.0 * o.hit_ratio,
                o.activations,
                o.suggestion.as_deref().unwrap_or("none"),
                100.0 * o.edges_saved as f64 / o.total_edges.max(1) as f64,
                cell(&r.method)
            ));
        }
        m.push('\n');
    }
    if !s.no_finding.is_empty() {
        m.push_str(&format!(
            "<details><summary>{} with no finding</summary>\n\n| method | oracle | verdict | why |\n|---|---|---|---|\n",
            count(s.no_finding.len(), "method")
        ));
        for n in &s.no_finding {
            m.push_str(&format!(
                "| `{}` | {} | {} | {} |\n",
                cell(&n.method),
                n.oracle,
                n.verdict,
                cell(&n.reason)
            ));
        }
        m.push_str("\n</details>\n\n");
    }
    if !s.pending.is_empty() {
        m.push_str(&format!(
            "Not explored yet ({}): {}\n\n",
            s.pending.len(),
            s.pending
                .iter()
                .map(|p| format!("`{p}`"))
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    m.push_str(&format!(
        "{}: `{}`\n",
        if s.complete { "Regenerate" } else { "Continue" },
        s.continue_command
    ));
    m
}

fn time_short(f: &Finding) -> String {
    match (f.time_ratio.filter(|t| t.is_finite()), f.time_significant) {
        (Some(t), Some(true)) => format!("{t:.2}"),
        (Some(t), _) => format!("{t:.2} (n.s.)"),
        (None, _) => "-".into(),
    }
}

/// What `hunt` and `report` print when they are done: the ranked findings, where the reports
/// are, and how to reproduce the hunt.
pub fn terminal(s: &Summary, dir: &Path) -> String {
    let findings = s.relative.len() + s.asymptotic.len();
    let mut t = format!(
        "{} in {} of {}{}{}\n",
        count(findings, "finding"),
        s.methods_done,
        count(s.methods_total, "method"),
        s.partition
            .as_ref()
            .map_or(String::new(), |p| format!(" of partition {p}")),
        if s.complete { "" } else { " (incomplete)" }
    );
    for f in s.relative.iter().chain(&s.asymptotic) {
        let what = match (f.oracle, f.ratio) {
            (OracleKind::Relative, Some(r)) if r.is_finite() => {
                format!("cost new/old {r:.3} ({})", ratio_words(r))
            }
            _ => format!(
                "{} where {} is documented",
                f.empirical.map_or("?", Class::label),
                f.expected.map_or("nothing", Class::label)
            ),
        };
        t.push_str(&format!("  {:<4} {:<40} {what}\n", f.label, f.method));
    }
    let fast = superlinear_undocumented(s);
    if !fast.is_empty() {
        t.push_str("undocumented, growing faster than linearly (no class to judge them against; use --expect):\n");
        for (n, c) in &fast {
            t.push_str(&format!("       {:<40} {}\n", n.method, c.label()));
        }
    }
    t.push_str(&format!(
        "report: {}\nsummary: {} and summary.md\nReproduce with: {}\n",
        dir.join("report.html").display(),
        dir.join("summary.json").display(),
        command_text(&s.command_line)
    ));
    t
}

/// Regenerates the reports of the hunt in `path` (`perfsyn hunt --report DIR`).
pub fn regenerate(path: &Path) -> anyhow::Result<Summary> {
    let dir = HuntDir::open(path)?;
    write_reports(&dir, &path.display().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn summary(method: &str, reason: &str) -> Summary {
        let f = Finding {
            rank: 1,
            label: "A1".into(),
            method: method.into(),
            ty: "Vec<Key>".into(),
            oracle: OracleKind::Asymptotic,
            verdict: Verdict::Bottleneck,
            reason: reason.into(),
            expected: Some(Class::Linear),
            empirical: Some(Class::Quadratic),
            fit_error: Some(f64::NAN),
            ratio: None,
            time_ratio: Some(f64::NAN),
            time_significant: None,
            score: None,
            input_size: Some(10),
            mutations: Some(2),
            run_file: "h/runs/001-x.json".into(),
            export_command: "perfsyn export h/runs/001-x.json --format test".into(),
            explore_command: format!("perfsyn explore --method {method}"),
            hot_lines: vec![crate::judge::hotlines::HotLine {
                file: "src/lib.rs".into(),
                line: 42,
                class: Some("O(n)".into()),
                hits: 4096,
                library: false,
                function: None,
            }],
        };
        Summary {
            format: SUMMARY_FORMAT.into(),
            version: 1,
            perfsyn_version: "0".into(),
            command_line: vec!["perfsyn".into(), "hunt".into()],
            settings: HuntSettings {
                ty: None,
                budget_per_method_ms: 0,
                max_programs_per_method: Some(1),
                strategy: "astar".into(),
                seed: 1,
                t_rel: 1.2,
                switches: Default::default(),
            },
            partition: Some("1/2".into()),
            methods_total: 1,
            methods_done: 1,
            complete: true,
            relative: Vec::new(),
            asymptotic: vec![f],
            no_finding: Vec::new(),
            repeated_traversals: Vec::new(),
            repeated_computations: Vec::new(),
            methods: Vec::new(),
            pending: Vec::new(),
            continue_command: "perfsyn hunt --report h".into(),
        }
    }

    fn traversal(method: &str, redundant: f64) -> TraversalRow {
        TraversalRow {
            method: method.into(),
            traversal: crate::judge::oracle::toddler::RepeatedTraversal {
                outer: format!("successive calls of {method}"),
                loop_at: None,
                program_kind: "best, calls in a row".into(),
                program: String::new(),
                read: "src/lib.rs:9".into(),
                stack: Vec::new(),
                iterations: 16,
                sequences: 16,
                similar_ratio: 1.0,
                mean_lcs: 64.0,
                mean_lcs_ratio: 1.0,
                reads_per_call: redundant,
                redundant_reads_per_call: redundant,
                capped: false,
                growth: Vec::new(),
            },
            run_file: "h/x.json".into(),
        }
    }

    #[test]
    fn the_markdown_lists_repeated_computations_once_each_largest_saving_first() {
        let mut s = summary("Vec<Key>::dedup", "why");
        let op = |at: &str, saved: u64| crate::judge::oracle::memoize::Opportunity {
            function: format!("f{at}"),
            at: at.into(),
            callers: vec!["src/lib.rs:40".into()],
            activations: 16,
            hit_ratio: 0.9375,
            cost_share: 0.9,
            edges: 1000,
            edges_saved: saved,
            total_edges: 1000,
            writes: false,
            caches: Vec::new(),
            suggestion: Some("single, global".into()),
            program_kind: "best".into(),
        };
        let mut reports = Vec::new();
        for (m, ops) in [
            (
                "Config::get",
                vec![op("src/lib.rs:7", 300), op("src/lib.rs:20", 100)],
            ),
            ("Config::parse", vec![op("src/lib.rs:7", 800)]),
        ] {
            let mut e = ExploreReport::started(
                m.into(),
                "T".into(),
                OracleKind::Asymptotic,
                crate::search::StrategyKind::Astar,
                1,
                crate::search::Metric::Cost,
            );
            e.memoization = ops;
            reports.push(e);
        }
        s.repeated_computations = computation_rows(&reports, &["a".into(), "b".into()]);
        assert_eq!(s.repeated_computations.len(), 2);
        let md = markdown(&s);
        let section = md
            .split("### Repeated computations")
            .nth(1)
            .expect("section");
        assert!(
            section.contains("| `fsrc/lib.rs:7` | `src/lib.rs:7` | src/lib.rs:40 | 94% of 16 | single, global | 80% | `Config::parse` |"),
            "{section}"
        );
        assert!(section.find("lib.rs:7").unwrap() < section.find("lib.rs:20").unwrap());
    }

    #[test]
    fn the_markdown_lists_repeated_traversals_most_redundant_first() {
        let mut s = summary("Vec<Key>::dedup", "why");
        let mut reports = Vec::new();
        for (m, r) in [("Cache::get", 10.0), ("List::find", 500.0)] {
            let mut e = ExploreReport::started(
                m.into(),
                "T".into(),
                OracleKind::Asymptotic,
                crate::search::StrategyKind::Astar,
                1,
                crate::search::Metric::Cost,
            );
            e.repeated_traversals = vec![traversal(m, r).traversal];
            reports.push(e);
        }
        s.repeated_traversals = traversal_rows(&reports, &["a".into(), "b".into()]);
        let md = markdown(&s);
        let section = md.split("### Repeated traversals").nth(1).expect("section");
        let (find, get) = (
            section.find("List::find").unwrap(),
            section.find("Cache::get").unwrap(),
        );
        assert!(find < get, "{section}");
        assert!(
            section.contains("| `List::find` | `src/lib.rs:9` | 500 of 500 | 100% of 16 |"),
            "{section}"
        );
    }

    #[test]
    fn the_page_escapes_what_runs_write_and_says_one_finding() {
        let s = summary("Vec<Key>::dedup", "<script>alert('x')</script> & more");
        let h = html(&s, &|_| None);
        assert!(h.contains("<code>Vec&lt;Key&gt;::dedup</code>"), "{h}");
        assert!(h.contains("&lt;script&gt;"), "{h}");
        assert!(!h.contains("<script"), "{h}");
        assert!(h.contains("1 finding</strong> in 1 of 1 method."), "{h}");
        // minijinja escapes `/` too (it ends an unquoted attribute); browsers show `1/2`.
        assert!(h.contains("Partition 1&#x2f;2 of a hunt"), "{h}");
        assert!(h.contains("1 program per method"), "{h}");
        assert!(h.contains("2 mutations from p0"), "{h}");
        assert!(
            h.contains("<code>src&#x2f;lib.rs:42</code> O(n) (4096 hits)"),
            "{h}"
        );
        // The CSS is not escaped (entities are not decoded inside <style>).
        assert!(
            h.contains("font-family:system-ui,-apple-system,'Segoe UI'"),
            "{h}"
        );
        let md = markdown(&s);
        assert!(
            md.starts_with("## perfsyn hunt (partition 1/2): 1 finding in 1 of 1 method\n"),
            "{md}"
        );
        for text in [&h, &md] {
            assert!(!text.to_lowercase().contains("nan"), "{text}");
            assert!(
                !text.contains("1 findings") && !text.contains("1 methods"),
                "{text}"
            );
        }
    }

    /// Methods without a documented class that grew faster than linearly are listed apart
    /// (fastest first) in every report; linear ones, judged ones and documented ones are not.
    #[test]
    fn undocumented_superlinear_methods_are_listed_fastest_first() {
        let mut s = summary("Bag::add", "cost grows as O(n^2)");
        let none = |method: &str, verdict: Verdict, empirical: &str| NoFinding {
            method: method.into(),
            oracle: OracleKind::Asymptotic,
            verdict,
            reason: format!("cost grows as {empirical}"),
            run_file: "h/runs/x.json".into(),
            empirical: Class::parse(empirical),
            explore_command: format!("perfsyn explore --method {method}"),
        };
        s.no_finding = vec![
            none("Map::extend", Verdict::Undocumented, "O(n log n)"),
            none("Map::keys", Verdict::Undocumented, "O(n)"),
            none("Map::merge", Verdict::Undocumented, "O(n^2)"),
            none("Map::sort", Verdict::NoBottleneck, "O(n^2)"),
        ];
        let fast: Vec<&str> = superlinear_undocumented(&s)
            .iter()
            .map(|(n, _)| n.method.as_str())
            .collect();
        assert_eq!(fast, ["Map::merge", "Map::extend"]);
        let md = markdown(&s);
        let section = md
            .split("### Undocumented, growing faster than linearly")
            .nth(1)
            .expect("section")
            .split("<details>")
            .next()
            .unwrap();
        assert!(
            section.contains("| `Map::merge` | O(n^2) | `perfsyn explore --method Map::merge --expect \"O(n)\"` |"),
            "{md}"
        );
        assert!(
            !section.contains("Map::keys") && !section.contains("Map::sort"),
            "{md}"
        );
        let t = terminal(&s, Path::new("h"));
        assert!(
            t.contains("undocumented, growing faster than linearly"),
            "{t}"
        );
        assert!(t.contains("Map::merge"), "{t}");
        let h = html(&s, &|_| None);
        assert!(
            h.contains("Undocumented, growing faster than linearly (2)"),
            "{h}"
        );
    }

    #[test]
    fn counts_and_percentages_read_as_words() {
        assert_eq!(count(1, "finding"), "1 finding");
        assert_eq!(count(0, "finding"), "0 findings");
        assert_eq!(percent(Some(0.123)), "12.3%");
        assert_eq!(percent(Some(f64::NAN)), "-");
        assert_eq!(percent(None), "-");
    }

    #[test]
    fn ratios_read_as_words() {
        assert_eq!(ratio_words(3.1), "3.10x slower");
        assert_eq!(ratio_words(0.5), "2.00x faster");
        assert_eq!(ratio_words(f64::NAN), "not measurable");
    }
}
