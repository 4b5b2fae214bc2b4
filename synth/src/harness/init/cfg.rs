//! Evaluates `#[cfg(...)]` the way the crate builds with its default features, so that
//! `init` registers the API the harness will actually see: a type defined twice under
//! `cfg(feature = "std")` / `cfg(not(feature = "std"))` is one type, and methods behind an
//! optional feature (rayon, serde) are not counted or generated.

use std::collections::HashSet;

use syn::{Attribute, Meta};

/// Whether every `#[cfg(...)]` of `attrs` holds.
pub fn active(attrs: &[Attribute], features: &HashSet<String>) -> bool {
    attrs
        .iter()
        .filter(|a| a.path().is_ident("cfg"))
        .all(|a| match &a.meta {
            Meta::List(l) => syn::parse2::<Meta>(l.tokens.clone())
                .map(|m| eval(&m, features))
                .unwrap_or(true),
            _ => true,
        })
}

fn eval(m: &Meta, features: &HashSet<String>) -> bool {
    match m {
        Meta::Path(p) => {
            let id = p.get_ident().map(|i| i.to_string()).unwrap_or_default();
            // This machine builds the harness for 64-bit Linux, without test/doc/miri.
            matches!(id.as_str(), "unix" | "debug_assertions" | "panic")
        }
        Meta::NameValue(nv) => {
            let key = nv
                .path
                .get_ident()
                .map(|i| i.to_string())
                .unwrap_or_default();
            let value = match &nv.value {
                syn::Expr::Lit(syn::ExprLit {
                    lit: syn::Lit::Str(s),
                    ..
                }) => s.value(),
                _ => return false,
            };
            match key.as_str() {
                "feature" => features.contains(&value),
                "target_os" => value == "linux",
                "target_family" => value == "unix",
                "target_pointer_width" => value == "64",
                "target_arch" => value == std::env::consts::ARCH,
                "target_has_atomic" => true,
                "panic" => value == "unwind",
                _ => false,
            }
        }
        Meta::List(l) => {
            let name = l
                .path
                .get_ident()
                .map(|i| i.to_string())
                .unwrap_or_default();
            let inner: Vec<Meta> = l
                .parse_args_with(
                    syn::punctuated::Punctuated::<Meta, syn::Token![,]>::parse_terminated,
                )
                .map(|p| p.into_iter().collect())
                .unwrap_or_default();
            match name.as_str() {
                "not" => !inner.first().is_some_and(|m| eval(m, features)),
                "all" => inner.iter().all(|m| eval(m, features)),
                "any" => inner.iter().any(|m| eval(m, features)),
                _ => false,
            }
        }
    }
}

/// The features a build with default features enables: `default` and what it implies,
/// transitively (`dep:x` and `x/y` entries name dependencies, not this crate's features).
pub fn default_features(table: &serde_json::Value) -> HashSet<String> {
    let mut on = HashSet::new();
    let mut todo = vec!["default".to_string()];
    while let Some(f) = todo.pop() {
        if !on.insert(f.clone()) {
            continue;
        }
        for g in table[&f].as_array().into_iter().flatten() {
            if let Some(g) = g.as_str() {
                if !g.contains(':') && !g.contains('/') {
                    todo.push(g.to_string());
                }
            }
        }
    }
    on
}

#[cfg(test)]
mod tests {
    use super::*;

    fn on(src: &str, features: &[&str]) -> bool {
        let f: syn::ItemFn = syn::parse_str(&format!("{src} fn f() {{}}")).unwrap();
        active(&f.attrs, &features.iter().map(|s| s.to_string()).collect())
    }

    #[test]
    fn cfg_follows_default_features() {
        assert!(on("#[cfg(feature = \"std\")]", &["std"]));
        assert!(!on("#[cfg(feature = \"std\")]", &[]));
        assert!(on("#[cfg(not(feature = \"std\"))]", &[]));
        assert!(!on("#[cfg(test)]", &["std"]));
        assert!(!on(
            "#[cfg(all(feature = \"std\", feature = \"rayon\"))]",
            &["std"]
        ));
        assert!(on("#[cfg(any(feature = \"std\", doc))]", &["std"]));
        assert!(on("#[cfg_attr(docsrs, doc(cfg(feature = \"x\")))]", &[]));
        let t = serde_json::json!({"default": ["std"], "std": ["indexmap/std", "alloc"], "alloc": [], "rayon": ["dep:rayon"]});
        let d = default_features(&t);
        assert!(d.contains("std") && d.contains("alloc") && !d.contains("rayon"));
    }
}
