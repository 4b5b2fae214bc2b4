//! Bencher Metric Format (BMF) JSON for `hunt --bmf` and `check --bmf`.
//!
//! Why: a continuous-benchmarking service (Bencher, and anything reading its format) tracks a
//! number per benchmark over commits and alerts when it jumps. perfsyn's figures are
//! deterministic (coverage edges and bytes moved, not time), so tracking them costs no
//! noise: a method's cost at the largest size swept and its fitted exponent, per commit. The
//! format is `{ "<benchmark>": { "<measure>": { "value": f64 } } }`; each method is a
//! benchmark, each figure a measure (slugs prefixed `perfsyn-`).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::commands::check::report::CheckReport;
use crate::commands::hunt::summary::MethodSummary;

/// The deterministic cost at the largest input size the verdict was fitted on.
pub const COST_AT_LARGEST_SIZE: &str = "perfsyn-cost-at-largest-size";
/// That largest size.
pub const LARGEST_SIZE: &str = "perfsyn-largest-size";
/// The log-log slope of cost against size.
pub const FITTED_EXPONENT: &str = "perfsyn-fitted-exponent";
/// Cost new/old of the best program (relative runs, `check`).
pub const COST_RATIO: &str = "perfsyn-cost-ratio";
/// Wall-clock new/old (`check`, when confirmation ran).
pub const TIME_RATIO: &str = "perfsyn-time-ratio";

/// One measure's value.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Metric {
    pub value: f64,
}

/// The BMF document: benchmark -> measure -> value.
pub type Bmf = BTreeMap<String, BTreeMap<String, Metric>>;

fn put(out: &mut Bmf, bench: &str, measure: &str, value: Option<f64>) {
    if let Some(value) = value.filter(|v| v.is_finite()) {
        out.entry(bench.to_string())
            .or_default()
            .insert(measure.to_string(), Metric { value });
    }
}

/// The measures of a hunt's methods (those with at least one figure).
pub fn from_hunt(methods: &[MethodSummary]) -> Bmf {
    let mut out = Bmf::new();
    for m in methods {
        put(
            &mut out,
            &m.method,
            COST_AT_LARGEST_SIZE,
            m.cost_at_largest_size,
        );
        put(
            &mut out,
            &m.method,
            LARGEST_SIZE,
            m.largest_size.map(|n| n as f64),
        );
        put(&mut out, &m.method, FITTED_EXPONENT, m.fitted_exponent);
        put(&mut out, &m.method, COST_RATIO, m.cost_ratio);
    }
    out
}

/// The measures of a check's touched methods that ran.
pub fn from_check(r: &CheckReport) -> Bmf {
    let mut out = Bmf::new();
    for f in &r.findings {
        put(&mut out, &f.method, COST_RATIO, f.ratio);
        put(&mut out, &f.method, TIME_RATIO, f.time_ratio);
    }
    out
}
