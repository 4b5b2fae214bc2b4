//! Resolution: what one signature of the crate becomes in the program model. `Ctx` holds
//! what is known of the type being registered (its instantiation, the crate's registered
//! types, its closures, traits and doc tables), and `Ctx::func` turns a constructor's or
//! method's signature into a [`Func`], each parameter and the result resolved by
//! `Ctx::param` (in [`params`](super::params)) to a passing mode and a model type, or a
//! reason to skip it. The families of parameters built from several program values
//! (closures, ranges, arrays, tuples, sequences) have their own files below this one, and a
//! function's own generic parameters are read by the methods of
//! [`fn_generics`](super::fn_generics); the walk over a crate's types that calls this is
//! [`model`](super::model).

use std::collections::{BTreeSet, HashMap, HashSet};

use quote::ToTokens;
use syn::{FnArg, ReturnType, Type, TypeParamBound};

use perfsyn_profiler_ipc::Mode;

use super::closures::Shape;
use super::model_ty::ModelTy;
use super::registrations::{tuple_elements, Func, ParamKind, Receiver};
use super::skips::SkipReason;
use super::value_traits::{string_like, MODEL_INTS, STRING_TRAITS};

/// Registered own types by (defining module, ident) -> (registry name, rust type).
pub(super) type RegsIn = HashMap<(Vec<String>, String), (String, String)>;

pub(super) struct Ctx<'a> {
    pub(super) ty_ident: &'a str,
    /// The registry name of the type being registered.
    pub(super) self_name: &'a str,
    /// The Rust type being registered (differs from the registry name for duplicates).
    pub(super) self_rust: &'a str,
    pub(super) subst: &'a HashMap<String, String>,
    /// The module the type being registered is defined in (its signatures name types as
    /// that module sees them).
    pub(super) module: &'a [String],
    /// Registered own types: ident -> (registry name, rust type).
    pub(super) regs: &'a HashMap<String, (String, String)>,
    /// The same, keyed by defining module and ident: tells two types of one name apart.
    pub(super) regs_in: &'a RegsIn,
    /// Registry names of the registered own types that are `Copy` (passed as `copy`).
    pub(super) copies: &'a HashSet<String>,
    /// The crate's iterator types (see [`Scan::iterators`](super::scan::Scan::iterators)).
    pub(super) iterators: &'a HashSet<String>,
    /// The current function's closure parameters.
    pub(super) closures: &'a HashMap<String, Built>,
    /// The crate's inline-storage traits (see [`storage`](super::storage)).
    pub(super) arrays: &'a super::storage::ArrayTraits,
    /// The crate's traits implemented for integers (see [`int_traits`](super::int_traits)).
    pub(super) int_traits: &'a super::int_traits::IntTraits,
    /// The classes the type's methods read: their own docs, then the docs around them (see
    /// [`class_reader`](super::class_reader)).
    pub(super) table: &'a super::class_reader::TypeClasses,
    /// The aliases the signatures of each module are read through (see
    /// [`scoped_aliases`](super::scoped_aliases)).
    pub(super) prim_aliases: &'a super::scoped_aliases::ScopedAliases,
    /// The crate's slot arrays and the types built from them (see [`slots`](super::slots)).
    pub(super) slots: &'a super::slots::Slots,
    /// The crate's tuple structs over text (see [`literals`](super::literals)).
    pub(super) literals: &'a super::literals::Literals,
}

impl Ctx<'_> {
    pub(super) fn func(
        &self,
        sig: &syn::Signature,
        attrs: &[syn::Attribute],
        vecs: &mut BTreeSet<String>,
    ) -> Result<Func, SkipReason> {
        if sig.asyncness.is_some() {
            return Err(SkipReason::AsyncFunction);
        }
        if !matches!(sig.safety, syn::Safety::Default) {
            return Err(if sig.receiver().is_some() {
                SkipReason::UnsafeMethod
            } else {
                SkipReason::UnsafeFunction
            });
        }
        // The function's own type and const parameters as declared (a turbofish names
        // these, not the ones `impl Trait` arguments become).
        let declared: Vec<String> = super::syntax::param_names(&sig.generics).collect();
        let mut sig = impl_args_as_generics(sig);
        if !self.prim_aliases.is_empty() {
            if let Some(tokens) = self.prim_aliases.expand(self.module, sig.to_token_stream()) {
                if let Ok(s) = syn::parse2(tokens) {
                    sig = s;
                }
            }
        }
        let sig = &sig;
        // Generic parameters of the function: each gets a type the program model can supply
        // (the probe key, or the type's own key type for a borrowed-key parameter `Q`), or
        // is a closure parameter built from a program value (see [`closure`]).
        let local = self.method_generics(&sig.generics, &sig.inputs, &sig.output)?;
        let call = super::turbofish::turbofish(&sig.ident.to_string(), &declared, &local.turbofish);
        let cx = Ctx {
            subst: &local.subst,
            closures: &local.closures,
            ..*self
        };
        let mut receiver = None;
        let mut params = Vec::new();
        let mut loan = None;
        for arg in &sig.inputs {
            match arg {
                FnArg::Receiver(r) => {
                    receiver = Some(match &r.kind {
                        // A `Copy` receiver by value stays usable (a handle's `to_bits`).
                        syn::ReceiverKind::Value if self.copies.contains(self.self_name) => {
                            Receiver::By(Mode::Copy)
                        }
                        syn::ReceiverKind::Value => Receiver::By(Mode::Val),
                        syn::ReceiverKind::Reference(_, _, m) => {
                            if m.is_some() {
                                Receiver::By(Mode::Mut)
                            } else {
                                Receiver::REF
                            }
                        }
                        syn::ReceiverKind::Typed(_, t)
                            if t.to_token_stream().to_string().replace(' ', "") == "Box<Self>" =>
                        {
                            Receiver::Boxed
                        }
                        _ => return Err(SkipReason::TypedReceiver),
                    })
                }
                FnArg::Typed(pt) => {
                    let name = match &*pt.pat {
                        syn::Pat::Ident(i) => i.ident.to_string(),
                        _ => format!("arg{}", params.len()),
                    };
                    let name = if name == "self" || name.starts_with('_') {
                        format!("p{}{name}", params.len())
                    } else {
                        name
                    };
                    let p = cx.param(&name, &pt.ty, vecs).map_err(|why| {
                        SkipReason::UnsupportedParameter {
                            name: name.clone(),
                            why,
                        }
                    })?;
                    // Slots lent for the call whose loan the result keeps: the result
                    // cannot leave the statement (see `slots::kept_loan`).
                    if matches!(p.kind, ParamKind::Built { .. }) {
                        if let Some(why) = super::slots::kept_loan(&pt.ty, &sig.output) {
                            loan.get_or_insert(SkipReason::UnsupportedParameter {
                                name: name.clone(),
                                why,
                            });
                        }
                    }
                    params.push(p);
                }
            }
        }
        let ret = match &sig.output {
            ReturnType::Default => None,
            ReturnType::Type(_, t) => cx.kept(t),
        };
        // A result that keeps the slots' loan is consumed in the statement that lends them
        // (`gen` writes the call inside `black_box`); one kept as a program value, or a
        // constructor's, would outlive them.
        if let Some(why) = loan.filter(|_| ret.is_some() || receiver.is_none()) {
            return Err(why);
        }
        // An iterator the call returns is lazy: consume it, as a caller would, visiting every
        // item (a bare `count()` may be O(1): a crate's iterators may override it with `len()`).
        let suffix = match &sig.output {
            ReturnType::Type(_, t) if ret.is_none() && cx.is_iterator(t) => {
                Some(".map(std::hint::black_box).count()".to_string())
            }
            _ => None,
        };
        if receiver.is_none() {
            // A constructor must return the type itself, or a `Result` or `Option` of it
            // (`new(cap) -> Result<Self, Error>`, `try_new`), unwrapped: a constructor that
            // fails panics in the setup, and the program is a panic, as the caller's would be.
            let out = match &sig.output {
                ReturnType::Type(_, t) => t,
                ReturnType::Default => return Err(SkipReason::AssociatedFunctionReturningNothing),
            };
            let suffix = if fallible_of(out).is_some_and(|t| self.is_self(t)) {
                Some(".unwrap()".to_string())
            } else if self.is_self(out) {
                None
            } else {
                return Err(SkipReason::AssociatedFunctionNotReturningSelf {
                    ty: self.ty_ident.to_string(),
                    returns: sig
                        .output
                        .to_token_stream()
                        .to_string()
                        .trim_start_matches("->")
                        .trim()
                        .to_string(),
                });
            };
            let mut ctor = Func::ctor(&sig.ident.to_string(), params, suffix.as_deref());
            ctor.call = call;
            return Ok(ctor);
        }
        let doc = super::scan::doc_text(attrs);
        let documented = self.table.class_of(&sig.ident.to_string(), &doc);
        let expected = match &suffix {
            Some(_) => walked(documented, super::doc_classes::per_item_class(&doc)),
            None => documented,
        };
        let kept = ret.is_none()
            && suffix.is_none()
            && matches!(&sig.output, ReturnType::Type(_, t) if cx.owned(t));
        Ok(Func {
            name: sig.ident.to_string(),
            receiver,
            params,
            ret,
            expected,
            suffix,
            chain: None,
            kept,
            call,
        })
    }

    /// Whether `t` is an iterator: one of the crate's iterator types or `impl Iterator`.
    fn is_iterator(&self, t: &Type) -> bool {
        match t {
            Type::Path(p) => p
                .path
                .segments
                .last()
                .is_some_and(|s| self.iterators.contains(&s.ident.to_string())),
            Type::ImplTrait(it) => it.bounds.iter().any(|b| {
                matches!(b, TypeParamBound::Trait(tb) if tb.path.segments.last().is_some_and(|s| {
                    ["Iterator", "DoubleEndedIterator", "ExactSizeIterator"]
                        .contains(&s.ident.to_string().as_str())
                }))
            }),
            _ => false,
        }
    }

    /// Whether a value of type `t` surely owns everything it holds, so that dropping it is
    /// its holder's business, not the call's that returned it: primitives, `Self`, the
    /// type's parameters, the crate's registered types, std's owning containers, and
    /// tuples, arrays and those containers of them.
    ///
    /// Why so narrow: a result that borrows may do the call's work when dropped (`Drain`
    /// moves the tail back, `PeekMut` restores the heap order), and a borrow can hide in an
    /// elided lifetime (`-> Drain<T>`); a type not known to own stays dropped inside the
    /// window, as before. The false finding this fixes: `OrdMap::update_lookup_with_key
    /// (self, ..) -> (Option<V>, Self)` was charged for dropping the new map, O(n) against
    /// its O(log n).
    pub(super) fn owned(&self, t: &Type) -> bool {
        const STD_OWNING: &[&str] = &[
            "String",
            "Vec",
            "VecDeque",
            "Option",
            "Result",
            "Box",
            "Rc",
            "Arc",
            "BTreeMap",
            "BTreeSet",
            "HashMap",
            "HashSet",
            "BinaryHeap",
            "LinkedList",
        ];
        match t {
            Type::Tuple(tt) => tt.elems.iter().all(|e| self.owned(e)),
            Type::Array(a) => self.owned(&a.elem),
            Type::Paren(p) => self.owned(&p.elem),
            Type::Group(g) => self.owned(&g.elem),
            Type::Path(p) if p.qself.is_none() => {
                let Some(seg) = p.path.segments.last() else {
                    return false;
                };
                let id = seg.ident.to_string();
                let args_owned = match &seg.arguments {
                    syn::PathArguments::None => true,
                    syn::PathArguments::AngleBracketed(a) => a.args.iter().all(|arg| match arg {
                        syn::GenericArgument::Type(t) => self.owned(t),
                        syn::GenericArgument::Const(_) => true,
                        _ => false,
                    }),
                    syn::PathArguments::Parenthesized(_) => false,
                };
                let single = p.path.segments.len() == 1;
                let known = ["bool", "char", "f32", "f64"].contains(&id.as_str())
                    || MODEL_INTS.contains(&id.as_str())
                    || STD_OWNING.contains(&id.as_str())
                    || id == "Self"
                    || id == self.ty_ident
                    || (single
                        && self
                            .subst
                            .get(&id)
                            .is_some_and(|v| !v.contains(['&', '\''])))
                    || self.regs.get(&id).is_some_and(|(_, r)| !r.contains('\''));
                known && args_owned
            }
            _ => false,
        }
    }

    /// `Self`, or the type itself at the instantiation the harness uses: `Control<B>` in
    /// `impl<B> Control<B>`, not `Control<()>` (`Control::breaking`).
    fn is_self(&self, t: &Type) -> bool {
        match t {
            Type::Path(p) if p.qself.is_none() => p.path.segments.last().is_some_and(|s| {
                s.ident == "Self" || (s.ident == self.ty_ident && self.same_arguments(&s.arguments))
            }),
            Type::Paren(p) => self.is_self(&p.elem),
            Type::Group(g) => self.is_self(&g.elem),
            _ => false,
        }
    }

    /// Whether a path's generic arguments are the type's own parameters (or what the
    /// harness instantiates them with), so that the path names the registered type.
    fn same_arguments(&self, args: &syn::PathArguments) -> bool {
        let syn::PathArguments::AngleBracketed(a) = args else {
            return matches!(args, syn::PathArguments::None);
        };
        a.args.iter().all(|arg| {
            let text = match arg {
                syn::GenericArgument::Lifetime(_) => return true,
                syn::GenericArgument::Type(t) => t.to_token_stream().to_string(),
                syn::GenericArgument::Const(c) => c.to_token_stream().to_string(),
                _ => return false,
            };
            // A crate type filling a parameter is instantiated by its full path
            // (`demo::DefaultKey`) and written by its name (`-> SlotMap<DefaultKey, V>`).
            self.subst.contains_key(&text)
                || self
                    .subst
                    .values()
                    .any(|v| *v == text || v.ends_with(&format!("::{text}")))
        })
    }

    /// A return type worth keeping as a variable: a model primitive or an own type by value.
    fn kept(&self, t: &Type) -> Option<ModelTy> {
        let Type::Path(p) = t else { return None };
        let seg = p.path.segments.last()?;
        let id = seg.ident.to_string();
        if ["bool", "char", "String"].contains(&id.as_str()) || MODEL_INTS.contains(&id.as_str()) {
            return Some(ModelTy::parse(&id));
        }
        // `-> T` is written as the Rust type; `Registry::new` names a type registered under
        // another name (a duplicate identifier) by that name. Such a type is kept when
        // written in the module that defines it (see `resolve`), else dropped.
        // The type's name without arguments where the registration has some is another
        // instantiation, its declared defaults (`CapacityError<T = ()>::simplify(self)
        // -> CapacityError`), not `Self`.
        let defaults = id == self.ty_ident
            && seg.arguments.is_empty()
            && self.self_rust.starts_with(self.ty_ident)
            && self.self_rust.contains('<');
        if defaults {
            return None;
        }
        if id == self.ty_ident
            && super::result_instantiation::instantiated_otherwise(
                seg,
                self.self_rust,
                &self.with_self(),
            )
        {
            return None;
        }
        if id == "Self" || id == self.ty_ident {
            return (!self.self_name.is_empty()).then(|| ModelTy::Own(self.self_rust.to_string()));
        }
        if let Some(n) = self.own_filled(&id) {
            return Some(ModelTy::Own(n));
        }
        if let Some((_, rust)) = self
            .regs_in
            .get(&(self.module.to_vec(), id.clone()))
            .filter(|_| p.path.segments.len() == 1)
        {
            // Another instantiation (`Vec<u8, N>` beside `Vec<Key, 8192>`): the result is
            // dropped, as any result of a type the model does not hold.
            let other = super::other_instantiation::written_at_other(seg, rust)
                || super::result_instantiation::instantiated_otherwise(
                    seg,
                    rust,
                    &self.with_self(),
                );
            return (!other).then(|| ModelTy::Own(rust.clone()));
        }
        self.regs
            .get(&id)
            .filter(|(n, r)| n == r && !super::other_instantiation::written_at_other(seg, r))
            .filter(|(_, r)| {
                !super::result_instantiation::instantiated_otherwise(seg, r, &self.with_self())
            })
            .map(|(n, _)| ModelTy::Own(n.clone()))
    }

    /// The instantiation with `Self` the registration's type, for a result written around
    /// it (`Take<Self>`, see `result_instantiation`).
    fn with_self(&self) -> HashMap<String, String> {
        let mut at = self.subst.clone();
        if !self.self_name.is_empty() {
            at.entry("Self".to_string())
                .or_insert_with(|| self.self_rust.to_string());
        }
        at
    }

    /// The registry name of the crate's registered non-generic type that fills type
    /// parameter `id` (`K: Key` is `demo::DefaultKey`): a value of `K` is one of
    /// that type (a handle `insert` returns and `get` takes).
    pub(super) fn own_filled(&self, id: &str) -> Option<String> {
        let s = self.subst.get(id)?;
        // A registered type as its registration writes it (`Graph<Key,demo::Directed>`, a
        // borrowing type's parameter, see `borrowed_impl_fixed`).
        if let Some((n, _)) = self.regs.values().find(|(_, r)| r == s) {
            return Some(n.clone());
        }
        let last = s.rsplit("::").next()?;
        if !s.contains("::") || s.contains('<') {
            return None;
        }
        self.regs
            .values()
            .find(|(n, r)| n == r && r == last)
            .map(|(n, _)| n.clone())
    }
}

/// Whether `t` is a tuple of two or more integers, bools or chars (see [`tuple_elements`]).
pub(super) fn tuple_of_primitives(t: &str) -> bool {
    tuple_elements(t).is_some_and(|es| {
        es.len() >= 2
            && es
                .iter()
                .all(|e| MODEL_INTS.contains(e) || *e == "bool" || *e == "char")
    })
}

/// A function's type parameter that a parameter of that type is built as.
#[derive(Clone, Debug)]
pub enum Built {
    Closure(Shape),
    /// `R: RangeBounds<T>` (an integer or the key): a `Range<T>` from two program values.
    Range(String),
    /// `I: IntoIterator<Item = T>` (true: `Iterator`): a `Vec<T>` program value.
    Sequence(String, bool),
    /// `impl Into<String>` and the like: the model value itself (see `conversion_target`).
    Value(String),
    /// A parameter bounded by the crate's traits, implemented for `&T`: a registered `T`
    /// (this registry name), borrowed (see [`trait_impls`](super::trait_impls)).
    Borrowed(String),
    /// `R: BufRead`, `impl Read`: the bytes of a program string (see
    /// [`readers`](super::readers)).
    Bytes,
    /// `impl Into<T>`, `N: Into<T>` of a `T` built from a `&str` (see
    /// [`IntTraits::from_str`](super::int_traits::IntTraits::from_str)): a program
    /// string, borrowed.
    Str,
}

/// The class expected of a call whose returned iterator is consumed: the documented class
/// describes the call (`iter()`: "This operation is O(1)"), and the walk over the
/// items that the harness adds costs O(n) on top, so the expectation is the larger of the two.
/// Without this every lazy iterator documented O(1) came out a false O(n) bottleneck.
/// The class of consuming a returned iterator: the documented class with the walk (see
/// [`with_walk`]), or n times a class the doc states per item when that is higher (O(log n)
/// per `next()`: O(n log n)). `None` when a per-item class has no class n times it
/// (O(n log n) per item).
fn walked(
    documented: Option<String>,
    per_item: Option<crate::report::class::Class>,
) -> Option<String> {
    use crate::report::class::Class;
    let Some(item) = per_item else {
        return documented.map(|c| with_walk(&c));
    };
    let total = match item {
        Class::Constant => Class::Linear,
        Class::Log => Class::Linearithmic,
        Class::Linear => Class::Quadratic,
        Class::Quadratic => Class::Cubic,
        _ => return None,
    };
    let walk = documented
        .as_deref()
        .map(with_walk)
        .and_then(|c| Class::parse(&c));
    Some(walk.map_or(total, |w| w.max(total)).label().to_string())
}

pub(super) fn with_walk(documented: &str) -> String {
    use crate::report::class::Class;
    match Class::parse(documented) {
        Some(c) => c.max(Class::Linear).label().to_string(),
        None => documented.to_string(),
    }
}

/// `sig` with each argument of type `impl Trait` (or `&impl Trait`, `&mut impl Trait`) given a
/// generic parameter of its own, `impl_NAME: Trait`: an argument-position `impl Trait` is
/// such a parameter, and reading it as one gives it every shape a generic parameter has
/// (compact_str's `drain(&mut self, range: impl RangeBounds<usize>)` was skipped where
/// `drain<R: RangeBounds<usize>>` registers as a range).
fn impl_args_as_generics(sig: &syn::Signature) -> syn::Signature {
    let mut out = sig.clone();
    for (k, arg) in out.inputs.iter_mut().enumerate() {
        let FnArg::Typed(pt) = arg else { continue };
        let name = match &*pt.pat {
            syn::Pat::Ident(i) => i.ident.to_string(),
            _ => format!("arg{k}"),
        };
        let slot: &mut Type = match &mut *pt.ty {
            Type::Reference(r) => &mut r.elem,
            t => t,
        };
        let Type::ImplTrait(it) = slot else { continue };
        let ident = syn::Ident::new(
            &format!("impl_{}", name.trim_start_matches('_')),
            proc_macro2::Span::call_site(),
        );
        let bounds = it.bounds.clone();
        out.generics.params.push(syn::parse_quote!(#ident: #bounds));
        *slot = syn::parse_quote!(#ident);
    }
    out
}

/// `T` of a type `Result<T, ..>` (any `Result` path, a crate's one-parameter alias
/// included) or `Option<T>`.
pub(super) fn fallible_of(t: &Type) -> Option<&Type> {
    first_arg_of(t, &["Result", "Option"])
}

/// The first generic argument of a type whose last path segment is one of `names`.
pub(super) fn first_arg_of<'t>(t: &'t Type, names: &[&str]) -> Option<&'t Type> {
    let Type::Path(p) = t else { return None };
    let last = p.path.segments.last()?;
    if !names.iter().any(|n| last.ident == n) {
        return None;
    }
    let syn::PathArguments::AngleBracketed(a) = &last.arguments else {
        return None;
    };
    match a.args.first()? {
        syn::GenericArgument::Type(inner) => Some(inner),
        _ => None,
    }
}

/// The model type a parameter bounded only by conversions into a model value takes, in
/// generic (`S: AsRef<str>`) or `impl` form (`impl Into<String>`): a `String` for the
/// [`STRING_LIKE`](super::value_traits::STRING_LIKE) bounds (or `ToString`) beside others `String` meets, an integer for
/// `Into<u64>` alone. The standard library converts the value itself (`String: Into<String>
/// + AsRef<str>`, `u64: Into<u64>`). String-taking APIs are written this way more often than
/// with `&str`.
pub(super) fn conversion_target(names: &[String]) -> Option<String> {
    let has = |set: &[&str], b: &String| set.contains(&b.as_str());
    let stringy = names.iter().any(|b| string_like(b) || b == "ToString");
    if stringy
        && names
            .iter()
            .all(|b| string_like(b) || has(STRING_TRAITS, b))
    {
        return Some("String".into());
    }
    let [only] = names else { return None };
    let int = only.strip_prefix("Into<")?.strip_suffix('>')?;
    MODEL_INTS.contains(&int).then(|| int.to_string())
}
