//! Interpreter behaviour on real corpus types: dispatch, loops, panics as data.

use perfsyn_corpus::{probe::Key, registry};
use perfsyn_profiler_ipc::interp::{quiet_panics, Interpreter};
use perfsyn_profiler_ipc::print::print;
use perfsyn_profiler_ipc::{IntTy, Literal, Outcome, Pattern, Program, Stmt};

/// `let v = Vec::new(); for i in 0..n { v.push(Key::new(i % 3)) }; v.<method>()`.
fn filled_vec(n: u32, method: &str, args: Vec<Stmt>) -> Program {
    let mut p = Program::default();
    let v = p.fresh("Vec<Key>");
    let x = p.fresh("u64");
    let k = p.fresh("Key");
    p.body.push(Stmt::Ctor {
        out: v,
        ty: "Vec<Key>".into(),
        ctor: "new".into(),
        args: vec![],
    });
    p.body.push(Stmt::Repeat {
        n,
        body: vec![
            Stmt::Lit {
                out: x,
                value: Literal::Index {
                    ty: IntTy::U64,
                    pattern: Pattern::ModK(3),
                },
            },
            Stmt::Ctor {
                out: k,
                ty: "Key".into(),
                ctor: "new".into(),
                args: vec![x],
            },
            Stmt::Call {
                out: None,
                ty: "Vec<Key>".into(),
                method: "push".into(),
                recv: v,
                args: vec![k],
                under_test: false,
            },
        ],
    });
    let mut call_args = vec![];
    for s in args {
        if let Some(d) = s.defines() {
            call_args.push(d);
        }
        p.body.push(s);
    }
    p.body.push(Stmt::Call {
        out: None,
        ty: "Vec<Key>".into(),
        method: method.into(),
        recv: v,
        args: call_args,
        under_test: true,
    });
    p
}

#[test]
fn loop_builds_the_vector_and_the_call_under_test_is_measured() {
    let reg = registry();
    let it = Interpreter::new(&reg);
    let p = filled_vec(10, "dedup", vec![]);
    let mut contents = vec![];
    let fb = it.run_with(&p, &mut |slots| {
        contents = slots[0]
            .as_ref()
            .unwrap()
            .downcast_ref::<Vec<Key>>()
            .unwrap()
            .iter()
            .map(Key::get)
            .collect();
    });
    assert_eq!(fb.outcome, Outcome::Ok);
    assert_eq!(fb.input_size, 10);
    assert_eq!(fb.calls, 1);
    assert_eq!(contents, vec![0, 1, 2, 0, 1, 2, 0, 1, 2, 0]);
    // dedup of n elements without adjacent duplicates compares n - 1 pairs.
    assert_eq!(fb.cost.probe_ops, 9);
}

#[test]
fn panicking_call_is_returned_with_its_statement_index() {
    quiet_panics();
    let reg = registry();
    let it = Interpreter::new(&reg);
    let mut p = Program::default();
    let v = p.fresh("Vec<Key>");
    let i = p.fresh("usize");
    p.body.push(Stmt::Ctor {
        out: v,
        ty: "Vec<Key>".into(),
        ctor: "new".into(),
        args: vec![],
    });
    p.body.push(Stmt::Lit {
        out: i,
        value: Literal::Int {
            ty: IntTy::Usize,
            value: 3,
        },
    });
    let out = p.fresh("Key");
    p.body.push(Stmt::Call {
        out: Some(out),
        ty: "Vec<Key>".into(),
        method: "remove".into(),
        recv: v,
        args: vec![i],
        under_test: true,
    });
    let fb = it.run(&p);
    match fb.outcome {
        Outcome::Panic { stmt, message } => {
            assert_eq!(stmt, 2);
            assert!(message.contains("removal index"), "{message}");
        }
        o => panic!("expected a panic outcome, got {o:?}"),
    }
}

#[test]
fn ill_typed_program_is_invalid_not_a_crash() {
    let reg = registry();
    let it = Interpreter::new(&reg);
    let mut p = filled_vec(3, "dedup", vec![]);
    p.vars[0] = "Vec<Nope>".into();
    assert!(matches!(it.run(&p).outcome, Outcome::Invalid { .. }));
}

#[test]
fn printed_program_reads_like_rust() {
    let reg = registry();
    let p = filled_vec(4, "contains", vec![]);
    let printed = print(&p, &reg.schema());
    assert!(printed.is_err(), "contains needs an argument");
    let p = filled_vec(4, "dedup", vec![]);
    let printed = print(&p, &reg.schema()).unwrap();
    assert_eq!(
        printed.body,
        "let mut vec0 = Vec::<Key>::new();\nfor i in 0..4i64 {\n    let n1 = (i % 3) as u64;\n    let key2 = Key::new(n1);\n    vec0.push(key2);\n}\nvec0.dedup();\n"
    );
}
