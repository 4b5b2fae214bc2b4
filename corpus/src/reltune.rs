//! Planted version groups for tuning the relative oracle only: `perfsyn bench search` chooses
//! the relative verdict's hand-set constants (the gap floor of `synth/src/search/sides.rs`)
//! on these, so the suite's relative cases (Table 3.2, Listing 3.1, its controls) never
//! shape the rule they are judged with.
//!
//! Each group is one generic struct over a [`Version`] marker (as in `table32.rs`): both
//! versions share every line but the changed method. Each plants one shape a relative oracle
//! must handle:
//!
//! | group | change | truth |
//! |-------|--------|-------|
//! | [`GradeBook`] | `count_grade` recomputes its 8 grade cutoffs on every call instead of keeping them: a constant cost per call, diluted as the scores grow | slower |
//! | [`TagIndex`] | `contains` scans the sorted tags instead of bisecting them: O(n) against O(log n), visible only at large sizes | slower |
//! | [`Leaderboard`] | `top` takes the maximum in one pass instead of sorting a copy | faster |
//! | [`Roster`] | `add` of a name already present finds its slot by a linear scan instead of the index: only duplicates show it | slower |
//! | [`Meter`] | `spread` refactored (early return into an `else`, a named temporary): same code | none |
//! | [`Dial`] | `level` clamps through a helper kept out of line: a few edges on the cheapest call there is | none |
//! | [`SlotTable`] | `locate` finds a value's slot by scanning the slot bounds instead of bisecting them: slower only when the table is large (a constructor argument) *and* the value lies far along the scan (a call argument); either alone changes nothing measurable | slower |
//! | [`Throttle`] | `allow` gains a guard against a clock going back, in a helper kept out of line: a call and a branch or two per call, which no wall clock sees | none |

use std::collections::HashMap;
use std::hint::black_box;
use std::marker::PhantomData;

use perfsyn_profiler_ipc::probe::{FixedState, Key};
use perfsyn_profiler_ipc::register_type;

use crate::table32::{version_group, New, Old, Version};

/// The number of grades of a [`GradeBook`].
pub const GRADES: usize = 8;

/// Scores and the cutoffs that split them into [`GRADES`] grades (equal shares of the best
/// score).
#[derive(Debug, Clone, Default)]
pub struct GradeBook<V> {
    scores: Vec<u64>,
    best: u64,
    /// The lower bound of each grade for `best`, kept up to date by `add` (read by the old
    /// `count_grade` only).
    cutoffs: [u64; GRADES],
    _v: PhantomData<V>,
}

/// The cutoffs of each grade for a best score `best`.
fn cutoffs(best: u64) -> [u64; GRADES] {
    let mut c = [0; GRADES];
    // `black_box` keeps the loop a loop (the cost of deriving a table), not a constant.
    for (g, slot) in c.iter_mut().enumerate().take(black_box(GRADES)) {
        *slot = black_box(best) / GRADES as u64 * g as u64;
    }
    c
}

impl<V: Version> GradeBook<V> {
    /// No score.
    pub fn new() -> Self {
        Self::default()
    }

    /// Records a score. O(1).
    pub fn add(&mut self, score: u64) {
        self.scores.push(score);
        if score > self.best {
            self.best = score;
            self.cutoffs = cutoffs(score);
        }
    }

    /// How many scores fall in grade `grade` (modulo [`GRADES`]). O(n).
    ///
    /// PLANTED (new): the cutoffs are derived again on every call, a constant extra cost.
    pub fn count_grade(&self, grade: u64) -> usize {
        let fresh;
        let c = if V::NEW {
            fresh = cutoffs(self.best);
            &fresh
        } else {
            &self.cutoffs
        };
        let g = grade as usize % GRADES;
        let lo = c[g];
        let hi = c.get(g + 1).copied().unwrap_or(u64::MAX);
        self.scores.iter().filter(|&&s| s >= lo && s < hi).count()
    }

    /// The number of scores.
    pub fn len(&self) -> usize {
        self.scores.len()
    }

    /// Whether there is no score.
    pub fn is_empty(&self) -> bool {
        self.scores.is_empty()
    }
}

/// Tags kept sorted.
#[derive(Debug, Clone, Default)]
pub struct TagIndex<V> {
    tags: Vec<Key>,
    _v: PhantomData<V>,
}

impl<V: Version> TagIndex<V> {
    /// No tag.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds `tag` at its sorted place (duplicates kept). O(n).
    pub fn insert(&mut self, tag: Key) {
        let at = self.tags.partition_point(|t| *t < tag);
        self.tags.insert(at, tag);
    }

    /// Whether `tag` is present. O(log n).
    ///
    /// PLANTED (new): a linear scan, O(n); on a handful of tags it costs about the same.
    pub fn contains(&self, tag: &Key) -> bool {
        if V::NEW {
            self.tags.iter().any(|t| t == tag)
        } else {
            self.tags.binary_search(tag).is_ok()
        }
    }

    /// The number of tags.
    pub fn len(&self) -> usize {
        self.tags.len()
    }

    /// Whether there is no tag.
    pub fn is_empty(&self) -> bool {
        self.tags.is_empty()
    }
}

/// Scores of a game.
#[derive(Debug, Clone, Default)]
pub struct Leaderboard<V> {
    scores: Vec<u64>,
    _v: PhantomData<V>,
}

impl<V: Version> Leaderboard<V> {
    /// No score.
    pub fn new() -> Self {
        Self::default()
    }

    /// Records a score. O(1).
    pub fn post(&mut self, score: u64) {
        self.scores.push(score);
    }

    /// The best score, 0 when none.
    ///
    /// PLANTED (new, an improvement): one pass, O(n), where the old version sorts a copy,
    /// O(n log n).
    pub fn top(&self) -> u64 {
        if V::NEW {
            self.scores.iter().copied().max().unwrap_or(0)
        } else {
            let mut all = self.scores.clone();
            all.sort_unstable();
            all.last().copied().unwrap_or(0)
        }
    }

    /// The number of scores.
    pub fn len(&self) -> usize {
        self.scores.len()
    }

    /// Whether there is no score.
    pub fn is_empty(&self) -> bool {
        self.scores.is_empty()
    }
}

/// Names in order of first arrival, with how often each arrived.
#[derive(Debug, Clone, Default)]
pub struct Roster<V> {
    names: Vec<Key>,
    counts: Vec<u64>,
    /// The slot of each name.
    slot: HashMap<Key, usize, FixedState>,
    _v: PhantomData<V>,
}

impl<V: Version> Roster<V> {
    /// No name.
    pub fn new() -> Self {
        Self::default()
    }

    /// Counts an arrival of `name`. Expected O(1).
    ///
    /// PLANTED (new): a name already present finds its slot by a linear scan of the names,
    /// O(n); a new name costs the same in both versions.
    pub fn add(&mut self, name: Key) {
        match self.slot.get(&name) {
            Some(&i) => {
                let i = if V::NEW {
                    self.names.iter().position(|n| *n == name).unwrap_or(i)
                } else {
                    i
                };
                self.counts[i] += 1;
            }
            None => {
                self.slot.insert(name.clone(), self.names.len());
                self.names.push(name);
                self.counts.push(1);
            }
        }
    }

    /// How often `name` arrived.
    pub fn count(&self, name: &Key) -> u64 {
        self.slot.get(name).map_or(0, |&i| self.counts[i])
    }

    /// The number of distinct names.
    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// Whether there is no name.
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }
}

/// Samples of a measurement.
#[derive(Debug, Clone, Default)]
pub struct Meter<V> {
    samples: Vec<u64>,
    _v: PhantomData<V>,
}

impl<V: Version> Meter<V> {
    /// No sample.
    pub fn new() -> Self {
        Self::default()
    }

    /// Records a sample. O(1).
    pub fn record(&mut self, x: u64) {
        self.samples.push(x);
    }

    /// The largest sample minus the smallest, 0 when none. O(n).
    ///
    /// CONTROL: the new version is a refactor of the same code (the early return becomes an
    /// `else`, the bounds a named pair); the relative oracle must report nothing.
    pub fn spread(&self) -> u64 {
        if V::NEW {
            let bounds = self
                .samples
                .iter()
                .fold((u64::MAX, 0), |(lo, hi), &x| (lo.min(x), hi.max(x)));
            if self.samples.is_empty() {
                0
            } else {
                bounds.1 - bounds.0
            }
        } else {
            if self.samples.is_empty() {
                return 0;
            }
            let (lo, hi) = self
                .samples
                .iter()
                .fold((u64::MAX, 0), |(lo, hi), &x| (lo.min(x), hi.max(x)));
            hi - lo
        }
    }

    /// The number of samples.
    pub fn len(&self) -> usize {
        self.samples.len()
    }

    /// Whether there is no sample.
    pub fn is_empty(&self) -> bool {
        self.samples.is_empty()
    }
}

/// A rate limiter: an event is allowed when at least `gap` ticks passed since the last
/// allowed one.
#[derive(Debug, Clone)]
pub struct Throttle<V> {
    gap: u64,
    last: Option<u64>,
    allowed: u64,
    _v: PhantomData<V>,
}

impl<V: Version> Default for Throttle<V> {
    fn default() -> Self {
        Throttle {
            gap: 10,
            last: None,
            allowed: 0,
            _v: PhantomData,
        }
    }
}

/// `now`, or `last` when `now` is earlier (the new [`Throttle::allow`]'s guard: a helper the
/// compiler keeps out of line, so the guard costs its call and its branch).
#[inline(never)]
fn not_before(now: u64, last: Option<u64>) -> u64 {
    match last {
        Some(l) if now < l => l,
        _ => now,
    }
}

impl<V: Version> Throttle<V> {
    /// A throttle allowing one event per 10 ticks.
    pub fn new() -> Self {
        Self::default()
    }

    /// Sets the smallest number of ticks between two allowed events. O(1).
    pub fn set_gap(&mut self, gap: u64) {
        self.gap = gap;
    }

    /// Whether an event at tick `now` is allowed (and records it if so). O(1).
    ///
    /// CONTROL (noise): the new version first clamps a `now` earlier than the last allowed
    /// event (a clock that went back) to that event, in a helper kept out of line: a call
    /// and a branch or two more per call.
    pub fn allow(&mut self, now: u64) -> bool {
        let now = if V::NEW {
            not_before(now, self.last)
        } else {
            now
        };
        let ok = self.last.is_none_or(|l| now.saturating_sub(l) >= self.gap);
        if ok {
            self.last = Some(now);
            self.allowed += 1;
        }
        ok
    }

    /// The number of allowed events (the registered size).
    pub fn len(&self) -> usize {
        self.allowed as usize
    }

    /// Whether no event was allowed.
    pub fn is_empty(&self) -> bool {
        self.allowed == 0
    }
}

/// A setting between [`DIAL_MIN`] and [`DIAL_MAX`].
#[derive(Debug, Clone, Default)]
pub struct Dial<V> {
    level: u64,
    turns: u64,
    _v: PhantomData<V>,
}

/// The lowest level of a [`Dial`].
pub const DIAL_MIN: u64 = 1;
/// The highest level of a [`Dial`].
pub const DIAL_MAX: u64 = 11;

/// `x` within [`DIAL_MIN`]..=[`DIAL_MAX`] (the new [`Dial::level`]'s check, out of line).
#[inline(never)]
#[allow(clippy::manual_clamp)] // spelled out as the change under study was written
fn within_dial(x: u64) -> u64 {
    if x > DIAL_MAX {
        DIAL_MAX
    } else if x < DIAL_MIN {
        DIAL_MIN
    } else {
        x
    }
}

impl<V: Version> Dial<V> {
    /// At the lowest level.
    pub fn new() -> Self {
        Dial {
            level: DIAL_MIN,
            turns: 0,
            _v: PhantomData,
        }
    }

    /// Turns the dial to `to`, clamped to the range. O(1).
    pub fn turn(&mut self, to: u64) {
        self.level = to.clamp(DIAL_MIN, DIAL_MAX);
        self.turns += 1;
    }

    /// The level. O(1).
    ///
    /// CONTROL (noise on the cheapest call): the new version clamps the stored level again
    /// through an out-of-line helper (it is always in range), a few edges on a call that
    /// does almost nothing.
    pub fn level(&self) -> u64 {
        if V::NEW {
            within_dial(self.level)
        } else {
            self.level
        }
    }

    /// The number of turns (the registered size).
    pub fn len(&self) -> usize {
        self.turns as usize
    }

    /// Whether the dial was never turned.
    pub fn is_empty(&self) -> bool {
        self.turns == 0
    }
}

/// The old `Dial`.
pub type OldDial = Dial<Old>;
/// The new `Dial`.
pub type NewDial = Dial<New>;

/// The old `GradeBook`.
pub type OldGradeBook = GradeBook<Old>;
/// The new `GradeBook`.
pub type NewGradeBook = GradeBook<New>;
/// The largest slot count a [`SlotTable`] takes (larger requests are clamped).
pub const SLOT_TABLE_MAX: usize = 1 << 20;

/// A table of sorted slot bounds (slot `i` holds the values below `8 (i + 1)`), built with
/// its number of slots.
#[derive(Debug, Clone, Default)]
pub struct SlotTable<V> {
    bounds: Vec<u64>,
    _v: PhantomData<V>,
}

impl<V: Version> SlotTable<V> {
    /// A table of `slots` slots (clamped to [`SLOT_TABLE_MAX`]).
    pub fn with_slots(slots: usize) -> Self {
        SlotTable {
            bounds: (1..=slots.min(SLOT_TABLE_MAX) as u64)
                .map(|i| i * 8)
                .collect(),
            _v: PhantomData,
        }
    }

    /// The slot holding `x` (the number of slots when `x` is past the last bound). O(log n).
    ///
    /// PLANTED (new): a linear scan of the bounds from the first, O(x / 8) up to O(n); it
    /// costs about what bisection costs unless the table is large and `x` lies far along it.
    pub fn locate(&self, x: u64) -> usize {
        if V::NEW {
            let mut i = 0;
            while i < self.bounds.len() && black_box(self.bounds[i]) <= x {
                i += 1;
            }
            i
        } else {
            self.bounds.partition_point(|b| *b <= x)
        }
    }

    /// The number of slots.
    pub fn len(&self) -> usize {
        self.bounds.len()
    }

    /// Whether the table has no slot.
    pub fn is_empty(&self) -> bool {
        self.bounds.is_empty()
    }
}

/// The old `SlotTable`.
pub type OldSlotTable = SlotTable<Old>;
/// The new `SlotTable`.
pub type NewSlotTable = SlotTable<New>;

/// The old `TagIndex`.
pub type OldTagIndex = TagIndex<Old>;
/// The new `TagIndex`.
pub type NewTagIndex = TagIndex<New>;
/// The old `Leaderboard`.
pub type OldLeaderboard = Leaderboard<Old>;
/// The new `Leaderboard`.
pub type NewLeaderboard = Leaderboard<New>;
/// The old `Roster`.
pub type OldRoster = Roster<Old>;
/// The new `Roster`.
pub type NewRoster = Roster<New>;
/// The old `Meter`.
pub type OldMeter = Meter<Old>;
/// The new `Meter`.
pub type NewMeter = Meter<New>;
/// The old `Throttle`.
pub type OldThrottle = Throttle<Old>;
/// The new `Throttle`.
pub type NewThrottle = Throttle<New>;

register_type! {
    /// Relative tuning: bisection replaced by a scan, slower only with a large table and a far
    /// value (two coordinated mutations: a constructor argument and a call argument).
    pub fn slot_table_old() -> OldSlotTable {
        path: "SlotTable",
        imports: ["perfsyn_corpus::reltune::OldSlotTable"],
        version: Some(("SlotTable", "old")),
        size: [|t| t.len() as u64],
        ctors { with_slots(slots: copy usize) as "OldSlotTable::with_slots({slots})" => OldSlotTable::with_slots(slots); }
        methods {
            locate(ref self, x: copy u64) -> usize;
            len(ref self) -> usize;
        }
        fields {}
    }

    /// The new version of [`slot_table_old`].
    pub fn slot_table_new() -> NewSlotTable {
        path: "SlotTable",
        imports: ["perfsyn_corpus::reltune::NewSlotTable"],
        version: Some(("SlotTable", "new")),
        size: [|t| t.len() as u64],
        ctors { with_slots(slots: copy usize) as "NewSlotTable::with_slots({slots})" => NewSlotTable::with_slots(slots); }
        methods {
            locate(ref self, x: copy u64) -> usize;
            len(ref self) -> usize;
        }
        fields {}
    }
}

version_group! {
    /// Relative tuning: cutoffs derived on every call (constant cost per call).
    group "GradeBook" {
        old: grade_book_old() -> OldGradeBook, "perfsyn_corpus::reltune::OldGradeBook";
        new: grade_book_new() -> NewGradeBook, "perfsyn_corpus::reltune::NewGradeBook";
        size: [|b| b.len() as u64];
        methods {
            add(mut self, score: copy u64);
            count_grade(ref self, grade: copy u64) -> usize;
            len(ref self) -> usize;
        }
    }
}

version_group! {
    /// Relative tuning: bisection replaced by a scan (visible at large sizes).
    group "TagIndex" {
        old: tag_index_old() -> OldTagIndex, "perfsyn_corpus::reltune::OldTagIndex";
        new: tag_index_new() -> NewTagIndex, "perfsyn_corpus::reltune::NewTagIndex";
        size: [|t| t.len() as u64];
        methods {
            insert(mut self, tag: val Key);
            contains(ref self, tag: ref Key) -> bool;
            len(ref self) -> usize;
        }
    }
}

version_group! {
    /// Relative tuning: a sorted copy replaced by one pass (an improvement).
    group "Leaderboard" {
        old: leaderboard_old() -> OldLeaderboard, "perfsyn_corpus::reltune::OldLeaderboard";
        new: leaderboard_new() -> NewLeaderboard, "perfsyn_corpus::reltune::NewLeaderboard";
        size: [|l| l.len() as u64];
        methods {
            post(mut self, score: copy u64);
            top(ref self) -> u64;
            len(ref self) -> usize;
        }
    }
}

version_group! {
    /// Relative tuning: duplicates found by a scan (only one input shape shows it).
    group "Roster" {
        old: roster_old() -> OldRoster, "perfsyn_corpus::reltune::OldRoster";
        new: roster_new() -> NewRoster, "perfsyn_corpus::reltune::NewRoster";
        size: [|r| r.len() as u64];
        methods {
            add(mut self, name: val Key);
            count(ref self, name: ref Key) -> u64;
            len(ref self) -> usize;
        }
    }
}

version_group! {
    /// Relative tuning control: a refactor of the same code.
    group "Meter" {
        old: meter_old() -> OldMeter, "perfsyn_corpus::reltune::OldMeter";
        new: meter_new() -> NewMeter, "perfsyn_corpus::reltune::NewMeter";
        size: [|m| m.len() as u64];
        methods {
            record(mut self, x: copy u64);
            spread(ref self) -> u64;
            len(ref self) -> usize;
        }
    }
}

version_group! {
    /// Relative tuning control: a branch or two more per call (noise).
    group "Throttle" {
        old: throttle_old() -> OldThrottle, "perfsyn_corpus::reltune::OldThrottle";
        new: throttle_new() -> NewThrottle, "perfsyn_corpus::reltune::NewThrottle";
        size: [|t| t.len() as u64];
        methods {
            set_gap(mut self, gap: copy u64);
            allow(mut self, now: copy u64) -> bool;
            len(ref self) -> usize;
        }
    }
}

version_group! {
    /// Relative tuning control: a few edges on the cheapest call (noise).
    group "Dial" {
        old: dial_old() -> OldDial, "perfsyn_corpus::reltune::OldDial";
        new: dial_new() -> NewDial, "perfsyn_corpus::reltune::NewDial";
        size: [|d| d.len() as u64];
        methods {
            turn(mut self, to: copy u64);
            level(ref self) -> u64;
            len(ref self) -> usize;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_versions_agree() {
        let mut g = (OldGradeBook::new(), NewGradeBook::new());
        let mut t = (OldTagIndex::new(), NewTagIndex::new());
        let mut l = (OldLeaderboard::new(), NewLeaderboard::new());
        let mut r = (OldRoster::new(), NewRoster::new());
        let mut m = (OldMeter::new(), NewMeter::new());
        let mut th = (OldThrottle::new(), NewThrottle::new());
        let mut d = (OldDial::new(), NewDial::new());
        assert_eq!((d.0.level(), d.1.level()), (DIAL_MIN, DIAL_MIN));
        assert_eq!(m.0.spread(), m.1.spread());
        for x in [40u64, 7, 80, 7, 33, 64, 12, 80, 5] {
            g.0.add(x);
            g.1.add(x);
            t.0.insert(Key::new(x));
            t.1.insert(Key::new(x));
            l.0.post(x);
            l.1.post(x);
            r.0.add(Key::new(x % 5));
            r.1.add(Key::new(x % 5));
            m.0.record(x);
            m.1.record(x);
            assert_eq!(th.0.allow(x), th.1.allow(x), "tick {x}");
            d.0.turn(x);
            d.1.turn(x);
            assert_eq!(d.0.level(), d.1.level());
        }
        for grade in 0..GRADES as u64 {
            assert_eq!(g.0.count_grade(grade), g.1.count_grade(grade));
        }
        assert_eq!(g.0.count_grade(0), 3);
        for x in [7u64, 8, 80, 81] {
            assert_eq!(t.0.contains(&Key::new(x)), t.1.contains(&Key::new(x)));
        }
        assert!(t.1.contains(&Key::new(33)) && !t.1.contains(&Key::new(34)));
        assert_eq!((l.0.top(), l.1.top()), (80, 80));
        assert_eq!(r.0.count(&Key::new(0)), 4);
        assert_eq!(r.1.count(&Key::new(0)), 4);
        assert_eq!((m.0.spread(), m.1.spread()), (75, 75));
        assert_eq!(th.0.allowed, th.1.allowed);
    }
}
