//! The type of one parameter: its passing mode and model type (the probe key, an integer,
//! a string, a vector or slice of them, one of the crate's registered types, or a value
//! built by a family of its own: a closure, a range, an array, a tuple, a non-zero integer, a
//! sequence), or why the model cannot supply it. [`resolve`](super::resolve) asks it for
//! each parameter of a signature.

use std::collections::{BTreeSet, HashSet};

use quote::ToTokens;
use syn::{Type, TypeParamBound};

use perfsyn_profiler_ipc::Mode;

use super::closures::{closure, closure_bound};
use super::compound::{array, range};
use super::instantiate::OMITTED;
use super::registrations::Param;
use super::resolve::{conversion_target, first_arg_of, tuple_of_primitives, Built, Ctx, INTO};
use super::sequence::{sequence, sequence_bound};
use super::syntax::{projection, readable, trait_names};
use super::value_traits::MODEL_INTS;

impl Ctx<'_> {
    /// The model type of `t` when it is one directly (a substituted parameter or a
    /// primitive), for closure inputs and outputs.
    pub(super) fn resolve(&self, t: &Type) -> Option<String> {
        if let Some(k) = self.projection(t) {
            return Some(k);
        }
        let Type::Path(tp) = t else { return None };
        let id = tp.path.get_ident()?.to_string();
        if let Some(s) = self.subst.get(&id) {
            return (s != "FixedState" && !s.contains("::") && !s.starts_with('[') && s != OMITTED)
                .then(|| s.clone());
        }
        (MODEL_INTS.contains(&id.as_str()) || ["bool", "char", "String"].contains(&id.as_str()))
            .then_some(id)
    }

    pub(super) fn param(
        &self,
        name: &str,
        t: &Type,
        vecs: &mut BTreeSet<String>,
    ) -> Result<Param, String> {
        let p = |mode, ty: String, cast: Option<String>| Param {
            name: name.to_string(),
            mode,
            ty,
            cast,
            expr: None,
            dsl: true,
            more: Vec::new(),
        };
        let built = match t {
            Type::Path(tp) if tp.qself.is_none() => tp
                .path
                .get_ident()
                .and_then(|i| self.closures.get(&i.to_string()))
                .cloned()
                .map(Ok),
            Type::ImplTrait(it) => {
                let bs: Vec<TypeParamBound> = it.bounds.iter().cloned().collect();
                closure_bound(&bs)
                    .map(|(i, o)| {
                        super::closures::shape(
                            &i,
                            &o,
                            &|t| self.resolve(t),
                            &HashSet::new(),
                            &HashSet::new(),
                        )
                        .map(Built::Closure)
                    })
                    .or_else(|| {
                        sequence_bound(&bs, &|t| self.resolve(t))
                            .map(|(e, i)| Ok(Built::Sequence(e, i)))
                    })
                    .or_else(|| conversion_target(&trait_names(&bs)).map(|t| Ok(Built::Value(t))))
            }
            _ => None,
        };
        match built {
            Some(Ok(Built::Closure(shape))) => return Ok(closure(name, &shape)),
            Some(Ok(Built::Range(elem))) => return Ok(range(name, &elem)),
            Some(Ok(Built::Borrowed(ty))) => return Ok(p(Mode::Ref, ty, None)),
            Some(Ok(Built::Value(ty))) => {
                let mode = if ty == "String" {
                    Mode::Val
                } else {
                    Mode::Copy
                };
                return Ok(p(mode, ty, None));
            }
            Some(Ok(Built::Sequence(elem, iterator))) => {
                vecs.insert(elem.clone());
                return Ok(sequence(name, &elem, iterator));
            }
            Some(Err(why)) => return Err(why),
            None => {}
        }
        // A hasher argument (`with_hasher(S)`): the harness's fixed, seedless one.
        if let Type::Path(tp) = t {
            if let Some(id) = tp.path.get_ident() {
                if self.subst.get(&id.to_string()).map(String::as_str) == Some("FixedState") {
                    let code = "FixedState::default()".to_string();
                    return Ok(Param {
                        expr: Some((code.clone(), code)),
                        dsl: false,
                        ..p(Mode::Val, "FixedState".into(), None)
                    });
                }
            }
        }
        if let Type::Array(a) = t {
            return array(self.subst, &|n, t, v| self.param(n, t, v), name, a, vecs);
        }
        if let Type::Tuple(tt) = t {
            return super::compound::tuple(&|n, t, v| self.param(n, t, v), name, tt, vecs);
        }
        if let Some(p) = super::compound::non_zero(name, t) {
            return Ok(p);
        }
        if let Some(p) = super::compound::concrete_range(name, t, &|t| self.resolve(t)) {
            return Ok(p);
        }
        match t {
            // `intern_static(&mut self, s: &'static str)`: a program's values
            // live in its slots, not for the whole process. Registered, it passed a borrow of a
            // slot and the whole harness failed to compile (E0521, pointed at the macro only).
            Type::Reference(r) if r.lifetime.as_ref().is_some_and(|l| l.ident == "static") => Err(
                "a `&'static` reference, and a program's values do not live that long".to_string(),
            ),
            Type::Reference(r) => {
                let m = r.mutability.is_some();
                match &*r.elem {
                    Type::Path(tp) if tp.path.is_ident("str") && !m => {
                        Ok(p(Mode::Str, "String".into(), None))
                    }
                    Type::Slice(s) if !m => {
                        let elem = self.element(&s.elem)?;
                        vecs.insert(elem.clone());
                        Ok(p(Mode::Slice, elem, None))
                    }
                    // `&mut [T]` (an in-place sort): a vector by `&mut`, which derefs to the
                    // slice in the call and in the printed `&mut vec1`.
                    Type::Slice(s) => {
                        let elem = self.element(&s.elem)?;
                        vecs.insert(elem.clone());
                        Ok(p(Mode::Mut, format!("Vec<{elem}>"), None))
                    }
                    inner => {
                        let (ty, _) = self.value(inner, vecs)?;
                        Ok(p(if m { Mode::Mut } else { Mode::Ref }, ty, None))
                    }
                }
            }
            _ => {
                // `Option<T>` of a model value: the value, passed as `x.into()` (`Some(x)`:
                // `Option<T>: From<T>`), so the call gets a value, never `None`.
                let (ty, cast) = match first_arg_of(t, &["Option"]) {
                    Some(inner) => match self.value(inner, vecs)? {
                        (ty, None) => (ty, Some(INTO.to_string())),
                        _ => {
                            return Err(format!(
                                "type `{}` is not in the program model",
                                t.to_token_stream().to_string().replace(' ', "")
                            ))
                        }
                    },
                    None => self.value(t, vecs)?,
                };
                let copy = ty == "bool"
                    || ty == "char"
                    || MODEL_INTS.contains(&ty.as_str())
                    || (cast.is_none() && self.copies.contains(&ty));
                Ok(p(if copy { Mode::Copy } else { Mode::Val }, ty, cast))
            }
        }
    }

    /// The model type of an associated type of an instantiated parameter (`A::Item`,
    /// `<A as Array>::Item` of inline storage: see [`storage`](super::storage)).
    fn projection(&self, t: &Type) -> Option<String> {
        self.subst.get(&projection(t)?).cloned()
    }

    /// The model type of a value of type `t`, and a cast to the real type if one is needed.
    fn value(
        &self,
        t: &Type,
        vecs: &mut BTreeSet<String>,
    ) -> Result<(String, Option<String>), String> {
        let shown = || readable(t);
        if let Some(k) = self.projection(t) {
            return Ok((k, None));
        }
        let Type::Path(tp) = t else {
            return Err(format!("type `{}` is not in the program model", shown()));
        };
        if tp.qself.is_some() {
            return Err(format!("type `{}` is not in the program model", shown()));
        }
        let seg = tp.path.segments.last().ok_or("empty type path")?;
        let id = seg.ident.to_string();
        if tp.path.segments.len() == 1 {
            if let Some(s) = self.subst.get(&id) {
                if let Some(n) = self.own_filled(&id) {
                    return Ok((n, None));
                }
                if s == "FixedState" || s.contains("::") || s.starts_with('[') || s == OMITTED {
                    return Err(format!(
                        "a value of type `{id}` (`{s}`) inside another type is not in the program model"
                    ));
                }
                return Ok((s.clone(), None));
            }
        }
        match id.as_str() {
            "bool" | "char" | "String" => return Ok((id, None)),
            x if MODEL_INTS.contains(&x) => return Ok((id, None)),
            "u16" | "u128" => return Ok(("u64".into(), Some(format!("as {id}")))),
            "i8" | "i16" | "i128" | "isize" => return Ok(("i64".into(), Some(format!("as {id}")))),
            "f32" | "f64" => return Ok(("u32".into(), Some(format!("as {id}")))),
            "Self" => return Ok((self.self_name.to_string(), None)),
            "Vec" => {
                let elem = match &seg.arguments {
                    syn::PathArguments::AngleBracketed(a) => match a.args.first() {
                        Some(syn::GenericArgument::Type(e)) => self.element(e)?,
                        _ => return Err("Vec without an element type".into()),
                    },
                    _ => return Err("Vec without an element type".into()),
                };
                vecs.insert(elem.clone());
                return Ok((format!("Vec<{elem}>"), None));
            }
            _ => {}
        }
        // Two types of one name (`graph::EdgeIndex` and `adj::EdgeIndex`): a
        // signature written beside one of them names that one. Written elsewhere, it is
        // refused (which one a `use` brought in is not followed).
        let single = tp.path.segments.len() == 1;
        // Such a type is written as its Rust type; the registry names it as registered.
        if single && id == self.ty_ident && !self.self_name.is_empty() {
            return Ok((self.self_rust.to_string(), None));
        }
        if let Some((_, rust)) = self
            .regs_in
            .get(&(self.module.to_vec(), id.clone()))
            .filter(|_| single)
        {
            return Ok((rust.clone(), None));
        }
        if (id == self.ty_ident && self.self_name != self.self_rust)
            || self.regs.get(&id).is_some_and(|(n, r)| n != r)
        {
            return Err(format!(
                "type `{}` is registered under a module-qualified name (two types are called {id})",
                shown()
            ));
        }
        if id == self.ty_ident {
            return Ok((self.self_name.to_string(), None));
        }
        if let Some((name, _)) = self.regs.get(&id) {
            return Ok((name.clone(), None));
        }
        Err(format!("type `{}` is not in the program model", shown()))
    }

    /// An element type of `Vec<T>`/`&[T]`: the probe key or a model primitive.
    fn element(&self, t: &Type) -> Result<String, String> {
        let mut none = BTreeSet::new();
        let value = match t {
            Type::Tuple(tt) => {
                let elems = tt
                    .elems
                    .iter()
                    .map(|e| match self.value(e, &mut none)? {
                        (x, None) => Ok(x),
                        _ => Err(format!("a tuple element of type `{}`", readable(e))),
                    })
                    .collect::<Result<Vec<String>, String>>()?;
                (format!("({})", elems.join(",")), None)
            }
            _ => self.value(t, &mut none)?,
        };
        match value {
            (e, None)
                if e == "Key"
                    || MODEL_INTS.contains(&e.as_str())
                    || e == "bool"
                    || e == "char"
                    || e == "String" =>
            {
                Ok(e)
            }
            // A tuple of integers, bools or chars (`&[(usize, usize)]`, a list of edges): the
            // vector's `push` takes one value per element.
            (e, None) if tuple_of_primitives(&e) => Ok(e),
            // A registered type of the crate named by one identifier (`&[Edge]`): the
            // vector's registration is named after it (`vec_edge`), a generic one's after
            // its instantiation (`Lapper::new(Vec<Interval<I, T>>)`:
            // `vec_interval_u64_key`).
            (e, None)
                if self.regs.values().any(|(n, _)| *n == e)
                    && e.chars().all(|c| c.is_alphanumeric() || "_<>,".contains(c)) =>
            {
                Ok(e)
            }
            _ => Err(format!(
                "elements of type `{}` (vectors and slices hold probe keys, primitives or the crate's own types)",
                t.to_token_stream().to_string().replace(' ', "")
            )),
        }
    }
}
