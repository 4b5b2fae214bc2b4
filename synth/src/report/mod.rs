//! What the phases exchange: verdicts, complexity classes and the programs a run reports. The bottom
//! floor of the engine: it imports nothing of the engine above it.

pub mod best;
pub mod class;
pub mod verdict;
