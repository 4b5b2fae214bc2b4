//! Performance oracles (section 3.2.7): turn the feedback of a path through the mutation
//! tree into a score the search maximizes, and the best program's evidence into a verdict.
//!
//! Observing is separate from judging: the worker measures, the oracle only reads
//! [`Obs`]ervations.

pub mod asymptotic;
pub mod clock;
pub mod fit;
pub mod memoize;
pub mod model_select;
pub mod relative;
pub mod robust;
pub mod toddler;
pub mod toddler_loops;
pub mod toddler_memory;
pub mod toddler_output;
