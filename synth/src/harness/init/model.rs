//! Decides what of a scanned API the program model can drive: which types register (at
//! which instantiation), which constructors and methods, with which passing modes, and why
//! everything else is skipped. The output is plain data that `gen` prints.

use std::collections::{BTreeSet, HashMap, HashSet};

use quote::ToTokens;
use syn::{FnArg, GenericParam, ImplItem, ReturnType, Type, TypeParamBound};

use super::closures::{closure, closure_bound, Returns, Shape};
use super::compound::{array, range, ARRAY_LEN};
use super::registrations::{
    tuple_elements, Func, Model, Param, TypeReg, STRUCT_LITERAL, TUPLE_LITERAL, UNIT_VARIANT,
};
use super::scan::{documented_class, ident_counts, is_pub, FoundType, Scan};
use super::sequence::{sequence, sequence_bound};
use super::syntax::{projection, readable, trait_names, unique_fn_name};
use super::value_traits::{
    integers_meet, KEY_TRAITS, MODEL_INTS, STRING_LIKE, STRING_TRAITS, U64_TRAITS,
};

/// The instantiation of a trailing type parameter left to its declared default, which the
/// harness cannot name (hashbrown's `A: Allocator = Global`, a private re-export): the
/// registration omits it, so the compiler supplies the default.
pub(super) const OMITTED: &str = "_";

/// The variant of constructor `c` whose sequence of elements (`build(buf: Vec<N>, op)`,
/// `from_slice(&[T])`) is filled with `0..n`, `n` a program value: segment-tree's trees are
/// built only from a vector and never grow after, and mutations insert statements after the
/// receiver's definition, so the vector a constructor consumes stayed empty and every sweep
/// stayed at size 0. An integer the sweep scales sizes the input instead (`build_filled(n,
/// op)` calls `build((0..n as u64).collect::<Vec<u64>>(), op)`). `None` when no parameter
/// is such a sequence.
fn filled(c: &Func) -> Option<Func> {
    let k = c.params.iter().position(|p| {
        p.more.is_empty()
            && p.cast.is_none()
            && fill_item(&sequence_element(p).unwrap_or_default()).is_some()
    })?;
    let p = &c.params[k];
    let elem = sequence_element(p)?;
    let item = fill_item(&elem)?;
    let map = if elem == "u64" {
        String::new()
    } else {
        format!(".map(|i| {item})")
    };
    let fill = |n: &str| format!("(0..{n} as u64){map}.collect::<Vec<{elem}>>()");
    let (code, shown) = (fill(&p.name), fill(&format!("{{{}}}", p.name)));
    let (code, shown) = match (&p.expr, p.mode) {
        (Some((e, t)), _) => {
            let tail = e.strip_prefix(&p.name)?;
            let shown_tail = t.strip_prefix(&format!("{{{}}}", p.name))?;
            (format!("{code}{tail}"), format!("{shown}{shown_tail}"))
        }
        (None, "slice") => (format!("&{code}"), format!("&{shown}")),
        (None, _) => (code, shown),
    };
    let mut params = c.params.clone();
    params[k] = Param {
        name: p.name.clone(),
        mode: "copy",
        ty: "usize".into(),
        cast: None,
        expr: Some((code, shown)),
        dsl: true,
        more: Vec::new(),
    };
    Some(Func {
        name: format!("{}_filled", c.name),
        params,
        call: Some(c.call.clone().unwrap_or_else(|| c.name.clone())),
        ..c.clone()
    })
}

/// The variant of method `f` whose first string parameter is a program integer written out
/// (`insert_numbered(key: u64, ..)` calls `insert(key.to_string(), ..)`), when `f` takes
/// `&mut self` and a string. A loop repeats a string literal, and only the loop index
/// varies: patricia_tree's maps, keyed by strings, held at most four keys in every program
/// (sizes 0..3, no class measured for `len`, `iter`, `clear`), where a loop of the variant
/// inserts a distinct key per iteration. Both stay registered: the string itself grows by
/// appending (see `gen`'s `String` registration), which measures a key's length.
fn numbered(f: &Func) -> Option<Func> {
    if f.receiver != Some("mut") || f.chain.is_some() || f.call.is_some() {
        return None;
    }
    let k = f.params.iter().position(|p| {
        p.ty == "String"
            && p.dsl
            && p.expr.is_none()
            && p.cast.is_none()
            && p.more.is_empty()
            && matches!(p.mode, "val" | "str")
    })?;
    let p = &f.params[k];
    let borrow = if p.mode == "str" { "&" } else { "" };
    let mut params = f.params.clone();
    params[k] = Param {
        name: p.name.clone(),
        mode: "copy",
        ty: "u64".into(),
        cast: None,
        expr: Some((
            format!("{borrow}{}.to_string()", p.name),
            format!("{borrow}{{{}}}.to_string()", p.name),
        )),
        dsl: true,
        more: Vec::new(),
    };
    Some(Func {
        name: format!("{}_numbered", f.name),
        params,
        call: Some(f.name.clone()),
        ..f.clone()
    })
}

/// The element type of a sequence parameter: `Vec<E>` taken by value, or `&[E]`.
fn sequence_element(p: &Param) -> Option<String> {
    match p.mode {
        "val" => {
            p.ty.strip_prefix("Vec<")
                .and_then(|t| t.strip_suffix('>'))
                .map(str::to_string)
        }
        "slice" => Some(p.ty.clone()),
        _ => None,
    }
}

/// The `i`-th element of a filled sequence of `elem`s (`i` a `u64`), for the elements a
/// program builds.
fn fill_item(elem: &str) -> Option<String> {
    match elem {
        "Key" => Some("Key::new(i)".into()),
        "String" => Some("i.to_string()".into()),
        e if MODEL_INTS.contains(&e) => Some(format!("i as {e}")),
        _ => None,
    }
}

/// Builds the model of crate `lib` (its library name, underscores) from `scan`.
pub fn build(lib: &str, scan: &Scan) -> Model {
    // A type's constructors may take the crate's other types, so whether a type registers
    // depends on the others: the first pass assumes every instantiable type registers, the
    // second keeps only those the first gave a constructor.
    let first = build_with(lib, scan, None, &HashSet::new());
    let mut registered: HashSet<String> = first.types.iter().map(|t| t.ident.clone()).collect();
    let handles = handles(scan, &first);
    registered.extend(handles.iter().cloned());
    build_with(lib, scan, Some(&registered), &handles)
}

/// Handle types: public owned types without a constructor that a registered type's method
/// returns by value (thunderdome's `Index` from `Arena::insert`, dlv-list's `Index<T>` from
/// `push_back`). They register without constructors, so that the methods taking them
/// register too; a program gets one from a call that returns it (see `mutate::obtain`).
/// Iterators are not handles: a method returning one consumes it.
fn handles(scan: &Scan, first: &Model) -> HashSet<String> {
    let returned: HashSet<&str> = first
        .types
        .iter()
        .flat_map(|t| &t.methods)
        .filter(|m| m.chain.is_none())
        .filter_map(|m| m.ret.as_deref())
        .collect();
    first
        .no_ctor
        .iter()
        .filter(|(ident, name)| {
            returned.contains(name.as_str())
                && !scan.iterators.contains(ident)
                && scan.types.iter().any(|t| {
                    t.ident == *ident
                        && !t
                            .generics
                            .params
                            .iter()
                            .any(|p| matches!(p, GenericParam::Lifetime(_)))
                })
        })
        .map(|(ident, _)| ident.clone())
        .collect()
}

fn build_with(
    lib: &str,
    scan: &Scan,
    registered: Option<&HashSet<String>>,
    handles: &HashSet<String>,
) -> Model {
    let counts = ident_counts(&scan.types);
    let mut model = Model::default();
    // Which types register and at which instantiation, so that parameters and results of
    // the crate's own types can refer to them.
    let mut regs: HashMap<String, (String, String)> = HashMap::new();
    let mut regs_in: RegsIn = HashMap::new();
    #[allow(clippy::type_complexity)]
    let mut chosen: Vec<(
        &FoundType,
        HashMap<String, String>,
        String,
        Option<String>,
        String,
        bool,
        Option<&FoundType>,
    )> = Vec::new();
    let named = default_paths(lib, scan);
    for t in scan.types.iter().filter(|t| t.reachable) {
        let (subst, alias) = match instantiate(
            &t.generics,
            t.impls.iter().map(|i| &i.generics),
            false,
            &named,
            &scan.array_traits,
            &scan.int_traits,
        ) {
            Ok(mut s) => {
                instantiate_free(t, scan, &mut s);
                (s, None)
            }
            Err(reason) => match through_alias(t, scan, &named) {
                Some((s, a)) => (s, Some(a)),
                None => {
                    model.unregistered_methods += method_count(t);
                    model.skipped_types.push((t.public_path.join("::"), reason));
                    continue;
                }
            },
        };
        let args: Vec<String> = param_names(&t.generics)
            .filter_map(|p| subst.get(&p).cloned())
            .filter(|a| a != OMITTED)
            .collect();
        let generic = if args.is_empty() {
            String::new()
        } else {
            format!("<{}>", args.join(","))
        };
        let named_by = alias.as_ref().map_or(t, |(a, _)| *a);
        let generic = match &alias {
            Some((_, g)) => g.clone(),
            None => generic,
        };
        let duplicate = alias.is_none() && counts.get(&t.ident).copied().unwrap_or(0) > 1;
        let full = std::iter::once(lib.to_string())
            .chain(named_by.public_path.iter().cloned())
            .collect::<Vec<_>>()
            .join("::");
        // A `pub use ... as Alias` names the type by its alias.
        let shown = named_by
            .public_path
            .last()
            .cloned()
            .unwrap_or(named_by.ident.clone());
        let (rust, import, name) = if duplicate {
            let rel = t.public_path.join("::");
            (
                format!("{full}{generic}"),
                None,
                Some(format!("{rel}{generic}")),
            )
        } else {
            (format!("{shown}{generic}"), Some(full), None)
        };
        let registry_name = name.clone().unwrap_or(rust.clone());
        let registers = registered.is_none_or(|r| r.contains(&t.ident));
        if registers {
            // Keyed by identifier, as parameter types name them; two types of one name are
            // both registered under module-qualified names, which a parameter names only
            // when written in the module that defines one of them (`regs_in`).
            regs.insert(t.ident.clone(), (registry_name.clone(), rust.clone()));
            regs_in.insert(
                (t.module.clone(), t.ident.clone()),
                (registry_name.clone(), rust.clone()),
            );
        }
        chosen.push((
            t,
            subst,
            rust,
            import,
            registry_name,
            registers,
            alias.map(|(a, _)| a),
        ));
    }
    // Registry names of the crate's `Copy` types: passed as `copy`, they are not moved.
    let copies: HashSet<String> = chosen
        .iter()
        .filter(|c| c.0.copy && c.5)
        .map(|c| c.4.clone())
        .collect();
    let mut fn_names: HashMap<String, usize> = HashMap::new();
    let no_closures = HashMap::new();
    let prim_aliases = primitive_aliases(scan);
    // Borrowing types (a lifetime parameter), exported or not, and public types without a
    // constructor (`indexmap::map::Slice`, reached by `as_slice()`): not registered, but
    // their methods are reached through the methods that return them.
    let mut borrowers: HashMap<String, Vec<&FoundType>> = HashMap::new();
    for t in scan.types.iter().filter(|t| {
        t.generics
            .params
            .iter()
            .any(|p| matches!(p, GenericParam::Lifetime(_)))
            || (t.reachable && registered.is_some_and(|r| !r.contains(&t.ident)))
    }) {
        borrowers.entry(t.ident.clone()).or_default().push(t);
    }
    // Enums whose variants hold borrowing types (`Entry::Occupied(OccupiedEntry)`), named by
    // a path the harness can write.
    let enums: super::chain::Enums = scan
        .types
        .iter()
        .filter(|t| t.reachable && !t.variants.is_empty())
        .map(|t| {
            let path = std::iter::once(lib.to_string())
                .chain(t.public_path.iter().cloned())
                .collect::<Vec<_>>()
                .join("::");
            (t.ident.clone(), (path, t.variants.clone()))
        })
        .collect();
    let mut chained: BTreeSet<(String, String)> = BTreeSet::new();
    // Types without a constructor whose methods no registration calls, until chains say
    // otherwise: (index in `skipped_types`, public path, its methods).
    let mut unreachable: Vec<(usize, String, usize)> = Vec::new();
    let crate_table = super::scan::table_classes(&scan.crate_doc);
    let crate_sentences = super::sentences::sentence_classes(&scan.crate_doc);
    for (t, subst, rust, import, registry_name, registers, alias) in chosen {
        let duplicate = alias.is_none() && counts.get(&t.ident).copied().unwrap_or(0) > 1;
        let named_by = alias.unwrap_or(t);
        let path = if duplicate {
            t.public_path.join("::")
        } else {
            named_by
                .public_path
                .last()
                .cloned()
                .unwrap_or(named_by.ident.clone())
        };
        let mut reg = TypeReg {
            fn_name: unique_fn_name(&snake(&path), &mut fn_names),
            ident: t.ident.clone(),
            rust: rust.clone(),
            import,
            traits: t
                .traits
                .iter()
                .map(|p| {
                    std::iter::once(lib.to_string())
                        .chain(p.iter().cloned())
                        .collect::<Vec<_>>()
                        .join("::")
                })
                .collect(),
            name: duplicate.then(|| registry_name.clone()),
            path: path.clone(),
            doc: if named_by.doc.is_empty() {
                t.doc.clone()
            } else {
                named_by.doc.clone()
            },
            size_method: None,
            ctors: Vec::new(),
            methods: Vec::new(),
            skipped: Vec::new(),
            skipped_not_methods: 0,
            free: None,
        };
        let mut table = super::scan::table_classes(&named_by.doc);
        for (m, c) in super::scan::table_classes(&t.doc)
            .into_iter()
            .chain(crate_table.clone())
            .chain(super::sentences::sentence_classes(&named_by.doc))
            .chain(super::sentences::sentence_classes(&t.doc))
            .chain(crate_sentences.clone())
        {
            table.entry(m).or_insert(c);
        }
        let cx = Ctx {
            ty_ident: &t.ident,
            self_name: &registry_name,
            self_rust: &rust,
            module: &t.module,
            subst: &subst,
            regs: &regs,
            regs_in: &regs_in,
            copies: &copies,
            iterators: &scan.iterators,
            closures: &no_closures,
            arrays: &scan.array_traits,
            int_traits: &scan.int_traits,
            table: &table,
            prim_aliases: &prim_aliases,
        };
        // `impl Default` for another instantiation only (string-interner's
        // `impl Default for StringInterner<DefaultBackend>` fixes the hasher the harness
        // replaces): not a constructor here; the compiler rejected it, at the cost of a build.
        let default_elsewhere = t
            .default_impls
            .iter()
            .map(|i| other_instantiation(&t.generics, &subst, i))
            .collect::<Option<Vec<String>>>()
            .and_then(|shown| shown.into_iter().next());
        if let (false, true, Some(shown)) =
            (t.derives_default, t.implements_default, &default_elsewhere)
        {
            reg.skipped.push((
                format!("{path}::default"),
                format!(
                    "`Default` is implemented only for `{shown}` (it fixes a parameter, e.g. a default hasher, that the harness instantiates otherwise: `{rust}`)"
                ),
            ));
        }
        if t.derives_default || (t.implements_default && default_elsewhere.is_none()) {
            reg.ctors.push(Func::ctor("default", Vec::new(), None));
        }
        for v in &t.unit_variants {
            reg.ctors
                .push(Func::ctor(v, Vec::new(), Some(UNIT_VARIANT)));
        }
        // The type it derefs to has its methods registered directly: chains through methods
        // returning it (circular-buffer's `as_mut_circular_buffer`, `leak`) would repeat
        // each of them.
        let mut own_borrowers = borrowers.clone();
        if let Some(x) = &t.deref_target {
            own_borrowers.remove(x);
        }
        // Names registered (the first impl that registers one wins), and names an impl
        // failed on (whether that one was not a method).
        let mut seen: HashSet<String> = HashSet::new();
        let mut failed: HashMap<String, bool> = HashMap::new();
        // Methods of borrowing types this type's chains reach (counted if it registers).
        let mut reached: Vec<(String, String)> = Vec::new();
        let fixed = FixedParams::of(t, &subst, alias, scan);
        for imp in &t.impls {
            let other_instance = other_instantiation(&t.generics, &subst, imp);
            for item in &imp.items {
                let ImplItem::Fn(f) = item else { continue };
                if !is_pub(&f.vis) {
                    continue;
                }
                let f = &fixed.apply(f);
                let name = f.sig.ident.to_string();
                let spec = format!("{path}::{name}");
                if (name == "default" && reg.ctors.iter().any(|c| c.name == "default"))
                    || seen.contains(&name)
                {
                    continue;
                }
                // A name another impl already failed on: this one may register (petgraph's
                // `Build::add_node(Self::NodeWeight)` came before the inherent
                // `add_node(N)`, and `Graph::add_node` was skipped). Its skip line goes once
                // this one registers, and stays single when it fails too.
                let failed_before = failed.get(&name).copied();
                if let Some(not_method) = failed_before {
                    reg.skipped.retain(|(s, _)| *s != spec);
                    if not_method {
                        reg.skipped_not_methods -= 1;
                    }
                }
                if f.sig.receiver().is_none() {
                    reg.skipped_not_methods += 1;
                }
                let func = match &other_instance {
                    Some(shown) => Err(format!(
                        "defined only for `{shown}` (its impl block fixes a parameter, e.g. a default hasher, that the harness instantiates otherwise: `{rust}`)"
                    )),
                    None => cx.func(&f.sig, &f.attrs, &mut model.vecs),
                };
                if func.is_ok() && f.sig.receiver().is_none() {
                    reg.skipped_not_methods -= 1;
                }
                let registered_now = matches!(&func, Ok(func) if func.receiver != Some("box"));
                if registered_now {
                    seen.insert(name.clone());
                } else {
                    failed.insert(name.clone(), f.sig.receiver().is_none());
                }
                match func {
                    Ok(func) if func.receiver.is_none() => {
                        let filled = filled(&func)
                            .filter(|f| !reg.ctors.iter().any(|c| c.name == f.name));
                        reg.ctors.push(func);
                        reg.ctors.extend(filled);
                    }
                    Ok(func) if func.receiver == Some("box") => reg.skipped.push((
                        spec,
                        "a `self: Box<Self>` receiver: program variables hold values, not boxes (methods returning a Box reach it)".into(),
                    )),
                    Ok(func) => {
                        if let Some(r) = size_rank(&func) {
                            let current = reg.size_method.as_deref().and_then(size_rank_of);
                            if current.is_none_or(|c| r < c) {
                                reg.size_method = Some(func.name.clone());
                            }
                        }
                        if let ReturnType::Type(_, ret) = &f.sig.output {
                            let ch = super::chain::chains(
                                &cx,
                                &t.module,
                                &func,
                                ret,
                                &own_borrowers,
                                &enums,
                                &mut model.vecs,
                            );
                            reached.extend(ch.reached);
                            for tr in ch.traits {
                                let tr = std::iter::once(lib.to_string())
                                    .chain(tr)
                                    .collect::<Vec<_>>()
                                    .join("::");
                                if !reg.traits.contains(&tr) {
                                    reg.traits.push(tr);
                                }
                            }
                            reg.skipped_not_methods += ch.skipped.len();
                            reg.skipped.extend(ch.skipped);
                            reg.methods.extend(ch.methods);
                        }
                        let numbered = numbered(&func);
                        reg.methods.push(func);
                        reg.methods.extend(numbered);
                    }
                    Err(reason) => reg.skipped.push((spec, reason)),
                }
            }
        }
        // Plain data without a constructor (`pub struct Edge { pub from: usize, .. }`): a
        // struct literal of its public fields, when the model can supply every one.
        if reg.ctors.is_empty() {
            if let Some(fields) = &t.literal_fields {
                let params: Result<Vec<Param>, String> = fields
                    .iter()
                    .enumerate()
                    .map(|(i, (name, ty))| {
                        let name = name.clone().unwrap_or_else(|| format!("f{i}"));
                        cx.param(&name, ty, &mut model.vecs)
                    })
                    .collect();
                let tuple = fields.iter().all(|(name, _)| name.is_none());
                if let Ok(params) = params {
                    let name = if tuple { TUPLE_LITERAL } else { "literal" };
                    reg.ctors
                        .push(Func::ctor(name, params, Some(STRUCT_LITERAL)));
                }
            }
        }
        // An iterator built only by `Default` is always empty (indexmap's `IntoIter`): its
        // registration would drive nothing, and a registered type returned by a method is
        // kept as a variable instead of consumed. Left unregistered, methods returning it
        // consume it, and its own methods are reached through them.
        let empty_iterator = scan.iterators.contains(&t.ident)
            && reg.ctors.len() == 1
            && reg.ctors[0].name == "default"
            && reg.ctors[0].params.is_empty();
        if empty_iterator {
            reg.ctors.clear();
        }
        // p0 starts from the first constructor: one taking no program values builds an
        // instance no value bounds (lru's `unbounded_with_hasher`, not `with_hasher(cap)`, whose
        // capacity the sweep does not grow and whose cache then never holds more than `cap`).
        reg.ctors.sort_by_key(|c| {
            c.params
                .iter()
                .flat_map(|p| std::iter::once(p).chain(&p.more))
                .filter(|p| p.dsl)
                .count()
        });
        if handles.contains(&t.ident) && reg.ctors.is_empty() {
            reg.doc = handle_doc(&reg.doc);
            chained.extend(reached);
            model.types.push(reg);
            continue;
        }
        if reg.ctors.is_empty() && registers {
            model.no_ctor.push((t.ident.clone(), registry_name.clone()));
        }
        if reg.ctors.is_empty() || !registers {
            // Its own methods: methods of other types it chains to are counted with those.
            let own = reg.methods.iter().filter(|m| m.chain.is_none()).count();
            let methods = own + reg.skipped.len() - reg.skipped_not_methods;
            // A type others deref to (circular-buffer's `CircularBuffer`): its methods are
            // theirs, registered and counted there.
            let derefers: Vec<String> = scan
                .types
                .iter()
                .filter(|y| {
                    y.reachable
                        && y.deref_target.as_deref() == Some(t.ident.as_str())
                        && registered.is_none_or(|r| r.contains(&y.ident))
                })
                .map(|y| y.public_path.join("::"))
                .collect();
            if !derefers.is_empty() {
                model.skipped_types.push((
                    path.clone(),
                    format!(
                        "no public constructor; its methods are registered on {}, which deref to it",
                        derefers.join(", ")
                    ),
                ));
                continue;
            }
            model.unregistered_methods += methods;
            let why = if empty_iterator {
                "an iterator whose only constructor (Default) yields an empty one; methods returning it consume it or chain to its methods".to_string()
            } else {
                "no public constructor the program model can call (new, with_capacity, Default, or a function returning Self with buildable parameters)".to_string()
            };
            if methods > 0 && !empty_iterator {
                // The count waits for every type's chains (see `unreachable` below).
                unreachable.push((model.skipped_types.len(), t.public_path.join("::"), methods));
            }
            model.skipped_types.push((path.clone(), why));
            continue;
        }
        chained.extend(reached);
        model.types.push(reg);
    }
    // Free functions, one namespace per module, taking the crate's registered types.
    let mut crate_classes = crate_table.clone();
    for (m, c) in crate_sentences {
        crate_classes.entry(m).or_insert(c);
    }
    let free_cx = Ctx {
        ty_ident: super::free::NAMESPACE_RUST,
        self_name: super::free::ROOT,
        self_rust: super::free::NAMESPACE_RUST,
        module: &[],
        subst: &HashMap::new(),
        regs: &regs,
        regs_in: &regs_in,
        copies: &copies,
        iterators: &scan.iterators,
        closures: &no_closures,
        arrays: &scan.array_traits,
        int_traits: &scan.int_traits,
        table: &crate_classes,
        prim_aliases: &prim_aliases,
    };
    let (namespaces, skipped_fns) = super::free::namespaces(
        lib,
        &scan.free_fns,
        &free_cx,
        &mut fn_names,
        &mut model.vecs,
    );
    model.types.extend(namespaces);
    model.skipped_fns = skipped_fns;
    // A type without a constructor whose methods chains reach (indexmap's `map::Slice`,
    // through `as_slice()`): those are not unreachable ("its 33 methods are unreachable"
    // where 33 were registered through `as_slice` and `as_mut_slice`).
    for (k, public, methods) in unreachable {
        let reached: BTreeSet<&String> = chained
            .iter()
            .filter(|(p, _)| *p == public)
            .map(|(_, m)| m)
            .collect();
        let left = methods.saturating_sub(reached.len());
        let why = &mut model.skipped_types[k].1;
        if left > 0 {
            why.push_str(&format!("; its {left} methods are unreachable"));
        }
        if !reached.is_empty() {
            why.push_str(&format!(
                "; {} of its methods are reached through the methods returning it",
                reached.len()
            ));
        }
    }
    // Methods reached through a chain are registered, not unreachable.
    model.unregistered_methods -= chained.len().min(model.unregistered_methods);
    model.chained = chained.len();
    model
}

/// A handle type's doc line says where its values come from.
fn handle_doc(doc: &str) -> String {
    let note = "(no constructor: programs get it from a method returning it)";
    if doc.is_empty() {
        note.to_string()
    } else {
        format!("{doc} {note}")
    }
}

/// A public alias that fills what init cannot (stable-vec's `pub type StableVec<T> =
/// StableVecFacade<T, DefaultCore<T>>`, whose `C: Core<T>` no key or integer implements):
/// the type registers under the alias's name, the alias's parameters instantiated as a type's
/// are. The type's own parameters are the alias's arguments: one naming an alias parameter
/// takes its instantiation, any other is fixed by the alias and is not a program value.
/// `(subst, the alias's generic arguments)` and the alias; `None` when no alias fits.
/// A const parameter no field mentions (a d-ary heap's arity, a branching factor, see
/// `FoundType::free_consts`) and without a declared default gets the value of the crate's
/// first public alias that fixes it (dary_heap's `pub type BinaryHeap<T> = DaryHeap<T, 2>`),
/// else [`FREE_CONST`], instead of the capacity `instantiate` gives a `usize` (8192): a
/// heap of arity 8192 is one level deep at every size a sweep reaches, and its `pop`, which
/// scans a node's children, was reported O(n) against the documented O(log n).
fn instantiate_free(t: &FoundType, scan: &Scan, subst: &mut HashMap<String, String>) {
    for c in &t.free_consts {
        let declared =
            t.generics.params.iter().any(
                |p| matches!(p, GenericParam::Const(k) if k.ident == c && k.default.is_some()),
            );
        if declared {
            continue;
        }
        let from_alias = scan
            .aliases
            .iter()
            .filter(|(a, _)| a.reachable)
            .find_map(|(_, target)| alias_const(t, target, c));
        subst.insert(
            c.clone(),
            from_alias.unwrap_or_else(|| FREE_CONST.to_string()),
        );
    }
}

/// The value of a const parameter that shapes behaviour when the crate names none: a small
/// constant, as the documented classes assume (arities and branching factors of 2 to 16).
const FREE_CONST: usize = 8;

/// The integer literal `target` (an alias's aliased type) gives `t`'s const parameter `c`,
/// if it names `t`.
fn alias_const(t: &FoundType, target: &Type, c: &str) -> Option<String> {
    let at = t
        .generics
        .params
        .iter()
        .filter(|p| !matches!(p, GenericParam::Lifetime(_)))
        .position(|p| matches!(p, GenericParam::Const(k) if k.ident == c))?;
    alias_args(t, target)?
        .into_iter()
        .nth(at)
        .filter(|a| a.parse::<u64>().is_ok())
}

/// The arguments `target` (an alias's aliased type) gives `t`'s parameters other than
/// lifetimes, as written, if it names `t`.
fn alias_args(t: &FoundType, target: &Type) -> Option<Vec<String>> {
    let Type::Path(tp) = target else { return None };
    let seg = tp.path.segments.last()?;
    if seg.ident != t.ident || tp.qself.is_some() {
        return None;
    }
    Some(match &seg.arguments {
        syn::PathArguments::AngleBracketed(x) => x
            .args
            .iter()
            .filter(|a| !matches!(a, syn::GenericArgument::Lifetime(_)))
            .map(|a| a.to_token_stream().to_string())
            .collect(),
        _ => Vec::new(),
    })
}

fn through_alias<'s>(
    t: &FoundType,
    scan: &'s Scan,
    named: &HashMap<String, String>,
) -> Option<(HashMap<String, String>, (&'s FoundType, String))> {
    scan.aliases
        .iter()
        .filter(|(a, _)| a.reachable)
        .find_map(|(a, target)| {
            let args = alias_args(t, target)?;
            let params: Vec<String> = param_names(&t.generics).collect();
            let bounded = alias_generics_bounded(&a.generics, t, &params, &args, &scan.types);
            let own = instantiate(
                &bounded,
                std::iter::empty(),
                false,
                named,
                &scan.array_traits,
                &scan.int_traits,
            )
            .ok()?;
            let mut subst = HashMap::new();
            for (k, p) in params.iter().enumerate() {
                let v = args
                    .get(k)
                    .and_then(|a| own.get(a.trim()))
                    .cloned()
                    .unwrap_or_else(|| OMITTED.to_string());
                subst.insert(p.clone(), v);
            }
            let shown: Vec<String> = param_names(&a.generics)
                .filter_map(|p| own.get(&p).cloned())
                .filter(|v| v != OMITTED)
                .collect();
            let generic = if shown.is_empty() {
                String::new()
            } else {
                format!("<{}>", shown.join(","))
            };
            Some((subst, (a, generic)))
        })
}

/// The alias's generics with the bounds of the type's parameters each alias parameter is
/// passed as (string-interner's `pub type DefaultStringInterner<B = DefaultBackend, H =
/// DefaultHashBuilder> = StringInterner<B, H>`): Rust does not check bounds on an alias, so
/// its parameters state none, and unbounded they would take the probe key where the type
/// needs `B: Backend` and `H: BuildHasher`. The bounds come from the type's declaration and
/// its impl blocks, which name its parameters as the type does (see [`instantiate`]).
fn alias_generics_bounded(
    alias: &syn::Generics,
    t: &FoundType,
    params: &[String],
    args: &[String],
    types: &[FoundType],
) -> syn::Generics {
    let mut out = alias.clone();
    let alias_params: HashSet<String> = alias.type_params().map(|p| p.ident.to_string()).collect();
    let mut preds: Vec<syn::WherePredicate> = Vec::new();
    for (param, arg) in params.iter().zip(args) {
        let Ok(arg_ty) = syn::parse_str::<Type>(arg.trim()) else {
            continue;
        };
        if alias_params.contains(arg.trim()) {
            preds.extend(param_bounds(t, param, &arg_ty));
        } else {
            nested_bounds(&arg_ty, types, &alias_params, &mut preds);
        }
    }
    out.make_where_clause().predicates.extend(preds);
    out
}

/// Bounds of alias parameters passed to another type of the crate inside an argument (ena's
/// `pub type UnificationTableStorage<K> = UnificationTable<InPlace<K, ..>>`, where
/// `InPlace<K: UnifyKey>`): without them `K` took the probe key, the harness did not
/// compile, and init failed as a whole.
fn nested_bounds(
    ty: &Type,
    types: &[FoundType],
    alias_params: &HashSet<String>,
    preds: &mut Vec<syn::WherePredicate>,
) {
    let Type::Path(tp) = ty else { return };
    let Some(seg) = tp.path.segments.last() else {
        return;
    };
    let syn::PathArguments::AngleBracketed(a) = &seg.arguments else {
        return;
    };
    let args: Vec<&syn::GenericArgument> = a
        .args
        .iter()
        .filter(|g| !matches!(g, syn::GenericArgument::Lifetime(_)))
        .collect();
    if let Some(x) = types.iter().find(|x| seg.ident == x.ident.as_str()) {
        let params = param_names(&x.generics);
        for (p, arg) in params.zip(&args) {
            if let syn::GenericArgument::Type(arg_ty) = arg {
                let name = arg_ty.to_token_stream().to_string();
                if alias_params.contains(&name) {
                    preds.extend(param_bounds(x, &p, arg_ty));
                }
            }
        }
    }
    for arg in args {
        if let syn::GenericArgument::Type(inner) = arg {
            nested_bounds(inner, types, alias_params, preds);
        }
    }
}

/// `arg_ty: B` for the bounds `B` of `t`'s parameter `param`, from its declaration and
/// each impl block, which name its parameters as the type does (see [`instantiate`]).
fn param_bounds(t: &FoundType, param: &str, arg_ty: &Type) -> Vec<syn::WherePredicate> {
    let mut preds = Vec::new();
    let gens = std::iter::once(&t.generics).chain(t.impls.iter().map(|i| &i.generics));
    for g in gens {
        let inline = g
            .type_params()
            .filter(|p| p.ident == param)
            .flat_map(|p| p.bounds.iter().cloned());
        let wheres = g
            .where_clause
            .iter()
            .flat_map(|w| w.predicates.iter())
            .filter_map(|pred| match pred {
                syn::WherePredicate::Type(pt)
                    if pt.bounded_ty.to_token_stream().to_string() == param =>
                {
                    Some(pt.bounds.iter().cloned())
                }
                _ => None,
            })
            .flatten();
        let bounds: Vec<TypeParamBound> = inline.chain(wheres).collect();
        if !bounds.is_empty() {
            preds.push(syn::parse_quote!(#arg_ty: #(#bounds)+*));
        }
    }
    preds
}

/// The generic arguments of a Rust type as written (`BTreeSet<Key,Slab<Node<Key,()>>>`:
/// `Key`, `Slab<Node<Key,()>>`); none for a type without them.
fn top_level_args(rust: &str) -> Vec<String> {
    let Some(inner) = rust
        .split_once('<')
        .and_then(|(_, rest)| rest.strip_suffix('>'))
    else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut cur = String::new();
    for c in inner.chars() {
        match c {
            '<' | '(' | '[' => depth += 1,
            '>' | ')' | ']' => depth -= 1,
            ',' if depth == 0 => {
                out.push(std::mem::take(&mut cur).trim().to_string());
                continue;
            }
            _ => {}
        }
        cur.push(c);
    }
    out.push(cur.trim().to_string());
    out
}

/// How good a measure of an instance's size a method is, lower first: `len()`, `size()`,
/// then a `len_*()` (ropey's `Rope` has `len_bytes`, `len_chars`, ..., no `len`); `None` for
/// anything else. Only `&self` methods taking nothing and returning an integer qualify.
fn size_rank(f: &Func) -> Option<u8> {
    let measures = f.receiver == Some("ref")
        && f.params.is_empty()
        && f.chain.is_none()
        && f.ret.as_deref().is_some_and(|r| MODEL_INTS.contains(&r));
    measures.then(|| size_rank_of(&f.name)).flatten()
}

fn size_rank_of(name: &str) -> Option<u8> {
    match name {
        "len" => Some(0),
        "size" => Some(1),
        n if n.starts_with("len_") => Some(2),
        _ => None,
    }
}

/// `Some(self type as written)` when an impl block is for another instantiation than the
/// generic one the harness uses: its self type fixes or omits (defaults) a parameter, as
/// `impl<I, P> PriorityQueue<I, P>` does for the default, randomly seeded hasher.
fn other_instantiation(
    g: &syn::Generics,
    subst: &HashMap<String, String>,
    imp: &syn::ItemImpl,
) -> Option<String> {
    // Whether each parameter is left to its default: an impl may omit it too, or be
    // generic over it.
    let omitted: Vec<bool> = g
        .params
        .iter()
        .filter_map(|p| match p {
            GenericParam::Type(t) => {
                Some(subst.get(&t.ident.to_string()).map(String::as_str) == Some(OMITTED))
            }
            GenericParam::Const(_) => Some(false),
            GenericParam::Lifetime(_) => None,
        })
        .collect();
    let own: HashSet<String> = param_names(&imp.generics).collect();
    let Type::Path(tp) = &*imp.self_ty else {
        return None;
    };
    let seg = tp.path.segments.last()?;
    let args: Vec<&syn::GenericArgument> = match &seg.arguments {
        syn::PathArguments::AngleBracketed(a) => a
            .args
            .iter()
            .filter(|a| !matches!(a, syn::GenericArgument::Lifetime(_)))
            .collect(),
        _ => Vec::new(),
    };
    // What the harness instantiates each parameter with, in order.
    let chosen: Vec<Option<&String>> = g
        .params
        .iter()
        .filter_map(|p| match p {
            GenericParam::Type(t) => Some(subst.get(&t.ident.to_string())),
            GenericParam::Const(c) => Some(subst.get(&c.ident.to_string())),
            GenericParam::Lifetime(_) => None,
        })
        .collect();
    // A parameter the impl leaves out takes its declared default, which the harness may have
    // chosen too (petgraph's `impl<N, E> Graph<N, E, Directed>` and the harness's
    // `Graph<Key, Key, petgraph::Directed, petgraph::graph::DefaultIx>`, `Ix = DefaultIx`).
    let defaults: Vec<Option<&Type>> = g
        .params
        .iter()
        .filter_map(|p| match p {
            GenericParam::Type(t) => Some(t.default.as_ref().map(|(_, ty)| ty)),
            GenericParam::Const(_) => Some(None),
            GenericParam::Lifetime(_) => None,
        })
        .collect();
    let defaulted = |k: usize| {
        omitted[k]
            || matches!((defaults[k], chosen[k]),
                (Some(Type::Path(p)), Some(c)) if p.qself.is_none() && same_type_path(&p.path, c))
    };
    let generic = args.len() <= omitted.len()
        && (args.len()..omitted.len()).all(defaulted)
        && args.iter().zip(&chosen).all(|(a, chosen)| match a {
            syn::GenericArgument::Type(Type::Path(p)) => {
                p.path
                    .get_ident()
                    .is_some_and(|i| own.contains(&i.to_string()))
                    // The very type the harness chose (arraydeque's
                    // `impl ArrayDeque<T, CAP, Saturating>`, the declared default behaviour).
                    || chosen.is_some_and(|c| same_type_path(&p.path, c))
            }
            _ => false,
        });
    (!generic).then(|| imp.self_ty.to_token_stream().to_string().replace(' ', ""))
}

/// Whether `path` (as an impl block writes it) names `chosen`, a type the harness writes with
/// the crate's path (`arraydeque::Saturating` for `Saturating`): the same segments at the
/// end, and a plain type, not an instantiation or a harness stand-in.
fn same_type_path(path: &syn::Path, chosen: &str) -> bool {
    if chosen == OMITTED
        || chosen.contains('<')
        || path.segments.iter().any(|s| !s.arguments.is_none())
    {
        return false;
    }
    let written: Vec<String> = path.segments.iter().map(|s| s.ident.to_string()).collect();
    let chosen: Vec<&str> = chosen.split("::").collect();
    // `crate::x::T` is the crate's own path; compare what follows it.
    let written: Vec<&str> = written
        .iter()
        .map(String::as_str)
        .skip_while(|s| *s == "crate" || *s == "self" || *s == "super")
        .collect();
    if written.is_empty() || chosen[0].is_empty() {
        return false;
    }
    // A crate path ending in the written one, or the same integer (`impl Foo<u32>`).
    (chosen.len() > written.len() && chosen.ends_with(&written))
        || (chosen == written && MODEL_INTS.contains(&chosen[0]))
}

/// The public methods (functions with a `self` receiver) of a type's inherent impls.
fn method_count(t: &FoundType) -> usize {
    t.impls
        .iter()
        .flat_map(|i| &i.items)
        .filter(|it| match it {
            ImplItem::Fn(f) => is_pub(&f.vis) && f.sig.receiver().is_some(),
            _ => false,
        })
        .count()
}

/// Registered own types by (defining module, ident) -> (registry name, rust type).
pub(super) type RegsIn = HashMap<(Vec<String>, String), (String, String)>;

pub(super) struct Ctx<'a> {
    pub(super) ty_ident: &'a str,
    /// The registry name of the type being registered.
    pub(super) self_name: &'a str,
    /// The Rust type being registered (differs from the registry name for duplicates).
    pub(super) self_rust: &'a str,
    pub(super) subst: &'a HashMap<String, String>,
    /// The module the type being registered is defined in (its signatures name types as
    /// that module sees them).
    pub(super) module: &'a [String],
    /// Registered own types: ident -> (registry name, rust type).
    pub(super) regs: &'a HashMap<String, (String, String)>,
    /// The same, keyed by defining module and ident: tells two types of one name apart.
    pub(super) regs_in: &'a RegsIn,
    /// Registry names of the registered own types that are `Copy` (passed as `copy`).
    pub(super) copies: &'a HashSet<String>,
    /// The crate's iterator types (see [`Scan::iterators`]).
    pub(super) iterators: &'a HashSet<String>,
    /// The current function's closure parameters.
    pub(super) closures: &'a HashMap<String, Built>,
    /// The crate's inline-storage traits (see [`storage`](super::storage)).
    pub(super) arrays: &'a super::storage::ArrayTraits,
    /// The crate's traits implemented for integers (see [`int_traits`](super::int_traits)).
    pub(super) int_traits: &'a super::int_traits::IntTraits,
    /// Classes the type's doc comment gives its methods in a table (see
    /// [`table_classes`](super::scan::table_classes)), for methods whose own doc has none.
    pub(super) table: &'a HashMap<String, String>,
    /// The crate's public aliases of primitives (see [`primitive_aliases`]).
    pub(super) prim_aliases: &'a HashMap<String, proc_macro2::TokenStream>,
}

impl Ctx<'_> {
    pub(super) fn func(
        &self,
        sig: &syn::Signature,
        attrs: &[syn::Attribute],
        vecs: &mut BTreeSet<String>,
    ) -> Result<Func, String> {
        if sig.asyncness.is_some() {
            return Err("async function".into());
        }
        if !matches!(sig.safety, syn::Safety::Default) {
            return Err("unsafe function".into());
        }
        let mut sig = impl_args_as_generics(sig);
        if !self.prim_aliases.is_empty() {
            let tokens = super::scan::replace_idents(sig.to_token_stream(), self.prim_aliases);
            if let Ok(s) = syn::parse2(tokens) {
                sig = s;
            }
        }
        let sig = &sig;
        // Generic parameters of the function: each gets a type the program model can supply
        // (the probe key, or the type's own key type for a borrowed-key parameter `Q`), or
        // is a closure parameter built from a program value (see [`closure`]).
        let local = self.method_generics(&sig.generics, &sig.inputs)?;
        let cx = Ctx {
            subst: &local.subst,
            closures: &local.closures,
            ..*self
        };
        let mut receiver = None;
        let mut params = Vec::new();
        for arg in &sig.inputs {
            match arg {
                FnArg::Receiver(r) => {
                    receiver = Some(match &r.kind {
                        // A `Copy` receiver by value stays usable (a handle's `to_bits`).
                        syn::ReceiverKind::Value if self.copies.contains(self.self_name) => "copy",
                        syn::ReceiverKind::Value => "val",
                        syn::ReceiverKind::Reference(_, _, m) => {
                            if m.is_some() {
                                "mut"
                            } else {
                                "ref"
                            }
                        }
                        syn::ReceiverKind::Typed(_, t)
                            if t.to_token_stream().to_string().replace(' ', "") == "Box<Self>" =>
                        {
                            "box"
                        }
                        _ => {
                            return Err(
                                "typed receiver (self: Rc<Self>, Pin<&mut Self>, ...)".into()
                            )
                        }
                    })
                }
                FnArg::Typed(pt) => {
                    let name = match &*pt.pat {
                        syn::Pat::Ident(i) => i.ident.to_string(),
                        _ => format!("arg{}", params.len()),
                    };
                    let name = if name == "self" || name.starts_with('_') {
                        format!("p{}{name}", params.len())
                    } else {
                        name
                    };
                    let p = cx
                        .param(&name, &pt.ty, vecs)
                        .map_err(|why| format!("parameter `{name}`: {why}"))?;
                    params.push(p);
                }
            }
        }
        let ret = match &sig.output {
            ReturnType::Default => None,
            ReturnType::Type(_, t) => cx.kept(t),
        };
        // An iterator the call returns is lazy: consume it, as a caller would, visiting every
        // item (a bare `count()` may be O(1): indexmap's iterators override it with `len()`).
        let suffix = match &sig.output {
            ReturnType::Type(_, t) if ret.is_none() && cx.is_iterator(t) => {
                Some(".map(std::hint::black_box).count()".to_string())
            }
            _ => None,
        };
        if receiver.is_none() {
            // A constructor must return the type itself, or a `Result` or `Option` of it
            // (`new(cap) -> Result<Self, Error>`, `try_new`), unwrapped: a constructor that
            // fails panics in the setup, and the program is a panic, as the caller's would be.
            let out = match &sig.output {
                ReturnType::Type(_, t) => t,
                ReturnType::Default => return Err("associated function returning nothing".into()),
            };
            let suffix = if fallible_of(out).is_some_and(|t| self.is_self(t)) {
                Some(".unwrap()".to_string())
            } else if self.is_self(out) {
                None
            } else {
                return Err(format!(
                    "associated function that does not return {} (returns `{}`)",
                    self.ty_ident,
                    sig.output
                        .to_token_stream()
                        .to_string()
                        .trim_start_matches("->")
                        .trim()
                ));
            };
            return Ok(Func::ctor(
                &sig.ident.to_string(),
                params,
                suffix.as_deref(),
            ));
        }
        let doc = super::scan::doc_text(attrs);
        let documented =
            documented_class(&doc).or_else(|| self.table.get(&sig.ident.to_string()).cloned());
        let expected = match &suffix {
            Some(_) => walked(documented, super::scan::per_item_class(&doc)),
            None => documented,
        };
        let kept = ret.is_none()
            && suffix.is_none()
            && matches!(&sig.output, ReturnType::Type(_, t) if cx.owned(t));
        Ok(Func {
            name: sig.ident.to_string(),
            receiver,
            params,
            ret,
            expected,
            suffix,
            chain: None,
            kept,
            call: None,
        })
    }

    /// The function's generic parameters that a parameter of this type's own kind takes
    /// as an argument (`other: &BTreeSet<T, D>`), each with this type's instantiation at
    /// that position (`D` of `BTreeSet<Key, Slab<..>>` is `Slab<..>`).
    fn other_operand_args(
        &self,
        g: &syn::Generics,
        inputs: &syn::punctuated::Punctuated<syn::FnArg, syn::Token![,]>,
    ) -> HashMap<String, String> {
        let mut out = HashMap::new();
        let generic: HashSet<String> = g.type_params().map(|p| p.ident.to_string()).collect();
        if generic.is_empty() {
            return out;
        }
        // Registered through an alias (`BTreeSet<Key>` for `generic::BTreeSet<T, C>`), the
        // alias's arguments are not the type's: the parameter is left to inference from the
        // argument (`_`), which is a registered value.
        let base = self.self_rust.split('<').next().unwrap_or("");
        let own = if base.rsplit("::").next() == Some(self.ty_ident) {
            top_level_args(self.self_rust)
        } else {
            Vec::new()
        };
        for input in inputs {
            let syn::FnArg::Typed(pt) = input else {
                continue;
            };
            let mut ty = &*pt.ty;
            while let Type::Reference(r) = ty {
                ty = &r.elem;
            }
            let Type::Path(tp) = ty else { continue };
            let Some(seg) = tp.path.segments.last() else {
                continue;
            };
            if seg.ident != self.ty_ident {
                continue;
            }
            let syn::PathArguments::AngleBracketed(a) = &seg.arguments else {
                continue;
            };
            let args = a
                .args
                .iter()
                .filter(|x| !matches!(x, syn::GenericArgument::Lifetime(_)));
            for (k, arg) in args.enumerate() {
                let syn::GenericArgument::Type(Type::Path(p)) = arg else {
                    continue;
                };
                let Some(id) = p.path.get_ident().map(|i| i.to_string()) else {
                    continue;
                };
                if generic.contains(&id) {
                    let v = own.get(k).cloned().unwrap_or_else(|| OMITTED.to_string());
                    out.insert(id, v);
                }
            }
        }
        out
    }

    /// The instantiation of a function's own generic parameters.
    fn method_generics(
        &self,
        g: &syn::Generics,
        inputs: &syn::punctuated::Punctuated<syn::FnArg, syn::Token![,]>,
    ) -> Result<LocalGenerics, String> {
        let mut out = LocalGenerics {
            subst: self.subst.clone(),
            closures: HashMap::new(),
        };
        let same_type = self.other_operand_args(g, inputs);
        // Bounds of each type parameter, inline and from the where clause; and `X: Borrow<Q>`
        // predicates, which say what a borrowed-key parameter `Q` stands for.
        let mut bounds: Vec<(String, Vec<TypeParamBound>)> = Vec::new();
        for p in &g.params {
            match p {
                GenericParam::Lifetime(_) => {}
                // Arrays of a compile-time length (`get_disjoint_mut([&Q; N])`) get a fixed
                // length, each element its own program value (see `compound::array`).
                GenericParam::Const(c) => {
                    out.subst.insert(c.ident.to_string(), ARRAY_LEN.to_string());
                }
                GenericParam::Type(t) => {
                    bounds.push((t.ident.to_string(), t.bounds.iter().cloned().collect()))
                }
            }
        }
        let mut borrowed: HashMap<String, String> = HashMap::new();
        if let Some(w) = &g.where_clause {
            for pred in &w.predicates {
                let syn::WherePredicate::Type(pt) = pred else {
                    continue;
                };
                let id = pt.bounded_ty.to_token_stream().to_string();
                // `&'a Iter1: IntoIterator<Item = Elem1>` (strsim's `generic_jaro(a: &'a
                // Iter1, ..)`) bounds what the function borrows: a vector meets it borrowed
                // as it does owned, and the item type it names is inferred.
                let borrowed_param = match &pt.bounded_ty {
                    Type::Reference(r) => Some(r.elem.to_token_stream().to_string()),
                    _ => None,
                };
                if let Some((_, bs)) = bounds
                    .iter_mut()
                    .find(|(n, _)| *n == id || Some(n) == borrowed_param.as_ref())
                {
                    bs.extend(pt.bounds.iter().cloned());
                } else {
                    // `K: Borrow<Q>` with K the type's parameter, or a model primitive.
                    let k = self.subst.get(&id).cloned().or_else(|| {
                        (MODEL_INTS.contains(&id.as_str()) || id == "String").then(|| id.clone())
                    });
                    for (b, k) in pt.bounds.iter().zip(std::iter::repeat(k)) {
                        if let (Some(q), Some(k)) = (generic_arg_of(b, "Borrow"), k) {
                            borrowed.insert(q, k);
                        }
                    }
                }
            }
        }
        // A parameter whose bounds name another (`R: RangeBounds<Q>`) is read after the
        // others, whatever the declaration order: indexset's `BTreeSet::range<R, Q>` was
        // skipped where its `BTreeMap::range<Q, R>` registered.
        // Read in dependency order, so that a chain is read from its end (strsim's
        // `generic_hamming<Iter1: IntoIterator<Item = Elem1>, .., Elem1: PartialEq<Elem2>>`:
        // `Elem2`, then `Elem1`, then `Iter1`); a cycle is read in declaration order.
        let mut pending = std::mem::take(&mut bounds);
        while !pending.is_empty() {
            let names_pending = |k: usize| {
                let (n, bs) = &pending[k];
                bs.iter().any(|b| {
                    let b = b.to_token_stream().to_string();
                    pending
                        .iter()
                        .any(|(m, _)| m != n && super::int_traits::names_arg(&b, m))
                })
            };
            let k = (0..pending.len()).find(|&k| !names_pending(k)).unwrap_or(0);
            bounds.push(pending.remove(k));
        }
        // A closure returning a type parameter of the function (`sort_by_key`'s `T`) returns
        // its first input, cloned: `T` is that input's type.
        let fn_generics: HashSet<String> = bounds.iter().map(|(n, _)| n.clone()).collect();
        let unbounded: HashSet<String> = bounds
            .iter()
            .filter(|(_, bs)| bs.is_empty())
            .map(|(n, _)| n.clone())
            .collect();
        let mut keys: HashSet<String> = HashSet::new();
        for (_, bs) in &bounds {
            let Some((inputs, ReturnType::Type(_, t))) = closure_bound(bs) else {
                continue;
            };
            let Type::Path(tp) = &*t else { continue };
            let Some(id) = tp.path.get_ident().map(|i| i.to_string()) else {
                continue;
            };
            if !fn_generics.contains(&id) {
                continue;
            }
            let first = inputs.first().map(|i| match i {
                Type::Reference(r) => (*r.elem).clone(),
                t => t.clone(),
            });
            if let Some(ty) = first.and_then(|f| self.resolve(&f)) {
                out.subst.insert(id.clone(), ty);
                keys.insert(id);
            }
        }
        for (name, bs) in bounds {
            if let Some((inputs, output)) = closure_bound(&bs) {
                let cx = Ctx {
                    subst: &out.subst,
                    ..*self
                };
                let shape = super::closures::shape(
                    &inputs,
                    &output,
                    &|t| cx.resolve(t),
                    &fn_generics,
                    &unbounded,
                )?;
                // A result it returns nothing for is `()` (see `closures::shape`).
                if let (Returns::Unit, ReturnType::Type(_, t)) = (&shape.returns, &output) {
                    let t = t.to_token_stream().to_string();
                    if unbounded.contains(&t) {
                        out.subst.insert(t, "()".into());
                    }
                }
                out.closures.insert(name, Built::Closure(shape));
                continue;
            }
            // `K: PartialEq<K>` is `K: PartialEq`.
            let names: Vec<String> = trait_names(&bs)
                .into_iter()
                .map(|b| match b.strip_suffix(&format!("<{name}>")) {
                    Some(t) if ["PartialEq", "PartialOrd"].contains(&t) => t.to_string(),
                    _ => b,
                })
                .collect();
            if keys.contains(&name) {
                let own = out.subst.get(&name).cloned().unwrap_or_default();
                let traits: &[&str] = if own == "Key" { KEY_TRAITS } else { &[] };
                if let Some(b) = names.iter().find(|b| {
                    !traits.contains(&b.as_str())
                        && !KEY_TRAITS.contains(&b.as_str())
                        && !U64_TRAITS.contains(&b.as_str())
                }) {
                    return Err(format!(
                        "generic parameter {name}: {b}, which the key a closure returns ({own}) does not implement"
                    ));
                }
                continue;
            }
            // `R: RangeBounds<usize>` (or of another integer, or of the key): `start..end`.
            // `R: Borrow<Range<K>>` (rangemap's `overlapping`) takes a `Range<K>` itself.
            let ranged = names.iter().find_map(|b| {
                let inner = b
                    .strip_prefix("RangeBounds<")
                    .and_then(|i| i.strip_suffix('>'))
                    .or_else(|| {
                        let i = b.strip_prefix("Borrow<")?.strip_suffix('>')?;
                        let i = i.strip_prefix("std::ops::").unwrap_or(i);
                        let i = i.strip_prefix("core::ops::").unwrap_or(i);
                        i.strip_prefix("Range<")?.strip_suffix('>')
                    })?;
                if MODEL_INTS.contains(&inner) {
                    return Some(inner.to_string());
                }
                out.subst.get(inner).filter(|k| *k == "Key").cloned()
            });
            // A trait of the crate it implements for `Range<_>` (fixedbitset's
            // `count_ones<T: IndexRange>`): a range too.
            let ranged = ranged.or_else(|| {
                (names.len() == 1)
                    .then(|| self.int_traits.range_for(&names[0]))
                    .flatten()
            });
            if let Some(elem) = ranged {
                out.subst
                    .insert(name.clone(), format!("std::ops::Range<{elem}>"));
                out.closures.insert(name, Built::Range(elem));
                continue;
            }
            // `I: IntoIterator<Item = u32>`: a vector of program values.
            let cx = Ctx {
                subst: &out.subst,
                ..*self
            };
            if let Some((elem, iterator)) = sequence_bound(&bs, &|t| cx.resolve(t)) {
                out.subst.insert(name.clone(), format!("Vec<{elem}>"));
                out.closures.insert(name, Built::Sequence(elem, iterator));
                continue;
            }
            // The other operand's own parameter (btree-slab's `union<D: Slab<..>>(&self,
            // other: &BTreeSet<T, D>)`, its storage): this type's instantiation there, so
            // the other operand is a registered value of the same type.
            if let Some(v) = same_type.get(&name) {
                out.subst.insert(name, v.clone());
                continue;
            }
            // Another hasher (`is_subset<S2: BuildHasher>(&self, other: &IndexSet<T, S2>)`):
            // the harness's own, so the other operand is a registered value.
            if names.iter().any(|b| b == "BuildHasher") {
                out.subst.insert(name, "FixedState".to_string());
                continue;
            }
            // `Q: Equivalent<K>` / `K: Borrow<Q>`: Q is the type's key type. So is `U` of
            // `U: PartialEq<T>` (stable-vec's `contains`), compared with the stored items.
            // The other side may be a parameter of the function read before (strsim's
            // `Elem1: PartialEq<Elem2>`): the value it took.
            let equiv = bs
                .iter()
                .find_map(|b| {
                    generic_arg_of(b, "Equivalent").or_else(|| generic_arg_of(b, "PartialEq"))
                })
                .and_then(|k| out.subst.get(&k).cloned());
            if let Some(k) = equiv.or_else(|| borrowed.get(&name).cloned()) {
                out.subst.insert(name, k);
                continue;
            }
            let names = trait_names(&bs);
            if names.iter().all(|b| KEY_TRAITS.contains(&b.as_str())) {
                out.subst.insert(name, "Key".into());
                continue;
            }
            // `T: AsRef<str>` (string-interner's `get_or_intern`), `T: Into<u64>`: the value.
            if let Some(t) = conversion_target(&names) {
                out.subst.insert(name, t);
                continue;
            }
            // The crate's traits it implements for `String` (similar's `T: DiffableStrRef`).
            let for_string = |b: &String| self.int_traits.for_string(b);
            if names.iter().any(for_string)
                && names.iter().all(|b| {
                    for_string(b)
                        || STRING_LIKE.contains(&b.as_str())
                        || STRING_TRAITS.contains(&b.as_str())
                })
            {
                out.subst.insert(name, "String".into());
                continue;
            }
            return Err(format!(
                "generic parameter {name}: {} (neither the probe key nor a closure the model builds)",
                names.join(" + ")
            ));
        }
        Ok(out)
    }

    /// Whether `t` is an iterator: one of the crate's iterator types or `impl Iterator`.
    fn is_iterator(&self, t: &Type) -> bool {
        match t {
            Type::Path(p) => p
                .path
                .segments
                .last()
                .is_some_and(|s| self.iterators.contains(&s.ident.to_string())),
            Type::ImplTrait(it) => it.bounds.iter().any(|b| {
                matches!(b, TypeParamBound::Trait(tb) if tb.path.segments.last().is_some_and(|s| {
                    ["Iterator", "DoubleEndedIterator", "ExactSizeIterator"]
                        .contains(&s.ident.to_string().as_str())
                }))
            }),
            _ => false,
        }
    }

    /// Whether a value of type `t` surely owns everything it holds, so that dropping it is
    /// its holder's business, not the call's that returned it: primitives, `Self`, the
    /// type's parameters, the crate's registered types, std's owning containers, and
    /// tuples, arrays and those containers of them.
    ///
    /// Why so narrow: a result that borrows may do the call's work when dropped (`Drain`
    /// moves the tail back, `PeekMut` restores the heap order), and a borrow can hide in an
    /// elided lifetime (`-> Drain<T>`); a type not known to own stays dropped inside the
    /// window, as before. The false finding this fixes: im's `OrdMap::update_lookup_with_key
    /// (self, ..) -> (Option<V>, Self)` was charged for dropping the new map, O(n) against
    /// its O(log n).
    pub(super) fn owned(&self, t: &Type) -> bool {
        const STD_OWNING: &[&str] = &[
            "String",
            "Vec",
            "VecDeque",
            "Option",
            "Result",
            "Box",
            "Rc",
            "Arc",
            "BTreeMap",
            "BTreeSet",
            "HashMap",
            "HashSet",
            "BinaryHeap",
            "LinkedList",
        ];
        match t {
            Type::Tuple(tt) => tt.elems.iter().all(|e| self.owned(e)),
            Type::Array(a) => self.owned(&a.elem),
            Type::Paren(p) => self.owned(&p.elem),
            Type::Group(g) => self.owned(&g.elem),
            Type::Path(p) if p.qself.is_none() => {
                let Some(seg) = p.path.segments.last() else {
                    return false;
                };
                let id = seg.ident.to_string();
                let args_owned = match &seg.arguments {
                    syn::PathArguments::None => true,
                    syn::PathArguments::AngleBracketed(a) => a.args.iter().all(|arg| match arg {
                        syn::GenericArgument::Type(t) => self.owned(t),
                        syn::GenericArgument::Const(_) => true,
                        _ => false,
                    }),
                    syn::PathArguments::Parenthesized(_) => false,
                };
                let single = p.path.segments.len() == 1;
                let known = ["bool", "char", "f32", "f64"].contains(&id.as_str())
                    || MODEL_INTS.contains(&id.as_str())
                    || STD_OWNING.contains(&id.as_str())
                    || id == "Self"
                    || id == self.ty_ident
                    || (single
                        && self
                            .subst
                            .get(&id)
                            .is_some_and(|v| !v.contains(['&', '\''])))
                    || self.regs.get(&id).is_some_and(|(_, r)| !r.contains('\''));
                known && args_owned
            }
            _ => false,
        }
    }

    /// `Self`, or the type itself at the instantiation the harness uses: `Control<B>` in
    /// `impl<B> Control<B>`, not `Control<()>` (petgraph's `Control::breaking`).
    fn is_self(&self, t: &Type) -> bool {
        match t {
            Type::Path(p) if p.qself.is_none() => p.path.segments.last().is_some_and(|s| {
                s.ident == "Self" || (s.ident == self.ty_ident && self.same_arguments(&s.arguments))
            }),
            Type::Paren(p) => self.is_self(&p.elem),
            Type::Group(g) => self.is_self(&g.elem),
            _ => false,
        }
    }

    /// Whether a path's generic arguments are the type's own parameters (or what the
    /// harness instantiates them with), so that the path names the registered type.
    fn same_arguments(&self, args: &syn::PathArguments) -> bool {
        let syn::PathArguments::AngleBracketed(a) = args else {
            return matches!(args, syn::PathArguments::None);
        };
        a.args.iter().all(|arg| {
            let text = match arg {
                syn::GenericArgument::Lifetime(_) => return true,
                syn::GenericArgument::Type(t) => t.to_token_stream().to_string(),
                syn::GenericArgument::Const(c) => c.to_token_stream().to_string(),
                _ => return false,
            };
            // A crate type filling a parameter is instantiated by its full path
            // (`demo::DefaultKey`) and written by its name (`-> SlotMap<DefaultKey, V>`).
            self.subst.contains_key(&text)
                || self
                    .subst
                    .values()
                    .any(|v| *v == text || v.ends_with(&format!("::{text}")))
        })
    }

    /// A return type worth keeping as a variable: a model primitive or an own type by value.
    fn kept(&self, t: &Type) -> Option<String> {
        let Type::Path(p) = t else { return None };
        let seg = p.path.segments.last()?;
        let id = seg.ident.to_string();
        if ["bool", "char", "String"].contains(&id.as_str()) || MODEL_INTS.contains(&id.as_str()) {
            return Some(id);
        }
        // `-> T` is written as the Rust type; `Registry::new` names a type registered under
        // another name (a duplicate identifier) by that name. Such a type is kept when
        // written in the module that defines it (see `resolve`), else dropped.
        // The type's name without arguments where the registration has some is another
        // instantiation, its declared defaults (arrayvec's `CapacityError<T = ()>::simplify(self)
        // -> CapacityError`), not `Self`.
        let defaults = id == self.ty_ident
            && seg.arguments.is_empty()
            && self.self_rust.starts_with(self.ty_ident)
            && self.self_rust.contains('<');
        if defaults {
            return None;
        }
        if id == "Self" || id == self.ty_ident {
            return (!self.self_name.is_empty()).then(|| self.self_rust.to_string());
        }
        if let Some(n) = self.own_filled(&id) {
            return Some(n);
        }
        if let Some((_, rust)) = self
            .regs_in
            .get(&(self.module.to_vec(), id.clone()))
            .filter(|_| p.path.segments.len() == 1)
        {
            return Some(rust.clone());
        }
        self.regs
            .get(&id)
            .filter(|(n, r)| n == r)
            .map(|(n, _)| n.clone())
    }

    /// The registry name of the crate's registered non-generic type that fills type
    /// parameter `id` (slotmap's `K: Key` is `demo::DefaultKey`): a value of `K` is one of
    /// that type (a handle `insert` returns and `get` takes).
    fn own_filled(&self, id: &str) -> Option<String> {
        let s = self.subst.get(id)?;
        let last = s.rsplit("::").next()?;
        if !s.contains("::") || s.contains('<') {
            return None;
        }
        self.regs
            .values()
            .find(|(n, r)| n == r && r == last)
            .map(|(n, _)| n.clone())
    }

    /// The model type of `t` when it is one directly (a substituted parameter or a
    /// primitive), for closure inputs and outputs.
    pub(super) fn resolve(&self, t: &Type) -> Option<String> {
        if let Some(k) = self.projection(t) {
            return Some(k);
        }
        let Type::Path(tp) = t else { return None };
        let id = tp.path.get_ident()?.to_string();
        if let Some(s) = self.subst.get(&id) {
            return (s != "FixedState" && !s.contains("::") && !s.starts_with('[') && s != OMITTED)
                .then(|| s.clone());
        }
        (MODEL_INTS.contains(&id.as_str()) || ["bool", "char", "String"].contains(&id.as_str()))
            .then_some(id)
    }

    pub(super) fn param(
        &self,
        name: &str,
        t: &Type,
        vecs: &mut BTreeSet<String>,
    ) -> Result<Param, String> {
        let p = |mode, ty: String, cast: Option<String>| Param {
            name: name.to_string(),
            mode,
            ty,
            cast,
            expr: None,
            dsl: true,
            more: Vec::new(),
        };
        let built = match t {
            Type::Path(tp) if tp.qself.is_none() => tp
                .path
                .get_ident()
                .and_then(|i| self.closures.get(&i.to_string()))
                .cloned()
                .map(Ok),
            Type::ImplTrait(it) => {
                let bs: Vec<TypeParamBound> = it.bounds.iter().cloned().collect();
                closure_bound(&bs)
                    .map(|(i, o)| {
                        super::closures::shape(
                            &i,
                            &o,
                            &|t| self.resolve(t),
                            &HashSet::new(),
                            &HashSet::new(),
                        )
                        .map(Built::Closure)
                    })
                    .or_else(|| {
                        sequence_bound(&bs, &|t| self.resolve(t))
                            .map(|(e, i)| Ok(Built::Sequence(e, i)))
                    })
                    .or_else(|| conversion_target(&trait_names(&bs)).map(|t| Ok(Built::Value(t))))
            }
            _ => None,
        };
        match built {
            Some(Ok(Built::Closure(shape))) => return Ok(closure(name, &shape)),
            Some(Ok(Built::Range(elem))) => return Ok(range(name, &elem)),
            Some(Ok(Built::Value(ty))) => {
                let mode = if ty == "String" { "val" } else { "copy" };
                return Ok(p(mode, ty, None));
            }
            Some(Ok(Built::Sequence(elem, iterator))) => {
                vecs.insert(elem.clone());
                return Ok(sequence(name, &elem, iterator));
            }
            Some(Err(why)) => return Err(why),
            None => {}
        }
        // A hasher argument (`with_hasher(S)`): the harness's fixed, seedless one.
        if let Type::Path(tp) = t {
            if let Some(id) = tp.path.get_ident() {
                if self.subst.get(&id.to_string()).map(String::as_str) == Some("FixedState") {
                    let code = "FixedState::default()".to_string();
                    return Ok(Param {
                        expr: Some((code.clone(), code)),
                        dsl: false,
                        ..p("val", "FixedState".into(), None)
                    });
                }
            }
        }
        if let Type::Array(a) = t {
            return array(self, name, a, vecs);
        }
        if let Type::Tuple(tt) = t {
            return super::compound::tuple(self, name, tt, vecs);
        }
        if let Some(p) = super::compound::non_zero(name, t) {
            return Ok(p);
        }
        if let Some(p) = super::compound::concrete_range(name, t, &|t| self.resolve(t)) {
            return Ok(p);
        }
        match t {
            // string-interner's `intern_static(&mut self, s: &'static str)`: a program's values
            // live in its slots, not for the whole process. Registered, it passed a borrow of a
            // slot and the whole harness failed to compile (E0521, pointed at the macro only).
            Type::Reference(r) if r.lifetime.as_ref().is_some_and(|l| l.ident == "static") => Err(
                "a `&'static` reference, and a program's values do not live that long".to_string(),
            ),
            Type::Reference(r) => {
                let m = r.mutability.is_some();
                match &*r.elem {
                    Type::Path(tp) if tp.path.is_ident("str") && !m => {
                        Ok(p("str", "String".into(), None))
                    }
                    Type::Slice(s) if !m => {
                        let elem = self.element(&s.elem)?;
                        vecs.insert(elem.clone());
                        Ok(p("slice", elem, None))
                    }
                    // `&mut [T]` (an in-place sort): a vector by `&mut`, which derefs to the
                    // slice in the call and in the printed `&mut vec1`.
                    Type::Slice(s) => {
                        let elem = self.element(&s.elem)?;
                        vecs.insert(elem.clone());
                        Ok(p("mut", format!("Vec<{elem}>"), None))
                    }
                    inner => {
                        let (ty, _) = self.value(inner, vecs)?;
                        Ok(p(if m { "mut" } else { "ref" }, ty, None))
                    }
                }
            }
            _ => {
                // `Option<T>` of a model value: the value, passed as `x.into()` (`Some(x)`:
                // `Option<T>: From<T>`), so the call gets a value, never `None`.
                let (ty, cast) = match first_arg_of(t, &["Option"]) {
                    Some(inner) => match self.value(inner, vecs)? {
                        (ty, None) => (ty, Some(INTO.to_string())),
                        _ => {
                            return Err(format!(
                                "type `{}` is not in the program model",
                                t.to_token_stream().to_string().replace(' ', "")
                            ))
                        }
                    },
                    None => self.value(t, vecs)?,
                };
                let copy = ty == "bool"
                    || ty == "char"
                    || MODEL_INTS.contains(&ty.as_str())
                    || (cast.is_none() && self.copies.contains(&ty));
                Ok(p(if copy { "copy" } else { "val" }, ty, cast))
            }
        }
    }

    /// The model type of an associated type of an instantiated parameter (`A::Item`,
    /// `<A as Array>::Item` of inline storage: see [`storage`](super::storage)).
    fn projection(&self, t: &Type) -> Option<String> {
        self.subst.get(&projection(t)?).cloned()
    }

    /// The model type of a value of type `t`, and a cast to the real type if one is needed.
    fn value(
        &self,
        t: &Type,
        vecs: &mut BTreeSet<String>,
    ) -> Result<(String, Option<String>), String> {
        let shown = || readable(t);
        if let Some(k) = self.projection(t) {
            return Ok((k, None));
        }
        let Type::Path(tp) = t else {
            return Err(format!("type `{}` is not in the program model", shown()));
        };
        if tp.qself.is_some() {
            return Err(format!("type `{}` is not in the program model", shown()));
        }
        let seg = tp.path.segments.last().ok_or("empty type path")?;
        let id = seg.ident.to_string();
        if tp.path.segments.len() == 1 {
            if let Some(s) = self.subst.get(&id) {
                if let Some(n) = self.own_filled(&id) {
                    return Ok((n, None));
                }
                if s == "FixedState" || s.contains("::") || s.starts_with('[') || s == OMITTED {
                    return Err(format!(
                        "a value of type `{id}` (`{s}`) inside another type is not in the program model"
                    ));
                }
                return Ok((s.clone(), None));
            }
        }
        match id.as_str() {
            "bool" | "char" | "String" => return Ok((id, None)),
            x if MODEL_INTS.contains(&x) => return Ok((id, None)),
            "u16" | "u128" => return Ok(("u64".into(), Some(format!("as {id}")))),
            "i8" | "i16" | "i128" | "isize" => return Ok(("i64".into(), Some(format!("as {id}")))),
            "f32" | "f64" => return Ok(("u32".into(), Some(format!("as {id}")))),
            "Self" => return Ok((self.self_name.to_string(), None)),
            "Vec" => {
                let elem = match &seg.arguments {
                    syn::PathArguments::AngleBracketed(a) => match a.args.first() {
                        Some(syn::GenericArgument::Type(e)) => self.element(e)?,
                        _ => return Err("Vec without an element type".into()),
                    },
                    _ => return Err("Vec without an element type".into()),
                };
                vecs.insert(elem.clone());
                return Ok((format!("Vec<{elem}>"), None));
            }
            _ => {}
        }
        // Two types of one name (petgraph's `graph::EdgeIndex` and `adj::EdgeIndex`): a
        // signature written beside one of them names that one. Written elsewhere, it is
        // refused (which one a `use` brought in is not followed).
        let single = tp.path.segments.len() == 1;
        // Such a type is written as its Rust type; the registry names it as registered.
        if single && id == self.ty_ident && !self.self_name.is_empty() {
            return Ok((self.self_rust.to_string(), None));
        }
        if let Some((_, rust)) = self
            .regs_in
            .get(&(self.module.to_vec(), id.clone()))
            .filter(|_| single)
        {
            return Ok((rust.clone(), None));
        }
        if (id == self.ty_ident && self.self_name != self.self_rust)
            || self.regs.get(&id).is_some_and(|(n, r)| n != r)
        {
            return Err(format!(
                "type `{}` is registered under a module-qualified name (two types are called {id})",
                shown()
            ));
        }
        if id == self.ty_ident {
            return Ok((self.self_name.to_string(), None));
        }
        if let Some((name, _)) = self.regs.get(&id) {
            return Ok((name.clone(), None));
        }
        Err(format!("type `{}` is not in the program model", shown()))
    }

    /// An element type of `Vec<T>`/`&[T]`: the probe key or a model primitive.
    fn element(&self, t: &Type) -> Result<String, String> {
        let mut none = BTreeSet::new();
        let value = match t {
            Type::Tuple(tt) => {
                let elems = tt
                    .elems
                    .iter()
                    .map(|e| match self.value(e, &mut none)? {
                        (x, None) => Ok(x),
                        _ => Err(format!("a tuple element of type `{}`", readable(e))),
                    })
                    .collect::<Result<Vec<String>, String>>()?;
                (format!("({})", elems.join(",")), None)
            }
            _ => self.value(t, &mut none)?,
        };
        match value {
            (e, None)
                if e == "Key"
                    || MODEL_INTS.contains(&e.as_str())
                    || e == "bool"
                    || e == "char"
                    || e == "String" =>
            {
                Ok(e)
            }
            // A tuple of integers, bools or chars (`&[(usize, usize)]`, a list of edges): the
            // vector's `push` takes one value per element.
            (e, None) if tuple_of_primitives(&e) => Ok(e),
            // A registered type of the crate named by one identifier (`&[Edge]`): the
            // vector's registration is named after it (`vec_edge`), a generic one's after
            // its instantiation (rust-lapper's `Lapper::new(Vec<Interval<I, T>>)`:
            // `vec_interval_u64_key`).
            (e, None)
                if self.regs.values().any(|(n, _)| *n == e)
                    && e.chars().all(|c| c.is_alphanumeric() || "_<>,".contains(c)) =>
            {
                Ok(e)
            }
            _ => Err(format!(
                "elements of type `{}` (vectors and slices hold probe keys, primitives or the crate's own types)",
                t.to_token_stream().to_string().replace(' ', "")
            )),
        }
    }
}

/// Whether `t` is a tuple of two or more integers, bools or chars (see [`tuple_elements`]).
fn tuple_of_primitives(t: &str) -> bool {
    tuple_elements(t).is_some_and(|es| {
        es.len() >= 2
            && es
                .iter()
                .all(|e| MODEL_INTS.contains(e) || *e == "bool" || *e == "char")
    })
}

/// A function's generic parameters, instantiated.
struct LocalGenerics {
    subst: HashMap<String, String>,
    closures: HashMap<String, Built>,
}

/// A function's type parameter that a parameter of that type is built as.
#[derive(Clone, Debug)]
pub enum Built {
    Closure(Shape),
    /// `R: RangeBounds<T>` (an integer or the key): a `Range<T>` from two program values.
    Range(String),
    /// `I: IntoIterator<Item = T>` (true: `Iterator`): a `Vec<T>` program value.
    Sequence(String, bool),
    /// `impl Into<String>` and the like: the model value itself (see `conversion_target`).
    Value(String),
}

/// `T` of a bound `Trait<T>` (last path segment named `trait_name`).
fn generic_arg_of(b: &TypeParamBound, trait_name: &str) -> Option<String> {
    let TypeParamBound::Trait(tb) = b else {
        return None;
    };
    let seg = tb.path.segments.last()?;
    if seg.ident != trait_name {
        return None;
    }
    match &seg.arguments {
        syn::PathArguments::AngleBracketed(a) => match a.args.first()? {
            syn::GenericArgument::Type(t) => Some(t.to_token_stream().to_string()),
            _ => None,
        },
        _ => None,
    }
}

/// The class expected of a call whose returned iterator is consumed: the documented class
/// describes the call (skiplist's `iter()`: "This operation is O(1)"), and the walk over the
/// items that the harness adds costs O(n) on top, so the expectation is the larger of the two.
/// Without this every lazy iterator documented O(1) came out a false O(n) bottleneck.
/// The class of consuming a returned iterator: the documented class with the walk (see
/// [`with_walk`]), or n times a class the doc states per item when that is higher (O(log n)
/// per `next()`: O(n log n)). `None` when a per-item class has no class n times it
/// (O(n log n) per item).
fn walked(
    documented: Option<String>,
    per_item: Option<crate::oracle::fit::Class>,
) -> Option<String> {
    use crate::oracle::fit::Class;
    let Some(item) = per_item else {
        return documented.map(|c| with_walk(&c));
    };
    let total = match item {
        Class::Constant => Class::Linear,
        Class::Log => Class::Linearithmic,
        Class::Linear => Class::Quadratic,
        Class::Quadratic => Class::Cubic,
        _ => return None,
    };
    let walk = documented
        .as_deref()
        .map(with_walk)
        .and_then(|c| Class::parse(&c));
    Some(walk.map_or(total, |w| w.max(total)).label().to_string())
}

pub(super) fn with_walk(documented: &str) -> String {
    use crate::oracle::fit::Class;
    match Class::parse(documented) {
        Some(c) => c.max(Class::Linear).label().to_string(),
        None => documented.to_string(),
    }
}

/// The full path (`lib::a::T`) of every reachable type of the crate whose identifier is
/// unique, by identifier: what a parameter's default (`G: LevelGenerator = Geometric`) names.
fn default_paths(lib: &str, scan: &Scan) -> HashMap<String, String> {
    let counts = ident_counts(&scan.types);
    // A public alias without parameters names a type as well as the type does
    // (string-interner's `B = DefaultBackend`, `pub type DefaultBackend = StringBackend<..>`).
    let aliases = scan
        .aliases
        .iter()
        .map(|(a, _)| a)
        .filter(|a| a.reachable && a.generics.params.is_empty());
    scan.types
        .iter()
        .filter(|t| t.reachable && counts.get(&t.ident) == Some(&1))
        .chain(aliases)
        .map(|t| {
            let full = std::iter::once(lib.to_string())
                .chain(t.public_path.iter().cloned())
                .collect::<Vec<_>>()
                .join("::");
            (t.ident.clone(), full)
        })
        .collect()
}

/// The default a type parameter declares (`= Geometric`), as the harness can name it: a type
/// of the crate (by `named`, its full path) or a primitive; `None` for anything else.
fn declared_default(t: &syn::TypeParam, named: &HashMap<String, String>) -> Option<String> {
    let (_, syn::Type::Path(tp)) = t.default.as_ref()? else {
        return None;
    };
    if tp.qself.is_some() || tp.path.segments.len() != 1 {
        return None;
    }
    let seg = &tp.path.segments[0];
    if !seg.arguments.is_empty() {
        return None;
    }
    let id = seg.ident.to_string();
    const PRIMITIVES: &[&str] = &[
        "u8", "u16", "u32", "u64", "u128", "usize", "i8", "i16", "i32", "i64", "i128", "isize",
        "bool", "char",
    ];
    if PRIMITIVES.contains(&id.as_str()) {
        return Some(id);
    }
    named.get(&id).cloned()
}

/// The instantiation of a type's generic parameters: each type parameter gets `Key` if its
/// bounds (on the type and on every inherent impl) are among the probe key's traits, else
/// `u64` if they are among `u64`'s, else the default it declares (`G: LevelGenerator =
/// Geometric`: the crate's author chose it for callers who do not care, which is what a
/// program is); const parameters get their declared default, else 64. A parameter bounded by
/// traits of the crate gets an integer the crate implements them for (`for_ints`).
pub(super) fn instantiate<'a>(
    g: &syn::Generics,
    impls: impl Iterator<Item = &'a syn::Generics>,
    borrowing_ok: bool,
    named: &HashMap<String, String>,
    arrays: &super::storage::ArrayTraits,
    for_ints: &super::int_traits::IntTraits,
) -> Result<HashMap<String, String>, String> {
    let mut bounds: HashMap<String, BTreeSet<String>> = HashMap::new();
    let mut defaults: HashMap<String, String> = HashMap::new();
    // Type parameters in order, with whether they declare a default at all.
    let mut order: Vec<(String, bool)> = Vec::new();
    let mut consts = Vec::new();
    for p in &g.params {
        match p {
            GenericParam::Lifetime(_) if borrowing_ok => {}
            GenericParam::Lifetime(_) => {
                return Err(
                    "it borrows (a lifetime parameter): values the program model builds are owned"
                        .into(),
                )
            }
            GenericParam::Type(t) => {
                order.push((t.ident.to_string(), t.default.is_some()));
                bounds
                    .entry(t.ident.to_string())
                    .or_default()
                    .extend(trait_names(&t.bounds));
                if let Some(d) = declared_default(t, named) {
                    defaults.insert(t.ident.to_string(), d);
                }
            }
            GenericParam::Const(c) => {
                // A `usize` without a default is a capacity in practice (arraydeque's
                // `ArrayDeque<T, const CAP: usize>`, circular-buffer's `N`): it must exceed
                // the largest size a sweep reaches, as inline storage does (see
                // `storage::ANY_STORAGE_LEN`), or every sweep stops at it, inconclusive.
                let default = match &c.default {
                    Some((_, syn::Expr::Lit(l))) => Some(l.lit.to_token_stream().to_string()),
                    _ if c.ty.to_token_stream().to_string() == "usize" => {
                        Some(super::storage::ANY_STORAGE_LEN.to_string())
                    }
                    _ => None,
                };
                consts.push((c.ident.to_string(), default));
            }
        }
    }
    // Bounds on a parameter's associated type (smallvec's `impl<A: Array> SmallVec<A> where
    // A::Item: Copy`), by `A::Item`: what the element of inline storage must meet.
    let mut projected: HashMap<String, BTreeSet<String>> = HashMap::new();
    // Impl blocks name the type's parameters the same way in practice (`impl<T: Ord> S<T>`).
    let mut add_where = |g: &syn::Generics| {
        for p in &g.params {
            if let GenericParam::Type(t) = p {
                if let Some(set) = bounds.get_mut(&t.ident.to_string()) {
                    set.extend(trait_names(&t.bounds));
                }
            }
        }
        if let Some(w) = &g.where_clause {
            for pred in &w.predicates {
                if let syn::WherePredicate::Type(pt) = pred {
                    let id = pt.bounded_ty.to_token_stream().to_string();
                    if let Some(set) = bounds.get_mut(&id) {
                        set.extend(trait_names(&pt.bounds));
                    } else if let Some(assoc) = projection(&pt.bounded_ty) {
                        projected
                            .entry(assoc)
                            .or_default()
                            .extend(trait_names(&pt.bounds));
                    }
                }
            }
        }
    };
    add_where(g);
    for ig in impls {
        add_where(ig);
    }
    let mut subst = HashMap::new();
    // A parameter bounded by the crate's traits over another parameter (segment-tree's
    // `O: Operation<N>`): the crate's type implementing them at an integer, which the other
    // parameter then is (`SegmentPoint<u64, Add>`).
    let params: Vec<String> = order.iter().map(|(n, _)| n.clone()).collect();
    let mut paired: HashMap<String, String> = HashMap::new();
    for (name, bs) in &bounds {
        let own: Vec<&String> = bs.iter().filter(|b| !integers_meet(b)).collect();
        let Some(other) = params
            .iter()
            .find(|p| *p != name && own.iter().any(|b| super::int_traits::names_arg(b, p)))
        else {
            continue;
        };
        let other_own = bounds
            .get(other)
            .is_some_and(|b| b.iter().any(|b| !integers_meet(b)));
        if own.is_empty() || other_own || paired.contains_key(other) {
            continue;
        }
        if let Some((int, ty)) = for_ints.type_at(&own, other) {
            if let Some(path) = named.get(ty) {
                paired.insert(name.clone(), path.clone());
                paired.insert(other.clone(), int.to_string());
            }
        }
    }
    for (name, bs) in bounds {
        if let Some(pick) = paired.remove(&name) {
            subst.insert(name, pick);
            continue;
        }
        let key_ok = bs.iter().all(|b| KEY_TRAITS.contains(&b.as_str()));
        let own: Vec<&String> = bs.iter().filter(|b| !integers_meet(b)).collect();
        // A declared default (petgraph's `Ix = DefaultIx`) is the author's choice: it wins
        // over an integer or a type of the crate guessed from the bounds.
        let declares_default = order.iter().any(|(n, d)| *n == name && *d);
        let int = if own.is_empty() {
            Some("u64")
        } else if declares_default {
            None
        } else {
            for_ints.int_for(&own)
        };
        let crate_type = (int.is_none() && !declares_default && !own.is_empty())
            .then(|| for_ints.type_for(&own).and_then(|t| named.get(t)))
            .flatten();
        let pick = if bs.iter().any(|b| b == "BuildHasher") {
            // Hash collections take a hasher parameter: the runtime's fixed, seedless one.
            "FixedState"
        } else if key_ok {
            "Key"
        } else if let Some(int) = int {
            int
        } else if let Some(t) = crate_type {
            t.as_str()
        } else if bs
            .iter()
            .all(|b| KEY_TRAITS.contains(&b.as_str()) || arrays.contains_key(b))
        {
            // Inline storage (`A: Array`): an array of keys; `A::Item` is the key. An impl
            // bounding the element by a trait the key lacks (`where A::Item: Copy`, smallvec's
            // `from_slice` and `extend_from_slice`) makes it an integer, as such a bound on a
            // plain parameter does (`T: Copy` is `u64`): the compiler rejected those methods.
            let traits: Vec<&super::storage::ArrayImpl> =
                bs.iter().filter_map(|b| arrays.get(b)).collect();
            let item_bounds: Vec<&String> = traits
                .iter()
                .flat_map(|t| &t.assoc)
                .filter_map(|assoc| projected.get(&format!("{name}::{assoc}")))
                .flatten()
                .collect();
            let item = if item_bounds.iter().all(|b| KEY_TRAITS.contains(&b.as_str())) {
                "Key"
            } else if item_bounds.iter().all(|b| integers_meet(b)) {
                "u64"
            } else {
                "Key"
            };
            for t in &traits {
                for assoc in &t.assoc {
                    subst.insert(format!("{name}::{assoc}"), item.to_string());
                }
            }
            subst.insert(name, super::storage::storage_type(&traits, item));
            continue;
        } else if let Some(d) = defaults.get(&name) {
            d.as_str()
        } else if declares_default {
            OMITTED
        } else {
            let extra: Vec<&String> = bs
                .iter()
                .filter(|b| !KEY_TRAITS.contains(&b.as_str()) && !U64_TRAITS.contains(&b.as_str()))
                .collect();
            return Err(format!(
                "its parameter {name} needs {} which neither the probe key nor an integer implements (the crate implements it for no integer the harness builds)",
                extra
                    .iter()
                    .map(|s| s.as_str())
                    .collect::<Vec<_>>()
                    .join(" + ")
            ));
        };
        subst.insert(name, pick.to_string());
    }
    // Only trailing parameters can be left out of `T<A, B>`.
    let kept_after = order
        .iter()
        .rposition(|(n, _)| subst.get(n).map(String::as_str) != Some(OMITTED));
    if let Some((n, _)) = order
        .iter()
        .take(kept_after.map_or(0, |k| k + 1))
        .find(|(n, _)| subst.get(n).map(String::as_str) == Some(OMITTED))
    {
        return Err(format!(
            "its parameter {n} has a default the harness cannot name, and parameters after it must be given"
        ));
    }
    for (c, default) in consts {
        subst.insert(c, default.unwrap_or_else(|| "64".to_string()));
    }
    Ok(subst)
}

/// What the type's parameters are where the harness cannot name them as program values: a
/// parameter its alias fixes (patricia_tree's `pub type PatriciaMap<V> =
/// GenericPatriciaMap<Vec<u8>, V>` fixes `K`) is that type, and an associated type of a
/// parameter (`K::Borrowed`) is what the crate's impl of its trait for the parameter's type
/// sets it to (`impl Bytes for Vec<u8> { type Borrowed = [u8]; }`). Signatures are read with
/// them written out: `insert<Q: AsRef<K::Borrowed>>(&mut self, key: Q, ..)` is
/// `Q: AsRef<[u8]>`, a string, and `iter_prefix(&self, prefix: &K::Borrowed)` takes a slice
/// (all of patricia_tree's lookups and updates were skipped).
#[derive(Default)]
struct FixedParams {
    /// A parameter an alias fixes, by name: the type it fixes it to.
    idents: HashMap<String, proc_macro2::TokenStream>,
    /// A parameter's associated types, by parameter and associated type name.
    assoc: HashMap<String, HashMap<String, proc_macro2::TokenStream>>,
}

impl FixedParams {
    fn of(
        t: &FoundType,
        subst: &HashMap<String, String>,
        alias: Option<&FoundType>,
        scan: &Scan,
    ) -> FixedParams {
        let mut out = FixedParams::default();
        let alias_args = alias
            .and_then(|a| scan.aliases.iter().find(|(x, _)| std::ptr::eq(x, a)))
            .and_then(|(a, target)| Some((a, alias_args(t, target)?)));
        let params: Vec<String> = param_names(&t.generics).collect();
        for (k, p) in params.iter().enumerate() {
            // The alias's argument for `p`, when it names none of the alias's parameters.
            let by_alias = alias_args.as_ref().and_then(|(a, args)| {
                let arg = args.get(k)?;
                let own = a.generics.params.iter().any(|g| match g {
                    GenericParam::Type(tp) => tp.ident == arg.trim(),
                    GenericParam::Const(c) => c.ident == arg.trim(),
                    GenericParam::Lifetime(_) => false,
                });
                (!own).then(|| arg.clone())
            });
            let concrete = match &by_alias {
                Some(arg) => arg.replace(' ', ""),
                None => match subst.get(p) {
                    Some(s) if s != OMITTED => s.replace(' ', ""),
                    _ => continue,
                },
            };
            if let Some(arg) = &by_alias {
                if let Ok(tokens) = arg.parse() {
                    out.idents.insert(p.clone(), tokens);
                }
            }
            for (self_ty, name, ty) in &scan.assoc_impls {
                if *self_ty == concrete {
                    out.assoc
                        .entry(p.clone())
                        .or_default()
                        .insert(name.clone(), ty.to_token_stream());
                }
            }
        }
        out
    }

    /// `f` with the fixed parameters and their associated types written out in its
    /// signature.
    fn apply(&self, f: &syn::ImplItemFn) -> syn::ImplItemFn {
        if self.idents.is_empty() && self.assoc.is_empty() {
            return f.clone();
        }
        let mut tokens = f.sig.to_token_stream();
        for (p, assoc) in &self.assoc {
            tokens = super::scan::replace_assoc(tokens, p, assoc);
        }
        let tokens = super::scan::replace_idents(tokens, &self.idents);
        let mut out = f.clone();
        if let Ok(sig) = syn::parse2(tokens) {
            out.sig = sig;
        }
        out
    }
}

/// The crate's public aliases of a primitive (fixedbitset's `pub type Block = usize;`), by
/// name: a signature naming one names the primitive (`with_capacity_and_blocks<I:
/// IntoIterator<Item = Block>>` was skipped, `Block` "not in the program model").
fn primitive_aliases(scan: &Scan) -> HashMap<String, proc_macro2::TokenStream> {
    const PRIMITIVES: &[&str] = &[
        "u8", "u16", "u32", "u64", "u128", "usize", "i8", "i16", "i32", "i64", "i128", "isize",
        "bool", "char", "f32", "f64", "String",
    ];
    scan.aliases
        .iter()
        .filter(|(a, _)| a.generics.params.is_empty())
        .filter_map(|(a, target)| {
            let Type::Path(p) = target else { return None };
            let id = p.path.get_ident()?.to_string();
            PRIMITIVES
                .contains(&id.as_str())
                .then(|| (a.ident.clone(), target.to_token_stream()))
        })
        .collect()
}

/// `sig` with each argument of type `impl Trait` (or `&impl Trait`, `&mut impl Trait`) given a
/// generic parameter of its own, `impl_NAME: Trait`: an argument-position `impl Trait` is
/// such a parameter, and reading it as one gives it every shape a generic parameter has
/// (compact_str's `drain(&mut self, range: impl RangeBounds<usize>)` was skipped where
/// `drain<R: RangeBounds<usize>>` registers as a range).
fn impl_args_as_generics(sig: &syn::Signature) -> syn::Signature {
    let mut out = sig.clone();
    for (k, arg) in out.inputs.iter_mut().enumerate() {
        let FnArg::Typed(pt) = arg else { continue };
        let name = match &*pt.pat {
            syn::Pat::Ident(i) => i.ident.to_string(),
            _ => format!("arg{k}"),
        };
        let slot: &mut Type = match &mut *pt.ty {
            Type::Reference(r) => &mut r.elem,
            t => t,
        };
        let Type::ImplTrait(it) = slot else { continue };
        let ident = syn::Ident::new(
            &format!("impl_{}", name.trim_start_matches('_')),
            proc_macro2::Span::call_site(),
        );
        let bounds = it.bounds.clone();
        out.generics.params.push(syn::parse_quote!(#ident: #bounds));
        *slot = syn::parse_quote!(#ident);
    }
    out
}

fn snake(path: &str) -> String {
    let mut s = String::new();
    for (i, c) in path.replace("::", "_").chars().enumerate() {
        if c.is_uppercase() {
            if i > 0 && !s.ends_with('_') {
                s.push('_');
            }
            s.extend(c.to_lowercase());
        } else {
            s.push(c);
        }
    }
    s
}

/// `T` of a type `Result<T, ..>` (any `Result` path, a crate's one-parameter alias
/// included) or `Option<T>`.
fn fallible_of(t: &Type) -> Option<&Type> {
    first_arg_of(t, &["Result", "Option"])
}

/// The first generic argument of a type whose last path segment is one of `names`.
fn first_arg_of<'t>(t: &'t Type, names: &[&str]) -> Option<&'t Type> {
    let Type::Path(p) = t else { return None };
    let last = p.path.segments.last()?;
    if !names.iter().any(|n| last.ident == n) {
        return None;
    }
    let syn::PathArguments::AngleBracketed(a) = &last.arguments else {
        return None;
    };
    match a.args.first()? {
        syn::GenericArgument::Type(inner) => Some(inner),
        _ => None,
    }
}

/// The model type a parameter bounded only by conversions into a model value takes, in
/// generic (`S: AsRef<str>`) or `impl` form (`impl Into<String>`): a `String` for the
/// [`STRING_LIKE`] bounds (or `ToString`) beside others `String` meets, an integer for
/// `Into<u64>` alone. The standard library converts the value itself (`String: Into<String>
/// + AsRef<str>`, `u64: Into<u64>`). String-taking APIs are written this way more often than
/// with `&str`.
fn conversion_target(names: &[String]) -> Option<String> {
    let has = |set: &[&str], b: &String| set.contains(&b.as_str());
    let stringy = names.iter().any(|b| has(STRING_LIKE, b) || b == "ToString");
    if stringy
        && names
            .iter()
            .all(|b| has(STRING_LIKE, b) || has(STRING_TRAITS, b))
    {
        return Some("String".into());
    }
    let [only] = names else { return None };
    let int = only.strip_prefix("Into<")?.strip_suffix('>')?;
    MODEL_INTS.contains(&int).then(|| int.to_string())
}

/// The conversion an `Option<T>` parameter's value gets (see `Ctx::param`).
pub const INTO: &str = ".into()";

/// The names of the type and const parameters of `g`, in order (lifetimes left out).
fn param_names(g: &syn::Generics) -> impl Iterator<Item = String> + '_ {
    g.params.iter().filter_map(|p| match p {
        GenericParam::Type(tp) => Some(tp.ident.to_string()),
        GenericParam::Const(c) => Some(c.ident.to_string()),
        GenericParam::Lifetime(_) => None,
    })
}
