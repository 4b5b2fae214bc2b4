//! Where the hooks that end a program record why: the out-of-memory and out-of-fuel flags.
//!
//! Why a module of its own: the allocator's failure hook and the fuel hook (see `meter`) run
//! in whichever process runs the program. The worker points them at its region's `oom` and
//! `fuel_out` fields, which the supervisor reads after the process died; a fork server's
//! zygotes and children detach them, as they report their end by their exit status. Kept
//! here, below both the worker loop and the fork server, so that neither imports the other.

use std::sync::atomic::{AtomicPtr, AtomicU32, Ordering::*};

use crate::protocol::FromWorker;

/// Where the allocator's failure hook records an out-of-memory (the region's `oom` field,
/// or a fork server's channel in its processes).
static OOM_FLAG: AtomicPtr<AtomicU32> = AtomicPtr::new(std::ptr::null_mut());
/// Where the fuel hook records that the running program ran out of fuel (the region's
/// `fuel_out` field, or a fork server's channel).
static FUEL_FLAG: AtomicPtr<AtomicU32> = AtomicPtr::new(std::ptr::null_mut());

fn on_alloc_failure(_size: usize) {
    let p = OOM_FLAG.load(Relaxed);
    if !p.is_null() {
        // SAFETY: points into shared memory that stays mapped until the process ends.
        unsafe { (*p).store(1, SeqCst) };
    }
}

fn on_fuel_out() {
    let p = FUEL_FLAG.load(Relaxed);
    if !p.is_null() {
        // SAFETY: as for OOM_FLAG.
        unsafe { (*p).store(1, SeqCst) };
    }
}

/// Points the flags at `out`'s `oom` and `fuel_out` fields (shared memory that stays mapped
/// until the process ends) and installs the hooks that set them.
pub(crate) fn attach(out: &FromWorker) {
    OOM_FLAG.store(&out.oom as *const _ as *mut _, SeqCst);
    let _ = crate::meter::OOM_HOOK.set(on_alloc_failure);
    FUEL_FLAG.store(&out.fuel_out as *const _ as *mut _, SeqCst);
    let _ = crate::meter::FUEL_HOOK.set(on_fuel_out);
}

/// Detaches the flags from the region: they describe the worker's own program, and a process
/// forked from it reports its end by its exit status instead.
pub(crate) fn detach() {
    OOM_FLAG.store(std::ptr::null_mut(), SeqCst);
    FUEL_FLAG.store(std::ptr::null_mut(), SeqCst);
}
