//! Methods of borrowing types, reached through the method that returns them. A type with a
//! lifetime parameter (`VacantEntry<'a, T>`, `map::Entry<'a, K, V>`) cannot
//! be a program variable (values the model builds are owned), but a caller only ever uses
//! it right away: `slab.vacant_entry().insert(v)`. Each such method is registered on the
//! owning type as one call, `vacant_entry_insert`, with the parameters of both calls. A
//! public type without a constructor returned by reference (`map.as_slice()`, an unsized
//! `Slice`) is reached the same way, with the methods the reference allows.

use std::collections::{BTreeSet, HashMap};

use syn::{ImplItem, Type};

use perfsyn_profiler_ipc::Mode;

use super::handed_out::{hand_outs, nearness, Route, Seen};
use super::registrations::{Chain, Func, Receiver, TypeReg, Via};

use super::resolve::Ctx;
use super::scan::{is_pub, FoundType};
use super::skips::SkipReason;

/// What [`chains`] found for one method.
#[derive(Default)]
pub struct Chains {
    pub methods: Vec<Func>,
    pub skipped: Vec<(String, SkipReason)>,
    /// (`public path of the borrowing type`, `method`) pairs reached, of exported types
    /// only: the share's denominator holds only those (a type the crate does not export is
    /// reached, uncounted).
    pub reached: Vec<(String, String)>,
    /// Paths (from the crate root) of the crate's traits whose methods a registered chain
    /// calls on the borrowing value (`MutableEntryKey::key_mut` on `Entry`): the
    /// owner's registration imports them, as it imports its own.
    pub traits: Vec<Vec<String>>,
}

impl Chains {
    /// Records on `reg` what its chains need beside their methods: the crate's traits they
    /// call (imported by their path under `lib`) and their skips; adds the pairs reached to
    /// `reached` and returns the methods, which each caller adds its own way.
    pub fn fold_into(
        self,
        reg: &mut TypeReg,
        lib: &str,
        reached: &mut Vec<(String, String)>,
    ) -> Vec<Func> {
        reached.extend(self.reached);
        for tr in self.traits {
            let tr = std::iter::once(lib.to_string())
                .chain(tr)
                .collect::<Vec<_>>()
                .join("::");
            if !reg.traits.contains(&tr) {
                reg.traits.push(tr);
            }
        }
        reg.skipped_not_methods += self.skipped.len();
        reg.skipped.extend(self.skipped);
        self.methods
    }
}

/// The crate's enums by identifier: for each enum of that name (`hashmap::Entry` and
/// `ordmap::Entry`), its defining module, its full path (`mycrate::map::Entry`) and, per
/// variant holding one value, the variant and the identifier of the value's type.
pub type Enums = HashMap<String, Vec<(Vec<String>, String, Vec<(String, String)>)>>;

/// What a chain reads of the crate besides the type it starts from: the borrowing types by
/// identifier, the enums whose variants hold them, and the iterators' items.
#[derive(Clone, Copy)]
pub(super) struct Borrowers<'a> {
    pub types: &'a HashMap<String, Vec<&'a FoundType>>,
    pub enums: &'a Enums,
    pub items: &'a super::handed_out::Items,
}

/// The chained methods through `first`, a registered method whose Rust return type is `ret`,
/// and on through what those hand out (see [`handed_out`](super::handed_out)); `seen` is
/// what the owner's other methods' chains already reached.
pub(super) fn chains(
    cx: &Ctx<'_>,
    owner_module: &[String],
    first: &Func,
    ret: &Type,
    b: Borrowers<'_>,
    seen: &mut Seen,
    vecs: &mut BTreeSet<String>,
) -> Chains {
    let mut out = Chains::default();
    handed_on(
        cx,
        owner_module,
        first,
        ret,
        b,
        &Route::default(),
        seen,
        vecs,
        &mut out,
    );
    out
}

/// Registers on `out` the methods of what `ret`, the result of `first`, hands out, `first`
/// having come along `route`.
#[allow(clippy::too_many_arguments)]
pub(super) fn handed_on(
    cx: &Ctx<'_>,
    owner_module: &[String],
    first: &Func,
    ret: &Type,
    b: Borrowers<'_>,
    route: &Route,
    seen: &mut Seen,
    vecs: &mut BTreeSet<String>,
    out: &mut Chains,
) {
    // Of two types of one name, the one nearest the owner's module (`map::Slice` for
    // `IndexMap`, defined in `map`).
    let near = |t: &&&FoundType| nearness(&t.module, owner_module);
    let find = |ident: &str| {
        b.types
            .get(ident)
            .and_then(|c| c.iter().max_by_key(near))
            .copied()
    };
    for h in hand_outs(ret, owner_module, b.items) {
        let Type::Path(p) = h.ty else { continue };
        let Some(seg) = p.path.segments.last() else {
            continue;
        };
        let ident = seg.ident.to_string();
        let step = Step {
            first,
            route,
            allowed: h.allowed,
            written: None,
        };
        // The variants of a returned enum, each reached by matching it (an owned value only,
        // not through an `Option`). Of two enums of one name, the one nearest the owner's
        // module (`ordmap::Entry` for `OrdMap::entry`: the harness matched
        // `hashmap::Entry`'s variants, which the compiler rejected).
        let nearest = b
            .enums
            .get(&ident)
            .and_then(|es| es.iter().max_by_key(|(m, _, _)| nearness(m, owner_module)));
        if let (Some((_, path, variants)), false) = (nearest, h.via.contains(&Via::Option)) {
            if h.allowed.contains(&Receiver::By(Mode::Val)) {
                for (variant, held) in variants {
                    if let Some(t) = find(held) {
                        let mut via = h.via.clone();
                        via.push(Via::Variant(path.clone(), variant.clone()));
                        step.reach(cx, t, via, b, seen, vecs, out);
                    }
                }
            }
        }
        // After the variants: the enum's own methods hand out the enum again
        // (`into_owned()`), and a variant's type is reached once (see `Seen`), by the
        // shortest route.
        if let Some(t) = find(&ident) {
            let step = Step {
                written: Some(h.ty),
                ..step
            };
            step.reach(cx, t, h.via.clone(), b, seen, vecs, out);
        }
    }
}

/// One hand-out being followed: the call that makes it, the route it came along, and the
/// receivers the value handed out allows.
#[derive(Clone, Copy)]
struct Step<'s> {
    first: &'s Func,
    route: &'s Route,
    allowed: &'s [Receiver],
    /// The handed-out type as the result writes it, when its arguments are known (see
    /// [`handed_out_args`](super::handed_out_args)).
    written: Option<&'s Type>,
}

impl Step<'_> {
    /// Registers the methods of borrowing type `b` reached through the step by `via`, and
    /// goes on through what they hand out.
    #[allow(clippy::too_many_arguments)]
    fn reach(
        &self,
        cx: &Ctx<'_>,
        b: &FoundType,
        via: Vec<Via>,
        borrowers: Borrowers<'_>,
        seen: &mut Seen,
        vecs: &mut BTreeSet<String>,
        out: &mut Chains,
    ) {
        let (first, allowed) = (self.first, self.allowed);
        let many = super::handed_out::many(first, &via);
        if !self.route.may_hand_out(&b.ident) || !seen.first_time(self.route, &b.ident, many) {
            return;
        }
        let route = self.route.then(&b.ident);
        // The borrowing type's parameters as the result writes them where the caller's
        // instantiation decides them (`Dominators<G::NodeId>`, `WalkNeighbors<Ix>`, see
        // `handed_out_args`), the owner's where it shares them (see
        // `borrower_instantiation`), the rest instantiated as its impls bound them.
        let written = self.written.map_or_else(HashMap::new, |w| {
            super::handed_out_args::written_args(&b.generics, w, cx.subst, cx.closures)
        });
        let Some(mut subst) =
            super::borrower_instantiation::handed_out_instantiation(cx, b, &written)
        else {
            return;
        };
        subst.extend(written);
        let no_self = String::new();
        let no_table = super::class_reader::TypeClasses::default();
        let bcx = Ctx {
            ty_ident: &b.ident,
            // Results of the borrowing type itself are never kept (empty registry name).
            self_name: &no_self,
            self_rust: &b.ident,
            module: &b.module,
            subst: &subst,
            // The owner's doc table names the owner's methods, not the borrowing type's.
            table: &no_table,
            ..*cx
        };
        // What tells the routes of one call apart in a name: the variant matched
        // (`entry_occupied_insert`), the field taken (`split_0_enqueue`).
        let marker = via.iter().rev().find_map(|v| match v {
            Via::Variant(_, v) => Some((snake(v), format!(" ({v})"))),
            Via::Field(k) => Some((k.to_string(), format!(" (field {k})"))),
            Via::Failure => Some(("err".to_string(), " (its Err)".to_string())),
            _ => None,
        });
        let through = match &marker {
            Some((_, shown)) => format!("`{}`{shown}", first.name),
            None => format!("`{}`", first.name),
        };
        for imp in &b.impls {
            for item in &imp.items {
                let ImplItem::Fn(f) = item else { continue };
                if !is_pub(&f.vis) || f.sig.receiver().is_none() {
                    continue;
                }
                let name = match &marker {
                    Some((m, _)) => format!("{}_{m}_{}", first.name, f.sig.ident),
                    None => format!("{}_{}", first.name, f.sig.ident),
                };
                // One registration a name: the first route to it.
                if out.methods.iter().any(|m| m.name == name) {
                    continue;
                }
                let spec = format!("{}::{}", b.ident, f.sig.ident);
                let mut skip = |out: &mut Chains, why: SkipReason| {
                    if seen.first_skip(&spec) {
                        out.skipped.push((spec.clone(), why));
                    }
                };
                let second = match bcx.func(&f.sig, &f.attrs, vecs) {
                    Ok(second) => second,
                    Err(why) => {
                        skip(
                            out,
                            SkipReason::ReachedThrough {
                                through: through.clone(),
                                why: Box::new(why),
                            },
                        );
                        continue;
                    }
                };
                let receiver = second.receiver.unwrap_or(Receiver::REF);
                if !allowed.contains(&receiver) {
                    skip(
                        out,
                        SkipReason::ReceiverNotAllowed {
                            through: through.clone(),
                            receiver: receiver.keyword().to_string(),
                        },
                    );
                    continue;
                }
                let n_second = second.params.len();
                let taken: Vec<String> = first.params.iter().flat_map(|p| p.names()).collect();
                let mut params = first.params.clone();
                for p in second.params {
                    let clash = p.names().iter().any(|q| taken.contains(q));
                    params.push(if clash {
                        p.renamed(&then_prefix(&taken))
                    } else {
                        p
                    });
                }
                for tr in &b.traits {
                    if !out.traits.contains(tr) {
                        out.traits.push(tr.clone());
                    }
                }
                if b.reachable {
                    out.reached
                        .push((b.public_path.join("::"), f.sig.ident.to_string()));
                }
                let chain = Chain::then(first, via.clone(), &f.sig.ident.to_string(), n_second);
                let chained = Func {
                    name,
                    receiver: first.receiver,
                    params,
                    // Through an Option, a match or a loop the result is conditional: not kept.
                    ret: if chain.direct() { second.ret } else { None },
                    expected: if self.route.built {
                        None
                    } else if many {
                        super::handed_out::each_class(&first.expected, second.expected)
                    } else {
                        chained_class(&first.expected, second.expected)
                    },
                    suffix: second.suffix,
                    chain: Some(chain),
                    // The route drops what the second call returns inside its body.
                    kept: false,
                    call: None,
                };
                out.methods.push(chained.clone());
                if let syn::ReturnType::Type(_, ret) = &f.sig.output {
                    handed_on(
                        &bcx, &b.module, &chained, ret, borrowers, &route, seen, vecs, out,
                    );
                }
            }
        }
    }
}

/// The prefix that renames a later call's parameters clashing with `taken` (`then_`,
/// `then_then_` when that is taken too).
fn then_prefix(taken: &[String]) -> String {
    let mut prefix = "then_".to_string();
    while taken.iter().any(|t| t.starts_with(&prefix)) {
        prefix.push_str("then_");
    }
    prefix
}

/// The class of a chained call: the higher of its two calls' (`line(i)` is O(log n),
/// so `line(i).as_str()` is too, whatever `as_str`'s own O(1)); the second's when the first
/// states none (an `entry` is as cheap as the lookup its documented `insert` includes).
fn chained_class(first: &Option<String>, second: Option<String>) -> Option<String> {
    use crate::report::class::Class;
    let parse = |c: &Option<String>| c.as_deref().and_then(Class::parse);
    match (parse(first), parse(&second)) {
        (Some(a), Some(b)) => Some(a.max(b).label().to_string()),
        _ => second,
    }
}

fn snake(s: &str) -> String {
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if c.is_uppercase() {
            if i > 0 {
                out.push('_');
            }
            out.extend(c.to_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}
