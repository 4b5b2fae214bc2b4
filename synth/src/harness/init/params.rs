//! The type of one parameter: its passing mode and model type (the probe key, an integer,
//! a string, a vector or slice of them, one of the crate's registered types, or a value
//! built by a family of its own: a closure, a range, an array, a tuple, a non-zero integer, a
//! sequence), or why the model cannot supply it: a [`ParamKind`], each family resolved by
//! its own function. [`resolve`](super::resolve) asks it for each parameter of a signature.

use std::collections::{BTreeSet, HashSet};

use quote::ToTokens;
use syn::{Type, TypeParamBound};

use perfsyn_profiler_ipc::Mode;

use super::closures::{closure, closure_bound};
use super::compound::{array, range};
use super::instantiate::OMITTED;
use super::model_ty::ModelTy;
use super::registrations::{Cast, Param, ParamKind};
use super::resolve::{conversion_target, first_arg_of, tuple_of_primitives, Built, Ctx};
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

    /// The parameter `name` of type `t`, from the first family that takes it: a parameter
    /// built from a generic bound ([`Ctx::bounded`]), the hasher, an array, a tuple, a
    /// non-zero integer, a range type, a borrow ([`Ctx::borrowed`]) or a value
    /// ([`Ctx::by_value`]); or why none does.
    pub(super) fn param(
        &self,
        name: &str,
        t: &Type,
        vecs: &mut BTreeSet<String>,
    ) -> Result<Param, String> {
        if let Some(built) = self.bounded(name, t, vecs) {
            return built;
        }
        // A type's own reader or writer parameter (`from_reader(reader: R)`), instantiated
        // with an owned one (see `readers`).
        if let Type::Path(tp) = t {
            if let Some(p) = tp
                .path
                .get_ident()
                .and_then(|id| self.subst.get(&id.to_string()))
                .and_then(|pick| super::readers::io_param(name, pick))
            {
                return Ok(p);
            }
        }
        // A hasher argument (`with_hasher(S)`): the harness's fixed, seedless one.
        if let Type::Path(tp) = t {
            if let Some(id) = tp.path.get_ident() {
                if self.subst.get(&id.to_string()).map(String::as_str) == Some("FixedState") {
                    return Ok(Param::new(name, ParamKind::Hasher));
                }
            }
        }
        if let Some(p) = super::byte_arrays::byte_array(self.subst, name, t) {
            return Ok(p);
        }
        if let Some(p) = self.slots.param(name, t, &|id| self.regs.contains_key(id)) {
            return Ok(p);
        }
        if let Some(p) = self
            .literals
            .param(name, t, &|id| self.regs.contains_key(id))
        {
            return Ok(p);
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
            Type::Reference(r) => self.borrowed(name, r, vecs),
            _ => self.by_value(name, t, vecs),
        }
    }

    /// A parameter whose type is a generic parameter (or `impl Trait`) the model builds a
    /// value for from its bound: a closure, a range, a sequence or a converted value (see
    /// [`Built`]); `None` when `t` is not one.
    fn bounded(
        &self,
        name: &str,
        t: &Type,
        vecs: &mut BTreeSet<String>,
    ) -> Option<Result<Param, String>> {
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
                    .or_else(|| {
                        self.int_traits
                            .from_str(&trait_names(&bs))
                            .then_some(Ok(Built::Str))
                    })
            }
            _ => None,
        }?;
        Some(built.map(|built| match built {
            Built::Closure(shape) => closure(name, &shape),
            Built::Range(elem) => range(name, &elem),
            Built::Borrowed(ty) => Param::plain(name, Mode::Ref, ModelTy::parse(&ty), None),
            Built::Value(ty) => {
                let ty = ModelTy::parse(&ty);
                let mode = if ty == ModelTy::String {
                    Mode::Val
                } else {
                    Mode::Copy
                };
                Param::plain(name, mode, ty, None)
            }
            Built::Sequence(elem, iterator) => {
                vecs.insert(elem.clone());
                sequence(name, &elem, iterator)
            }
            Built::Bytes => Param::new(name, ParamKind::Bytes { owned: false }),
            Built::Str => Param::plain(name, Mode::Str, ModelTy::String, None),
        }))
    }

    /// A borrowed parameter: `&str` a string, `&[T]` a slice of a vector, `&mut [T]` a
    /// vector by `&mut`, `&T`/`&mut T` a borrow of a model value.
    fn borrowed(
        &self,
        name: &str,
        r: &syn::TypeReference,
        vecs: &mut BTreeSet<String>,
    ) -> Result<Param, String> {
        // `intern_static(&mut self, s: &'static str)`: a program's values
        // live in its slots, not for the whole process. Registered, it passed a borrow of a
        // slot and the whole harness failed to compile (E0521, pointed at the macro only).
        if r.lifetime.as_ref().is_some_and(|l| l.ident == "static") {
            return Err(
                "a `&'static` reference, and a program's values do not live that long".to_string(),
            );
        }
        let p = |mode, ty: ModelTy| Ok(Param::plain(name, mode, ty, None));
        let m = r.mutability.is_some();
        match &*r.elem {
            Type::Path(tp) if tp.path.is_ident("str") && !m => p(Mode::Str, ModelTy::String),
            // `&[u8]`: the bytes of a program string (`s.as_bytes()`), as a reader's, so that
            // a byte parser draws the strings and byte strings its tests pass (TestMiner) and
            // grows them as text (`search/text.rs`); a vector of `u8`s grows only by pushes.
            Type::Slice(s) if !m && matches!(&*s.elem, Type::Path(e) if e.path.is_ident("u8")) => {
                Ok(Param::new(name, ParamKind::Bytes { owned: false }))
            }
            Type::Slice(s) if !m => {
                let elem = self.element(&s.elem)?;
                vecs.insert(elem.to_string());
                p(Mode::Slice, elem)
            }
            // `&mut [T]` (an in-place sort): a vector by `&mut`, which derefs to the
            // slice in the call and in the printed `&mut vec1`.
            Type::Slice(s) => {
                let elem = self.element(&s.elem)?;
                vecs.insert(elem.to_string());
                p(Mode::Mut, ModelTy::Vec(Box::new(elem)))
            }
            inner => {
                let (ty, _) = self.value(inner, vecs)?;
                p(if m { Mode::Mut } else { Mode::Ref }, ty)
            }
        }
    }

    /// A parameter taken by value: a model value, copied when it is a primitive or a
    /// `Copy` type of the crate, converted when the real type differs (`as u16`, `Option<T>`).
    fn by_value(&self, name: &str, t: &Type, vecs: &mut BTreeSet<String>) -> Result<Param, String> {
        // `Vec<u8>`: a program string's bytes, as `&[u8]` (see [`Ctx::borrowed`]); std's
        // `Vec` only, not a crate's own `Vec` in scope here (heapless's `Vec<u8, N>`).
        let crates_own_vec = matches!(t, Type::Path(tp) if tp.path.segments.len() == 1)
            && self
                .regs_in
                .contains_key(&(self.module.to_vec(), "Vec".to_string()));
        if !crates_own_vec
            && first_arg_of(t, &["Vec"])
                .is_some_and(|e| matches!(e, Type::Path(e) if e.path.is_ident("u8")))
        {
            return Ok(Param::new(name, ParamKind::Bytes { owned: true }));
        }
        // `Option<&str>`: a program string, `Some(s)` (as `s.into()`, below).
        if let Some(Type::Reference(r)) = first_arg_of(t, &["Option"]) {
            if r.mutability.is_none() && matches!(&*r.elem, Type::Path(e) if e.path.is_ident("str"))
            {
                return Ok(Param::plain(
                    name,
                    Mode::Str,
                    ModelTy::String,
                    Some(Cast::Some),
                ));
            }
            // `Option<&T>`/`Option<&mut T>` of a model value: `Some` of its borrow; of a
            // `T` no program value builds, `None` (see [`ParamKind::Absent`]).
            let mode = if r.mutability.is_some() {
                Mode::Mut
            } else {
                Mode::Ref
            };
            return Ok(match self.value(&r.elem, vecs) {
                Ok((ty, None)) => Param::plain(name, mode, ty, Some(Cast::Some)),
                _ => Param::new(name, ParamKind::Absent),
            });
        }
        // `Option<T>` of a model value: the value, passed as `x.into()` (`Some(x)`:
        // `Option<T>: From<T>`), so the call gets a value, never `None`. Of a `T` no
        // program value builds: `None` (see [`ParamKind::Absent`]).
        let (ty, cast) = match first_arg_of(t, &["Option"]) {
            Some(inner) => match self.value(inner, vecs) {
                Ok((ty, None)) => (ty, Some(Cast::Into)),
                _ => return Ok(Param::new(name, ParamKind::Absent)),
            },
            None => self.value(t, vecs)?,
        };
        let copy = ty.is_prim() || (cast.is_none() && self.copies.contains(&ty.to_string()));
        Ok(Param::plain(
            name,
            if copy { Mode::Copy } else { Mode::Val },
            ty,
            cast,
        ))
    }

    /// The model type of an associated type of an instantiated parameter (`A::Item`,
    /// `<A as Array>::Item` of inline storage: see [`storage`](super::storage)).
    fn projection(&self, t: &Type) -> Option<String> {
        self.subst.get(&projection(t)?).cloned()
    }

    /// The model type of a value of type `t`, and a cast to the real type if one is needed.
    pub(super) fn value(
        &self,
        t: &Type,
        vecs: &mut BTreeSet<String>,
    ) -> Result<(ModelTy, Option<Cast>), String> {
        let shown = || readable(t);
        if let Some(k) = self.projection(t) {
            return Ok((ModelTy::parse(&k), None));
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
                    return Ok((ModelTy::Own(n), None));
                }
                // A float (`D: UnitMeasure`, see `primitive_bounds`): a program integer,
                // converted.
                if super::int_traits::FLOATS.contains(&s.as_str()) {
                    return Ok((ModelTy::Prim("u32"), Some(Cast::As(s.clone()))));
                }
                if s == "FixedState" || s.contains("::") || s.starts_with('[') || s == OMITTED {
                    return Err(format!(
                        "a value of type `{id}` (`{s}`) inside another type is not in the program model"
                    ));
                }
                return Ok((ModelTy::parse(s), None));
            }
        }
        // `std::vec::Vec` written by path is std's even where the crate has a `Vec` of its own.
        let single_segment = tp.path.segments.len() == 1;
        let cast = |model: &'static str| Ok((ModelTy::Prim(model), Some(Cast::As(id.clone()))));
        match id.as_str() {
            "bool" | "char" | "String" => return Ok((ModelTy::parse(&id), None)),
            x if MODEL_INTS.contains(&x) => return Ok((ModelTy::parse(&id), None)),
            "u16" | "u128" => return cast("u64"),
            "i8" | "i16" | "i128" | "isize" => return cast("i64"),
            "f32" | "f64" => return cast("u32"),
            // A type that does not register (a borrower reached through the method building
            // it) has no pool a second value could come from.
            "Self" if self.self_name.is_empty() => {
                return Err(format!(
                    "a second `{}` (it does not register, so no program holds one)",
                    self.ty_ident
                ))
            }
            "Self" => return Ok((ModelTy::Own(self.self_name.to_string()), None)),
            // A crate's own `Vec` (heapless's) in scope here is the crate's, not std's.
            "Vec"
                if !single_segment
                    || !self
                        .regs_in
                        .contains_key(&(self.module.to_vec(), id.clone())) =>
            {
                let elem = match &seg.arguments {
                    syn::PathArguments::AngleBracketed(a) => match a.args.first() {
                        Some(syn::GenericArgument::Type(e)) => self.element(e)?,
                        _ => return Err("Vec without an element type".into()),
                    },
                    _ => return Err("Vec without an element type".into()),
                };
                vecs.insert(elem.to_string());
                return Ok((ModelTy::Vec(Box::new(elem)), None));
            }
            _ => {}
        }
        // Two types of one name (`graph::EdgeIndex` and `adj::EdgeIndex`): a
        // signature written beside one of them, or in a module that imports one with `use`
        // (see `imports`), names that one. Written elsewhere, it is refused.
        let single = tp.path.segments.len() == 1;
        // Such a type is written as its Rust type; the registry names it as registered.
        if single && id == self.ty_ident && !self.self_name.is_empty() {
            return Ok((ModelTy::Own(self.self_rust.to_string()), None));
        }
        let other = |rust: &str| {
            Err(format!(
                "type `{}` is another instantiation than the registered `{rust}`",
                shown()
            ))
        };
        if let Some((_, rust)) = self
            .regs_in
            .get(&(self.module.to_vec(), id.clone()))
            .filter(|_| single)
        {
            if super::other_instantiation::written_at_other(seg, rust)
                || super::other_instantiation::instantiated_at_other(seg, rust, self.subst)
            {
                return other(rust);
            }
            return Ok((ModelTy::Own(rust.clone()), None));
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
            return Ok((ModelTy::Own(self.self_name.to_string()), None));
        }
        if let Some((name, rust)) = self.regs.get(&id) {
            if super::other_instantiation::written_at_other(seg, rust)
                || super::other_instantiation::instantiated_at_other(seg, rust, self.subst)
            {
                return other(rust);
            }
            return Ok((ModelTy::Own(name.clone()), None));
        }
        Err(format!("type `{}` is not in the program model", shown()))
    }

    /// An element type of `Vec<T>`/`&[T]`: the probe key or a model primitive.
    fn element(&self, t: &Type) -> Result<ModelTy, String> {
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
                    .collect::<Result<Vec<ModelTy>, String>>()?;
                (ModelTy::Tuple(elems), None)
            }
            _ => self.value(t, &mut none)?,
        };
        match value {
            (e, None)
                if e == ModelTy::Key
                    || e.is_prim()
                    || e == ModelTy::String
                    || matches!(&e, ModelTy::Own(n) if n == "Key" || n == "String") =>
            {
                Ok(e)
            }
            // A tuple of integers, bools or chars (`&[(usize, usize)]`, a list of edges): the
            // vector's `push` takes one value per element.
            (e, None) if tuple_of_primitives(&e.to_string()) => Ok(e),
            // A registered type of the crate named by one identifier (`&[Edge]`): the
            // vector's registration is named after it (`vec_edge`), a generic one's after
            // its instantiation (`Lapper::new(Vec<Interval<I, T>>)`:
            // `vec_interval_u64_key`).
            (e, None)
                if self.regs.values().any(|(n, _)| *n == e.to_string())
                    && e
                        .to_string()
                        .chars()
                        .all(|c| c.is_alphanumeric() || "_<>,".contains(c)) =>
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
