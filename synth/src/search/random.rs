//! The random baseline: walks from p0 with uniformly chosen mutations, no learning used
//! in the choice. Every benchmark compares the other strategies against it.

use anyhow::Result;
use rand::RngExt;

use super::aco::walk;
use super::{Search, Strategy};
use crate::search::mutate::Mutation;

/// The random strategy: 16 walkers per round, walk length cycling through 1..=maxMuts.
#[derive(Debug, Default)]
pub struct RandomWalk {
    nb_mut: u32,
}

impl Strategy for RandomWalk {
    fn name(&self) -> &'static str {
        "random"
    }

    fn round(&mut self, s: &mut Search<'_>) -> Result<()> {
        self.nb_mut = self.nb_mut % s.cfg.max_depth + 1;
        let mut pick = |s: &mut Search<'_>, muts: &[Mutation]| s.rng.random_range(0..muts.len());
        walk(s, &[0; 16], self.nb_mut, &mut pick)
    }
}
