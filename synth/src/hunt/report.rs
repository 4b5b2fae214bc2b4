//! The hunt's reports, rebuilt from the directory alone: `report.html` (one self-contained
//! page: inline CSS, plots inlined as SVG, no script, no external resource), `summary.json`
//! for scripts and `summary.md` for pasting into an issue or a pull request.
//!
//! Findings are the finished methods whose verdict is `bottleneck` and that pass the
//! filters of section 3.2.8; they are ranked by [`crate::rank`], one list per oracle as the
//! paper ranks each oracle its own way (relative: regressions first, then by score;
//! asymptotic: highest empirical class first). Everything else is listed with the reason.
//!
//! HTML is written by hand rather than through a template engine: the page has one shape,
//! and every piece of text from a run (method names with `<Key>`, programs, reasons) goes
//! through [`esc`], which the tests check. The SVG plots come from plotters, which escapes
//! its text; they are inlined without their own escaping.

use std::path::Path;

use serde::{Deserialize, Serialize};

use super::dir::{HuntDir, HuntSettings, PlannedMethod};
use crate::explore::ExploreReport;
use crate::rank::{filter_reason, rank, RankConfig};
use crate::runfile::{write_atomic, RunFile};

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
    pub oracle: String,
    pub verdict: String,
    pub reason: String,
    pub expected: Option<String>,
    pub empirical: Option<String>,
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
}

/// A finished method without a finding.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct NoFinding {
    pub method: String,
    pub oracle: String,
    pub verdict: String,
    /// Why it is not a finding: the verdict's reason, or the ranking filter that left it out.
    pub reason: String,
    pub run_file: String,
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
    pub methods_total: usize,
    pub methods_done: usize,
    pub complete: bool,
    /// Relative findings, most severe first (section 3.2.8).
    pub relative: Vec<Finding>,
    /// Asymptotic findings, highest empirical class first (section 3.2.8).
    pub asymptotic: Vec<Finding>,
    pub no_finding: Vec<NoFinding>,
    /// Methods not explored yet (an interrupted hunt).
    pub pending: Vec<String>,
    /// How to continue (incomplete) or regenerate (complete) this hunt.
    pub continue_command: String,
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
    r.verdict == "bottleneck" && filter_reason(r, cfg).is_none()
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
            oracle: r.oracle.clone(),
            verdict: r.verdict.clone(),
            reason: r.reason.clone(),
            expected: r.expected.clone(),
            empirical: r.empirical.clone(),
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
        }
    };
    let keep = |ids: &[usize], prefix: &str| -> Vec<Finding> {
        ids.iter()
            .filter(|&&k| reports[k].verdict == "bottleneck")
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
            Some(f) if r.verdict == "bottleneck" => format!("{}; left out: {f}", r.reason),
            _ => r.reason.clone(),
        };
        no_finding.push(NoFinding {
            method: r.method.clone(),
            oracle: r.oracle.clone(),
            verdict: r.verdict.clone(),
            reason,
            run_file: file(planned(k)),
        });
    }
    let done: Vec<usize> = runs.iter().map(|(i, _)| *i).collect();
    let pending: Vec<String> = m
        .methods
        .iter()
        .enumerate()
        .filter(|(i, _)| !done.contains(i))
        .map(|(_, p)| p.method.clone())
        .collect();
    let complete = pending.is_empty();
    Summary {
        format: SUMMARY_FORMAT.into(),
        version: 1,
        perfsyn_version: env!("CARGO_PKG_VERSION").into(),
        command_line: m.command_line.clone(),
        settings: m.settings.clone(),
        methods_total: m.methods.len(),
        methods_done: runs.len(),
        complete,
        relative,
        asymptotic,
        no_finding,
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

/// Escapes text for HTML element content and double-quoted attributes.
pub fn esc(s: &str) -> String {
    let mut o = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => o.push_str("&amp;"),
            '<' => o.push_str("&lt;"),
            '>' => o.push_str("&gt;"),
            '"' => o.push_str("&quot;"),
            '\'' => o.push_str("&#39;"),
            c => o.push(c),
        }
    }
    o
}

/// A cost or time ratio new/old in words: `3.10x slower` or `2.00x faster`.
pub fn ratio_words(r: f64) -> String {
    if r >= 1.0 {
        format!("{r:.2}x slower")
    } else if r > 0.0 {
        format!("{:.2}x faster", 1.0 / r)
    } else {
        format!("{r:.3}")
    }
}

/// What the finding shows, in one short phrase.
fn evidence(f: &Finding) -> String {
    match (f.oracle.as_str(), f.ratio) {
        ("relative", Some(r)) => format!("cost new/old {r:.3} (new {})", ratio_words(r)),
        _ => format!(
            "{} where {} is documented (fit error {})",
            f.empirical.as_deref().unwrap_or("?"),
            f.expected.as_deref().unwrap_or("nothing"),
            f.fit_error
                .map_or("-".into(), |e| format!("{:.1}%", e * 100.0))
        ),
    }
}

fn time_words(f: &Finding) -> String {
    let Some(t) = f.time_ratio else {
        return "not measured".into();
    };
    let sig = match f.time_significant {
        Some(true) => "significant",
        Some(false) => "not significant",
        None => "significance unknown",
    };
    if f.oracle == "relative" {
        format!("new/old {t:.2} ({sig})")
    } else {
        format!("largest/smallest input {t:.2}x ({sig})")
    }
}

const CSS: &str = "body{font-family:system-ui,-apple-system,'Segoe UI',sans-serif;margin:2rem auto;max-width:1100px;padding:0 1rem;color:#1b1f24;line-height:1.45}\
h1{font-size:1.6rem;margin-bottom:.2rem}h2{margin-top:2.2rem;border-bottom:2px solid #d0d7de;padding-bottom:.2rem}\
.meta{color:#57606a}code,pre{font-family:ui-monospace,'SFMono-Regular',Menlo,Consolas,monospace;font-size:.9em}\
pre{background:#f6f8fa;border:1px solid #d0d7de;border-radius:6px;padding:.8rem;overflow-x:auto}\
.finding{border:1px solid #d0d7de;border-left:6px solid #cf222e;border-radius:6px;padding:.6rem 1.2rem;margin:1.2rem 0}\
.finding.faster{border-left-color:#1a7f37}.finding h3{margin:.4rem 0}\
.badge{display:inline-block;font-size:.8rem;font-weight:600;padding:.05rem .5rem;border-radius:1rem;background:#eaeef2;margin-left:.4rem;vertical-align:middle}\
table{border-collapse:collapse;margin:.5rem 0}td,th{border:1px solid #d0d7de;padding:.25rem .6rem;text-align:left;vertical-align:top}\
th{background:#f6f8fa}table.facts th{width:12rem}.plot svg{width:100%;max-width:760px;height:auto;border:1px solid #eaeef2}\
.cmd{background:#fff8c5;padding:.1rem .3rem;border-radius:4px}.count{font-size:1.1rem}";

/// The HTML page. `report_of` gives a finished method's report (for the program and plot).
pub fn html<'a>(s: &Summary, report_of: &dyn Fn(&str) -> Option<&'a ExploreReport>) -> String {
    let mut h = String::new();
    let findings = s.relative.len() + s.asymptotic.len();
    h.push_str("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
    h.push_str("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n");
    h.push_str(&format!(
        "<title>perfsyn hunt: {findings} findings in {} methods</title>\n<style>{CSS}</style>\n</head>\n<body>\n",
        s.methods_done
    ));
    h.push_str("<h1>perfsyn hunt</h1>\n");
    h.push_str(&format!(
        "<p class=\"count\"><strong>{findings} findings</strong> in {} of {} methods{}.</p>\n",
        s.methods_done,
        s.methods_total,
        if s.complete {
            String::new()
        } else {
            format!(
                " &mdash; <strong>incomplete</strong>: {} methods pending",
                s.pending.len()
            )
        }
    ));
    h.push_str(&format!(
        "<p class=\"meta\">Command: <code>{}</code><br>Strategy {}, {}s per method, seed {}, t_rel {}; perfsyn {}.<br>{}: <code class=\"cmd\">{}</code></p>\n",
        esc(&command_text(&s.command_line)),
        esc(&s.settings.strategy),
        s.settings.budget_per_method_ms as f64 / 1000.0,
        s.settings.seed,
        s.settings.t_rel,
        esc(&s.perfsyn_version),
        if s.complete { "Regenerate this page" } else { "Continue the hunt" },
        esc(&s.continue_command)
    ));
    h.push_str("<h2>Findings</h2>\n");
    if findings == 0 {
        h.push_str("<p>No method passed its oracle and the ranking filters.</p>\n");
    }
    if findings > 0 {
        h.push_str("<table class=\"overview\">\n<tr><th>#</th><th>method</th><th>oracle</th><th>evidence</th><th>wall-clock time</th></tr>\n");
        for f in s.relative.iter().chain(&s.asymptotic) {
            h.push_str(&format!(
                "<tr><td><a href=\"#{}\">{}</a></td><td><code>{}</code></td><td>{}</td><td>{}</td><td>{}</td></tr>\n",
                esc(&f.label),
                esc(&f.label),
                esc(&f.method),
                esc(&f.oracle),
                esc(&evidence(f)),
                esc(&time_words(f))
            ));
        }
        h.push_str("</table>\n");
    }
    if !s.relative.is_empty() {
        h.push_str("<h3>Relative performance (version groups)</h3>\n<p class=\"meta\">Ranked as in section 3.2.8: ratios beyond t_rel only, regressions (new slower) first, then by the score of the best program.</p>\n");
        for f in &s.relative {
            finding_html(&mut h, f, report_of(&f.method));
        }
    }
    if !s.asymptotic.is_empty() {
        h.push_str("<h3>Unexpected asymptotic complexity</h3>\n<p class=\"meta\">Ranked as in section 3.2.8: fits within t_err over at least t_size sizes only, highest empirical class first.</p>\n");
        for f in &s.asymptotic {
            finding_html(&mut h, f, report_of(&f.method));
        }
    }
    h.push_str(&format!(
        "<h2>Methods with no finding ({})</h2>\n",
        s.no_finding.len()
    ));
    if !s.no_finding.is_empty() {
        h.push_str(
            "<table>\n<tr><th>method</th><th>oracle</th><th>verdict</th><th>why</th></tr>\n",
        );
        for n in &s.no_finding {
            h.push_str(&format!(
                "<tr><td><code>{}</code></td><td>{}</td><td>{}</td><td>{}</td></tr>\n",
                esc(&n.method),
                esc(&n.oracle),
                esc(&n.verdict),
                esc(&n.reason)
            ));
        }
        h.push_str("</table>\n");
    }
    if !s.pending.is_empty() {
        h.push_str(&format!(
            "<h2>Not explored yet ({})</h2>\n<p>",
            s.pending.len()
        ));
        let names: Vec<String> = s
            .pending
            .iter()
            .map(|p| format!("<code>{}</code>", esc(p)))
            .collect();
        h.push_str(&names.join(", "));
        h.push_str("</p>\n");
    }
    h.push_str("</body>\n</html>\n");
    h
}

fn finding_html(h: &mut String, f: &Finding, r: Option<&ExploreReport>) {
    let faster = f.oracle == "relative" && f.ratio.is_some_and(|x| x < 1.0);
    h.push_str(&format!(
        "<section class=\"finding{}\" id=\"{}\">\n<h3>{} &middot; <code>{}</code><span class=\"badge\">{}</span></h3>\n",
        if faster { " faster" } else { "" },
        esc(&f.label),
        esc(&f.label),
        esc(&f.method),
        esc(&f.oracle)
    ));
    h.push_str("<table class=\"facts\">\n");
    let mut row = |k: &str, v: String| {
        h.push_str(&format!("<tr><th>{k}</th><td>{v}</td></tr>\n"));
    };
    row(
        "verdict",
        format!("{} &mdash; {}", esc(&f.verdict), esc(&f.reason)),
    );
    row("evidence", esc(&evidence(f)));
    row("wall-clock time", esc(&time_words(f)));
    if let (Some(n), Some(m)) = (f.input_size, f.mutations) {
        row(
            "best program",
            format!("input size {n}, {m} mutations from p0"),
        );
    }
    row("type", format!("<code>{}</code>", esc(&f.ty)));
    row("run file", format!("<code>{}</code>", esc(&f.run_file)));
    h.push_str("</table>\n");
    if let Some(b) = r.and_then(|r| r.best.as_ref()) {
        h.push_str(&format!(
            "<pre><code>{}</code></pre>\n",
            esc(b.rust.trim_end())
        ));
    }
    if let Some(svg) = r.and_then(|r| crate::plot::render_svg(r).ok()) {
        h.push_str("<div class=\"plot\">\n");
        h.push_str(strip_xml_prolog(&svg));
        h.push_str("\n</div>\n");
    }
    h.push_str(&format!(
        "<p>Export as a test: <code class=\"cmd\">{}</code><br>Explore it alone: <code>{}</code></p>\n</section>\n",
        esc(&f.export_command),
        esc(&f.explore_command)
    ));
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
        "## perfsyn hunt: {findings} findings in {} of {} methods{}\n\n",
        s.methods_done,
        s.methods_total,
        if s.complete { "" } else { " (incomplete)" }
    );
    m.push_str(&format!(
        "`{}` (strategy {}, {}s per method, seed {}, perfsyn {})\n\n",
        command_text(&s.command_line),
        s.settings.strategy,
        s.settings.budget_per_method_ms as f64 / 1000.0,
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
                cell(f.expected.as_deref().unwrap_or("-")),
                cell(f.empirical.as_deref().unwrap_or("-")),
                f.fit_error
                    .map_or("-".into(), |e| format!("{:.1}%", e * 100.0)),
                cell(&time_short(f)),
                cell(&f.export_command)
            ));
        }
        m.push('\n');
    }
    if findings == 0 {
        m.push_str("No finding.\n\n");
    }
    if !s.no_finding.is_empty() {
        m.push_str(&format!(
            "<details><summary>{} methods with no finding</summary>\n\n| method | oracle | verdict | why |\n|---|---|---|---|\n",
            s.no_finding.len()
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
    match (f.time_ratio, f.time_significant) {
        (Some(t), Some(true)) => format!("{t:.2}"),
        (Some(t), _) => format!("{t:.2} (n.s.)"),
        (None, _) => "-".into(),
    }
}

/// Regenerates the reports of the hunt in `path` (`perfsyn hunt --report DIR`).
pub fn regenerate(path: &Path) -> anyhow::Result<Summary> {
    let dir = HuntDir::open(path)?;
    write_reports(&dir, &path.display().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn esc_escapes_markup_and_quotes() {
        assert_eq!(
            esc("<Vec<Key>> & \"a\" 'b'"),
            "&lt;Vec&lt;Key&gt;&gt; &amp; &quot;a&quot; &#39;b&#39;"
        );
    }

    #[test]
    fn ratios_read_as_words() {
        assert_eq!(ratio_words(3.1), "3.10x slower");
        assert_eq!(ratio_words(0.5), "2.00x faster");
    }
}
