//! Reads a crate's public API from its sources with `syn`: the public types reachable from
//! the crate root (through `mod` files and `pub use`), their inherent `impl` blocks and
//! `Default`, and each function's doc comment (whose classes [`doc_classes`](super::doc_classes)
//! reads). `#[cfg(...)]` is evaluated against the
//! crate's default features (see [`cfg`](super::cfg)). No compiler is involved, so this sees
//! what is written, not what macros generate; the generated harness's build is the check.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use syn::{Attribute, Expr, Item, Lit, Meta, UseTree, Visibility};

use super::free_fn::FreeFn;

/// A public type of the crate with the items that may register it.
#[derive(Clone)]
pub struct FoundType {
    pub ident: String,
    /// Module path inside the crate (`["a", "b"]` for `crate::a::b::T`).
    pub module: Vec<String>,
    /// Whether it can be named from outside the crate (a public module chain or a `pub use`).
    pub reachable: bool,
    /// The path the harness names it by, relative to the crate root.
    pub public_path: Vec<String>,
    pub generics: syn::Generics,
    pub derives_default: bool,
    pub impls: Vec<syn::ItemImpl>,
    pub implements_default: bool,
    /// Its `impl Default` blocks: one for another instantiation
    /// (`impl Default for StringInterner<DefaultBackend>`, a fixed default hasher) is not a
    /// constructor of the one the harness registers.
    pub default_impls: Vec<syn::ItemImpl>,
    /// Whether every value of the type is `Copy` at any instantiation: `#[derive(Copy)]` on
    /// a type without type parameters (derived `Copy` needs the parameters `Copy`, and the
    /// probe key is not), or an `impl Copy` without bounds (`Index<T>`). A handle
    /// type that is `Copy` is passed as `copy`, so one handle serves several calls.
    pub copy: bool,
    pub doc: String,
    /// For an enum, each variant holding one value: (variant, identifier of its type).
    pub variants: Vec<(String, String)>,
    /// For an enum, its unit variants (`Mode::Fast`): each is a constructor, so methods
    /// taking the enum (`set_mode(Mode)`, `with_mode(Mode)`) register.
    pub unit_variants: Vec<String>,
    /// For an enum (not `#[non_exhaustive]`), its variants holding fields (`Element::Edge {
    /// source, target, weight }`, `Value::Int(i64)`), each with its fields named (`Some`) or
    /// positional: each is a constructor when the model supplies every field, so
    /// parameters and sequences of such an enum register like those of a struct.
    pub data_variants: Vec<(String, Vec<(Option<String>, syn::Type)>)>,
    /// The crate's type this one derefs to, whose methods `impls` holds (see
    /// [`deref_methods`]).
    pub deref_target: Option<String>,
    /// Paths (from the crate root) of the crate's public traits whose methods `impls` holds
    /// (see [`trait_methods`]): the harness imports them to call those methods.
    pub traits: Vec<Vec<String>>,
    /// For a struct whose fields are all public (and not `#[non_exhaustive]`): its fields,
    /// named (`Some`) or positional, with their types. A struct literal builds it, so a
    /// plain data type without `new` (`Edge { from, to, weight }`) is still constructible.
    pub literal_fields: Option<Vec<(Option<String>, syn::Type)>>,
    /// For a struct, its const parameters that no field's type mentions: they shape what the
    /// code does (a d-ary heap's arity `D`, a branching factor), where one that sizes storage
    /// appears in a field (`[T; CAP]`, `ArrayVec<T, CAP>`). See `model::instantiate_free`.
    pub free_consts: Vec<String>,
}

/// Every public type found, in source order.
pub struct Scan {
    pub types: Vec<FoundType>,
    /// Identifiers of the crate's types that implement `Iterator` (a method returning one is
    /// called and its result consumed, so the call does the work a caller would).
    pub iterators: HashSet<String>,
    /// The `Item` of each of those iterators, as its impl writes it (`Node<'a, 'input>`), with
    /// the module of the impl (five modules of a graph crate each have their `Edges`): a
    /// method handing out the iterator hands out many of them (see
    /// [`handed_out`](super::handed_out)).
    pub iterator_items: HashMap<String, Vec<(Vec<String>, syn::Type)>>,
    /// Traits the crate implements for arrays (inline-storage bounds, see
    /// [`storage`](super::storage)).
    pub array_traits: super::storage::ArrayTraits,
    /// Traits of the crate implemented for `u64` (see [`int_traits`](super::int_traits)).
    pub int_traits: super::int_traits::IntTraits,
    /// The crate root's doc (`//!`): a complexity table there (scapegoat's) gives the classes
    /// of every type's methods that neither their own doc nor their type's table gives.
    pub crate_doc: String,
    /// Each module's doc (`//!` of its file, `///` on its `mod`), by module path: a
    /// private module's doc (`mod binary_heap;` re-exported) speaks of the types it defines.
    pub module_docs: HashMap<Vec<String>, String>,
    /// The crate's public type aliases (`pub type StableVec<T> = StableVecFacade<T,
    /// DefaultCore<T>>`): the alias (its generics, path, doc) and the aliased type. A type
    /// whose parameter init cannot fill registers through an alias that fills it.
    pub aliases: Vec<(FoundType, syn::Type)>,
    /// Every type alias, public or not, with the module that defines it: a signature names
    /// types as its module sees them (see [`ScopedAliases`](super::aliases::ScopedAliases)).
    pub local_aliases: Vec<LocalAlias>,
    /// Every `use` of every module, public or not: the name it brings into its module
    /// (see [`Import`]).
    pub imports: Vec<Import>,
    /// The public free functions of reachable modules, registered as the methods of a
    /// namespace per module (see [`free`](super::free)).
    pub free_fns: Vec<FreeFn>,
    /// Associated types of the crate's trait impls for one concrete type
    /// (`impl Bytes for Vec<u8> { type Borrowed = [u8]; }`): the self type as written without
    /// spaces, the associated type's name, and what the impl sets it to.
    pub assoc_impls: Vec<(String, String, syn::Type)>,
    /// The crate's public constants (see [`slots`](super::slots)).
    pub consts: Vec<PublicConst>,
    /// The crate's reachable public traits by identifier (see
    /// [`TraitDecls`](super::trait_decls::TraitDecls)).
    pub trait_decls: super::trait_decls::TraitDecls,
}

/// A public constant of the crate: its path from the crate root and its type.
#[derive(Clone)]
pub struct PublicConst {
    pub path: Vec<String>,
    pub ty: syn::Type,
}

impl PublicConst {
    fn new(module: &[String], c: &syn::ItemConst) -> PublicConst {
        let mut path = module.to_vec();
        path.push(c.ident.to_string());
        PublicConst {
            path,
            ty: (*c.ty).clone(),
        }
    }
}

/// A type alias as the module that defines it sees it (`type DefaultIx = u16;`,
/// `pub type NodeIndex<Ix = DefaultIx> = Ix;`).
#[derive(Clone)]
pub struct LocalAlias {
    pub module: Vec<String>,
    pub ident: String,
    pub public: bool,
    pub generics: syn::Generics,
    pub target: syn::Type,
}

/// A name a `use` brings into `module`: `use crate::graph::{EdgeIndex}` in `stable_graph`
/// names `graph`'s `EdgeIndex` there; `name` is `None` for a glob.
#[derive(Clone, Debug)]
pub struct Import {
    pub module: Vec<String>,
    /// The name in `module` (the alias of `use x as y`), `None` for a glob.
    pub local: Option<String>,
    /// The absolute module path and the item's name (`None` for a glob).
    pub target: (Vec<String>, Option<String>),
}

/// The free functions users can name, each under its shortest public path: defined in a
/// public module, or re-exported by a `pub use` (`pub use fill::fill` of a
/// private module), followed as types' re-exports are.
fn public_fns(fns: Vec<FreeFn>, reexports: &[Reexport]) -> Vec<FreeFn> {
    let mut as_types: Vec<FoundType> = fns
        .iter()
        .map(|f| {
            found(
                &f.sig.ident,
                &f.module,
                f.reachable,
                &syn::Generics::default(),
                &[],
            )
        })
        .collect();
    resolve_reexports(&mut as_types, reexports);
    fns.into_iter()
        .zip(as_types)
        .filter(|(_, t)| t.reachable)
        .filter_map(|(f, t)| {
            let (name, module) = t.public_path.split_last()?;
            Some(FreeFn {
                module: module.to_vec(),
                name: name.clone(),
                reachable: true,
                ..f
            })
        })
        .collect()
}

/// A `pub use`: `module` re-exports the item `target` (an absolute
/// module path and the item's name) as `alias`; `target.1` is `None` for a glob.
struct Reexport {
    module: Vec<String>,
    /// Whether `module` is reachable: a `pub use` in a private module (`inner`'s
    /// `pub use entry::OccupiedEntry`) names the item only for a further `pub use` of it.
    public: bool,
    target: (Vec<String>, Option<String>),
    alias: Option<String>,
}

/// What a walk collects.
struct Found<'f> {
    features: &'f HashSet<String>,
    types: Vec<FoundType>,
    /// Each `impl` block with the module it is written in.
    impls: Vec<(Vec<String>, syn::ItemImpl)>,
    reexports: Vec<Reexport>,
    array_traits: super::storage::ArrayTraits,
    int_traits: super::int_traits::IntTraits,
    macro_types: super::macro_types::MacroTypes,
    /// The crate's `macro_rules!` seen so far, and how deep in their expansions the walk is.
    macros: super::expand::Macros,
    expansion_depth: usize,
    /// The crate's public traits (as types, for their public paths) and their items.
    traits: Vec<(FoundType, syn::ItemTrait)>,
    /// Traits read from macro invocations' tokens (see `assoc_ties::macro_traits`).
    macro_traits: Vec<(FoundType, syn::ItemTrait)>,
    aliases: Vec<(FoundType, syn::Type)>,
    local_aliases: Vec<LocalAlias>,
    imports: Vec<Import>,
    free_fns: Vec<FreeFn>,
    module_docs: HashMap<Vec<String>, String>,
    consts: Vec<PublicConst>,
}

/// Scans the crate whose library root is `lib_rs`, with `features` enabled.
pub fn scan(lib_rs: &Path, features: &HashSet<String>) -> Result<Scan> {
    let mut f = Found {
        features,
        types: Vec::new(),
        impls: Vec::new(),
        reexports: Vec::new(),
        array_traits: Default::default(),
        int_traits: Default::default(),
        macro_types: Default::default(),
        macros: Default::default(),
        expansion_depth: 0,
        traits: Vec::new(),
        macro_traits: Vec::new(),
        aliases: Vec::new(),
        local_aliases: Vec::new(),
        imports: Vec::new(),
        free_fns: Vec::new(),
        module_docs: HashMap::new(),
        consts: Vec::new(),
    };
    walk(lib_rs, &[], true, true, &mut f)?;
    let module_docs = std::mem::take(&mut f.module_docs);
    let crate_doc = std::fs::read_to_string(lib_rs)
        .ok()
        .and_then(|t| crate::harness::legacy_syntax::parse_file(&t).ok())
        .map(|ast| doc_text(&ast.attrs))
        .unwrap_or_default();
    let Found {
        mut types,
        impls,
        reexports,
        mut array_traits,
        int_traits,
        traits,
        aliases,
        local_aliases,
        imports,
        free_fns,
        consts,
        ..
    } = f;
    let (mut alias_types, alias_targets): (Vec<FoundType>, Vec<syn::Type>) =
        aliases.into_iter().unzip();
    resolve_reexports(&mut alias_types, &reexports);
    resolve_reexports(&mut types, &reexports);
    let mut free_fns = public_fns(free_fns, &reexports);
    let (mut trait_types, trait_items): (Vec<FoundType>, Vec<syn::ItemTrait>) =
        traits.into_iter().unzip();
    resolve_reexports(&mut trait_types, &reexports);
    let (mut macro_types, macro_items): (Vec<FoundType>, Vec<syn::ItemTrait>) =
        std::mem::take(&mut f.macro_traits).into_iter().unzip();
    resolve_reexports(&mut macro_types, &reexports);
    let trait_decls = super::trait_decls::TraitDecls::of(
        trait_types
            .iter()
            .chain(&macro_types)
            .map(|t| super::trait_decls::TraitFound {
                ident: &t.ident,
                module: &t.module,
                reachable: t.reachable,
                public_path: &t.public_path,
            }),
        trait_items.iter().chain(&macro_items),
    );
    let mut int_traits = int_traits;
    int_traits.declared = trait_decls.clone();
    let mut iterators = HashSet::new();
    let mut iterator_items: HashMap<String, Vec<(Vec<String>, syn::Type)>> = HashMap::new();
    let mut derefs: Vec<(String, Vec<String>, syn::ItemImpl)> = Vec::new();
    let mut deref_muts: HashSet<(String, Vec<String>)> = HashSet::new();
    let mut string_fns: Vec<FreeFn> = Vec::new();
    let mut assoc_impls = Vec::new();
    for (in_module, i) in impls {
        if let Some((tr, assoc, any_len)) = super::storage::from_impl(&i) {
            super::storage::record(&mut array_traits, tr, assoc, any_len);
        }
        if i.trait_.is_some() && i.generics.params.is_empty() {
            let self_ty = quote::ToTokens::to_token_stream(&*i.self_ty)
                .to_string()
                .replace(' ', "");
            for it in &i.items {
                if let syn::ImplItem::Type(t) = it {
                    assoc_impls.push((self_ty.clone(), t.ident.to_string(), t.ty.clone()));
                }
            }
        }
        let syn::Type::Path(p) = &*i.self_ty else {
            continue;
        };
        let Some(last) = p.path.segments.last() else {
            continue;
        };
        let name = last.ident.to_string();
        let tr = i
            .trait_
            .as_ref()
            .and_then(|(path, _)| path.segments.last())
            .map(|s| s.ident.to_string());
        if tr.as_deref() == Some("Iterator") {
            iterators.insert(name.clone());
            if let Some(item) = i.items.iter().find_map(|it| match it {
                syn::ImplItem::Type(t) if t.ident == "Item" => Some(t.ty.clone()),
                _ => None,
            }) {
                iterator_items
                    .entry(name.clone())
                    .or_default()
                    .push((in_module.clone(), item));
            }
        }
        if let Some(st) = super::strext::string_self(&i) {
            // The crate's trait on strings: its methods are free functions of its namespace.
            if let Some(k) = trait_types
                .iter()
                .position(|d| d.reachable && Some(&d.ident) == tr.as_ref())
            {
                if let Some(imp) = trait_methods(&i, &trait_items[k]) {
                    for f in super::strext::methods(&imp, st, &trait_types[k].public_path) {
                        if !string_fns
                            .iter()
                            .any(|g: &FreeFn| g.module == f.module && g.name == f.name)
                        {
                            string_fns.push(f);
                        }
                    }
                }
            }
            continue;
        }
        // Two types of one name in different modules: an impl belongs to the one in its own
        // module (where Rust code almost always writes it).
        let same_module = types
            .iter()
            .any(|t| t.ident == name && t.module == in_module);
        for t in types
            .iter_mut()
            .filter(|t| t.ident == name && (!same_module || t.module == in_module))
        {
            if tr.as_deref() == Some("Default") {
                t.implements_default = true;
                t.default_impls.push(i.clone());
            } else if tr.as_deref() == Some("Copy") {
                t.copy |= unbounded(&i.generics);
            } else if tr.as_deref() == Some("Deref") {
                derefs.push((t.ident.clone(), t.module.clone(), i.clone()));
            } else if tr.as_deref() == Some("DerefMut") {
                deref_muts.insert((t.ident.clone(), t.module.clone()));
            } else if let Some(imp) = super::owning_iter::into_iter_method(&i) {
                t.impls.push(imp);
            } else if tr.is_none() {
                t.impls.push(i.clone());
            } else if let Some(k) = trait_types
                .iter()
                .position(|d| d.reachable && Some(&d.ident) == tr.as_ref())
            {
                // The crate's own public trait: its methods are the type's API too.
                if let Some(imp) = trait_methods(&i, &trait_items[k]) {
                    t.impls.push(imp);
                    if !t.traits.contains(&trait_types[k].public_path) {
                        t.traits.push(trait_types[k].public_path.clone());
                    }
                }
            }
        }
    }
    // Methods reached by auto-deref, after every impl is in place.
    for (ident, module, imp) in derefs {
        let mutable = deref_muts.contains(&(ident.clone(), module.clone()));
        let Some(target) = deref_target(&imp) else {
            continue;
        };
        let Some(x) = types.iter().find(|t| {
            matches!(&target, syn::Type::Path(p) if p.path.segments.last().is_some_and(|s| s.ident == t.ident))
                && t.ident != ident
        }) else {
            continue;
        };
        let x_ident = x.ident.clone();
        let (added, traits): (Vec<syn::ItemImpl>, Vec<Vec<String>>) = (
            x.impls
                .iter()
                .filter_map(|xi| deref_methods(&imp, &target, xi, mutable))
                .collect(),
            x.traits.clone(),
        );
        if let Some(t) = types
            .iter_mut()
            .find(|t| t.ident == ident && t.module == module)
        {
            t.impls.extend(added);
            t.deref_target = Some(x_ident);
            for tr in traits {
                if !t.traits.contains(&tr) {
                    t.traits.push(tr);
                }
            }
        }
    }
    free_fns.extend(string_fns);
    Ok(Scan {
        types,
        iterators,
        iterator_items,
        array_traits,
        int_traits,
        aliases: alias_types.into_iter().zip(alias_targets).collect(),
        local_aliases,
        imports,
        crate_doc,
        module_docs,
        free_fns,
        assoc_impls,
        consts,
        trait_decls,
    })
}

/// `X<..>` of an `impl Deref for Y { type Target = X<..>; }`.
fn deref_target(imp: &syn::ItemImpl) -> Option<syn::Type> {
    imp.items.iter().find_map(|it| match it {
        syn::ImplItem::Type(t) if t.ident == "Target" => Some(t.ty.clone()),
        _ => None,
    })
}

/// The methods of the crate's type `X` a type `Y` reaches by auto-deref
/// (`FixedCircularBuffer<T, N>` derefs to the unsized `CircularBuffer<T>`, which holds the
/// whole API: `push_back`, `len`...), as an inherent impl of `Y` would declare them: `X`'s
/// parameters become the `Target`'s arguments, and `Self` in a signature is `X` (not `Y`).
/// `&mut self` methods need `DerefMut`; `self` by value cannot go through a reference.
fn deref_methods(
    deref: &syn::ItemImpl,
    target: &syn::Type,
    x_impl: &syn::ItemImpl,
    mutable: bool,
) -> Option<syn::ItemImpl> {
    use quote::ToTokens;
    let args = |t: &syn::Type| -> Option<Vec<proc_macro2::TokenStream>> {
        let syn::Type::Path(p) = t else { return None };
        Some(type_args(&p.path.segments.last()?.arguments).unwrap_or_default())
    };
    let (written, given) = (args(&x_impl.self_ty)?, args(target)?);
    if written.len() != given.len() {
        return None;
    }
    let mut subst: HashMap<String, proc_macro2::TokenStream> = HashMap::new();
    for (w, g) in written.iter().zip(&given) {
        let w = w.to_string();
        // `impl X<u8>` for a `Target = X<T>`: another instantiation, not reached.
        if !x_impl.generics.params.iter().any(|p| match p {
            syn::GenericParam::Type(t) => t.ident == w,
            syn::GenericParam::Const(c) => c.ident == w,
            syn::GenericParam::Lifetime(_) => false,
        }) {
            return None;
        }
        subst.insert(w, g.clone());
    }
    subst.insert("Self".into(), target.to_token_stream());
    let mut out = deref.clone();
    out.trait_ = None;
    out.items = Vec::new();
    for it in &x_impl.items {
        let syn::ImplItem::Fn(f) = it else { continue };
        let ok = match f.sig.receiver() {
            None => false,
            Some(r) => match &r.kind {
                syn::ReceiverKind::Reference(_, _, m) => m.is_none() || mutable,
                _ => false,
            },
        };
        if !ok || !is_pub(&f.vis) {
            continue;
        }
        let Ok(sig) =
            syn::parse2::<syn::Signature>(replace_idents(f.sig.to_token_stream(), &subst))
        else {
            continue;
        };
        out.items
            .push(syn::ImplItem::Fn(syn::ImplItemFn { sig, ..f.clone() }));
    }
    Some(out)
}

/// The methods a crate's trait gives a type, as an inherent impl would declare them:
/// a ring buffer crate's whole API can be `RingBuffer<T>`'s (`push`, `dequeue`, `get`...), implemented
/// by each buffer type, and a caller reaches it by importing the trait. Each of the
/// trait's functions (required or provided) is public with the trait's doc, its own doc in
/// the impl added; the trait's type parameters become the impl's arguments (`impl
/// Trait<u32> for T`: the trait's `X` is `u32`). `None` when they cannot be matched.
pub fn trait_methods(imp: &syn::ItemImpl, tr: &syn::ItemTrait) -> Option<syn::ItemImpl> {
    use quote::ToTokens;
    let (path, _) = imp.trait_.as_ref()?;
    let params: Vec<String> = tr
        .generics
        .params
        .iter()
        .filter_map(|p| match p {
            syn::GenericParam::Type(t) => Some(t.ident.to_string()),
            syn::GenericParam::Const(c) => Some(c.ident.to_string()),
            syn::GenericParam::Lifetime(_) => None,
        })
        .collect();
    let args = type_args(&path.segments.last()?.arguments)?;
    if args.len() != params.len() {
        return None;
    }
    let subst: HashMap<String, proc_macro2::TokenStream> = params.into_iter().zip(args).collect();
    // The impl's associated types (`type Key = K;`): a trait's signature names them
    // `Self::Key` (`MutableKeys::get_full_mut2<Q: Equivalent<Self::Key>>`), which
    // the impl fixes.
    let assoc: HashMap<String, proc_macro2::TokenStream> = imp
        .items
        .iter()
        .filter_map(|it| match it {
            syn::ImplItem::Type(t) if t.generics.params.is_empty() => {
                Some((t.ident.to_string(), t.ty.to_token_stream()))
            }
            _ => None,
        })
        .collect();
    let own_docs: HashMap<String, Vec<Attribute>> = imp
        .items
        .iter()
        .filter_map(|it| match it {
            syn::ImplItem::Fn(f) => Some((
                f.sig.ident.to_string(),
                f.attrs
                    .iter()
                    .filter(|a| a.path().is_ident("doc"))
                    .cloned()
                    .collect(),
            )),
            _ => None,
        })
        .collect();
    let mut out = imp.clone();
    out.trait_ = None;
    out.items = Vec::new();
    for it in &tr.items {
        let syn::TraitItem::Fn(f) = it else { continue };
        let sig = replace_idents(replace_self_assoc(f.sig.to_token_stream(), &assoc), &subst);
        let Ok(sig) = syn::parse2::<syn::Signature>(sig) else {
            continue;
        };
        let mut attrs = f.attrs.clone();
        attrs.extend(
            own_docs
                .get(&f.sig.ident.to_string())
                .cloned()
                .unwrap_or_default(),
        );
        out.items.push(syn::ImplItem::Fn(syn::ImplItemFn {
            attrs,
            vis: syn::parse_quote!(pub),
            modifiers: Default::default(),
            sig,
            block: syn::parse_quote!({}),
        }));
    }
    Some(out)
}

/// `tokens` with each `Self::X` whose `X` `assoc` names replaced by its tokens.
fn replace_self_assoc(
    tokens: proc_macro2::TokenStream,
    assoc: &HashMap<String, proc_macro2::TokenStream>,
) -> proc_macro2::TokenStream {
    replace_assoc(tokens, "Self", assoc)
}

/// `tokens` with each `P::X` (`P` the identifier `head`) whose `X` `assoc` names replaced
/// by its tokens.
pub fn replace_assoc(
    tokens: proc_macro2::TokenStream,
    head: &str,
    assoc: &HashMap<String, proc_macro2::TokenStream>,
) -> proc_macro2::TokenStream {
    use proc_macro2::{Group, TokenTree};
    let trees: Vec<TokenTree> = tokens.into_iter().collect();
    let mut out: Vec<TokenTree> = Vec::new();
    let mut i = 0;
    while i < trees.len() {
        let replaced = match &trees[i..] {
            [TokenTree::Ident(s), TokenTree::Punct(a), TokenTree::Punct(b), TokenTree::Ident(x), ..]
                if s == head && a.as_char() == ':' && b.as_char() == ':' =>
            {
                assoc.get(&x.to_string())
            }
            _ => None,
        };
        if let Some(r) = replaced {
            out.extend(r.clone());
            i += 4;
            continue;
        }
        out.push(match &trees[i] {
            TokenTree::Group(g) => {
                let mut n = Group::new(g.delimiter(), replace_assoc(g.stream(), head, assoc));
                n.set_span(g.span());
                TokenTree::Group(n)
            }
            other => other.clone(),
        });
        i += 1;
    }
    out.into_iter().collect()
}

/// `tokens` with each identifier `subst` names replaced by its tokens.
pub fn replace_idents(
    tokens: proc_macro2::TokenStream,
    subst: &HashMap<String, proc_macro2::TokenStream>,
) -> proc_macro2::TokenStream {
    use proc_macro2::{Group, TokenTree};
    tokens
        .into_iter()
        .flat_map(|tt| -> Vec<TokenTree> {
            match tt {
                TokenTree::Ident(i) => match subst.get(&i.to_string()) {
                    Some(r) => r.clone().into_iter().collect(),
                    None => vec![TokenTree::Ident(i)],
                },
                TokenTree::Group(g) => {
                    let mut n = Group::new(g.delimiter(), replace_idents(g.stream(), subst));
                    n.set_span(g.span());
                    vec![TokenTree::Group(n)]
                }
                other => vec![other],
            }
        })
        .collect()
}

/// Makes types reachable through `pub use` (chains of them too) and names each by its
/// shortest public path: `crate::a::b::T` re-exported at the root is `T`.
fn resolve_reexports(types: &mut [FoundType], reexports: &[Reexport]) {
    // Each type's paths, with whether they are public (reachable from outside the crate).
    let mut paths: Vec<Vec<(Vec<String>, bool)>> = types
        .iter()
        .map(|t| vec![(t.public_path.clone(), t.reachable)])
        .collect();
    // Each round follows one more `pub use` of a chain; four is more than crates nest.
    for _ in 0..4 {
        let mut changed = false;
        for (k, t) in types.iter().enumerate() {
            let defined: Vec<String> = t.module.iter().cloned().chain([t.ident.clone()]).collect();
            for r in reexports {
                let (tm, tn) = &r.target;
                // A module re-exported under a name (`pub use crate::ord::map as
                // ordmap;`, then `pub use crate::ordmap::OrdMap;`): a type in it gets the path
                // through the new name, which later `pub use`s then follow.
                if let Some(n) = tn {
                    let full: Vec<String> = tm.iter().cloned().chain([n.clone()]).collect();
                    let inside = paths[k]
                        .iter()
                        .any(|(p, _)| p.len() == full.len() + 1 && p.starts_with(&full));
                    if inside {
                        let name = r.alias.clone().unwrap_or_else(|| n.clone());
                        let p: Vec<String> = r
                            .module
                            .iter()
                            .cloned()
                            .chain([name, t.ident.clone()])
                            .collect();
                        if !paths[k].iter().any(|(q, _)| *q == p) {
                            paths[k].push((p, r.public));
                            changed = true;
                        }
                        continue;
                    }
                }
                let hit = match tn {
                    Some(n) => {
                        let full: Vec<String> = tm.iter().cloned().chain([n.clone()]).collect();
                        full == defined || paths[k].iter().any(|(p, _)| *p == full)
                    }
                    // A glob re-exports what the target module defines or re-exports.
                    None => {
                        &t.module == tm
                            || paths[k]
                                .iter()
                                .any(|(p, _)| p.len() == tm.len() + 1 && p.starts_with(tm))
                    }
                };
                if !hit {
                    continue;
                }
                let name = match (&r.alias, tn) {
                    (Some(a), _) => a.clone(),
                    _ => t.ident.clone(),
                };
                let p: Vec<String> = r.module.iter().cloned().chain([name]).collect();
                if let Some(i) = paths[k].iter().position(|(q, _)| *q == p) {
                    if r.public && !paths[k][i].1 {
                        paths[k][i].1 = true;
                        changed = true;
                    }
                } else {
                    paths[k].push((p, r.public));
                    changed = true;
                }
            }
        }
        if !changed {
            break;
        }
    }
    for (t, ps) in types.iter_mut().zip(paths) {
        if let Some((best, _)) = ps
            .into_iter()
            .filter(|(_, public)| *public)
            .min_by_key(|(p, _)| p.len())
        {
            t.reachable = true;
            t.public_path = best;
        }
    }
}

/// Adds `attrs`' doc to the doc of `module`.
fn module_doc(f: &mut Found<'_>, module: &[String], attrs: &[Attribute]) {
    let doc = doc_text(attrs);
    if doc.is_empty() {
        return;
    }
    let d = f.module_docs.entry(module.to_vec()).or_default();
    if !d.is_empty() {
        d.push(' ');
    }
    d.push_str(&doc);
}

fn walk(
    file: &Path,
    module: &[String],
    reachable: bool,
    dir_owner: bool,
    f: &mut Found<'_>,
) -> Result<()> {
    let text =
        std::fs::read_to_string(file).with_context(|| format!("cannot read {}", file.display()))?;
    let ast = crate::harness::legacy_syntax::parse_file(&text)
        .map_err(|e| anyhow::anyhow!("{}: cannot parse: {e}", file.display()))?;
    module_doc(f, module, &ast.attrs);
    // Where `mod x;` of this file looks for x.rs: beside lib.rs/mod.rs, else in a directory
    // named after this file.
    let dir = if dir_owner {
        file.parent().map(Path::to_path_buf).unwrap_or_default()
    } else {
        file.with_extension("")
    };
    let local: HashSet<String> = ast
        .items
        .iter()
        .filter_map(|i| match i {
            Item::Mod(m) => Some(m.ident.to_string()),
            _ => None,
        })
        .collect();
    items(&ast.items, &dir, module, reachable, &local, f)
}

fn items(
    list: &[Item],
    dir: &Path,
    module: &[String],
    reachable: bool,
    local_mods: &HashSet<String>,
    f: &mut Found<'_>,
) -> Result<()> {
    for item in list {
        if !super::cfg::active(attrs_of(item), f.features) {
            continue;
        }
        if let Item::Use(u) = item {
            let mut leaves = Vec::new();
            use_targets(&u.tree, Vec::new(), &mut leaves);
            for (path, name, alias) in leaves {
                f.imports.push(Import {
                    module: module.to_vec(),
                    local: alias.or_else(|| name.clone()),
                    target: (absolute(module, local_mods, &path), name),
                });
            }
        }
        match item {
            Item::Struct(s) if is_pub(&s.vis) => {
                let reachable = reachable && !doc_hidden(&s.attrs);
                let mut t = found(&s.ident, module, reachable, &s.generics, &s.attrs);
                active_generics(&mut t.generics, f.features);
                t.literal_fields = literal_fields(s);
                t.free_consts = free_consts(s);
                f.types.push(t)
            }
            Item::Enum(e) if is_pub(&e.vis) => {
                let reachable = reachable && !doc_hidden(&e.attrs);
                let mut t = found(&e.ident, module, reachable, &e.generics, &e.attrs);
                active_generics(&mut t.generics, f.features);
                t.variants = e
                    .variants
                    .iter()
                    .filter_map(|v| match &v.fields {
                        syn::Fields::Unnamed(u) if u.unnamed.len() == 1 => match &u.unnamed[0].ty {
                            syn::Type::Path(p) => p
                                .path
                                .segments
                                .last()
                                .map(|s| (v.ident.to_string(), s.ident.to_string())),
                            _ => None,
                        },
                        _ => None,
                    })
                    .collect();
                t.unit_variants = e
                    .variants
                    .iter()
                    .filter(|v| matches!(v.fields, syn::Fields::Unit))
                    .filter(|v| super::cfg::active(&v.attrs, f.features))
                    .map(|v| v.ident.to_string())
                    .collect();
                t.data_variants = data_variants(e, f.features);
                f.types.push(t)
            }
            Item::Const(c) if is_pub(&c.vis) && reachable && !doc_hidden(&c.attrs) => {
                f.consts.push(PublicConst::new(module, c));
            }
            Item::Fn(func) if is_pub(&func.vis) => {
                f.free_fns.push(FreeFn {
                    module: module.to_vec(),
                    name: func.sig.ident.to_string(),
                    sig: func.sig.clone(),
                    attrs: func.attrs.clone(),
                    reachable: reachable && !doc_hidden(&func.attrs),
                    string_self: None,
                });
            }
            Item::Type(ty) => {
                f.local_aliases.push(LocalAlias {
                    module: module.to_vec(),
                    ident: ty.ident.to_string(),
                    public: is_pub(&ty.vis),
                    generics: ty.generics.clone(),
                    target: (*ty.ty).clone(),
                });
                if is_pub(&ty.vis) {
                    let reachable = reachable && !doc_hidden(&ty.attrs);
                    let t = found(&ty.ident, module, reachable, &ty.generics, &ty.attrs);
                    f.aliases.push((t, (*ty.ty).clone()));
                }
            }
            Item::Trait(tr) if is_pub(&tr.vis) => {
                let mut tr = tr.clone();
                tr.items.retain(|it| match it {
                    syn::TraitItem::Fn(func) => {
                        super::cfg::active(&func.attrs, f.features) && !doc_hidden(&func.attrs)
                    }
                    _ => true,
                });
                let reachable = reachable && !doc_hidden(&tr.attrs);
                let t = found(&tr.ident, module, reachable, &tr.generics, &tr.attrs);
                f.traits.push((t, tr));
            }
            Item::Impl(i) => {
                let mut i = i.clone();
                // Methods a macro of the crate writes into the block (see `expand`).
                if i.items
                    .iter()
                    .any(|it| matches!(it, syn::ImplItem::Macro(_)))
                {
                    i.items = std::mem::take(&mut i.items)
                        .into_iter()
                        .flat_map(|it| match it {
                            syn::ImplItem::Macro(m) => f
                                .macros
                                .expand_impl_items(&m.mac)
                                .unwrap_or_else(|| vec![syn::ImplItem::Macro(m)]),
                            other => vec![other],
                        })
                        .collect();
                }
                // Items switched off by `#[cfg]` are not part of this build's API, nor are
                // those hidden from its docs (see `doc_hidden`).
                i.items.retain(|it| match it {
                    syn::ImplItem::Fn(func) => {
                        super::cfg::active(&func.attrs, f.features) && !doc_hidden(&func.attrs)
                    }
                    _ => true,
                });
                f.int_traits
                    .record_impl(&i, &super::value_traits::integers_meet);
                f.impls.push((module.to_vec(), i));
            }
            // Impls a macro writes are invisible to syn, except the array impls of an
            // inline-storage trait (`impl_array!`), read from the macro's tokens.
            // So are integer impls of a key trait (`impl_int_key_for_int!(u64, ..)`).
            Item::Macro(m) => {
                f.int_traits.record_macro(m);
                f.macros.record(m);
                // A struct a macro of the crate defines (`new_key_type!`).
                let defined = f.macro_types.record(m);
                let by_name = !defined.is_empty();
                for d in defined.into_iter().filter(|d| d.public) {
                    f.int_traits.record_type(&d.ident, &d.traits);
                    let ident = syn::Ident::new(&d.ident, proc_macro2::Span::call_site());
                    let mut t = found(&ident, module, reachable, &Default::default(), &[]);
                    t.copy = d.copy;
                    f.types.push(t);
                }
                // Any other invocation of a macro of the crate: the items it writes (see
                // `expand`). The struct-from-a-name reading above stays as it was tested.
                if !by_name && m.ident.is_none() && f.expansion_depth < super::expand::MAX_DEPTH {
                    if let Some(expanded) = f.macros.expand_items(&m.mac) {
                        f.expansion_depth += 1;
                        let r = items(&expanded, dir, module, reachable, local_mods, f);
                        f.expansion_depth -= 1;
                        r?;
                    }
                }
                // Traits it writes, which the expander may not reach (see `assoc_ties`); as
                // written in the source, not as a macro passes them on to another.
                if m.ident.is_none() && f.expansion_depth == 0 {
                    for tr in super::trait_decls::macro_traits(&m.mac.tokens.to_string()) {
                        let t = found(&tr.ident, module, reachable, &tr.generics, &[]);
                        f.macro_traits.push((t, tr));
                    }
                }
                if m.mac.path.is_ident("macro_rules") {
                    for (tr, assoc) in super::storage::from_macro(&m.mac.tokens.to_string()) {
                        super::storage::record(&mut f.array_traits, tr, assoc, false);
                    }
                }
            }
            Item::Use(u) if is_pub(&u.vis) && !doc_hidden(&u.attrs) => {
                let mut found_uses = Vec::new();
                use_targets(&u.tree, Vec::new(), &mut found_uses);
                for (path, name, alias) in found_uses {
                    let target = absolute(module, local_mods, &path);
                    f.reexports.push(Reexport {
                        module: module.to_vec(),
                        public: reachable,
                        target: (target, name),
                        alias,
                    });
                }
            }
            Item::Mod(m) => {
                let name = m.ident.to_string();
                let sub: Vec<String> = module.iter().cloned().chain([name.clone()]).collect();
                let sub_reachable = reachable && is_pub(&m.vis) && !doc_hidden(&m.attrs);
                module_doc(f, &sub, &m.attrs);
                match &m.content {
                    Some((_, inner)) => {
                        let local: HashSet<String> = inner
                            .iter()
                            .filter_map(|i| match i {
                                Item::Mod(m) => Some(m.ident.to_string()),
                                _ => None,
                            })
                            .collect();
                        items(inner, &dir.join(&name), &sub, sub_reachable, &local, f)?
                    }
                    None => {
                        let explicit = m.attrs.iter().find_map(path_attr);
                        let (file, owner) = match explicit {
                            Some(p) => (dir.join(p), true),
                            None if dir.join(format!("{name}.rs")).is_file() => {
                                (dir.join(format!("{name}.rs")), false)
                            }
                            None => (dir.join(&name).join("mod.rs"), true),
                        };
                        if file.is_file() {
                            walk(&file, &sub, sub_reachable, owner, f)?;
                        }
                    }
                }
            }
            _ => {}
        }
    }
    Ok(())
}

/// Drops the generic parameters `#[cfg]` switches off: a crate may declare `MatrixGraph<N, E,
/// #[cfg(not(feature = "std"))] S, #[cfg(feature = "std")] S = RandomState, Ty = ..>`, one
/// `S` per build, so counting both would shift every later argument by one.
fn active_generics(g: &mut syn::Generics, features: &HashSet<String>) {
    let attrs = |p: &syn::GenericParam| match p {
        syn::GenericParam::Type(t) => t.attrs.clone(),
        syn::GenericParam::Const(c) => c.attrs.clone(),
        syn::GenericParam::Lifetime(l) => l.attrs.clone(),
    };
    g.params = std::mem::take(&mut g.params)
        .into_pairs()
        .map(syn::punctuated::Pair::into_value)
        .filter(|p| super::cfg::active(&attrs(p), features))
        .collect();
}

fn found(
    ident: &syn::Ident,
    module: &[String],
    reachable: bool,
    generics: &syn::Generics,
    attrs: &[Attribute],
) -> FoundType {
    let derives_default = attrs.iter().any(|a| {
        a.path().is_ident("derive")
            && a.parse_args_with(
                syn::punctuated::Punctuated::<syn::Path, syn::Token![,]>::parse_terminated,
            )
            .is_ok_and(|ps| ps.iter().any(|p| p.is_ident("Default")))
    });
    let derives_copy = attrs.iter().any(|a| {
        a.path().is_ident("derive")
            && a.parse_args_with(
                syn::punctuated::Punctuated::<syn::Path, syn::Token![,]>::parse_terminated,
            )
            .is_ok_and(|ps| ps.iter().any(|p| p.is_ident("Copy")))
    });
    let type_params = generics
        .params
        .iter()
        .any(|p| matches!(p, syn::GenericParam::Type(_)));
    FoundType {
        ident: ident.to_string(),
        module: module.to_vec(),
        reachable,
        public_path: module.iter().cloned().chain([ident.to_string()]).collect(),
        generics: generics.clone(),
        derives_default,
        impls: Vec::new(),
        implements_default: false,
        default_impls: Vec::new(),
        copy: derives_copy && !type_params,
        doc: doc_text(attrs),
        variants: Vec::new(),
        unit_variants: Vec::new(),
        data_variants: Vec::new(),
        deref_target: None,
        traits: Vec::new(),
        literal_fields: None,
        free_consts: Vec::new(),
    }
}

/// The const parameters of `s` that no field's type mentions (see
/// [`FoundType::free_consts`]).
fn free_consts(s: &syn::ItemStruct) -> Vec<String> {
    use quote::ToTokens;
    let mentioned: HashSet<String> = s
        .fields
        .iter()
        .flat_map(|f| idents_in(f.ty.to_token_stream()))
        .collect();
    s.generics
        .params
        .iter()
        .filter_map(|p| match p {
            syn::GenericParam::Const(c) if !mentioned.contains(&c.ident.to_string()) => {
                Some(c.ident.to_string())
            }
            _ => None,
        })
        .collect()
}

/// Every identifier in a token stream, groups included.
fn idents_in(tokens: proc_macro2::TokenStream) -> Vec<String> {
    tokens
        .into_iter()
        .flat_map(|t| match t {
            proc_macro2::TokenTree::Ident(i) => vec![i.to_string()],
            proc_macro2::TokenTree::Group(g) => idents_in(g.stream()),
            _ => Vec::new(),
        })
        .collect()
}

/// The fields of a struct a struct literal outside its crate can build (see
/// [`FoundType::literal_fields`]): every field public, the struct not `#[non_exhaustive]`,
/// and at least one field (a unit struct is a value, not a constructor call).
fn literal_fields(s: &syn::ItemStruct) -> Option<Vec<(Option<String>, syn::Type)>> {
    let non_exhaustive = s.attrs.iter().any(|a| a.path().is_ident("non_exhaustive"));
    if non_exhaustive || s.fields.is_empty() || !s.fields.iter().all(|f| is_pub(&f.vis)) {
        return None;
    }
    Some(
        s.fields
            .iter()
            .map(|f| (f.ident.as_ref().map(|i| i.to_string()), f.ty.clone()))
            .collect(),
    )
}

/// The variants of `e` holding fields that code outside the crate can build (see
/// [`FoundType::data_variants`]): none of a `#[non_exhaustive]` enum, nor a variant marked so.
fn data_variants(
    e: &syn::ItemEnum,
    features: &HashSet<String>,
) -> Vec<(String, Vec<(Option<String>, syn::Type)>)> {
    let non_exhaustive =
        |attrs: &[syn::Attribute]| attrs.iter().any(|a| a.path().is_ident("non_exhaustive"));
    if non_exhaustive(&e.attrs) {
        return Vec::new();
    }
    e.variants
        .iter()
        .filter(|v| !v.fields.is_empty() && !non_exhaustive(&v.attrs))
        .filter(|v| super::cfg::active(&v.attrs, features))
        .map(|v| {
            let fields = v
                .fields
                .iter()
                .map(|f| (f.ident.as_ref().map(|i| i.to_string()), f.ty.clone()))
                .collect();
            (v.ident.to_string(), fields)
        })
        .collect()
}

/// Whether an impl's generics bound none of its parameters (`impl<T> Copy for Index<T> {}`
/// holds for every `T`).
fn unbounded(g: &syn::Generics) -> bool {
    g.where_clause
        .as_ref()
        .is_none_or(|w| w.predicates.is_empty())
        && g.params.iter().all(|p| match p {
            syn::GenericParam::Type(t) => t.bounds.is_empty(),
            _ => true,
        })
}

/// Each leaf of a `use` tree: (module path as written, item name or `None` for a glob,
/// alias).
type UseLeaf = (Vec<String>, Option<String>, Option<String>);

fn use_targets(tree: &UseTree, prefix: Vec<String>, out: &mut Vec<UseLeaf>) {
    match tree {
        UseTree::Path(p) => {
            let mut next = prefix;
            next.push(p.ident.to_string());
            use_targets(&p.tree, next, out)
        }
        UseTree::Name(n) => out.push((prefix, Some(n.ident.to_string()), None)),
        UseTree::Rename(r) => out.push((
            prefix,
            Some(r.ident.to_string()),
            Some(r.rename.to_string()),
        )),
        UseTree::Glob(_) => out.push((prefix, None, None)),
        UseTree::Group(g) => g
            .items
            .iter()
            .for_each(|t| use_targets(t, prefix.clone(), out)),
    }
}

/// The absolute module path (from the crate root) of a `use` path written in `module`:
/// `crate::`, `self::` and `super::` as Rust reads them; a first segment naming a module of
/// this file is relative (2018 paths); anything else is read from the root.
fn absolute(module: &[String], local_mods: &HashSet<String>, path: &[String]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut rest = path;
    match path.first().map(String::as_str) {
        Some("crate") => rest = &path[1..],
        Some("self") => {
            out = module.to_vec();
            rest = &path[1..];
        }
        Some("super") => {
            out = module.to_vec();
            while rest.first().map(String::as_str) == Some("super") {
                out.pop();
                rest = &rest[1..];
            }
        }
        Some(first) if local_mods.contains(first) => out = module.to_vec(),
        _ => {}
    }
    out.extend(rest.iter().cloned());
    out
}

fn path_attr(a: &Attribute) -> Option<PathBuf> {
    if !a.path().is_ident("path") {
        return None;
    }
    match &a.meta {
        Meta::NameValue(nv) => match &nv.value {
            Expr::Lit(l) => match &l.lit {
                Lit::Str(s) => Some(PathBuf::from(s.value())),
                _ => None,
            },
            _ => None,
        },
        _ => None,
    }
}

fn attrs_of(item: &Item) -> &[Attribute] {
    match item {
        Item::Struct(s) => &s.attrs,
        Item::Enum(e) => &e.attrs,
        Item::Impl(i) => &i.attrs,
        Item::Mod(m) => &m.attrs,
        Item::Use(u) => &u.attrs,
        Item::Fn(f) => &f.attrs,
        Item::Macro(m) => &m.attrs,
        _ => &[],
    }
}

pub fn is_pub(v: &Visibility) -> bool {
    matches!(v, Visibility::Public(_))
}

/// Whether `attrs` hide the item from the crate's docs (`#[doc(hidden)]`): public to the
/// compiler, not part of the API (crop: "These are not part of the public API, we only export
/// them to be able to run doctests", `#[doc(hidden)] pub use rope::gap_buffer::GapBuffer`).
/// Such types, modules, re-exports, functions and methods are left out: a hunt over them
/// judged internals against no promise, and a finding there is nothing a user can act on.
pub fn doc_hidden(attrs: &[Attribute]) -> bool {
    attrs.iter().any(|a| {
        a.path().is_ident("doc")
            && matches!(&a.meta, Meta::List(l)
                if l.tokens.to_string().split(',').any(|t| t.trim() == "hidden"))
    })
}

/// The doc comment of `attrs`, lines joined with spaces.
pub fn doc_text(attrs: &[Attribute]) -> String {
    let mut lines = Vec::new();
    for a in attrs {
        if !a.path().is_ident("doc") {
            continue;
        }
        if let Meta::NameValue(nv) = &a.meta {
            if let Expr::Lit(l) = &nv.value {
                if let Lit::Str(s) = &l.lit {
                    lines.push(s.value().trim().to_string());
                }
            }
        }
    }
    lines.join(" ")
}

/// Counts how often each identifier names a found type (duplicates need module paths).
pub fn ident_counts(types: &[FoundType]) -> HashMap<String, usize> {
    let mut m = HashMap::new();
    for t in types.iter().filter(|t| t.reachable) {
        *m.entry(t.ident.clone()).or_insert(0) += 1;
    }
    m
}

/// The generic arguments of a path segment other than lifetimes, as tokens (none for a bare
/// segment); `None` for parenthesized ones (`Fn(A) -> B`).
fn type_args(args: &syn::PathArguments) -> Option<Vec<proc_macro2::TokenStream>> {
    use quote::ToTokens;
    match args {
        syn::PathArguments::AngleBracketed(a) => Some(
            a.args
                .iter()
                .filter(|a| !matches!(a, syn::GenericArgument::Lifetime(_)))
                .map(|a| a.to_token_stream())
                .collect(),
        ),
        syn::PathArguments::None => Some(Vec::new()),
        syn::PathArguments::Parenthesized(_) => None,
    }
}
