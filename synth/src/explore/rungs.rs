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
use crate::search::fresh::MutationConfig;
use crate::search::initial::{initial_program, Initial};

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

#[cfg(test)]
mod tests {
    use perfsyn_profiler_ipc::register_type;
    use perfsyn_profiler_ipc::registry::Registry;

    use super::*;
    use crate::harness::spec::resolve_method;

    /// A queue whose index is a `u8`: it cannot be built at a capacity of 255 or more, as
    /// heapless's `MpMcQueue` asserts.
    pub struct Small<const N: usize> {
        len: u8,
    }

    impl<const N: usize> Small<N> {
        pub fn new() -> Self {
            assert!(N < u8::MAX as usize, "capacity {N} does not fit a u8 index");
            Small { len: 0 }
        }
        pub fn enqueue(&mut self) {
            self.len = self.len.saturating_add(1)
        }
    }

    register_type! {
        pub fn small() -> Small<8192> {
            path: "Small", imports: [], version: None,
            size: [|s| s.len as u64],
            ctors { new() => Small::<8192>::new(); }
            methods { enqueue(mut self); }
            fields {}
        }
        pub fn small_at_16() -> Small<16> {
            path: "Small", imports: [], version: None,
            size: [|s| s.len as u64],
            ctors { new() => Small::<16>::new(); }
            methods { enqueue(mut self); }
            fields {}
        }
        pub fn small_at_128() -> Small<128> {
            path: "Small", imports: [], version: None,
            size: [|s| s.len as u64],
            ctors { new() => Small::<128>::new(); }
            methods { enqueue(mut self); }
            fields {}
        }
        pub fn small_at_1024() -> Small<1024> {
            path: "Small", imports: [], version: None,
            size: [|s| s.len as u64],
            ctors { new() => Small::<1024>::new(); }
            methods { enqueue(mut self); }
            fields {}
        }
    }

    use crate::run::exec::InProcess;

    /// `Small::enqueue` has no first program at the main capacity (its constructor panics);
    /// the largest rung that builds, 128, gives one. The path `Small` resolves to the main
    /// registration only: the rungs are not API of their own.
    #[test]
    fn a_type_that_cannot_be_built_at_its_main_capacity_starts_on_the_largest_rung_that_can() {
        let main = small();
        let reg = Registry::new(vec![
            small_at_16().rung_of(&main, 16),
            small_at_128().rung_of(&main, 128),
            small_at_1024().rung_of(&main, 1024),
            main,
        ]);
        let schema = reg.schema();
        let mut exec = InProcess(reg, schema.clone());
        let target = resolve_method(&schema, "Small::enqueue").unwrap();
        assert_eq!(target.ty.name, "Small<8192>");
        let cfg = MutationConfig::default();
        assert!(matches!(
            initial_program(&mut exec, &target, &cfg).unwrap(),
            Initial::NotFound(_)
        ));
        let (rung, p) = initial_on_a_rung(&mut exec, &schema, &target, &cfg)
            .unwrap()
            .expect("a rung that builds");
        assert_eq!(rung.ty.name, "Small<128>");
        assert!(p.vars.iter().any(|v| v == "Small<128>"), "{p:?}");
    }
}
