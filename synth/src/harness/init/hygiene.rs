//! Names in the generated harness that the crate's names cannot take. The harness writes
//! its own types (the probe key, the fixed hasher) and std's (`Vec`, `String`) by their
//! short names, and imports each registered type of the crate by its own. A crate type of
//! one of those names (`heapless::Vec`, `heapless::String`, a `Key` of its own) is therefore
//! never imported: it is written by its absolute path (`::heapless::Vec<Key,8192>`) and
//! registered under that path, so that neither the harness's code nor the registry mistakes
//! it for the harness's type of the same name. Everything else the file names is absolute
//! too (`::perfsyn_profiler_ipc::register_type!`, `use ::demo::Stack;`), and the harness's
//! own registrations live in a module of their own (see [`gen`](super::gen)).

use std::collections::BTreeMap;

use super::model_ty::ModelTy;
use super::registrations::{Model, TypeReg};

/// The names the generated code uses unqualified: the harness's types and std's.
pub const HARNESS_NAMES: &[&str] = &["Key", "FixedState", "Vec", "String"];

/// How the generated file writes the crate's types.
#[derive(Clone, Debug, Default)]
pub struct Scope {
    /// The crate's registered types named like a harness name: identifier -> path
    /// (`Vec` -> `heapless::Vec`).
    by_path: BTreeMap<String, String>,
}

impl Scope {
    /// The scope of the registrations of `m`.
    pub fn of(m: &Model) -> Scope {
        Scope {
            by_path: m
                .types
                .iter()
                .filter_map(|t| {
                    let import = t.import.as_deref()?;
                    let ident = import.rsplit("::").next()?;
                    HARNESS_NAMES
                        .contains(&ident)
                        .then(|| (ident.to_string(), import.to_string()))
                })
                .collect(),
        }
    }

    /// Whether the registrations import `t` by its name (else it is written by its path).
    pub fn imports(&self, t: &TypeReg) -> bool {
        self.path_of(&t.rust).is_none()
    }

    /// The path (`heapless::Vec<Key,8192>`) of a crate type written as text
    /// (`Vec<Key,8192>`) when it is written by path, else `None`.
    fn path_of(&self, rust: &str) -> Option<String> {
        let (head, args) = rust.split_at(rust.find('<').unwrap_or(rust.len()));
        self.by_path.get(head).map(|path| format!("{path}{args}"))
    }

    /// A crate type written as text, as the file writes it.
    pub fn rust(&self, rust: &str) -> String {
        match self.path_of(rust) {
            Some(path) => format!("::{path}"),
            None => rust.to_string(),
        }
    }

    /// The registry name of `t` when it must differ from its Rust type: its path, for a
    /// type written by path (so that it is not `Key`, `String`, ... of the harness).
    pub fn registry_name(&self, t: &TypeReg) -> Option<String> {
        t.name.clone().or_else(|| self.path_of(&t.rust))
    }

    /// A model type as Rust source.
    pub fn ty(&self, t: &ModelTy) -> String {
        match t {
            ModelTy::Vec(e) => format!("Vec<{}>", self.ty(e)),
            ModelTy::Tuple(es) => {
                let parts: Vec<String> = es.iter().map(|e| self.ty(e)).collect();
                format!("({})", parts.join(","))
            }
            ModelTy::Own(rust) => self.rust(rust),
            t => t.to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn taking(pairs: &[(&str, &str)]) -> Scope {
        Scope {
            by_path: pairs
                .iter()
                .map(|(i, p)| (i.to_string(), p.to_string()))
                .collect(),
        }
    }

    /// A crate type named like a harness type is written by its absolute path, in types
    /// and in the model types of parameters; the harness's own keep their names.
    #[test]
    fn crate_types_named_like_harness_types_are_written_by_path() {
        let s = taking(&[("Vec", "heapless::Vec"), ("Key", "demo::Key")]);
        assert_eq!(s.rust("Vec<Key,8192>"), "::heapless::Vec<Key,8192>");
        assert_eq!(s.rust("Deque<Key,8192>"), "Deque<Key,8192>");
        let t = ModelTy::Vec(Box::new(ModelTy::Own("Key".into())));
        assert_eq!(s.ty(&t), "Vec<::demo::Key>");
        assert_eq!(s.ty(&ModelTy::Vec(Box::new(ModelTy::Key))), "Vec<Key>");
        assert_eq!(Scope::default().ty(&t), "Vec<Key>");
    }
}
