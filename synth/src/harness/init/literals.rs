//! Public tuple structs over borrowed text (`pub struct QName<'a>(pub &'a [u8])`, a name
//! as a parser hands it out): a program cannot hold one (its lifetime ties it to text), but
//! a parameter of that type (`read_to_end(end: QName)`, `resolve(name: QName)`) is built in
//! the call by the struct's literal around a program string it borrows,
//! `::lib::name::QName(s.as_bytes())`. Only a struct of one public field of type `&[u8]` or
//! `&str`, with no parameter but lifetimes, named by one identifier in the crate.

use std::collections::HashMap;

use perfsyn_profiler_ipc::Mode;
use syn::{GenericParam, Type};

use super::model_ty::ModelTy;
use super::registrations::{Code, Param, ParamKind, Value};
use super::scan::Scan;

/// The crate's tuple structs over text, by identifier: their path as code
/// (`::lib::name::QName`) and whether the field is bytes (`&[u8]`) or a string (`&str`).
#[derive(Clone, Debug, Default)]
pub struct Literals {
    by_ident: HashMap<String, (String, bool)>,
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
            let Some([(None, field)]) = t.literal_fields.as_deref() else {
                continue;
            };
            if let Some(bytes) = text_field(field) {
                let path = format!("::{lib}::{}", t.public_path.join("::"));
                out.by_ident.insert(t.ident.clone(), (path, bytes));
            }
        }
        out
    }

    /// The parameter `name` of type `t` when `t` names one of the structs by value
    /// (`QName`, `QName<'n>`): its literal around a program string the call borrows.
    pub fn param(&self, name: &str, t: &Type) -> Option<Param> {
        let Type::Path(p) = t else { return None };
        if p.qself.is_some() || p.path.segments.len() != 1 {
            return None;
        }
        let seg = &p.path.segments[0];
        let (path, bytes) = self.by_ident.get(&seg.ident.to_string())?;
        let text = |v: &str| {
            if *bytes {
                format!("{path}({v}.as_bytes())")
            } else {
                format!("{path}(&{v}[..])")
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
