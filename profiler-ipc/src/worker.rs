//! The worker end of the shared-memory protocol (the transport lands with the worker issue).
//!
//! `perfsyn-worker --schema` prints the registry's schema as JSON and exits; the engine uses it
//! for `perfsyn list` without starting a session.

use crate::registry::Registry;

/// Runs the worker; returns the process exit code.
pub fn main(registry: &Registry) -> i32 {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("--schema") {
        match serde_json::to_string(&registry.schema()) {
            Ok(s) => {
                println!("{s}");
                return 0;
            }
            Err(e) => {
                eprintln!("perfsyn-worker: cannot encode the schema: {e}");
                return 2;
            }
        }
    }
    eprintln!("perfsyn-worker: usage: perfsyn-worker --schema");
    2
}
