//! Rust miniatures of the 22 bottlenecks of Table 3.2 of the PerfSyn chapter
//! (`../shared/seeds/003_…`, section 3.4), so that `perfsyn suite` can measure how many of
//! them our search exposes, and how fast.
//!
//! IDs 1-19 are version groups (`old` = the earlier version, `new` = the later one): each
//! group is one generic struct over a [`Version`] marker, so both versions share every line
//! except the changed method, which branches on [`Version::NEW`] to show old and new side by
//! side. IDs 20-22 are single types whose method is documented O(1) and is O(n); ID 20 is
//! [`EnumeratedDistribution`](crate::planted::EnumeratedDistribution), registered in
//! `planted.rs` and not repeated here.
//!
//! The paper describes the change for IDs 1, 7 (only that the later version is the fix), 9,
//! 11 and 20, and notes on 14, 16 and 17; everything else is our reconstruction from the
//! method's name, the direction (+ faster, - slower in the new version) and the size of the
//! effect. Each type's doc comment says which parts come from the paper and which are ours.
//! Elements are probe [`Key`]s (the paper's `String`s and `Object`s); Java's exceptions on
//! out-of-range indices become clamping, so that synthesized programs stay valid.
//!
//! | ID | Java method | here | effect in the paper |
//! |----|-------------|------|---------------------|
//! | 1 | `ArrayUtils.removeAll` | [`ArrayUtils::remove_all`] | -1.85x |
//! | 2 | `ArrayUtils.removeElements` | [`ArrayUtils::remove_elements`] | +1.68x |
//! | 3 | `ArrayUtils.indexOf` | [`ArrayUtils::index_of`] | +1.23x |
//! | 4 | `ArrayUtils.isNotEmpty` | [`ArrayUtils::is_not_empty`] | -1.67x |
//! | 5 | `ArrayUtils.isSameLength` | [`ArrayUtils::is_same_length`] | +1.40x |
//! | 6 | `CharSetUtils.squeeze` | [`CharSetUtils::squeeze`] | +1.75x |
//! | 7 | `StringUtils.getLevenshteinDistance` | [`StringUtils::levenshtein`] | +79.95x |
//! | 8 | `IdentityStack.containsAll` | [`IdentityStack::contains_all`] | -40.91x |
//! | 9 | `IdentityStack.removeAll` | [`IdentityStack::remove_all`] | -6360x |
//! | 10 | `IdentityStack.retainAll` | [`IdentityStack::retain_all`] | -6360x |
//! | 11 | `ListOrderedMap.remove` | [`ListOrderedMap::remove`] | -1.44x (A*), +2.37x (ACO) |
//! | 12 | `ListOrderedSet.addAll` | [`ListOrderedSet::add_all`] | +1.37x |
//! | 13 | `ListOrderedSet.addAll(int, ...)` | [`ListOrderedSet::add_all_at`] | -1.42x |
//! | 14 | `ListOrderedSet.toArray` | [`ListOrderedSet::to_array`] | +2.60x |
//! | 15 | `ListOrderedSet.remove` | [`ListOrderedSet::remove`] | +1.75x |
//! | 16 | `VectorSet.addAll` | [`VectorSet::add_all`] | -1.22x |
//! | 17 | `VectorSet.clone` | [`VectorSet`]'s `Clone` | +1.22x |
//! | 18 | `TreeList.addAll` | [`TreeList::add_all`] | +6.18x |
//! | 19 | `TreeList.addAll(int, ...)` | [`TreeList::add_all_at`] | +1.51x |
//! | 20 | `EnumIntDist.probability` | `planted::EnumeratedDistribution::probability` | O(n), documented O(1) |
//! | 21 | `NavigableMap.isEmpty` | [`FilteredNavigableMap::is_empty`] | O(n), documented O(1) |
//! | 22 | `Sets.powerSet` | [`Sets::power_set`] | O(n), documented O(1) |

use std::any::Any;
use std::cmp::Ordering;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::hint::black_box;
use std::marker::PhantomData;

use perfsyn_profiler_ipc::probe::{FixedState, Key};
use perfsyn_profiler_ipc::register_type;

/// Which version of a group a type is: the earlier (`Old`) or the later (`New`) one.
pub trait Version: Copy + Default + std::fmt::Debug + 'static {
    /// True for the later version.
    const NEW: bool;
}

/// The earlier version of a group.
#[derive(Clone, Copy, Debug, Default)]
pub struct Old;

/// The later version of a group.
#[derive(Clone, Copy, Debug, Default)]
pub struct New;

impl Version for Old {
    const NEW: bool = false;
}

impl Version for New {
    const NEW: bool = true;
}

/// A list of array indices: the `int... indices` argument of `ArrayUtils.removeAll`.
#[derive(Debug, Clone, Default)]
pub struct Indices(pub Vec<usize>);

impl Indices {
    /// No indices.
    pub fn new() -> Indices {
        Indices::default()
    }

    /// Appends index `i`.
    pub fn push(&mut self, i: usize) {
        self.0.push(i);
    }

    /// The number of indices.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether there is no index.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

// ---------------------------------------------------------------------------------------
// IDs 1-5: Commons Lang ArrayUtils.

/// Commons Lang's `ArrayUtils` over one array of keys (the receiver is the array the static
/// Java methods take first), IDs 1-5 of Table 3.2.
#[derive(Debug, Clone, Default)]
pub struct ArrayUtils<V> {
    items: Vec<Key>,
    _v: PhantomData<V>,
}

/// The earlier `ArrayUtils`.
pub type OldArrayUtils = ArrayUtils<Old>;
/// The later `ArrayUtils`.
pub type NewArrayUtils = ArrayUtils<New>;

impl<V: Version> ArrayUtils<V> {
    /// An empty array.
    pub fn new() -> Self {
        Self::default()
    }

    /// Appends `x` (`ArrayUtils.add`).
    pub fn push(&mut self, x: Key) {
        self.items.push(x);
    }

    /// Removes the last element (`ArrayUtils.removeLast`-like).
    pub fn pop(&mut self) -> Option<Key> {
        self.items.pop()
    }

    /// The number of elements.
    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// Whether the array is empty.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// ID 1, `removeAll(array, int... indices)`: removes the elements at `indices`
    /// (out-of-range indices are ignored where Java throws).
    ///
    /// From the paper: the later version "copies and sorts the second parameter", calls that
    /// "are only necessary when the second argument is a non-empty array", and the slowdown
    /// does not depend on the first argument. As in Commons Lang 3.3 -> 3.4, the earlier
    /// version sorts the caller's indices in place and only when there are any; the later
    /// one clones them and sorts the clone before looking at them.
    pub fn remove_all(&mut self, indices: &mut Indices) {
        if V::NEW {
            let mut cloned = indices.0.clone();
            cloned.sort_unstable();
            if !cloned.is_empty() {
                self.remove_sorted(&cloned);
            }
        } else if !indices.is_empty() {
            indices.0.sort_unstable();
            self.remove_sorted(&indices.0);
        }
    }

    fn remove_sorted(&mut self, sorted: &[usize]) {
        let mut j = 0;
        let old = std::mem::take(&mut self.items);
        for (i, x) in old.into_iter().enumerate() {
            while j < sorted.len() && sorted[j] < i {
                j += 1;
            }
            if j < sorted.len() && sorted[j] == i {
                continue;
            }
            self.items.push(x);
        }
    }

    /// ID 2, `removeElements(array, values...)`: removes one occurrence of each value.
    ///
    /// Reconstructed (the paper gives +1.68x after 31 mutations): the earlier version looks
    /// each value up with a linear `indexOf` from the start, O(n·m); the later one counts the
    /// values in a hash map and makes one pass, O(n + m).
    pub fn remove_elements(&mut self, values: &[Key]) {
        let n = self.items.len();
        let mut remove = vec![false; n];
        if V::NEW {
            let mut counts: HashMap<&Key, usize, FixedState> = HashMap::default();
            for v in values {
                *counts.entry(v).or_insert(0) += 1;
            }
            for (i, x) in self.items.iter().enumerate() {
                if let Some(c) = counts.get_mut(x) {
                    if *c > 0 {
                        *c -= 1;
                        remove[i] = true;
                    }
                }
            }
        } else {
            for v in values {
                if let Some(i) = (0..n).find(|&i| !remove[i] && self.items[i] == *v) {
                    remove[i] = true;
                }
            }
        }
        let old = std::mem::take(&mut self.items);
        self.items = old
            .into_iter()
            .zip(remove)
            .filter_map(|(x, r)| (!r).then_some(x))
            .collect();
    }

    /// ID 3, `indexOf(array, value)`: the first index of `x`.
    ///
    /// Reconstructed (+1.23x after one mutation, a constant factor per element): the earlier
    /// version compares each element through the null-safe `ObjectUtils.equals(a, b)`
    /// (identity, then null checks, then `equals`); the later one calls `equals` directly.
    pub fn index_of(&self, x: &Key) -> Option<usize> {
        if V::NEW {
            self.items.iter().position(|e| e == x)
        } else {
            self.items
                .iter()
                .position(|e| object_equals(Some(e), Some(x)))
        }
    }

    /// ID 4, `isNotEmpty(array)`.
    ///
    /// Reconstructed (-1.67x after one mutation, a constant): the later version is written
    /// as `!isEmpty(array)`, which goes through the generic `getLength(Object)` (reflection in
    /// Java; a dynamic type test here); the earlier one reads the length directly.
    pub fn is_not_empty(&self) -> bool {
        if V::NEW {
            !is_empty_any(black_box(&self.items))
        } else {
            !self.items.is_empty()
        }
    }

    /// ID 5, `isSameLength(array1, array2)`.
    ///
    /// Reconstructed (+1.40x after one mutation): the earlier version spells out Java's
    /// null-and-empty cases one by one (a null array counts as empty); the later one compares
    /// the two lengths.
    pub fn is_same_length(&self, other: &[Key]) -> bool {
        let (a, b) = (black_box(self.items.len()), black_box(other.len()));
        if V::NEW {
            a == b
        } else {
            let a_empty = black_box(a == 0);
            let b_empty = black_box(b == 0);
            if a_empty && !b_empty {
                return false;
            }
            if b_empty && !a_empty {
                return false;
            }
            if !a_empty && !b_empty && black_box(a != b) {
                return false;
            }
            true
        }
    }
}

/// `ArrayUtils.getLength(Object) == 0`: the length of an array of unknown type.
fn is_empty_any(a: &dyn Any) -> bool {
    get_length(a) == 0
}

/// Java's `Array.getLength`: the component type is tested before the length is read
/// (primitive arrays first, then object arrays).
fn get_length(a: &dyn Any) -> usize {
    if let Some(v) = a.downcast_ref::<Vec<bool>>() {
        v.len()
    } else if let Some(v) = a.downcast_ref::<Vec<char>>() {
        v.len()
    } else if let Some(v) = a.downcast_ref::<Vec<u8>>() {
        v.len()
    } else if let Some(v) = a.downcast_ref::<Vec<u32>>() {
        v.len()
    } else if let Some(v) = a.downcast_ref::<Vec<u64>>() {
        v.len()
    } else if let Some(v) = a.downcast_ref::<Vec<i64>>() {
        v.len()
    } else if let Some(v) = a.downcast_ref::<Vec<Key>>() {
        v.len()
    } else {
        0
    }
}

/// Commons Lang's `ObjectUtils.equals(a, b)`: identity, then nulls, then `equals`.
#[inline(never)]
fn object_equals(a: Option<&Key>, b: Option<&Key>) -> bool {
    match (black_box(a), black_box(b)) {
        (Some(a), Some(b)) if std::ptr::eq(a, b) => true,
        (None, None) => true,
        (Some(a), Some(b)) => a == b,
        _ => false,
    }
}

// ---------------------------------------------------------------------------------------
// ID 6: Commons Lang CharSetUtils.squeeze.

/// Commons Lang's `CharSetUtils.squeeze(str, set)` with the set as the receiver, ID 6.
///
/// Reconstructed (+1.75x after 14 mutations), after Commons Lang 3.6: squeezing replaces runs
/// of a repeated character that is in the set by one character. The set is a list of
/// characters, so `contains` is a linear scan like `CharSet`'s list of ranges. The earlier
/// version asks the set for every repeated character; the later one remembers the last
/// character found in (or not in) the set and asks only when the character changes.
#[derive(Debug, Clone, Default)]
pub struct CharSetUtils<V> {
    set: Vec<char>,
    _v: PhantomData<V>,
}

/// The earlier `CharSetUtils`.
pub type OldCharSetUtils = CharSetUtils<Old>;
/// The later `CharSetUtils`.
pub type NewCharSetUtils = CharSetUtils<New>;

impl<V: Version> CharSetUtils<V> {
    /// An empty set.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds `c` to the set.
    pub fn add(&mut self, c: char) {
        self.set.push(c);
    }

    /// The number of characters in the set.
    pub fn len(&self) -> usize {
        self.set.len()
    }

    /// Whether the set is empty.
    pub fn is_empty(&self) -> bool {
        self.set.is_empty()
    }

    fn contains(&self, c: char) -> bool {
        self.set.contains(&c)
    }

    /// ID 6: `s` with runs of a repeated character of the set squeezed to one.
    pub fn squeeze(&self, s: &str) -> String {
        if s.is_empty() || self.set.is_empty() {
            return s.to_string();
        }
        let mut out = String::with_capacity(s.len());
        let mut last: Option<char> = None;
        let (mut in_chars, mut not_in_chars): (Option<char>, Option<char>) = (None, None);
        for ch in s.chars() {
            if Some(ch) == last {
                if V::NEW {
                    if in_chars == Some(ch) {
                        continue;
                    }
                    if not_in_chars != Some(ch) {
                        if self.contains(ch) {
                            in_chars = Some(ch);
                            continue;
                        }
                        not_in_chars = Some(ch);
                    }
                } else if self.contains(ch) {
                    continue;
                }
            }
            out.push(ch);
            last = Some(ch);
        }
        out
    }
}

// ---------------------------------------------------------------------------------------
// ID 7: Commons Lang StringUtils.getLevenshteinDistance.

/// Commons Lang's `StringUtils.getLevenshteinDistance`, ID 7.
///
/// From the paper: the bottleneck was known and the later version contains the fix (+79.95x
/// in evaluated conditionals). The fix itself is from Commons Lang's history (LANG-?; the
/// 2.x versions): the earlier version fills the whole (n+1)×(m+1) matrix, allocating a row per
/// character; the later one keeps only two rows, swapped, over the shorter string.
#[derive(Debug, Clone, Default)]
pub struct StringUtils<V> {
    _v: PhantomData<V>,
}

/// The earlier `StringUtils`.
pub type OldStringUtils = StringUtils<Old>;
/// The later `StringUtils`.
pub type NewStringUtils = StringUtils<New>;

impl<V: Version> StringUtils<V> {
    /// The (stateless) utility class.
    pub fn new() -> Self {
        Self::default()
    }

    /// ID 7: the edit distance between `s` and `t`.
    pub fn levenshtein(&self, s: &str, t: &str) -> usize {
        let mut s: Vec<char> = s.chars().collect();
        let mut t: Vec<char> = t.chars().collect();
        if s.is_empty() {
            return t.len();
        }
        if t.is_empty() {
            return s.len();
        }
        if V::NEW {
            if s.len() > t.len() {
                std::mem::swap(&mut s, &mut t);
            }
            let (n, m) = (s.len(), t.len());
            let mut p: Vec<usize> = (0..=n).collect();
            let mut d = vec![0usize; n + 1];
            for j in 1..=m {
                d[0] = j;
                for i in 1..=n {
                    let cost = usize::from(s[i - 1] != t[j - 1]);
                    d[i] = (d[i - 1] + 1).min(p[i] + 1).min(p[i - 1] + cost);
                }
                std::mem::swap(&mut p, &mut d);
            }
            p[n]
        } else {
            let (n, m) = (s.len(), t.len());
            let mut d: Vec<Vec<usize>> = Vec::new();
            for i in 0..=n {
                let mut row = Vec::new();
                for j in 0..=m {
                    row.push(if i == 0 {
                        j
                    } else if j == 0 {
                        i
                    } else {
                        0
                    });
                }
                d.push(row);
            }
            for i in 1..=n {
                for j in 1..=m {
                    let cost = if s[i - 1] == t[j - 1] { 0 } else { 1 };
                    d[i][j] = min3(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
                }
            }
            d[n][m]
        }
    }
}

/// The earlier version's `min(int, int, int)` helper.
#[inline(never)]
fn min3(a: usize, b: usize, c: usize) -> usize {
    let mut m = a;
    if b < m {
        m = b;
    }
    if c < m {
        m = c;
    }
    m
}

// ---------------------------------------------------------------------------------------
// IDs 8-10: Ant IdentityStack.

/// Ant's `IdentityStack` (a `Stack` compared by identity; by equality here), IDs 8-10.
///
/// From the paper (ID 9): "the older version of IdentityStack.removeAll does not execute any
/// code because the collection is empty. However, the newer version of the method first
/// creates a useless instance of a HashSet and then needlessly adds to this newly created set
/// multiple elements supposed to be removed from the empty collection". Ported exactly, and
/// reconstructed the same way for `retainAll` (ID 10, the same -6360x) and for `containsAll`
/// (ID 8, -40.91x: the later version first puts every element of the stack into an identity
/// map, the earlier one asks `contains` once per element of the argument).
#[derive(Debug, Clone, Default)]
pub struct IdentityStack<V> {
    items: Vec<Key>,
    _v: PhantomData<V>,
}

/// The earlier `IdentityStack`.
pub type OldIdentityStack = IdentityStack<Old>;
/// The later `IdentityStack`.
pub type NewIdentityStack = IdentityStack<New>;

impl<V: Version> IdentityStack<V> {
    /// An empty stack.
    pub fn new() -> Self {
        Self::default()
    }

    /// Pushes `x`.
    pub fn push(&mut self, x: Key) {
        self.items.push(x);
    }

    /// Pops the top element.
    pub fn pop(&mut self) -> Option<Key> {
        self.items.pop()
    }

    /// The number of elements.
    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// Whether the stack is empty.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// Whether `x` is on the stack (a linear scan).
    pub fn contains(&self, x: &Key) -> bool {
        self.items.contains(x)
    }

    /// ID 8: whether every element of `c` is on the stack.
    pub fn contains_all(&self, c: &[Key]) -> bool {
        if V::NEW {
            let map: HashSet<&Key, FixedState> = self.items.iter().collect();
            c.iter().all(|x| map.contains(x))
        } else {
            c.iter().all(|x| self.contains(x))
        }
    }

    /// ID 9: removes every element that is in `c`; whether any was removed.
    pub fn remove_all(&mut self, c: &[Key]) -> bool {
        let before = self.items.len();
        if V::NEW {
            let set: HashSet<Key, FixedState> = c.iter().cloned().collect();
            self.items.retain(|x| !set.contains(x));
        } else {
            self.items.retain(|x| !c.contains(x));
        }
        self.items.len() != before
    }

    /// ID 10: keeps only the elements that are in `c`; whether any was removed.
    pub fn retain_all(&mut self, c: &[Key]) -> bool {
        let before = self.items.len();
        if V::NEW {
            let set: HashSet<Key, FixedState> = c.iter().cloned().collect();
            self.items.retain(|x| set.contains(x));
        } else {
            self.items.retain(|x| c.contains(x));
        }
        self.items.len() != before
    }
}

// ---------------------------------------------------------------------------------------
// ID 11: Commons Collections ListOrderedMap.remove.

/// Commons Collections' `ListOrderedMap` (a hash map plus a list of keys in insertion order),
/// ID 11.
///
/// From the paper, ported exactly: "the implementation of the faster version of remove
/// performs a containment check before removing the element to save time when the
/// collection is nonempty and when it does not contain the element. A previous version the
/// method did not contain this optimization." The earlier version removes from the map and
/// then always removes the key from the list (a linear search); the later one checks
/// `containsKey` first. Removing a present key is therefore slightly slower in the later
/// version (A*'s -1.44x), removing an absent one much faster (ACO's +2.37x).
#[derive(Debug, Clone, Default)]
pub struct ListOrderedMap<V> {
    map: HashMap<Key, u64, FixedState>,
    order: Vec<Key>,
    _v: PhantomData<V>,
}

/// The earlier `ListOrderedMap`.
pub type OldListOrderedMap = ListOrderedMap<Old>;
/// The later `ListOrderedMap`.
pub type NewListOrderedMap = ListOrderedMap<New>;

impl<V: Version> ListOrderedMap<V> {
    /// An empty map.
    pub fn new() -> Self {
        Self::default()
    }

    /// Inserts or updates `key`; an update keeps the key's position.
    pub fn put(&mut self, key: Key, value: u64) {
        if let Some(v) = self.map.get_mut(&key) {
            *v = value;
            return;
        }
        self.order.push(key.clone());
        self.map.insert(key, value);
    }

    /// The value of `key`.
    pub fn get(&self, key: &Key) -> Option<u64> {
        self.map.get(key).copied()
    }

    /// ID 11: removes `key`, returning its value.
    pub fn remove(&mut self, key: &Key) -> Option<u64> {
        if V::NEW {
            if !self.map.contains_key(key) {
                return None;
            }
            let v = self.map.remove(key);
            list_remove(&mut self.order, key);
            v
        } else {
            let v = self.map.remove(key);
            list_remove(&mut self.order, key);
            v
        }
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

/// Java's `List.remove(Object)`: a linear search, then a shift.
fn list_remove(list: &mut Vec<Key>, x: &Key) -> bool {
    match list.iter().position(|k| k == x) {
        Some(i) => {
            list.remove(i);
            true
        }
        None => false,
    }
}

// ---------------------------------------------------------------------------------------
// IDs 12-15: Commons Collections ListOrderedSet.

/// Commons Collections' `ListOrderedSet` (a hash set plus a list in insertion order),
/// IDs 12-15.
///
/// * ID 12 `addAll` (+1.37x), reconstructed: the earlier version asks `contains` and then
///   `add`s, two hash lookups per element; the later one uses the result of `add`.
/// * ID 13 `addAll(index, coll)` (-1.42x after one mutation), reconstructed after Commons
///   Collections 4.0: the later version collects the new elements in a temporary list "for
///   performance reasons" and inserts them into the order list in one go; the earlier one
///   inserts each at its index. The temporary list costs more than it saves on small inputs.
/// * ID 14 `toArray` (+2.60x; the paper notes the time difference of this short method is
///   not significant), reconstructed: the earlier version copies through the set's ordered
///   iterator, which tracks the last element returned, into a growing array; the later one
///   copies the order list in bulk.
/// * ID 15 `remove` (+1.75x, found by ACO only), reconstructed like ID 11: the earlier version
///   always removes the element from the order list (a linear search), the later one only
///   when the set contained it.
#[derive(Debug, Clone, Default)]
pub struct ListOrderedSet<V> {
    set: HashSet<Key, FixedState>,
    order: Vec<Key>,
    _v: PhantomData<V>,
}

/// The earlier `ListOrderedSet`.
pub type OldListOrderedSet = ListOrderedSet<Old>;
/// The later `ListOrderedSet`.
pub type NewListOrderedSet = ListOrderedSet<New>;

impl<V: Version> ListOrderedSet<V> {
    /// An empty set.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds `x` at the end; false if present.
    pub fn add(&mut self, x: Key) -> bool {
        if self.set.insert(x.clone()) {
            self.order.push(x);
            true
        } else {
            false
        }
    }

    /// The number of elements.
    pub fn len(&self) -> usize {
        self.order.len()
    }

    /// Whether the set is empty.
    pub fn is_empty(&self) -> bool {
        self.order.is_empty()
    }

    /// ID 12: adds every element of `c` not yet present, at the end.
    pub fn add_all(&mut self, c: &[Key]) -> bool {
        let mut changed = false;
        for x in c {
            if V::NEW {
                if self.set.insert(x.clone()) {
                    self.order.push(x.clone());
                    changed = true;
                }
            } else if !self.set.contains(x) {
                self.set.insert(x.clone());
                self.order.push(x.clone());
                changed = true;
            }
        }
        changed
    }

    /// ID 13: adds every element of `c` not yet present, at `index` (clamped to the length).
    pub fn add_all_at(&mut self, index: usize, c: &[Key]) -> bool {
        let mut index = index.min(self.order.len());
        let mut changed = false;
        if V::NEW {
            let mut to_add = Vec::new();
            for x in c {
                if self.set.contains(x) {
                    continue;
                }
                self.set.insert(x.clone());
                to_add.push(x.clone());
                changed = true;
            }
            if changed {
                self.order.splice(index..index, to_add);
            }
        } else {
            for x in c {
                if self.set.insert(x.clone()) {
                    self.order.insert(index, x.clone());
                    index += 1;
                    changed = true;
                }
            }
        }
        changed
    }

    /// ID 14: the elements in order, as a new array.
    pub fn to_array(&self) -> Vec<Key> {
        if V::NEW {
            self.order.to_vec()
        } else {
            let mut out = Vec::new();
            let mut last: Option<usize> = None;
            for (i, x) in self.order.iter().enumerate() {
                last = black_box(Some(i));
                out.push(x.clone());
            }
            black_box(last);
            out
        }
    }

    /// ID 15: removes `x`; whether it was present.
    pub fn remove(&mut self, x: &Key) -> bool {
        let removed = self.set.remove(x);
        if V::NEW {
            if removed {
                list_remove(&mut self.order, x);
            }
        } else {
            list_remove(&mut self.order, x);
        }
        removed
    }
}

// ---------------------------------------------------------------------------------------
// IDs 16-17: Ant VectorSet.

/// Ant's `VectorSet` (a `Vector` that keeps a `HashSet` of its elements), IDs 16-17.
///
/// * ID 16 `addAll` (-1.22x; from the paper: "applying a change supposed to be an
///   optimization is not beneficial for a usage scenario"), the change reconstructed: the
///   later version first collects the new elements in a temporary list so that it can grow
///   the vector once (`ensureCapacity`) and copy them in bulk; the earlier one appends each
///   new element directly. The temporary list is pure overhead when the vector's amortized
///   growth was already cheap, which is the usual case.
/// * ID 17 `clone` (+1.22x; the paper notes the time difference of this short method is not
///   significant), reconstructed: the earlier version clones the vector and rebuilds the hash
///   set by adding every element again (hashing each); the later one clones the set's table.
#[derive(Debug, Default)]
pub struct VectorSet<V> {
    items: Vec<Key>,
    set: HashSet<Key, FixedState>,
    _v: PhantomData<V>,
}

/// The earlier `VectorSet`.
pub type OldVectorSet = VectorSet<Old>;
/// The later `VectorSet`.
pub type NewVectorSet = VectorSet<New>;

impl<V: Version> Clone for VectorSet<V> {
    /// ID 17.
    fn clone(&self) -> Self {
        let items = self.items.clone();
        let set = if V::NEW {
            self.set.clone()
        } else {
            let mut set = HashSet::default();
            for x in &items {
                set.insert(x.clone());
            }
            set
        };
        VectorSet {
            items,
            set,
            _v: PhantomData,
        }
    }
}

impl<V: Version> VectorSet<V> {
    /// An empty set.
    pub fn new() -> Self {
        Self::default()
    }

    /// Appends `x` if absent; whether it was added.
    pub fn add(&mut self, x: Key) -> bool {
        if self.set.insert(x.clone()) {
            self.items.push(x);
            true
        } else {
            false
        }
    }

    /// Whether `x` is present.
    pub fn contains(&self, x: &Key) -> bool {
        self.set.contains(x)
    }

    /// The number of elements.
    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// Whether the set is empty.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// ID 16: appends every element of `c` not yet present.
    pub fn add_all(&mut self, c: &[Key]) -> bool {
        if V::NEW {
            let mut to_add = Vec::new();
            for x in c {
                if self.set.insert(x.clone()) {
                    to_add.push(x.clone());
                }
            }
            if to_add.is_empty() {
                return false;
            }
            self.items.reserve(to_add.len());
            self.items.append(&mut to_add);
            true
        } else {
            let mut changed = false;
            for x in c {
                if self.set.insert(x.clone()) {
                    self.items.push(x.clone());
                    changed = true;
                }
            }
            changed
        }
    }
}

// ---------------------------------------------------------------------------------------
// IDs 18-19: Commons Collections TreeList.

/// Commons Collections' `TreeList`: a list stored in an AVL tree indexed by position,
/// IDs 18-19.
///
/// * ID 18 `addAll` (+6.18x after one mutation), from Commons Collections 4.1's history (our
///   reading, not the paper's text): the earlier version inserts the elements one at a time,
///   O(m log(n + m)); the later one builds a balanced tree of the argument in O(m) and joins
///   it to the list's tree in O(log n).
/// * ID 19 `addAll(index, coll)` (+1.51x, found by ACO only), reconstructed the same way: the
///   earlier version inserts one element after the other at `index` (the `AbstractList`
///   default); the later one splits the tree at `index`, builds the argument's tree, and
///   joins the three.
#[derive(Debug, Clone, Default)]
pub struct TreeList<V> {
    root: Tree,
    _v: PhantomData<V>,
}

/// The earlier `TreeList`.
pub type OldTreeList = TreeList<Old>;
/// The later `TreeList`.
pub type NewTreeList = TreeList<New>;

impl<V: Version> TreeList<V> {
    /// An empty list.
    pub fn new() -> Self {
        Self::default()
    }

    /// Appends `x`. O(log n).
    pub fn add(&mut self, x: Key) {
        let n = size(&self.root);
        self.root = Some(insert_at(self.root.take(), n, x));
    }

    /// Inserts `x` at `index` (clamped to the length). O(log n).
    pub fn insert(&mut self, index: usize, x: Key) {
        let i = index.min(size(&self.root));
        self.root = Some(insert_at(self.root.take(), i, x));
    }

    /// The element at `index`, if any. O(log n).
    pub fn get(&self, index: usize) -> Option<&Key> {
        let mut cur = self.root.as_deref();
        let mut i = index;
        while let Some(n) = cur {
            let ls = size(&n.left);
            match i.cmp(&ls) {
                Ordering::Less => cur = n.left.as_deref(),
                Ordering::Equal => return Some(&n.val),
                Ordering::Greater => {
                    i -= ls + 1;
                    cur = n.right.as_deref();
                }
            }
        }
        None
    }

    /// The number of elements.
    pub fn len(&self) -> usize {
        size(&self.root)
    }

    /// Whether the list is empty.
    pub fn is_empty(&self) -> bool {
        self.root.is_none()
    }

    /// ID 18: appends every element of `c`.
    pub fn add_all(&mut self, c: &[Key]) {
        if V::NEW {
            self.root = concat(self.root.take(), build(c));
        } else {
            for x in c {
                self.add(x.clone());
            }
        }
    }

    /// ID 19: inserts the elements of `c` at `index` (clamped to the length).
    pub fn add_all_at(&mut self, index: usize, c: &[Key]) {
        let mut i = index.min(size(&self.root));
        if V::NEW {
            let (l, r) = split(self.root.take(), i);
            self.root = concat(concat(l, build(c)), r);
        } else {
            for x in c {
                self.insert(i, x.clone());
                i += 1;
            }
        }
    }

    /// The elements in order (for tests).
    pub fn to_vec(&self) -> Vec<Key> {
        fn walk(t: &Tree, out: &mut Vec<Key>) {
            if let Some(n) = t {
                walk(&n.left, out);
                out.push(n.val.clone());
                walk(&n.right, out);
            }
        }
        let mut out = Vec::new();
        walk(&self.root, &mut out);
        out
    }
}

type Tree = Option<Box<AvlNode>>;

/// A node of [`TreeList`]'s AVL tree, with its subtree's height and size.
#[derive(Debug, Clone)]
pub struct AvlNode {
    val: Key,
    left: Tree,
    right: Tree,
    height: u32,
    size: usize,
}

fn height(t: &Tree) -> u32 {
    t.as_ref().map_or(0, |n| n.height)
}

fn size(t: &Tree) -> usize {
    t.as_ref().map_or(0, |n| n.size)
}

fn leaf(val: Key) -> Box<AvlNode> {
    Box::new(AvlNode {
        val,
        left: None,
        right: None,
        height: 1,
        size: 1,
    })
}

fn update(n: &mut AvlNode) {
    n.height = 1 + height(&n.left).max(height(&n.right));
    n.size = 1 + size(&n.left) + size(&n.right);
}

fn rotate_right(mut n: Box<AvlNode>) -> Box<AvlNode> {
    let mut l = n.left.take().expect("left child");
    n.left = l.right.take();
    update(&mut n);
    l.right = Some(n);
    update(&mut l);
    l
}

fn rotate_left(mut n: Box<AvlNode>) -> Box<AvlNode> {
    let mut r = n.right.take().expect("right child");
    n.right = r.left.take();
    update(&mut n);
    r.left = Some(n);
    update(&mut r);
    r
}

fn balance(mut n: Box<AvlNode>) -> Box<AvlNode> {
    update(&mut n);
    let (hl, hr) = (height(&n.left), height(&n.right));
    if hl > hr + 1 {
        let l = n.left.as_ref().expect("taller left");
        if height(&l.left) < height(&l.right) {
            n.left = Some(rotate_left(n.left.take().expect("left")));
        }
        return rotate_right(n);
    }
    if hr > hl + 1 {
        let r = n.right.as_ref().expect("taller right");
        if height(&r.right) < height(&r.left) {
            n.right = Some(rotate_right(n.right.take().expect("right")));
        }
        return rotate_left(n);
    }
    n
}

fn insert_at(t: Tree, i: usize, val: Key) -> Box<AvlNode> {
    match t {
        None => leaf(val),
        Some(mut n) => {
            let ls = size(&n.left);
            if i <= ls {
                n.left = Some(insert_at(n.left.take(), i, val));
            } else {
                n.right = Some(insert_at(n.right.take(), i - ls - 1, val));
            }
            balance(n)
        }
    }
}

/// A perfectly balanced tree of `items`, in O(len).
fn build(items: &[Key]) -> Tree {
    if items.is_empty() {
        return None;
    }
    let mid = items.len() / 2;
    let mut n = leaf(items[mid].clone());
    n.left = build(&items[..mid]);
    n.right = build(&items[mid + 1..]);
    update(&mut n);
    Some(n)
}

/// `l`, then the single node `mid`, then `r`, rebalanced: O(|height(l) - height(r)|).
fn join(l: Tree, mut mid: Box<AvlNode>, r: Tree) -> Box<AvlNode> {
    let (hl, hr) = (height(&l), height(&r));
    if hl > hr + 1 {
        let mut n = l.expect("taller left");
        n.right = Some(join(n.right.take(), mid, r));
        balance(n)
    } else if hr > hl + 1 {
        let mut n = r.expect("taller right");
        n.left = Some(join(l, mid, n.left.take()));
        balance(n)
    } else {
        mid.left = l;
        mid.right = r;
        update(&mut mid);
        mid
    }
}

/// The first `i` elements and the rest.
fn split(t: Tree, i: usize) -> (Tree, Tree) {
    match t {
        None => (None, None),
        Some(mut n) => {
            let (l, r) = (n.left.take(), n.right.take());
            update(&mut n);
            let ls = size(&l);
            if i <= ls {
                let (ll, lr) = split(l, i);
                (ll, Some(join(lr, n, r)))
            } else {
                let (rl, rr) = split(r, i - ls - 1);
                (Some(join(l, n, rl)), rr)
            }
        }
    }
}

/// The tree's first node, detached, and the rest.
fn pop_first(mut n: Box<AvlNode>) -> (Box<AvlNode>, Tree) {
    match n.left.take() {
        None => {
            let rest = n.right.take();
            update(&mut n);
            (n, rest)
        }
        Some(l) => {
            let (first, rest) = pop_first(l);
            n.left = rest;
            (first, Some(balance(n)))
        }
    }
}

/// `l` followed by `r`.
fn concat(l: Tree, r: Tree) -> Tree {
    match (l, r) {
        (l, None) => l,
        (None, r) => r,
        (l, Some(r)) => {
            let (first, rest) = pop_first(r);
            Some(join(l, first, rest))
        }
    }
}

// ---------------------------------------------------------------------------------------
// IDs 21-22: asymptotic bottlenecks (ID 20 lives in planted.rs).

/// A filtered view of a navigable (sorted) map: the entries of a `BTreeMap` whose key is
/// below a bound, ID 21 (`NavigableMap.isEmpty`, documented O(1), found O(n)).
///
/// Reconstructed: the paper names only the interface. Our reading is Guava's
/// `Maps.filterKeys(NavigableMap, predicate)`, whose `isEmpty` is
/// `!Iterables.any(unfiltered.entrySet(), predicate)`: a scan of every entry when none
/// passes the filter, while `Map.isEmpty` is documented as constant time.
#[derive(Debug, Clone, Default)]
pub struct FilteredNavigableMap {
    unfiltered: BTreeMap<Key, u64>,
    /// The view keeps the keys strictly below this bound.
    bound: u64,
}

impl FilteredNavigableMap {
    /// A view of an empty map that keeps the keys below `bound`.
    pub fn new(bound: u64) -> FilteredNavigableMap {
        FilteredNavigableMap {
            unfiltered: BTreeMap::new(),
            bound,
        }
    }

    fn keeps(&self, k: &Key) -> bool {
        k.get() < self.bound
    }

    /// Puts an entry into the underlying map (entries outside the filter are kept there).
    /// O(log n).
    pub fn put(&mut self, key: Key, value: u64) {
        self.unfiltered.insert(key, value);
    }

    /// ID 21: whether the view has no entry. Documented O(1); O(n) when no entry passes.
    pub fn is_empty(&self) -> bool {
        !self.unfiltered.keys().any(|k| self.keeps(k))
    }

    /// The number of entries in the view. O(n), as documented (it counts them).
    pub fn len(&self) -> usize {
        self.unfiltered.keys().filter(|k| self.keeps(k)).count()
    }

    /// The number of entries of the underlying map (the registered input size).
    pub fn unfiltered_len(&self) -> usize {
        self.unfiltered.len()
    }
}

/// Guava's `Sets` for one input set: `powerSet`, ID 22 (documented O(1), found O(n)).
///
/// Reconstructed: Guava documents that the power set is a view whose subsets are only built
/// while iterating; constructing it is nonetheless linear, because it copies the input into
/// an immutable index map (`Maps.indexMap(ImmutableSet.copyOf(set))`).
/// [`power_set_size`](Self::power_set_size) is truly O(1) (a negative control).
#[derive(Debug, Clone, Default)]
pub struct Sets {
    input: BTreeSet<Key>,
}

/// The view `Sets.powerSet` returns: the input's elements with their bit positions.
#[derive(Debug, Clone, Default)]
pub struct PowerSet {
    index: HashMap<Key, usize, FixedState>,
}

impl PowerSet {
    /// The number of subsets, saturating at `u64::MAX`.
    pub fn size(&self) -> u64 {
        1u64.checked_shl(self.index.len() as u32)
            .unwrap_or(u64::MAX)
    }
}

impl Sets {
    /// An empty input set.
    pub fn new() -> Sets {
        Sets::default()
    }

    /// Adds `x` to the input set. O(log n).
    pub fn add(&mut self, x: Key) -> bool {
        self.input.insert(x)
    }

    /// The size of the input set.
    pub fn len(&self) -> usize {
        self.input.len()
    }

    /// Whether the input set is empty.
    pub fn is_empty(&self) -> bool {
        self.input.is_empty()
    }

    /// ID 22: the power set of the input, as a view. Documented O(1); copies the input, O(n).
    pub fn power_set(&self) -> PowerSet {
        PowerSet {
            index: self
                .input
                .iter()
                .enumerate()
                .map(|(i, k)| (k.clone(), i))
                .collect(),
        }
    }

    /// The number of subsets, 2^n, saturating. O(1), and truly so.
    pub fn power_set_size(&self) -> u64 {
        1u64.checked_shl(self.input.len() as u32)
            .unwrap_or(u64::MAX)
    }
}

// ---------------------------------------------------------------------------------------
// Registrations.

/// Registers both members of a version group from one method list, so that their method
/// names and signatures are identical by construction.
macro_rules! version_group {
    (
        $(#[doc = $doc:literal])*
        group $path:literal {
            old: $old_fn:ident() -> $old:ident, $old_import:literal;
            new: $new_fn:ident() -> $new:ident, $new_import:literal;
            size: [$($size:tt)*];
            methods { $($methods:tt)* }
        }
    ) => {
        register_type! {
            $(#[doc = $doc])*
            pub fn $old_fn() -> $old {
                path: $path, imports: [$old_import], version: Some(($path, "old")),
                size: [$($size)*],
                ctors { new() => Default::default(); }
                methods { $($methods)* }
                fields {}
            }

            $(#[doc = $doc])*
            pub fn $new_fn() -> $new {
                path: $path, imports: [$new_import], version: Some(($path, "new")),
                size: [$($size)*],
                ctors { new() => Default::default(); }
                methods { $($methods)* }
                fields {}
            }
        }
    };
}

/// Also used by `reltune.rs`, whose tuning groups are declared the same way.
pub(crate) use version_group;

register_type! {
    /// The index list of `ArrayUtils.removeAll`.
    pub fn indices() -> Indices {
        path: "Indices", imports: ["perfsyn_corpus::table32::Indices"], version: None,
        size: [|v| v.len() as u64],
        ctors { new() => Indices::new(); }
        methods {
            push(mut self, i: copy usize) ["O(1)"];
            len(ref self) -> usize ["O(1)"];
        }
        fields {}
    }
}

version_group! {
    /// Commons Lang ArrayUtils (Table 3.2 IDs 1-5).
    group "ArrayUtils" {
        old: array_utils_old() -> OldArrayUtils, "perfsyn_corpus::table32::OldArrayUtils";
        new: array_utils_new() -> NewArrayUtils, "perfsyn_corpus::table32::NewArrayUtils";
        size: [|a| a.len() as u64];
        methods {
            push(mut self, x: val Key);
            pop(mut self);
            len(ref self) -> usize;
            // ID 1.
            remove_all(mut self, indices: mut Indices);
            // ID 2.
            remove_elements(mut self, values: slice Key);
            // ID 3.
            index_of(ref self, x: ref Key);
            // ID 4.
            is_not_empty(ref self) -> bool;
            // ID 5.
            is_same_length(ref self, other: slice Key) -> bool;
        }
    }
}

version_group! {
    /// Commons Lang CharSetUtils (Table 3.2 ID 6).
    group "CharSetUtils" {
        old: char_set_utils_old() -> OldCharSetUtils, "perfsyn_corpus::table32::OldCharSetUtils";
        new: char_set_utils_new() -> NewCharSetUtils, "perfsyn_corpus::table32::NewCharSetUtils";
        size: [|s| s.len() as u64];
        methods {
            add(mut self, c: copy char);
            len(ref self) -> usize;
            // ID 6.
            squeeze(ref self, s: str String) -> String;
        }
    }
}

version_group! {
    /// Commons Lang StringUtils (Table 3.2 ID 7).
    group "StringUtils" {
        old: string_utils_old() -> OldStringUtils, "perfsyn_corpus::table32::OldStringUtils";
        new: string_utils_new() -> NewStringUtils, "perfsyn_corpus::table32::NewStringUtils";
        size: [|_s| 0];
        methods {
            // ID 7.
            levenshtein(ref self, s: str String, t: str String) -> usize;
        }
    }
}

version_group! {
    /// Ant IdentityStack (Table 3.2 IDs 8-10).
    group "IdentityStack" {
        old: identity_stack_old() -> OldIdentityStack, "perfsyn_corpus::table32::OldIdentityStack";
        new: identity_stack_new() -> NewIdentityStack, "perfsyn_corpus::table32::NewIdentityStack";
        size: [|s| s.len() as u64];
        methods {
            push(mut self, x: val Key);
            pop(mut self);
            len(ref self) -> usize;
            contains(ref self, x: ref Key) -> bool ["O(n)"];
            // ID 8.
            contains_all(ref self, c: slice Key) -> bool;
            // ID 9.
            remove_all(mut self, c: slice Key) -> bool;
            // ID 10.
            retain_all(mut self, c: slice Key) -> bool;
        }
    }
}

version_group! {
    /// Commons Collections ListOrderedMap (Table 3.2 ID 11).
    group "ListOrderedMap" {
        old: list_ordered_map_old() -> OldListOrderedMap, "perfsyn_corpus::table32::OldListOrderedMap";
        new: list_ordered_map_new() -> NewListOrderedMap, "perfsyn_corpus::table32::NewListOrderedMap";
        size: [|m| m.len() as u64];
        methods {
            put(mut self, key: val Key, value: copy u64);
            get(ref self, key: ref Key);
            // ID 11.
            remove(mut self, key: ref Key);
            len(ref self) -> usize;
        }
    }
}

version_group! {
    /// Commons Collections ListOrderedSet (Table 3.2 IDs 12-15).
    group "ListOrderedSet" {
        old: list_ordered_set_old() -> OldListOrderedSet, "perfsyn_corpus::table32::OldListOrderedSet";
        new: list_ordered_set_new() -> NewListOrderedSet, "perfsyn_corpus::table32::NewListOrderedSet";
        size: [|s| s.len() as u64];
        methods {
            add(mut self, x: val Key) -> bool;
            len(ref self) -> usize;
            // ID 12.
            add_all(mut self, c: slice Key) -> bool;
            // ID 13.
            add_all_at(mut self, index: copy usize, c: slice Key) -> bool;
            // ID 14.
            to_array(ref self) -> Vec<Key>;
            // ID 15.
            remove(mut self, x: ref Key) -> bool;
        }
    }
}

version_group! {
    /// Ant VectorSet (Table 3.2 IDs 16-17).
    group "VectorSet" {
        old: vector_set_old() -> OldVectorSet, "perfsyn_corpus::table32::OldVectorSet";
        new: vector_set_new() -> NewVectorSet, "perfsyn_corpus::table32::NewVectorSet";
        size: [|s| s.len() as u64];
        methods {
            add(mut self, x: val Key) -> bool;
            contains(ref self, x: ref Key) -> bool;
            len(ref self) -> usize;
            // ID 16.
            add_all(mut self, c: slice Key) -> bool;
            // ID 17 (the result is dropped: its type differs between the versions).
            clone(ref self);
        }
    }
}

version_group! {
    /// Commons Collections TreeList (Table 3.2 IDs 18-19).
    group "TreeList" {
        old: tree_list_old() -> OldTreeList, "perfsyn_corpus::table32::OldTreeList";
        new: tree_list_new() -> NewTreeList, "perfsyn_corpus::table32::NewTreeList";
        size: [|t| t.len() as u64];
        methods {
            add(mut self, x: val Key) ["O(log n)"];
            insert(mut self, index: copy usize, x: val Key) ["O(log n)"];
            get(ref self, index: copy usize) ["O(log n)"];
            len(ref self) -> usize;
            // ID 18.
            add_all(mut self, c: slice Key);
            // ID 19.
            add_all_at(mut self, index: copy usize, c: slice Key);
        }
    }
}

register_type! {
    /// A filtered view of a sorted map (Table 3.2 ID 21): is_empty is O(n).
    pub fn filtered_navigable_map() -> FilteredNavigableMap {
        path: "FilteredNavigableMap",
        imports: ["perfsyn_corpus::table32::FilteredNavigableMap"],
        version: None,
        size: [|m| m.unfiltered_len() as u64],
        ctors { new(bound: copy u64) => FilteredNavigableMap::new(bound); }
        methods {
            // Documented "O(log n)"; it is.
            put(mut self, key: val Key, value: copy u64) ["O(log n)"];
            // Documented "O(1)" (Map.isEmpty); PLANTED after the paper: O(n).
            is_empty(ref self) -> bool ["O(1)"];
            // Documented "O(n)"; it is (a negative control).
            len(ref self) -> usize ["O(n)"];
        }
        fields {}
    }

    /// Guava's Sets.powerSet over one input set (Table 3.2 ID 22): power_set is O(n).
    pub fn sets() -> Sets {
        path: "Sets",
        imports: ["perfsyn_corpus::table32::Sets"],
        version: None,
        size: [|s| s.len() as u64],
        ctors { new() => Sets::new(); }
        methods {
            // Documented "O(log n)"; it is.
            add(mut self, x: val Key) -> bool ["O(log n)"];
            // Documented "O(1)" (a view); PLANTED after the paper: O(n).
            power_set(ref self) ["O(1)"];
            // Documented "O(1)"; it is (a negative control).
            power_set_size(ref self) -> u64 ["O(1)"];
        }
        fields {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys(v: &[u64]) -> Vec<Key> {
        v.iter().map(|&x| Key(x)).collect()
    }

    fn vals(v: &[Key]) -> Vec<u64> {
        v.iter().map(Key::get).collect()
    }

    #[test]
    fn tree_list_versions_agree() {
        let mut old = OldTreeList::new();
        let mut new = NewTreeList::new();
        for i in 0..50 {
            old.add(Key(i));
            new.add(Key(i));
        }
        let c = keys(&(100..140).collect::<Vec<_>>());
        old.add_all(&c);
        new.add_all(&c);
        old.add_all_at(7, &c);
        new.add_all_at(7, &c);
        old.add_all_at(1000, &c[..3]);
        new.add_all_at(1000, &c[..3]);
        assert_eq!(vals(&old.to_vec()), vals(&new.to_vec()));
        assert_eq!(new.len(), 50 + 40 + 40 + 3);
        assert_eq!(new.get(7).map(Key::get), Some(100));
        // AVL height stays logarithmic after joins and splits.
        assert!(height(&new.root) <= 2 * (usize::BITS - new.len().leading_zeros()));
    }

    #[test]
    fn array_utils_versions_agree() {
        let mut old = OldArrayUtils::new();
        let mut new = NewArrayUtils::new();
        for i in [5, 1, 5, 2, 9, 1] {
            old.push(Key(i));
            new.push(Key(i));
        }
        old.remove_elements(&keys(&[1, 5, 7]));
        new.remove_elements(&keys(&[1, 5, 7]));
        assert_eq!(vals(&old.items), vals(&new.items));
        let mut idx = Indices(vec![3, 0, 42]);
        let mut idx2 = idx.clone();
        old.remove_all(&mut idx);
        new.remove_all(&mut idx2);
        assert_eq!(vals(&old.items), vals(&new.items));
        assert_eq!(old.index_of(&Key(9)), new.index_of(&Key(9)));
        assert_eq!(
            old.is_same_length(&keys(&[1])),
            new.is_same_length(&keys(&[1]))
        );
        assert_eq!(old.is_not_empty(), new.is_not_empty());
    }

    #[test]
    fn strings_versions_agree() {
        for (s, t) in [("kitten", "sitting"), ("", "ab"), ("flaw", "lawn")] {
            assert_eq!(
                OldStringUtils::new().levenshtein(s, t),
                NewStringUtils::new().levenshtein(s, t)
            );
        }
        let mut old = OldCharSetUtils::new();
        let mut new = NewCharSetUtils::new();
        for c in ['l', 'o'] {
            old.add(c);
            new.add(c);
        }
        assert_eq!(old.squeeze("hello  woolly"), "helo  woly");
        assert_eq!(new.squeeze("hello  woolly"), "helo  woly");
    }

    #[test]
    fn sets_and_stacks_versions_agree() {
        let mut old = OldListOrderedSet::new();
        let mut new = NewListOrderedSet::new();
        old.add_all(&keys(&[1, 2, 3]));
        new.add_all(&keys(&[1, 2, 3]));
        old.add_all_at(1, &keys(&[2, 8, 9]));
        new.add_all_at(1, &keys(&[2, 8, 9]));
        old.remove(&Key(3));
        new.remove(&Key(3));
        assert_eq!(vals(&old.to_array()), vals(&new.to_array()));
        assert_eq!(vals(&new.to_array()), [1, 8, 9, 2]);

        let mut a = OldIdentityStack::new();
        let mut b = NewIdentityStack::new();
        for i in 0..6 {
            a.push(Key(i));
            b.push(Key(i));
        }
        assert_eq!(
            a.contains_all(&keys(&[1, 2])),
            b.contains_all(&keys(&[1, 2]))
        );
        assert_eq!(a.remove_all(&keys(&[1, 7])), b.remove_all(&keys(&[1, 7])));
        assert_eq!(a.retain_all(&keys(&[2, 3])), b.retain_all(&keys(&[2, 3])));
        assert_eq!(vals(&a.items), vals(&b.items));

        let mut v = OldVectorSet::new();
        v.add_all(&keys(&[1, 2, 2, 3]));
        let w = v.clone();
        assert_eq!(vals(&w.items), [1, 2, 3]);
        assert!(w.contains(&Key(2)));
    }
}
