//! How a registered call is measured: the size of an instance, and an owned result dropped
//! after the measured window.

use super::tests::generate;

/// ropey's `Rope` has `len_bytes()` and `len_chars()` but no `len()`; another type has
/// `size()`: each gets a size function, `len()` first when there is one.
#[test]
fn a_type_without_len_is_measured_by_size_or_a_len_method() {
    let lib = r#"
        pub struct Rope { s: String }
        impl Rope {
            pub fn new() -> Self { Rope { s: String::new() } }
            pub fn len_bytes(&self) -> usize { self.s.len() }
            pub fn len_chars(&self) -> usize { self.s.chars().count() }
        }
        pub struct Graph { n: u32 }
        impl Graph {
            pub fn new() -> Self { Graph { n: 0 } }
            pub fn width(&self) -> usize { 0 }
            pub fn size(&self) -> u32 { self.n }
        }
        pub struct Bag { v: Vec<u64> }
        impl Bag {
            pub fn new() -> Self { Bag { v: Vec::new() } }
            pub fn len_hint(&self, extra: usize) -> usize { extra }
            pub fn len_items(&self) -> usize { self.v.len() }
            pub fn len(&self) -> usize { self.v.len() }
        }
    "#;
    let (_, text) = generate(&[("lib.rs", lib)], &[]);
    let size_of = |ty: &str| {
        let at = text.find(&format!("path: \"{ty}\"")).unwrap();
        text[at..].lines().nth(1).unwrap().trim().to_string()
    };
    assert_eq!(
        size_of("Rope"),
        "size: [|v| v.len_bytes() as u64],",
        "{text}"
    );
    assert_eq!(size_of("Graph"), "size: [|v| v.size() as u64],", "{text}");
    assert_eq!(size_of("Bag"), "size: [|v| v.len() as u64],", "{text}");
}

/// im's `OrdMap::update_lookup_with_key(self, ..) -> (Option<V>, Self)`: the result was
/// dropped inside the measured call, which charged an O(log n) update for dropping the whole
/// new map (reported O(n)). An owned result a caller keeps is marked `{kept}` (dropped after
/// the window); a result that may borrow, whose drop may be the call's work (`Drain<T>`, a
/// crate type unknown to own), or one kept as a variable, is not.
#[test]
fn an_owned_result_is_dropped_after_the_measured_window() {
    let map = r#"
        pub struct Drain<'a, K> { map: &'a mut Map<K> }
        pub struct Map<K> { keys: Vec<K> }
        impl<K: Ord + Clone> Map<K> {
            pub fn new() -> Self { Map { keys: Vec::new() } }
            pub fn update_lookup(self, k: K) -> (Option<K>, Self) { (Some(k), self) }
            pub fn split_off(&mut self, at: usize) -> Vec<K> { self.keys.split_off(at) }
            pub fn first(&self) -> Option<&K> { self.keys.first() }
            pub fn drain(&mut self) -> Drain<K> { Drain { map: self } }
            pub fn without(&self, k: &K) -> Self { Map { keys: self.keys.clone() } }
            pub fn len(&self) -> usize { self.keys.len() }
        }
    "#;
    let (_, text) = generate(&[("lib.rs", map)], &[]);
    let line = |name: &str| {
        text.lines()
            .find(|l| l.trim_start().starts_with(&format!("{name}(")))
            .unwrap_or_else(|| panic!("no {name} in {text}"))
            .to_string()
    };
    assert!(line("update_lookup").contains("{kept}"), "{text}");
    assert!(line("split_off").contains("{kept}"), "{text}");
    for name in ["first", "drain", "without", "len"] {
        assert!(!line(name).contains("{kept}"), "{name}: {text}");
    }
}

/// arrayvec's `ArrayString::try_push_str(&mut self, s: &str) -> Result<(), CapacityError<&str>>`:
/// its numbered variant passes `&n.to_string()`, a temporary the error keeps, and the
/// compiler rejected the wrapper returning it (E0716). A call lending a temporary built in
/// the call, whose result is not kept, is consumed in its statement.
#[test]
fn a_result_borrowing_a_written_out_number_is_consumed_in_its_statement() {
    let lib = r#"
        pub struct Full<T>(pub T);
        pub struct Text { s: String }
        impl Text {
            pub fn new() -> Self { Text { s: String::new() } }
            pub fn try_push_str<'a>(&mut self, s: &'a str) -> Result<(), Full<&'a str>> { Ok(()) }
        }
    "#;
    let (_, text) = generate(&[("lib.rs", lib)], &[]);
    let line = text
        .lines()
        .find(|l| l.contains("try_push_str_numbered("))
        .expect(&text);
    assert!(
        line.ends_with("=> |r| { std::hint::black_box(r.try_push_str(&s.to_string())); };"),
        "{line}"
    );
}
