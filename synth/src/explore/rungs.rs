//! The first program on a smaller capacity: when no first program of a method on a
//! fixed-capacity type runs at its main capacity, the rungs of its capacity ladder
//! (`harness/rungs.rs`) are tried, largest first.
//!
//! Why: a const generic capacity is fixed when the harness compiles, and some types cannot be
//! built at the main one: heapless's `MpMcQueue<T, N>` asserts `N < 255` (its index is a
//! `u8` without the `mpmc_large` feature), so every candidate of `enqueue` panicked in
//! `new()` ("index out of bounds: the len is 1 but the index is 1") and the method had no
//! first program. Its rung at 128 builds; the search and the verdict then run there.

use anyhow::Result;

use crate::harness::rungs;
use crate::harness::spec::MethodRef;
use crate::run::exec::Executor;
use crate::search::initial::{initial_program, Initial};
use crate::search::fresh::MutationConfig;

/// The first program of `target`'s method on the largest rung of its type's ladder below the
/// main capacity where one runs, with the rung's method; `None` when the type has no ladder
/// or no rung gives one.
pub fn initial_on_a_rung<'s>(
    exec: &mut dyn Executor,
    schema: &'s perfsyn_profiler_ipc::ApiSchema,
    target: &MethodRef<'s>,
    cfg: &MutationConfig,
) -> Result<Option<(MethodRef<'s>, perfsyn_profiler_ipc::Program)>> {
    let ladder = rungs::ladder(schema, &target.ty.name);
    for ty in ladder.iter().rev().filter(|t| t.is_rung()) {
        let Some(method) = ty.method(&target.method.name) else {
            continue;
        };
        let on_rung = MethodRef { ty, method };
        if let Initial::Found(p) = initial_program(exec, &on_rung, cfg)? {
            return Ok(Some((on_rung, p)));
        }
    }
    Ok(None)
}
