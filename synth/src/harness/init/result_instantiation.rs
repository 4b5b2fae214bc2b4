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
            // A parameter, or `Self` (a trait's provided `take(self) -> Take<Self>` on another
            // type than the one `Take` is registered around), at another type than the
            // registration's argument; paths aside (`U` = `BytesMut` is `bytes::BytesMut`).
            if let Some(v) = subst.get(&w) {
                return unqualified(v) != unqualified(r);
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

/// `t` without module paths (`bytes::buf::Take<bytes::Bytes>` is `Take<Bytes>`), spaces
/// dropped.
fn unqualified(t: &str) -> String {
    let mut out = String::new();
    let mut word = String::new();
    let mut chars = t.chars().filter(|c| *c != ' ').peekable();
    while let Some(c) = chars.next() {
        if c.is_alphanumeric() || c == '_' {
            word.push(c);
        } else if c == ':' && chars.peek() == Some(&':') {
            chars.next();
            word.clear();
        } else {
            out.push_str(&word);
            word.clear();
            out.push(c);
        }
    }
    out + &word
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

    /// `Take<Self>` on a type other than the one `Take` is registered around is another
    /// instantiation (a trait's provided `take(self) -> Take<Self>` on `Chain<..>`), and the
    /// same type, or a parameter at it, written with its path is not.
    #[test]
    fn result_wrapping_self_or_a_parameter_is_compared_without_paths() {
        let at = |me: &str| -> HashMap<String, String> {
            [("Self".to_string(), me.to_string())].into_iter().collect()
        };
        let take = "Take<bytes::Bytes>";
        assert!(instantiated_otherwise(
            &seg("Take<Self>"),
            take,
            &at("Chain<BytesMut,BytesMut>")
        ));
        assert!(!instantiated_otherwise(
            &seg("Take<Self>"),
            take,
            &at("Bytes")
        ));
        assert_eq!(
            unqualified("bytes::buf::Take< ::bytes::Bytes>"),
            "Take<Bytes>"
        );
        // A parameter at the registration's argument written with its path is not another
        // instantiation (`chain<U>(self, next: U) -> Chain<Self, U>` on `BytesMut`, `U` =
        // `BytesMut`): the registered `Chain` is kept, so its methods have a producer.
        let mut on_bytes_mut = at("BytesMut");
        on_bytes_mut.insert("U".to_string(), "BytesMut".to_string());
        let chain = "Chain<bytes::BytesMut,bytes::BytesMut>";
        assert!(!instantiated_otherwise(
            &seg("Chain<Self, U>"),
            chain,
            &on_bytes_mut
        ));
        // On `Chain` itself, `Chain<Self, U>` nests: another instantiation.
        let mut on_chain = at(chain);
        on_chain.insert("U".to_string(), "BytesMut".to_string());
        assert!(instantiated_otherwise(
            &seg("Chain<Self, U>"),
            chain,
            &on_chain
        ));
    }
}
