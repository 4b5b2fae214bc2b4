//! The search's adaptive fuel cap: new programs get only what the search has shown it needs,
//! instead of the user's whole fuel.
//!
//! Why: a program that runs out of fuel holds its worker for all of it (the user's fuel is
//! sized for the largest program worth measuring, about 0.5 s of edges), and most programs
//! that run out are a mutation that multiplied a loop far past anything the search has
//! completed. Their timeout is all the search learns from them, and it learns it as well
//! from a smaller cap: [`K`] times the costliest completed program still lets the cost grow
//! by that factor in one step, and the cap grows with the search.
//!
//! Three bounds, the smallest wins (never below [`FLOOR`]):
//! - [`K`] x the costliest completed program (setup, calls and drops);
//! - [`FLOOR`] + [`K`] x the costliest *calls under test* of a completed program. The search
//!   is after the calls' cost; the setup only builds their input. Measured with
//!   `PERFSYN_WORKER_TRACE` on `Vec::dedup` (seed 2, 300 programs), 97% of the workers' time
//!   went to ~45 programs whose setups spent 20-39M fuel (rotating and inserting into vectors
//!   of 40-64k keys, loop after loop) while their calls under test spent ~0.13M: the search
//!   kept growing setups that no score rewards (the documented class already predicts the
//!   growth). A setup may spend the floor plus what the calls have shown they can grow to;
//!   a method whose calls are costly (a quadratic sort) keeps the room it needs.
//! - [`CEILING`] (a fifth of the default deadline's fuel), or [`ROOT_FACTOR`] x the first
//!   completed program when that is more (a method whose smallest call is already costly):
//!   the search looks for the *shape* of the worst input; the verdict's sweep then scales
//!   that shape up to [`crate::judge::sweep::SWEEP_TARGET_SIZE`] and beyond under the user's fuel, so
//!   searching at larger sizes buys nothing but time.
//!
//! Chosen on the tuning cases of `perfsyn bench search` (disjoint from the suite's): flat
//! ceilings of 5M, 10M and the call bound alone, each against no change. 5M missed the
//! planted quadratic `PivotSorter::sort` on two runs of twelve (its calls need more than 5M
//! at the sizes that show the class); 10M and the call bound missed nothing; together they
//! halved the benchmark's asymptotic time (astar 159 s -> 66 s).
//!
//! The cap is a function of the feedback's deterministic `fuel_spent` and call costs,
//! observed in submission order, never of the clock: the same seed and program budget give
//! the same programs, timeouts and best program on a quiet and a loaded machine. A program
//! cut by the cap is a timeout, like one cut by the user's fuel (the search does not retry
//! it when the cap later grows).

use perfsyn_profiler_ipc::Feedback;

/// How many times the costliest completed program's fuel a new program may spend. Tuned on
/// seeded explores (300 programs, seeds 1 and 2) of methods that are not suite cases
/// (VecDeque::contains, BTreeMap::insert, String::replace, UniqueLog::dedup,
/// RecentList::see, Vec::retain_even) and Vec::dedup: the largest step a completed program
/// took over the costliest before it was 31x (Vec::dedup seed 3, a loop injected around a
/// setup), so 32 cuts none of them, while 16 would have cut three and 8 nine.
pub const K: u64 = 32;
/// The smallest cap (fuel; 10^8 are a nominal second): early programs are tiny, and their
/// children's setup loops may grow a thousandfold in one mutation.
pub const FLOOR: u64 = 4_000_000;
/// The largest cap unless the first completed program needs more (see the module doc).
pub const CEILING: u64 = 10_000_000;
/// The ceiling is at least this many times the first completed program's fuel.
pub const ROOT_FACTOR: u64 = 4;
/// Environment variable that turns the cap off (`0`): every program gets the user's fuel.
pub const ENV: &str = "PERFSYN_FUEL_CAP";

/// The cap of one search.
#[derive(Clone, Debug)]
pub struct FuelCap {
    enabled: bool,
    k: u64,
    floor: u64,
    ceiling: u64,
    /// The largest `fuel_spent` of a program that completed; `None` before the first.
    most: Option<u64>,
    /// The largest fuel the calls under test of a completed program spent.
    most_call: u64,
    /// The `fuel_spent` of the first program that completed (the root).
    first: Option<u64>,
}

impl Default for FuelCap {
    fn default() -> Self {
        FuelCap::from_env()
    }
}

impl FuelCap {
    /// The cap with [`K`], [`FLOOR`] and [`CEILING`], on unless [`ENV`] is `0`.
    pub fn from_env() -> FuelCap {
        FuelCap {
            enabled: std::env::var(ENV).map_or(true, |v| v != "0"),
            ..FuelCap::new(K, FLOOR, CEILING)
        }
    }

    /// A cap of `k` times the costliest completed program, of `floor` plus `k` times the
    /// costliest calls under test, and of `ceiling` (or [`ROOT_FACTOR`] x the first
    /// completed program), at least `floor`.
    pub fn new(k: u64, floor: u64, ceiling: u64) -> FuelCap {
        FuelCap {
            enabled: true,
            k,
            floor,
            ceiling,
            most: None,
            most_call: 0,
            first: None,
        }
    }

    /// Takes a program's feedback into account (in submission order).
    pub fn observe(&mut self, f: &Feedback) {
        if f.is_ok() {
            self.first.get_or_insert(f.fuel_spent);
            self.most = Some(self.most.unwrap_or(0).max(f.fuel_spent));
            self.most_call = self.most_call.max(call_fuel(f));
        }
    }

    /// The fuel of the next batch's programs, or `None` for the user's whole fuel (the cap
    /// is off, or nothing has completed yet: the root program runs with the user's fuel).
    pub fn cap(&self) -> Option<u64> {
        let most = self.most.filter(|_| self.enabled)?;
        let by_program = most.saturating_mul(self.k);
        let by_calls = self
            .floor
            .saturating_add(self.most_call.saturating_mul(self.k));
        let ceiling = self
            .ceiling
            .max(self.first.unwrap_or(0).saturating_mul(ROOT_FACTOR));
        Some(by_program.min(by_calls).min(ceiling).max(self.floor))
    }
}

/// The fuel the calls under test of a program spent: their edges, and their bytes moved
/// counted as the meter counts them ([`perfsyn_profiler_ipc::meter::FUEL_BYTES_PER_EDGE`]).
fn call_fuel(f: &Feedback) -> u64 {
    f.cost
        .edges
        .saturating_add(f.cost.bytes_moved / perfsyn_profiler_ipc::meter::FUEL_BYTES_PER_EDGE)
}

#[cfg(test)]
mod tests {
    use super::*;
    use perfsyn_profiler_ipc::{Cost, Outcome};

    fn fb(outcome: Outcome, fuel_spent: u64) -> Feedback {
        Feedback {
            fuel_spent,
            ..Feedback::failed(outcome)
        }
    }

    /// A completed program whose calls under test spent `edges` edges and moved `bytes`.
    fn ok(fuel_spent: u64, edges: u64, bytes: u64) -> Feedback {
        Feedback {
            cost: Cost {
                edges,
                bytes_moved: bytes,
                ..Cost::default()
            },
            ..fb(Outcome::Ok, fuel_spent)
        }
    }

    /// The cap follows the costliest completed program, never a timeout or a panic, and
    /// never falls below the floor.
    #[test]
    fn the_cap_follows_completed_programs() {
        let mut c = FuelCap::new(32, 1000, u64::MAX);
        assert_eq!(c.cap(), None, "the root runs with the user's fuel");
        c.observe(&ok(10, 10, 0));
        assert_eq!(c.cap(), Some(1000), "floor");
        c.observe(&ok(100, 100, 0));
        assert_eq!(c.cap(), Some(3200));
        c.observe(&fb(Outcome::Timeout, 0));
        c.observe(&fb(
            Outcome::Panic {
                stmt: 0,
                message: String::new(),
            },
            1_000_000,
        ));
        c.observe(&ok(50, 50, 0));
        assert_eq!(c.cap(), Some(3200), "the largest completed one counts");
        c.observe(&ok(u64::MAX / 2, u64::MAX / 2, 0));
        assert_eq!(c.cap(), Some(u64::MAX), "saturates");
    }

    /// A setup cannot grow the cap past the floor plus what the calls under test have shown
    /// (bytes moved count as the meter counts them); costlier calls raise it.
    #[test]
    fn setups_grow_the_cap_only_as_far_as_the_calls_need() {
        let mut c = FuelCap::new(32, 1000, u64::MAX);
        c.observe(&ok(500, 10, 64 * 10));
        assert_eq!(
            c.cap(),
            Some(1000 + 32 * 20),
            "floor + k x the calls' 20 fuel"
        );
        c.observe(&ok(1_000_000, 10, 0));
        assert_eq!(
            c.cap(),
            Some(1640),
            "a costlier setup alone does not raise it"
        );
        c.observe(&ok(1_000_000, 5000, 0));
        assert_eq!(c.cap(), Some(1000 + 32 * 5000), "a costlier call does");
    }

    /// The ceiling holds unless the first completed program (the root) needs more.
    #[test]
    fn the_ceiling_yields_to_a_costly_root() {
        let mut c = FuelCap::new(32, 1000, 50_000);
        c.observe(&ok(100, 100, 0));
        c.observe(&ok(10_000, 10_000, 0));
        assert_eq!(c.cap(), Some(50_000), "ceiling");
        let mut c = FuelCap::new(32, 1000, 50_000);
        c.observe(&ok(100_000, 100_000, 0));
        assert_eq!(c.cap(), Some(ROOT_FACTOR * 100_000), "the root's factor");
    }
}
