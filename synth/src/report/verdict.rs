//! The verdict of one `explore` run, as a type rather than a string.
//!
//! Every report that carries a verdict (explore, hunt summaries, suite and bench rows) uses
//! this enum. It serializes to the same kebab-case strings the run files have always held,
//! so old run files load unchanged.

use serde::{Deserialize, Serialize};

/// What a run concluded about its method.
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    Hash,
    Serialize,
    Deserialize,
    strum::EnumString,
    strum::Display,
    strum::IntoStaticStr,
    strum::VariantArray,
)]
#[serde(rename_all = "kebab-case")]
#[strum(serialize_all = "kebab-case")]
pub enum Verdict {
    /// The oracle reports a bottleneck.
    Bottleneck,
    /// The oracle decided, and there is none.
    NoBottleneck,
    /// The oracle could not decide (too few or too noisy points).
    Inconclusive,
    /// The cost was measured reliably but the method documents no class to judge it by.
    Undocumented,
    /// No program calling the method ran, so nothing was searched.
    NoInitialProgram,
    /// The run itself failed (hunt and suite record it as a verdict).
    Error,
}

#[cfg(test)]
mod tests {
    use super::*;
    use strum::VariantArray;

    #[test]
    fn serialized_strings_are_the_run_file_strings() {
        let want = [
            "bottleneck",
            "no-bottleneck",
            "inconclusive",
            "undocumented",
            "no-initial-program",
            "error",
        ];
        for (v, w) in Verdict::VARIANTS.iter().zip(want) {
            assert_eq!(v.to_string(), w);
            assert_eq!(serde_json::to_string(v).unwrap(), format!("\"{w}\""));
            assert_eq!(w.parse::<Verdict>().unwrap(), *v);
            let back: Verdict = serde_json::from_str(&format!("\"{w}\"")).unwrap();
            assert_eq!(back, *v);
        }
        assert_eq!(Verdict::VARIANTS.len(), want.len());
    }
}
