//! Runtime helpers for the regression tests and benchmarks that `perfsyn export` writes.
//!
//! An exported test must fail while a bottleneck is there and pass once it is fixed, on
//! every machine and every run. Time cannot promise that, so the cost these helpers compare
//! is the number of probe operations (comparisons, hashes and clones of the probe keys, and
//! the counted comparisons of corpus types such as `EnumeratedDistribution`) performed by
//! the calls under test: deterministic for a given program. The counter is process-wide
//! (`meter::PROBE_OPS`, which every probe operation bumps), so tests that measure take
//! [`serial`] first and do not disturb each other when `cargo test` runs them in parallel. Work that touches no probe value is invisible to it; `perfsyn export` warns
//! when the run file shows that the finding's difference is not in probe operations.
//!
//! Work that touches no probe value is seen through allocations (a [`CountingAlloc`] the
//! exported test file installs as its global allocator; counts are per thread) or, when
//! neither grows, through a ratio of times between two sizes ([`time_ratio`]: interleaved
//! repetitions, a low quantile of each, so a loaded machine slows both sides alike).
//! `perfsyn export` checks which of these grows for the finding before it writes a test.
//!
//! Stable API (exported files depend on it; change it only compatibly):
//! - [`Meter`]: `new`, `start`, `stop`, `ops`, `calls`, `elapsed`. The exported program
//!   calls `start()` and `stop()` around each call under test.
//! - [`assert_growth`] / [`check_growth`]: an asymptotic finding; the cost measured at
//!   several sizes must not grow faster than the documented class (in growth exponent, with
//!   [`GROWTH_TOLERANCE`]).
//! - [`assert_ratio`] / [`check_ratio`]: a relative finding; the subject version must cost no
//!   more than `t_rel` times the reference version.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};

use crate::meter;

/// Serializes the tests of one test binary that measure probe operations (the counter is
/// process-wide). Hold the guard for the whole measurement.
pub fn serial() -> MutexGuard<'static, ()> {
    static LOCK: Mutex<()> = Mutex::new(());
    LOCK.lock().unwrap_or_else(|p| p.into_inner())
}

thread_local! {
    static ALLOCS: Cell<u64> = const { Cell::new(0) };
    static ALLOC_BYTES: Cell<u64> = const { Cell::new(0) };
}
static ALLOC_INSTALLED: AtomicBool = AtomicBool::new(false);

/// The system allocator, counting allocations and requested bytes per thread. An exported
/// test that measures allocations installs it:
/// `#[global_allocator] static ALLOC: regress::CountingAlloc = regress::CountingAlloc;`
#[derive(Debug)]
pub struct CountingAlloc;

fn count_alloc(size: usize) {
    ALLOC_INSTALLED.store(true, Ordering::Relaxed);
    // `try_with`: the counters may be gone while a thread is torn down.
    let _ignored = ALLOCS.try_with(|c| c.set(c.get().wrapping_add(1)));
    let _ignored = ALLOC_BYTES.try_with(|c| c.set(c.get().wrapping_add(size as u64)));
}

// SAFETY: forwards every call to `System` unchanged; only counts (const thread-locals
// without destructors, which never allocate).
unsafe impl GlobalAlloc for CountingAlloc {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count_alloc(layout.size());
        // SAFETY: same contract as ours.
        unsafe { System.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        count_alloc(layout.size());
        // SAFETY: same contract as ours.
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: same contract as ours.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count_alloc(new_size);
        // SAFETY: same contract as ours.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

/// `(allocations, bytes)` counted on this thread by [`CountingAlloc`].
fn thread_allocs() -> (u64, u64) {
    (ALLOCS.with(Cell::get), ALLOC_BYTES.with(Cell::get))
}

/// The probe operations counted so far in this process.
fn probe_ops() -> u64 {
    meter::PROBE_OPS.load(std::sync::atomic::Ordering::Relaxed)
}

/// Measures the calls under test of one run of a program: probe operations (process-wide:
/// see [`serial`]) and wall-clock time (time only for benchmarks; tests compare probe operations).
#[derive(Debug, Default, Clone)]
pub struct Meter {
    ops: u64,
    allocs: u64,
    alloc_bytes: u64,
    calls: u64,
    elapsed: Duration,
    open: Option<(u64, (u64, u64), Instant)>,
}

impl Meter {
    /// A meter with nothing measured.
    pub fn new() -> Meter {
        Meter::default()
    }

    /// Starts measuring a call. A `start` without `stop` is ignored.
    pub fn start(&mut self) {
        self.open = Some((probe_ops(), thread_allocs(), Instant::now()));
    }

    /// Stops measuring the call started last and adds its cost.
    pub fn stop(&mut self) {
        let end = Instant::now();
        let ops = probe_ops();
        let (allocs, bytes) = thread_allocs();
        if let Some((before, (a0, b0), at)) = self.open.take() {
            self.ops += ops.wrapping_sub(before);
            self.allocs += allocs.wrapping_sub(a0);
            self.alloc_bytes += bytes.wrapping_sub(b0);
            self.elapsed += end.duration_since(at);
            self.calls += 1;
        }
    }

    /// Probe operations of the measured calls.
    pub fn ops(&self) -> u64 {
        self.ops
    }

    /// Allocations of the measured calls on this thread (needs [`CountingAlloc`]).
    pub fn allocs(&self) -> u64 {
        self.allocs
    }

    /// Bytes requested by the measured calls on this thread (needs [`CountingAlloc`]).
    pub fn alloc_bytes(&self) -> u64 {
        self.alloc_bytes
    }

    /// Number of measured calls.
    pub fn calls(&self) -> u64 {
        self.calls
    }

    /// Wall-clock time of the measured calls (not deterministic: for benchmarks only).
    pub fn elapsed(&self) -> Duration {
        self.elapsed
    }
}

/// How far (in exponent) the measured growth may exceed the documented class before
/// [`check_growth`] fails: half a polynomial degree. Smaller values catch O(n log n)
/// against O(n) on wide size ranges but risk failing on lower-order terms; larger ones
/// miss O(n^1.5). Probe counts are deterministic, so the tolerance absorbs shape, not noise.
pub const GROWTH_TOLERANCE: f64 = 0.5;

/// The outcome of a growth check.
#[derive(Debug, Clone, PartialEq)]
pub struct Growth {
    /// Least-squares slope of ln(cost + 1) against ln(size): cost grows as size^measured.
    pub measured: f64,
    /// The same slope for the documented class on the same sizes.
    pub expected: f64,
}

/// The exponent `k` such that cost grows as `size^k` over `points` (`(size, cost)`,
/// at least two distinct sizes, all sizes positive): the least-squares slope of
/// ln(cost + 1) against ln(size). `None` when the points do not allow a slope.
pub fn growth_exponent(points: &[(u64, u64)]) -> Option<f64> {
    slope(
        points
            .iter()
            .map(|&(n, c)| (n as f64, (c as f64 + 1.0).ln())),
    )
}

/// The growth exponent a complexity class has on `sizes` (`O(1)`, `O(log n)`, `O(n)`,
/// `O(n log n)`, `O(n^2)`, `O(n^3)`, `O(2^n)`; spaces ignored). `None` for an unknown
/// class or fewer than two distinct positive sizes.
pub fn class_exponent(class: &str, sizes: &[u64]) -> Option<f64> {
    let c: String = class.chars().filter(|c| !c.is_whitespace()).collect();
    let ln_f: fn(f64) -> f64 = match c.as_str() {
        "O(1)" => |_| 0.0,
        "O(logn)" => |n| n.max(2.0).log2().ln(),
        "O(n)" => |n| n.ln(),
        "O(nlogn)" => |n| n.ln() + n.max(2.0).log2().ln(),
        "O(n^2)" => |n| 2.0 * n.ln(),
        "O(n^3)" => |n| 3.0 * n.ln(),
        "O(2^n)" => |n| n * std::f64::consts::LN_2,
        _ => return None,
    };
    slope(sizes.iter().map(|&n| (n as f64, ln_f(n as f64))))
}

/// Least-squares slope of `y` against ln(x) for x > 0.
fn slope(points: impl Iterator<Item = (f64, f64)>) -> Option<f64> {
    let pts: Vec<(f64, f64)> = points
        .filter(|(x, _)| *x > 0.0)
        .map(|(x, y)| (x.ln(), y))
        .collect();
    let n = pts.len() as f64;
    let mx = pts.iter().map(|p| p.0).sum::<f64>() / n;
    let my = pts.iter().map(|p| p.1).sum::<f64>() / n;
    let sxx: f64 = pts.iter().map(|p| (p.0 - mx).powi(2)).sum();
    let sxy: f64 = pts.iter().map(|p| (p.0 - mx) * (p.1 - my)).sum();
    (pts.len() >= 2 && sxx > 0.0).then(|| sxy / sxx)
}

/// Checks that the cost of `what` over `points` (`(size, probe operations)`) grows no faster
/// than `expected` plus [`GROWTH_TOLERANCE`]. The error is one sentence naming the measured
/// growth, the sizes and costs, and the documented class.
pub fn check_growth(what: &str, expected: &str, points: &[(u64, u64)]) -> Result<Growth, String> {
    check_growth_of(what, "probe operations", expected, points)
}

/// [`check_growth`] for any deterministic measure, named in the message (`"allocations"`,
/// `"bytes allocated"`, `"probe operations"`).
pub fn check_growth_of(
    what: &str,
    measure: &str,
    expected: &str,
    points: &[(u64, u64)],
) -> Result<Growth, String> {
    let sizes: Vec<u64> = points.iter().map(|p| p.0).collect();
    let measured = growth_exponent(points).ok_or_else(|| {
        format!("{what}: need two or more distinct positive sizes, got {sizes:?}")
    })?;
    let exp = class_exponent(expected, &sizes)
        .ok_or_else(|| format!("{what}: unknown complexity class `{expected}`"))?;
    let g = Growth {
        measured,
        expected: exp,
    };
    if measured > exp + GROWTH_TOLERANCE {
        let costs: Vec<String> = points.iter().map(|(n, c)| format!("{n}: {c}")).collect();
        return Err(format!(
            "{what}: {measure} grow as n^{measured:.2} (size: cost = {}), faster than the documented {expected} (n^{exp:.2} on these sizes, tolerance +{GROWTH_TOLERANCE})",
            costs.join(", ")
        ));
    }
    Ok(g)
}

/// Panics with [`check_growth`]'s message when the cost grows faster than `expected`. The
/// panic location is the caller's (the exported test).
#[track_caller]
pub fn assert_growth(what: &str, expected: &str, points: &[(u64, u64)]) -> Growth {
    match check_growth(what, expected, points) {
        Ok(g) => g,
        Err(e) => panic!("{e}"),
    }
}

/// Panics with [`check_growth_of`]'s message when `measure` grows faster than `expected`.
/// Allocation measures first check that [`CountingAlloc`] is installed.
#[track_caller]
pub fn assert_growth_of(
    what: &str,
    measure: &str,
    expected: &str,
    points: &[(u64, u64)],
) -> Growth {
    if measure != "probe operations" && !ALLOC_INSTALLED.load(Ordering::Relaxed) {
        panic!("{what}: {measure} are counted by regress::CountingAlloc, which this test binary does not install as #[global_allocator]");
    }
    match check_growth_of(what, measure, expected, points) {
        Ok(g) => g,
        Err(e) => panic!("{e}"),
    }
}

/// The quantile of the measured times [`time_ratio`] compares: low, because load only ever
/// adds time, and not the minimum, which one lucky run decides.
pub const TIME_QUANTILE: f64 = 0.2;

/// `low quantile of a's time / low quantile of b's time` over `reps` interleaved runs of
/// each (a, b, a, b, ...; one warm-up run each first), the time being [`Meter::elapsed`]
/// less the meter's own cost once per measured call, floored at that cost.
pub fn time_ratio(reps: usize, mut a: impl FnMut() -> Meter, mut b: impl FnMut() -> Meter) -> f64 {
    let (warm_a, warm_b) = (a(), b());
    // Calls per run: the same program at the same size measures the same calls.
    let (ca, cb) = (warm_a.calls() as f64, warm_b.calls() as f64);
    let empty = || {
        let mut m = Meter::new();
        m.start();
        m.stop();
        m
    };
    let (mut ta, mut tb, mut te) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..reps.max(1) {
        ta.push(a().elapsed().as_nanos() as f64);
        tb.push(b().elapsed().as_nanos() as f64);
        te.push(empty().elapsed().as_nanos() as f64);
    }
    let q = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[((v.len() - 1) as f64 * TIME_QUANTILE).round() as usize]
    };
    // The meter's own cost (reading the clock twice) is in every measured call: it is taken
    // off both sides once per call, and what is left is floored at it: below that the
    // clock cannot tell two runs apart, so two that both cost about nothing compare as
    // equal rather than as a ratio of clock noise.
    let floor = q(&mut te).max(1.0);
    let net = |v: &mut Vec<f64>, calls: f64| (q(v) - calls * floor).max(floor);
    net(&mut ta, ca) / net(&mut tb, cb)
}

/// Panics when a time ratio passes `max`; `detail` says what the two sides and the bound
/// are (perfsyn derives the bound from the finding).
#[track_caller]
pub fn assert_time_ratio(what: &str, ratio: f64, max: f64, detail: &str) -> f64 {
    if ratio > max {
        panic!("{what}: time ratio {ratio:.2} above {max:.2} ({detail})");
    }
    ratio
}

/// Checks that `subject` costs (probe operations) no more than `t_rel` times `reference`,
/// comparing `(subject + 1) / (reference + 1)` as perfsyn's relative oracle does. Returns
/// the ratio; the error is one sentence naming it.
pub fn check_ratio(what: &str, subject: u64, reference: u64, t_rel: f64) -> Result<f64, String> {
    let ratio = (subject as f64 + 1.0) / (reference as f64 + 1.0);
    if ratio > t_rel {
        return Err(format!(
            "{what}: cost ratio subject/reference = {ratio:.3} ({subject} vs {reference} probe operations), above t_rel = {t_rel}"
        ));
    }
    Ok(ratio)
}

/// Panics with [`check_ratio`]'s message when the subject costs more than `t_rel` times the
/// reference.
#[track_caller]
pub fn assert_ratio(what: &str, subject: u64, reference: u64, t_rel: f64) -> f64 {
    match check_ratio(what, subject, reference, t_rel) {
        Ok(r) => r,
        Err(e) => panic!("{e}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn linear_cost_fails_constant_and_passes_linear() {
        let lin = [(256, 256), (1024, 1024), (4096, 4096)];
        let e = check_growth("m", "O(1)", &lin).unwrap_err();
        assert!(e.contains("n^1.00") && e.contains("O(1)"), "{e}");
        assert!(check_growth("m", "O(n)", &lin).is_ok());
        assert!(check_growth("m", "O(1)", &[(256, 2), (1024, 3), (4096, 2)]).is_ok());
        let quad = [(256, 256 * 256), (4096, 4096 * 4096)];
        assert!(check_growth("m", "O(n)", &quad).is_err());
        assert!(check_growth("m", "O(n log n)", &quad).is_err());
        assert!(check_growth("m", "O(n^2)", &quad).is_ok());
        assert!(check_growth("m", "O(7)", &quad)
            .unwrap_err()
            .contains("unknown"));
        assert!(check_growth("m", "O(1)", &[(4, 1)]).is_err());
    }

    #[test]
    fn ratio_is_smoothed_and_names_the_threshold() {
        assert!(check_ratio("m", 0, 0, 1.2).is_ok());
        let e = check_ratio("m", 99, 9, 1.2).unwrap_err();
        assert!(e.contains("10.000") && e.contains("t_rel = 1.2"), "{e}");
    }

    #[test]
    fn meter_counts_only_between_start_and_stop() {
        let _guard = serial();
        let mut m = Meter::new();
        meter::probe_op();
        m.start();
        meter::probe_op();
        meter::probe_op();
        m.stop();
        m.stop();
        assert_eq!((m.ops(), m.calls()), (2, 1));
    }

    #[test]
    fn growth_of_any_measure_names_it() {
        let lin = [(256, 256), (4096, 4096)];
        let e = check_growth_of("m", "allocations", "O(1)", &lin).unwrap_err();
        assert!(e.contains("allocations grow as n^1.00"), "{e}");
        assert!(check_growth_of("m", "allocations", "O(n)", &lin).is_ok());
    }

    #[test]
    fn time_ratio_compares_low_quantiles() {
        let slow = || {
            let mut m = Meter::new();
            m.start();
            std::thread::sleep(Duration::from_millis(4));
            m.stop();
            m
        };
        let fast = || {
            let mut m = Meter::new();
            m.start();
            m.stop();
            m
        };
        assert!(time_ratio(3, slow, fast) > 100.0);
        assert!(time_ratio(3, fast, slow) < 0.01);
    }
}
