//! Init on API shapes of registry crates tried in the session (indexmap, ...), each as a
//! small synthetic crate.

use super::tests::generate;

/// indexmap 2 puts `key_mut` on its `Entry` types through a trait of its own
/// (`map::MutableEntryKey`), reached by chaining from `entry()`: the harness called
/// `map.entry(k).key_mut()` without importing the trait, and the compiler rejected all six
/// chains ("no method named `key_mut`", or a private inherent one of the same name). The
/// owner's registration imports the traits of the borrowing types its chains call.
#[test]
fn a_chain_through_a_trait_method_imports_the_trait() {
    let lib = r#"
        pub mod map {
            mod private { pub trait Sealed {} }
            pub trait MutableEntryKey: private::Sealed {
                type Key;
                fn key_mut(&mut self) -> &mut Self::Key;
            }
            pub struct Map<K> { v: Vec<K> }
            pub struct Entry<'a, K> { m: &'a mut Map<K>, k: K }
            impl<K> private::Sealed for Entry<'_, K> {}
            impl<K> MutableEntryKey for Entry<'_, K> {
                type Key = K;
                fn key_mut(&mut self) -> &mut K { &mut self.k }
            }
            impl<K> Map<K> {
                pub fn new() -> Self { Map { v: Vec::new() } }
                pub fn entry(&mut self, k: K) -> Entry<'_, K> { Entry { m: self, k } }
            }
        }
        pub use map::Map;
    "#;
    let (m, text) = generate(&[("lib.rs", lib)], &[]);
    let map = m.types.iter().find(|t| t.path == "Map").expect(&text);
    assert!(
        map.methods.iter().any(|f| f.name == "entry_key_mut"),
        "{text}"
    );
    assert!(
        map.traits.iter().any(|t| t == "demo::map::MutableEntryKey"),
        "{:?}\n{text}",
        map.traits
    );
    assert!(
        text.contains("use demo::map::MutableEntryKey as _;"),
        "{text}"
    );
}
