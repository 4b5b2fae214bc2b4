//! `BTreeMap<Key, u64>` and `BTreeSet<Key>`, with the complexities `std`'s documentation
//! states.
//!
//! The method docs of `BTreeMap` state no per-call bound; the "Cost of Collection
//! Operations" table of `std::collections` does: BTreeMap get(i), insert(i), remove(i) and
//! range "O(log(n))", append "O(n+m)"; and "For Sets, all operations have the cost of the
//! equivalent Map operation."

use std::collections::{BTreeMap, BTreeSet};

use perfsyn_profiler_ipc::probe::Key;
use perfsyn_profiler_ipc::register_type;

register_type! {
    /// An ordered map from probe keys to counters (a B-tree).
    pub fn btree_map_key_u64() -> BTreeMap<Key, u64> {
        path: "BTreeMap",
        imports: ["std::collections::BTreeMap", "perfsyn_corpus::probe::Key"],
        version: None,
        size: [|m| m.len() as u64],
        ctors {
            new() => BTreeMap::new();
        }
        methods {
            // collections table: BTreeMap insert "O(log(n))".
            insert(mut self, key: val Key, value: copy u64) ["O(log n)"];
            // collections table: BTreeMap get "O(log(n))".
            get(ref self, key: ref Key) ["O(log n)"];
            // collections table: BTreeMap remove "O(log(n))".
            remove(mut self, key: ref Key) ["O(log n)"];
            // No complexity stated for contains_key (only get/insert/remove/range/append are
            // in the table).
            contains_key(ref self, key: ref Key) -> bool;
            // collections table: BTreeMap range "O(log(n))" (constructing the range; the
            // iterator is dropped unconsumed).
            range_from(ref self, start: ref Key) ["O(log n)"] as "{self}.range(&{start}..)"
                => |m| m.range(start..);
            // No complexity stated; counts the entries of a range by iterating them.
            count_range(ref self, start: ref Key, end: ref Key) -> usize
                as "if {start} <= {end} { {self}.range(&{start}..&{end}).count() } else { 0 }"
                => |m| if start <= end { m.range(start..end).count() } else { 0 };
            // collections table: BTreeMap append "O(n+m)" -> O(n) in the receiver's size.
            append(mut self, other: mut BTreeMap<Key, u64>) ["O(n)"];
            // No complexity stated.
            split_off(mut self, key: ref Key) -> BTreeMap<Key, u64>;
            // No complexity stated.
            first_key_value(ref self);
            // No complexity stated.
            last_key_value(ref self);
            // No complexity stated.
            pop_first(mut self);
            // No complexity stated.
            pop_last(mut self);
            // No complexity stated.
            len(ref self) -> usize;
            // No complexity stated.
            clear(mut self);
            // BTreeMap::retain: no complexity stated ("The elements are visited in ascending
            // key order").
            retain_even(mut self) as "{self}.retain(|k, _| k.get() % 2 == 0)"
                => |m| m.retain(|k, _| k.get() % 2 == 0);
        }
        fields {}
    }

    /// An ordered set of probe keys (a B-tree).
    pub fn btree_set_key() -> BTreeSet<Key> {
        path: "BTreeSet",
        imports: ["std::collections::BTreeSet", "perfsyn_corpus::probe::Key"],
        version: None,
        size: [|s| s.len() as u64],
        ctors {
            new() => BTreeSet::new();
            from_vec(vec: val Vec<Key>) as "{vec}.into_iter().collect::<BTreeSet<Key>>()"
                => vec.into_iter().collect();
        }
        methods {
            // collections: sets cost "the equivalent Map operation"; BTreeMap insert
            // "O(log(n))".
            insert(mut self, value: val Key) -> bool ["O(log n)"];
            // collections: sets cost "the equivalent Map operation"; BTreeMap get "O(log(n))".
            contains(ref self, value: ref Key) -> bool ["O(log n)"];
            // collections: sets cost "the equivalent Map operation"; BTreeMap remove
            // "O(log(n))".
            remove(mut self, value: ref Key) -> bool ["O(log n)"];
            // collections: sets cost "the equivalent Map operation"; BTreeMap range
            // "O(log(n))" (the iterator is dropped unconsumed).
            range_from(ref self, start: ref Key) ["O(log n)"] as "{self}.range(&{start}..)"
                => |s| s.range(start..);
            // collections: sets cost "the equivalent Map operation"; BTreeMap append
            // "O(n+m)" -> O(n) in the receiver's size.
            append(mut self, other: mut BTreeSet<Key>) ["O(n)"];
            // No complexity stated.
            split_off(mut self, value: ref Key) -> BTreeSet<Key>;
            // No complexity stated.
            first(ref self);
            // No complexity stated.
            last(ref self);
            // No complexity stated.
            pop_first(mut self);
            // No complexity stated.
            pop_last(mut self);
            // No complexity stated.
            len(ref self) -> usize;
            // No complexity stated.
            clear(mut self);
            // No complexity stated.
            is_subset(ref self, other: ref BTreeSet<Key>) -> bool;
            // BTreeSet::retain: no complexity stated.
            retain_even(mut self) as "{self}.retain(|k| k.get() % 2 == 0)"
                => |s| s.retain(|k| k.get() % 2 == 0);
        }
        fields {}
    }
}
