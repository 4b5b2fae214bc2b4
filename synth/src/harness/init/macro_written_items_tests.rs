//! Items a crate writes with its own `macro_rules!` (types, impls, functions): part of its
//! API once expanded, and an invocation no rule matches left alone.

use super::tests::generate;

/// slotmap's maps are `SlotMap<K: Key, V>`, and the crate's only `Key` type is defined by its
/// own macro: `new_key_type! { pub struct DefaultKey; }`. The macro-defined type fills `K`
/// (so the map and its methods register instead of 1 method of 156), and, having no
/// constructor syn can see, it is a `Copy` handle programs get from `insert`. A private
/// struct the macro defines, and a macro defining no struct, add nothing. A constructor
/// returning `SlotMap<DefaultKey, V>` (not `Self`) is one.
#[test]
fn a_key_type_defined_by_the_crates_own_macro_fills_a_parameter() {
    let lib = r#"
        pub unsafe trait Key: Copy + Eq + Default { fn data(&self) -> u64; }
        #[macro_export]
        macro_rules! new_key_type {
            ( $(#[$outer:meta])* $vis:vis struct $name:ident; $($rest:tt)* ) => {
                $(#[$outer])*
                #[derive(Copy, Clone, Default, Eq, PartialEq, Hash, Debug)]
                #[repr(transparent)]
                $vis struct $name(u64);
                unsafe impl $crate::Key for $name {
                    fn data(&self) -> u64 { self.0 }
                }
                $crate::new_key_type!($($rest)*);
            };
            () => {}
        }
        macro_rules! helper { ($t:ty) => { impl Key for $t { fn data(&self) -> u64 { 0 } } }; }
        new_key_type! {
            /// The default key.
            pub struct DefaultKey;
            struct Hidden;
        }
        pub struct SlotMap<K: Key, V> { v: Vec<(K, V)> }
        impl<V> SlotMap<DefaultKey, V> {
            pub fn new() -> Self { SlotMap { v: Vec::new() } }
            pub fn with_capacity(capacity: usize) -> SlotMap<DefaultKey, V> { SlotMap { v: Vec::new() } }
        }
        impl<K: Key, V> SlotMap<K, V> {
            pub fn len(&self) -> usize { self.v.len() }
            /// Runs in O(1).
            pub fn insert(&mut self, value: V) -> K {
                let key = K::default();
                self.v.push((key, value));
                key
            }
            pub fn get(&self, key: K) -> Option<&V> { None }
        }
    "#;
    let (_, text) = generate(&[("lib.rs", lib)], &[]);
    assert!(
        text.contains("pub fn slot_map() -> SlotMap<demo::DefaultKey,Key>"),
        "{text}"
    );
    assert!(
        text.contains("insert(mut self, value: val Key) -> DefaultKey"),
        "{text}"
    );
    assert!(
        text.contains("get(ref self, key: copy DefaultKey)"),
        "{text}"
    );
    assert!(!text.contains("Hidden"), "{text}");
    // Written with the key's name, the constructor returns the registered instantiation.
    assert!(
        text.contains("with_capacity(capacity: copy usize) =>"),
        "{text}"
    );
    assert!(!text.contains("skipped: SlotMap"), "{text}");
}

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
