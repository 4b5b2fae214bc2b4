//! One core per worker: each worker process, with its fork servers and their children,
//! runs on a core of its own when the pool has no more workers than the process may use.
//!
//! Why: a worker serves a program through a chain of processes (worker, zygote, child) that
//! wake each other. Left to itself, the kernel woke the next process of one worker's chain
//! on the core the other worker was running on, while the first core went idle; it does
//! not pull a task that ran a moment ago to an idle core (it is cache hot), so both
//! workers' chains shared one core for milliseconds. A scheduler trace of
//! `explore --method BTreeMap::insert --seed 1 --max-programs 300` (2 workers, 2 cores,
//! `perf record -a -e sched:sched_switch`) showed the cores idle 22% of the search's wall
//! time. Pinned, each chain has its core and nothing else to wait for.
//!
//! The supervisor names the core in [`ENV`]; the worker pins itself before its hello (its
//! zygotes and children inherit the mask) and restores the mask it started with for a
//! concurrent test, whose threads need every core.

/// Environment variable carrying the core a worker pins itself to.
pub const ENV: &str = "PERFSYN_CPU";
/// Environment variable that turns pinning off in the supervisor (`0`).
pub const PIN_ENV: &str = "PERFSYN_PIN";

/// The cores this process may run on, in increasing order (empty if unknown).
pub fn allowed_cpus() -> Vec<usize> {
    match mask() {
        Some(set) => (0..libc::CPU_SETSIZE as usize)
            // SAFETY: `set` is an initialized mask; the index is below its size.
            .filter(|&c| unsafe { libc::CPU_ISSET(c, &set) })
            .collect(),
        None => Vec::new(),
    }
}

/// The cores a pool of `workers` pins its workers to, one each: `None` when pinning is off
/// ([`PIN_ENV`] = `0`), for a single worker (nothing to share a core with; the kernel may
/// use a free core for its chain) and when there are more workers than cores to give them.
/// The cores are taken in turn from one that depends on the process id, so that the pools
/// of processes running side by side (a test suite) do not all start on the first core.
pub fn plan(workers: usize) -> Option<Vec<usize>> {
    if std::env::var(PIN_ENV).is_ok_and(|v| v == "0") {
        return None;
    }
    let cpus = allowed_cpus();
    if workers < 2 || workers > cpus.len() {
        return None;
    }
    let first = std::process::id() as usize % cpus.len();
    Some(
        (0..workers)
            .map(|k| cpus[(first + k) % cpus.len()])
            .collect(),
    )
}

/// The affinity a worker started with, to give back to a concurrent test.
#[derive(Clone, Copy)]
pub struct Pinned {
    original: libc::cpu_set_t,
    cpu: usize,
}

/// Pins this process to the core named in [`ENV`], if any; `None` if unset or refused.
pub fn pin_from_env() -> Option<Pinned> {
    let cpu: usize = std::env::var(ENV).ok()?.parse().ok()?;
    let original = mask()?;
    let p = Pinned { original, cpu };
    p.pin().then_some(p)
}

impl Pinned {
    /// Back to the pinned core.
    pub fn pin(&self) -> bool {
        if self.cpu >= libc::CPU_SETSIZE as usize {
            return false;
        }
        // SAFETY: an all-zero cpu_set_t is the empty mask.
        let mut set: libc::cpu_set_t = unsafe { std::mem::zeroed() };
        // SAFETY: the index is below the mask's size (checked above).
        unsafe { libc::CPU_SET(self.cpu, &mut set) };
        set_mask(&set)
    }

    /// Every core the process was allowed before pinning.
    pub fn release(&self) -> bool {
        set_mask(&self.original)
    }
}

fn mask() -> Option<libc::cpu_set_t> {
    // SAFETY: an all-zero cpu_set_t is the empty mask; the call fills it.
    let mut set: libc::cpu_set_t = unsafe { std::mem::zeroed() };
    // SAFETY: `set` is a valid, writable mask of the size passed.
    let r = unsafe { libc::sched_getaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &mut set) };
    (r == 0).then_some(set)
}

fn set_mask(set: &libc::cpu_set_t) -> bool {
    // SAFETY: `set` is a valid mask of the size passed.
    unsafe { libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), set) == 0 }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn this_process_may_run_somewhere() {
        assert!(!allowed_cpus().is_empty());
    }

    #[test]
    fn only_a_pool_of_several_workers_no_larger_than_the_machine_is_pinned() {
        let n = allowed_cpus().len();
        assert_eq!(plan(n + 1), None);
        assert_eq!(plan(1), None);
        if std::env::var(PIN_ENV).is_err() && n >= 2 {
            let mut p = plan(n).unwrap();
            p.sort();
            assert_eq!(p, allowed_cpus(), "one core each");
        }
    }
}
