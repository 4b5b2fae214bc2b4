//! The capacity ladder: a fixed-capacity type (`ArrayString<const CAP: usize>`,
//! `heapless::Vec<T, const N: usize>`) registers at its main capacity (the const generic
//! capacity [`instantiate`](super::instantiate) gives, [`ANY_STORAGE_LEN`]) and again at the
//! smaller capacities of [`RUNGS`], each a registration of its own marked as a rung of the
//! main one (`TypeDef::rung_of`, `schema::Rung`).
//!
//! Why: a const generic is fixed when the harness compiles, so one instantiation measures a
//! fixed-capacity container at one capacity. Two things then fail. A constructor that fills
//! the container (`ArrayString::zero_filled()`) gives the largest input in one statement, and
//! no loop of the program varies it: the verdict saw sizes 7936..8192 ("0.0 decades") for
//! `pop`, `truncate` and friends. And a type that cannot be built at the main capacity
//! (heapless `MpMcQueue<T, N>` asserts `N < 255` without a feature) gets no first program at
//! all. With the ladder, the judge renames a program's main type to its rungs (the capacity is
//! then the sweep's size, `judge/capacity_sweep.rs`), and explore starts from the largest rung
//! that builds when the main capacity panics (`explore/rungs.rs`).
//!
//! The rungs are printed from the main registration's text with the capacity replaced, so a
//! rung registers exactly what its main type does (a method returning `Self`, a parameter of
//! the same capacity follow). The issue proposed 16, 256, 4096 and 65536; the ladder is
//! 16, 128, 1024 below the main 8192 instead: steps of 8 give four sizes over 2.7 decades
//! (a verdict needs four sizes and a decade), every rung is a power of two (heapless's
//! `IndexMap` and `MpMcQueue` require one), 128 fits an index of `u8` (the `MpMcQueue`
//! assertion above), and the main capacity stays above the largest size a sweep reaches.
//! 65536 is left out: an inline buffer of 65536 keys is a value of half a megabyte that
//! programs move by value, and no sweep reaches it.

use super::registrations::TypeReg;
use super::storage::ANY_STORAGE_LEN;

/// The capacities a fixed-capacity type registers at besides [`ANY_STORAGE_LEN`].
pub const RUNGS: [usize; 3] = [16, 128, 1024];

/// Whether `t` has a capacity ladder: its Rust type instantiates a capacity (a const generic
/// `usize` that sizes a field, or inline storage for any length).
pub fn has_ladder(t: &TypeReg) -> bool {
    t.free.is_none() && !t.borrowed_input && mentions(&t.rust, ANY_STORAGE_LEN)
}

/// The registration function of the rung of `fn_name` at `capacity`.
pub fn rung_fn(fn_name: &str, capacity: usize) -> String {
    format!("{fn_name}_at_{capacity}")
}

/// The entries of the registry list for the rungs of `t` (registration functions in module
/// `module`), each marked as a rung of the main registration.
pub fn registry_entries(t: &TypeReg, module: &str) -> Vec<String> {
    RUNGS
        .iter()
        .map(|&c| {
            format!(
                "{module}::{}().rung_of(&{module}::{}(), {c})",
                rung_fn(&t.fn_name, c),
                t.fn_name
            )
        })
        .collect()
}

/// The rungs of a registration printed as `text` (one `pub fn fn_name() -> T { ... }` of
/// `register_type!`): the same text at each capacity of [`RUNGS`], under [`rung_fn`]'s name.
pub fn rungs(text: &str, fn_name: &str) -> String {
    let head = format!("pub fn {fn_name}()");
    let mut out = String::new();
    for c in RUNGS {
        let renamed = text.replacen(&head, &format!("pub fn {}()", rung_fn(fn_name, c)), 1);
        out.push_str(&at_capacity(&renamed, c));
    }
    out
}

/// A generated registrations file (`src/lib.rs`) without its rungs: their registry entries
/// and their registrations (each a doc line, `pub fn name_at_N() -> T {`, through its closing
/// `    }` and the blank line after). `None` when it has none.
///
/// Why: a crate may check its capacity when it compiles (`const OK: () = assert!(N >= 32)`),
/// and the rung that breaks the check fails the build with an error in the crate's code (or
/// core's), which names no registration to drop; rather than fail `init` as a whole, the
/// harness is built again without its rungs, as it was before ladders existed.
pub fn without_rungs(text: &str) -> Option<String> {
    let is_rung_fn = |l: &str| {
        l.trim_start()
            .strip_prefix("pub fn ")
            .and_then(|r| r.split_once("() -> "))
            .and_then(|(name, _)| name.rsplit_once("_at_"))
            .is_some_and(|(_, cap)| RUNGS.iter().any(|c| c.to_string() == cap))
    };
    super::drop_registrations::without(text, &|l| l.contains(".rung_of(&"), &is_rung_fn)
}

/// `text` with every integer token equal to [`ANY_STORAGE_LEN`] replaced by `capacity`.
pub fn at_capacity(text: &str, capacity: usize) -> String {
    let main = ANY_STORAGE_LEN.to_string();
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find(&main) {
        let before = rest[..i].chars().next_back();
        let after = rest[i + main.len()..].chars().next();
        let word = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
        out.push_str(&rest[..i]);
        if word(before) || word(after) {
            out.push_str(&main);
        } else {
            out.push_str(&capacity.to_string());
        }
        rest = &rest[i + main.len()..];
    }
    out.push_str(rest);
    out
}

/// Whether `text` holds `n` as a token of its own.
fn mentions(text: &str, n: usize) -> bool {
    at_capacity(text, n + 1) != text
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A harness whose rungs break the build is built again without them: the registrations
    /// file without rungs is the one generated without ladders.
    #[test]
    fn a_harness_without_its_rungs_is_the_one_without_ladders() {
        let main = "    /// Bytes\n    pub fn bytes() -> Bytes<8192> {\n        path: \"Bytes\",\n        fields {}\n    }\n\n";
        let registry = "        perfsyn_api::bytes(),\n";
        let ladder: String = registry_entries_of("bytes")
            .iter()
            .map(|e| format!("        {e},\n"))
            .collect();
        let with = format!("{registry}{ladder}x\n{main}{}}}\n", rungs(main, "bytes"));
        let without = format!("{registry}x\n{main}}}\n");
        assert_eq!(without_rungs(&with).as_deref(), Some(without.as_str()));
        assert_eq!(without_rungs(&without), None);
    }

    fn registry_entries_of(fn_name: &str) -> Vec<String> {
        RUNGS
            .iter()
            .map(|&c| {
                format!(
                    "perfsyn_api::{}().rung_of(&perfsyn_api::{fn_name}(), {c})",
                    rung_fn(fn_name, c)
                )
            })
            .collect()
    }

    #[test]
    fn only_the_capacity_token_is_replaced() {
        assert_eq!(
            at_capacity(
                "Ring<Key,8192> ArrayString::<8192>::new() x81920 [u8; 8192]",
                16
            ),
            "Ring<Key,16> ArrayString::<16>::new() x81920 [u8; 16]"
        );
        assert!(mentions("Vec<Key,8192>", 8192));
        assert!(!mentions("Vec<Key,81920>", 8192));
    }
}
