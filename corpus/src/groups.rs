//! Version groups for the relative oracle: two registrations of one API (same `path`, same
//! method names and signatures), `old` and `new`.
//!
//! * `OrderedMap` ([`OldOrderedMap`], [`NewOrderedMap`]): a PLANTED regression. The new
//!   version's `remove` is O(n) where the old one's is O(log n). Modelled on the paper's
//!   `ListOrderedMap.remove` (bottleneck 11 of Table 3.2), reconstructed by us.
//! * `MinStack` ([`OldMinStack`], [`NewMinStack`]): a behaviour-preserving refactor with the
//!   same cost; both versions run the same code, so the relative oracle must report nothing.

use std::collections::{BTreeMap, HashMap};

use perfsyn_profiler_ipc::probe::{FixedState, Key};
use perfsyn_profiler_ipc::register_type;

/// A map that remembers insertion order, version 1: the order lives in a `BTreeMap` keyed by
/// insertion sequence numbers, so removal is O(log n).
#[derive(Debug, Clone, Default)]
pub struct OldOrderedMap {
    /// Value and insertion sequence number of each key.
    map: HashMap<Key, (u64, u64), FixedState>,
    /// Keys by insertion sequence number.
    order: BTreeMap<u64, Key>,
    next: u64,
}

impl OldOrderedMap {
    /// An empty map.
    pub fn new() -> OldOrderedMap {
        OldOrderedMap::default()
    }

    /// Inserts or updates `key`; an update keeps the key's position. O(log n).
    pub fn insert(&mut self, key: Key, value: u64) {
        if let Some(e) = self.map.get_mut(&key) {
            e.0 = value;
            return;
        }
        let seq = self.next;
        self.next += 1;
        self.order.insert(seq, key.clone());
        self.map.insert(key, (value, seq));
    }

    /// Removes `key`, returning its value. O(log n).
    pub fn remove(&mut self, key: &Key) -> Option<u64> {
        let (value, seq) = self.map.remove(key)?;
        self.order.remove(&seq);
        Some(value)
    }

    /// The value of `key`. Expected O(1).
    pub fn get(&self, key: &Key) -> Option<u64> {
        self.map.get(key).map(|e| e.0)
    }

    /// Whether `key` is present. Expected O(1).
    pub fn contains_key(&self, key: &Key) -> bool {
        self.map.contains_key(key)
    }

    /// The oldest key still present.
    pub fn oldest(&self) -> Option<&Key> {
        self.order.values().next()
    }

    /// The number of entries.
    pub fn len(&self) -> usize {
        self.map.len()
    }

    /// Whether the map is empty.
    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }
}

/// A map that remembers insertion order, version 2: "simplified" to keep the order in a
/// `Vec`, which made insertion cheaper but removal a linear search plus a shift, O(n).
/// PLANTED regression against [`OldOrderedMap`].
#[derive(Debug, Clone, Default)]
pub struct NewOrderedMap {
    map: HashMap<Key, u64, FixedState>,
    /// Keys in insertion order.
    order: Vec<Key>,
}

impl NewOrderedMap {
    /// An empty map.
    pub fn new() -> NewOrderedMap {
        NewOrderedMap::default()
    }

    /// Inserts or updates `key`; an update keeps the key's position. O(log n) (documented
    /// as in version 1; actually expected O(1) amortized).
    pub fn insert(&mut self, key: Key, value: u64) {
        if let Some(v) = self.map.get_mut(&key) {
            *v = value;
            return;
        }
        self.order.push(key.clone());
        self.map.insert(key, value);
    }

    /// Removes `key`, returning its value. O(log n) (documentation unchanged from version 1).
    ///
    /// PLANTED: a linear search for the key in the order list and a shift, O(n).
    pub fn remove(&mut self, key: &Key) -> Option<u64> {
        let value = self.map.remove(key)?;
        if let Some(i) = self.order.iter().position(|k| k == key) {
            self.order.remove(i);
        }
        Some(value)
    }

    /// The value of `key`. Expected O(1).
    pub fn get(&self, key: &Key) -> Option<u64> {
        self.map.get(key).copied()
    }

    /// Whether `key` is present. Expected O(1).
    pub fn contains_key(&self, key: &Key) -> bool {
        self.map.contains_key(key)
    }

    /// The oldest key still present.
    pub fn oldest(&self) -> Option<&Key> {
        self.order.first()
    }

    /// The number of entries.
    pub fn len(&self) -> usize {
        self.map.len()
    }

    /// Whether the map is empty.
    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }
}

/// Declares a min-stack type; both versions of the `MinStack` group expand from this one
/// body, so they are identical in behaviour and cost by construction.
macro_rules! min_stack {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Default)]
        pub struct $name {
            items: Vec<Key>,
            /// The running minima: `mins.last()` is the minimum of `items`.
            mins: Vec<Key>,
        }

        impl $name {
            /// An empty stack.
            pub fn new() -> $name {
                $name::default()
            }

            /// Pushes `value`. O(1) amortized.
            pub fn push(&mut self, value: Key) {
                if self.mins.last().is_none_or(|m| value <= *m) {
                    self.mins.push(value.clone());
                }
                self.items.push(value);
            }

            /// Pops the top value. O(1).
            pub fn pop(&mut self) -> Option<Key> {
                let v = self.items.pop()?;
                if self.mins.last() == Some(&v) {
                    self.mins.pop();
                }
                Some(v)
            }

            /// The top value. O(1).
            pub fn peek(&self) -> Option<&Key> {
                self.items.last()
            }

            /// The smallest value. O(1).
            pub fn min(&self) -> Option<&Key> {
                self.mins.last()
            }

            /// The number of values. O(1).
            pub fn len(&self) -> usize {
                self.items.len()
            }

            /// Whether the stack is empty. O(1).
            pub fn is_empty(&self) -> bool {
                self.items.is_empty()
            }
        }
    };
}

min_stack! {
    /// A stack with O(1) minimum, version 1.
    OldMinStack
}

min_stack! {
    /// A stack with O(1) minimum, version 2: a behaviour-preserving refactor (same code).
    NewMinStack
}

register_type! {
    /// Insertion-ordered map, old version: remove is O(log n).
    pub fn ordered_map_v1() -> OldOrderedMap {
        path: "OrderedMap",
        imports: ["perfsyn_corpus::groups::OldOrderedMap"],
        version: Some(("OrderedMap", "old")),
        size: [|m| m.len() as u64],
        ctors {
            new() as "OldOrderedMap::new()" => OldOrderedMap::new();
        }
        methods {
            // Documented "O(log n)"; it is.
            insert(mut self, key: val Key, value: copy u64) ["O(log n)"];
            // Documented "O(log n)"; it is.
            remove(mut self, key: ref Key) ["O(log n)"];
            // Documented "Expected O(1)"; it is.
            get(ref self, key: ref Key) ["O(1)"];
            // Documented "Expected O(1)"; it is.
            contains_key(ref self, key: ref Key) -> bool ["O(1)"];
            // No complexity documented.
            oldest(ref self);
            // No complexity documented.
            len(ref self) -> usize;
        }
        fields {}
    }

    /// Insertion-ordered map, new version: PLANTED regression, remove is O(n).
    pub fn ordered_map_v2() -> NewOrderedMap {
        path: "OrderedMap",
        imports: ["perfsyn_corpus::groups::NewOrderedMap"],
        version: Some(("OrderedMap", "new")),
        size: [|m| m.len() as u64],
        ctors {
            new() as "NewOrderedMap::new()" => NewOrderedMap::new();
        }
        methods {
            // Documented "O(log n)"; actually expected O(1) amortized.
            insert(mut self, key: val Key, value: copy u64) ["O(log n)"];
            // Documented "O(log n)"; PLANTED: O(n).
            remove(mut self, key: ref Key) ["O(log n)"];
            // Documented "Expected O(1)"; it is.
            get(ref self, key: ref Key) ["O(1)"];
            // Documented "Expected O(1)"; it is.
            contains_key(ref self, key: ref Key) -> bool ["O(1)"];
            // No complexity documented.
            oldest(ref self);
            // No complexity documented.
            len(ref self) -> usize;
        }
        fields {}
    }

    /// Stack with O(1) minimum, old version.
    pub fn min_stack_v1() -> OldMinStack {
        path: "MinStack",
        imports: ["perfsyn_corpus::groups::OldMinStack"],
        version: Some(("MinStack", "old")),
        size: [|s| s.len() as u64],
        ctors {
            new() as "OldMinStack::new()" => OldMinStack::new();
        }
        methods {
            // Documented "O(1) amortized".
            push(mut self, value: val Key) ["O(1)"];
            // Documented "O(1)".
            pop(mut self) ["O(1)"];
            // Documented "O(1)".
            peek(ref self) ["O(1)"];
            // Documented "O(1)".
            min(ref self) ["O(1)"];
            // Documented "O(1)".
            len(ref self) -> usize ["O(1)"];
        }
        fields {}
    }

    /// Stack with O(1) minimum, new version (same code as the old one).
    pub fn min_stack_v2() -> NewMinStack {
        path: "MinStack",
        imports: ["perfsyn_corpus::groups::NewMinStack"],
        version: Some(("MinStack", "new")),
        size: [|s| s.len() as u64],
        ctors {
            new() as "NewMinStack::new()" => NewMinStack::new();
        }
        methods {
            // Documented "O(1) amortized".
            push(mut self, value: val Key) ["O(1)"];
            // Documented "O(1)".
            pop(mut self) ["O(1)"];
            // Documented "O(1)".
            peek(ref self) ["O(1)"];
            // Documented "O(1)".
            min(ref self) ["O(1)"];
            // Documented "O(1)".
            len(ref self) -> usize ["O(1)"];
        }
        fields {}
    }
}
