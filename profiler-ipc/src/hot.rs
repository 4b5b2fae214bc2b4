//! Hot lines, worker side: which code addresses the calls under test hit, and how often.
//!
//! The per-guard counters live in [`crate::meter`]; this module turns a guard into the
//! address of its basic block. The worker is built with `-sanitizer-coverage-pc-table`, so
//! every instrumented module hands its table of (PC, flags) pairs, in the order of its guards,
//! to `__sanitizer_cov_pcs_init` right after numbering its guards. The addresses reported are
//! link-time addresses (the load bias subtracted), so that the engine can look them up in the
//! worker binary's line tables without knowing where the process was loaded.

use std::sync::atomic::Ordering::Relaxed;
use std::sync::Mutex;

use crate::feedback::HotPc;
use crate::meter;

/// Most addresses one feedback record carries (the hottest ones); a call under test of a
/// realistic method hits a few hundred blocks.
pub const HOT_MAX: usize = 1024;

/// A module's PC table: the index of its first guard, its entries, their number.
#[derive(Clone, Copy)]
struct Table {
    first: u64,
    pcs: *const usize,
    len: usize,
}

// SAFETY: the tables are read-only data of the binary, alive for the whole process.
unsafe impl Send for Table {}

static TABLES: Mutex<Vec<Table>> = Mutex::new(Vec::new());

/// Records the PC table `[beg, end)` of the module whose guards were numbered last.
///
/// # Safety
/// `[beg, end)` must be the PC table LLVM passes to `__sanitizer_cov_pcs_init`.
pub unsafe fn record_pcs(beg: *const usize, end: *const usize) {
    // SAFETY: both pointers delimit one table.
    let words = unsafe { end.offset_from(beg) };
    let Ok(words) = usize::try_from(words) else {
        return;
    };
    let first = meter::LAST_MODULE_FIRST.load(Relaxed);
    let mut tables = TABLES.lock().unwrap_or_else(|e| e.into_inner());
    if tables.iter().any(|t| t.first == first) {
        return; // the constructor ran twice
    }
    tables.push(Table {
        first,
        pcs: beg,
        len: words / 2,
    });
}

/// The runtime address of the block of guard `index`, if its module gave a PC table.
fn pc_of(tables: &[Table], index: u64) -> Option<usize> {
    let t = tables
        .iter()
        .find(|t| t.first <= index && index < t.first + t.len as u64)?;
    // SAFETY: entry `index - first` lies in the table (pairs of words: PC, flags).
    Some(unsafe { *t.pcs.add(2 * (index - t.first) as usize) })
}

/// The load bias of the main executable (0 unless it is position-independent).
pub(crate) fn load_bias() -> usize {
    unsafe extern "C" fn first(
        info: *mut libc::dl_phdr_info,
        _size: libc::size_t,
        out: *mut libc::c_void,
    ) -> libc::c_int {
        // SAFETY: the loader passes a valid record; `out` is the usize below. The first
        // record is the main program.
        unsafe { *(out as *mut usize) = (*info).dlpi_addr as usize };
        1
    }
    let mut bias = 0usize;
    // SAFETY: the callback only writes `bias`.
    unsafe { libc::dl_iterate_phdr(Some(first), &mut bias as *mut usize as *mut libc::c_void) };
    bias
}

/// The hot addresses of the running program's calls under test: link-time address and
/// hits, the [`HOT_MAX`] hottest, hottest first (ties by address). Empty unless the
/// program asked for hot counts.
pub fn collect() -> Vec<HotPc> {
    let counts = meter::hot_counts();
    if counts.is_empty() {
        return Vec::new();
    }
    let bias = load_bias();
    let tables = TABLES.lock().unwrap_or_else(|e| e.into_inner());
    let mut out: Vec<HotPc> = counts
        .into_iter()
        .filter_map(|(i, hits)| {
            let pc = pc_of(&tables, i as u64)?;
            Some(HotPc {
                addr: pc.wrapping_sub(bias) as u64,
                hits,
            })
        })
        .collect();
    // Bytes moved, at the call of the memcpy family that moved them (one byte before the
    // return address: inside the call instruction, on the caller's line).
    out.extend(meter::hot_moves().into_iter().map(|(ra, hits)| HotPc {
        addr: ra.wrapping_sub(1).wrapping_sub(bias) as u64,
        hits,
    }));
    out.sort_by(|a, b| b.hits.cmp(&a.hits).then(a.addr.cmp(&b.addr)));
    out.truncate(HOT_MAX);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A guard index maps to the PC of its entry in its module's table (entries are pairs).
    #[test]
    fn guards_map_to_their_modules_pc_entries() {
        let a = [0x10usize, 1, 0x20, 0];
        let b = [0x30usize, 1];
        let tables = [
            Table {
                first: 5,
                pcs: a.as_ptr(),
                len: 2,
            },
            Table {
                first: 7,
                pcs: b.as_ptr(),
                len: 1,
            },
        ];
        assert_eq!(pc_of(&tables, 5), Some(0x10));
        assert_eq!(pc_of(&tables, 6), Some(0x20));
        assert_eq!(pc_of(&tables, 7), Some(0x30));
        assert_eq!(pc_of(&tables, 8), None);
        assert_eq!(pc_of(&tables, 4), None);
    }
}
