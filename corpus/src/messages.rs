//! Listing 3.1 of the PerfSyn chapter: `Messages`, the running example with two
//! bottlenecks, so that the suite checks the example the approach was explained with.
//!
//! * Bottleneck 1 (asymptotic): with `rename_dups == false`, `log` checks containment in the
//!   *list* of logged messages instead of the set, so each check is linear in the number of
//!   messages logged so far and logging a batch is quadratic. `log` is documented O(n) in
//!   its input (the messages already logged plus the batch): one constant-time check per
//!   new message, which is what the listing's developer "may expect".
//! * Bottleneck 2 (relative): `make_unique` appends an expensive-to-compute hash to a
//!   duplicate message. The `Messages` version group pits that implementation (`old`)
//!   against the listing's suggested fix (`new`): a number from a counter. Only `log` is
//!   public, as in the listing, so the relative oracle reaches `make_unique` through `log`
//!   with `rename_dups == true` and duplicate messages.
//!
//! From the paper: the class shape, both bottlenecks and both fixes. Ours: messages are
//! probe [`Key`]s rather than strings (loops can then log distinct messages, `Key::new(i)`),
//! so "appending" a unique suffix to a message mixes the suffix into the key's value; the
//! expensive hash is 64 rounds of a 64-bit mix over the message and its position.

use std::collections::HashSet;
use std::marker::PhantomData;

use perfsyn_profiler_ipc::probe::{FixedState, Key};
use perfsyn_profiler_ipc::register_type;

use crate::table32::{New, Old, Version};

/// A container of logged messages that assigns each message an identifier (its position).
#[derive(Debug, Clone, Default)]
pub struct Messages<V> {
    set: HashSet<Key, FixedState>,
    list: Vec<Key>,
    counter: u64,
    _v: PhantomData<V>,
}

/// `Messages` with the expensive hash in `make_unique` (the listing as printed).
pub type OldMessages = Messages<Old>;
/// `Messages` with a counter in `make_unique` (the listing's suggested fix).
pub type NewMessages = Messages<New>;

impl<V: Version> Messages<V> {
    /// No messages (the listing's constructor with an empty list).
    pub fn new() -> Self {
        Self::default()
    }

    /// Logs `new_msgs`. With `rename_dups`, a message already logged is logged again under a
    /// unique name; without, it is skipped. Documented O(n) in the messages logged plus
    /// the batch.
    ///
    /// PLANTED (bottleneck 1 of the listing): without `rename_dups`, the containment check
    /// searches the list, O(n) per message, so a batch costs O(n·m).
    pub fn log(&mut self, new_msgs: &[Key], rename_dups: bool) {
        for msg in new_msgs {
            if rename_dups {
                if self.set.contains(msg) {
                    let unique = self.make_unique(msg);
                    self.log_one(unique);
                } else {
                    self.log_one(msg.clone());
                }
            } else if !self.list.contains(msg) {
                self.log_one(msg.clone());
            }
        }
    }

    fn log_one(&mut self, msg: Key) {
        self.set.insert(msg.clone());
        self.list.push(msg);
    }

    /// Bottleneck 2 of the listing: `old` appends an expensive hash, `new` a counter.
    fn make_unique(&mut self, msg: &Key) -> Key {
        if V::NEW {
            self.counter += 1;
            Key(msg.get() ^ (self.counter << 40))
        } else {
            let mut h = msg.get() ^ (self.list.len() as u64).rotate_left(32);
            for round in 0..64u64 {
                h ^= h >> 33;
                h = h.wrapping_mul(0xff51_afd7_ed55_8ccd).wrapping_add(round);
                h ^= h >> 29;
                h = std::hint::black_box(h);
            }
            Key(msg.get() ^ (h << 40))
        }
    }

    /// The number of logged messages.
    pub fn len(&self) -> usize {
        self.list.len()
    }

    /// Whether nothing was logged.
    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }
}

register_type! {
    /// Listing 3.1's Messages, make_unique by expensive hash (both bottlenecks).
    pub fn messages_old() -> OldMessages {
        path: "Messages",
        imports: ["perfsyn_corpus::messages::OldMessages"],
        version: Some(("Messages", "old")),
        size: [|m| m.len() as u64],
        ctors { new() => OldMessages::new(); }
        methods {
            // Documented "O(n)"; PLANTED: O(n^2) without rename_dups.
            log(mut self, new_msgs: slice Key, rename_dups: copy bool) ["O(n)"];
            len(ref self) -> usize ["O(1)"];
        }
        fields {}
    }

    /// Listing 3.1's Messages, make_unique by counter (bottleneck 1 only).
    pub fn messages_new() -> NewMessages {
        path: "Messages",
        imports: ["perfsyn_corpus::messages::NewMessages"],
        version: Some(("Messages", "new")),
        size: [|m| m.len() as u64],
        ctors { new() => NewMessages::new(); }
        methods {
            // Documented "O(n)"; PLANTED: O(n^2) without rename_dups.
            log(mut self, new_msgs: slice Key, rename_dups: copy bool) ["O(n)"];
            len(ref self) -> usize ["O(1)"];
        }
        fields {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn duplicates_are_renamed_or_skipped() {
        let batch: Vec<Key> = [1, 2, 1, 3, 2].iter().map(|&x| Key(x)).collect();
        let mut m = NewMessages::new();
        m.log(&batch, false);
        assert_eq!(m.len(), 3);
        m.log(&batch, true);
        assert_eq!(m.len(), 8);
        let mut o = OldMessages::new();
        o.log(&batch, true);
        assert_eq!(o.len(), 5);
    }
}
