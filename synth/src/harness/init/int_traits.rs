//! Traits of the crate that `u64` implements. A key parameter bounded by the crate's own trait
//! (intmap's `IntMap<K: IntKey, V>`, radix_trie's `Trie<K: TrieKey, V>`) is instantiated with
//! `u64` when the crate implements that trait for `u64`: directly (`impl TrieKey for u64`) or,
//! as integer-keyed crates usually do, through a `macro_rules!` that writes
//! `impl Trait for $t` and is invoked with `u64` among its arguments
//! (`impl_int_key_for_int!(u64, U64_PRIME_MAX)`, `int_keys!(u16, u32, u64)`). The compiler
//! checks the guess when `init` builds the worker.

use std::collections::{HashMap, HashSet};

/// What a crate's items say about its trait impls for `u64`.
#[derive(Clone, Debug, Default)]
pub struct U64Traits {
    /// Traits implemented for `u64` by an `impl` item.
    direct: HashSet<String>,
    /// Traits each `macro_rules!` (by name) implements for a type it is given.
    macros: HashMap<String, Vec<String>>,
    /// Names of macros invoked (at item level) with a `u64` argument.
    invoked_with_u64: HashSet<String>,
}

impl U64Traits {
    /// Records an `impl` item.
    pub fn record_impl(&mut self, i: &syn::ItemImpl) {
        let (Some((path, _)), syn::Type::Path(p)) = (&i.trait_, &*i.self_ty) else {
            return;
        };
        if p.qself.is_none() && p.path.is_ident("u64") {
            if let Some(s) = path.segments.last() {
                self.direct.insert(s.ident.to_string());
            }
        }
    }

    /// Records an item-level macro: a `macro_rules!` definition or an invocation.
    pub fn record_macro(&mut self, m: &syn::ItemMacro) {
        let body = m.mac.tokens.to_string();
        if m.mac.path.is_ident("macro_rules") {
            let Some(name) = &m.ident else { return };
            let traits = impls_for_metavariable(&body);
            if !traits.is_empty() {
                self.macros.insert(name.to_string(), traits);
            }
        } else if body
            .split(|c: char| !c.is_alphanumeric() && c != '_')
            .any(|t| t == "u64")
        {
            if let Some(s) = m.mac.path.segments.last() {
                self.invoked_with_u64.insert(s.ident.to_string());
            }
        }
    }

    /// Whether the crate implements `tr` for `u64`.
    pub fn contains(&self, tr: &str) -> bool {
        self.direct.contains(tr)
            || self
                .invoked_with_u64
                .iter()
                .filter_map(|m| self.macros.get(m))
                .any(|ts| ts.iter().any(|t| t == tr))
    }
}

/// The traits a macro body implements for a metavariable: `impl Trait for $t`,
/// `impl<..> Trait for $t`.
fn impls_for_metavariable(body: &str) -> Vec<String> {
    // Delimiters apart, so that `$(impl` is `$ ( impl`.
    let spaced: String = body
        .chars()
        .flat_map(|c| {
            let delim = "()[]{}<>,;".contains(c);
            [delim.then_some(' '), Some(c), delim.then_some(' ')]
        })
        .flatten()
        .collect();
    let toks: Vec<&str> = spaced.split_whitespace().collect();
    let mut out = Vec::new();
    for i in 1..toks.len().saturating_sub(2) {
        // `$t` prints as one token or as `$ t`, depending on how the tokens were parsed.
        if toks[i] != "for" || !toks[i + 1].starts_with('$') {
            continue;
        }
        let tr = toks[i - 1];
        let after_impl = toks[i.saturating_sub(12)..i].contains(&"impl");
        if after_impl
            && !tr.is_empty()
            && tr.chars().all(|c| c.is_alphanumeric() || c == '_')
            && !out.iter().any(|t| t == tr)
        {
            out.push(tr.to_string());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn item<T: syn::parse::Parse>(s: &str) -> T {
        syn::parse_str(s).unwrap()
    }

    #[test]
    fn traits_implemented_for_u64_directly_or_by_an_invoked_macro() {
        let mut t = U64Traits::default();
        t.record_impl(&item(
            "impl TrieKey for u64 { fn encode(&self) -> Vec<u8> { vec![] } }",
        ));
        t.record_impl(&item("impl Other for u32 {}"));
        t.record_macro(&item(
            "macro_rules! impl_int_key_for_int { ($self:ident, $prime:expr) => { impl IntKey for $self { type Int = $self; } }; }",
        ));
        t.record_macro(&item(
            "macro_rules! never_called { ($t:ty) => { impl Unused for $t {} }; }",
        ));
        t.record_macro(&item(
            "macro_rules! small { ($($t:ty),*) => { $(impl<'a> Small for $t {})* }; }",
        ));
        t.record_macro(&item(
            "macro_rules! keys { ($($t:ty),*) => { $(impl TrieKey2 for $t { fn f(&self) {} })* }; }",
        ));
        t.record_macro(&item(
            "macro_rules! vec_keys { ($($t:ty),*) => { $(impl VecOnly for Vec<$t> {})* }; }",
        ));
        t.record_macro(&item("keys!(u16, u64);"));
        t.record_macro(&item("vec_keys!(u16, u64);"));
        t.record_macro(&item("macro_rules! unused2 { () => {}; }"));
        t.record_macro(&item("small!(u8, u16);"));
        assert!(
            !t.contains("IntKey"),
            "a macro not invoked with u64 implements nothing"
        );
        t.record_macro(&item("impl_int_key_for_int!(u64, U64_PRIME_MAX);"));
        assert!(t.contains("TrieKey"));
        assert!(t.contains("IntKey"));
        assert!(!t.contains("Other"));
        assert!(!t.contains("Unused"));
        assert!(!t.contains("Small"), "invoked for u8 and u16 only");
        assert!(
            t.contains("TrieKey2"),
            "radix_trie's `$(impl TrieKey for $t {{..}})*`"
        );
        assert!(!t.contains("VecOnly"), "implemented for Vec<u64>, not u64");
    }
}
