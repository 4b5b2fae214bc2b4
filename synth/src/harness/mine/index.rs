//! Summarizing and retrieval (TestMiner, sections 4.2.2 and 4.2.3): values grouped by
//! context, context words weighted by tf-idf (equation 4.1), a query weighted by equation
//! 4.2, and the values of the contexts most similar to the query, by frequency.
//!
//! Retrieval is simpler than the paper's: the query is compared with every context by the
//! cosine of their weight vectors (a harness's tests hold hundreds of contexts, not the
//! millions a similarity hash is for), and contexts below [`MIN_SIMILARITY`] give nothing.
//! The inverse document frequency is smoothed, `ln((|D| + 1) / (df + 1)) + 1`: with the
//! paper's `ln(|D| / (df + 1))` a word found in half the contexts of a small crate weighs
//! 0 and one found in all of them weighs less than 0, so a crate with one tested parser
//! would never match its own parser's name.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::harness::mine::collect::{MinedValue, Pair};
use crate::harness::mine::words::Bag;

/// The least cosine similarity at which a context's values answer a query.
pub const MIN_SIMILARITY: f64 = 0.5;

/// One context of the index and the values mined in it, each with its count.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Context {
    pub words: Bag,
    pub values: Vec<(MinedValue, u32)>,
}

/// The index-to-values map (Definition 15), keyed by the context's bag of words rather than
/// its hash.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct MinedIndex {
    pub contexts: Vec<Context>,
}

impl MinedIndex {
    /// Groups the pairs by context (Algorithm 7), values counted, in a stable order.
    pub fn build(pairs: &[Pair]) -> MinedIndex {
        let mut by: BTreeMap<&Bag, BTreeMap<&MinedValue, u32>> = BTreeMap::new();
        for p in pairs {
            *by.entry(&p.context)
                .or_default()
                .entry(&p.value)
                .or_default() += 1;
        }
        MinedIndex {
            contexts: by
                .into_iter()
                .map(|(w, vs)| Context {
                    words: w.clone(),
                    values: vs.into_iter().map(|(v, c)| (v.clone(), c)).collect(),
                })
                .collect(),
        }
    }

    /// True when nothing was mined.
    pub fn is_empty(&self) -> bool {
        self.contexts.is_empty()
    }

    /// Number of context-value pairs (with repetitions).
    pub fn pairs(&self) -> u64 {
        self.contexts
            .iter()
            .flat_map(|c| &c.values)
            .map(|(_, n)| u64::from(*n))
            .sum()
    }

    /// A stable 64-bit hash of the index (FNV-1a over its JSON), for a run's identity.
    pub fn stable_hash(&self) -> u64 {
        let bytes = serde_json::to_vec(self).unwrap_or_default();
        bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
            (h ^ *b as u64).wrapping_mul(0x0100_0000_01b3)
        })
    }
}

/// An index ready for queries: the idf of every word and the weights of every context
/// computed once (a search queries at every expansion).
#[derive(Clone, Debug, Default)]
pub struct Retriever {
    pub index: MinedIndex,
    idf: BTreeMap<String, f64>,
    weights: Vec<BTreeMap<String, f64>>,
}

impl Retriever {
    pub fn new(index: MinedIndex) -> Retriever {
        let d = index.contexts.len() as f64;
        let mut df: BTreeMap<String, f64> = BTreeMap::new();
        for c in &index.contexts {
            for w in c.words.keys() {
                *df.entry(w.clone()).or_default() += 1.0;
            }
        }
        let idf: BTreeMap<String, f64> = df
            .into_iter()
            .map(|(w, n)| (w, ((d + 1.0) / (n + 1.0)).ln() + 1.0))
            .collect();
        let unseen = (d + 1.0).ln() + 1.0;
        let of = |w: &str| idf.get(w).copied().unwrap_or(unseen);
        // Equation 4.1, normalized over the context: `f_t,d * idf(t)`.
        let weights = index
            .contexts
            .iter()
            .map(|c| {
                normalized(
                    c.words
                        .iter()
                        .map(|(w, f)| (w.clone(), f64::from(*f) * of(w))),
                )
            })
            .collect();
        Retriever {
            index,
            idf,
            weights,
        }
    }

    /// True when nothing was mined.
    pub fn is_empty(&self) -> bool {
        self.index.is_empty()
    }

    /// The smoothed inverse document frequency of `word` (a word of no context weighs as a
    /// word of none).
    fn idf(&self, word: &str) -> f64 {
        let d = self.index.contexts.len() as f64;
        self.idf
            .get(word)
            .copied()
            .unwrap_or(((d + 1.0) / 1.0).ln() + 1.0)
    }

    /// Equation 4.2: `(0.5 + 0.5 f_t,q / max f_q) * idf(t)`, normalized.
    fn query_weights(&self, q: &Bag) -> BTreeMap<String, f64> {
        let max = q.values().copied().max().unwrap_or(1).max(1) as f64;
        normalized(
            q.iter()
                .map(|(w, f)| (w.clone(), (0.5 + 0.5 * f64::from(*f) / max) * self.idf(w))),
        )
    }

    /// The values answering a query of context `q` that `keep` accepts: from every context at
    /// least [`MIN_SIMILARITY`] similar (cosine of the weights), each value weighted by its
    /// count, most frequent first (ties in value order). All of them: the paper picks
    /// V_query = 10 of the set at random for each request, which a frequency-weighted
    /// draw over the whole set does as well; a fixed cut at the ten most frequent kept, for a
    /// crate whose test values are each used once, the same ten first in value order (all
    /// `"1..."`) for the whole search.
    pub fn query(&self, q: &Bag, keep: impl Fn(&MinedValue) -> bool) -> Vec<(MinedValue, u32)> {
        if self.index.contexts.is_empty() || q.is_empty() {
            return Vec::new();
        }
        let qw = self.query_weights(q);
        let mut found: BTreeMap<&MinedValue, u32> = BTreeMap::new();
        for (c, cw) in self.index.contexts.iter().zip(&self.weights) {
            let sim: f64 = qw
                .iter()
                .filter_map(|(w, a)| cw.get(w).map(|b| a * b))
                .sum();
            if sim < MIN_SIMILARITY {
                continue;
            }
            for (v, n) in &c.values {
                if keep(v) {
                    *found.entry(v).or_default() += n;
                }
            }
        }
        let mut out: Vec<(MinedValue, u32)> =
            found.into_iter().map(|(v, n)| (v.clone(), n)).collect();
        out.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        out
    }
}

/// Weights scaled to unit length (so the dot product of two is their cosine).
fn normalized(w: impl Iterator<Item = (String, f64)>) -> BTreeMap<String, f64> {
    let w: BTreeMap<String, f64> = w.collect();
    let norm = w.values().map(|x| x * x).sum::<f64>().sqrt();
    if norm <= 0.0 {
        return w;
    }
    w.into_iter().map(|(k, x)| (k, x / norm)).collect()
}
