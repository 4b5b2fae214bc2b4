//! Names as the module a signature is written in sees them: type aliases are scoped to the
//! module that defines them (one name can be an alias of a primitive in one module, of a
//! type parameter in another and a struct in a third; a private alias shadows the crate's
//! public one in its module), a `use` names the imported type, and of two types or enums of
//! one name, a parameter or a returned value is the one its own module defines.

use super::tests::generate;

/// petgraph's shape: `graph::EdgeIndex` is a struct, `csr::EdgeIndex` an alias of `usize`
/// and `csr::NodeIndex<Ix>` an alias of its parameter. Every alias was applied to every
/// signature by identifier, so `Graph::remove_edge(e: EdgeIndex)` took a `usize` and
/// `Csr::out_degree(a: NodeIndex)` took the graph's struct, and the compiler rejected both
/// ("mismatched types").
#[test]
fn an_alias_applies_in_the_module_that_defines_it() {
    let lib = r#"
        pub mod graph {
            pub type DefaultIx = u32;
            #[derive(Clone, Copy, Default)]
            pub struct NodeIndex<Ix = DefaultIx>(Ix);
            #[derive(Clone, Copy, Default)]
            pub struct EdgeIndex<Ix = DefaultIx>(Ix);
            #[derive(Default)]
            pub struct Graph { n: u32 }
            impl Graph {
                pub fn new() -> Self { Graph { n: 0 } }
                pub fn add_node(&mut self) -> NodeIndex { NodeIndex(0) }
                pub fn add_edge(&mut self, a: NodeIndex, b: NodeIndex) -> EdgeIndex { EdgeIndex(0) }
                pub fn remove_edge(&mut self, e: EdgeIndex) -> bool { true }
            }
        }
        pub mod csr {
            use crate::graph::DefaultIx;
            pub type NodeIndex<Ix = DefaultIx> = Ix;
            pub type EdgeIndex = usize;
            #[derive(Default)]
            pub struct Csr { n: u32 }
            impl Csr {
                pub fn new() -> Self { Csr { n: 0 } }
                pub fn add_node(&mut self) -> NodeIndex<u32> { 0 }
                pub fn out_degree(&self, a: NodeIndex<u32>) -> usize { 0 }
                pub fn edge_weight(&self, e: EdgeIndex) -> usize { e }
            }
        }
        pub mod matrix {
            type DefaultIx = u16;
            #[derive(Default)]
            pub struct Matrix { n: u16 }
            impl Matrix {
                pub fn new() -> Self { Matrix { n: 0 } }
                pub fn add_node(&mut self) -> DefaultIx { 0 }
                pub fn degree(&self, a: DefaultIx) -> usize { 0 }
            }
        }
    "#;
    let (_, text) = generate(&[("lib.rs", lib)], &[]);
    let line = |needle: &str| {
        text.lines()
            .find(|l| l.trim_start().starts_with(needle))
            .unwrap_or_else(|| panic!("no `{needle}` in\n{text}"))
            .trim()
            .to_string()
    };
    assert!(line("remove_edge(").contains("e: val EdgeIndex<"), "{text}");
    assert!(line("out_degree(").contains("a: copy u32"), "{text}");
    assert!(line("edge_weight(").contains("e: copy usize"), "{text}");
    assert!(line("degree(").contains("({a} as u16)"), "{text}");
}

/// petgraph's `Csr<.., Ix = DefaultIx>` with `pub type DefaultIx = u32`: the parameter was
/// instantiated with the alias's path, so `out_degree(a: NodeIndex<Ix>)` read "a value of
/// type `Ix` inside another type" and was skipped; an impl that leaves `Ix` to its default
/// (`impl Csr { fn new() }`) must still be the harness's instantiation.
#[test]
fn a_default_naming_an_alias_of_a_primitive_is_that_primitive() {
    let lib = r#"
        pub type DefaultIx = u32;
        pub trait IndexType: Copy {}
        impl IndexType for u32 {}
        impl IndexType for usize {}
        pub type NodeIndex<Ix = DefaultIx> = Ix;
        pub struct Csr<Ix = DefaultIx> { v: Vec<Ix> }
        impl Csr {
            pub fn new() -> Self { Csr { v: Vec::new() } }
        }
        impl<Ix: IndexType> Csr<Ix> {
            pub fn out_degree(&self, a: NodeIndex<Ix>) -> usize { 0 }
            pub fn node(&self, a: Ix) -> usize { 0 }
        }
    "#;
    let (_, text) = generate(&[("lib.rs", lib)], &[]);
    assert!(text.contains("pub fn csr() -> Csr<u32>"), "{text}");
    assert!(text.contains("new() =>"), "{text}");
    assert!(text.contains("out_degree(ref self, a: copy u32)"), "{text}");
    assert!(text.contains("node(ref self, a: copy u32)"), "{text}");
}

/// petgraph's `stable_graph` writes `use crate::graph::{EdgeIndex, NodeIndex}` and names
/// `EdgeIndex` in `StableGraph::remove_edge(e: EdgeIndex<Ix>)`; `adj` defines another
/// `EdgeIndex`. Both register under module-qualified names, and a parameter naming one was
/// refused outside the module that defines it ("registered under a module-qualified name").
#[test]
fn a_name_a_use_imports_is_the_imported_type() {
    let lib = r#"
        pub mod graph {
            #[derive(Clone, Copy, Default)]
            pub struct EdgeIndex(u32);
        }
        pub mod adj {
            #[derive(Clone, Copy, Default)]
            pub struct EdgeIndex(usize);
        }
        pub mod stable {
            pub use crate::graph::EdgeIndex;
            #[derive(Default)]
            pub struct Stable { n: u32 }
            impl Stable {
                pub fn new() -> Self { Stable { n: 0 } }
                pub fn remove_edge(&mut self, e: EdgeIndex) -> bool { true }
            }
        }
        pub mod frozen {
            use super::graph::*;
            #[derive(Default)]
            pub struct Frozen { n: u32 }
            impl Frozen {
                pub fn new() -> Self { Frozen { n: 0 } }
                pub fn edge(&self, e: EdgeIndex) -> bool { true }
            }
        }
    "#;
    let (m, text) = generate(&[("lib.rs", lib)], &[]);
    let methods = |ty: &str| {
        m.types
            .iter()
            .find(|t| t.ident == ty)
            .map(|t| t.methods.iter().map(|f| f.name.clone()).collect::<Vec<_>>())
            .unwrap_or_default()
    };
    assert!(
        methods("Stable").contains(&"remove_edge".to_string()),
        "{text}"
    );
    assert!(methods("Frozen").contains(&"edge".to_string()), "{text}");
    assert!(text.contains("e: val demo::graph::EdgeIndex"), "{text}");
}

/// heapless's `BinaryHeap<T, K: Kind, const N: usize>` in `binary_heap`, whose `Min` and
/// `Max` implement `Kind`; `sorted_linked_list` defines its own `Min`, `Max` and `Kind`.
/// A type filling a parameter was looked up by its identifier among the crate's unique ones,
/// so the heap was skipped, "K needs Kind".
#[test]
fn a_parameter_takes_the_type_its_own_module_defines_when_two_share_a_name() {
    let lib = r#"
        pub mod binary_heap {
            pub trait Kind {}
            pub enum Min {}
            pub enum Max {}
            impl Kind for Min {}
            impl Kind for Max {}
            pub struct BinaryHeap<T, K> { v: Vec<T>, k: std::marker::PhantomData<K> }
            impl<T: Ord, K: Kind> BinaryHeap<T, K> {
                pub fn new() -> Self { BinaryHeap { v: Vec::new(), k: std::marker::PhantomData } }
                pub fn len(&self) -> usize { self.v.len() }
            }
        }
        pub mod sorted {
            pub trait Kind {}
            pub enum Min {}
            impl Kind for Min {}
            pub struct Sorted<T, K> { v: Vec<T>, k: std::marker::PhantomData<K> }
            impl<T: Ord, K: Kind> Sorted<T, K> {
                pub fn new() -> Self { Sorted { v: Vec::new(), k: std::marker::PhantomData } }
                pub fn len(&self) -> usize { self.v.len() }
            }
        }
    "#;
    let (_, text) = generate(&[("lib.rs", lib)], &[]);
    assert!(
        text.contains("-> BinaryHeap<Key,demo::binary_heap::Min>"),
        "{text}"
    );
    assert!(text.contains("-> Sorted<Key,demo::sorted::Min>"), "{text}");
}

/// im's `hashmap::Entry` and `ordmap::Entry`: the variants of a returned enum were looked up
/// by its identifier, so `OrdMap::entry`'s chained calls matched `hashmap::Entry::Occupied`
/// and the compiler rejected ten registrations ("mismatched types").
#[test]
fn a_returned_enum_is_the_one_its_module_defines_when_two_share_a_name() {
    let map = |m: &str, ty: &str| {
        format!(
            r#"
        pub mod {m} {{
            pub struct OccupiedEntry<'a> {{ v: &'a mut u64 }}
            impl<'a> OccupiedEntry<'a> {{ pub fn get(&self) -> u64 {{ *self.v }} }}
            pub struct VacantEntry<'a> {{ v: &'a mut u64 }}
            impl<'a> VacantEntry<'a> {{ pub fn insert(self, x: u64) {{ *self.v = x }} }}
            pub enum Entry<'a> {{ Occupied(OccupiedEntry<'a>), Vacant(VacantEntry<'a>) }}
            #[derive(Default)]
            pub struct {ty} {{ v: u64 }}
            impl {ty} {{
                pub fn new() -> Self {{ {ty} {{ v: 0 }} }}
                pub fn entry(&mut self, k: u64) -> Entry<'_> {{ Entry::Vacant(VacantEntry {{ v: &mut self.v }}) }}
            }}
        }}"#
        )
    };
    let lib = map("hashmap", "HashMap") + &map("ordmap", "OrdMap");
    let (_, text) = generate(&[("lib.rs", lib.as_str())], &[]);
    let ord = text
        .split("pub fn ord_map()")
        .nth(1)
        .unwrap_or_else(|| panic!("OrdMap not registered:\n{text}"));
    assert!(ord.contains("demo::ordmap::Entry::Occupied"), "{text}");
    assert!(!ord.contains("demo::hashmap::Entry"), "{text}");
    let hash = text
        .split("pub fn hash_map()")
        .nth(1)
        .and_then(|t| t.split("pub fn ord_map()").next())
        .unwrap_or_else(|| panic!("HashMap not registered:\n{text}"));
    assert!(hash.contains("demo::hashmap::Entry::Occupied"), "{text}");
    assert!(!hash.contains("demo::ordmap::Entry"), "{text}");
}
