//! Methods of borrowing types, reached through the method that returns them. A type with a
//! lifetime parameter (`VacantEntry<'a, T>`, `map::Entry<'a, K, V>`) cannot
//! be a program variable (values the model builds are owned), but a caller only ever uses
//! it right away: `slab.vacant_entry().insert(v)`. Each such method is registered on the
//! owning type as one call, `vacant_entry_insert`, with the parameters of both calls. A
//! public type without a constructor returned by reference (`map.as_slice()`, an unsized
//! `Slice`) is reached the same way, with the methods the reference allows.

use std::collections::{BTreeSet, HashMap};

use syn::{ImplItem, Type};

use super::instantiate::instantiate;
use perfsyn_profiler_ipc::Mode;

use super::registrations::{Chain, Func, Receiver, Via};

/// `&mut self`.
const MUT: Receiver = Receiver::By(Mode::Mut);
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

/// The crate's enums by identifier: for each enum of that name (`hashmap::Entry` and
/// `ordmap::Entry`), its defining module, its full path (`mycrate::map::Entry`) and, per
/// variant holding one value, the variant and the identifier of the value's type.
pub type Enums = HashMap<String, Vec<(Vec<String>, String, Vec<(String, String)>)>>;

/// The chained methods through `first`, a registered method whose Rust return type is `ret`.
pub(super) fn chains(
    cx: &Ctx<'_>,
    owner_module: &[String],
    first: &Func,
    ret: &Type,
    borrowers: &HashMap<String, Vec<&FoundType>>,
    enums: &Enums,
    vecs: &mut BTreeSet<String>,
) -> Chains {
    let mut out = Chains::default();
    // An owned borrowing value in an `Option` (`get_index_entry`): reached when present.
    let (ret, option) = match wrapped(ret, "Option") {
        Some(inner) if !matches!(inner, Type::Reference(_)) => (inner, true),
        _ => (ret, false),
    };
    // What receivers the returned value allows: `&B` only `&self`, `&mut B` also `&mut self`.
    // `Box<B>` (`into_boxed_slice()`) also allows `self: Box<Self>`.
    let (ret, allowed): (&Type, &[Receiver]) = match ret {
        Type::Reference(r) if r.mutability.is_some() => (&r.elem, &[Receiver::REF, MUT]),
        Type::Reference(r) => (&r.elem, &[Receiver::REF]),
        t => match wrapped(t, "Box") {
            Some(inner) => (inner, &[Receiver::REF, MUT, Receiver::Boxed]),
            None => (t, &[Receiver::REF, MUT, Receiver::By(Mode::Val)]),
        },
    };
    let Type::Path(p) = ret else { return out };
    let Some(seg) = p.path.segments.last() else {
        return out;
    };
    // Of two types of one name, the one nearest the owner's module (`map::Slice` for
    // `IndexMap`, defined in `map`).
    let near = |t: &&&FoundType| {
        t.module
            .iter()
            .zip(owner_module)
            .take_while(|(a, b)| a == b)
            .count()
    };
    let find = |ident: &str| {
        borrowers
            .get(ident)
            .and_then(|c| c.iter().max_by_key(near))
            .copied()
    };
    let ident = seg.ident.to_string();
    if let Some(b) = find(&ident) {
        let via = if option { Via::Option } else { Via::Direct };
        reach(cx, first, b, allowed, via, vecs, &mut out);
    }
    // The variants of a returned enum, each reached by matching it (an owned value only).
    // Of two enums of one name, the one nearest the owner's module (`ordmap::Entry` for
    // `OrdMap::entry`: the harness matched `hashmap::Entry`'s variants, which the compiler
    // rejected).
    let nearest = enums.get(&ident).and_then(|es| {
        es.iter().max_by_key(|(m, _, _)| {
            m.iter()
                .zip(owner_module)
                .take_while(|(a, b)| a == b)
                .count()
        })
    });
    if let (Some((_, path, variants)), false) = (nearest, option) {
        if allowed.contains(&Receiver::By(Mode::Val)) {
            for (variant, held) in variants {
                if let Some(b) = find(held) {
                    let via = Via::Variant(path.clone(), variant.clone());
                    reach(cx, first, b, allowed, via, vecs, &mut out);
                }
            }
        }
    }
    out
}

/// Registers the methods of borrowing type `b` reached through `first` by `via`.
fn reach(
    cx: &Ctx<'_>,
    first: &Func,
    b: &FoundType,
    allowed: &[Receiver],
    via: Via,
    vecs: &mut BTreeSet<String>,
    out: &mut Chains,
) {
    // The borrowing type's parameters instantiated as its impls bound them; in practice it
    // shares the owner's (`VacantEntry<'a, T>` of `Slab<T>`).
    let Ok(subst) = instantiate(
        &b.generics,
        b.impls.iter().map(|i| &i.generics),
        true,
        &HashMap::new(),
        cx.arrays,
        cx.int_traits,
    ) else {
        return;
    };
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
    let through = match &via {
        Via::Variant(_, v) => format!("`{}` ({v})", first.name),
        _ => format!("`{}`", first.name),
    };
    for imp in &b.impls {
        for item in &imp.items {
            let ImplItem::Fn(f) = item else { continue };
            if !is_pub(&f.vis) || f.sig.receiver().is_none() {
                continue;
            }
            let name = match &via {
                Via::Variant(_, v) => format!("{}_{}_{}", first.name, snake(v), f.sig.ident),
                _ => format!("{}_{}", first.name, f.sig.ident),
            };
            let spec = format!("{}::{}", b.ident, f.sig.ident);
            match bcx.func(&f.sig, &f.attrs, vecs) {
                Ok(second) if !allowed.contains(&second.receiver.unwrap_or(Receiver::REF)) => {
                    out.skipped.push((
                        spec,
                        SkipReason::ReceiverNotAllowed {
                            through: through.clone(),
                            receiver: second
                                .receiver
                                .unwrap_or(Receiver::REF)
                                .keyword()
                                .to_string(),
                        },
                    ))
                }
                Ok(second) => {
                    let taken: Vec<&String> = first.params.iter().map(|p| &p.name).collect();
                    let mut params = first.params.clone();
                    for p in second.params {
                        let clash = p.names().iter().any(|q| taken.contains(&q));
                        params.push(if clash { p.renamed("then_") } else { p });
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
                    out.methods.push(Func {
                        name,
                        receiver: first.receiver,
                        params,
                        // Through an Option or a match the result is conditional: not kept.
                        ret: if via == Via::Direct { second.ret } else { None },
                        expected: chained_class(&first.expected, second.expected),
                        suffix: second.suffix,
                        chain: Some(Chain {
                            first: first.name.clone(),
                            second: f.sig.ident.to_string(),
                            split: first.params.len(),
                            via: via.clone(),
                        }),
                        // The route drops what the second call returns inside its body.
                        kept: false,
                        call: None,
                    });
                }
                Err(why) => out.skipped.push((
                    spec,
                    SkipReason::ReachedThrough {
                        through: through.clone(),
                        why: Box::new(why),
                    },
                )),
            }
        }
    }
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

/// `T` of `Box<T>` (`wrapper` = "Box") or `Option<T>`.
fn wrapped<'t>(t: &'t Type, wrapper: &str) -> Option<&'t Type> {
    let Type::Path(p) = t else { return None };
    let seg = p.path.segments.last()?;
    if seg.ident != wrapper {
        return None;
    }
    match &seg.arguments {
        syn::PathArguments::AngleBracketed(a) if a.args.len() == 1 => match a.args.first()? {
            syn::GenericArgument::Type(t) => Some(t),
            _ => None,
        },
        _ => None,
    }
}
