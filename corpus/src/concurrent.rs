//! Thread-safe version pairs for `perfsyn compare`: Rust miniatures of the classes of Table 2
//! of SpeedGun (Pradel, Huggler, Gross, ISSTA 2014), registered with
//! [`register_concurrent!`](perfsyn_profiler_ipc::register_concurrent).
//!
//! The paper's classes are Java; we have neither their code nor their clients, so each type
//! here is a *reconstruction*: it keeps the synchronization structure the paper (or the
//! commit it cites) describes, the method shapes, and a realistic ratio of work inside and
//! outside locks, and nothing else. The doc comment of every type says what is from the paper
//! and what is ours. What the paper reports is the baseline of Table 2 and SpeedGun's speedup
//! (new over old, 8 and 64 threads); the `expected` of each pair is the paper's *finding* after
//! close inspection (so (8), (16), (17) are `none`, as SpeedGun reported and section 5.3
//! explains).
//!
//! Java's "unsynchronized field" cannot be written in safe Rust (a data race is undefined
//! behaviour): it becomes a `Relaxed` atomic, which on x86-64 compiles to the same plain load
//! and store. `volatile` becomes `Acquire`/`Release` (also plain moves on x86-64, so Figure
//! 1a and 1c cost the same, as the paper says). `synchronized` becomes a `std::sync::Mutex`;
//! Java monitors are reentrant, std's mutex is not, so "a synchronized method called with the
//! lock held" becomes a helper that takes the guarded state (change 17).
//!
//! The work a call does besides synchronizing is [`work`]: UTF-8 validation of a fixed text by
//! `std::str::from_utf8`, which is compiled into the (uninstrumented) standard library, so the
//! work itself does not hit the worker's process-global sancov counters.
//!
//! `EmcDeadlock` deadlocks on purpose (an Emc version whose `invoke` re-locks the mutex it
//! holds); it is there so that tests can check that a deadlocking version makes tests
//! inconclusive instead of hanging perfsyn. Its pair has `expected: "inconclusive"` and
//! `perfsyn compare --all` skips it.

use std::collections::{BTreeMap, HashMap};
use std::hint::black_box;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering::*};
use std::sync::{Mutex, MutexGuard, OnceLock, RwLock};

use perfsyn_profiler_ipc::register_concurrent;

/// The text [`work`] validates: mixed one-, two- and three-byte UTF-8, so that validation
/// takes the slow (per-character) path, about 0.1 us per unit here.
const TEXT: &str = "Grüße aus Zürich — naïve café, smörgåsbord, façade, œuvre, ½ €, 東京, Ærø; \
                    déjà vu: coöperate, résumé, jalapeño, piñata, über-fast crème brûlée!";

/// `units` units of work that is the same in every version of a pair.
pub fn work(units: u64, seed: u64) -> u64 {
    let mut acc = seed;
    for _ in 0..units {
        acc = acc.wrapping_add(
            std::str::from_utf8(black_box(TEXT.as_bytes())).map_or(0, |s| s.len()) as u64,
        );
    }
    black_box(acc)
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

// ---------------------------------------------------------------------------------------------
// ExpandoMetaClass: Figure 1 (a), (b), (c); Table 2 (9) and (13).

/// Units of work of one dynamic method dispatch (`invoke`).
const DISPATCH: u64 = 3;

/// `ExpandoMetaClass` before October 2007 (Figure 1a): `initialize` is synchronized, the
/// `initialized` flag is read without synchronization. Paper: the class is not thread-safe.
/// Ours: the flag is a `Relaxed` atomic; `invoke`/`respond_to` check the flag (initializing on
/// first use) and dispatch through a method table built by `initialize`.
#[derive(Debug, Default)]
pub struct EmcUnsync {
    initialized: AtomicBool,
    init_lock: Mutex<()>,
    methods: AtomicUsize,
}

impl EmcUnsync {
    pub fn new() -> EmcUnsync {
        EmcUnsync::default()
    }
    pub fn initialize(&self) {
        let _g = lock(&self.init_lock);
        if !self.is_initialized() {
            self.methods.store(16, Relaxed);
            self.initialized.store(true, Relaxed);
        }
    }
    pub fn is_initialized(&self) -> bool {
        self.initialized.load(Relaxed)
    }
    pub fn invoke(&self, method: u64) -> u64 {
        if !self.is_initialized() {
            self.initialize();
        }
        work(DISPATCH, method % self.methods.load(Relaxed).max(1) as u64)
    }
    pub fn respond_to(&self, method: u64) -> bool {
        self.is_initialized() && work(1, method) < self.methods.load(Relaxed) as u64
    }
}

/// `ExpandoMetaClass` of October 2007 (Figure 1b, Table 2 (9), feff5190, Issue 2166): the
/// thread-safety fix makes `isInitialized` and `setInitialized` synchronized, so every dispatch
/// takes the instance lock. Paper: SpeedGun speedup 0.92 (8 threads), 0.96 (64): a regression,
/// which users reported in May 2009. Ours: the flag and the method table behind one `Mutex`,
/// held while a dispatch looks the method up (our reconstruction of the synchronized lookup
/// path; in Groovy the checks are spread over several synchronized calls per dispatch).
#[derive(Debug, Default)]
pub struct EmcLocked {
    state: Mutex<(bool, usize)>,
}

impl EmcLocked {
    pub fn new() -> EmcLocked {
        EmcLocked::default()
    }
    pub fn initialize(&self) {
        let mut s = lock(&self.state);
        if !s.0 {
            *s = (true, 16);
        }
    }
    pub fn is_initialized(&self) -> bool {
        lock(&self.state).0
    }
    pub fn invoke(&self, method: u64) -> u64 {
        if !self.is_initialized() {
            self.initialize();
        }
        let s = lock(&self.state);
        work(DISPATCH, method % s.1.max(1) as u64)
    }
    pub fn respond_to(&self, method: u64) -> bool {
        let s = lock(&self.state);
        s.0 && work(1, method) < s.1 as u64
    }
}

/// `ExpandoMetaClass` of September 2009 (Figure 1c, Table 2 (13), 26fc2100, Issue 3557): the
/// flag becomes `volatile`, only `initialize` stays synchronized. Paper: speedup 1.50 / 1.42
/// over (b), and about the same performance as (a). Ours: `Acquire`/`Release` atomics.
#[derive(Debug, Default)]
pub struct EmcAtomic {
    initialized: AtomicBool,
    init_lock: Mutex<()>,
    methods: AtomicUsize,
}

impl EmcAtomic {
    pub fn new() -> EmcAtomic {
        EmcAtomic::default()
    }
    pub fn initialize(&self) {
        let _g = lock(&self.init_lock);
        if !self.is_initialized() {
            self.methods.store(16, Release);
            self.initialized.store(true, Release);
        }
    }
    pub fn is_initialized(&self) -> bool {
        self.initialized.load(Acquire)
    }
    pub fn invoke(&self, method: u64) -> u64 {
        if !self.is_initialized() {
            self.initialize();
        }
        work(DISPATCH, method % self.methods.load(Acquire).max(1) as u64)
    }
    pub fn respond_to(&self, method: u64) -> bool {
        self.is_initialized() && work(1, method) < self.methods.load(Acquire) as u64
    }
}

/// A version of [`EmcLocked`] that deadlocks: `invoke` holds the state lock while it checks
/// the flag through `is_initialized`, which locks again (a Java monitor would re-enter; std's
/// mutex blocks forever, or may panic: either way the test is inconclusive). Ours entirely:
/// it exists to test that a deadlock kills the worker, not perfsyn.
#[derive(Debug, Default)]
pub struct EmcDeadlock {
    state: Mutex<(bool, usize)>,
}

impl EmcDeadlock {
    pub fn new() -> EmcDeadlock {
        EmcDeadlock::default()
    }
    pub fn initialize(&self) {
        let mut s = lock(&self.state);
        if !s.0 {
            *s = (true, 16);
        }
    }
    pub fn is_initialized(&self) -> bool {
        lock(&self.state).0
    }
    pub fn invoke(&self, method: u64) -> u64 {
        let s = lock(&self.state);
        let ready = self.is_initialized();
        work(DISPATCH, method % s.1.max(1) as u64 + ready as u64)
    }
    pub fn respond_to(&self, method: u64) -> bool {
        let s = lock(&self.state);
        s.0 && method < s.1 as u64
    }
}

// ---------------------------------------------------------------------------------------------
// ExpandoMetaClass changes without a concurrent-performance effect: Table 2 (8), (16), (17).

/// The registry part of `ExpandoMetaClass` before change (17) (d38da33c): registering and
/// dispatching are synchronized methods; the `modified` flag they consult is `volatile`.
/// Ours: one `Mutex` over the method map; the flag is an atomic read under that lock.
#[derive(Debug, Default)]
pub struct EmcRegistryVolatile {
    methods: Mutex<BTreeMap<u64, u64>>,
    modified: AtomicBool,
}

impl EmcRegistryVolatile {
    pub fn new() -> EmcRegistryVolatile {
        EmcRegistryVolatile::default()
    }
    fn is_modified(&self) -> bool {
        self.modified.load(Acquire)
    }
    fn set_modified(&self) {
        self.modified.store(true, Release);
    }
    pub fn register_method(&self, name: u64) {
        let mut m = lock(&self.methods);
        m.insert(name % 64, name);
        self.set_modified();
    }
    pub fn invoke(&self, name: u64) -> u64 {
        let target = {
            let m = lock(&self.methods);
            let changed = self.is_modified();
            m.get(&(name % 64)).copied().unwrap_or(changed as u64)
        };
        work(DISPATCH, target)
    }
    pub fn has_method(&self, name: u64) -> bool {
        lock(&self.methods).contains_key(&(name % 64))
    }
}

/// Change (17) (d38da33c): "replace volatile field with synchronized method": `isModified` and
/// `setModified` become synchronized, but every caller already holds the instance lock, so no
/// locking is added. Paper: baseline expected a regression, SpeedGun reported none, and section
/// 5.3 explains why. Ours: the helpers take the guarded state (the Rust form of re-entering a
/// monitor the thread holds); the flag moves into it.
#[derive(Debug, Default)]
pub struct EmcRegistrySynchronized {
    inner: Mutex<(BTreeMap<u64, u64>, bool)>,
}

impl EmcRegistrySynchronized {
    pub fn new() -> EmcRegistrySynchronized {
        EmcRegistrySynchronized::default()
    }
    fn is_modified(held: &(BTreeMap<u64, u64>, bool)) -> bool {
        held.1
    }
    fn set_modified(held: &mut (BTreeMap<u64, u64>, bool)) {
        held.1 = true;
    }
    pub fn register_method(&self, name: u64) {
        let mut g = lock(&self.inner);
        g.0.insert(name % 64, name);
        Self::set_modified(&mut g);
    }
    pub fn invoke(&self, name: u64) -> u64 {
        let target = {
            let g = lock(&self.inner);
            let changed = Self::is_modified(&g);
            g.0.get(&(name % 64)).copied().unwrap_or(changed as u64)
        };
        work(DISPATCH, target)
    }
    pub fn has_method(&self, name: u64) -> bool {
        lock(&self.inner).0.contains_key(&(name % 64))
    }
}

/// `ExpandoMetaClass` before change (8) (2b09801e): property access with the initialization
/// check of Figure 1c. Ours: `get_property` dispatches; `initialize` has no lock (racy in Java,
/// an idempotent atomic store here).
#[derive(Debug, Default)]
pub struct EmcProperties {
    initialized: AtomicBool,
    writes: AtomicU64,
}

impl EmcProperties {
    pub fn new() -> EmcProperties {
        EmcProperties::default()
    }
    pub fn initialize(&self) {
        if !self.initialized.load(Acquire) {
            self.initialized.store(true, Release);
        }
    }
    pub fn get_property(&self, name: u64) -> u64 {
        self.initialize();
        work(DISPATCH, name)
    }
    pub fn set_property(&self, name: u64) {
        self.initialize();
        self.writes.fetch_add(1, Relaxed);
        work(DISPATCH, name);
    }
}

/// Change (8) (2b09801e): "add synchronized block to fix correctness problem": a small block
/// on the instance lock, taken only on the path that initializes. Paper: expected a regression,
/// SpeedGun reported none (the block does not matter for overall performance). Ours: a
/// double-checked lock in `initialize`; the hot path is unchanged.
#[derive(Debug, Default)]
pub struct EmcPropertiesBlock {
    initialized: AtomicBool,
    writes: AtomicU64,
    init_lock: Mutex<()>,
}

impl EmcPropertiesBlock {
    pub fn new() -> EmcPropertiesBlock {
        EmcPropertiesBlock::default()
    }
    pub fn initialize(&self) {
        if !self.initialized.load(Acquire) {
            let _g = lock(&self.init_lock);
            if !self.initialized.load(Acquire) {
                self.initialized.store(true, Release);
            }
        }
    }
    pub fn get_property(&self, name: u64) -> u64 {
        self.initialize();
        work(DISPATCH, name)
    }
    pub fn set_property(&self, name: u64) {
        self.initialize();
        self.writes.fetch_add(1, Relaxed);
        work(DISPATCH, name);
    }
}

/// `ExpandoMetaClass` before change (16) (cdc39843): synchronized methods guard the map of
/// expando methods. Ours: a `Mutex<HashMap>` held only for the lookup; the dispatch runs
/// outside it.
#[derive(Debug, Default)]
pub struct EmcExpandoSync {
    methods: Mutex<HashMap<u64, u64>>,
}

impl EmcExpandoSync {
    pub fn new() -> EmcExpandoSync {
        EmcExpandoSync::default()
    }
    pub fn add_method(&self, name: u64) {
        lock(&self.methods).insert(name % 32, name);
    }
    pub fn invoke(&self, name: u64) -> u64 {
        let target = lock(&self.methods).get(&(name % 32)).copied();
        work(DISPATCH + 1, target.unwrap_or(name))
    }
    pub fn has_method(&self, name: u64) -> bool {
        lock(&self.methods).contains_key(&(name % 32))
    }
}

/// Change (16) (cdc39843): "supposed performance improvement by replacing synchronized method
/// with explicit locks": read and write locks. Paper: expected an improvement, SpeedGun
/// measured none (the lock was never the bottleneck). Ours: `RwLock<HashMap>`, same sections.
#[derive(Debug, Default)]
pub struct EmcExpandoRwLock {
    methods: RwLock<HashMap<u64, u64>>,
}

impl EmcExpandoRwLock {
    pub fn new() -> EmcExpandoRwLock {
        EmcExpandoRwLock::default()
    }
    pub fn add_method(&self, name: u64) {
        self.methods
            .write()
            .unwrap_or_else(|e| e.into_inner())
            .insert(name % 32, name);
    }
    pub fn invoke(&self, name: u64) -> u64 {
        let target = self
            .methods
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .get(&(name % 32))
            .copied();
        work(DISPATCH + 1, target.unwrap_or(name))
    }
    pub fn has_method(&self, name: u64) -> bool {
        self.methods
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .contains_key(&(name % 32))
    }
}

/// `ExpandoMetaClass`'s class-info cache before change (11) (77822d4c): a project-internal
/// concurrent map. Ours: 16 lock stripes over ordered maps.
#[derive(Debug)]
pub struct ClassInfoStriped {
    stripes: Vec<Mutex<BTreeMap<u64, u64>>>,
}

impl ClassInfoStriped {
    pub fn new() -> ClassInfoStriped {
        ClassInfoStriped {
            stripes: (0..16).map(|_| Mutex::new(BTreeMap::new())).collect(),
        }
    }
    pub fn put(&self, class: u64) {
        lock(&self.stripes[(class % 16) as usize]).insert(class % 256, class);
    }
    pub fn class_info(&self, class: u64) -> u64 {
        let hit = lock(&self.stripes[(class % 16) as usize])
            .get(&(class % 256))
            .copied();
        work(DISPATCH, hit.unwrap_or(class))
    }
}

impl Default for ClassInfoStriped {
    fn default() -> Self {
        ClassInfoStriped::new()
    }
}

/// Change (11) (77822d4c): "replace project-internal concurrent collections with
/// java.util.concurrent collections" ("Faster class info access"). Paper: expected an
/// improvement, SpeedGun measured none. Ours: the library's map (a `HashMap`) in the same 16
/// stripes.
#[derive(Debug)]
pub struct ClassInfoConcurrent {
    stripes: Vec<Mutex<HashMap<u64, u64>>>,
}

impl ClassInfoConcurrent {
    pub fn new() -> ClassInfoConcurrent {
        ClassInfoConcurrent {
            stripes: (0..16).map(|_| Mutex::new(HashMap::new())).collect(),
        }
    }
    pub fn put(&self, class: u64) {
        lock(&self.stripes[(class % 16) as usize]).insert(class % 256, class);
    }
    pub fn class_info(&self, class: u64) -> u64 {
        let hit = lock(&self.stripes[(class % 16) as usize])
            .get(&(class % 256))
            .copied();
        work(DISPATCH, hit.unwrap_or(class))
    }
}

impl Default for ClassInfoConcurrent {
    fn default() -> Self {
        ClassInfoConcurrent::new()
    }
}

// ---------------------------------------------------------------------------------------------
// GenericObjectPool (Apache Commons Pool): Table 2 (3) and (2).

/// Units of work of creating (`makeObject`) or validating a pooled object.
const MAKE: u64 = 4;

/// Activating and validating a borrowed object: a short blocking round trip (a pooled
/// connection's ping), then some work. Blocking is what makes a pool's lock expensive: held
/// across it, the lock serializes the waits, whatever the number of cores.
fn activate(obj: u64) -> u64 {
    std::thread::sleep(std::time::Duration::from_micros(20));
    work(MAKE, obj)
}

/// `GenericObjectPool` before 602773 (Issue 93): every public method is synchronized, and
/// `borrowObject` creates and validates objects while holding the pool's lock. Ours: one
/// `Mutex` over the idle list, the counters and the configuration; activation (a 20 us
/// blocking round trip plus work) runs under it. Registered also as the new version of a
/// revert of 602773 (ours: a pair with an expected regression whose cause is unambiguous).
#[derive(Debug, Default)]
pub struct PoolCoarse {
    inner: Mutex<PoolState>,
}

#[derive(Debug, Default)]
struct PoolState {
    idle: Vec<u64>,
    active: usize,
    created: u64,
    max_active: u64,
    max_idle: u64,
}

impl PoolCoarse {
    pub fn new() -> PoolCoarse {
        PoolCoarse::default()
    }
    /// The synchronized section every getter runs (as in [`PoolFine`]).
    fn checked(&self) -> MutexGuard<'_, PoolState> {
        let s = lock(&self.inner);
        work(1, s.created);
        s
    }
    pub fn borrow_object(&self) -> u64 {
        let mut s = lock(&self.inner);
        let obj = match s.idle.pop() {
            Some(o) => o,
            None => {
                s.created += 1;
                s.created
            }
        };
        activate(obj);
        s.active += 1;
        obj
    }
    pub fn return_object(&self, obj: u64) {
        let mut s = lock(&self.inner);
        work(MAKE, obj);
        s.active = s.active.saturating_sub(1);
        if (s.idle.len() as u64) < s.max_idle.max(8) {
            s.idle.push(obj);
        }
    }
    pub fn get_num_active(&self) -> usize {
        self.checked().active
    }
    pub fn get_max_active(&self) -> u64 {
        self.checked().max_active
    }
    pub fn set_max_active(&self, n: u64) {
        self.checked().max_active = n;
    }
    pub fn get_max_idle(&self) -> u64 {
        self.checked().max_idle
    }
}

/// `GenericObjectPool` after 602773 (Table 2 (3), Issue 93: "introducing more fine-grained
/// locking"; (1), 774007, refined it again): objects are created and validated outside the
/// pool's lock, which now guards only the idle list and the counters. The configuration
/// getters are still synchronized (and run the pool's checks under the lock). Paper: speedup 2.09 / 2.20 ((1): 1.52 / 1.57).
#[derive(Debug, Default)]
pub struct PoolFine {
    inner: Mutex<PoolState>,
}

impl PoolFine {
    pub fn new() -> PoolFine {
        PoolFine::default()
    }
    /// The synchronized section every getter runs (the pool's open/closed and eviction
    /// checks; a reconstruction).
    fn checked(&self) -> MutexGuard<'_, PoolState> {
        let s = lock(&self.inner);
        work(1, s.created);
        s
    }
    pub fn borrow_object(&self) -> u64 {
        let obj = {
            let mut s = lock(&self.inner);
            s.active += 1;
            match s.idle.pop() {
                Some(o) => o,
                None => {
                    s.created += 1;
                    s.created
                }
            }
        };
        activate(obj);
        obj
    }
    pub fn return_object(&self, obj: u64) {
        work(MAKE, obj);
        let mut s = lock(&self.inner);
        s.active = s.active.saturating_sub(1);
        if (s.idle.len() as u64) < s.max_idle.max(8) {
            s.idle.push(obj);
        }
    }
    pub fn get_num_active(&self) -> usize {
        self.checked().active
    }
    pub fn get_max_active(&self) -> u64 {
        self.checked().max_active
    }
    pub fn set_max_active(&self, n: u64) {
        self.checked().max_active = n;
    }
    pub fn get_max_idle(&self) -> u64 {
        self.checked().max_idle
    }
}

/// `GenericObjectPool` after 603449 (Table 2 (2), Issue 113: "replace synchronized methods
/// with volatile fields"): the configuration and the active count become volatile fields, read
/// without the lock. Paper: speedup 1.30 / 1.38. Ours: atomics for them, the checks run
/// without the lock; the idle list keeps its lock.
#[derive(Debug, Default)]
pub struct PoolVolatile {
    idle: Mutex<(Vec<u64>, u64)>,
    active: AtomicUsize,
    max_active: AtomicU64,
    max_idle: AtomicU64,
}

impl PoolVolatile {
    pub fn new() -> PoolVolatile {
        PoolVolatile::default()
    }
    pub fn borrow_object(&self) -> u64 {
        self.active.fetch_add(1, Relaxed);
        let obj = {
            let mut s = lock(&self.idle);
            match s.0.pop() {
                Some(o) => o,
                None => {
                    s.1 += 1;
                    s.1
                }
            }
        };
        activate(obj);
        obj
    }
    pub fn return_object(&self, obj: u64) {
        work(MAKE, obj);
        let _ = self
            .active
            .fetch_update(Relaxed, Relaxed, |a| Some(a.saturating_sub(1)));
        let max_idle = self.max_idle.load(Acquire).max(8);
        let mut s = lock(&self.idle);
        if (s.0.len() as u64) < max_idle {
            s.0.push(obj);
        }
    }
    pub fn get_num_active(&self) -> usize {
        work(1, self.max_idle.load(Relaxed));
        self.active.load(Acquire)
    }
    pub fn get_max_active(&self) -> u64 {
        work(1, self.max_idle.load(Relaxed));
        self.max_active.load(Acquire)
    }
    pub fn set_max_active(&self, n: u64) {
        work(1, n);
        self.max_active.store(n, Release);
    }
    pub fn get_max_idle(&self) -> u64 {
        work(1, self.max_active.load(Relaxed));
        self.max_idle.load(Acquire)
    }
}

// ---------------------------------------------------------------------------------------------
// StaticBucketMap (Apache Commons Collections): Table 2 (4).

const BUCKETS: usize = 16;

/// `StaticBucketMap` before 1076039: a lock per bucket; `size` sums per-bucket counts without
/// locking. Ours: `Mutex<Vec<(key, value)>>` buckets and atomic counts.
#[derive(Debug)]
pub struct BucketMap {
    buckets: Vec<Mutex<Vec<(u64, u64)>>>,
    counts: Vec<AtomicUsize>,
}

impl BucketMap {
    pub fn new() -> BucketMap {
        BucketMap {
            buckets: (0..BUCKETS).map(|_| Mutex::new(Vec::new())).collect(),
            counts: (0..BUCKETS).map(|_| AtomicUsize::new(0)).collect(),
        }
    }
    fn bucket(key: u64) -> usize {
        (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 60) as usize % BUCKETS
    }
    pub fn put(&self, key: u64, value: u64) {
        let key = key % 256;
        let b = Self::bucket(key);
        let mut v = lock(&self.buckets[b]);
        match v.iter_mut().find(|e| e.0 == key) {
            Some(e) => e.1 = value,
            None => {
                v.push((key, value));
                self.counts[b].fetch_add(1, Relaxed);
            }
        }
    }
    pub fn get(&self, key: u64) -> u64 {
        let key = key % 256;
        let hit = lock(&self.buckets[Self::bucket(key)])
            .iter()
            .find(|e| e.0 == key)
            .map(|e| e.1);
        work(2, hit.unwrap_or(0))
    }
    pub fn size(&self) -> usize {
        work(
            1,
            self.counts.iter().map(|c| c.load(Relaxed)).sum::<usize>() as u64,
        ) as usize
    }
}

impl Default for BucketMap {
    fn default() -> Self {
        BucketMap::new()
    }
}

/// `StaticBucketMap` after 1076039 (Table 2 (4), COLLECTIONS-334: "fix of a correctness bug by
/// adding synchronization"). Paper: speedup 0.64 / 0.61, a regression. Ours (a
/// reconstruction of the fix's effect, not its code): compound operations and `size` take a
/// map-wide lock around the bucket locks, for their whole duration, so that they are atomic
/// with respect to each other.
#[derive(Debug)]
pub struct BucketMapSync {
    map: BucketMap,
    atomic: Mutex<()>,
}

impl BucketMapSync {
    pub fn new() -> BucketMapSync {
        BucketMapSync {
            map: BucketMap::new(),
            atomic: Mutex::new(()),
        }
    }
    pub fn put(&self, key: u64, value: u64) {
        let _g = lock(&self.atomic);
        self.map.put(key, value);
    }
    pub fn get(&self, key: u64) -> u64 {
        let _g = lock(&self.atomic);
        self.map.get(key)
    }
    pub fn size(&self) -> usize {
        let _g = lock(&self.atomic);
        self.map.size()
    }
}

impl Default for BucketMapSync {
    fn default() -> Self {
        BucketMapSync::new()
    }
}

// ---------------------------------------------------------------------------------------------
// DateTime and ISOChronology (JodaTime): Table 2 (5) and changes without an effect.

const MILLIS_PER_DAY: u64 = 86_400_000;

/// Days from 1970-01-01 to the start of `year`.
fn days_before_year(year: u64) -> u64 {
    let y = year - 1;
    y * 365 + y / 4 - y / 100 + y / 400 - 719_162
}

fn year_of(days: u64) -> u64 {
    let mut y = 1970 + days / 366;
    while days_before_year(y + 1) <= days {
        y += 1;
    }
    y
}

/// The zone offset of a fixed rule set (hours of DST by day of year): pure arithmetic.
fn zone_offset(millis: u64) -> u64 {
    let day = (millis / MILLIS_PER_DAY) % 365;
    3_600_000 * (1 + (80..300).contains(&day) as u64)
}

/// JodaTime's `DateTime` v1.5.2: immutable; field access computes the zone offset without
/// synchronization. Ours: an instant in milliseconds and pure field arithmetic.
#[derive(Debug, Default)]
pub struct DateTime {
    millis: u64,
}

impl DateTime {
    pub fn new(day: u64) -> DateTime {
        DateTime {
            millis: (day % 100_000) * MILLIS_PER_DAY,
        }
    }
    fn local(&self, plus_hours: u64) -> u64 {
        let m = self.millis + plus_hours % 10_000 * 3_600_000;
        m + zone_offset(m)
    }
    pub fn year(&self, plus_hours: u64) -> u64 {
        work(1, year_of(self.local(plus_hours) / MILLIS_PER_DAY))
    }
    pub fn hour_of_day(&self, plus_hours: u64) -> u64 {
        work(1, self.local(plus_hours) / 3_600_000 % 24)
    }
    pub fn day_of_week(&self, plus_hours: u64) -> u64 {
        work(1, (self.local(plus_hours) / MILLIS_PER_DAY + 3) % 7)
    }
}

/// JodaTime's `DateTime` v2.1 (Table 2 (5), Issue 153: reported slower than 1.5.2 "due to
/// additional synchronization"). Paper: speedup 0.91 / 0.91. Ours (reconstructed): the zone
/// offset is looked up in a cache of recent transitions behind a `Mutex`, on every field access,
/// and the lock is held until the field is computed.
#[derive(Debug, Default)]
pub struct DateTimeSync {
    millis: u64,
    offsets: Mutex<[(u64, u64); 8]>,
}

impl DateTimeSync {
    pub fn new(day: u64) -> DateTimeSync {
        DateTimeSync {
            millis: (day % 100_000) * MILLIS_PER_DAY,
            offsets: Mutex::new([(u64::MAX, 0); 8]),
        }
    }
    /// The local time, with the offset cache locked until the field is computed.
    fn local(&self, plus_hours: u64) -> (u64, MutexGuard<'_, [(u64, u64); 8]>) {
        let m = self.millis + plus_hours % 10_000 * 3_600_000;
        let day = m / MILLIS_PER_DAY;
        let mut cache = lock(&self.offsets);
        let slot = &mut cache[(day % 8) as usize];
        if slot.0 != day {
            *slot = (day, zone_offset(m));
        }
        (m + slot.1, cache)
    }
    pub fn year(&self, plus_hours: u64) -> u64 {
        let (m, _held) = self.local(plus_hours);
        work(1, year_of(m / MILLIS_PER_DAY))
    }
    pub fn hour_of_day(&self, plus_hours: u64) -> u64 {
        let (m, _held) = self.local(plus_hours);
        work(1, m / 3_600_000 % 24)
    }
    pub fn day_of_week(&self, plus_hours: u64) -> u64 {
        let (m, _held) = self.local(plus_hours);
        work(1, (m / MILLIS_PER_DAY + 3) % 7)
    }
}

/// A later `DateTime` that only adds a method (`to_iso_day`), one of the 35 of 36 `DateTime`
/// changes of Table 1 without a performance effect. Ours: the common methods are [`DateTime`]'s.
#[derive(Debug, Default)]
pub struct DateTimeIso {
    inner: DateTime,
}

impl DateTimeIso {
    pub fn new(day: u64) -> DateTimeIso {
        DateTimeIso {
            inner: DateTime::new(day),
        }
    }
    pub fn year(&self, plus_hours: u64) -> u64 {
        self.inner.year(plus_hours)
    }
    pub fn hour_of_day(&self, plus_hours: u64) -> u64 {
        self.inner.hour_of_day(plus_hours)
    }
    pub fn day_of_week(&self, plus_hours: u64) -> u64 {
        self.inner.day_of_week(plus_hours)
    }
    pub fn to_iso_day(&self) -> u64 {
        self.inner.millis / MILLIS_PER_DAY
    }
}

/// JodaTime's `ISOChronology` (Table 1: 10 pairs, none performance-influencing): a shared,
/// immutable calendar. Ours: field arithmetic over a days-per-month table.
#[derive(Debug, Default)]
pub struct IsoChronology {
    month_days: [u64; 12],
}

const MONTH_DAYS: [u64; 12] = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

impl IsoChronology {
    pub fn new() -> IsoChronology {
        IsoChronology {
            month_days: MONTH_DAYS,
        }
    }
    pub fn month_of(&self, day: u64) -> u64 {
        let mut d = day % 365;
        let mut m = 0;
        while d >= self.month_days[m] {
            d -= self.month_days[m];
            m += 1;
        }
        work(1, m as u64 + 1)
    }
    pub fn year_of(&self, day: u64) -> u64 {
        work(1, year_of(day % 100_000))
    }
}

/// A later `ISOChronology`: the instance comes from a shared cache (a refactoring of how it is
/// obtained); field arithmetic is unchanged. Ours: the table lives in a `OnceLock` static.
#[derive(Debug)]
pub struct IsoChronologyCached {
    month_days: &'static [u64; 12],
}

impl IsoChronologyCached {
    pub fn new() -> IsoChronologyCached {
        static TABLE: OnceLock<[u64; 12]> = OnceLock::new();
        IsoChronologyCached {
            month_days: TABLE.get_or_init(|| MONTH_DAYS),
        }
    }
    pub fn month_of(&self, day: u64) -> u64 {
        let mut d = day % 365;
        let mut m = 0;
        while d >= self.month_days[m] {
            d -= self.month_days[m];
            m += 1;
        }
        work(1, m as u64 + 1)
    }
    pub fn year_of(&self, day: u64) -> u64 {
        work(1, year_of(day % 100_000))
    }
}

impl Default for IsoChronologyCached {
    fn default() -> Self {
        IsoChronologyCached::new()
    }
}

// ---------------------------------------------------------------------------------------------
// Registrations.

register_concurrent! {
    /// ExpandoMetaClass, Figure 1a: unsynchronized flag.
    pub fn emc_unsync() -> EmcUnsync {
        path: "EmcUnsync", imports: ["perfsyn_corpus::concurrent::EmcUnsync"],
        pairs: [],
        ctors { new() => EmcUnsync::new(); }
        methods {
            initialize(ref self);
            is_initialized(ref self) -> bool;
            invoke(ref self, method: copy u64) -> u64;
            respond_to(ref self, method: copy u64) -> bool;
        }
    }

    /// ExpandoMetaClass, Figure 1b: every method behind one lock (Table 2 (9)).
    pub fn emc_locked() -> EmcLocked {
        path: "EmcLocked", imports: ["perfsyn_corpus::concurrent::EmcLocked"],
        pairs: [
            { old: "EmcUnsync", expected: "regression",
              origin: "SpeedGun Table 2 (9) feff5190, Figure 1a -> 1b; paper speedup 0.92 (8 thr.), 0.96 (64)",
              changed: ["initialize", "is_initialized", "invoke", "respond_to"] },
        ],
        ctors { new() => EmcLocked::new(); }
        methods {
            initialize(ref self);
            is_initialized(ref self) -> bool;
            invoke(ref self, method: copy u64) -> u64;
            respond_to(ref self, method: copy u64) -> bool;
        }
    }

    /// ExpandoMetaClass, Figure 1c: atomic flag, locked initializer (Table 2 (13)).
    pub fn emc_atomic() -> EmcAtomic {
        path: "EmcAtomic", imports: ["perfsyn_corpus::concurrent::EmcAtomic"],
        pairs: [
            { old: "EmcLocked", expected: "improvement",
              origin: "SpeedGun Table 2 (13) 26fc2100, Figure 1b -> 1c; paper speedup 1.50 (8 thr.), 1.42 (64)",
              changed: ["initialize", "is_initialized", "invoke", "respond_to"] },
            { old: "EmcUnsync", expected: "none",
              origin: "SpeedGun section 1, Figure 1a -> 1c: 'the performance is similar'; no figure",
              changed: ["initialize", "is_initialized", "invoke", "respond_to"] },
        ],
        ctors { new() => EmcAtomic::new(); }
        methods {
            initialize(ref self);
            is_initialized(ref self) -> bool;
            invoke(ref self, method: copy u64) -> u64;
            respond_to(ref self, method: copy u64) -> bool;
        }
    }

    /// ExpandoMetaClass variant that deadlocks in `invoke` (tests only).
    pub fn emc_deadlock() -> EmcDeadlock {
        path: "EmcDeadlock", imports: ["perfsyn_corpus::concurrent::EmcDeadlock"],
        pairs: [
            { old: "EmcLocked", expected: "inconclusive",
              origin: "ours: a version that deadlocks, for the inconclusive-test check",
              changed: ["invoke"] },
        ],
        ctors { new() => EmcDeadlock::new(); }
        methods {
            initialize(ref self);
            is_initialized(ref self) -> bool;
            invoke(ref self, method: copy u64) -> u64;
            respond_to(ref self, method: copy u64) -> bool;
        }
    }

    /// ExpandoMetaClass method registry with a volatile `modified` flag.
    pub fn emc_registry_volatile() -> EmcRegistryVolatile {
        path: "EmcRegistryVolatile", imports: ["perfsyn_corpus::concurrent::EmcRegistryVolatile"],
        pairs: [],
        ctors { new() => EmcRegistryVolatile::new(); }
        methods {
            register_method(ref self, name: copy u64);
            invoke(ref self, name: copy u64) -> u64;
            has_method(ref self, name: copy u64) -> bool;
        }
    }

    /// ExpandoMetaClass method registry, change (17): synchronized helpers called under the lock.
    pub fn emc_registry_synchronized() -> EmcRegistrySynchronized {
        path: "EmcRegistrySynchronized", imports: ["perfsyn_corpus::concurrent::EmcRegistrySynchronized"],
        pairs: [
            { old: "EmcRegistryVolatile", expected: "none",
              origin: "SpeedGun Table 2 (17) d38da33c: baseline regression, SpeedGun none (callers hold the lock)",
              changed: ["register_method", "invoke"] },
        ],
        ctors { new() => EmcRegistrySynchronized::new(); }
        methods {
            register_method(ref self, name: copy u64);
            invoke(ref self, name: copy u64) -> u64;
            has_method(ref self, name: copy u64) -> bool;
        }
    }

    /// ExpandoMetaClass properties before change (8).
    pub fn emc_properties() -> EmcProperties {
        path: "EmcProperties", imports: ["perfsyn_corpus::concurrent::EmcProperties"],
        pairs: [],
        ctors { new() => EmcProperties::new(); }
        methods {
            initialize(ref self);
            get_property(ref self, name: copy u64) -> u64;
            set_property(ref self, name: copy u64);
        }
    }

    /// ExpandoMetaClass properties, change (8): a synchronized block on the initializing path.
    pub fn emc_properties_block() -> EmcPropertiesBlock {
        path: "EmcPropertiesBlock", imports: ["perfsyn_corpus::concurrent::EmcPropertiesBlock"],
        pairs: [
            { old: "EmcProperties", expected: "none",
              origin: "SpeedGun Table 2 (8) 2b09801e: baseline regression, SpeedGun none",
              changed: ["initialize", "get_property", "set_property"] },
        ],
        ctors { new() => EmcPropertiesBlock::new(); }
        methods {
            initialize(ref self);
            get_property(ref self, name: copy u64) -> u64;
            set_property(ref self, name: copy u64);
        }
    }

    /// ExpandoMetaClass expando methods behind synchronized methods.
    pub fn emc_expando_sync() -> EmcExpandoSync {
        path: "EmcExpandoSync", imports: ["perfsyn_corpus::concurrent::EmcExpandoSync"],
        pairs: [],
        ctors { new() => EmcExpandoSync::new(); }
        methods {
            add_method(ref self, name: copy u64);
            invoke(ref self, name: copy u64) -> u64;
            has_method(ref self, name: copy u64) -> bool;
        }
    }

    /// ExpandoMetaClass expando methods, change (16): read and write locks.
    pub fn emc_expando_rwlock() -> EmcExpandoRwLock {
        path: "EmcExpandoRwLock", imports: ["perfsyn_corpus::concurrent::EmcExpandoRwLock"],
        pairs: [
            { old: "EmcExpandoSync", expected: "none",
              origin: "SpeedGun Table 2 (16) cdc39843: baseline improvement, SpeedGun none",
              changed: ["add_method", "invoke", "has_method"] },
        ],
        ctors { new() => EmcExpandoRwLock::new(); }
        methods {
            add_method(ref self, name: copy u64);
            invoke(ref self, name: copy u64) -> u64;
            has_method(ref self, name: copy u64) -> bool;
        }
    }

    /// Class-info cache over a project-internal striped map.
    pub fn class_info_striped() -> ClassInfoStriped {
        path: "ClassInfoStriped", imports: ["perfsyn_corpus::concurrent::ClassInfoStriped"],
        pairs: [],
        ctors { new() => ClassInfoStriped::new(); }
        methods {
            put(ref self, class: copy u64);
            class_info(ref self, class: copy u64) -> u64;
        }
    }

    /// Class-info cache, change (11): the library's map.
    pub fn class_info_concurrent() -> ClassInfoConcurrent {
        path: "ClassInfoConcurrent", imports: ["perfsyn_corpus::concurrent::ClassInfoConcurrent"],
        pairs: [
            { old: "ClassInfoStriped", expected: "none",
              origin: "SpeedGun Table 2 (11) 77822d4c: baseline improvement, SpeedGun none",
              changed: ["put", "class_info"] },
        ],
        ctors { new() => ClassInfoConcurrent::new(); }
        methods {
            put(ref self, class: copy u64);
            class_info(ref self, class: copy u64) -> u64;
        }
    }

    /// GenericObjectPool before Issue 93: everything under one lock.
    pub fn pool_coarse() -> PoolCoarse {
        path: "PoolCoarse", imports: ["perfsyn_corpus::concurrent::PoolCoarse"],
        pairs: [
            { old: "PoolFine", expected: "regression",
              origin: "ours: reverting Table 2 (3) 602773 (object activation back under the pool lock)",
              changed: ["borrow_object", "return_object"] },
        ],
        ctors { new() => PoolCoarse::new(); }
        methods {
            borrow_object(ref self) -> u64;
            return_object(ref self, obj: copy u64);
            get_num_active(ref self) -> usize;
            get_max_active(ref self) -> u64;
            set_max_active(ref self, n: copy u64);
            get_max_idle(ref self) -> u64;
        }
    }

    /// GenericObjectPool after Issue 93: creation and validation outside the lock (Table 2 (3)).
    pub fn pool_fine() -> PoolFine {
        path: "PoolFine", imports: ["perfsyn_corpus::concurrent::PoolFine"],
        pairs: [
            { old: "PoolCoarse", expected: "improvement",
              origin: "SpeedGun Table 2 (3) 602773 (and (1) 774007); paper speedup 2.09 / 2.20 ((1): 1.52 / 1.57)",
              changed: ["borrow_object", "return_object"] },
        ],
        ctors { new() => PoolFine::new(); }
        methods {
            borrow_object(ref self) -> u64;
            return_object(ref self, obj: copy u64);
            get_num_active(ref self) -> usize;
            get_max_active(ref self) -> u64;
            set_max_active(ref self, n: copy u64);
            get_max_idle(ref self) -> u64;
        }
    }

    /// GenericObjectPool after Issue 113: volatile configuration (Table 2 (2)).
    pub fn pool_volatile() -> PoolVolatile {
        path: "PoolVolatile", imports: ["perfsyn_corpus::concurrent::PoolVolatile"],
        pairs: [
            { old: "PoolFine", expected: "improvement",
              origin: "SpeedGun Table 2 (2) 603449; paper speedup 1.30 (8 thr.), 1.38 (64)",
              changed: ["get_num_active", "get_max_active", "set_max_active", "get_max_idle"] },
        ],
        ctors { new() => PoolVolatile::new(); }
        methods {
            borrow_object(ref self) -> u64;
            return_object(ref self, obj: copy u64);
            get_num_active(ref self) -> usize;
            get_max_active(ref self) -> u64;
            set_max_active(ref self, n: copy u64);
            get_max_idle(ref self) -> u64;
        }
    }

    /// StaticBucketMap with per-bucket locks.
    pub fn bucket_map() -> BucketMap {
        path: "BucketMap", imports: ["perfsyn_corpus::concurrent::BucketMap"],
        pairs: [],
        ctors { new() => BucketMap::new(); }
        methods {
            put(ref self, key: copy u64, value: copy u64);
            get(ref self, key: copy u64) -> u64;
            size(ref self) -> usize;
        }
    }

    /// StaticBucketMap after COLLECTIONS-334: added synchronization (Table 2 (4)).
    pub fn bucket_map_sync() -> BucketMapSync {
        path: "BucketMapSync", imports: ["perfsyn_corpus::concurrent::BucketMapSync"],
        pairs: [
            { old: "BucketMap", expected: "regression",
              origin: "SpeedGun Table 2 (4) 1076039; paper speedup 0.64 (8 thr.), 0.61 (64)",
              changed: ["put", "get", "size"] },
        ],
        ctors { new() => BucketMapSync::new(); }
        methods {
            put(ref self, key: copy u64, value: copy u64);
            get(ref self, key: copy u64) -> u64;
            size(ref self) -> usize;
        }
    }

    /// JodaTime DateTime 1.5.2.
    pub fn date_time() -> DateTime {
        path: "DateTime", imports: ["perfsyn_corpus::concurrent::DateTime"],
        pairs: [],
        ctors { new(day: copy u64) => DateTime::new(day); }
        methods {
            year(ref self, plus_hours: copy u64) -> u64;
            hour_of_day(ref self, plus_hours: copy u64) -> u64;
            day_of_week(ref self, plus_hours: copy u64) -> u64;
        }
    }

    /// JodaTime DateTime 2.1: added synchronization (Table 2 (5)).
    pub fn date_time_sync() -> DateTimeSync {
        path: "DateTimeSync", imports: ["perfsyn_corpus::concurrent::DateTimeSync"],
        pairs: [
            { old: "DateTime", expected: "regression",
              origin: "SpeedGun Table 2 (5) v1.5.2 -> v2.1, Issue 153; paper speedup 0.91 (8 thr.), 0.91 (64)",
              changed: ["year", "hour_of_day", "day_of_week"] },
        ],
        ctors { new(day: copy u64) => DateTimeSync::new(day); }
        methods {
            year(ref self, plus_hours: copy u64) -> u64;
            hour_of_day(ref self, plus_hours: copy u64) -> u64;
            day_of_week(ref self, plus_hours: copy u64) -> u64;
        }
    }

    /// JodaTime DateTime with one more method and nothing else changed.
    pub fn date_time_iso() -> DateTimeIso {
        path: "DateTimeIso", imports: ["perfsyn_corpus::concurrent::DateTimeIso"],
        pairs: [
            { old: "DateTime", expected: "none",
              origin: "SpeedGun Table 1: DateTime, 35 of 36 changes without a performance effect (a method added)",
              changed: [] },
        ],
        ctors { new(day: copy u64) => DateTimeIso::new(day); }
        methods {
            year(ref self, plus_hours: copy u64) -> u64;
            hour_of_day(ref self, plus_hours: copy u64) -> u64;
            day_of_week(ref self, plus_hours: copy u64) -> u64;
            to_iso_day(ref self) -> u64;
        }
    }

    /// JodaTime ISOChronology.
    pub fn iso_chronology() -> IsoChronology {
        path: "IsoChronology", imports: ["perfsyn_corpus::concurrent::IsoChronology"],
        pairs: [],
        ctors { new() => IsoChronology::new(); }
        methods {
            month_of(ref self, day: copy u64) -> u64;
            year_of(ref self, day: copy u64) -> u64;
        }
    }

    /// JodaTime ISOChronology obtained from a cache (a refactoring).
    pub fn iso_chronology_cached() -> IsoChronologyCached {
        path: "IsoChronologyCached", imports: ["perfsyn_corpus::concurrent::IsoChronologyCached"],
        pairs: [
            { old: "IsoChronology", expected: "none",
              origin: "SpeedGun Table 1: ISOChronology, 10 changes, none performance-influencing (a refactoring)",
              changed: [] },
        ],
        ctors { new() => IsoChronologyCached::new(); }
        methods {
            month_of(ref self, day: copy u64) -> u64;
            year_of(ref self, day: copy u64) -> u64;
        }
    }
}
