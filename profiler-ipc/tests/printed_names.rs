//! Two registered types with one Rust name in different modules: each registers under the
//! name it chose, and a printed program names it by its Rust path. An integration test
//! because it crosses the registry and the printer (a unit test in either would import the
//! other).

use perfsyn_profiler_ipc::program::{Program, Stmt};
use perfsyn_profiler_ipc::registry::Registry;

mod v1 {
    #[derive(Default)]
    pub struct Stack(pub Vec<u64>);
    impl Stack {
        pub fn push(&mut self, x: u64) {
            self.0.push(x);
        }
    }
}
mod v2 {
    #[derive(Default)]
    pub struct Stack(pub Vec<u64>);
    impl Stack {
        pub fn push(&mut self, x: u64) {
            self.0.insert(0, x);
        }
    }
}

perfsyn_profiler_ipc::register_type! {
    fn stack_v1() -> v1::Stack {
        name: "v1::Stack",
        path: "v1::Stack", imports: [], version: None,
        size: [|s| s.0.len() as u64],
        ctors { default() => v1::Stack::default(); }
        methods { push(mut self, x: copy u64) ["O(1)"]; }
        fields {}
    }
    fn stack_v2() -> v2::Stack {
        name: "v2::Stack",
        path: "v2::Stack", imports: [], version: None,
        size: [|s| s.0.len() as u64],
        ctors { default() => v2::Stack::default(); }
        methods { push(mut self, x: copy u64) ["O(n)"]; }
        fields {}
    }
}

/// Two types named `Stack` in different modules used to need aliases: the registry name
/// was the Rust type name.
#[test]
fn same_rust_name_in_two_modules_registers_under_chosen_names_and_prints_the_rust_path() {
    let reg = Registry::new(vec![stack_v1(), stack_v2()]);
    let schema = reg.schema();
    let t = schema
        .ty("v2::Stack")
        .expect("registered under its chosen name");
    assert_eq!(t.rust_type(), "v2::Stack");
    assert_eq!(t.method("push").unwrap().expected.as_deref(), Some("O(n)"));
    let mut p = Program::default();
    let s = p.fresh("v2::Stack");
    p.body = vec![Stmt::Ctor {
        out: s,
        ty: "v2::Stack".into(),
        ctor: "default".into(),
        args: vec![],
    }];
    let printed = perfsyn_profiler_ipc::print::print(&p, &schema).expect("prints");
    assert!(
        printed.body.contains("v2::Stack::default()"),
        "{}",
        printed.body
    );
}
