//! Public tuple structs over borrowed text (`pub struct QName<'a>(pub &'a [u8])`, a name
//! as a parser hands it out): a program cannot hold one (its lifetime ties it to text), but
//! a parameter of that type (`read_to_end(end: QName)`, `resolve(name: QName)`) is built in
//! the call by the struct's literal around a program string it borrows,
//! `::lib::name::QName(s.as_bytes())`. Only a struct of one public field of type `&[u8]` or
//! `&str`, with no parameter but lifetimes, named by one identifier in the crate.
//!
//! So is a parameter of a type with only lifetime parameters that a public function builds
//! from text alone (`BytesText::new(&'a str)`, `BytesStart::new(impl Into<Cow<'a, str>>)`):
//! `write_text_content(text: BytesText)` gets `::lib::events::BytesText::new(&s[..])`, and
//! `push(start: &BytesStart)` a borrow of one. DESIGN's "lifetime types held at `'static`"
//! registers such types as held values; built per call, an argument needs no `'static` and
//! no rule for which of its methods would tie a held value to a borrow.

use std::collections::HashMap;

use perfsyn_profiler_ipc::Mode;
use syn::{GenericParam, Type};

use super::model_ty::ModelTy;
use super::registrations::{Code, Param, ParamKind, Value};
use super::scan::Scan;

/// The crate's tuple structs over text, by identifier: their path as code
/// (`::lib::name::QName`) and whether the field is bytes (`&[u8]`) or a string (`&str`);
/// and the types built from text, by identifier: the call building one around `{}`
/// (`::lib::events::BytesText::new({})`).
#[derive(Clone, Debug, Default)]
pub struct Literals {
    by_ident: HashMap<String, (String, bool)>,
    from_text: HashMap<String, String>,
}

/// Whether parameter type `t` of function `f` takes a borrowed string: `&str`, or a
/// parameter of `f` (or `impl Trait`) bounded by `Into<Cow<'_, str>>`.
fn takes_text(f: &syn::ImplItemFn, t: &Type) -> bool {
    let cow_str = |names: Vec<String>| {
        names
            .iter()
            .any(|n| n.starts_with("Into<Cow<") && n.ends_with(",str>>"))
    };
    match t {
        Type::Reference(_) => text_field(t) == Some(false),
        Type::ImplTrait(it) => cow_str(super::syntax::trait_names(&it.bounds)),
        Type::Path(p) => {
            let Some(id) = p.path.get_ident() else {
                return false;
            };
            let mut names = Vec::new();
            for g in &f.sig.generics.params {
                if let GenericParam::Type(tp) = g {
                    if tp.ident == *id {
                        names.extend(super::syntax::trait_names(&tp.bounds));
                    }
                }
            }
            if let Some(w) = &f.sig.generics.where_clause {
                for pred in &w.predicates {
                    if let syn::WherePredicate::Type(pt) = pred {
                        if matches!(&pt.bounded_ty, Type::Path(b) if b.path.is_ident(id)) {
                            names.extend(super::syntax::trait_names(&pt.bounds));
                        }
                    }
                }
            }
            cow_str(names)
        }
        _ => false,
    }
}

/// The public function of `t` building it from one borrowed string (see [`takes_text`]),
/// `new` first: its name.
fn text_constructor(t: &super::scan::FoundType) -> Option<String> {
    let builds_it = |out: &syn::ReturnType| match out {
        syn::ReturnType::Type(_, r) => matches!(&**r, Type::Path(p)
            if p.path.segments.len() == 1
                && (p.path.segments[0].ident == "Self" || p.path.segments[0].ident == t.ident)),
        syn::ReturnType::Default => false,
    };
    let mut found: Vec<String> = Vec::new();
    for imp in &t.impls {
        for item in &imp.items {
            let syn::ImplItem::Fn(f) = item else { continue };
            if !super::scan::is_pub(&f.vis)
                || f.sig.receiver().is_some()
                || f.sig.inputs.len() != 1
                || !builds_it(&f.sig.output)
            {
                continue;
            }
            let Some(syn::FnArg::Typed(pt)) = f.sig.inputs.first() else {
                continue;
            };
            if takes_text(f, &pt.ty) {
                found.push(f.sig.ident.to_string());
            }
        }
    }
    found
        .iter()
        .find(|n| *n == "new")
        .or(found.first())
        .cloned()
}

/// Whether `t` is `&[u8]` (`Some(true)`) or `&str` (`Some(false)`), shared.
fn text_field(t: &Type) -> Option<bool> {
    let Type::Reference(r) = t else { return None };
    if r.mutability.is_some() {
        return None;
    }
    match &*r.elem {
        Type::Slice(s) if matches!(&*s.elem, Type::Path(e) if e.path.is_ident("u8")) => Some(true),
        Type::Path(p) if p.path.is_ident("str") => Some(false),
        _ => None,
    }
}

impl Literals {
    /// The tuple structs over text of crate `lib` (its name as written in code).
    pub fn new(lib: &str, scan: &Scan) -> Literals {
        let mut names: HashMap<&str, usize> = HashMap::new();
        for t in &scan.types {
            *names.entry(t.ident.as_str()).or_default() += 1;
        }
        let mut out = Literals::default();
        for t in scan.types.iter().filter(|t| {
            t.reachable
                && names.get(t.ident.as_str()) == Some(&1)
                && t.generics
                    .params
                    .iter()
                    .all(|p| matches!(p, GenericParam::Lifetime(_)))
        }) {
            let path = format!("::{lib}::{}", t.public_path.join("::"));
            if let Some([(None, field)]) = t.literal_fields.as_deref() {
                if let Some(bytes) = text_field(field) {
                    out.by_ident.insert(t.ident.clone(), (path, bytes));
                    continue;
                }
            }
            // Only types with a lifetime: one without is held by the program (registered).
            if t.generics.params.is_empty() {
                continue;
            }
            if let Some(ctor) = text_constructor(t) {
                out.from_text
                    .insert(t.ident.clone(), format!("{path}::{ctor}({{}})"));
            }
        }
        out
    }

    /// The parameter `name` of type `t` when `t` names one of the structs by value
    /// (`QName`, `QName<'n>`): its literal around a program string the call borrows; or one
    /// of the types built from text, by value or shared borrow (`&BytesStart`): its
    /// constructor's call around that string.
    pub fn param(&self, name: &str, t: &Type, registered: &dyn Fn(&str) -> bool) -> Option<Param> {
        let (t, borrow) = match t {
            Type::Reference(r) if r.mutability.is_none() => (&*r.elem, "&"),
            _ => (t, ""),
        };
        let Type::Path(p) = t else { return None };
        if p.qself.is_some() || p.path.segments.len() != 1 {
            return None;
        }
        let id = p.path.segments[0].ident.to_string();
        if registered(&id) {
            return None;
        }
        let text: Box<dyn Fn(&str) -> String> = match (self.by_ident.get(&id), borrow) {
            (Some((path, true)), "") => Box::new(move |v| format!("{path}({v}.as_bytes())")),
            (Some((path, false)), "") => Box::new(move |v| format!("{path}(&{v}[..])")),
            (Some(_), _) => return None,
            (None, _) => {
                let call = self.from_text.get(&id)?;
                Box::new(move |v| format!("{borrow}{}", call.replace("{}", &format!("&{v}[..]"))))
            }
        };
        Some(Param::new(
            name,
            ParamKind::Closure {
                value: Some(Value::new(Mode::Ref, ModelTy::String)),
                code: Code {
                    rust: text(name),
                    shown: text(&format!("{{{name}}}")),
                },
            },
        ))
    }
}
