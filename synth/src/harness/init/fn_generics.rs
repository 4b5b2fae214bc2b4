//! A function's own generic parameters (trait-bounded generics): what each takes, decided
//! from its bounds, as the resolver reads a signature: a closure the model builds, a range or
//! a sequence of program values, the other operand's instantiation, the harness's hasher, a
//! string or an integer for conversion bounds, the probe key, or a reason to skip the
//! function. Its own file beside [`resolve`](super::resolve), which calls it once per
//! signature.

use std::collections::{BTreeSet, HashMap, HashSet};

use quote::ToTokens;
use syn::{GenericParam, ReturnType, Type, TypeParamBound};

use super::closures::{closure_bound, Returns};
use super::compound::ARRAY_LEN;
use super::instantiate::OMITTED;
use super::model_ty::ModelTy;
use super::primitive_bounds::{assoc_predicate, primitive_for, unmet_bound};
use super::resolve::{conversion_target, Built, Ctx};
use super::sequence::{sequence_bound_of, ELEMENTS};
use super::skips::SkipReason;
use super::syntax::{top_level_args, trait_names};
use super::trait_impls::Meets;
use super::value_traits::{KEY_TRAITS, MODEL_INTS, STRING_TRAITS, U64_TRAITS};

impl Ctx<'_> {
    /// The function's generic parameters that a parameter of this type's own kind takes
    /// as an argument (`other: &BTreeSet<T, D>`), each with this type's instantiation at
    /// that position (`D` of `BTreeSet<Key, Slab<..>>` is `Slab<..>`).
    pub(super) fn other_operand_args(
        &self,
        g: &syn::Generics,
        inputs: &syn::punctuated::Punctuated<syn::FnArg, syn::Token![,]>,
    ) -> HashMap<String, String> {
        let mut out = HashMap::new();
        let generic: HashSet<String> = g.type_params().map(|p| p.ident.to_string()).collect();
        if generic.is_empty() {
            return out;
        }
        // Registered through an alias (`BTreeSet<Key>` for `generic::BTreeSet<T, C>`), the
        // alias's arguments are not the type's: the parameter is left to inference from the
        // argument (`_`), which is a registered value.
        let base = self.self_rust.split('<').next().unwrap_or("");
        let own = if base.rsplit("::").next() == Some(self.ty_ident) {
            top_level_args(self.self_rust)
        } else {
            Vec::new()
        };
        for tp in input_paths(inputs) {
            let Some(seg) = tp.path.segments.last() else {
                continue;
            };
            if seg.ident != self.ty_ident {
                continue;
            }
            let syn::PathArguments::AngleBracketed(a) = &seg.arguments else {
                continue;
            };
            let args = a
                .args
                .iter()
                .filter(|x| !matches!(x, syn::GenericArgument::Lifetime(_)));
            for (k, arg) in args.enumerate() {
                let syn::GenericArgument::Type(Type::Path(p)) = arg else {
                    continue;
                };
                let Some(id) = p.path.get_ident().map(|i| i.to_string()) else {
                    continue;
                };
                if generic.contains(&id) {
                    let v = own.get(k).cloned().unwrap_or_else(|| OMITTED.to_string());
                    out.insert(id, v);
                }
            }
        }
        out
    }

    /// The instantiation of a function's own generic parameters.
    pub(super) fn method_generics(
        &self,
        g: &syn::Generics,
        inputs: &syn::punctuated::Punctuated<syn::FnArg, syn::Token![,]>,
        output: &ReturnType,
    ) -> Result<LocalGenerics, SkipReason> {
        let mut out = LocalGenerics {
            subst: self.subst.clone(),
            closures: HashMap::new(),
            turbofish: HashMap::new(),
        };
        let own: Vec<String> = g.type_params().map(|p| p.ident.to_string()).collect();
        let registered = self.registered_input_args(&own, inputs);
        let same_type = self.other_operand_args(g, inputs);
        // Bounds of each type parameter, inline and from the where clause; and `X: Borrow<Q>`
        // predicates, which say what a borrowed-key parameter `Q` stands for.
        let mut bounds: Vec<(String, Vec<TypeParamBound>)> = Vec::new();
        for p in &g.params {
            match p {
                GenericParam::Lifetime(_) => {}
                // Arrays of a compile-time length (`get_disjoint_mut([&Q; N])`) get a fixed
                // length, each element its own program value (see `compound::array`).
                GenericParam::Const(c) => {
                    out.subst.insert(c.ident.to_string(), ARRAY_LEN.to_string());
                }
                GenericParam::Type(t) => {
                    bounds.push((t.ident.to_string(), t.bounds.iter().cloned().collect()))
                }
            }
        }
        let mut borrowed: HashMap<String, String> = HashMap::new();
        // `G::EdgeWeight: FloatMeasure`: checked once `G` is chosen.
        let mut assoc_bounds: Vec<(String, String, Vec<String>)> = Vec::new();
        if let Some(w) = &g.where_clause {
            for pred in &w.predicates {
                let syn::WherePredicate::Type(pt) = pred else {
                    continue;
                };
                let is_param = |n: &str| bounds.iter().any(|(m, _)| m == n);
                if let Some(a) = assoc_predicate(pt, &is_param) {
                    assoc_bounds.push(a);
                    continue;
                }
                let id = pt.bounded_ty.to_token_stream().to_string();
                // `&'a Iter1: IntoIterator<Item = Elem1>` (`generic_jaro(a: &'a
                // Iter1, ..)`) bounds what the function borrows: a vector meets it borrowed
                // as it does owned, and the item type it names is inferred.
                let borrowed_param = match &pt.bounded_ty {
                    Type::Reference(r) => Some(r.elem.to_token_stream().to_string()),
                    _ => None,
                };
                if let Some((_, bs)) = bounds
                    .iter_mut()
                    .find(|(n, _)| *n == id || Some(n) == borrowed_param.as_ref())
                {
                    bs.extend(pt.bounds.iter().cloned());
                } else {
                    // `K: Borrow<Q>` with K the type's parameter, or a model primitive.
                    let k = self.subst.get(&id).cloned().or_else(|| {
                        (MODEL_INTS.contains(&id.as_str()) || id == "String").then(|| id.clone())
                    });
                    for (b, k) in pt.bounds.iter().zip(std::iter::repeat(k)) {
                        if let (Some(q), Some(k)) = (generic_arg_of(b, "Borrow"), k) {
                            borrowed.insert(q, k);
                        }
                    }
                }
            }
        }
        // A parameter whose bounds name another (`R: RangeBounds<Q>`) is read after the
        // others, whatever the declaration order: indexset's `BTreeSet::range<R, Q>` was
        // skipped where its `BTreeMap::range<Q, R>` registered.
        // Read in dependency order, so that a chain is read from its end
        // (`generic_hamming<Iter1: IntoIterator<Item = Elem1>, .., Elem1: PartialEq<Elem2>>`:
        // `Elem2`, then `Elem1`, then `Iter1`); a cycle is read in declaration order.
        // A parameter another's bound binds to an associated type of a trait of the crate
        // (`N` of `G: Visitable<NodeId = N>`) is read after that one, the other way round
        // (`Iter1: IntoIterator<Item = Elem1>` is a sequence read from its item type).
        let bound_to = binding_targets(&bounds, &|t| self.int_traits.declared.declares(t));
        let mut pending = std::mem::take(&mut bounds);
        while !pending.is_empty() {
            let names_pending = |k: usize| {
                let (n, bs) = &pending[k];
                let waits = |m: &String| m != n && pending.iter().any(|(p, _)| p == m);
                if bound_to.get(n).is_some_and(|(g, _)| waits(g)) {
                    return true;
                }
                bs.iter().any(|b| {
                    let b = b.to_token_stream().to_string();
                    pending.iter().any(|(m, _)| {
                        m != n
                            && super::int_traits::names_arg(&b, m)
                            && bound_to.get(m).is_none_or(|(g, _)| g != n)
                    })
                })
            };
            let k = (0..pending.len()).find(|&k| !names_pending(k)).unwrap_or(0);
            bounds.push(pending.remove(k));
        }
        // A closure returning a type parameter of the function (`sort_by_key`'s `T`) returns
        // its first input, cloned: `T` is that input's type.
        let fn_generics: HashSet<String> = bounds.iter().map(|(n, _)| n.clone()).collect();
        let unbounded: HashSet<String> = bounds
            .iter()
            .filter(|(_, bs)| bs.is_empty())
            .map(|(n, _)| n.clone())
            .collect();
        // Parameters a closure argument returns (`F: FnMut(G::EdgeRef) -> K`).
        let closure_outputs: HashSet<String> = bounds
            .iter()
            .filter_map(|(_, bs)| match closure_bound(bs)?.1 {
                ReturnType::Type(_, t) => Some(t.to_token_stream().to_string()),
                ReturnType::Default => None,
            })
            .collect();
        let mut keys: HashSet<String> = HashSet::new();
        for (_, bs) in &bounds {
            let Some((inputs, ReturnType::Type(_, t))) = closure_bound(bs) else {
                continue;
            };
            let Type::Path(tp) = &*t else { continue };
            let Some(id) = tp.path.get_ident().map(|i| i.to_string()) else {
                continue;
            };
            if !fn_generics.contains(&id) {
                continue;
            }
            let first = inputs.first().map(|i| match i {
                Type::Reference(r) => (*r.elem).clone(),
                t => t.clone(),
            });
            if let Some(ty) = first.and_then(|f| self.resolve(&f)) {
                out.subst.insert(id.clone(), ty);
                keys.insert(id);
            }
        }
        for (name, bs) in bounds {
            if let Some((inputs, output)) = closure_bound(&bs) {
                let cx = Ctx {
                    subst: &out.subst,
                    ..*self
                };
                let shape = super::closures::shape(
                    &inputs,
                    &output,
                    &|t| cx.resolve(t),
                    &fn_generics,
                    &unbounded,
                )
                .map_err(|why| SkipReason::UnsupportedClosure { why })?;
                // A result it returns nothing for is `()` (see `closures::shape`).
                if let (Returns::Unit, ReturnType::Type(_, t)) = (&shape.returns, &output) {
                    let t = t.to_token_stream().to_string();
                    if unbounded.contains(&t) {
                        out.subst.insert(t, "()".into());
                    }
                }
                // Its `Result`'s error, the function's own parameter: `()`.
                if let Returns::Wrapped(super::wrapped_returns::Wrapped::Ok {
                    error: Some(e),
                    ..
                }) = &shape.returns
                {
                    out.subst
                        .insert(e.clone(), super::wrapped_returns::UNIT_ERROR.to_string());
                }
                out.closures.insert(name, Built::Closure(shape));
                continue;
            }
            // Bound to another parameter's associated type (`G: IntoNeighbors<NodeId = N>`):
            // that type, the registered one its impl names, else left to the compiler (`_`)
            // when no argument is of it (`Map = VM`, only inferred).
            if let Some((g, assoc)) = bound_to.get(&name) {
                if let Some(v) = out.subst.get(&format!("{g}::{assoc}")).cloned() {
                    out.subst.insert(name, v);
                    continue;
                }
                let passed = inputs.iter().any(|a| {
                    matches!(a, syn::FnArg::Typed(pt) if super::result_generics::mentions(&pt.ty, &name))
                });
                if !passed && (out.subst.contains_key(g) || out.closures.contains_key(g)) {
                    out.subst.insert(name, OMITTED.to_string());
                    continue;
                }
            }
            // `K: PartialEq<K>` is `K: PartialEq`.
            let names: Vec<String> = trait_names(&bs)
                .into_iter()
                .map(|b| match b.strip_suffix(&format!("<{name}>")) {
                    Some(t) if ["PartialEq", "PartialOrd"].contains(&t) => t.to_string(),
                    _ => b,
                })
                .collect();
            if keys.contains(&name) {
                let own = out.subst.get(&name).cloned().unwrap_or_default();
                let traits: &[&str] = if own == "Key" { KEY_TRAITS } else { &[] };
                if let Some(b) = names.iter().find(|b| {
                    !traits.contains(&b.as_str())
                        && !KEY_TRAITS.contains(&b.as_str())
                        && !U64_TRAITS.contains(&b.as_str())
                }) {
                    return Err(SkipReason::ClosureKeyBoundNotMet {
                        param: name,
                        bound: b.clone(),
                        key: own,
                    });
                }
                continue;
            }
            // `R: RangeBounds<usize>` (or of another integer, or of the key): `start..end`.
            // `R: Borrow<Range<K>>` (`overlapping`) takes a `Range<K>` itself.
            let ranged = names.iter().find_map(|b| {
                let inner = b
                    .strip_prefix("RangeBounds<")
                    .and_then(|i| i.strip_suffix('>'))
                    .or_else(|| {
                        let i = b.strip_prefix("Borrow<")?.strip_suffix('>')?;
                        let i = i.strip_prefix("std::ops::").unwrap_or(i);
                        let i = i.strip_prefix("core::ops::").unwrap_or(i);
                        i.strip_prefix("Range<")?.strip_suffix('>')
                    })?;
                if MODEL_INTS.contains(&inner) {
                    return Some(inner.to_string());
                }
                out.subst.get(inner).filter(|k| *k == "Key").cloned()
            });
            // A trait of the crate it implements for `Range<_>`
            // (`count_ones<T: IndexRange>`): a range too.
            let ranged = ranged.or_else(|| {
                (names.len() == 1)
                    .then(|| self.int_traits.range_for(&names[0]))
                    .flatten()
            });
            if let Some(elem) = ranged {
                out.subst
                    .insert(name.clone(), format!("std::ops::Range<{elem}>"));
                out.closures.insert(name, Built::Range(elem));
                continue;
            }
            // `I: IntoIterator<Item = u32>`: a vector of program values.
            let cx = Ctx {
                subst: &out.subst,
                ..*self
            };
            // Or of a registered type of the crate named by its instantiation
            // (`Item = G::NodeId`, `NodeIndex<u32>`), which the program holds vectors of.
            let element = |e: &str| {
                ELEMENTS.contains(&e)
                    || (self.regs.values().any(|(n, r)| n == e || r == e)
                        && e.chars().all(|c| c.is_alphanumeric() || "_<>,".contains(c)))
            };
            // `Item = Self` (`unions(i: I) -> Self`): values of this type. `Item =
            // Element<N, E>`: a registered type of the crate written with parameters, at
            // their instantiation.
            let item = |t: &Type| match t {
                Type::Path(p) if p.path.is_ident("Self") && !self.self_name.is_empty() => {
                    Some(self.self_name.to_string())
                }
                t => cx
                    .resolve(t)
                    .or_else(|| match cx.value(t, &mut BTreeSet::new()) {
                        Ok((ModelTy::Own(n), None))
                            if written_at(t, &cx).is_some_and(|w| w == n) =>
                        {
                            Some(n)
                        }
                        _ => None,
                    }),
            };
            if let Some((elem, iterator)) = sequence_bound_of(&bs, &item, &element) {
                out.subst.insert(name.clone(), format!("Vec<{elem}>"));
                out.closures.insert(name, Built::Sequence(elem, iterator));
                continue;
            }
            // `I: IntoIterator` whose items meet the crate's traits: a vector of an item type
            // the crate implements them for.
            if let Some((elem, iterator)) = self.items_from_impls(&name, &bs, g, &assoc_bounds) {
                out.subst.insert(name.clone(), format!("Vec<{elem}>"));
                out.closures.insert(name, Built::Sequence(elem, iterator));
                continue;
            }
            // The other operand's own parameter (`union<D: Slab<..>>(&self,
            // other: &BTreeSet<T, D>)`, its storage): this type's instantiation there, so
            // the other operand is a registered value of the same type.
            if let Some(v) = same_type.get(&name) {
                out.subst.insert(name, v.clone());
                continue;
            }
            // Written as an argument of another registered type among the inputs
            // (`input: &Graph<N, E, Ty, Ix>`): that registration's argument, unless it is
            // known not to meet the parameter's bounds (see `registered_args`).
            if let Some(v) = registered
                .get(&name)
                .filter(|v| unmet_bound(self.int_traits, v, &names).is_none())
            {
                out.subst.insert(name, v.clone());
                continue;
            }
            // Another hasher (`is_subset<S2: BuildHasher>(&self, other: &IndexSet<T, S2>)`):
            // the harness's own, so the other operand is a registered value.
            // Named by no argument (`all_simple_paths<TargetColl, G, S: BuildHasher +
            // Default>`, used inside only), the call names it.
            if names.iter().any(|b| b == "BuildHasher") {
                let named = inputs.iter().any(|a| {
                    matches!(a, syn::FnArg::Typed(pt) if super::result_generics::mentions(&pt.ty, &name))
                });
                if !named {
                    out.turbofish.insert(name.clone(), "FixedState".to_string());
                }
                out.subst.insert(name, "FixedState".to_string());
                continue;
            }
            // `Q: Equivalent<K>` / `K: Borrow<Q>`: Q is the type's key type. So is `U` of
            // `U: PartialEq<T>` (`contains`), compared with the stored items.
            // The other side may be a parameter of the function read before
            // (`Elem1: PartialEq<Elem2>`): the value it took.
            let equiv = bs
                .iter()
                .find_map(|b| {
                    generic_arg_of(b, "Equivalent").or_else(|| generic_arg_of(b, "PartialEq"))
                })
                .and_then(|k| out.subst.get(&k).cloned());
            if let Some(k) = equiv.or_else(|| borrowed.get(&name).cloned()) {
                out.subst.insert(name, k);
                continue;
            }
            let names = trait_names(&bs);
            if names.iter().all(|b| KEY_TRAITS.contains(&b.as_str())) {
                out.subst.insert(name, "Key".into());
                continue;
            }
            // `T: AsRef<str>` (`get_or_intern`), `T: Into<u64>`: the value.
            if let Some(t) = conversion_target(&names) {
                out.subst.insert(name, t);
                continue;
            }
            // The crate's traits it implements for `String` (`T: DiffableStrRef`).
            let for_string = |b: &String| self.int_traits.for_string(b);
            if names.iter().any(for_string)
                && names.iter().all(|b| {
                    for_string(b)
                        || super::value_traits::string_like(b)
                        || STRING_TRAITS.contains(&b.as_str())
                })
            {
                out.subst.insert(name, "String".into());
                continue;
            }
            // Passed as itself somewhere (`g: G`), or only behind a reference (`v: &V`); a
            // parameter no argument has as its type (`node_index<Ix>(i: usize) ->
            // NodeIndex<Ix>`) is the caller's choice of result, which no value tells.
            let is_param = |t: &Type| matches!(t, Type::Path(tp) if tp.path.is_ident(&name));
            let typed = |f: &dyn Fn(&Type) -> bool| {
                inputs
                    .iter()
                    .any(|a| matches!(a, syn::FnArg::Typed(pt) if f(&pt.ty)))
            };
            let bare = typed(&is_param);
            let borrowed = typed(&|t| matches!(t, Type::Reference(r) if is_param(&r.elem)));
            // `RM: Borrow<Self>` (`is_submap(other: RM)`): another value of this type,
            // borrowed (`&T: Borrow<T>`).
            // So does `Borrow<OrdMap<K, B>>` (`is_submap_by`) when its arguments, read with
            // the function's parameters so far (`B` took the value type), are this type's.
            let borrows_self = bs.iter().any(|b| {
                generic_arg_of(b, "Borrow")
                    .is_some_and(|t| t == "Self" || self.is_own_instantiation(&t, &out.subst))
            });
            if borrows_self && bare && !self.self_name.is_empty() {
                out.closures
                    .insert(name, Built::Borrowed(self.self_name.to_string()));
                continue;
            }
            // The crate's own traits (`G: IntoNeighbors + Visitable`): a registered type of
            // the crate implementing them, borrowed when the impls are for `&T`.
            // Associated-type bindings (`IntoNeighbors<NodeId = N>`) name what the chosen
            // type's impls fix; the compiler checks them.
            let last: Vec<String> = names
                .iter()
                .map(|b| without_path(b).to_string())
                .map(|b| {
                    let bare = super::trait_decls::without_bindings(&b);
                    if self.int_traits.declared.declares(&bare) {
                        bare
                    } else {
                        b
                    }
                })
                .collect();
            let mut registered: Vec<&String> = self.regs.keys().collect();
            registered.sort();
            let meets = (bare || borrowed)
                .then(|| {
                    self.int_traits.impls.implementor(
                        &last,
                        registered.iter().map(|s| s.as_str()),
                        !bare,
                    )
                })
                .flatten();
            if let Some(Meets::Borrowed(t) | Meets::Owned(t)) = &meets {
                // Its associated types that are registered types of the crate
                // (`G::NodeId`, `NodeIndex` for a graph): a value of theirs.
                // The registered type the written path names: the one of that name whose
                // module ends with the path's modules (`a::Node`), if exactly one is.
                for (assoc, target) in self.int_traits.impls.associated(t) {
                    let Some((last, modules)) = target.split_last() else {
                        continue;
                    };
                    // Distinct registrations: a `use` names one under several modules.
                    let named: BTreeSet<&String> = self
                        .regs_in
                        .iter()
                        .filter(|((m, id), _)| id == last && m.ends_with(modules))
                        .map(|(_, (reg, _))| reg)
                        .collect();
                    let reg = (named.len() == 1)
                        .then(|| named.into_iter().next())
                        .flatten();
                    if let Some(reg) = reg {
                        out.subst.insert(format!("{name}::{assoc}"), reg.clone());
                    }
                }
            }
            if let Some(Meets::Borrowed(t) | Meets::Owned(t)) = &meets {
                self.check_assoc_bounds(&name, t, &assoc_bounds, &out.subst)?;
            }
            match meets {
                Some(Meets::Borrowed(t)) => {
                    let reg = self.regs[&t].0.clone();
                    out.closures.insert(name, Built::Borrowed(reg));
                    continue;
                }
                Some(Meets::Owned(t)) => {
                    out.subst.insert(name, self.regs[&t].0.clone());
                    continue;
                }
                None => {}
            }
            // A closure's result bounded by the crate's traits it implements for `()`
            // (`F: FnMut(DfsEvent<N>) -> C, C: ControlFlow`): `()`, the closure returns
            // nothing.
            if closure_outputs.contains(&name)
                && names.iter().any(|b| self.int_traits.for_unit(b))
                && names
                    .iter()
                    .all(|b| self.int_traits.for_unit(b) || UNIT_TRAITS.contains(&b.as_str()))
            {
                out.subst.insert(name, "()".into());
                continue;
            }
            // Bounded by the crate's traits it implements for integers (`K: Measure +
            // Copy`): such an integer, when an argument says so (passed, or returned by a
            // closure argument); else the result's type alone names it, the caller's choice.
            let chosen = bare || borrowed || closure_outputs.contains(&name);
            // Named by the result alone: the caller's choice, by turbofish.
            if let Some(v) = (!chosen)
                .then(|| {
                    // Read with the instantiation so far (`G::NodeId` once `G` is chosen).
                    let cx = Ctx {
                        subst: &out.subst,
                        ..*self
                    };
                    cx.result_choice(&name, inputs, output, &names)
                })
                .flatten()
            {
                out.subst.insert(name.clone(), v.clone());
                out.turbofish.insert(name, v);
                continue;
            }
            if let Some(int) = chosen
                .then(|| primitive_for(self.int_traits, &names))
                .flatten()
            {
                out.subst.insert(name, int.to_string());
                continue;
            }
            if self.int_traits.from_str(&names) {
                out.subst.insert(name.clone(), "&str".into());
                out.closures.insert(name, Built::Str);
                continue;
            }
            if super::readers::reads_bytes(&names) {
                out.subst.insert(name.clone(), "&[u8]".into());
                out.closures.insert(name, Built::Bytes);
                continue;
            }
            if names.iter().any(|b| b == "AsRef<Path>") {
                return Err(SkipReason::FilePath { param: name });
            }
            return Err(SkipReason::UnbuildableGenericParameter {
                param: name,
                bounds: names,
            });
        }
        Ok(out)
    }
}

impl Ctx<'_> {
    /// Whether `written` (`OrdMap < K , B >`, as printed) is the type being registered at its
    /// registered instantiation, its parameters read through `subst`.
    fn is_own_instantiation(&self, written: &str, subst: &HashMap<String, String>) -> bool {
        let Ok(Type::Path(tp)) = syn::parse_str::<Type>(written) else {
            return false;
        };
        let Some(seg) = tp.path.segments.last() else {
            return false;
        };
        let base = self.self_rust.split('<').next().unwrap_or("");
        if seg.ident != self.ty_ident || base.rsplit("::").next() != Some(self.ty_ident) {
            return false;
        }
        let own = top_level_args(self.self_rust);
        let syn::PathArguments::AngleBracketed(a) = &seg.arguments else {
            return own.is_empty();
        };
        let plain = |t: &str| t.replace(' ', "").trim_start_matches("::").to_string();
        let written: Vec<String> = a
            .args
            .iter()
            .filter(|x| !matches!(x, syn::GenericArgument::Lifetime(_)))
            .map(|x| {
                let w = x.to_token_stream().to_string().replace(' ', "");
                subst.get(&w).cloned().unwrap_or(w)
            })
            .collect();
        written.len() <= own.len() && written.iter().zip(&own).all(|(w, o)| plain(w) == plain(o))
    }

    /// Checks the where-clause bounds on `param`'s associated types (`G::EdgeWeight:
    /// FloatMeasure`) against what the crate's impls for `ty`, the type `param` takes, set
    /// them to: a registered type (in `subst`) or the registered type's own argument at the
    /// impl parameter's position (`Key` of `Graph<Key, Key, ..>`).
    fn check_assoc_bounds(
        &self,
        param: &str,
        ty: &str,
        assoc_bounds: &[(String, String, Vec<String>)],
        subst: &HashMap<String, String>,
    ) -> Result<(), SkipReason> {
        let rust = self.regs.get(ty).map(|r| r.0.as_str()).unwrap_or("");
        let args = top_level_args(rust);
        for (p, assoc, bounds) in assoc_bounds.iter().filter(|(p, _, _)| p == param) {
            let inst = subst.get(&format!("{p}::{assoc}")).cloned().or_else(|| {
                let k = self.int_traits.impls.associated_arg(ty, assoc)?;
                args.get(k).cloned()
            });
            let Some(inst) = inst else { continue };
            if let Some(bound) = unmet_bound(self.int_traits, &inst, bounds) {
                return Err(SkipReason::AssocTypeBoundNotMet {
                    assoc: format!("{p}::{assoc}"),
                    ty: inst,
                    bound: bound.clone(),
                });
            }
        }
        Ok(())
    }
}

/// A bound without the path before its trait (`algo::Measure` is `Measure`); a path inside
/// its arguments stays (`GraphProp<EdgeType = G0::EdgeType>`, which cut at its last `::`
/// read as `EdgeType>` and met no type).
fn without_path(bound: &str) -> &str {
    let head = bound.find('<').unwrap_or(bound.len());
    match bound[..head].rfind("::") {
        Some(k) => &bound[k + 2..],
        None => bound,
    }
}

/// The parameters among `bounds` that another's bound binds to an associated type
/// (`G: Visitable<NodeId = N, Map = VM>`: `N` to (`G`, `NodeId`), `VM` to (`G`, `Map`)); the
/// first binding of each, in bounds by traits `own` says the crate declares.
fn binding_targets(
    bounds: &[(String, Vec<TypeParamBound>)],
    own: &dyn Fn(&str) -> bool,
) -> HashMap<String, (String, String)> {
    let mut out: HashMap<String, (String, String)> = HashMap::new();
    for (g, bs) in bounds {
        for b in bs {
            let TypeParamBound::Trait(tb) = b else {
                continue;
            };
            let Some(seg) = tb.path.segments.last() else {
                continue;
            };
            if !own(&seg.ident.to_string()) {
                continue;
            }
            let syn::PathArguments::AngleBracketed(a) = &seg.arguments else {
                continue;
            };
            for arg in &a.args {
                let syn::GenericArgument::AssocType(at) = arg else {
                    continue;
                };
                let Type::Path(tp) = &at.ty else { continue };
                let Some(x) = tp.path.get_ident().map(|i| i.to_string()) else {
                    continue;
                };
                if x != *g && bounds.iter().any(|(n, _)| *n == x) {
                    out.entry(x)
                        .or_insert_with(|| (g.clone(), at.ident.to_string()));
                }
            }
        }
    }
    out
}

/// `T` of a bound `Trait<T>` (last path segment named `trait_name`).
fn generic_arg_of(b: &TypeParamBound, trait_name: &str) -> Option<String> {
    let TypeParamBound::Trait(tb) = b else {
        return None;
    };
    let seg = tb.path.segments.last()?;
    if seg.ident != trait_name {
        return None;
    }
    match &seg.arguments {
        syn::PathArguments::AngleBracketed(a) => match a.args.first()? {
            syn::GenericArgument::Type(t) => Some(t.to_token_stream().to_string()),
            _ => None,
        },
        _ => None,
    }
}

/// The standard traits `()` implements.
const UNIT_TRAITS: &[&str] = &[
    "Copy",
    "Clone",
    "Debug",
    "Default",
    "PartialEq",
    "Eq",
    "PartialOrd",
    "Ord",
    "Hash",
];

/// A function's generic parameters, instantiated.
pub(super) struct LocalGenerics {
    pub(super) subst: HashMap<String, String>,
    pub(super) closures: HashMap<String, Built>,
    /// Parameters only the result names, with the type the call names them by (see
    /// [`result_generics`](super::result_generics)).
    pub(super) turbofish: HashMap<String, String>,
}

/// The type paths a function's typed inputs name, references peeled (`&Graph<N, E>` is
/// `Graph<N, E>`): where its generic parameters meet the types they are arguments of.
pub(super) fn input_paths(
    inputs: &syn::punctuated::Punctuated<syn::FnArg, syn::Token![,]>,
) -> impl Iterator<Item = &syn::TypePath> {
    inputs.iter().filter_map(|input| {
        let syn::FnArg::Typed(pt) = input else {
            return None;
        };
        let mut ty = &*pt.ty;
        while let Type::Reference(r) = ty {
            ty = &r.elem;
        }
        match ty {
            Type::Path(tp) => Some(tp),
            _ => None,
        }
    })
}

/// `t` written with its arguments resolved (`Element<N, E>` at `N = Key`, `E = Key`:
/// `Element<Key,Key>`), to tell whether it is a registration's instantiation: `Item =
/// Element<Self::NodeWeight, ..>` of a graph keyed by `u64` is not `Element<Key,Key>`.
fn written_at(t: &Type, cx: &Ctx<'_>) -> Option<String> {
    let Type::Path(tp) = t else { return None };
    let seg = tp.path.segments.last()?;
    let syn::PathArguments::AngleBracketed(a) = &seg.arguments else {
        return Some(seg.ident.to_string());
    };
    let args = a
        .args
        .iter()
        .map(|g| match g {
            syn::GenericArgument::Type(t) => cx.resolve(t),
            _ => None,
        })
        .collect::<Option<Vec<String>>>()?;
    Some(format!("{}<{}>", seg.ident, args.join(",")))
}
