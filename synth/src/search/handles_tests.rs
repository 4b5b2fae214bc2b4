//! Tests of handle operands through the mutation operators and the initial program: a
//! handle type (no constructor, only handed out by the API's own methods) reaches a call.
//! Kept apart from `handles.rs` because they drive `mutate` and `initial`, which import it.

use perfsyn_profiler_ipc::print::print;
use perfsyn_profiler_ipc::{register_type, Outcome, Program, Registry, Stmt};
use rand::SeedableRng;

use crate::harness::spec::resolve_method;
use crate::search::fresh::MutationConfig;
use crate::search::mutate::{apply, mutations, OpKind};

/// A handle with no constructor: only `Arena::insert` makes one.
#[derive(Clone, Copy, Debug)]
pub struct Index(usize);

impl Index {
    pub fn slot(self) -> usize {
        self.0
    }
}

/// `get` and `remove` panic on a handle the arena did not hand out.
#[derive(Default)]
pub struct Arena {
    v: Vec<Option<u64>>,
}

impl Arena {
    pub fn insert(&mut self, x: u64) -> Index {
        self.v.push(Some(x));
        Index(self.v.len() - 1)
    }
    pub fn get(&self, i: Index) -> u64 {
        self.v[i.0].expect("a live handle")
    }
    pub fn remove(&mut self, i: Index) -> Option<u64> {
        self.v[i.0].take()
    }
}

/// Values keyed by handles of another type (slotmap's `SecondaryMap`): it produces none.
#[derive(Default)]
pub struct Secondary {
    m: std::collections::BTreeMap<usize, u64>,
}

impl Secondary {
    pub fn insert(&mut self, i: Index, x: u64) {
        self.m.insert(i.0, x);
    }
    pub fn len(&self) -> usize {
        self.m.len()
    }
}

register_type! {
    pub fn secondary() -> Secondary {
        path: "Secondary", imports: [], version: None,
        size: [|s| s.m.len() as u64],
        ctors { new() => Secondary::default(); }
        methods {
            insert(mut self, i: copy Index, x: copy u64);
            len(ref self) -> usize ["O(1)"];
        }
        fields {}
    }
}

/// A loop calling a method of `Secondary` with handles gets them from one `Arena` built
/// before the loop, not from a new arena each iteration (whose first handle is always the
/// same): the secondary map holds one entry per iteration.
#[test]
fn a_loop_obtains_its_handles_from_one_producer_built_before_it() {
    let reg = Registry::new(vec![arena(), index(), secondary()]);
    let interp = perfsyn_profiler_ipc::interp::Interpreter::new(&reg);
    let schema = reg.schema();
    let cfg = MutationConfig::default();
    let target = resolve_method(&schema, "Secondary::len").unwrap();
    let p0: Program = crate::search::initial::candidate(&target, &schema, &cfg, 0).unwrap();
    let m = mutations(&p0, &schema, &cfg)
        .into_iter()
        .find(|m| m.op == OpKind::InjectLoop && m.target == "Secondary::insert" && m.count >= 4)
        .expect("a loop of Secondary::insert");
    let mut rng = rand::rngs::StdRng::seed_from_u64(1);
    let q = apply(&p0, &m, &schema, &cfg, &mut rng).unwrap();
    let printed = print(&q, &schema).unwrap().body;
    assert!(interp.accepts(&q), "{printed}");
    let fb = interp.run(&q);
    assert_eq!(fb.outcome, Outcome::Ok, "{printed}");
    assert_eq!(fb.input_size, m.count as u64, "{printed}");
}

register_type! {
    pub fn arena() -> Arena {
        path: "Arena", imports: [], version: None,
        size: [|a| a.v.len() as u64],
        ctors { new() => Arena::default(); }
        methods {
            insert(mut self, x: copy u64) -> Index;
            get(ref self, i: copy Index) -> u64 ["O(1)"];
            remove(mut self, i: copy Index) ["O(1)"];
        }
        fields {}
    }
    pub fn index() -> Index {
        path: "Index", imports: [], version: None,
        size: [],
        ctors {}
        methods { slot(copy self) -> usize; }
        fields {}
    }
}

fn calls(body: &[Stmt], name: &str) -> usize {
    body.iter()
        .map(|s| match s {
            Stmt::Call { method, .. } if method == name => 1,
            Stmt::Repeat { body, .. } => calls(body, name),
            _ => 0,
        })
        .sum()
}

/// A method taking a handle gets an initial program that obtains the handle from its
/// receiver's `insert`, and the worker's interpreter runs it (an invalid handle panics);
/// so does a method of the handle itself.
#[test]
fn a_handle_operand_comes_from_a_call_on_the_receiver() {
    let reg = Registry::new(vec![arena(), index()]);
    let interp = perfsyn_profiler_ipc::interp::Interpreter::new(&reg);
    let schema = reg.schema();
    let cfg = MutationConfig::default();
    for spec in ["Arena::get", "Arena::remove", "Index::slot"] {
        let target = resolve_method(&schema, spec).unwrap();
        let p = crate::search::initial::candidate(&target, &schema, &cfg, 0)
            .unwrap_or_else(|| panic!("no candidate for {spec}"));
        assert_eq!(calls(&p.body, "insert"), 1, "{spec}: {p:?}");
        assert!(interp.accepts(&p), "{spec}: {p:?}");
        assert_eq!(interp.run(&p).outcome, Outcome::Ok, "{spec}: {p:?}");
        let printed = print(&p, &schema).unwrap().body;
        assert!(printed.contains(".insert("), "{printed}");
    }
}

/// The search's mutations call handle-taking methods, once and in loops, with handles
/// the program obtained: every such program is accepted and runs.
#[test]
fn mutations_call_handle_taking_methods_with_valid_handles() {
    let reg = Registry::new(vec![arena(), index()]);
    let interp = perfsyn_profiler_ipc::interp::Interpreter::new(&reg);
    let schema = reg.schema();
    let cfg = MutationConfig::default();
    let target = resolve_method(&schema, "Arena::remove").unwrap();
    let p0: Program = crate::search::initial::candidate(&target, &schema, &cfg, 0).unwrap();
    let mut rng = rand::rngs::StdRng::seed_from_u64(1);
    let mut seen = std::collections::BTreeSet::new();
    for m in mutations(&p0, &schema, &cfg) {
        if !["Arena::get", "Arena::remove"].contains(&m.target.as_str()) {
            continue;
        }
        let q = apply(&p0, &m, &schema, &cfg, &mut rng)
            .unwrap_or_else(|| panic!("{} does not apply", m.describe()));
        assert!(interp.accepts(&q), "{}: {q:?}", m.describe());
        assert_eq!(
            interp.run(&q).outcome,
            Outcome::Ok,
            "{}: {q:?}",
            m.describe()
        );
        seen.insert((m.op, m.target.clone()));
    }
    for want in [
        (OpKind::InjectCall, "Arena::get"),
        (OpKind::InjectLoop, "Arena::get"),
        (OpKind::InjectCall, "Arena::remove"),
    ] {
        assert!(
            seen.contains(&(want.0, want.1.to_string())),
            "{want:?} not among {seen:?}"
        );
    }
}
