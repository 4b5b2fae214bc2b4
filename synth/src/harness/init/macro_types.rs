//! Types a crate defines by invoking its own `macro_rules!`. A slot map's key type can be:
//! `new_key_type! { pub struct DefaultKey; }`, with a macro that writes `$vis struct $name(..)`
//! and `unsafe impl $crate::Key for $name`. Every map of the crate is `SlotMap<K: Key, V>`, so
//! without that type no map registered (1 of 156 methods). syn sees the invocation, not its
//! expansion; this reads the two textually: a macro whose transcriber defines `struct $x`
//! (with the traits it implements `for $x`, and whether it derives `Copy`), and each
//! `[pub] struct Name` an item-level invocation of it passes. The rest of the expansion
//! (its `Default`, its inherent methods) stays invisible, as for any macro-written impl: such a
//! type has no constructor init can see, so it registers as a handle when a method returns it
//! (`SlotMap::insert -> K`), which gives programs valid keys. The compiler checks the guess
//! when `init` builds the worker.

use std::collections::HashMap;

/// What a `macro_rules!` that defines a struct from a metavariable gives that struct.
#[derive(Clone, Debug, Default)]
struct Def {
    /// Traits the macro implements `for $x` (see `int_traits::impls_for_metavariable`).
    traits: Vec<String>,
    /// Whether the struct's `#[derive(..)]` in the macro lists `Copy`.
    copy: bool,
}

/// A struct an invocation defines.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MacroType {
    pub ident: String,
    /// Declared `pub` (not `pub(crate)`, not private) in the invocation.
    pub public: bool,
    pub traits: Vec<String>,
    pub copy: bool,
}

/// The crate's struct-defining macros, by name.
#[derive(Clone, Debug, Default)]
pub struct MacroTypes {
    defs: HashMap<String, Def>,
}

impl MacroTypes {
    /// Records an item-level macro: a `macro_rules!` definition is remembered when it defines
    /// a struct; an invocation of a remembered macro returns the structs it defines.
    pub fn record(&mut self, m: &syn::ItemMacro) -> Vec<MacroType> {
        let owned = super::int_traits::spaced_tokens(&m.mac.tokens.to_string());
        let toks: Vec<&str> = owned.iter().map(String::as_str).collect();
        if m.mac.path.is_ident("macro_rules") {
            if let (Some(name), Some(copy)) = (&m.ident, defines_struct(&toks)) {
                let traits = super::int_traits::impls_for_metavariable(&m.mac.tokens.to_string());
                self.defs.insert(name.to_string(), Def { traits, copy });
            }
            return Vec::new();
        }
        let Some(def) = m
            .mac
            .path
            .segments
            .last()
            .and_then(|s| self.defs.get(&s.ident.to_string()))
        else {
            return Vec::new();
        };
        (1..toks.len())
            .filter(|&i| toks[i - 1] == "struct" && super::int_traits::is_ident(toks[i]))
            .map(|i| MacroType {
                ident: toks[i].to_string(),
                public: i >= 2 && toks[i - 2] == "pub",
                traits: def.traits.clone(),
                copy: def.copy,
            })
            .collect()
    }
}

/// `Some(derives Copy)` when the tokens define `struct $x`: the nearest `derive( .. )` before
/// it, with no other item keyword between, says whether it is `Copy`. The matcher's `$vis:vis
/// struct $name:ident` is an occurrence too, with no derive before it.
fn defines_struct(toks: &[&str]) -> Option<bool> {
    let at: Vec<usize> = (1..toks.len())
        .filter(|&i| toks[i - 1] == "struct" && toks[i].starts_with('$'))
        .map(|i| i - 1)
        .collect();
    if at.is_empty() {
        return None;
    }
    Some(at.into_iter().any(|at| derives_copy(toks, at)))
}

/// Whether the attributes before the item keyword at `at` derive `Copy`.
fn derives_copy(toks: &[&str], at: usize) -> bool {
    for i in (0..at).rev() {
        if ["struct", "enum", "fn", "impl", "union", "type", "=>", ";"].contains(&toks[i]) {
            return false;
        }
        if toks[i] == "derive" {
            return toks[i..at]
                .iter()
                .take_while(|t| **t != ")")
                .any(|t| *t == "Copy");
        }
    }
    false
}
