//! Decides what of a scanned API the program model can drive: which types register (at
//! which instantiation), which constructors and methods, with which passing modes, and why
//! everything else is skipped. The output is plain data that `gen` prints.

use std::collections::{BTreeSet, HashMap};

use quote::ToTokens;
use syn::{FnArg, GenericParam, ImplItem, ReturnType, Type, TypeParamBound};

use super::scan::{documented_class, ident_counts, is_pub, FoundType, Scan};

/// Traits the probe key `Key` implements (a generic parameter bounded by these gets `Key`).
const KEY_TRAITS: &[&str] = &[
    "Clone",
    "PartialEq",
    "Eq",
    "PartialOrd",
    "Ord",
    "Hash",
    "Debug",
    "Default",
    "Send",
    "Sync",
    "Sized",
    "Unpin",
];
/// Traits `u64` implements beyond those (the fallback instantiation).
const U64_TRAITS: &[&str] = &["Copy", "Display", "LowerHex", "UpperHex"];
/// Primitive types the program model has literals for.
const MODEL_INTS: &[&str] = &["u8", "u32", "u64", "usize", "i32", "i64"];

/// One registration parameter.
#[derive(Clone, Debug)]
pub struct Param {
    pub name: String,
    /// DSL passing mode: copy, val, ref, mut, slice, str.
    pub mode: &'static str,
    /// DSL type (for `slice`, the element type).
    pub ty: String,
    /// A cast from the model's type to the real one (`as f64`), printed into a template.
    pub cast: Option<String>,
}

/// A registered constructor or method.
#[derive(Clone, Debug)]
pub struct Func {
    pub name: String,
    /// `None` for constructors; DSL mode of `self` otherwise.
    pub receiver: Option<&'static str>,
    pub params: Vec<Param>,
    /// The result kept as a variable (primitives and the crate's own types), if any.
    pub ret: Option<String>,
    pub expected: Option<String>,
}

/// A type to register.
#[derive(Clone, Debug)]
pub struct TypeReg {
    pub fn_name: String,
    /// The Rust type as the registration writes it (`Stack<Key>` or a full path).
    pub rust: String,
    /// `use` path needed for `rust` (None when `rust` is a full path).
    pub import: Option<String>,
    /// Registry name when it must differ from `rust` (same ident in two modules).
    pub name: Option<String>,
    /// The spec prefix users type (`Stack`, or `a::Stack` for duplicates).
    pub path: String,
    pub doc: String,
    pub has_len: bool,
    pub ctors: Vec<Func>,
    pub methods: Vec<Func>,
    /// (`Type::item`, reason) of everything not registered.
    pub skipped: Vec<(String, String)>,
}

/// The whole generated API.
#[derive(Clone, Debug, Default)]
pub struct Model {
    pub types: Vec<TypeReg>,
    /// Types that do not register at all, with the reason.
    pub skipped_types: Vec<(String, String)>,
    /// `Vec<T>` element types needed by slice or vector parameters.
    pub vecs: BTreeSet<String>,
}

impl Model {
    pub fn methods(&self) -> usize {
        self.types.iter().map(|t| t.methods.len()).sum()
    }
    pub fn ctors(&self) -> usize {
        self.types.iter().map(|t| t.ctors.len()).sum()
    }
    pub fn skipped(&self) -> usize {
        self.types.iter().map(|t| t.skipped.len()).sum::<usize>()
    }
    pub fn documented(&self) -> usize {
        self.types
            .iter()
            .flat_map(|t| &t.methods)
            .filter(|m| m.expected.is_some())
            .count()
    }
}

/// Builds the model of crate `lib` (its library name, underscores) from `scan`.
pub fn build(lib: &str, scan: &Scan) -> Model {
    let counts = ident_counts(&scan.types);
    let mut model = Model::default();
    // First pass: which types register and at which instantiation, so that parameters of
    // the crate's own types can refer to them.
    let mut regs: HashMap<String, (String, String)> = HashMap::new();
    let mut chosen: Vec<(&FoundType, HashMap<String, String>, String, Option<String>)> = Vec::new();
    for t in scan.types.iter().filter(|t| t.reachable) {
        let subst = match instantiate(&t.generics, t.impls.iter().map(|i| &i.generics)) {
            Ok(s) => s,
            Err(reason) => {
                model.skipped_types.push((t.ident.clone(), reason));
                continue;
            }
        };
        let args: Vec<String> = t
            .generics
            .params
            .iter()
            .filter_map(|p| match p {
                GenericParam::Type(tp) => subst.get(&tp.ident.to_string()).cloned(),
                GenericParam::Const(c) => subst.get(&c.ident.to_string()).cloned(),
                GenericParam::Lifetime(_) => None,
            })
            .collect();
        let generic = if args.is_empty() {
            String::new()
        } else {
            format!("<{}>", args.join(","))
        };
        let duplicate = counts.get(&t.ident).copied().unwrap_or(0) > 1;
        let full = std::iter::once(lib.to_string())
            .chain(t.public_path.iter().cloned())
            .collect::<Vec<_>>()
            .join("::");
        let (rust, import, name, path) = if duplicate {
            let rel = t.public_path.join("::");
            (
                format!("{full}{generic}"),
                None,
                Some(format!("{rel}{generic}")),
                rel,
            )
        } else {
            (
                format!("{}{generic}", t.ident),
                Some(full),
                None,
                t.ident.clone(),
            )
        };
        regs.insert(
            t.ident.clone(),
            (name.clone().unwrap_or(rust.clone()), rust.clone()),
        );
        chosen.push((t, subst, rust, import));
        let _ = (name, path);
    }
    let mut fn_names: HashMap<String, usize> = HashMap::new();
    for (t, subst, rust, import) in chosen {
        let duplicate = counts.get(&t.ident).copied().unwrap_or(0) > 1;
        let path = if duplicate {
            t.public_path.join("::")
        } else {
            t.ident.clone()
        };
        let registry_name = regs[&t.ident].0.clone();
        let mut reg = TypeReg {
            fn_name: unique_fn_name(&snake(&path), &mut fn_names),
            rust: rust.clone(),
            import,
            name: duplicate.then(|| registry_name.clone()),
            path: path.clone(),
            doc: t.doc.clone(),
            has_len: false,
            ctors: Vec::new(),
            methods: Vec::new(),
            skipped: Vec::new(),
        };
        let cx = Ctx {
            ty_ident: &t.ident,
            self_name: &registry_name,
            subst: &subst,
            regs: &regs,
        };
        if t.derives_default || t.implements_default {
            reg.ctors.push(Func {
                name: "default".into(),
                receiver: None,
                params: Vec::new(),
                ret: None,
                expected: None,
            });
        }
        for imp in &t.impls {
            for item in &imp.items {
                let ImplItem::Fn(f) = item else { continue };
                if !is_pub(&f.vis) || super::scan::cfg_test(&f.attrs) {
                    continue;
                }
                let name = f.sig.ident.to_string();
                let spec = format!("{path}::{name}");
                if name == "default" && reg.ctors.iter().any(|c| c.name == "default") {
                    continue;
                }
                match cx.func(&f.sig, &f.attrs, &mut model.vecs) {
                    Ok(func) if func.receiver.is_none() => reg.ctors.push(func),
                    Ok(func) => {
                        if func.name == "len"
                            && func.receiver == Some("ref")
                            && func.params.is_empty()
                            && func.ret.as_deref() == Some("usize")
                        {
                            reg.has_len = true;
                        }
                        reg.methods.push(func);
                    }
                    Err(reason) => reg.skipped.push((spec, reason)),
                }
            }
        }
        if reg.ctors.is_empty() {
            model.skipped_types.push((
                path.clone(),
                "no public constructor the program model can call (new, with_capacity, Default, or a function returning Self with buildable parameters)".into(),
            ));
            // Its methods cannot be reached either.
            let methods = reg.methods.len();
            if methods > 0 {
                model.skipped_types.last_mut().expect("just pushed").1 +=
                    &format!("; its {methods} methods are unreachable");
            }
            continue;
        }
        model.types.push(reg);
    }
    model
}

struct Ctx<'a> {
    ty_ident: &'a str,
    /// The registry name of the type being registered.
    self_name: &'a str,
    subst: &'a HashMap<String, String>,
    /// Registered own types: ident -> (registry name, rust type).
    regs: &'a HashMap<String, (String, String)>,
}

impl Ctx<'_> {
    fn func(
        &self,
        sig: &syn::Signature,
        attrs: &[syn::Attribute],
        vecs: &mut BTreeSet<String>,
    ) -> Result<Func, String> {
        if sig.asyncness.is_some() {
            return Err("async function".into());
        }
        if !matches!(sig.safety, syn::Safety::Default) {
            return Err("unsafe function".into());
        }
        let generic: Vec<String> = sig
            .generics
            .params
            .iter()
            .filter_map(|p| match p {
                GenericParam::Type(t) => Some(t.ident.to_string()),
                GenericParam::Const(c) => Some(c.ident.to_string()),
                GenericParam::Lifetime(_) => None,
            })
            .collect();
        if !generic.is_empty() {
            return Err(format!(
                "generic function (type parameters {}): closures, iterators and trait arguments are not in the program model",
                generic.join(", ")
            ));
        }
        let mut receiver = None;
        let mut params = Vec::new();
        for arg in &sig.inputs {
            match arg {
                FnArg::Receiver(r) => {
                    receiver = Some(match &r.kind {
                        syn::ReceiverKind::Value => "val",
                        syn::ReceiverKind::Reference(_, _, m) => {
                            if m.is_some() {
                                "mut"
                            } else {
                                "ref"
                            }
                        }
                        _ => return Err("typed receiver (self: Box<Self>, ...)".into()),
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
                    let p = self
                        .param(&name, &pt.ty, vecs)
                        .map_err(|why| format!("parameter `{name}`: {why}"))?;
                    params.push(p);
                }
            }
        }
        let ret = match &sig.output {
            ReturnType::Default => None,
            ReturnType::Type(_, t) => self.kept(t),
        };
        if receiver.is_none() {
            // A constructor must return the type itself.
            if !self.is_self(match &sig.output {
                ReturnType::Type(_, t) => t,
                ReturnType::Default => return Err("associated function returning nothing".into()),
            }) {
                return Err(format!(
                    "associated function that does not return {} (returns `{}`)",
                    self.ty_ident,
                    sig.output
                        .to_token_stream()
                        .to_string()
                        .trim_start_matches("->")
                        .trim()
                ));
            }
            return Ok(Func {
                name: sig.ident.to_string(),
                receiver: None,
                params,
                ret: None,
                expected: None,
            });
        }
        Ok(Func {
            name: sig.ident.to_string(),
            receiver,
            params,
            ret,
            expected: documented_class(&super::scan::doc_text(attrs)),
        })
    }

    fn is_self(&self, t: &Type) -> bool {
        match t {
            Type::Path(p) if p.qself.is_none() => p
                .path
                .segments
                .last()
                .is_some_and(|s| s.ident == "Self" || s.ident == self.ty_ident),
            Type::Paren(p) => self.is_self(&p.elem),
            Type::Group(g) => self.is_self(&g.elem),
            _ => false,
        }
    }

    /// A return type worth keeping as a variable: a model primitive or an own type by value.
    fn kept(&self, t: &Type) -> Option<String> {
        let Type::Path(p) = t else { return None };
        let seg = p.path.segments.last()?;
        let id = seg.ident.to_string();
        if ["bool", "char", "String"].contains(&id.as_str()) || MODEL_INTS.contains(&id.as_str()) {
            return Some(id);
        }
        if id == "Self" || id == self.ty_ident {
            return Some(self.self_name.to_string());
        }
        self.regs.get(&id).map(|(n, _)| n.clone())
    }

    fn param(&self, name: &str, t: &Type, vecs: &mut BTreeSet<String>) -> Result<Param, String> {
        let p = |mode, ty: String, cast: Option<String>| Param {
            name: name.to_string(),
            mode,
            ty,
            cast,
        };
        match t {
            Type::Reference(r) => {
                let m = r.mutability.is_some();
                match &*r.elem {
                    Type::Path(tp) if tp.path.is_ident("str") && !m => {
                        Ok(p("str", "String".into(), None))
                    }
                    Type::Slice(s) if !m => {
                        let elem = self.element(&s.elem)?;
                        vecs.insert(elem.clone());
                        Ok(p("slice", elem, None))
                    }
                    inner => {
                        let (ty, _) = self.value(inner, vecs)?;
                        Ok(p(if m { "mut" } else { "ref" }, ty, None))
                    }
                }
            }
            _ => {
                let (ty, cast) = self.value(t, vecs)?;
                let copy = ty == "bool" || ty == "char" || MODEL_INTS.contains(&ty.as_str());
                Ok(p(if copy { "copy" } else { "val" }, ty, cast))
            }
        }
    }

    /// The model type of a value of type `t`, and a cast to the real type if one is needed.
    fn value(
        &self,
        t: &Type,
        vecs: &mut BTreeSet<String>,
    ) -> Result<(String, Option<String>), String> {
        let shown = || t.to_token_stream().to_string().replace(' ', "");
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
        match self.value(t, &mut none)? {
            (e, None)
                if e == "Key"
                    || MODEL_INTS.contains(&e.as_str())
                    || e == "bool"
                    || e == "char"
                    || e == "String" =>
            {
                Ok(e)
            }
            _ => Err(format!(
                "elements of type `{}` (vectors and slices hold probe keys or primitives)",
                t.to_token_stream().to_string().replace(' ', "")
            )),
        }
    }
}

/// The instantiation of a type's generic parameters: each type parameter gets `Key` if its
/// bounds (on the type and on every inherent impl) are among the probe key's traits, else
/// `u64` if they are among `u64`'s; const parameters get 64.
fn instantiate<'a>(
    g: &syn::Generics,
    impls: impl Iterator<Item = &'a syn::Generics>,
) -> Result<HashMap<String, String>, String> {
    let mut bounds: HashMap<String, BTreeSet<String>> = HashMap::new();
    let mut consts = Vec::new();
    for p in &g.params {
        match p {
            GenericParam::Lifetime(_) => {
                return Err(
                    "it borrows (a lifetime parameter): values the program model builds are owned"
                        .into(),
                )
            }
            GenericParam::Type(t) => {
                bounds
                    .entry(t.ident.to_string())
                    .or_default()
                    .extend(trait_names(&t.bounds));
            }
            GenericParam::Const(c) => consts.push(c.ident.to_string()),
        }
    }
    // Impl blocks name the type's parameters the same way in practice (`impl<T: Ord> S<T>`).
    let mut add_where = |g: &syn::Generics| {
        for p in &g.params {
            if let GenericParam::Type(t) = p {
                if let Some(set) = bounds.get_mut(&t.ident.to_string()) {
                    set.extend(trait_names(&t.bounds));
                }
            }
        }
        if let Some(w) = &g.where_clause {
            for pred in &w.predicates {
                if let syn::WherePredicate::Type(pt) = pred {
                    let id = pt.bounded_ty.to_token_stream().to_string();
                    if let Some(set) = bounds.get_mut(&id) {
                        set.extend(trait_names(&pt.bounds));
                    }
                }
            }
        }
    };
    add_where(g);
    for ig in impls {
        add_where(ig);
    }
    let mut subst = HashMap::new();
    for (name, bs) in bounds {
        let key_ok = bs.iter().all(|b| KEY_TRAITS.contains(&b.as_str()));
        let u64_ok = bs
            .iter()
            .all(|b| KEY_TRAITS.contains(&b.as_str()) || U64_TRAITS.contains(&b.as_str()));
        let pick = if bs.iter().any(|b| b == "BuildHasher") {
            // Hash collections take a hasher parameter: the runtime's fixed, seedless one.
            "FixedState"
        } else if key_ok {
            "Key"
        } else if u64_ok {
            "u64"
        } else {
            let extra: Vec<&String> = bs
                .iter()
                .filter(|b| !KEY_TRAITS.contains(&b.as_str()) && !U64_TRAITS.contains(&b.as_str()))
                .collect();
            return Err(format!(
                "its parameter {name} needs {} which neither the probe key nor u64 implements",
                extra
                    .iter()
                    .map(|s| s.as_str())
                    .collect::<Vec<_>>()
                    .join(" + ")
            ));
        };
        subst.insert(name, pick.to_string());
    }
    for c in consts {
        subst.insert(c, "64".to_string());
    }
    Ok(subst)
}

fn trait_names<'a>(bs: impl IntoIterator<Item = &'a TypeParamBound>) -> Vec<String> {
    bs.into_iter()
        .filter_map(|b| match b {
            TypeParamBound::Trait(t) => t.path.segments.last().map(|s| {
                if s.arguments.is_empty() {
                    s.ident.to_string()
                } else {
                    s.to_token_stream().to_string().replace(' ', "")
                }
            }),
            _ => None,
        })
        .filter(|n| n != "?Sized" && n != "Sized")
        .collect()
}

fn snake(path: &str) -> String {
    let mut s = String::new();
    for (i, c) in path.replace("::", "_").chars().enumerate() {
        if c.is_uppercase() {
            if i > 0 && !s.ends_with('_') {
                s.push('_');
            }
            s.extend(c.to_lowercase());
        } else {
            s.push(c);
        }
    }
    s
}

fn unique_fn_name(base: &str, seen: &mut HashMap<String, usize>) -> String {
    let n = seen.entry(base.to_string()).or_insert(0);
    *n += 1;
    let name = if *n == 1 {
        base.to_string()
    } else {
        format!("{base}_{n}")
    };
    // Keywords cannot be function names.
    if [
        "type", "match", "loop", "move", "ref", "self", "box", "mod", "use", "impl",
    ]
    .contains(&name.as_str())
    {
        format!("{name}_type")
    } else {
        name
    }
}
