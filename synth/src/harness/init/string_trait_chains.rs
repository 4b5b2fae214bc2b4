//! Borrowing types handed out by the crate's traits' methods on strings. An extension trait
//! implemented for `str` (`fn graphemes(&self, extended: bool) -> Graphemes<'_>`) is the
//! only public way to get its result, a type borrowing the string (its constructor is
//! private): the methods are registered as a namespace's ([`free`](super::free), called
//! `<str as Trait>::f(&text, ..)`), and, as a held type's methods are
//! ([`chain`](super::chain)), each one's result is followed to the methods of what it hands
//! out: `<str as Trait>::graphemes(&text, e).as_str()`. The string is the program's, so the
//! measured call grows with it.

use std::collections::BTreeSet;

use super::chain::{chains, Borrowers};
use super::free_fn::FreeFn;
use super::handed_out::Seen;
use super::registrations::TypeReg;
use super::resolve::Ctx;

/// Adds to each namespace of `namespaces` holding trait methods on strings the chains
/// through what those methods return; `cx` is the crate's context (as for free functions).
/// Returns the (public path of the borrowing type, method) pairs reached.
pub(super) fn chain_string_methods(
    namespaces: &mut [TypeReg],
    free: &[FreeFn],
    cx: &Ctx<'_>,
    borrowers: Borrowers<'_>,
    vecs: &mut BTreeSet<String>,
) -> Vec<(String, String)> {
    let mut reached = Vec::new();
    for reg in namespaces.iter_mut() {
        let on_strings: Vec<&FreeFn> = free
            .iter()
            .filter(|f| f.string_self.is_some() && f.module.join("::") == reg.path)
            .collect();
        let Some(module) = on_strings.first().map(|f| f.module.clone()) else {
            continue;
        };
        let ncx = Ctx {
            ty_ident: super::free::NAMESPACE_RUST,
            self_name: &reg.path,
            self_rust: super::free::NAMESPACE_RUST,
            module: &module,
            ..*cx
        };
        // What the namespace's chains already reached past their first hand-out.
        let mut seen = Seen::default();
        let firsts: Vec<_> = reg.methods.clone();
        for f in on_strings {
            let syn::ReturnType::Type(_, ret) = &f.sig.output else {
                continue;
            };
            let Some(first) = firsts.iter().find(|m| m.name == f.name) else {
                continue;
            };
            let ch = chains(&ncx, &module, first, ret, borrowers, &mut seen, vecs);
            reached.extend(ch.reached);
            reg.skipped_not_methods += ch.skipped.len();
            reg.skipped.extend(ch.skipped);
            for m in ch.methods {
                if !reg.methods.iter().any(|r| r.name == m.name) {
                    reg.methods.push(m);
                }
            }
        }
    }
    reached
}
