//! Free functions as registrations. The program model calls methods on a receiver the
//! program builds; a crate of algorithms (`pub fn levenshtein(a: &str, b: &str)`) has none.
//! Each module's public free functions register as the methods of a *namespace*: a `()`
//! value, built by a constructor printed as nothing, whose methods call the functions by
//! path (`ffcrate::util::levenshtein(&text1, &text2)` in a printed program and an exported
//! test). The registry name and spec prefix is the module path, `crate` at the root, so
//! `explore --method util::levenshtein` and `--method crate::count_pairs` name them as users
//! write them.
//!
//! Why a receiver rather than a receiver-less call in the model: the program, the checker,
//! the interpreter, the wire format, the mutations and the worker all know one kind of
//! call; a `()` receiver costs one empty statement per program and changes none of them.
//! Its input size is that of the arguments (a `()` has no size function and is never
//! mutated), which is what a free function's cost grows with.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use super::free_fn::FreeFn;
use super::registrations::{Func, TypeReg};
use super::resolve::Ctx;
use super::skips::SkipReason;

/// The Rust type of a namespace (see the module doc).
pub const NAMESPACE_RUST: &str = "()";
/// The registry name and spec prefix of the crate root's namespace.
pub const ROOT: &str = "crate";

/// The namespace registrations of `free`, one per module with a public free function the
/// model can call, and the functions of modules without one, with why. `cx` is a context
/// for the crate (its registered types and tables); each function's signature is read as a
/// method taking `&self`.
pub(super) fn namespaces(
    lib: &str,
    free: &[FreeFn],
    cx: &Ctx<'_>,
    fn_names: &mut HashMap<String, usize>,
    vecs: &mut BTreeSet<String>,
) -> (Vec<TypeReg>, Vec<(String, SkipReason)>) {
    let mut by_module: BTreeMap<Vec<String>, Vec<&FreeFn>> = BTreeMap::new();
    for f in free {
        by_module.entry(f.module.clone()).or_default().push(f);
    }
    let mut out = Vec::new();
    let mut unregistered = Vec::new();
    for (module, fns) in by_module {
        let path = if module.is_empty() {
            ROOT.to_string()
        } else {
            module.join("::")
        };
        let mut rust_module = std::iter::once(lib.to_string())
            .chain(module.iter().cloned())
            .collect::<Vec<_>>()
            .join("::");
        let mut doc = format!("The public free functions of `{rust_module}`");
        if let Some(st) = fns.first().and_then(|f| f.string_self) {
            // A trait's methods on strings, called through the implementing type.
            doc = format!("The methods of `{rust_module}` on strings");
            rust_module = format!("<{st} as {rust_module}>");
        }
        let ncx = Ctx {
            ty_ident: NAMESPACE_RUST,
            self_name: &path,
            self_rust: NAMESPACE_RUST,
            module: &module,
            ..*cx
        };
        let mut reg = TypeReg {
            fn_name: super::syntax::unique_fn_name(
                &format!("free_fns_{}", path.replace("::", "_")),
                fn_names,
            ),
            ident: NAMESPACE_RUST.into(),
            rust: NAMESPACE_RUST.into(),
            import: None,
            traits: Vec::new(),
            name: Some(path.clone()),
            path: path.clone(),
            doc,
            size_method: None,
            ctors: vec![Func::ctor("new", Vec::new(), None)],
            methods: Vec::new(),
            skipped: Vec::new(),
            skipped_not_methods: 0,
            free: Some(rust_module.clone()),
            borrowed_input: false,
        };
        for f in fns {
            let mut sig = f.sig.clone();
            sig.inputs.insert(0, syn::parse_quote!(&self));
            // Called by its public name (a `pub use f as g` re-export names it `g`).
            if sig.ident != f.name {
                if let Ok(alias) = syn::parse_str::<syn::Ident>(&f.name) {
                    sig.ident = alias;
                }
            }
            let name = sig.ident.to_string();
            match ncx.func(&sig, &f.attrs, vecs) {
                Ok(func) => reg.methods.push(func),
                Err(why) => reg.skipped.push((format!("{path}::{name}"), why)),
            }
        }
        if reg.methods.is_empty() {
            unregistered.extend(reg.skipped);
        } else {
            out.push(reg);
        }
    }
    (out, unregistered)
}
