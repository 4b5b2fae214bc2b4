//! Closures whose result wraps a value: `FnOnce() -> Result<V, E>` (a fallible
//! `get_or_insert`), `FnMut(&K) -> Option<V>` (an `alter`) and `Fn(&str) -> Option<&'a str>`
//! (an entity resolver). The harness builds them from what it builds unwrapped: `Ok` or
//! `Some` of the program's value; and for a borrowed `&str`, which no program value outlives,
//! a small family of static literals chosen by a `u8` (`None`, `Some("")`, `Some("x")`), so
//! the search still meets both the found and the not-found path. `E` of `Result<V, E>` is the
//! function's own unbounded parameter (the caller's choice): `()`. Its own file beside
//! [`closures`](super::closures), which calls it for a result it does not build itself.

use std::collections::HashSet;

use syn::{GenericArgument, PathArguments, Type};

/// A closure's result that wraps a value the model builds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Wrapped {
    /// `Result<V, E>`: `Ok` of a program value of model type `value`; `error` names the
    /// function's own parameter `E` when it is one, which the harness sets to `()`.
    Ok {
        value: String,
        error: Option<String>,
    },
    /// `Option<V>`: `Some` of a program value of model type `V`.
    Some(String),
    /// `Option<&str>`: a static literal or `None`, chosen by a `u8`.
    OptionalStr,
}

impl Wrapped {
    /// The model type of the program value the closure takes (`u8` for a literal's choice).
    pub fn value(&self) -> &str {
        match self {
            Wrapped::Ok { value, .. } | Wrapped::Some(value) => value,
            Wrapped::OptionalStr => "u8",
        }
    }
}

/// The type written for the error of a closure's `Result` when it is the function's own
/// unbounded parameter: nothing the program chooses, and every bound-free use compiles.
pub const UNIT_ERROR: &str = "()";

/// What a closure returning `t` returns, when `t` wraps a value: `Result<V, E>` or
/// `Option<V>` of a `V` that `resolve` builds, or `Option<&str>`. `None` when `t` is no such
/// wrapper (the caller says why it cannot build it).
pub fn wrapped(
    t: &Type,
    resolve: &dyn Fn(&Type) -> Option<String>,
    unbounded: &HashSet<String>,
) -> Option<Wrapped> {
    let Type::Path(p) = t else { return None };
    let last = p.path.segments.last()?;
    let PathArguments::AngleBracketed(a) = &last.arguments else {
        return None;
    };
    let args: Vec<&Type> = a
        .args
        .iter()
        .filter_map(|g| match g {
            GenericArgument::Type(t) => Some(t),
            _ => None,
        })
        .collect();
    match (last.ident.to_string().as_str(), args.as_slice()) {
        ("Option", [Type::Reference(r)]) if is_str(&r.elem) && r.mutability.is_none() => {
            Some(Wrapped::OptionalStr)
        }
        ("Option", [v]) => resolve(v).map(Wrapped::Some),
        ("Result", [v, e]) => {
            let value = resolve(v)?;
            let error = match e {
                Type::Path(ep) => ep.path.get_ident().map(|i| i.to_string()),
                _ => None,
            };
            match error {
                // The function's own parameter, bound by nothing: the caller's choice.
                Some(e) if unbounded.contains(&e) => Some(Wrapped::Ok {
                    value,
                    error: Some(e),
                }),
                // A type the model names (`String`, the crate's error built elsewhere is
                // not one): written by the function's signature, `Ok` infers it.
                _ => resolve(e).map(|_| Wrapped::Ok { value, error: None }),
            }
        }
        _ => None,
    }
}

fn is_str(t: &Type) -> bool {
    matches!(t, Type::Path(p) if p.path.is_ident("str"))
}

/// The closure's body for a wrapped result, in terms of the program value `k` (the value to
/// wrap, or the `u8` choosing a literal), with `p` its argument patterns.
pub fn body(returns: &Wrapped, p: &str, k: &str) -> String {
    match returns {
        // Nothing else names the caller's `E`: the closure writes it.
        Wrapped::Ok { error: Some(_), .. } => {
            format!("move |{p}| Ok::<_, {UNIT_ERROR}>({k}.clone())")
        }
        Wrapped::Ok { error: None, .. } => format!("move |{p}| Ok({k}.clone())"),
        Wrapped::Some(_) => format!("move |{p}| Some({k}.clone())"),
        Wrapped::OptionalStr => {
            format!("move |{p}| match {k} % 3 {{ 0 => None, 1 => Some(\"\"), _ => Some(\"x\") }}")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn of(t: &str) -> Option<Wrapped> {
        let ty: Type = syn::parse_str(t).unwrap();
        let resolve = |t: &Type| match t {
            Type::Path(p) if p.path.is_ident("V") => Some("Key".to_string()),
            Type::Path(p) if p.path.is_ident("String") => Some("String".to_string()),
            _ => None,
        };
        wrapped(&ty, &resolve, &HashSet::from(["E".to_string()]))
    }

    #[test]
    fn a_result_of_a_model_value_with_an_unbounded_error_is_ok_of_it() {
        assert_eq!(
            of("Result<V, E>"),
            Some(Wrapped::Ok {
                value: "Key".into(),
                error: Some("E".into())
            })
        );
        assert_eq!(
            of("Result<V, String>"),
            Some(Wrapped::Ok {
                value: "Key".into(),
                error: None
            })
        );
        // An error type the model does not name, a value it does not build: not built.
        assert_eq!(of("Result<V, Oops>"), None);
        assert_eq!(of("Result<W, E>"), None);
    }

    #[test]
    fn an_option_of_a_model_value_or_of_a_str_is_built() {
        assert_eq!(of("Option<V>"), Some(Wrapped::Some("Key".into())));
        assert_eq!(of("Option<&'entity str>"), Some(Wrapped::OptionalStr));
        assert_eq!(of("Option<&mut str>"), None);
        assert_eq!(of("Option<W>"), None);
    }
}
