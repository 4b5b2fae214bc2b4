//! The search's adaptive fuel cap: new programs get only a multiple of the fuel the
//! costliest program that ran to completion so far spent, instead of the user's whole fuel.
//!
//! Why: a program that runs out of fuel holds its worker for all of it (the user's fuel is
//! sized for the largest program worth measuring, about 0.5 s of edges), and most programs
//! that run out are a mutation that multiplied a loop far past anything the search has
//! completed. Their timeout is all the search learns from them, and it learns it as well
//! from a smaller cap: [`K`] times the costliest completed program still lets the cost grow
//! by that factor in one step, and the cap grows with the search.
//!
//! The cap is a function of the feedback's deterministic `fuel_spent` (edges of the whole
//! program: setup, calls, drops), observed in submission order, never of the clock: the
//! same seed and program budget give the same programs, timeouts and best program on a
//! quiet and a loaded machine. A program cut by the cap is a timeout, like one cut by the
//! user's fuel (the search does not retry it when the cap later grows).

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
/// Environment variable that turns the cap off (`0`): every program gets the user's fuel.
pub const ENV: &str = "PERFSYN_FUEL_CAP";

/// The cap of one search.
#[derive(Clone, Debug)]
pub struct FuelCap {
    enabled: bool,
    k: u64,
    floor: u64,
    /// The largest `fuel_spent` of a program that completed; `None` before the first.
    most: Option<u64>,
}

impl Default for FuelCap {
    fn default() -> Self {
        FuelCap::from_env()
    }
}

impl FuelCap {
    /// The cap with [`K`] and [`FLOOR`], on unless [`ENV`] is `0`.
    pub fn from_env() -> FuelCap {
        FuelCap {
            enabled: std::env::var(ENV).map_or(true, |v| v != "0"),
            ..FuelCap::new(K, FLOOR)
        }
    }

    /// A cap of `k` times the costliest completed program, at least `floor`.
    pub fn new(k: u64, floor: u64) -> FuelCap {
        FuelCap {
            enabled: true,
            k,
            floor,
            most: None,
        }
    }

    /// Takes a program's feedback into account (in submission order).
    pub fn observe(&mut self, f: &Feedback) {
        if f.is_ok() {
            self.most = Some(self.most.unwrap_or(0).max(f.fuel_spent));
        }
    }

    /// The fuel of the next batch's programs, or `None` for the user's whole fuel (the cap
    /// is off, or nothing has completed yet: the root program runs with the user's fuel).
    pub fn cap(&self) -> Option<u64> {
        let most = self.most.filter(|_| self.enabled)?;
        Some(most.saturating_mul(self.k).max(self.floor))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use perfsyn_profiler_ipc::Outcome;

    fn fb(outcome: Outcome, fuel_spent: u64) -> Feedback {
        Feedback {
            fuel_spent,
            ..Feedback::failed(outcome)
        }
    }

    /// The cap follows the costliest completed program, never a timeout or a panic, and
    /// never falls below the floor.
    #[test]
    fn the_cap_follows_completed_programs() {
        let mut c = FuelCap::new(32, 1000);
        assert_eq!(c.cap(), None, "the root runs with the user's fuel");
        c.observe(&fb(Outcome::Ok, 10));
        assert_eq!(c.cap(), Some(1000), "floor");
        c.observe(&fb(Outcome::Ok, 100));
        assert_eq!(c.cap(), Some(3200));
        c.observe(&fb(Outcome::Timeout, 0));
        c.observe(&fb(
            Outcome::Panic {
                stmt: 0,
                message: String::new(),
            },
            1_000_000,
        ));
        c.observe(&fb(Outcome::Ok, 50));
        assert_eq!(c.cap(), Some(3200), "the largest completed one counts");
        c.observe(&fb(Outcome::Ok, u64::MAX / 2));
        assert_eq!(c.cap(), Some(u64::MAX), "saturates");
    }
}
