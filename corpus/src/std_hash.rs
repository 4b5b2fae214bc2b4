//! `HashMap<Key, u64, FixedState>` and `HashSet<Key, FixedState>`, with the complexities
//! `std`'s documentation states.
//!
//! The method docs of `HashMap` state no per-call bound; the "Cost of Collection Operations"
//! table of `std::collections` does: HashMap get(i) "O(1)~", insert(i) "O(1)~*", remove(i)
//! "O(1)~" (`~` = expected cost, `*` = amortized), and "For Sets, all operations have the
//! cost of the equivalent Map operation." Both types hash with [`FixedState`] so that runs
//! are reproducible; printed programs construct them through `default()`.

use std::collections::{HashMap, HashSet};

use perfsyn_profiler_ipc::probe::{FixedState, Key};
use perfsyn_profiler_ipc::register_type;

register_type! {
    /// A hash map from probe keys to counters, with a fixed (deterministic) hasher.
    pub fn hash_map_key_u64() -> HashMap<Key, u64, FixedState> {
        path: "HashMap",
        imports: [
            "std::collections::HashMap",
            "perfsyn_corpus::probe::FixedState",
            "perfsyn_corpus::probe::Key",
        ],
        version: None,
        size: [|m| m.len() as u64],
        ctors {
            default() as "HashMap::<Key, u64, FixedState>::default()" => HashMap::default();
            with_capacity(capacity: copy usize)
                as "HashMap::<Key, u64, FixedState>::with_capacity_and_hasher({capacity}, FixedState::default())"
                => HashMap::with_capacity_and_hasher(capacity, FixedState::default());
        }
        methods {
            // collections table: HashMap insert "O(1)~*" (expected, amortized).
            insert(mut self, key: val Key, value: copy u64) ["O(1)"];
            // collections table: HashMap get "O(1)~" (expected).
            get(ref self, key: ref Key) ["O(1)"];
            // collections table: HashMap remove "O(1)~" (expected).
            remove(mut self, key: ref Key) ["O(1)"];
            // No complexity stated for contains_key (only get/insert/remove are in the table).
            contains_key(ref self, key: ref Key) -> bool;
            // The entry API (`entry(key).and_modify(..).or_insert(1)`): no complexity stated.
            increment(mut self, key: val Key)
                as "{self}.entry({key}).and_modify(|c| *c += 1).or_insert(1)"
                => |m| m.entry(key).and_modify(|c| *c += 1).or_insert(1);
            // No complexity stated.
            len(ref self) -> usize;
            // No complexity stated.
            clear(mut self);
            // HashMap::retain: "In the current implementation, this operation takes
            // O(capacity) time instead of O(len)"; capacity is not the registered size, so
            // no expectation.
            retain_even(mut self) as "{self}.retain(|k, _| k.get() % 2 == 0)"
                => |m| m.retain(|k, _| k.get() % 2 == 0);
            // HashMap::values: "iterating over values takes O(capacity) time instead of
            // O(len)"; no expectation in the registered size.
            sum_values(ref self) -> u64 as "{self}.values().sum::<u64>()"
                => |m| m.values().sum::<u64>();
            // No complexity stated.
            reserve(mut self, additional: copy usize);
            // No complexity stated.
            shrink_to_fit(mut self);
        }
        fields {}
    }

    /// A hash set of probe keys, with a fixed (deterministic) hasher.
    pub fn hash_set_key() -> HashSet<Key, FixedState> {
        path: "HashSet",
        imports: [
            "std::collections::HashSet",
            "perfsyn_corpus::probe::FixedState",
            "perfsyn_corpus::probe::Key",
        ],
        version: None,
        size: [|s| s.len() as u64],
        ctors {
            default() as "HashSet::<Key, FixedState>::default()" => HashSet::default();
            with_capacity(capacity: copy usize)
                as "HashSet::<Key, FixedState>::with_capacity_and_hasher({capacity}, FixedState::default())"
                => HashSet::with_capacity_and_hasher(capacity, FixedState::default());
            from_vec(vec: val Vec<Key>)
                as "{vec}.into_iter().collect::<HashSet<Key, FixedState>>()"
                => vec.into_iter().collect();
        }
        methods {
            // collections: sets cost "the equivalent Map operation"; HashMap insert "O(1)~*".
            insert(mut self, value: val Key) -> bool ["O(1)"];
            // collections: sets cost "the equivalent Map operation"; HashMap get "O(1)~".
            contains(ref self, value: ref Key) -> bool ["O(1)"];
            // collections: sets cost "the equivalent Map operation"; HashMap remove "O(1)~".
            remove(mut self, value: ref Key) -> bool ["O(1)"];
            // No complexity stated.
            len(ref self) -> usize;
            // No complexity stated.
            clear(mut self);
            // HashSet::retain: "this operation takes O(capacity) time instead of O(len)";
            // no expectation in the registered size.
            retain_even(mut self) as "{self}.retain(|k| k.get() % 2 == 0)"
                => |s| s.retain(|k| k.get() % 2 == 0);
            // No complexity stated.
            is_subset(ref self, other: ref HashSet<Key, FixedState>) -> bool;
            // No complexity stated.
            is_disjoint(ref self, other: ref HashSet<Key, FixedState>) -> bool;
            // No complexity stated.
            reserve(mut self, additional: copy usize);
            // No complexity stated.
            shrink_to_fit(mut self);
        }
        fields {}
    }
}
