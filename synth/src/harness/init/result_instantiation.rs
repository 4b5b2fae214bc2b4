//! A result written at the method's own instantiation: `Graph::map<F, G, N2, E2>(&self, ..)
//! -> Graph<N2, E2, Ty, Ix>` returns a graph of what its closures return (`()` where the
//! model's closure returns nothing), `dominators::simple_fast<G>(..) -> Dominators<G::NodeId>`
//! one of the graph's node ids. Kept as the registered `Graph<Key, Key, ..>` or
//! `Dominators<u64>`, the harness was rejected ("expected `Graph<Key, Key>`, found
//! `Graph<(), ()>`"): an argument naming a parameter (or a parameter's associated type) that
//! the instantiation fills with another type than the registration's says the result is
//! another instantiation, which the program model does not hold; the call's result is
//! dropped instead, and the method registers.

use std::collections::HashMap;

use quote::ToTokens;

/// Whether `seg` (`Graph<N2, E2, Ty, Ix>`) names, at some argument, a parameter that `subst`
/// fills with another type than `registered` (`Graph<Key,Key,petgraph::Directed,u32>`) has
/// there.
pub fn instantiated_otherwise(
    seg: &syn::PathSegment,
    registered: &str,
    subst: &HashMap<String, String>,
) -> bool {
    let syn::PathArguments::AngleBracketed(a) = &seg.arguments else {
        return false;
    };
    let theirs = super::syntax::top_level_args(registered);
    a.args
        .iter()
        .filter(|w| !matches!(w, syn::GenericArgument::Lifetime(_)))
        .zip(&theirs)
        .any(|(w, r)| {
            let w = w.to_token_stream().to_string().replace(' ', "");
            if let Some(v) = subst.get(&w) {
                return v.replace(' ', "") != r.replace(' ', "");
            }
            // A type around a parameter (`Vec<N>` in `Graph<Vec<N>, E, Ty, Ix>`): that type
            // at the instantiation, as text.
            let mut named = false;
            let at = super::syntax::map_words(&w, |word, _| match subst.get(word) {
                Some(v) => {
                    named = true;
                    v.replace(' ', "")
                }
                None => word.to_string(),
            });
            named && at != r.replace(' ', "")
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seg(t: &str) -> syn::PathSegment {
        let syn::Type::Path(p) = syn::parse_str::<syn::Type>(t).unwrap() else {
            panic!("{t}")
        };
        p.path.segments.last().unwrap().clone()
    }

    #[test]
    fn result_naming_a_method_generic_filled_otherwise_is_another_instantiation() {
        let subst: HashMap<String, String> = [
            ("N2", "()"),
            ("E2", "()"),
            ("Ix", "u32"),
            ("Ty", "petgraph::Directed"),
            ("N", "Key"),
            ("G::NodeId", "NodeIndex<u32>"),
        ]
        .into_iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect();
        let graph = "Graph<Key,Key,petgraph::Directed,u32>";
        assert!(instantiated_otherwise(
            &seg("Graph<N2, E2, Ty, Ix>"),
            graph,
            &subst
        ));
        assert!(!instantiated_otherwise(
            &seg("Graph<N, N, Ty, Ix>"),
            graph,
            &subst
        ));
        assert!(instantiated_otherwise(
            &seg("Dominators<G::NodeId>"),
            "Dominators<u64>",
            &subst
        ));
        assert!(
            !instantiated_otherwise(&seg("Graph<A, B>"), graph, &subst),
            "unknown names"
        );
        assert!(instantiated_otherwise(
            &seg("Graph<Vec<N>, N, Ty, Ix>"),
            graph,
            &subst
        ));
    }
}
