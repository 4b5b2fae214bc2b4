//! Init on API shapes of registry crates tried in the "unseen" session (slotmap, bimap,
//! linked-hash-map, bit-vec), each as a small synthetic crate.

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
