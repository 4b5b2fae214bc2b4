//! Types only a free function hands out. A crate of algorithms returns its answers as types
//! of its own with no constructor (`algo::dominators::simple_fast(&g, root) ->
//! Dominators<G::NodeId>`, `algo::maximum_matching(&g) -> Matching<G>`): no program builds
//! one, and the type does not register, but a caller gets one from the function and asks it
//! at once: `simple_fast(&g, root).immediate_dominator(n)`. Each method of such a type is
//! registered on the function's namespace (see [`free`](super::free)) as a chained call, as
//! [`chain`](super::chain) registers those of a type a method of a held value hands out
//! (directly, in an `Option`, a `Result`'s `Ok`, a tuple or an iterator, see
//! [`handed_out`](super::handed_out)), and they count as registered like those. The type's
//! parameters are what the function's instantiation makes of its result
//! (`Dominators<NodeIndex<u32>>` at the graph the namespace passes, see
//! [`handed_out_args`](super::handed_out_args)).

use std::collections::BTreeSet;

use syn::ReturnType;

use super::chain::{chains, Borrowers};
use super::free_fn::FreeFn;
use super::handed_out::Seen;
use super::registrations::TypeReg;
use super::resolve::Ctx;

/// Adds to each namespace of `namespaces` the chained calls through what its functions
/// hand out; `cx` is the crate's context the namespaces were read with. Returns the
/// (public path, method) pairs of the exported types reached, which count as registered.
pub(super) fn chain_onto_results(
    lib: &str,
    free: &[FreeFn],
    namespaces: &mut [TypeReg],
    cx: &Ctx<'_>,
    b: Borrowers<'_>,
    vecs: &mut BTreeSet<String>,
) -> Vec<(String, String)> {
    let mut reached = Vec::new();
    for ns in namespaces.iter_mut() {
        // A trait's methods on strings are called through a type, not a module.
        if ns.free.as_deref().is_none_or(|m| m.starts_with('<')) {
            continue;
        }
        let mut seen = Seen::default();
        let mut added = Vec::new();
        for f in free.iter().filter(|f| f.string_self.is_none()) {
            let module_path = if f.module.is_empty() {
                super::free::ROOT.to_string()
            } else {
                f.module.join("::")
            };
            if module_path != ns.path {
                continue;
            }
            // The function as registered (a turbofish call is not chained: a hop names
            // the bare method).
            let Some(first) = ns
                .methods
                .iter()
                .find(|m| m.name == f.name && m.chain.is_none() && m.call.is_none())
            else {
                continue;
            };
            let ReturnType::Type(_, ret) = &f.sig.output else {
                continue;
            };
            let ncx = Ctx {
                ty_ident: super::free::NAMESPACE_RUST,
                self_name: &ns.path,
                self_rust: super::free::NAMESPACE_RUST,
                module: &f.module,
                ..*cx
            };
            // The function's own instantiation, which its result's arguments name.
            let Ok(local) = ncx.method_generics(&f.sig.generics, &f.sig.inputs, &f.sig.output)
            else {
                continue;
            };
            let lcx = Ctx {
                subst: &local.subst,
                closures: &local.closures,
                ..ncx
            };
            let ch = chains(&lcx, &f.module, first, ret, b, &mut seen, vecs);
            added.extend(ch.fold_into(ns, lib, &mut reached));
        }
        for m in added {
            if !ns.methods.iter().any(|n| n.name == m.name) {
                ns.methods.push(m);
            }
        }
    }
    reached
}
