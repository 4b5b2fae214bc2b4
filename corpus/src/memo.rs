//! The labeled helpers of `perfsyn bench memoize` (case list: `cases/memoize.json`): each
//! method below is called in a `repeat` (the program's loop) and calls one helper.
//!
//! [`MemoCases`] holds both kinds. Opportunities: the helper recomputes an identical result
//! from identical data, inside a loop of the method or across its calls (a parse, a hash, a
//! sort, a format, a table rebuilt), and helpers whose side effects are redundant (they
//! write the same values again: MemoizeIt reports them too, section 2.4). Non-opportunities:
//! the same kinds of helpers whose input differs on every call (a different string, an index,
//! a window that slides). The helpers are `#[inline(never)]`: a function inlined into its
//! caller has no activation of its own (ARCHITECTURE.md, deviations).
//!
//! The labels live in the case list only; nothing here is seen by the oracle but the code.

use std::collections::HashSet;
use std::hash::{Hash, Hasher};

use perfsyn_profiler_ipc::probe::{FixedState, Key};
use perfsyn_profiler_ipc::register_type;

/// The receiver of every labeled method: values added by `add`, a configuration text, a
/// key, a name and a table.
#[derive(Debug, Clone)]
pub struct MemoCases {
    values: Vec<u64>,
    config: String,
    key: Vec<u8>,
    name_id: u64,
    table: Vec<u64>,
    texts: Vec<String>,
    checks: u64,
    keys: HashSet<Wrapped<Key>, FixedState>,
}

impl Default for MemoCases {
    fn default() -> Self {
        MemoCases::new()
    }
}

impl MemoCases {
    /// A fixed configuration, key and name; no values.
    pub fn new() -> MemoCases {
        let config = (0..24)
            .map(|k| format!("key{k} = {}\n", 1000 + 37 * k))
            .collect::<String>();
        MemoCases {
            values: Vec::new(),
            config,
            key: b"the quick brown fox jumps over the lazy dog".to_vec(),
            name_id: 4242,
            table: (0..64).map(|k| k * 3 % 5).collect(),
            texts: Vec::new(),
            checks: 0,
            keys: HashSet::default(),
        }
    }

    /// Adds `x` to the values (and its decimal text). O(1) amortized.
    pub fn add(&mut self, x: u64) {
        self.values.push(x);
        self.texts.push(format!("{}", x * 7919 + 13));
        self.keys.insert(Wrapped(Key::new(x)));
    }

    /// The number of values.
    pub fn len(&self) -> usize {
        self.values.len()
    }

    /// Whether empty.
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    // ---- opportunities ----

    /// The configuration's `i`-th value: the configuration is parsed again on every call.
    pub fn config_value(&self, i: u64) -> u64 {
        let parsed = parse_config(&self.config);
        parsed[i as usize % parsed.len()].1
    }

    /// A checksum of the key with 16 salts, each counted: the key is hashed again in every
    /// iteration.
    pub fn salted_checksum(&mut self, i: u64) -> u64 {
        let mut acc = i;
        for salt in 0..16u64 {
            acc = acc.rotate_left(5) ^ digest(&self.key) ^ salt;
            self.checks += 1;
        }
        acc
    }

    /// The rank of `i` among the values: they are sorted again on every call.
    pub fn rank_of(&self, i: u64) -> u64 {
        let sorted = sorted_copy(&self.values);
        sorted.partition_point(|v| *v < i * 10_000) as u64
    }

    /// A labeled line: the name is formatted again on every call.
    pub fn labeled(&self, i: u64) -> u64 {
        let header = format_header(self.name_id);
        header.len() as u64 + i
    }

    /// Looks `i` up after clearing the table to its defaults, which it already holds: a
    /// redundant side effect on every call.
    pub fn lookup_reset(&mut self, i: u64) -> u64 {
        reset_table(&mut self.table);
        self.table[i as usize % 64] + i
    }

    // ---- not opportunities: the helper's input differs on every call ----

    /// The `i`-th text parsed: a different text on every call.
    pub fn parse_nth(&self, i: u64) -> u64 {
        let t = &self.texts[i as usize % self.texts.len().max(1)];
        parse_number(t)
    }

    /// A hash of the key salted with `i`, once per call.
    pub fn keyed_digest(&self, i: u64) -> u64 {
        digest_salted(&self.key, i)
    }

    /// The median of the window of 16 values starting at `i`.
    pub fn window_median(&self, i: u64) -> u64 {
        let start = i as usize % self.values.len().max(1);
        let end = (start + 16).min(self.values.len());
        let w = sorted_copy(&self.values[start..end]);
        w.get(w.len() / 2).copied().unwrap_or(0)
    }

    /// `i` formatted as a padded label.
    pub fn index_label(&self, i: u64) -> u64 {
        format_header(i).len() as u64
    }

    /// Whether the probe key `i` was added (a map's lookup hashing its argument key through a
    /// key wrapper's `Hash`): a different key on every call.
    pub fn key_hash(&self, i: u64) -> u64 {
        self.keys.contains(&Wrapped(Key::new(i))) as u64
    }

    /// Writes `i` into the table's slot `i`: a different write on every call.
    pub fn record(&mut self, i: u64) -> u64 {
        store_at(&mut self.table, i);
        self.table[i as usize % 64]
    }
}

/// Parses `key = value` lines.
#[inline(never)]
pub fn parse_config(text: &str) -> Vec<(String, u64)> {
    let mut out = Vec::new();
    for line in text.lines() {
        if let Some((k, v)) = line.split_once('=') {
            out.push((k.trim().to_string(), v.trim().parse().unwrap_or(0)));
        }
    }
    out
}

/// FNV-1a over `bytes`, in 64 rounds.
#[inline(never)]
pub fn digest(bytes: &[u8]) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    for _ in 0..64 {
        for b in bytes {
            h = (h ^ *b as u64).wrapping_mul(0x100_0000_01b3);
        }
    }
    h
}

/// [`digest`] with `salt` mixed in first.
#[inline(never)]
pub fn digest_salted(bytes: &[u8], salt: u64) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325u64 ^ salt;
    for _ in 0..64 {
        for b in bytes {
            h = (h ^ *b as u64).wrapping_mul(0x100_0000_01b3);
        }
    }
    h
}

/// A sorted copy.
#[inline(never)]
pub fn sorted_copy(values: &[u64]) -> Vec<u64> {
    let mut v = values.to_vec();
    v.sort_unstable();
    v
}

/// A header line naming `id`.
#[inline(never)]
pub fn format_header(id: u64) -> String {
    let mut s = format!("== record {id:>12} ==");
    for k in 0..8 {
        s.push_str(&format!(" [{}]", id.wrapping_mul(k + 1) % 97));
    }
    s
}

/// Sets every slot to its default (`k * 3 % 5` at slot `k`).
#[inline(never)]
pub fn reset_table(table: &mut [u64]) {
    for (k, slot) in table.iter_mut().enumerate() {
        *slot = k as u64 * 3 % 5;
    }
}

/// Writes `i` at slot `i % len`.
#[inline(never)]
pub fn store_at(table: &mut [u64], i: u64) {
    let n = table.len();
    for k in 0..n {
        if k == i as usize % n {
            table[k] = i;
        }
    }
}

/// A key wrapper whose `Hash` forwards to the key's (a map's key-reference type).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Wrapped<K>(pub K);

impl<K: Hash> Hash for Wrapped<K> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.0.hash(state)
    }
}

/// A decimal number.
#[inline(never)]
pub fn parse_number(text: &str) -> u64 {
    text.bytes()
        .filter(u8::is_ascii_digit)
        .fold(0u64, |acc, b| acc * 10 + (b - b'0') as u64)
}

register_type! {
    /// The labeled helpers of `bench memoize`: each method calls one helper, with the same
    /// input on every call (an opportunity) or a different one (not).
    pub fn memo_cases() -> MemoCases {
        path: "MemoCases",
        imports: ["perfsyn_corpus::memo::MemoCases"],
        version: None,
        size: [|r| r.len() as u64],
        ctors { new() => MemoCases::new(); }
        methods {
            add(mut self, x: copy u64);
            config_value(ref self, x: copy u64) -> u64;
            salted_checksum(mut self, x: copy u64) -> u64;
            rank_of(ref self, x: copy u64) -> u64;
            labeled(ref self, x: copy u64) -> u64;
            lookup_reset(mut self, x: copy u64) -> u64;
            parse_nth(ref self, x: copy u64) -> u64;
            keyed_digest(ref self, x: copy u64) -> u64;
            window_median(ref self, x: copy u64) -> u64;
            index_label(ref self, x: copy u64) -> u64;
            record(mut self, x: copy u64) -> u64;
            key_hash(ref self, x: copy u64) -> u64;
        }
        fields {}
    }
}
