//! Type arguments of a registered type in a signature: a function's own type parameter
//! written as an argument of one of the crate's registered types among its inputs
//! (`complement<N, E, Ty, Ix>(input: &Graph<N, E, Ty, Ix>, ..)`) takes that registration's
//! argument at that position (`Ty` is `Directed` of `Graph<Key, Key, Directed, u32>`): the
//! program passes a registered value, whose type fixes them all. A marker type the crate
//! names but never builds a value of (`pub enum Directed {}`) fills such a parameter, since
//! only the registered value is passed. Beside [`fn_generics`](super::fn_generics), which
//! asks it once per signature; the type being registered is read there (its alias-free
//! instantiation, see `Ctx::other_operand_args`).

use std::collections::HashMap;

use quote::ToTokens;
use syn::{GenericArgument, PathArguments};

use super::resolve::Ctx;
use super::syntax::top_level_args;

impl Ctx<'_> {
    /// The function's type parameters (`generic`) that an input of a registered type takes
    /// as type arguments, each with the registration's argument there. An input whose other
    /// arguments name the impl's parameters at another instantiation than the registered
    /// one (`GraphMap<u64, ..>::from_graph(graph: Graph<N, ..>)` with `Graph<Key, ..>`
    /// registered) is another type, and fixes nothing; nor does a parameter two inputs fix
    /// differently.
    pub(super) fn registered_input_args(
        &self,
        generic: &[String],
        inputs: &syn::punctuated::Punctuated<syn::FnArg, syn::Token![,]>,
    ) -> HashMap<String, String> {
        let mut out: HashMap<String, String> = HashMap::new();
        let mut clashing: Vec<String> = Vec::new();
        if generic.is_empty() {
            return out;
        }
        for tp in super::fn_generics::input_paths(inputs) {
            let Some(seg) = tp.path.segments.last().filter(|_| tp.qself.is_none()) else {
                continue;
            };
            let id = seg.ident.to_string();
            // The type being registered is read by `other_operand_args`.
            if id == self.ty_ident {
                continue;
            }
            let Some((name, rust)) = self.regs.get(&id) else {
                continue;
            };
            // Registered under a module-qualified name (two types of one name), or through
            // an alias whose arguments are not the type's: positions cannot be trusted.
            let base = rust.split('<').next().unwrap_or("");
            if name != rust || base.rsplit("::").next() != Some(id.as_str()) {
                continue;
            }
            let PathArguments::AngleBracketed(a) = &seg.arguments else {
                continue;
            };
            let theirs = top_level_args(rust);
            let written: Vec<&GenericArgument> = a
                .args
                .iter()
                .filter(|x| !matches!(x, GenericArgument::Lifetime(_)))
                .collect();
            let mut fixed: Vec<(String, String)> = Vec::new();
            let mut same = true;
            for (k, arg) in written.iter().enumerate() {
                let Some(reg) = theirs.get(k) else {
                    same = false;
                    break;
                };
                let w = arg.to_token_stream().to_string().replace(' ', "");
                if generic.contains(&w) {
                    fixed.push((w, reg.clone()));
                    continue;
                }
                // An impl parameter, a primitive or a path: it must be what the
                // registration has there.
                let at = self.subst.get(&w).cloned().unwrap_or(w);
                if plain(&at) != plain(reg) {
                    same = false;
                    break;
                }
            }
            if !same {
                continue;
            }
            for (p, v) in fixed {
                match out.get(&p) {
                    Some(prev) if plain(prev) != plain(&v) => clashing.push(p),
                    _ => {
                        out.insert(p, v);
                    }
                }
            }
        }
        for p in clashing {
            out.remove(&p);
        }
        out
    }
}

/// A type as text, without spaces and a leading `::` (`::petgraph::Directed` and
/// `petgraph::Directed` are one type).
fn plain(t: &str) -> String {
    let t: String = t.chars().filter(|c| !c.is_whitespace()).collect();
    t.strip_prefix("::").unwrap_or(&t).to_string()
}
