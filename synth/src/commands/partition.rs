//! `--partition k/N`: a deterministic share of a list of methods, so that one long run (an
//! overnight hunt, a `check` of a large change) can be spread over N machines that never
//! talk to each other, and the parts merged afterwards.
//!
//! The split is cargo-nextest's `count:k/N`: sort the items by name, and the i-th one
//! (0-based) belongs to partition `i mod N + 1`. It depends only on the list itself, so every
//! machine computes the same split from the same API, and each item lands in exactly one
//! partition. Sorting first makes the split independent of registration order; round-robin
//! (rather than contiguous slices) spreads the methods of one type, which tend to cost alike,
//! over all partitions.
//!
//! `--partition auto` takes k/N from the environment a scheduler already sets, so one job
//! template serves every part: a Kubernetes Indexed Job's `JOB_COMPLETION_INDEX` (0-based;
//! the count, which Kubernetes does not export, from `--partition-count N` or
//! `PERFSYN_PARTITION_COUNT`), or `PERFSYN_PARTITION=k/N` (a CI matrix writes it from its
//! own variables).

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// Partition `index` of `count` (both 1-based, `1 <= index <= count`), written `k/N`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct Partition {
    index: usize,
    count: usize,
}

/// Why a `k/N` text is not a partition. One line each, naming the text.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PartitionError {
    #[error("`{0}` is not a partition; write k/N, e.g. 1/4 for the first of four")]
    Syntax(String),
    #[error("`{0}`: the number of partitions must be at least 1")]
    NoPartitions(String),
    #[error("`{0}`: k must lie between 1 and N")]
    OutOfRange(String),
    #[error("--partition auto: {0}")]
    Environment(String),
}

/// The environment variable of a Kubernetes Indexed Job's pod index (0-based).
pub const JOB_INDEX_VAR: &str = "JOB_COMPLETION_INDEX";
/// The number of partitions beside [`JOB_INDEX_VAR`] (or `--partition-count`).
pub const COUNT_VAR: &str = "PERFSYN_PARTITION_COUNT";
/// A whole `k/N` (1-based), e.g. set by a CI matrix.
pub const PARTITION_VAR: &str = "PERFSYN_PARTITION";

/// `--partition`'s value: a given `k/N`, or `auto` (read from the environment).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PartitionChoice {
    Given(Partition),
    Auto,
}

impl FromStr for PartitionChoice {
    type Err = PartitionError;

    fn from_str(s: &str) -> Result<PartitionChoice, PartitionError> {
        if s.trim() == "auto" {
            return Ok(PartitionChoice::Auto);
        }
        s.parse().map(PartitionChoice::Given)
    }
}

impl PartitionChoice {
    /// The partition: the given one, or for `auto` the one `var` (the environment) names;
    /// `count` is `--partition-count`.
    pub fn resolve(
        self,
        count: Option<usize>,
        var: &dyn Fn(&str) -> Option<String>,
    ) -> Result<Partition, PartitionError> {
        match self {
            PartitionChoice::Given(p) => Ok(p),
            PartitionChoice::Auto => from_env(count, var),
        }
    }
}

/// The partition the environment names (see the module documentation).
pub fn from_env(
    count: Option<usize>,
    var: &dyn Fn(&str) -> Option<String>,
) -> Result<Partition, PartitionError> {
    let env = |m: String| PartitionError::Environment(m);
    let set = |name: &str| var(name).filter(|v| !v.trim().is_empty());
    if let Some(index) = set(JOB_INDEX_VAR) {
        let k: usize = index.trim().parse().map_err(|_| {
            env(format!(
                "{JOB_INDEX_VAR}=`{index}` is not a number (a Kubernetes Indexed Job sets 0, 1, ...)"
            ))
        })?;
        let n = match (count, set(COUNT_VAR)) {
            (Some(n), _) => n,
            (None, Some(n)) => n.trim().parse().map_err(|_| {
                env(format!("{COUNT_VAR}=`{n}` is not a number of partitions"))
            })?,
            (None, None) => {
                return Err(env(format!(
                    "{JOB_INDEX_VAR} is {k} but the number of partitions is not given; pass --partition-count N (the Job's completions) or set {COUNT_VAR}"
                )))
            }
        };
        return Partition::new(k + 1, n).ok_or_else(|| {
            env(format!(
                "{JOB_INDEX_VAR}={k} (0-based) does not lie below the {n} partitions"
            ))
        });
    }
    if let Some(text) = set(PARTITION_VAR) {
        return text
            .parse()
            .map_err(|e: PartitionError| env(format!("{PARTITION_VAR}: {e}")));
    }
    Err(env(format!(
        "neither {JOB_INDEX_VAR} (a Kubernetes Indexed Job, with --partition-count N or {COUNT_VAR}) nor {PARTITION_VAR}=k/N is set"
    )))
}

impl Partition {
    /// Partition `index` of `count`; `None` unless `1 <= index <= count`.
    pub fn new(index: usize, count: usize) -> Option<Partition> {
        (1..=count)
            .contains(&index)
            .then_some(Partition { index, count })
    }

    /// k, 1-based.
    pub fn index(self) -> usize {
        self.index
    }

    /// N.
    pub fn count(self) -> usize {
        self.count
    }

    /// Every partition of the same split: `1/N`, ..., `N/N`.
    pub fn siblings(self) -> impl Iterator<Item = Partition> {
        (1..=self.count).map(move |index| Partition {
            index,
            count: self.count,
        })
    }

    /// The positions in `keys` that belong to this partition, ascending (so the caller's own
    /// order is kept). Equal keys are ordered by position, so the split is total.
    pub fn indices<K: Ord>(self, keys: &[K]) -> Vec<usize> {
        let mut order: Vec<usize> = (0..keys.len()).collect();
        order.sort_by(|&a, &b| keys[a].cmp(&keys[b]).then(a.cmp(&b)));
        let mut mine: Vec<usize> = order
            .into_iter()
            .enumerate()
            .filter(|(rank, _)| rank % self.count == self.index - 1)
            .map(|(_, i)| i)
            .collect();
        mine.sort_unstable();
        mine
    }

    /// The items of `items` that belong to this partition, by `key`, in their given order.
    pub fn select<T: Clone, K: Ord>(self, items: &[T], key: impl Fn(&T) -> K) -> Vec<T> {
        let keys: Vec<K> = items.iter().map(key).collect();
        self.indices(&keys)
            .into_iter()
            .map(|i| items[i].clone())
            .collect()
    }
}

impl FromStr for Partition {
    type Err = PartitionError;

    fn from_str(s: &str) -> Result<Partition, PartitionError> {
        let syntax = || PartitionError::Syntax(s.to_string());
        let (k, n) = s.trim().split_once('/').ok_or_else(syntax)?;
        let k: usize = k.trim().parse().map_err(|_| syntax())?;
        let n: usize = n.trim().parse().map_err(|_| syntax())?;
        if n == 0 {
            return Err(PartitionError::NoPartitions(s.to_string()));
        }
        Partition::new(k, n).ok_or_else(|| PartitionError::OutOfRange(s.to_string()))
    }
}

impl fmt::Display for Partition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl TryFrom<String> for Partition {
    type Error = PartitionError;
    fn try_from(s: String) -> Result<Partition, PartitionError> {
        s.parse()
    }
}

impl From<Partition> for String {
    fn from(p: Partition) -> String {
        p.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_prints_k_of_n() {
        let p: Partition = "2/3".parse().unwrap();
        assert_eq!((p.index(), p.count()), (2, 3));
        assert_eq!(p.to_string(), "2/3");
        let json = serde_json::to_string(&p).unwrap();
        assert_eq!(json, "\"2/3\"");
        assert_eq!(serde_json::from_str::<Partition>(&json).unwrap(), p);
    }

    #[test]
    fn bad_partitions_are_refused_in_one_line() {
        for (text, expect) in [
            ("2", "write k/N"),
            ("a/b", "write k/N"),
            ("1/0", "at least 1"),
            ("0/2", "between 1 and N"),
            ("3/2", "between 1 and N"),
            ("-1/2", "write k/N"),
        ] {
            let e = text.parse::<Partition>().unwrap_err().to_string();
            assert!(e.contains(expect), "{text}: {e}");
            assert!(e.contains(text), "{text}: {e}");
        }
    }

    #[test]
    fn auto_reads_a_kubernetes_index_or_a_matrix_partition() {
        let env = |pairs: &'static [(&'static str, &'static str)]| {
            move |k: &str| {
                pairs
                    .iter()
                    .find(|(n, _)| *n == k)
                    .map(|(_, v)| v.to_string())
            }
        };
        let p = from_env(Some(4), &env(&[(JOB_INDEX_VAR, "0")])).unwrap();
        assert_eq!(p.to_string(), "1/4");
        let p = from_env(None, &env(&[(JOB_INDEX_VAR, "2"), (COUNT_VAR, "3")])).unwrap();
        assert_eq!(p.to_string(), "3/3");
        let p = from_env(None, &env(&[(PARTITION_VAR, "2/5")])).unwrap();
        assert_eq!(p.to_string(), "2/5");
        for (pairs, count, says) in [
            (&[][..], None, "neither"),
            (&[(JOB_INDEX_VAR, "1")][..], None, "--partition-count"),
            (&[(JOB_INDEX_VAR, "3")][..], Some(3), "below the 3"),
            (&[(JOB_INDEX_VAR, "x")][..], Some(3), "not a number"),
        ] {
            let e = from_env(count, &env(pairs)).unwrap_err().to_string();
            assert!(e.contains(says) && !e.contains('\n'), "{e}");
        }
    }

    #[test]
    fn round_robin_over_the_sorted_names_keeps_the_given_order() {
        let names = ["d", "b", "a", "e", "c"];
        // Sorted: a b c d e -> 1/2 gets a, c, e; 2/2 gets b, d.
        let first = Partition::new(1, 2).unwrap().select(&names, |s| *s);
        let second = Partition::new(2, 2).unwrap().select(&names, |s| *s);
        assert_eq!(first, ["a", "e", "c"]);
        assert_eq!(second, ["d", "b"]);
    }

    #[test]
    fn every_item_lands_in_exactly_one_partition() {
        let names: Vec<String> = (0..23).map(|i| format!("m{}", (i * 7) % 23)).collect();
        for n in 1..=6 {
            let mut seen = vec![0; names.len()];
            for p in Partition::new(1, n).unwrap().siblings() {
                let mine = p.indices(&names);
                // Sizes differ by at most one.
                assert!(mine.len() == names.len() / n || mine.len() == names.len().div_ceil(n));
                for i in mine {
                    seen[i] += 1;
                }
            }
            assert!(seen.iter().all(|&c| c == 1), "N = {n}: {seen:?}");
        }
    }
}
