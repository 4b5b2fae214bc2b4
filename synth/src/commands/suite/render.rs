//! The suite's table in the shape of Table 3.2, then the per-strategy summary.

use super::{CaseOracle, SuiteReport};
use crate::report::class::Class;
use crate::search::StrategyKind;

/// The table in the shape of Table 3.2, then the summary.
pub fn render(r: &SuiteReport, strategies: &[StrategyKind]) -> String {
    let mut s = String::new();
    let mut head = format!("{:<4} {:<37} {:<5} {:<7}", "ID", "method", "orcl", "expect");
    for st in strategies {
        head.push_str(&format!(
            " | {:<6} {:>4} {:>11} {:>9} {:>7} {:<3}",
            st.name(),
            "muts",
            "perf(bc)",
            "perf(ns)",
            "tte(s)",
            ""
        ));
    }
    s.push_str(&head);
    s.push('\n');
    s.push_str(&"-".repeat(head.len()));
    s.push('\n');
    for c in &r.cases {
        s.push_str(&format!(
            "{:<4} {:<37} {:<5} {:<7}",
            c.id,
            c.method,
            match c.oracle {
                CaseOracle::Relative => "rel",
                CaseOracle::Asymptotic => "asym",
            },
            c.expected
        ));
        for st in strategies {
            let Some(x) = c.strategies.get(st.name()) else {
                continue;
            };
            let perf = match c.oracle {
                CaseOracle::Relative => match c.expected.as_str() {
                    "slower" => x.regression_ratio,
                    "faster" => x.improvement_ratio,
                    _ => x.ratio,
                }
                .map(signed_ratio)
                .unwrap_or_else(|| "-".into()),
                CaseOracle::Asymptotic => x.empirical.map_or("-", Class::label).to_string(),
            };
            let time = match c.oracle {
                CaseOracle::Relative => x.time_ratio.map(signed_ratio),
                CaseOracle::Asymptotic => x.time_ratio.map(|t| format!("{t:.2}x")),
            }
            .unwrap_or_else(|| "-".into());
            let mark = x.outcome.mark();
            s.push_str(&format!(
                " | {:<6} {:>4} {:>11} {:>9} {:>7} {:<3}",
                mark,
                x.mutations.map_or("-".into(), |m| m.to_string()),
                perf,
                time,
                x.tte_ms
                    .map_or("-".into(), |t| format!("{:.1}", t as f64 / 1000.0)),
                ""
            ));
        }
        s.push('\n');
    }
    s.push_str(
        "\nperf(bc): cost ratio new/old (+ new faster, - new slower, Table 3.2's sign) of the largest \
         regression (expect slower) or improvement (expect faster), or the fitted class; \
         perf(ns): measured wall-clock ratio; tte: time to expose.\n\
         ok = detected, CLASS = bottleneck of another class, DIR = only the other direction, \
         MISS = missed, INC = inconclusive, ERR = the run failed, FP = false positive, \
         ok- = control correctly not reported.\n\n",
    );
    for st in strategies {
        if let Some(x) = r.summary.get(st.name()) {
            s.push_str(&format!(
                "{:<6}: detected {}/{}, false positives {}/{}, correct negatives {}/{}, time to expose median {} max {}{}\n",
                st.name(),
                x.detected,
                x.positives,
                x.false_positives,
                x.controls,
                x.correct_negatives,
                x.controls,
                x.median_tte_ms
                    .map_or("-".into(), |t| format!("{:.1}s", t as f64 / 1000.0)),
                x.max_tte_ms
                    .map_or("-".into(), |t| format!("{:.1}s", t as f64 / 1000.0)),
                if x.failed.is_empty() {
                    String::new()
                } else {
                    format!("; not detected: {}", x.failed.join(", "))
                }
            ));
        }
    }
    s.push_str(&format!(
        "detected by at least one strategy: {}/{} (budget {:.0}s per case and strategy, seed {}{})\n",
        r.detected_by_any,
        r.positives,
        r.budget_per_case_ms as f64 / 1000.0,
        r.seed,
        if r.no_loops { ", --no-loops" } else { "" }
    ));
    s
}

/// A cost ratio new/old in Table 3.2's notation: `+2.00x` when new is twice as fast,
/// `-2.00x` when it is twice as slow.
fn signed_ratio(r: f64) -> String {
    if r >= 1.0 {
        format!("-{r:.2}x")
    } else {
        format!("+{:.2}x", 1.0 / r)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ratios_use_table_3_2_signs() {
        assert_eq!(signed_ratio(0.5), "+2.00x");
        assert_eq!(signed_ratio(2.0), "-2.00x");
    }
}
