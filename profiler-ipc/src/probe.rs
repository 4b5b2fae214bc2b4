//! Probe element types: keys whose `Eq`, `Ord`, `Hash` and `Clone` count their calls.
//!
//! Comparisons inside precompiled or uninstrumented code (libc, `std` non-generic parts) leave
//! no edges; counting them in the element type makes their number measurable exactly, and
//! makes exported regression tests deterministic (see [`ops`] and [`thread_ops`]).

#[cfg(not(perfsyn_worker))]
use std::cell::Cell;
use std::cmp::Ordering;
use std::hash::{Hash, Hasher};

use crate::meter;

/// The number of probe operations counted so far in this process.
///
/// Exported tests take the difference around a call; it is deterministic for a given
/// program, unlike time.
pub fn ops() -> u64 {
    meter::PROBE_OPS.load(std::sync::atomic::Ordering::Relaxed)
}

#[cfg(not(perfsyn_worker))]
thread_local! {
    /// Probe operations counted on this thread (see [`thread_ops`]).
    static THREAD_OPS: Cell<u64> = const { Cell::new(0) };
}

/// The number of probe operations counted so far on the calling thread.
///
/// Unlike [`ops`] it does not see other threads, so tests that run in parallel (the default
/// of `cargo test`) do not disturb each other's counts; `regress::Meter` reads it. In the
/// worker (built with `--cfg perfsyn_worker`) it is [`ops`]: see [`count_op`].
pub fn thread_ops() -> u64 {
    #[cfg(perfsyn_worker)]
    return ops();
    #[cfg(not(perfsyn_worker))]
    THREAD_OPS.with(Cell::get)
}

/// Counts one probe operation, process-wide (the worker's `probe_ops`) and, outside the
/// worker, on this thread.
///
/// The probe types call it from their trait impls; a corpus type whose work is comparisons
/// of plain values (not probes) calls it once per comparison so that the work is visible
/// to exported regression tests too.
///
/// Why the worker skips the thread counter: this code is compiled with sanitizer coverage
/// into every probe operation, so its own edges are charged to the method under test.
/// `THREAD_OPS.with` is a generic function whose inlining depends on how the worker's
/// code is split into codegen units; not inlined, it cost 3 edges per probe operation
/// (`LocalKey::with`, its success block, the TLS accessor), inlined none. A worker built
/// after unrelated code was added to this crate charged `Vec<Key>::dedup` 6 edges per
/// element instead of 3 and doubled every cost of the same program. The process-wide
/// counter is one `add` without a branch, so it adds no edge whatever the codegen.
#[inline(always)]
pub fn count_op() {
    meter::probe_op();
    #[cfg(not(perfsyn_worker))]
    THREAD_OPS.with(|c| c.set(c.get().wrapping_add(1)));
}

/// A `u64` key that counts its comparisons, hashes and clones.
#[derive(Debug, Default)]
pub struct Key(pub u64);

impl Key {
    /// A key with value `v`.
    pub fn new(v: u64) -> Key {
        Key(v)
    }

    /// The key's value (not counted).
    pub fn get(&self) -> u64 {
        self.0
    }
}

impl Clone for Key {
    fn clone(&self) -> Key {
        count_op();
        Key(self.0)
    }
}

impl PartialEq for Key {
    fn eq(&self, o: &Key) -> bool {
        count_op();
        self.0 == o.0
    }
}
impl Eq for Key {}

impl PartialOrd for Key {
    fn partial_cmp(&self, o: &Key) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}
impl Ord for Key {
    fn cmp(&self, o: &Key) -> Ordering {
        count_op();
        self.0.cmp(&o.0)
    }
}

impl Hash for Key {
    fn hash<H: Hasher>(&self, h: &mut H) {
        count_op();
        self.0.hash(h);
    }
}

/// A string key that counts its comparisons, hashes and clones.
#[derive(Debug, Default)]
pub struct Name(pub String);

impl Name {
    /// A name with text `s`.
    pub fn new(s: String) -> Name {
        Name(s)
    }

    /// The name's text (not counted).
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl Clone for Name {
    fn clone(&self) -> Name {
        count_op();
        Name(self.0.clone())
    }
}

impl PartialEq for Name {
    fn eq(&self, o: &Name) -> bool {
        count_op();
        self.0 == o.0
    }
}
impl Eq for Name {}

impl PartialOrd for Name {
    fn partial_cmp(&self, o: &Name) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}
impl Ord for Name {
    fn cmp(&self, o: &Name) -> Ordering {
        count_op();
        self.0.cmp(&o.0)
    }
}

impl Hash for Name {
    fn hash<H: Hasher>(&self, h: &mut H) {
        count_op();
        self.0.hash(h);
    }
}

/// The hasher of every registered hash-based collection: SipHash with fixed keys, so the
/// same program probes the same buckets in every run and every process.
pub type FixedState = std::hash::BuildHasherDefault<std::collections::hash_map::DefaultHasher>;

// Registered by their path in this crate: a harness depends on it and on nothing else of
// perfsyn. A crate that re-exports them imports them by its own path (see
// `TypeDef::imported_as`).
crate::register_type! {
    /// A probe key: a `u64` whose comparisons, hashes and clones are counted.
    pub fn key() -> Key {
        path: "Key", imports: ["perfsyn_profiler_ipc::probe::Key"], version: None,
        size: [],
        ctors { new(v: copy u64) => Key::new(v); }
        methods {}
        fields {}
    }

    /// A probe name: a `String` whose comparisons, hashes and clones are counted.
    pub fn name() -> Name {
        path: "Name", imports: ["perfsyn_profiler_ipc::probe::Name"], version: None,
        size: [],
        ctors { new(s: val String) => Name::new(s); }
        methods {}
        fields {}
    }
}

#[cfg(test)]
mod tests {
    /// A generated harness registered the key by the corpus's path, which a user crate's
    /// exported test cannot import, beside its own registrations' runtime path (`E0252` with
    /// dlv-list's `VecList<Key>`): the runtime registers its probe types by its own path.
    #[test]
    fn the_probe_types_are_imported_from_the_runtime() {
        assert_eq!(
            super::key().schema.imports,
            ["perfsyn_profiler_ipc::probe::Key"]
        );
        assert_eq!(
            super::name().schema.imports,
            ["perfsyn_profiler_ipc::probe::Name"]
        );
    }
}
