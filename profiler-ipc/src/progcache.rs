//! Decoded programs by their wire bytes, so that a program sent again (a round trip of the
//! same program, a counterpart, a repeated benchmark batch) is not decoded again, nor
//! checked and compiled again: each entry keeps the program's [`Prepared`] form once it ran.
//!
//! The key is looked up by a word-at-a-time fingerprint of the bytes and confirmed by
//! comparing them (`memcmp`, not instrumented): the worker is instrumented like the code it
//! measures, and hashing the bytes twice with the standard library's SipHash cost about
//! 4,000 instructions per program, a third of a small program's round trip beyond the
//! transport.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use crate::interp::{Interpreter, Prepared};
use crate::program::Program;

/// Entries kept before the cache starts over (programs are a few hundred bytes).
const MAX_ENTRIES: usize = 1024;

/// Hashes a `u64` fingerprint as itself (it is already well mixed).
#[derive(Default)]
struct Identity(u64);

impl Hasher for Identity {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        // Only u64 keys are hashed here; fold anything else in.
        for b in bytes {
            self.0 = self.0.rotate_left(8) ^ *b as u64;
        }
    }
    fn write_u64(&mut self, v: u64) {
        self.0 = v;
    }
}

/// A fingerprint of `bytes`: eight bytes a step, mixed as FxHash does, then finalized.
#[inline(always)]
fn fingerprint(bytes: &[u8]) -> u64 {
    const K: u64 = 0x517c_c1b7_2722_0a95;
    let mut h = bytes.len() as u64;
    let mut words = bytes.chunks_exact(8);
    for w in &mut words {
        let w = u64::from_le_bytes(w.try_into().expect("chunks of 8"));
        h = (h.rotate_left(5) ^ w).wrapping_mul(K);
    }
    let mut tail = [0u8; 8];
    // A byte loop, not `copy_from_slice` (an instrumented call and the counting memcpy).
    for (i, b) in words.remainder().iter().enumerate() {
        tail[i] = *b;
    }
    h = (h.rotate_left(5) ^ u64::from_le_bytes(tail)).wrapping_mul(K);
    // A final avalanche, so that the low bits the table uses depend on every byte.
    h ^= h >> 33;
    h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
    h ^ (h >> 33)
}

type Entry = (Vec<u8>, Program, Option<Prepared>);

/// The worker's decoded programs, keyed by their exact encoding.
#[derive(Debug, Default)]
pub struct DecodeCache {
    /// Fingerprint -> (encoding, program, its checked and compiled form once asked for) of
    /// every cached program with it.
    programs: HashMap<u64, Vec<Entry>, BuildHasherDefault<Identity>>,
    entries: usize,
}

impl std::fmt::Debug for Identity {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Identity")
    }
}

impl DecodeCache {
    /// The program encoded as `bytes`, decoded once; `None` if it does not decode.
    pub fn get(&mut self, bytes: &[u8]) -> Option<&Program> {
        let (key, at) = self.find(bytes)?;
        self.programs.get(&key).map(|same| &same[at].1)
    }

    /// The program encoded as `bytes`, decoded once, and its form checked and compiled by
    /// `interp` once (the cache serves one interpreter); `None` if it does not decode.
    /// Uninstrumented, with the lookup inlined into it (see `meter`, "The uninstrumented
    /// runtime"): the fingerprint's loop was an edge per eight bytes of every request.
    #[export_name = "__sanitizer_perfsyn_progcache_prepared"]
    #[inline(never)]
    pub fn prepared(
        &mut self,
        bytes: &[u8],
        interp: &Interpreter<'_>,
    ) -> Option<(&Program, &mut Prepared)> {
        let (key, at) = self.find(bytes)?;
        let (_, program, prepared) = self.programs.get_mut(&key).map(|same| &mut same[at])?;
        let prepared = prepared.get_or_insert_with(|| interp.prepare(program));
        Some((program, prepared))
    }

    /// The fingerprint and index of the entry of `bytes`, decoding and adding it if new.
    #[inline(always)]
    fn find(&mut self, bytes: &[u8]) -> Option<(u64, usize)> {
        let key = fingerprint(bytes);
        let found = self
            .programs
            .get(&key)
            .and_then(|same| same.iter().position(|(b, _, _)| b.as_slice() == bytes));
        let at = match found {
            Some(i) => i,
            None => {
                let p: Program = crate::wire::decode(bytes).ok()?;
                if self.entries >= MAX_ENTRIES {
                    self.programs.clear();
                    self.entries = 0;
                }
                let same = self.programs.entry(key).or_default();
                same.push((bytes.to_vec(), p, None));
                self.entries += 1;
                same.len() - 1
            }
        };
        Some((key, at))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::program::Stmt;

    fn program(n: usize) -> Program {
        let mut p = Program::default();
        for _ in 0..n {
            let v = p.fresh("u64");
            p.body.push(Stmt::Lit {
                out: v,
                value: crate::program::Literal::Int {
                    ty: crate::program::IntTy::U64,
                    value: n as i64,
                },
            });
        }
        p
    }

    /// Every program comes back as decoded, sent again or not, across a restart of the
    /// cache; bytes that do not decode are refused.
    #[test]
    fn programs_come_back_as_sent() {
        let mut c = DecodeCache::default();
        let encoded: Vec<Vec<u8>> = (0..MAX_ENTRIES + 40)
            .map(|n| crate::wire::encode(&program(n % 300)).unwrap())
            .collect();
        for round in 0..2 {
            for (n, bytes) in encoded.iter().enumerate() {
                assert_eq!(c.get(bytes), Some(&program(n % 300)), "round {round}, {n}");
            }
        }
        assert!(c.entries <= MAX_ENTRIES);
        assert_eq!(c.get(&[0xff, 0xff, 0xff]), None);
    }

    /// Fingerprints differ for inputs that differ in one byte anywhere, tail included.
    #[test]
    fn fingerprints_see_every_byte() {
        let base: Vec<u8> = (0..37u8).collect();
        let f = fingerprint(&base);
        for i in 0..base.len() {
            let mut b = base.clone();
            b[i] ^= 1;
            assert_ne!(fingerprint(&b), f, "byte {i}");
        }
        assert_ne!(fingerprint(&base[..36]), f);
    }
}
