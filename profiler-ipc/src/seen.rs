//! The table of setups a pool's workers ran, shared by all of them in the doorbell page.
//!
//! Why a module of its own: the table is part of the shared-memory layout (`protocol` places
//! it in the doorbell memfd, zeroed at creation) and the fork server (`forkserver`) reads and
//! writes it; kept here, below both, the protocol does not import the fork server for it.

use std::sync::atomic::Ordering::Relaxed;

/// Hashes of the setups the pool's workers ran, shared by all of them (in the pool's doorbell
/// page, see `protocol::SEEN_OFFSET`): a search's siblings are spread over the
/// workers, so that a child often runs on another worker than its parent did; knowing the
/// parent's setup ran there, a worker starts a zygote for it on the child's first
/// sighting instead of rebuilding it fresh for every sibling it gets.
#[repr(C)]
#[derive(Debug)]
pub struct SeenTable {
    next: std::sync::atomic::AtomicU64,
    slots: [std::sync::atomic::AtomicU64; SEEN_SLOTS],
    /// Per slot, the fuel a program with that setup spent (see
    /// `forkserver::SetupCache::ran`).
    costs: [std::sync::atomic::AtomicU64; SEEN_SLOTS],
}

/// Setups the shared table remembers (the most recent ones).
pub const SEEN_SLOTS: usize = 240;

impl SeenTable {
    /// Remembers setup `h`, in the slot of the oldest one.
    pub(crate) fn insert(&self, h: u64) {
        let i = self.next.fetch_add(1, Relaxed) as usize % SEEN_SLOTS;
        self.costs[i].store(u64::MAX, Relaxed);
        self.slots[i].store(h.max(1), Relaxed);
    }

    /// The slot of `h`, if the table holds it. Uninstrumented (a scan of every slot, per
    /// program).
    #[export_name = "__sanitizer_perfsyn_seen_find"]
    #[inline(never)]
    pub(crate) fn find(&self, h: u64) -> Option<usize> {
        let h = h.max(1);
        let mut found = None;
        for (i, slot) in self.slots.iter().enumerate() {
            if slot.load(Relaxed) == h {
                found = Some(i);
            }
        }
        found
    }

    /// The recorded cost of setup `h` (`u64::MAX` unknown), if the table holds it.
    pub(crate) fn cost(&self, h: u64) -> Option<u64> {
        self.find(h).map(|i| self.costs[i].load(Relaxed))
    }

    /// Records the fuel a program with setup `h` spent, if the table holds it.
    pub(crate) fn set_cost(&self, h: u64, fuel: u64) {
        if let Some(i) = self.find(h) {
            self.costs[i].store(fuel, Relaxed);
        }
    }
}
