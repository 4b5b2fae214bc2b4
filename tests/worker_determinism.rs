//! Determinism: the same program gives the same `edges` and `probe_ops` on every run, in a
//! fresh or a warm worker, on any worker of the pool.

mod worker_support;

use std::time::Duration;

use perfsyn_profiler_ipc::{Pattern, Program};
use worker_support::*;

const VEC: &str = "Vec<Key>";
const HASH: &str = "HashMap<Key,u64,FixedState>";
const BTREE: &str = "BTreeMap<Key,u64>";

fn vec_sort(n: u32) -> Program {
    let mut p = Program::default();
    let v = filled(&mut p, VEC, "new", n, Pattern::Hash(7), false);
    call(&mut p, VEC, "sort", v, vec![], true);
    p
}

/// Fills a map with `n` scattered keys, then measures an insert of a new key and a lookup.
fn map_program(ty: &str, ctor: &str, n: u32) -> Program {
    let mut p = Program::default();
    let m = filled(&mut p, ty, ctor, n, Pattern::Hash(3), true);
    let k = key(&mut p, 1 << 20);
    let one = p.fresh("u64");
    p.body.push(perfsyn_profiler_ipc::Stmt::Lit {
        out: one,
        value: perfsyn_profiler_ipc::Literal::Int {
            ty: perfsyn_profiler_ipc::IntTy::U64,
            value: 1,
        },
    });
    call(&mut p, ty, "insert", m, vec![k, one], true);
    let q = key(&mut p, 12345);
    call(&mut p, ty, "get", m, vec![q], true);
    p
}

fn assert_deterministic(name: &str, p: Program) {
    let mut pool = pool(2, Duration::from_secs(20));
    let batch = vec![p; 20];
    let fbs = pool.run(&batch).unwrap();
    let first = &fbs[0];
    assert!(first.is_ok(), "{name}: {:?}", first.outcome);
    assert!(first.cost.edges > 0, "{name}: {first:?}");
    for (i, fb) in fbs.iter().enumerate() {
        assert_eq!(
            (
                fb.cost.edges,
                fb.cost.probe_ops,
                fb.cost.bytes_moved,
                fb.input_size
            ),
            (
                first.cost.edges,
                first.cost.probe_ops,
                first.cost.bytes_moved,
                first.input_size
            ),
            "{name}: run {i} differs"
        );
    }
    // Both workers took part (chunks are spread dynamically over the pool).
    assert!(pool.stats().requests >= 2, "{name}");
}

#[test]
fn vec_programs_are_deterministic() {
    assert_deterministic("Vec::contains", vec_contains(1000, -1));
    assert_deterministic("Vec::sort", vec_sort(2000));
    assert_deterministic("Vec::insert", vec_insert_front(1000));
}

#[test]
fn hash_map_programs_are_deterministic() {
    assert_deterministic("HashMap", map_program(HASH, "default", 3000));
}

#[test]
fn btree_map_programs_are_deterministic() {
    assert_deterministic("BTreeMap", map_program(BTREE, "new", 3000));
}
