//! Type aliases and the parameters they fix. A public alias can name a type init could not
//! instantiate on its own (its parameter fixed to a crate type), give a const parameter its
//! value, or fix a parameter whose associated types the signatures then name; a public alias
//! of a primitive is that primitive. The model asks these when it instantiates a type and
//! before it reads the type's signatures.

use std::collections::{HashMap, HashSet};

use quote::ToTokens;
use syn::{GenericParam, Type, TypeParamBound};

use super::instantiate::{instantiate, OMITTED};
use super::scan::{FoundType, Scan};
use super::syntax::param_names;

/// A const parameter no field mentions (a d-ary heap's arity, a branching factor, see
/// `FoundType::free_consts`) and without a declared default gets the value of the crate's
/// first public alias that fixes it (`pub type BinaryHeap<T> = DaryHeap<T, 2>`),
/// else [`FREE_CONST`], instead of the capacity `instantiate` gives a `usize` (8192): a
/// heap of arity 8192 is one level deep at every size a sweep reaches, and its `pop`, which
/// scans a node's children, was reported O(n) against the documented O(log n).
pub(super) fn instantiate_free(t: &FoundType, scan: &Scan, subst: &mut HashMap<String, String>) {
    for c in &t.free_consts {
        let declared =
            t.generics.params.iter().any(
                |p| matches!(p, GenericParam::Const(k) if k.ident == c && k.default.is_some()),
            );
        if declared {
            continue;
        }
        let from_alias = scan
            .aliases
            .iter()
            .filter(|(a, _)| a.reachable)
            .find_map(|(_, target)| alias_const(t, target, c));
        subst.insert(
            c.clone(),
            from_alias.unwrap_or_else(|| FREE_CONST.to_string()),
        );
    }
}

/// The value of a const parameter that shapes behaviour when the crate names none: a small
/// constant, as the documented classes assume (arities and branching factors of 2 to 16).
const FREE_CONST: usize = 8;

/// The integer literal `target` (an alias's aliased type) gives `t`'s const parameter `c`,
/// if it names `t`.
fn alias_const(t: &FoundType, target: &Type, c: &str) -> Option<String> {
    let at = t
        .generics
        .params
        .iter()
        .filter(|p| !matches!(p, GenericParam::Lifetime(_)))
        .position(|p| matches!(p, GenericParam::Const(k) if k.ident == c))?;
    alias_args(t, target)?
        .into_iter()
        .nth(at)
        .filter(|a| a.parse::<u64>().is_ok())
}

/// The arguments `target` (an alias's aliased type) gives `t`'s parameters other than
/// lifetimes, as written, if it names `t`.
pub(super) fn alias_args(t: &FoundType, target: &Type) -> Option<Vec<String>> {
    let Type::Path(tp) = target else { return None };
    let seg = tp.path.segments.last()?;
    if seg.ident != t.ident || tp.qself.is_some() {
        return None;
    }
    Some(match &seg.arguments {
        syn::PathArguments::AngleBracketed(x) => x
            .args
            .iter()
            .filter(|a| !matches!(a, syn::GenericArgument::Lifetime(_)))
            .map(|a| a.to_token_stream().to_string())
            .collect(),
        _ => Vec::new(),
    })
}

/// A public alias that fills what init cannot (`pub type StableVec<T> =
/// StableVecFacade<T, DefaultCore<T>>`, whose `C: Core<T>` no key or integer implements):
/// the type registers under the alias's name, the alias's parameters instantiated as a type's
/// are. The type's own parameters are the alias's arguments: one naming an alias parameter
/// takes its instantiation, any other is fixed by the alias and is not a program value.
/// `(subst, the alias's generic arguments)` and the alias; `None` when no alias fits.
pub(super) fn through_alias<'s>(
    t: &FoundType,
    scan: &'s Scan,
    named: &HashMap<String, String>,
) -> Option<(HashMap<String, String>, (&'s FoundType, String))> {
    scan.aliases
        .iter()
        .filter(|(a, _)| a.reachable)
        .find_map(|(a, target)| {
            let args = alias_args(t, target)?;
            let params: Vec<String> = param_names(&t.generics).collect();
            let bounded = alias_generics_bounded(&a.generics, t, &params, &args, &scan.types);
            let own = instantiate(
                &bounded,
                std::iter::empty(),
                false,
                named,
                &scan.array_traits,
                &scan.int_traits,
            )
            .ok()?;
            let mut subst = HashMap::new();
            for (k, p) in params.iter().enumerate() {
                let v = args
                    .get(k)
                    .and_then(|a| own.get(a.trim()))
                    .cloned()
                    .unwrap_or_else(|| OMITTED.to_string());
                subst.insert(p.clone(), v);
            }
            let shown: Vec<String> = param_names(&a.generics)
                .filter_map(|p| own.get(&p).cloned())
                .filter(|v| v != OMITTED)
                .collect();
            let generic = if shown.is_empty() {
                String::new()
            } else {
                format!("<{}>", shown.join(","))
            };
            Some((subst, (a, generic)))
        })
}

/// The alias's generics with the bounds of the type's parameters each alias parameter is
/// passed as (`pub type DefaultStringInterner<B = DefaultBackend, H =
/// DefaultHashBuilder> = StringInterner<B, H>`): Rust does not check bounds on an alias, so
/// its parameters state none, and unbounded they would take the probe key where the type
/// needs `B: Backend` and `H: BuildHasher`. The bounds come from the type's declaration and
/// its impl blocks, which name its parameters as the type does (see [`instantiate`]).
fn alias_generics_bounded(
    alias: &syn::Generics,
    t: &FoundType,
    params: &[String],
    args: &[String],
    types: &[FoundType],
) -> syn::Generics {
    let mut out = alias.clone();
    let alias_params: HashSet<String> = alias.type_params().map(|p| p.ident.to_string()).collect();
    let mut preds: Vec<syn::WherePredicate> = Vec::new();
    for (param, arg) in params.iter().zip(args) {
        let Ok(arg_ty) = syn::parse_str::<Type>(arg.trim()) else {
            continue;
        };
        if alias_params.contains(arg.trim()) {
            preds.extend(param_bounds(t, param, &arg_ty));
        } else {
            nested_bounds(&arg_ty, types, &alias_params, &mut preds);
        }
    }
    out.make_where_clause().predicates.extend(preds);
    out
}

/// Bounds of alias parameters passed to another type of the crate inside an argument
/// (`pub type UnificationTableStorage<K> = UnificationTable<InPlace<K, ..>>`, where
/// `InPlace<K: UnifyKey>`): without them `K` took the probe key, the harness did not
/// compile, and init failed as a whole.
fn nested_bounds(
    ty: &Type,
    types: &[FoundType],
    alias_params: &HashSet<String>,
    preds: &mut Vec<syn::WherePredicate>,
) {
    let Type::Path(tp) = ty else { return };
    let Some(seg) = tp.path.segments.last() else {
        return;
    };
    let syn::PathArguments::AngleBracketed(a) = &seg.arguments else {
        return;
    };
    let args: Vec<&syn::GenericArgument> = a
        .args
        .iter()
        .filter(|g| !matches!(g, syn::GenericArgument::Lifetime(_)))
        .collect();
    if let Some(x) = types.iter().find(|x| seg.ident == x.ident.as_str()) {
        let params = param_names(&x.generics);
        for (p, arg) in params.zip(&args) {
            if let syn::GenericArgument::Type(arg_ty) = arg {
                let name = arg_ty.to_token_stream().to_string();
                if alias_params.contains(&name) {
                    preds.extend(param_bounds(x, &p, arg_ty));
                }
            }
        }
    }
    for arg in args {
        if let syn::GenericArgument::Type(inner) = arg {
            nested_bounds(inner, types, alias_params, preds);
        }
    }
}

/// `arg_ty: B` for the bounds `B` of `t`'s parameter `param`, from its declaration and
/// each impl block, which name its parameters as the type does (see [`instantiate`]).
fn param_bounds(t: &FoundType, param: &str, arg_ty: &Type) -> Vec<syn::WherePredicate> {
    let mut preds = Vec::new();
    let gens = std::iter::once(&t.generics).chain(t.impls.iter().map(|i| &i.generics));
    for g in gens {
        let inline = g
            .type_params()
            .filter(|p| p.ident == param)
            .flat_map(|p| p.bounds.iter().cloned());
        let wheres = g
            .where_clause
            .iter()
            .flat_map(|w| w.predicates.iter())
            .filter_map(|pred| match pred {
                syn::WherePredicate::Type(pt)
                    if pt.bounded_ty.to_token_stream().to_string() == param =>
                {
                    Some(pt.bounds.iter().cloned())
                }
                _ => None,
            })
            .flatten();
        let bounds: Vec<TypeParamBound> = inline.chain(wheres).collect();
        if !bounds.is_empty() {
            preds.push(syn::parse_quote!(#arg_ty: #(#bounds)+*));
        }
    }
    preds
}

/// What the type's parameters are where the harness cannot name them as program values: a
/// parameter its alias fixes (`pub type PatriciaMap<V> =
/// GenericPatriciaMap<Vec<u8>, V>` fixes `K`) is that type, and an associated type of a
/// parameter (`K::Borrowed`) is what the crate's impl of its trait for the parameter's type
/// sets it to (`impl Bytes for Vec<u8> { type Borrowed = [u8]; }`). Signatures are read with
/// them written out: `insert<Q: AsRef<K::Borrowed>>(&mut self, key: Q, ..)` is
/// `Q: AsRef<[u8]>`, a string, and `iter_prefix(&self, prefix: &K::Borrowed)` takes a slice
/// (all of such a map's lookups and updates were skipped).
#[derive(Default)]
pub(super) struct FixedParams {
    /// A parameter an alias fixes, by name: the type it fixes it to.
    idents: HashMap<String, proc_macro2::TokenStream>,
    /// A parameter's associated types, by parameter and associated type name.
    assoc: HashMap<String, HashMap<String, proc_macro2::TokenStream>>,
}

impl FixedParams {
    pub(super) fn of(
        t: &FoundType,
        subst: &HashMap<String, String>,
        alias: Option<&FoundType>,
        scan: &Scan,
    ) -> FixedParams {
        let mut out = FixedParams::default();
        let alias_args = alias
            .and_then(|a| scan.aliases.iter().find(|(x, _)| std::ptr::eq(x, a)))
            .and_then(|(a, target)| Some((a, alias_args(t, target)?)));
        let params: Vec<String> = param_names(&t.generics).collect();
        for (k, p) in params.iter().enumerate() {
            // The alias's argument for `p`, when it names none of the alias's parameters.
            let by_alias = alias_args.as_ref().and_then(|(a, args)| {
                let arg = args.get(k)?;
                let own = a.generics.params.iter().any(|g| match g {
                    GenericParam::Type(tp) => tp.ident == arg.trim(),
                    GenericParam::Const(c) => c.ident == arg.trim(),
                    GenericParam::Lifetime(_) => false,
                });
                (!own).then(|| arg.clone())
            });
            let concrete = match &by_alias {
                Some(arg) => arg.replace(' ', ""),
                None => match subst.get(p) {
                    Some(s) if s != OMITTED => s.replace(' ', ""),
                    _ => continue,
                },
            };
            if let Some(arg) = &by_alias {
                if let Ok(tokens) = arg.parse() {
                    out.idents.insert(p.clone(), tokens);
                }
            }
            for (self_ty, name, ty) in &scan.assoc_impls {
                if *self_ty == concrete {
                    out.assoc
                        .entry(p.clone())
                        .or_default()
                        .insert(name.clone(), ty.to_token_stream());
                }
            }
        }
        out
    }

    /// `f` with the fixed parameters and their associated types written out in its
    /// signature.
    pub(super) fn apply(&self, f: &syn::ImplItemFn) -> syn::ImplItemFn {
        if self.idents.is_empty() && self.assoc.is_empty() {
            return f.clone();
        }
        let mut tokens = f.sig.to_token_stream();
        for (p, assoc) in &self.assoc {
            tokens = super::scan::replace_assoc(tokens, p, assoc);
        }
        let tokens = super::scan::replace_idents(tokens, &self.idents);
        let mut out = f.clone();
        if let Ok(sig) = syn::parse2(tokens) {
            out.sig = sig;
        }
        out
    }
}
