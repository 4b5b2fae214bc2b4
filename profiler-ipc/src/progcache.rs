//! Decoded programs by their wire bytes, so that a program sent again (a round trip of the
//! same program, a counterpart, a repeated benchmark batch) is not decoded again.

use std::collections::HashMap;

use crate::program::Program;

/// Entries kept before the cache starts over (programs are a few hundred bytes).
const MAX_ENTRIES: usize = 1024;

/// The worker's decoded programs, keyed by their exact encoding.
#[derive(Debug, Default)]
pub struct DecodeCache {
    programs: HashMap<Vec<u8>, Program>,
}

impl DecodeCache {
    /// The program encoded as `bytes`, decoded once; `None` if it does not decode.
    pub fn get(&mut self, bytes: &[u8]) -> Option<&Program> {
        if !self.programs.contains_key(bytes) {
            let p: Program = crate::wire::decode(bytes).ok()?;
            if self.programs.len() >= MAX_ENTRIES {
                self.programs.clear();
            }
            self.programs.insert(bytes.to_vec(), p);
        }
        self.programs.get(bytes)
    }
}
