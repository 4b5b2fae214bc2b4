//! Init on API shapes of registry crates tried in the session (litemap), each as a small
//! synthetic crate.

use super::tests::generate;

/// litemap 0.8 writes its main type inside a local `macro_rules!` (to put a `#[cfg]` on a
/// default type parameter), and crates write families of methods or impls through a macro
/// too: init saw the invocation, not the items, and answered "no public type of litemap can
/// be registered". The crate's own macros are expanded (see `expand`): the struct, its
/// constructor and the methods a macro writes into an `impl` block all register, with the doc
/// class the macro's transcriber carries.
#[test]
fn items_a_crate_writes_with_its_own_macros_are_the_api() {
    let lib = r#"
        macro_rules! map_impl(
            ($cfg:meta, $($store:ident)::+ $(, $extra:ident: $extraty:ty)?) => {
                #[cfg($cfg)]
                pub struct LiteMap<K, V> {
                    pub(crate) values: $($store)::+<(K, V)>,
                    $(pub(crate) $extra: $extraty,)?
                }
            };
        );
        map_impl!(feature = "alloc", std::vec::Vec, spare: usize);
        map_impl!(not(feature = "alloc"), Never);

        macro_rules! getters {
            ($($name:ident => $doc:literal),* $(,)?) => {
                $(
                    #[doc = $doc]
                    pub fn $name(&self) -> usize { self.values.len() }
                )*
            };
        }

        impl<K: Ord, V> LiteMap<K, V> {
            pub fn new() -> Self { LiteMap { values: Vec::new(), spare: 0 } }
            /// Inserts a pair. Runs in O(n) time.
            pub fn insert(&mut self, key: K, value: V) { self.values.push((key, value)); }
            getters!(len => "The number of pairs. Runs in O(1) time.", width => "Unused.",);
        }
    "#;
    let (m, text) = generate(&[("lib.rs", lib)], &["alloc"]);
    let registered: Vec<&str> = m.types.iter().map(|t| t.rust.as_str()).collect();
    assert_eq!(registered, ["LiteMap<Key,Key>"], "{text}");
    for method in ["insert(mut self", "len(ref self)", "width(ref self)"] {
        assert!(text.contains(method), "{method} not registered:\n{text}");
    }
    let len = text.lines().find(|l| l.contains("len(ref self)")).unwrap();
    assert!(len.contains("O(1)"), "{len}");
}

/// A macro that no rule of the crate's macros matches, or another crate's macro, is left
/// as it was: nothing registers from it, and init does not fail.
#[test]
fn an_invocation_no_rule_matches_is_left_alone() {
    let lib = r#"
        macro_rules! only_idents { ($($i:ident)*) => { $(pub struct $i;)* }; }
        only_idents!(1 2 3);
        other_crate::make_types!(Foo);
        pub struct Bag { v: Vec<u64> }
        impl Bag {
            pub fn new() -> Bag { Bag { v: Vec::new() } }
            pub fn len(&self) -> usize { self.v.len() }
        }
    "#;
    let (m, text) = generate(&[("lib.rs", lib)], &[]);
    let registered: Vec<&str> = m.types.iter().map(|t| t.rust.as_str()).collect();
    assert_eq!(registered, ["Bag"], "{text}");
}
