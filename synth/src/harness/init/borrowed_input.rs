//! Types that borrow their input (`Parser<'a>` built from `&'a str`, a reader over
//! `&'a [u8]`): a parser's usual shape. A program cannot hold one (values the model builds
//! are owned), but a caller builds it from text it holds and consumes it in the same
//! statement: `Parser::new(&text).count()`, `Reader::from_bytes(&b).read_all()`. Each such
//! type registers as a namespace (see [`free`](super::free)) named like the type, whose
//! methods are those statements, measured as one call: its constructor with the iterator it
//! is consumed item by item, or chained with each of its public methods. The cost of a lazy
//! parser is then inside the measured call, and its size is the text's.

use std::collections::{BTreeSet, HashMap};

use perfsyn_profiler_ipc::Mode;
use syn::{GenericParam, ImplItem, ReturnType, Type};

use super::chain::{handed_on, Borrowers, Chains};
use super::handed_out::{Route, Seen};
use super::instantiate::{instantiate, OMITTED};
use super::registrations::{Chain, Code, Func, ParamKind, TypeReg, Via, PULL_BUFFER};
use super::resolve::Ctx;
use super::scan::{is_pub, FoundType, Scan};
use super::skips::SkipReason;
use super::syntax::{param_names, trait_names};

/// What [`namespaces`] registered: one namespace per borrowing type built from what a
/// program holds, the (public path, method) pairs of its methods reached, and the types
/// it reached (their skip lines give way to the registration).
pub(super) struct Reached {
    pub types: Vec<TypeReg>,
    pub methods: Vec<(String, String)>,
    pub built: Vec<String>,
}

/// The namespaces of the crate's reachable types with a lifetime parameter that a public
/// constructor builds from program values; `cx` is the crate's context (as for free
/// functions).
pub(super) fn namespaces(
    lib: &str,
    scan: &Scan,
    cx: &Ctx<'_>,
    borrowers: Borrowers<'_>,
    fn_names: &mut HashMap<String, usize>,
    vecs: &mut BTreeSet<String>,
) -> Reached {
    let mut out = Reached {
        types: Vec::new(),
        methods: Vec::new(),
        built: Vec::new(),
    };
    for t in scan
        .types
        .iter()
        .filter(|t| t.reachable && (borrows(t) || reads_input(t)))
    {
        if let Some((reg, reached)) = namespace(lib, t, scan, cx, borrowers, fn_names, vecs) {
            out.methods.extend(reached);
            out.built.push(t.public_path.join("::"));
            out.types.push(reg);
        }
    }
    out
}

/// Whether `t` has a lifetime parameter.
fn borrows(t: &FoundType) -> bool {
    t.generics
        .params
        .iter()
        .any(|p| matches!(p, GenericParam::Lifetime(_)))
}

/// Whether an impl of `t` bounds one of its type parameters as a reader (`impl<R: BufRead>
/// Reader<R>`): built from a program's text (`Reader::from_str(&s)`), such a type is a
/// parser over it, consumed in one statement as a borrowing type is.
fn reads_input(t: &FoundType) -> bool {
    let params: Vec<String> = param_names(&t.generics).collect();
    t.impls.iter().any(|i| {
        i.generics.params.iter().any(|p| {
            matches!(p, GenericParam::Type(tp)
                if params.contains(&tp.ident.to_string())
                    && super::readers::reads_bytes(&trait_names(&tp.bounds)))
        })
    })
}

/// The namespace of borrowing type `t`, if a constructor builds it.
fn namespace(
    lib: &str,
    t: &FoundType,
    scan: &Scan,
    cx: &Ctx<'_>,
    borrowers: Borrowers<'_>,
    fn_names: &mut HashMap<String, usize>,
    vecs: &mut BTreeSet<String>,
) -> Option<(TypeReg, Vec<(String, String)>)> {
    let mut subst = instantiate(
        &t.generics,
        t.impls.iter().map(|i| &i.generics),
        true,
        &HashMap::new(),
        cx.arrays,
        cx.int_traits,
    )
    .ok()?;
    super::borrowed_impl_fixed::fix_unbounded(t, cx.regs, &mut subst);
    let path = t.public_path.join("::");
    // Called by path, with the type arguments the instantiation chose (lifetimes inferred).
    let args: Vec<String> = param_names(&t.generics)
        .filter_map(|p| subst.get(&p).cloned())
        .filter(|a| a != OMITTED)
        .collect();
    let turbofish = if args.is_empty() {
        String::new()
    } else {
        format!("::<{}>", args.join(","))
    };
    let rust_path = format!("{lib}::{path}{turbofish}");
    let ncx = Ctx {
        ty_ident: super::free::NAMESPACE_RUST,
        self_name: &path,
        self_rust: super::free::NAMESPACE_RUST,
        module: &t.module,
        subst: &subst,
        ..*cx
    };
    // Its own methods are resolved as a chain's second call is (see `chain`): `Self` is
    // the borrowing type, whose results are never kept.
    let no_self = String::new();
    let no_table = super::class_reader::TypeClasses::default();
    let bcx = Ctx {
        ty_ident: &t.ident,
        self_name: &no_self,
        self_rust: &t.ident,
        module: &t.module,
        subst: &subst,
        table: &no_table,
        ..*cx
    };
    let iterator = scan.iterators.contains(&t.ident);
    let mut reg = TypeReg {
        fn_name: super::syntax::unique_fn_name(
            &format!("built_{}", path.replace("::", "_").to_lowercase()),
            fn_names,
        ),
        ident: super::free::NAMESPACE_RUST.into(),
        rust: super::free::NAMESPACE_RUST.into(),
        import: None,
        traits: Vec::new(),
        name: Some(path.clone()),
        path: path.clone(),
        doc: format!("`{lib}::{path}`, built from program values and consumed in one call"),
        size_method: None,
        ctors: vec![Func::ctor("new", Vec::new(), None)],
        methods: Vec::new(),
        skipped: Vec::new(),
        skipped_not_methods: 0,
        free: Some(rust_path),
        borrowed_input: true,
    };
    let mut reached = Vec::new();
    // What the chains through the type's methods reached past them (see `handed_out`).
    let mut seen = Seen::default();
    for imp in &t.impls {
        for item in &imp.items {
            let ImplItem::Fn(f) = item else { continue };
            if !is_pub(&f.vis) || f.sig.receiver().is_some() {
                continue;
            }
            let mut sig = f.sig.clone();
            sig.inputs.insert(0, syn::parse_quote!(&self));
            let Some(fallible) = builds(&f.sig.output, &t.ident) else {
                // Another function of the type returning an iterator
                // (`BytesCData::escaped(&str) -> CDataIterator`): measured consumed, as
                // the resolver consumes any returned iterator.
                if let Ok(func) = ncx.func(&sig, &f.attrs, vecs) {
                    if func.suffix.is_some() {
                        reg.methods.push(func);
                    }
                }
                continue;
            };
            // Read as a free function taking `&self` and returning nothing: what follows
            // the call is this file's.
            sig.output = ReturnType::Default;
            let ctor_name = f.sig.ident.to_string();
            let first = match ncx.func(&sig, &f.attrs, vecs) {
                Ok(first) => first,
                Err(why) => {
                    reg.skipped.push((format!("{path}::{ctor_name}"), why));
                    continue;
                }
            };
            if iterator {
                // Consumed item by item, each kept from the optimizer; a failure to build
                // it is an empty stream.
                let mut consumed = first.clone();
                let built = if fallible {
                    ".into_iter().flatten()"
                } else {
                    ""
                };
                consumed.suffix = Some(format!("{built}.map(std::hint::black_box).count()"));
                reg.methods.push(consumed);
            }
            let on = On {
                borrowers,
                seen: &mut seen,
            };
            chained(&bcx, t, &first, fallible, on, &mut reg, &mut reached, vecs);
        }
    }
    (!reg.methods.is_empty()).then_some((reg, reached))
}

/// What the chains of a namespace go on through: the crate's borrowing types, and what the
/// namespace's chains already reached.
struct On<'a, 'b> {
    borrowers: Borrowers<'a>,
    seen: &'b mut Seen,
}

/// Registers on `reg` each public method of `t` called on what constructor `first` built,
/// and the methods of what each of those hands out in turn (see `handed_out`).
#[allow(clippy::too_many_arguments)]
fn chained(
    bcx: &Ctx<'_>,
    t: &FoundType,
    first: &Func,
    fallible: bool,
    on: On<'_, '_>,
    reg: &mut TypeReg,
    reached: &mut Vec<(String, String)>,
    vecs: &mut BTreeSet<String>,
) {
    let path = t.public_path.join("::");
    for imp in &t.impls {
        for item in &imp.items {
            let ImplItem::Fn(f) = item else { continue };
            if !is_pub(&f.vis) || f.sig.receiver().is_none() {
                continue;
            }
            let method = f.sig.ident.to_string();
            let second = match bcx.func(&f.sig, &f.attrs, vecs) {
                Ok(second) => second,
                Err(why) => {
                    reg.skipped.push((
                        format!("{path}::{method}"),
                        SkipReason::ReachedThrough {
                            through: format!("`{}`", first.name),
                            why: Box::new(why),
                        },
                    ));
                    continue;
                }
            };
            // A pull method: called until the text's end, each item handed on (see `pulled`).
            let mutable = second.receiver == Some(super::registrations::Receiver::By(Mode::Mut));
            if let Some((item, bound)) = pulled(&f.sig, mutable, first) {
                let taken: Vec<&String> = first.params.iter().map(|p| &p.name).collect();
                let mut params = first.params.clone();
                let n_second = second.params.len();
                let mut buffer = false;
                for mut p in second.params {
                    if is_buffer(&p) {
                        buffer = true;
                        p.kind = ParamKind::Closure {
                            value: None,
                            code: Code {
                                rust: format!("&mut {PULL_BUFFER}"),
                                shown: format!("&mut {PULL_BUFFER}"),
                            },
                        };
                    }
                    let clash = p.names().iter().any(|q| taken.contains(&q));
                    params.push(if clash { p.renamed("then_") } else { p });
                }
                let mut chain = Chain::then(first, Vec::new(), &method, n_second);
                if let Some(last) = chain.calls.last_mut() {
                    last.pull = Some(bound);
                    last.buffer = buffer;
                }
                let func = Func {
                    name: format!("{}_{method}", first.name),
                    receiver: first.receiver,
                    params,
                    ret: None,
                    expected: None,
                    suffix: second.suffix,
                    chain: Some(chain),
                    kept: false,
                    call: None,
                };
                reached.push((path.clone(), method.clone()));
                reg.methods.push(func.clone());
                // The items it hands out are many, as an iterator's (one per pull).
                let mut further = Chains::default();
                handed_on(
                    bcx,
                    &t.module,
                    &func,
                    item,
                    on.borrowers,
                    &Route::built(&t.ident),
                    on.seen,
                    vecs,
                    &mut further,
                );
                reached.extend(further.reached);
                reg.skipped_not_methods += further.skipped.len();
                reg.skipped.extend(further.skipped);
                reg.methods.extend(further.methods);
                continue;
            }
            let n_second = second.params.len();
            let taken: Vec<&String> = first.params.iter().map(|p| &p.name).collect();
            let mut params = first.params.clone();
            for p in second.params {
                let clash = p.names().iter().any(|q| taken.contains(&q));
                params.push(if clash { p.renamed("then_") } else { p });
            }
            reached.push((path.clone(), method.clone()));
            reg.methods.push(Func {
                name: format!("{}_{method}", first.name),
                receiver: first.receiver,
                params,
                // Kept only when surely there (see `Via::Fallible`).
                ret: if fallible { None } else { second.ret },
                // The call includes the build (a parse of the text): the method's own
                // class is not the call's (see `Route::built`).
                expected: None,
                suffix: second.suffix,
                chain: Some(Chain::then(
                    first,
                    vec![if fallible { Via::Fallible } else { Via::Direct }],
                    &method,
                    n_second,
                )),
                kept: false,
                call: None,
            });
            // The values it hands out: a document's nodes, and theirs.
            if let (ReturnType::Type(_, ret), Some(func)) = (&f.sig.output, reg.methods.last()) {
                let mut further = Chains::default();
                let route = Route::built(&t.ident);
                let func = func.clone();
                handed_on(
                    bcx,
                    &t.module,
                    &func,
                    ret,
                    on.borrowers,
                    &route,
                    on.seen,
                    vecs,
                    &mut further,
                );
                reached.extend(further.reached);
                reg.skipped_not_methods += further.skipped.len();
                reg.skipped.extend(further.skipped);
                reg.methods.extend(further.methods);
            }
        }
    }
}

/// Whether a function returning `out` builds a value of `ident`: `Some(false)` for `Self`
/// or the type itself, `Some(true)` for a `Result` or `Option` of it (fallible), `None` for
/// a function that builds something else.
fn builds(out: &ReturnType, ident: &str) -> Option<bool> {
    let ReturnType::Type(_, t) = out else {
        return None;
    };
    let is_it = |t: &Type| match t {
        Type::Path(p) => p
            .path
            .segments
            .last()
            .is_some_and(|s| s.ident == "Self" || s.ident == ident),
        _ => false,
    };
    if is_it(t) {
        return Some(false);
    }
    let Type::Path(p) = &**t else { return None };
    let seg = p.path.segments.last()?;
    if !["Result", "Option"].contains(&seg.ident.to_string().as_str()) {
        return None;
    }
    let syn::PathArguments::AngleBracketed(a) = &seg.arguments else {
        return None;
    };
    match a.args.first()? {
        syn::GenericArgument::Type(inner) if is_it(inner) => Some(true),
        _ => None,
    }
}

/// Of a pull method (`fn read_event(&mut self) -> Result<Event<'a>>`: `&mut self`, an item
/// per call in a `Result` or an `Option`) called on what constructor `first` builds from
/// text (`mutable`: its receiver is `&mut self`), the item's type and the index of that text among `first`'s parameters, whose
/// length bounds the pulls (see `Hop::pull`). No end variant is looked for: a reader that
/// answers `Ok(Eof)` again and again is stopped by the bound, which a parser reading one
/// item per byte at most never reaches early, whatever its end item is called.
fn pulled<'s>(sig: &'s syn::Signature, mutable: bool, first: &Func) -> Option<(&'s Type, usize)> {
    use super::model_ty::ModelTy;
    let ReturnType::Type(_, out) = &sig.output else {
        return None;
    };
    let item = super::resolve::first_arg_of(out, &["Result", "Option"])?;
    if !mutable || matches!(item, Type::Tuple(t) if t.elems.is_empty()) {
        return None;
    }
    let bound = first.params.iter().position(|p| match &p.kind {
        ParamKind::Bytes { .. } => true,
        ParamKind::Plain { value, .. } => value.ty == ModelTy::String,
        _ => false,
    })?;
    Some((item, bound))
}

/// Whether `p` is a pull method's buffer, a `&mut Vec<u8>` (see `Hop::buffer`).
fn is_buffer(p: &super::registrations::Param) -> bool {
    use super::model_ty::ModelTy;
    matches!(&p.kind, ParamKind::Plain { value, cast: None }
        if value.mode == Mode::Mut && value.ty == ModelTy::Vec(Box::new(ModelTy::Prim("u8"))))
}
