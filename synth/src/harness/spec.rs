//! Resolving what users type (`Vec::dedup`, `Vec<Key>::dedup`, `Vec`) to registered methods
//! and types, with close-match suggestions for typos.

use anyhow::{bail, Result};
use perfsyn_profiler_ipc::schema::{ApiSchema, MethodSchema, TypeSchema};

/// A resolved method: the type and method of the schema.
#[derive(Clone, Debug)]
pub struct MethodRef<'s> {
    pub ty: &'s TypeSchema,
    pub method: &'s MethodSchema,
}

impl MethodRef<'_> {
    /// The user-facing spelling, `Path::method`.
    pub fn display(&self) -> String {
        format!("{}::{}", self.ty.path, self.method.name)
    }
}

/// Types whose path (`Vec`) or full name (`Vec<Key>`) is `spec`, case-sensitively. A rung of
/// a capacity ladder (`ArrayString<16>` beside `ArrayString<8192>`) resolves by its full
/// name only: its path names the main registration.
pub fn resolve_type<'s>(schema: &'s ApiSchema, spec: &str) -> Vec<&'s TypeSchema> {
    schema
        .types
        .iter()
        .filter(|t| (t.path == spec && !t.is_rung()) || t.name == spec)
        .collect()
}

/// The namespace of the crate root's free functions (see `init::free`).
const ROOT_NAMESPACE: &str = "crate";

/// The spellings of a free function a user may type for the registered one: `f` for
/// `crate::f`, and a path after the crate's name (`mycrate::util::f`) for `util::f`.
fn free_function_forms(schema: &ApiSchema, spec: &str) -> Vec<String> {
    if !schema.types.iter().any(|t| t.is_namespace()) {
        return Vec::new();
    }
    let root = |f: &str| format!("{ROOT_NAMESPACE}::{f}");
    // A bare name also names the one function of that name in any module.
    let anywhere = |f: &str| -> Vec<String> {
        let found: Vec<String> = schema
            .types
            .iter()
            .filter(|t| t.is_namespace() && t.method(f).is_some())
            .map(|t| format!("{}::{f}", t.path))
            .collect();
        if found.len() == 1 {
            found
        } else {
            Vec::new()
        }
    };
    match spec.split_once("::") {
        None => std::iter::once(root(spec)).chain(anywhere(spec)).collect(),
        Some((_, rest)) if rest.contains("::") => vec![rest.to_string()],
        Some((_, rest)) => vec![root(rest)],
    }
}

/// Resolves `Type::method` to exactly one registered method (a free function also as `f`,
/// `module::f` or after the crate's name).
pub fn resolve_method<'s>(schema: &'s ApiSchema, spec: &str) -> Result<MethodRef<'s>> {
    let lookup = |spec: &str| -> Vec<MethodRef<'s>> {
        let Some((ty, method)) = spec.rsplit_once("::") else {
            return Vec::new();
        };
        resolve_type(schema, ty)
            .into_iter()
            .filter_map(|t| t.method(method).map(|m| MethodRef { ty: t, method: m }))
            .collect()
    };
    let mut found = lookup(spec);
    if found.is_empty() {
        if let Some(f) = free_function_forms(schema, spec)
            .iter()
            .map(|f| lookup(f))
            .find(|f| !f.is_empty())
        {
            found = f;
        }
    }
    if found.is_empty() && !spec.contains("::") {
        let modules: Vec<String> = schema
            .types
            .iter()
            .filter(|t| t.is_namespace() && t.method(spec).is_some())
            .map(|t| format!("{}::{spec}", t.path))
            .collect();
        if modules.len() > 1 {
            bail!(
                "function `{spec}` is ambiguous: {} (name its module)",
                modules.join(", ")
            );
        }
        if !schema.types.iter().any(|t| t.is_namespace()) {
            bail!("method spec `{spec}` must look like `Type::method` (e.g. Vec::dedup); see `perfsyn list`");
        }
    }
    if let Some(newest) = new_member_of_one_group(&found) {
        return Ok(newest);
    }
    match found.len() {
        1 => Ok(found.into_iter().next().expect("one")),
        0 => bail!(
            "unknown method `{spec}`; closest matches: {} (see `perfsyn list`)",
            closest(all_methods(schema), spec).join(", ")
        ),
        _ => bail!(
            "method `{spec}` is ambiguous: {} (spell the type in full)",
            found
                .iter()
                .map(|m| format!("{}::{}", m.ty.name, m.method.name))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// When every candidate is a member of one version group (`Messages::log` names both
/// `OldMessages::log` and `NewMessages::log` on a worker that binds no version), the `new`
/// member: outside the relative oracle, which compares the two on a pair of workers, a group's
/// name means its current code, as it does in a user's crate at the working tree.
fn new_member_of_one_group<'s>(found: &[MethodRef<'s>]) -> Option<MethodRef<'s>> {
    let group = &found.first()?.ty.version.as_ref()?.group;
    let all_one_group = found.len() > 1
        && found
            .iter()
            .all(|m| m.ty.version.as_ref().is_some_and(|v| &v.group == group));
    if !all_one_group {
        return None;
    }
    found
        .iter()
        .find(|m| m.ty.version.as_ref().is_some_and(|v| v.version == "new"))
        .cloned()
}

/// Every method spelled `Path::method`.
pub fn all_methods(schema: &ApiSchema) -> Vec<String> {
    schema
        .types
        .iter()
        .filter(|t| !t.is_rung())
        .flat_map(|t| {
            t.methods
                .iter()
                .map(move |m| format!("{}::{}", t.path, m.name))
        })
        .collect()
}

/// The (up to) three candidates closest to `query` by edit distance.
pub fn closest(candidates: Vec<String>, query: &str) -> Vec<String> {
    let mut scored: Vec<(f64, String)> = candidates
        .into_iter()
        .map(|c| (strsim::normalized_damerau_levenshtein(&c, query), c))
        .collect();
    scored.sort_by(|a, b| b.0.total_cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
    scored.dedup_by(|a, b| a.1 == b.1);
    scored.into_iter().take(3).map(|(_, c)| c).collect()
}

/// Resolves a `--type` filter to at least one type.
pub fn resolve_type_filter<'s>(schema: &'s ApiSchema, spec: &str) -> Result<Vec<&'s TypeSchema>> {
    let found = resolve_type(schema, spec);
    if found.is_empty() {
        let names = schema.types.iter().map(|t| t.path.clone()).collect();
        bail!(
            "unknown type `{spec}`; closest matches: {} (see `perfsyn list`)",
            closest(names, spec).join(", ")
        );
    }
    Ok(found)
}

/// Schema builders for unit tests of resolution (here and in `pair`).
#[cfg(test)]
pub(crate) mod fixture {
    use perfsyn_profiler_ipc::schema::{MethodSchema, Mode, TypeSchema, VersionSchema};

    /// A type `name` at `path` with one unit-returning method without parameters, in the
    /// version group `(group, old|new)` if given.
    pub(crate) fn one_method_type(
        name: &str,
        path: &str,
        version: Option<(&str, &str)>,
        method: &str,
        receiver: Mode,
    ) -> TypeSchema {
        TypeSchema {
            name: name.into(),
            rust: String::new(),
            path: path.into(),
            sized: true,
            version: version.map(|(group, version)| VersionSchema {
                group: group.into(),
                version: version.into(),
            }),
            concurrent: None,
            ctors: Vec::new(),
            methods: vec![MethodSchema {
                name: method.into(),
                receiver,
                params: Vec::new(),
                ret: None,
                expected: None,
                template: None,
                returns_unit: true,
                kept: false,
            }],
            fields: Vec::new(),
            imports: Vec::new(),
            doc: String::new(),
            origin: None,
            rung: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::fixture::one_method_type;
    use super::*;
    use perfsyn_profiler_ipc::schema::Mode;

    fn ty(name: &str, group: Option<(&str, &str)>) -> TypeSchema {
        one_method_type(name, "Messages", group, "log", Mode::Mut)
    }

    #[test]
    fn a_version_groups_name_resolves_to_its_new_member_and_other_clashes_stay_ambiguous() {
        let mut schema = ApiSchema {
            types: vec![
                ty("OldMessages", Some(("Messages", "old"))),
                ty("NewMessages", Some(("Messages", "new"))),
            ],
        };
        let m = resolve_method(&schema, "Messages::log").unwrap();
        assert_eq!(m.ty.name, "NewMessages");
        assert_eq!(
            resolve_method(&schema, "OldMessages::log").unwrap().ty.name,
            "OldMessages"
        );

        schema.types = vec![ty("a::Messages", None), ty("b::Messages", None)];
        let err = resolve_method(&schema, "Messages::log").unwrap_err();
        assert!(err.to_string().contains("ambiguous"), "{err}");
    }

    /// A free function resolves as users write it: bare (the root's, else the only one of
    /// that name in any module), by module, or after the crate's name.
    #[test]
    fn free_functions_resolve_bare_by_module_and_after_the_crate_name() {
        let ns = |path: &str, method: &str| {
            let mut t = one_method_type(path, path, None, method, Mode::Ref);
            t.rust = "()".into();
            t
        };
        let schema = ApiSchema {
            types: vec![
                ns("crate", "count"),
                ns("util", "levenshtein"),
                ns("a", "twice"),
                ns("b", "twice"),
            ],
        };
        let found = |spec: &str| {
            resolve_method(&schema, spec)
                .map(|m| m.display())
                .map_err(|e| e.to_string())
        };
        for (spec, want) in [
            ("count", "crate::count"),
            ("crate::count", "crate::count"),
            ("mycrate::count", "crate::count"),
            ("levenshtein", "util::levenshtein"),
            ("util::levenshtein", "util::levenshtein"),
            ("mycrate::util::levenshtein", "util::levenshtein"),
            ("a::twice", "a::twice"),
        ] {
            assert_eq!(found(spec), Ok(want.to_string()), "{spec}");
        }
        let err = found("twice").unwrap_err();
        assert!(err.contains("ambiguous: a::twice, b::twice"), "{err}");
        // A bare name that names nothing gets the closest matches, not a lesson in syntax.
        let err = found("levenstein").unwrap_err();
        assert!(err.contains("closest matches: util::levenshtein"), "{err}");
    }
}
