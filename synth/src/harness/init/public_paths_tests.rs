//! What is the public API and by which path: re-exports through renamed modules, items
//! hidden from the docs, and two types of one name in different modules.

use super::tests::generate;

/// im's `mod ord;` (private) with `pub use crate::ord::map as ordmap;` and then
/// `pub use crate::ordmap::OrdMap;`: a module re-exported under another name, and a type
/// re-exported through that name. The type was unreachable, and im registered only its
/// `Vector` (2 types of 6, 70 methods of 251).
#[test]
fn a_type_reexported_through_a_renamed_module_is_reachable() {
    let lib = r#"
        mod ord;
        pub use crate::ord::map as ordmap;
        pub use crate::ordmap::OrdMap;
    "#;
    let ord = r#"
        pub mod map;
    "#;
    let map = r#"
        pub struct OrdMap<K, V> { items: Vec<(K, V)> }
        impl<K: Ord, V> OrdMap<K, V> {
            pub fn new() -> Self { OrdMap { items: Vec::new() } }
            /// Time: O(log n)
            pub fn get(&self, k: &K) -> Option<&V> { None }
        }
    "#;
    let (_, text) = generate(
        &[("lib.rs", lib), ("ord/mod.rs", ord), ("ord/map.rs", map)],
        &[],
    );
    assert!(
        text.contains(r#"get(ref self, k: ref Key) ["O(log n)"];"#),
        "{text}"
    );
    assert!(text.contains("use ::demo::OrdMap;"), "{text}");
}

/// crop's `#[doc(hidden)] pub use rope::gap_buffer::GapBuffer` ("These are not part of the
/// public API, we only export them to be able to run doctests") and `#[doc(hidden)] pub mod
/// tree`: internals registered beside the API (GapBuffer, 23 methods) and hunted against no
/// promise. Hidden re-exports, modules, types and methods are left out.
#[test]
fn items_hidden_from_the_docs_are_not_the_api() {
    let lib = r#"
        mod rope {
            pub struct Rope { s: String }
            impl Rope {
                pub fn new() -> Self { Rope { s: String::new() } }
                pub fn len(&self) -> usize { self.s.len() }
                #[doc(hidden)]
                pub fn assert_invariants(&self) {}
            }
            pub mod gap {
                pub struct GapBuffer { s: String }
                impl GapBuffer {
                    pub fn new() -> Self { GapBuffer { s: String::new() } }
                    pub fn len(&self) -> usize { 0 }
                }
            }
        }
        #[doc(hidden)]
        pub mod tree {
            pub struct Tree { n: usize }
            impl Tree {
                pub fn new() -> Self { Tree { n: 0 } }
                pub fn len(&self) -> usize { self.n }
            }
        }
        #[doc(hidden)]
        pub struct Internal;
        impl Internal { pub fn new() -> Self { Internal } pub fn go(&self) {} }
        pub use rope::Rope;
        #[doc(hidden)]
        pub use rope::gap::GapBuffer;
    "#;
    let (m, text) = generate(&[("lib.rs", lib)], &[]);
    let registered: Vec<&str> = m.types.iter().map(|t| t.rust.as_str()).collect();
    assert_eq!(registered, ["Rope"], "{text}");
    assert!(!text.contains("assert_invariants"), "{text}");
}

/// petgraph has `graph::EdgeIndex` and `adj::EdgeIndex`: both register under
/// module-qualified names, and a parameter `e: EdgeIndex` was refused everywhere
/// ("registered under a module-qualified name"), which left `Graph::remove_edge` and
/// `Graph::edge_weight` out. A signature written in the module that defines one of them names
/// that one (a parameter and a result alike): it is written as its Rust type, which the
/// registry names as registered.
#[test]
fn a_parameter_of_a_type_whose_name_two_modules_use_is_the_one_beside_it() {
    let lib = r#"
        pub mod graph {
            #[derive(Clone, Copy, Default)]
            pub struct EdgeIndex(pub u32);
            impl EdgeIndex { pub fn new(x: usize) -> Self { EdgeIndex(x as u32) } }
            #[derive(Default)]
            pub struct Graph { edges: Vec<u32> }
            impl Graph {
                pub fn add_edge(&mut self, w: u32) -> EdgeIndex { self.edges.push(w); EdgeIndex(w) }
                pub fn remove_edge(&mut self, e: EdgeIndex) -> bool { self.edges.pop().is_some() }
                pub fn len(&self) -> usize { self.edges.len() }
            }
        }
        pub mod adj {
            #[derive(Clone, Copy, Default)]
            pub struct EdgeIndex(pub u64);
            impl EdgeIndex { pub fn new(x: usize) -> Self { EdgeIndex(x as u64) } }
        }
    "#;
    let (_, text) = generate(&[("lib.rs", lib)], &[]);
    assert!(
        text.contains("remove_edge(mut self, e: val demo::graph::EdgeIndex)")
            || text.contains("remove_edge(mut self, e: copy demo::graph::EdgeIndex)"),
        "{text}"
    );
    assert!(!text.contains("skipped: Graph::remove_edge"), "{text}");
    // A result of it is kept, for a later call to take.
    assert!(text.contains("-> demo::graph::EdgeIndex"), "{text}");
}
