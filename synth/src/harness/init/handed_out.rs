//! Borrowing types reached through the methods that hand them out. A type with a lifetime
//! parameter (`Node<'a, 'input>`, `EdgeReference<'a, E>`) is never a program variable, but
//! a caller gets one from a method of something it holds and uses it at once:
//! `doc.root().children()`, `for n in doc.descendants() { n.attribute(a) }`,
//! `for e in graph.edges(a) { e.weight() }`. This file says what a method's return type hands
//! out and by which route ([`HandOut`]): directly, in an `Option`, a `Result`'s `Ok` or its
//! `Err`, or many of them, an iterator's items or a borrowed slice's elements, which the
//! chain visits one by one so that the measured cost grows with the data. [`chain`](super::chain) registers the methods of each type handed out
//! as chained calls, and goes on through what those hand out in turn ([`Route`]), so a
//! parser's document reaches its nodes, and the nodes their attributes.
//!
//! What bounds the chains: at most [`MOST_HAND_OUTS`] hand-outs in a row; never a type
//! already on the route (`node.parent()` hands out a node, whose methods the route has
//! already reached); and past the first hand-out, each type is reached once per owner and
//! per multiplicity ([`Seen`]): one node (`root()`, the first in source order) and many nodes
//! (`descendants()`), not again through `root_element()`, `get_node()` and `first_child()`.

use std::collections::{HashMap, HashSet};

use syn::{GenericArgument, PathArguments, Type, TypeParamBound};

use perfsyn_profiler_ipc::Mode;

use super::registrations::{Func, Receiver, Via};

/// How many hand-outs a chain makes at most: `Document::parse(text)` (a namespace's
/// constructor counts as one), then `.descendants()`, then each node's `.attributes()`.
pub const MOST_HAND_OUTS: usize = 3;

/// `&self` and `&mut self`.
const REF_MUT: &[Receiver] = &[Receiver::REF, Receiver::By(Mode::Mut)];
/// What a value held by the chain allows: any receiver but a box.
const OWNED: &[Receiver] = &[
    Receiver::REF,
    Receiver::By(Mode::Mut),
    Receiver::By(Mode::Val),
];

/// One value a returned type hands out: the routes to it from the call's result (outermost
/// first, see [`Via`]), its type as written, and the receivers it allows.
pub(super) struct HandOut<'t> {
    pub via: Vec<Via>,
    pub ty: &'t Type,
    pub allowed: &'static [Receiver],
}

/// The crate's iterators' items by iterator identifier, each with the module of its impl.
pub(super) type Items = HashMap<String, Vec<(Vec<String>, Type)>>;

/// The values `ret`, written in `module`, hands out: itself (through a reference, a `Box`,
/// an `Option` of an owned value, a `Result`, a tuple's fields), and the items of an
/// iterator it is (one of the crate's, by `items`, the impl nearest `module`; or
/// `impl Iterator<Item = B>`).
pub(super) fn hand_outs<'t>(
    ret: &'t Type,
    module: &[String],
    items: &'t Items,
) -> Vec<HandOut<'t>> {
    let mut out = Vec::new();
    let item_of = |ident: &str| {
        items.get(ident).and_then(|its| {
            its.iter()
                .max_by_key(|(m, _)| nearness(m, module))
                .map(|(_, t)| t)
        })
    };
    peel(ret, Vec::new(), &item_of, true, &mut out);
    out
}

fn peel<'t>(
    t: &'t Type,
    via: Vec<Via>,
    items: &dyn Fn(&str) -> Option<&'t Type>,
    iterate: bool,
    out: &mut Vec<HandOut<'t>>,
) {
    let with = |v: Via| {
        let mut via = via.clone();
        via.push(v);
        via
    };
    match t {
        Type::Reference(r) => {
            let allowed = if r.mutability.is_some() {
                REF_MUT
            } else {
                &[Receiver::REF]
            };
            // A borrowed slice hands out its elements, each by reference
            // (`raw_edges() -> &[Edge<E, Ix>]`: `for b in g.raw_edges() { b.source() }`).
            if let (true, Type::Slice(s)) = (iterate, &*r.elem) {
                out.push(HandOut {
                    via: with(Via::Each),
                    ty: &s.elem,
                    allowed,
                });
                return;
            }
            out.push(HandOut {
                via,
                ty: &r.elem,
                allowed,
            });
        }
        Type::Paren(p) => peel(&p.elem, via, items, iterate, out),
        // Each field of a returned tuple (`split() -> (Producer, Consumer)`).
        Type::Tuple(tt) if !via.iter().any(|v| matches!(v, Via::Field(_))) => {
            for (k, e) in tt.elems.iter().enumerate() {
                peel(e, with(Via::Field(k)), items, iterate, out);
            }
        }
        Type::Group(g) => peel(&g.elem, via, items, iterate, out),
        Type::ImplTrait(it) if iterate => {
            if let Some(item) = impl_iterator_item(it) {
                peel(item, with(Via::Each), items, false, out);
            }
        }
        Type::Path(p) => {
            let Some(seg) = p.path.segments.last() else {
                return;
            };
            let ident = seg.ident.to_string();
            // Once: an `Option` of a `Result` is not peeled twice.
            let wrapped = via
                .iter()
                .any(|v| matches!(v, Via::Option | Via::Fallible | Via::Failure));
            match (ident.as_str(), first_arg(seg)) {
                // Of a reference too (`text_storage() -> Option<&StringStorage>`): the
                // reference allows `&self` methods.
                ("Option", Some(inner)) if !wrapped => {
                    peel(inner, with(Via::Option), items, iterate, out)
                }
                ("Result", Some(inner)) if !wrapped => {
                    peel(inner, with(Via::Fallible), items, iterate, out);
                    // And its error, a value of the crate's the caller asks
                    // (`toposort() -> Result<Vec<N>, Cycle<N>>`: `cycle.node_id()`).
                    if let Some(err) = second_arg(seg) {
                        peel(err, with(Via::Failure), items, false, out);
                    }
                }
                ("Box", Some(inner)) => out.push(HandOut {
                    via,
                    ty: inner,
                    allowed: &[Receiver::REF, Receiver::By(Mode::Mut), Receiver::Boxed],
                }),
                _ => {
                    if let (true, Some(item)) = (iterate, items(&ident)) {
                        peel(item, with(Via::Each), items, false, out);
                    }
                    out.push(HandOut {
                        via,
                        ty: t,
                        allowed: OWNED,
                    });
                }
            }
        }
        _ => {}
    }
}

/// How near a type defined in `module` is to code in `from`, to tell two types of one name
/// apart: the longer their common path, then the fewer modules below it (`graph::Neighbors`
/// for `graph::Graph`, not `graph::stable_graph::Neighbors`, which shares as much of the
/// path and is one module deeper).
pub(super) fn nearness(module: &[String], from: &[String]) -> (usize, std::cmp::Reverse<usize>) {
    let common = module.iter().zip(from).take_while(|(a, b)| a == b).count();
    (common, std::cmp::Reverse(module.len() - common))
}

/// `T` of `Wrapper<T, ..>`.
fn first_arg(seg: &syn::PathSegment) -> Option<&Type> {
    let PathArguments::AngleBracketed(a) = &seg.arguments else {
        return None;
    };
    a.args.iter().find_map(|a| match a {
        GenericArgument::Type(t) => Some(t),
        _ => None,
    })
}

/// `E` of `Result<T, E>`.
fn second_arg(seg: &syn::PathSegment) -> Option<&Type> {
    let PathArguments::AngleBracketed(a) = &seg.arguments else {
        return None;
    };
    a.args
        .iter()
        .filter_map(|a| match a {
            GenericArgument::Type(t) => Some(t),
            _ => None,
        })
        .nth(1)
}

/// `X` of `impl Iterator<Item = X>` (or a double-ended or exact-size one).
fn impl_iterator_item(it: &syn::TypeImplTrait) -> Option<&Type> {
    it.bounds.iter().find_map(|b| {
        let TypeParamBound::Trait(tb) = b else {
            return None;
        };
        let seg = tb.path.segments.last()?;
        if !["Iterator", "DoubleEndedIterator", "ExactSizeIterator"]
            .contains(&seg.ident.to_string().as_str())
        {
            return None;
        }
        let PathArguments::AngleBracketed(a) = &seg.arguments else {
            return None;
        };
        a.args.iter().find_map(|a| match a {
            GenericArgument::AssocType(at) if at.ident == "Item" => Some(&at.ty),
            _ => None,
        })
    })
}

/// Where a chain stands: how many hand-outs it has made, and the borrowing types it went
/// through (their identifiers).
#[derive(Clone, Debug, Default)]
pub(super) struct Route {
    pub hand_outs: usize,
    pub types: Vec<String>,
    /// Whether the chain's first call builds its value from program values (a namespace's
    /// constructor, see [`borrowed_input`](super::borrowed_input)): the measured call then
    /// includes the build (a parse of the whole text), so no method's documented class is
    /// the call's.
    pub built: bool,
}

impl Route {
    /// The route after handing out `ty`.
    pub fn then(&self, ty: &str) -> Route {
        let mut types = self.types.clone();
        types.push(ty.to_string());
        Route {
            hand_outs: self.hand_outs + 1,
            types,
            built: self.built,
        }
    }

    /// The route of a chain whose first call built `ty` from program values.
    pub fn built(ty: &str) -> Route {
        Route {
            hand_outs: 1,
            types: vec![ty.to_string()],
            built: true,
        }
    }

    /// Whether a chain along this route may hand out `ty` once more (see the module doc).
    pub fn may_hand_out(&self, ty: &str) -> bool {
        self.hand_outs < MOST_HAND_OUTS && !self.types.iter().any(|t| t == ty)
    }
}

/// What one owner's chains already did (see the module doc): the types reached past the
/// first hand-out, each as one value or many, and the items skipped (listed once).
#[derive(Default)]
pub struct Seen {
    reached: HashSet<(String, bool)>,
    skipped: HashSet<String>,
}

impl Seen {
    /// Whether a chain along `route` reaches type `ty` (`many`: as an iterator's items):
    /// always at the first hand-out, else only the first time for its multiplicity.
    pub(super) fn first_time(&mut self, route: &Route, ty: &str, many: bool) -> bool {
        route.hand_outs == 0 || self.reached.insert((ty.to_string(), many))
    }

    /// Whether `spec` is skipped for the first time (a method skipped through each of the
    /// routes to its type is listed once).
    pub(super) fn first_skip(&mut self, spec: &str) -> bool {
        self.skipped.insert(spec.to_string())
    }
}

/// Whether a chain of `first` then `via` visits many values (an iterator's items).
pub(super) fn many(first: &Func, via: &[Via]) -> bool {
    via.contains(&Via::Each)
        || first
            .chain
            .as_ref()
            .is_some_and(|c| c.calls.iter().any(|h| h.via.contains(&Via::Each)))
}

/// The class of a call made on each item a chain visits: the walk's (the first call's
/// class) when the call on each item is O(1), else none stated (the product of two classes
/// is no class the docs give).
pub(super) fn each_class(first: &Option<String>, second: Option<String>) -> Option<String> {
    use crate::report::class::Class;
    let constant = second
        .as_deref()
        .and_then(Class::parse)
        .is_some_and(|c| c == Class::Constant);
    if constant {
        first.clone()
    } else {
        None
    }
}

/// Gives each borrowing type that chains reached (`chained`: public path and method) the
/// reason that says so, in place of "it borrows": `Node` is not a program variable, but its
/// methods are registered through `root()` and `descendants()`. `methods` counts a type's
/// public methods by public path.
pub(super) fn mark_reached(
    skipped_types: &mut [(String, super::skips::SkipReason)],
    chained: &std::collections::BTreeSet<(String, String)>,
    methods: &dyn Fn(&str) -> usize,
) {
    use super::skips::SkipReason;
    for (path, why) in skipped_types {
        if *why != SkipReason::LifetimeParameter {
            continue;
        }
        let reached = chained.iter().filter(|(p, _)| p == path).count();
        if reached > 0 {
            *why = SkipReason::HandedOut {
                reached,
                methods: methods(path).max(reached),
            };
        }
    }
}
