//! A public free function as the reader finds it. Its own file because two readers build it:
//! [`scan`](super::scan) for the crate's functions and [`strext`](super::strext) for the
//! methods of the crate's traits on strings, which scan calls; with the type in scan, strext
//! imported back from the module that calls it.

/// A public free function: the public module path it is named by (from the crate root:
/// where it is defined, or where a `pub use` re-exports it), its public name, and its
/// signature.
#[derive(Clone)]
pub struct FreeFn {
    pub module: Vec<String>,
    /// The name its public path ends with (a `pub use f as g` names it `g`).
    pub name: String,
    pub sig: syn::Signature,
    pub attrs: Vec<syn::Attribute>,
    /// Whether users can name it (while scanning: whether its defining module is public).
    pub(super) reachable: bool,
    /// For a method of the crate's trait implemented for strings (see
    /// [`strext`](super::strext)): the type it is called through, `str` or `String`; its
    /// `module` is then the trait's path.
    pub string_self: Option<&'static str>,
}

impl FreeFn {
    /// A method of the crate's trait at `trait_path` implemented for `self_ty` (`str` or
    /// `String`), its receiver made the first parameter (see [`strext`](super::strext)).
    pub fn string_method(
        trait_path: Vec<String>,
        sig: syn::Signature,
        attrs: Vec<syn::Attribute>,
        self_ty: &'static str,
    ) -> FreeFn {
        FreeFn {
            module: trait_path,
            name: sig.ident.to_string(),
            sig,
            attrs,
            reachable: true,
            string_self: Some(self_ty),
        }
    }

    /// Its path from the crate root (`util::levenshtein`).
    pub fn path(&self) -> String {
        self.module
            .iter()
            .cloned()
            .chain(std::iter::once(self.name.clone()))
            .collect::<Vec<_>>()
            .join("::")
    }
}
