//! The learning table L of section 3.2.5: for each mutation key (same operator, same
//! method/constructor/operator, same existing-vs-fresh choice per operand), how often a
//! mutation with that key raised the oracle score.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use crate::search::mutate::LearnKey;

/// Tries and improvements per key.
#[derive(Debug, Default, Clone)]
pub struct LearningTable {
    entries: HashMap<LearnKey, (u32, u32)>,
}

/// One row of the table, for reports.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct LearnRow {
    pub mutation: String,
    pub tries: u32,
    pub improvements: u32,
}

impl LearningTable {
    /// Records that a mutation with `key` was tried and whether it improved the score.
    pub fn record(&mut self, key: LearnKey, improved: bool) {
        let e = self.entries.entry(key).or_default();
        e.0 += 1;
        if improved {
            e.1 += 1;
        }
    }

    /// The predicted effectiveness of a mutation with `key`, in (0, 1): Laplace-smoothed, so
    /// that an untried mutation gets 1/2 and no mutation ever gets 0.
    pub fn predict(&self, key: &LearnKey) -> f64 {
        let (t, i) = self.entries.get(key).copied().unwrap_or((0, 0));
        (i as f64 + 1.0) / (t as f64 + 2.0)
    }

    /// The `k` keys with most improvements.
    pub fn top(&self, k: usize) -> Vec<LearnRow> {
        let mut rows: Vec<_> = self.entries.iter().collect();
        rows.sort_by(|a, b| {
            b.1 .1
                .cmp(&a.1 .1)
                .then(b.1 .0.cmp(&a.1 .0))
                .then(a.0.cmp(b.0))
        });
        rows.into_iter()
            .take(k)
            .map(|(key, (t, i))| LearnRow {
                mutation: format!(
                    "{} {} [{}]",
                    key.op.name(),
                    key.target,
                    key.fresh
                        .iter()
                        .map(|f| if *f { "fresh" } else { "existing" })
                        .collect::<Vec<_>>()
                        .join(",")
                ),
                tries: *t,
                improvements: *i,
            })
            .collect()
    }

    /// Number of distinct keys.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// True when nothing was recorded.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}
