//! Impl blocks fixing a parameter to its private default or to another registered type of the
//! crate register the type again at that instantiation (see `fixed_args`).

use super::tests::{generate, skipped_file};

/// A matrix whose index parameter defaults to a module-private alias of `u16`, while the
/// harness writes it out (a hasher before it is replaced) as the crate's public alias of that
/// name (`u32`); its constructors' blocks leave the index to the private default.
const PRIVATE_DEFAULT: &str = r#"
    pub mod graph { pub type DefaultIx = u32; }
    pub mod matrix {
        use std::marker::PhantomData;
        type DefaultIx = u16;
        pub trait IndexType: Copy {}
        impl IndexType for u16 {}
        impl IndexType for u32 {}
        pub trait EdgeType {}
        pub trait Nullable { type Wrapped; }
        impl<T> Nullable for Option<T> { type Wrapped = T; }
        pub struct Directed;
        pub struct Undirected;
        impl EdgeType for Directed {}
        impl EdgeType for Undirected {}
        pub struct Matrix<N, S = std::collections::hash_map::RandomState, Ty = Directed, Null: Nullable<Wrapped = N> = Option<N>, Ix = DefaultIx> { n: Vec<N>, ty: PhantomData<(S, Ty, Null, Ix)> }
        impl<N, S: std::hash::BuildHasher + Default> Matrix<N, S, Directed> {
            pub fn new() -> Self { Matrix { n: Vec::new(), ty: PhantomData } }
        }
        impl<N, S: std::hash::BuildHasher + Default> Matrix<N, S, Undirected> {
            pub fn new_undirected() -> Self { Matrix { n: Vec::new(), ty: PhantomData } }
        }
        impl<N, S: std::hash::BuildHasher, Ty: EdgeType, Null: Nullable<Wrapped = N>, Ix: IndexType> Matrix<N, S, Ty, Null, Ix> {
            pub fn with_capacity(c: usize) -> Self { Matrix { n: Vec::with_capacity(c), ty: PhantomData } }
            pub fn node_count(&self) -> usize { self.n.len() }
            pub fn remove_node(&mut self, a: NodeIndex<Ix>) {}
        }
        #[derive(Clone, Copy)]
        pub struct NodeIndex<Ix>(Ix);
        impl<Ix: IndexType> NodeIndex<Ix> { pub fn new(x: Ix) -> Self { NodeIndex(x) } }
    }
"#;

#[test]
fn a_block_leaving_a_parameter_to_its_private_default_registers_at_that_default() {
    let (m, text) = generate(&[("lib.rs", PRIVATE_DEFAULT)], &[]);
    let skipped = skipped_file(&m).skipped;
    assert!(
        !skipped
            .iter()
            .any(|s| s.item.ends_with("::new") || s.item.ends_with("new_undirected")),
        "{skipped:?}\n{text}"
    );
    assert!(text.contains("path: \"Matrix<u16>\""), "{text}");
    assert!(text.contains("path: \"Matrix<Undirected,u16>\""), "{text}");
    // `node_count` registers on each and counts once.
    assert_eq!(m.methods(), 2, "{text}");
}

#[test]
fn a_parameter_of_a_type_at_another_primitive_instantiation_is_skipped_not_written() {
    // At `Ix = u16`, `remove_node` takes a `NodeIndex<u16>`, which the program does not hold
    // (`NodeIndex` registers at `u32`): skipped there, registered on the main instantiation.
    let (_, text) = generate(&[("lib.rs", PRIVATE_DEFAULT)], &[]);
    let main = text
        .split("path: \"Matrix\"")
        .nth(1)
        .unwrap_or_else(|| panic!("{text}"));
    let main = main.split("fields").next().unwrap();
    assert!(
        main.contains("remove_node(mut self, a: val NodeIndex<u32>)"),
        "{main}"
    );
    let at_u16 = text
        .split("path: \"Matrix<u16>\"")
        .nth(1)
        .unwrap_or_else(|| panic!("{text}"));
    let at_u16 = at_u16.split("fields").next().unwrap();
    assert!(!at_u16.contains("remove_node"), "{at_u16}");
}

/// A checked wrapper registered over the first graph type meeting its bound, with a block
/// for another graph type written through a public alias over the block's own parameters.
const OVER_ALIAS: &str = r#"
    use std::marker::PhantomData;
    pub trait Kind {}
    pub struct Directed;
    impl Kind for Directed {}
    pub trait Build { fn add(&mut self); }
    #[derive(Default)]
    pub struct Graph<N> { n: Vec<N> }
    impl<N> Graph<N> { pub fn new() -> Self { Graph { n: Vec::new() } } }
    impl<N> Build for Graph<N> { fn add(&mut self) {} }
    #[derive(Default)]
    pub struct Stable<N, Ty: Kind = Directed> { n: Vec<N>, ty: PhantomData<Ty> }
    impl<N, Ty: Kind> Stable<N, Ty> { pub fn new() -> Self { Stable { n: Vec::new(), ty: PhantomData } } }
    impl<N, Ty: Kind> Build for Stable<N, Ty> { fn add(&mut self) {} }
    pub type StableDi<N> = Stable<N, Directed>;
    pub struct Checked<G: Build> { g: G }
    impl<G: Build + Default> Checked<G> {
        pub fn new() -> Self { Checked { g: G::default() } }
        pub fn len(&self) -> usize { 0 }
    }
    impl<N> Checked<StableDi<N>> {
        pub fn remove(&mut self) {}
    }
"#;

#[test]
fn a_block_over_another_registered_type_through_an_alias_registers_at_that_type() {
    let (m, text) = generate(&[("lib.rs", OVER_ALIAS)], &[]);
    let skipped = skipped_file(&m).skipped;
    assert!(
        !skipped.iter().any(|s| s.item == "Checked::remove"),
        "{skipped:?}\n{text}"
    );
    let second = text
        .split("path: \"Checked<StableDi>\"")
        .nth(1)
        .unwrap_or_else(|| panic!("{text}"));
    assert!(
        second.contains("demo::Stable<Key,demo::Directed>"),
        "{text}"
    );
    let second = second.split("fields").next().unwrap();
    assert!(second.contains("remove(mut self)"), "{second}");
}

#[test]
fn a_block_fixing_a_parameter_another_default_names_registers_no_instantiation() {
    // `impl<Null> Matrix<(), S, Undirected, Null>` fixes `N`, which `Null = Option<N>` names: that default
    // would need reading again at `()`, so the block stays another instantiation.
    let lib = PRIVATE_DEFAULT.replace(
        "impl<N, S: std::hash::BuildHasher + Default> Matrix<N, S, Undirected> {",
        "impl<S: std::hash::BuildHasher + Default, Null: Nullable<Wrapped = ()>> Matrix<(), S, Undirected, Null> {",
    );
    let (m, text) = generate(&[("lib.rs", &lib)], &[]);
    assert!(!text.contains("path: \"Matrix<()"), "{text}");
    let skipped = skipped_file(&m).skipped;
    assert!(
        skipped.iter().any(|s| s.item == "Matrix::new_undirected"),
        "{skipped:?}\n{text}"
    );
}

#[test]
fn a_block_over_the_registered_type_through_an_alias_is_the_main_registration() {
    // `impl<N> Checked<GraphAlias<N>>` names, through an alias, the very type `Checked`
    // registers over: its items register there, and no second instantiation is made.
    let lib = format!(
        "{OVER_ALIAS}\n{}",
        "pub type GraphAlias<N> = Graph<N>;
        impl<N> Checked<GraphAlias<N>> { pub fn shrink(&mut self) {} }"
    );
    let (m, text) = generate(&[("lib.rs", &lib)], &[]);
    assert!(!text.contains("path: \"Checked<GraphAlias>\""), "{text}");
    let main = text
        .split("path: \"Checked\"")
        .nth(1)
        .unwrap_or_else(|| panic!("{text}"));
    let main = main.split("fields").next().unwrap();
    assert!(main.contains("shrink(mut self)"), "{main}");
    let skipped = skipped_file(&m).skipped;
    assert!(
        !skipped.iter().any(|s| s.item == "Checked::shrink"),
        "{skipped:?}"
    );
}
