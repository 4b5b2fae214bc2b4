//! A method registered twice counts once. A type held by the program may also be built from
//! text and consumed in one call (`Reader<R>` held over an owned reader, and built by
//! `Reader::from_str(&s)` in a namespace of its own, see
//! [`borrowed_input`](super::borrowed_input)): the namespace's chains reach methods the held
//! type registers itself, and methods it skips (`read_event`, defined only for
//! `Reader<&[u8]>`). The summary's share counts each public method once: registered if either
//! registers it, and a held type's skip line gives way to a chain that reaches it.

use std::collections::BTreeSet;

use super::registrations::TypeReg;

/// Whether `held` (a held type's registered path, `Reader` or `events::BytesStart`) names
/// the type a chain reached by its public path `reached`.
fn same_type(held: &TypeReg, reached: &str) -> bool {
    held.path == reached || (held.name.is_none() && reached.ends_with(&format!("::{}", held.path)))
}

/// Drops from `chained` (the (public path, method) pairs chains reached) the methods a held
/// type of `types` registers itself, from each held type's skip lines the methods `chained`
/// reaches, and from the skip lines of namespaces `built` (see `borrowed_input`) the
/// functions a held type registers (`Reader::from_reader`, a constructor there).
pub(super) fn count_once(
    types: &mut [TypeReg],
    built: &mut [TypeReg],
    chained: &mut BTreeSet<(String, String)>,
) {
    for t in types.iter_mut().filter(|t| t.free.is_none()) {
        let own: Vec<String> = t
            .methods
            .iter()
            .filter(|m| m.chain.is_none() && m.call.is_none())
            .map(|m| m.name.clone())
            .collect();
        chained.retain(|(path, m)| !(same_type(t, path) && own.contains(m)));
        let reached: Vec<String> = chained
            .iter()
            .filter(|(path, _)| same_type(t, path))
            .map(|(_, m)| format!("{}::{m}", t.path))
            .collect();
        // Chains reach methods (a receiver), never counted in `skipped_not_methods`.
        t.skipped.retain(|(spec, _)| !reached.contains(spec));
        for ns in built.iter_mut() {
            let Some(path) = ns.name.as_deref().filter(|p| same_type(t, p)) else {
                continue;
            };
            ns.skipped.retain(|(spec, _)| {
                let name = spec.strip_prefix(path).and_then(|s| s.strip_prefix("::"));
                !name.is_some_and(|n| {
                    own.iter()
                        .chain(t.ctors.iter().map(|c| &c.name))
                        .any(|o| o == n)
                })
            });
        }
    }
}
