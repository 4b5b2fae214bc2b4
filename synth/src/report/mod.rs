//! What every phase produces and every command reads: verdicts and run files. The bottom
//! floor of the engine: it imports nothing of the engine above it.

pub mod runfile;
pub mod verdict;
