//! Decides what of a scanned API the program model can drive: which types register (at
//! which instantiation), which constructors and methods, with which passing modes, and why
//! everything else is skipped. The output is plain data that `gen` prints.

use std::collections::{BTreeSet, HashMap, HashSet};

use quote::ToTokens;
use syn::{GenericParam, ImplItem, ReturnType, Type};

use super::aliases::{instantiate_free, through_alias, FixedParams};
use super::instantiate::{instantiate, OMITTED};
use super::model_ty::ModelTy;
use super::registrations::{
    Func, Model, Param, Receiver, TypeReg, STRUCT_LITERAL, STRUCT_VARIANT, TUPLE_LITERAL,
    TUPLE_VARIANT, UNIT_VARIANT,
};
use super::resolve::{Built, Ctx, RegsIn};
use super::scan::{ident_counts, is_pub, FoundType, Scan};
use super::skips::SkipReason;
use super::syntax::param_names;
use super::syntax::unique_fn_name;
use super::value_traits::MODEL_INTS;
use super::variants::{filled, numbered};

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
/// returns by value (`Index` from `Arena::insert`, `Index<T>` from
/// `push_back`). They register without constructors, so that the methods taking them
/// register too; a program gets one from a call that returns it (see `mutate::obtain`).
/// Iterators are not handles: a method returning one consumes it.
fn handles(scan: &Scan, first: &Model) -> HashSet<String> {
    let returned: HashSet<String> = first
        .types
        .iter()
        .flat_map(|t| &t.methods)
        .filter(|m| m.chain.is_none())
        .filter_map(|m| m.ret.as_ref().map(ToString::to_string))
        .collect();
    first
        .no_ctor
        .iter()
        .filter(|(ident, name)| {
            returned.contains(name)
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

/// A reachable type of the crate with the instantiation it registers at.
struct Chosen<'s> {
    ty: &'s FoundType,
    /// Each generic parameter's instantiation (see [`instantiate`]).
    subst: HashMap<String, String>,
    /// The Rust type as the registration writes it.
    rust: String,
    /// The `use` path `rust` needs (`None` when `rust` is a full path).
    import: Option<String>,
    registry_name: String,
    /// Whether the type registers in this pass (see [`handles`]).
    registers: bool,
    /// The public alias the type registers through, if any (see [`through_alias`]).
    alias: Option<&'s FoundType>,
    /// For an instantiation an impl block fixes, the label its path takes (`<Undirected>`;
    /// see [`fixed_instantiations`](super::fixed_instantiations)).
    fixed: Option<String>,
}

/// Which types register and at which instantiation, so that parameters and results of the
/// crate's own types can refer to them: every reachable type an instantiation fits (the
/// others are skipped in `model`), with the registered ones by identifier and by defining
/// module and identifier.
fn choose<'s>(
    lib: &str,
    scan: &'s Scan,
    registered: Option<&HashSet<String>>,
    counts: &HashMap<String, usize>,
    model: &mut Model,
) -> (Vec<Chosen<'s>>, HashMap<String, (String, String)>, RegsIn) {
    let mut regs: HashMap<String, (String, String)> = HashMap::new();
    let mut regs_in: RegsIn = HashMap::new();
    let mut chosen = Vec::new();
    let named = default_paths(lib, scan);
    // Types whose parameters the crate's impls decide wait for every other type (see
    // `assoc_ties`): (type, whether this is its second turn).
    let mut queue: Vec<(&FoundType, bool)> = scan
        .types
        .iter()
        .filter(|t| t.reachable)
        .map(|t| (t, false))
        .collect();
    let mut turn = 0;
    let prim_aliases = super::scoped_aliases::ScopedAliases::of(scan);
    let std_hasher = std_build_hasher_default(scan);
    while let Some(&(t, deferred)) = queue.get(turn) {
        turn += 1;
        let named = named_in(lib, scan, &named, &t.module);
        let by_impls = || {
            let r = super::assoc_ties::Registered {
                lib,
                regs: &regs,
                named: &named,
            };
            super::assoc_ties::from_impls(t, scan, &r)
        };
        let (subst, alias) = match instantiate(
            &t.generics,
            t.impls.iter().map(|i| &i.generics),
            false,
            &named,
            &scan.array_traits,
            &scan.int_traits,
        ) {
            Ok(_) if !deferred && super::assoc_ties::tied(t, scan) => {
                queue.push((t, true));
                continue;
            }
            Ok(s) => {
                let mut s = if deferred { by_impls().unwrap_or(s) } else { s };
                instantiate_free(t, scan, &mut s);
                (s, None)
            }
            Err(reason) => match through_alias(t, scan, &named) {
                Some((s, a)) => (s, Some(a)),
                None if !deferred && matches!(reason, SkipReason::GenericBoundNotMet { .. }) => {
                    queue.push((t, true));
                    continue;
                }
                None => match by_impls() {
                    Some(mut s) => {
                        instantiate_free(t, scan, &mut s);
                        (s, None)
                    }
                    None => {
                        model.unregistered_methods += method_count(t);
                        model.skipped_types.push((t.public_path.join("::"), reason));
                        continue;
                    }
                },
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
        let full_named = full.clone();
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
        // Instantiations the type's impl blocks fix, walked before the main one (whose
        // want of a constructor they may make up for, see `register_type`).
        if registers && alias.is_none() {
            let aliased = |d: &Type| prim_aliases.expanded_text(&t.module, d);
            let naming = super::fixed_args::Naming {
                lib,
                scan,
                regs: &regs,
                named: &named,
                aliased: &aliased,
            };
            let params: Vec<String> = param_names(&t.generics).collect();
            let applies = |s: &HashMap<String, String>, imp: &syn::ItemImpl| {
                other_instantiation(&t.generics, s, imp, &aliased, std_hasher).is_none()
                    || super::fixed_args::applies_as_registered(imp, &params, s, &naming)
            };
            for f in super::fixed_instantiations::of(t, &subst, &naming, &applies) {
                let subst = f.apply(&subst);
                let args: Vec<String> = param_names(&t.generics)
                    .filter_map(|p| subst.get(&p).cloned())
                    .filter(|a| a != OMITTED)
                    .collect();
                let generic = format!("<{}>", args.join(","));
                let rust = if duplicate {
                    format!("{full_named}{generic}")
                } else {
                    format!("{shown}{generic}")
                };
                chosen.push(Chosen {
                    ty: t,
                    subst,
                    rust: rust.clone(),
                    import: import.clone(),
                    registry_name: rust,
                    registers,
                    alias: None,
                    fixed: Some(f.label),
                });
            }
        }
        chosen.push(Chosen {
            ty: t,
            subst,
            rust,
            import,
            registry_name,
            registers,
            alias: alias.map(|(a, _)| a),
            fixed: None,
        });
    }
    super::imports::extend_through_imports(&mut regs_in, &scan.imports);
    (chosen, regs, regs_in)
}

fn build_with(
    lib: &str,
    scan: &Scan,
    registered: Option<&HashSet<String>>,
    handles: &HashSet<String>,
) -> Model {
    let counts = ident_counts(&scan.types);
    let mut model = Model::default();
    let (chosen, regs, regs_in) = choose(lib, scan, registered, &counts, &mut model);
    // Registry names of the crate's `Copy` types: passed as `copy`, they are not moved.
    let copies: HashSet<String> = chosen
        .iter()
        .filter(|c| c.ty.copy && c.registers)
        .map(|c| c.registry_name.clone())
        .collect();
    let mut fn_names: HashMap<String, usize> = HashMap::new();
    let no_closures = HashMap::new();
    let prim_aliases = super::scoped_aliases::ScopedAliases::of(scan);
    // Borrowing types (a lifetime parameter), exported or not, and public types without a
    // constructor (`map::Slice`, reached by `as_slice()`): not registered, but
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
    let mut enums: super::chain::Enums = HashMap::new();
    for t in scan
        .types
        .iter()
        .filter(|t| t.reachable && !t.variants.is_empty())
    {
        let path = std::iter::once(lib.to_string())
            .chain(t.public_path.iter().cloned())
            .collect::<Vec<_>>()
            .join("::");
        enums.entry(t.ident.clone()).or_default().push((
            t.module.clone(),
            path,
            t.variants.clone(),
        ));
    }
    let mut chained: BTreeSet<(String, String)> = BTreeSet::new();
    // Types without a constructor whose methods no registration calls, until chains say
    // otherwise: (index in `skipped_types`, public path, its methods).
    let mut unreachable: Vec<(usize, String, usize)> = Vec::new();
    // Footnote markers may be defined in any doc of the crate (see `class_reader`).
    let notes = super::class_reader::footnotes(
        std::iter::once(scan.crate_doc.as_str())
            .chain(scan.module_docs.values().map(String::as_str))
            .chain(scan.types.iter().map(|t| t.doc.as_str())),
    );
    let slots = super::slots::Slots::new(lib, scan);
    let literals = super::literals::Literals::new(lib, scan);
    let walk = Walk {
        lib,
        scan,
        registered,
        handles,
        counts: &counts,
        regs: &regs,
        regs_in: &regs_in,
        copies: &copies,
        no_closures: &no_closures,
        prim_aliases: &prim_aliases,
        slots: &slots,
        literals: &literals,
        borrowers: &borrowers,
        enums: &enums,
        notes: &notes,
    };
    let mut fixed_registered = Vec::new();
    let mut walked = Walked {
        fn_names: &mut fn_names,
        chained: &mut chained,
        unreachable: &mut unreachable,
        fixed_registered: &mut fixed_registered,
    };
    for c in chosen {
        register_type(&walk, c, &mut model, &mut walked);
    }
    super::fixed_instantiations::count_once(&mut model, &fixed_registered);
    super::fixed_instantiations::after_main(&mut model, &fixed_registered);
    // Free functions, one namespace per module, taking the crate's registered types.
    let crate_classes = super::class_reader::TypeClasses::new(
        &[super::class_reader::DocSource {
            from: "the crate's doc",
            doc: &scan.crate_doc,
        }],
        &notes,
    );
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
        slots: &slots,
        literals: &literals,
    };
    let (mut namespaces, skipped_fns) = super::free::namespaces(
        lib,
        &scan.free_fns,
        &free_cx,
        &mut fn_names,
        &mut model.vecs,
    );
    let borrowing = || super::chain::Borrowers {
        types: &borrowers,
        enums: &enums,
        items: &scan.iterator_items,
    };
    chained.extend(super::function_results::chain_onto_results(
        lib,
        &scan.free_fns,
        &mut namespaces,
        &free_cx,
        borrowing(),
        &mut model.vecs,
    ));
    chained.extend(super::string_trait_chains::chain_string_methods(
        &mut namespaces,
        &scan.free_fns,
        &free_cx,
        borrowing(),
        &mut model.vecs,
    ));
    for ns in &namespaces {
        let names: Vec<String> = ns.methods.iter().map(|m| m.name.clone()).collect();
        model
            .classes
            .extend(crate_classes.records(&ns.path, &names));
    }
    model.types.extend(namespaces);
    model.skipped_fns = skipped_fns;
    // Types that borrow their input, built from program values and consumed in one call.
    let mut built = super::borrowed_input::namespaces(
        lib,
        scan,
        &free_cx,
        super::chain::Borrowers {
            types: &borrowers,
            enums: &enums,
            items: &scan.iterator_items,
        },
        &mut fn_names,
        &mut model.vecs,
    );
    chained.extend(built.methods);
    super::counted_once::count_once(&mut model.types, &mut built.types, &mut chained);
    model.types.extend(built.types);
    // A type without a constructor whose methods chains reach (`map::Slice`,
    // through `as_slice()`): those are not unreachable ("its 33 methods are unreachable"
    // where 33 were registered through `as_slice` and `as_mut_slice`).
    for (k, public, methods) in unreachable {
        let reached: BTreeSet<&String> = chained
            .iter()
            .filter(|(p, _)| *p == public)
            .map(|(_, m)| m)
            .collect();
        let left = methods.saturating_sub(reached.len());
        if let SkipReason::NoConstructor {
            unreachable,
            reached: reached_by_chains,
        } = &mut model.skipped_types[k].1
        {
            *unreachable = left;
            *reached_by_chains = reached.len();
        }
    }
    // A borrowing type built and consumed by a namespace of its own is not skipped (after
    // the loop above, which indexes `skipped_types`).
    model
        .skipped_types
        .retain(|(p, _)| !built.built.contains(p));
    super::handed_out::mark_reached(&mut model.skipped_types, &chained, &|path| {
        scan.types
            .iter()
            .filter(|t| t.reachable && t.public_path.join("::") == path)
            .map(method_count)
            .max()
            .unwrap_or(0)
    });
    // Methods reached through a chain are registered, not unreachable.
    model.unregistered_methods -= chained.len().min(model.unregistered_methods);
    model.chained = chained.len();
    model
}

/// What registering each chosen type reads: the crate and what was decided of all its
/// types before the walk (see [`build_with`]).
struct Walk<'a> {
    lib: &'a str,
    scan: &'a Scan,
    registered: Option<&'a HashSet<String>>,
    handles: &'a HashSet<String>,
    counts: &'a HashMap<String, usize>,
    regs: &'a HashMap<String, (String, String)>,
    regs_in: &'a RegsIn,
    copies: &'a HashSet<String>,
    no_closures: &'a HashMap<String, Built>,
    prim_aliases: &'a super::scoped_aliases::ScopedAliases,
    slots: &'a super::slots::Slots,
    literals: &'a super::literals::Literals,
    borrowers: &'a HashMap<String, Vec<&'a FoundType>>,
    enums: &'a super::chain::Enums,
    /// The crate's footnote markers (see [`class_reader`](super::class_reader)).
    notes: &'a super::class_reader::Footnotes,
}

/// What registering each chosen type adds to besides the model: the registration
/// functions' names, the methods chains reach, and the types whose unreachable methods
/// wait for every type's chains.
struct Walked<'a> {
    fn_names: &'a mut HashMap<String, usize>,
    chained: &'a mut BTreeSet<(String, String)>,
    unreachable: &'a mut Vec<(usize, String, usize)>,
    /// (index in `model.types`, main path) of each registered instantiation an impl block
    /// fixes (see [`fixed_instantiations`](super::fixed_instantiations)).
    fixed_registered: &'a mut Vec<(usize, String)>,
}

/// Registers one chosen type in `model`: its constructors and methods, with the chained
/// calls through the borrowing types they return; or, without a constructor the model can
/// call, the reason it is skipped.
fn register_type(w: &Walk<'_>, c: Chosen<'_>, model: &mut Model, walked: &mut Walked<'_>) {
    let Walk {
        lib,
        scan,
        registered,
        handles,
        counts,
        regs,
        regs_in,
        copies,
        no_closures,
        prim_aliases,
        slots,
        literals,
        borrowers,
        enums,
        notes,
    } = *w;
    let Walked {
        fn_names,
        chained,
        unreachable,
        fixed_registered,
    } = walked;
    let Chosen {
        ty: t,
        subst,
        rust,
        import,
        registry_name,
        registers,
        alias,
        fixed: fixed_label,
    } = c;
    let duplicate = alias.is_none() && counts.get(&t.ident).copied().unwrap_or(0) > 1;
    let named_by = alias.unwrap_or(t);
    let main_path = if duplicate {
        t.public_path.join("::")
    } else {
        named_by
            .public_path
            .last()
            .cloned()
            .unwrap_or(named_by.ident.clone())
    };
    let path = format!("{main_path}{}", fixed_label.as_deref().unwrap_or(""));
    // `Graph<Undirected>` registers as `graph_undirected()`, `Graph<(),(),Undirected>` as
    // `graph_unit_unit_undirected()`.
    let fn_base = match &fixed_label {
        Some(l) => format!(
            "{main_path}_{}",
            l.trim_matches(['<', '>'])
                .replace(super::fixed_instantiations::UNIT, "unit")
                .replace(',', "_")
        ),
        None => path.clone(),
    };
    let mut reg = TypeReg {
        fn_name: unique_fn_name(&snake(&fn_base), fn_names),
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
        name: (duplicate && fixed_label.is_none()).then(|| registry_name.clone()),
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
        borrowed_input: false,
    };
    let no_doc = String::new();
    let table = {
        use super::class_reader::DocSource;
        // The root module's doc is the crate's, read last.
        let module_doc = |m: &[String]| {
            (!m.is_empty())
                .then(|| scan.module_docs.get(m))
                .flatten()
                .unwrap_or(&no_doc)
        };
        super::class_reader::TypeClasses::new(
            &[
                DocSource {
                    from: "its type's doc",
                    doc: &named_by.doc,
                },
                DocSource {
                    from: "its type's doc",
                    doc: &t.doc,
                },
                DocSource {
                    from: "its module's doc",
                    doc: module_doc(&t.module),
                },
                DocSource {
                    from: "its module's doc",
                    doc: module_doc(&named_by.module),
                },
                DocSource {
                    from: "the crate's doc",
                    doc: &scan.crate_doc,
                },
            ],
            notes,
        )
    };
    let class_records = |reg: &TypeReg| {
        let names: Vec<String> = reg.methods.iter().map(|m| m.name.clone()).collect();
        table.take(&reg.path, &names)
    };
    let cx = Ctx {
        ty_ident: &t.ident,
        self_name: &registry_name,
        self_rust: &rust,
        module: &t.module,
        subst: &subst,
        regs,
        regs_in,
        copies,
        iterators: &scan.iterators,
        closures: no_closures,
        arrays: &scan.array_traits,
        int_traits: &scan.int_traits,
        table: &table,
        prim_aliases,
        slots,
        literals,
    };
    let aliased = |d: &Type| prim_aliases.expanded_text(&t.module, d);
    let std_hasher = std_build_hasher_default(scan);
    // `impl Default` for another instantiation only
    // (`impl Default for StringInterner<DefaultBackend>` fixes the hasher the harness
    // replaces): not a constructor here; the compiler rejected it, at the cost of a build.
    let default_elsewhere = t
        .default_impls
        .iter()
        .map(|i| other_instantiation(&t.generics, &subst, i, &aliased, std_hasher))
        .collect::<Option<Vec<String>>>()
        .and_then(|shown| shown.into_iter().next());
    if let (false, true, Some(shown)) =
        (t.derives_default, t.implements_default, &default_elsewhere)
    {
        reg.skipped.push((
            format!("{path}::default"),
            SkipReason::DefaultElsewhere {
                shown: shown.clone(),
                rust: rust.clone(),
            },
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
    // returning it (`as_mut_circular_buffer`, `leak`) would repeat
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
    // What this type's chains reached past their first hand-out (see `handed_out`).
    let mut handed = super::handed_out::Seen::default();
    let type_params: Vec<String> = param_names(&t.generics).collect();
    // A block written over another registered type of the crate (see `fixed_args`).
    let paths = default_paths(lib, scan);
    let named = named_in(lib, scan, &paths, &t.module);
    let naming = super::fixed_args::Naming {
        lib,
        scan,
        regs,
        named: &named,
        aliased: &aliased,
    };
    let applies_as_registered = |imp: &syn::ItemImpl| {
        super::fixed_args::applies_as_registered(imp, &type_params, &subst, &naming)
    };
    for imp in &t.impls {
        let mut other_instance =
            other_instantiation(&t.generics, &subst, imp, &aliased, std_hasher);
        // A block written with projections of its own generic, solved from the registration.
        let solved = other_instance.as_ref().and_then(|_| {
            let r = super::assoc_ties::Registered {
                lib,
                regs,
                named: &HashMap::new(),
            };
            super::projected_impls::solved(imp, &type_params, &subst, scan, &r, &t.ident)
        });
        if solved.is_some() || (other_instance.is_some() && applies_as_registered(imp)) {
            other_instance = None;
        }
        let imp = solved.as_ref().unwrap_or(imp);
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
            // A name another impl already failed on: this one may register
            // (`Build::add_node(Self::NodeWeight)` came before the inherent
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
                Some(shown) => Err(SkipReason::ImplForOtherInstantiation {
                    shown: shown.clone(),
                    rust: rust.clone(),
                }),
                None => cx.func(&f.sig, &f.attrs, &mut model.vecs),
            };
            if func.is_ok() && f.sig.receiver().is_none() {
                reg.skipped_not_methods -= 1;
            }
            let registered_now =
                matches!(&func, Ok(func) if func.receiver != Some(Receiver::Boxed));
            if registered_now {
                seen.insert(name.clone());
            } else {
                failed.insert(name.clone(), f.sig.receiver().is_none());
            }
            match func {
                Ok(func) if func.receiver.is_none() => {
                    let filled =
                        filled(&func).filter(|f| !reg.ctors.iter().any(|c| c.name == f.name));
                    reg.ctors.push(func);
                    reg.ctors.extend(filled);
                }
                Ok(func) if func.receiver == Some(Receiver::Boxed) => {
                    reg.skipped.push((spec, SkipReason::BoxedReceiver))
                }
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
                            super::chain::Borrowers {
                                types: &own_borrowers,
                                enums,
                                items: &scan.iterator_items,
                            },
                            &mut handed,
                            &mut model.vecs,
                        );
                        let methods = ch.fold_into(&mut reg, lib, &mut reached);
                        reg.methods.extend(methods);
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
            if let Some((params, tuple)) = field_params(fields, &cx, &mut model.vecs) {
                let name = if tuple { TUPLE_LITERAL } else { "literal" };
                reg.ctors
                    .push(Func::ctor(name, params, Some(STRUCT_LITERAL)));
            }
        }
    }
    // An enum's variants holding fields (`Element::Edge { source, target, weight }`): each
    // a literal of the variant, when the model can supply every field.
    for (variant, fields) in &t.data_variants {
        if let Some((params, tuple)) = field_params(fields, &cx, &mut model.vecs) {
            let suffix = if tuple { TUPLE_VARIANT } else { STRUCT_VARIANT };
            reg.ctors.push(Func::ctor(variant, params, Some(suffix)));
        }
    }
    // A type built only by a conversion from a string (`impl From<&str> for BString`,
    // a newtype over a private `String`): `T::from` of a program's string.
    if reg.ctors.is_empty() {
        if let Some(from) = scan.int_traits.string_conversion(&t.ident) {
            let ty: syn::Type = syn::parse_str(from).expect("a string type");
            if let Ok(p) = cx.param("s", &ty, &mut model.vecs) {
                reg.ctors.push(Func::ctor("from", vec![p], None));
            }
        }
    }
    // A type built only by collecting items (`impl FromIterator<Element<K, V>> for
    // IntervalTree<K, V>`, whose `new` is private): `T::from_iter` of a program's vector of
    // them, so the sweep grows it with the vector.
    if reg.ctors.is_empty() {
        if let Some(item) = scan.int_traits.item_collection(&t.ident) {
            let ty: syn::Type = syn::parse_quote!(Vec<#item>);
            if let Ok(p) = cx.param("items", &ty, &mut model.vecs) {
                reg.ctors.push(Func::ctor("from_iter", vec![p], None));
            }
        }
    }
    // An iterator built only by `Default` is always empty (`IntoIter`): its
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
    // instance no value bounds (`unbounded_with_hasher`, not `with_hasher(cap)`, whose
    // capacity the sweep does not grow and whose cache then never holds more than `cap`).
    reg.ctors
        .sort_by_key(|c| c.params.iter().map(|p| p.values().len()).sum::<usize>());
    // An instantiation an impl block fixes registers only with a constructor of its own; the
    // main one, without one, is made up for by such an instantiation (the fixed blocks held
    // its constructors: `SortedLinkedList::new_u8`).
    if fixed_label.is_some() {
        if !reg.ctors.is_empty() && registers {
            fixed_registered.push((model.types.len(), main_path));
            chained.extend(reached);
            model.classes.extend(class_records(&reg));
            model.types.push(reg);
        }
        return;
    }
    if reg.ctors.is_empty() && fixed_registered.iter().any(|(_, p)| *p == main_path) {
        return;
    }
    if handles.contains(&t.ident) && reg.ctors.is_empty() {
        reg.doc = handle_doc(&reg.doc);
        chained.extend(reached);
        model.classes.extend(class_records(&reg));
        model.types.push(reg);
        return;
    }
    if reg.ctors.is_empty() && registers {
        model.no_ctor.push((t.ident.clone(), registry_name.clone()));
    }
    if reg.ctors.is_empty() || !registers {
        // Its own methods: methods of other types it chains to are counted with those.
        let own = reg.methods.iter().filter(|m| m.chain.is_none()).count();
        let methods = own + reg.skipped.len() - reg.skipped_not_methods;
        // A type others deref to (`CircularBuffer`): its methods are
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
            model
                .skipped_types
                .push((path.clone(), SkipReason::DerefTarget { derefers }));
            return;
        }
        model.unregistered_methods += methods;
        let why = if empty_iterator {
            SkipReason::EmptyIterator
        } else {
            SkipReason::NoConstructor {
                unreachable: 0,
                reached: 0,
            }
        };
        if methods > 0 && !empty_iterator {
            // The count waits for every type's chains (see `unreachable` below).
            unreachable.push((model.skipped_types.len(), t.public_path.join("::"), methods));
        }
        model.skipped_types.push((path.clone(), why));
        return;
    }
    chained.extend(reached);
    model.classes.extend(class_records(&reg));
    model.types.push(reg);
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

/// How good a measure of an instance's size a method is, lower first: `len()`, `size()`,
/// then a `len_*()` (`Rope` has `len_bytes`, `len_chars`, ..., no `len`); `None` for
/// anything else. Only `&self` methods taking nothing and returning an integer qualify.
fn size_rank(f: &Func) -> Option<u8> {
    let measures = f.receiver == Some(Receiver::REF)
        && f.params.is_empty()
        && f.chain.is_none()
        && f.ret.as_ref().is_some_and(ModelTy::is_int);
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
///
/// `aliased` reads a declared default as the type's module sees it (`Ix = DefaultIx` is
/// `u32` where `pub type DefaultIx = u32`).
fn other_instantiation(
    g: &syn::Generics,
    subst: &HashMap<String, String>,
    imp: &syn::ItemImpl,
    aliased: &dyn Fn(&Type) -> String,
    std_hasher: bool,
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
    // chosen too (`impl<N, E> Graph<N, E, Directed>` and the harness's
    // `Graph<Key, Key, mycrate::Directed, mycrate::graph::DefaultIx>`, `Ix = DefaultIx`).
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
            || matches!((defaults[k], chosen[k]), (Some(d), Some(c)) if aliased(d) == *c)
            || matches!((defaults[k], chosen[k]),
                (Some(d), Some(c)) if super::param_defaults::is_chosen(d, subst, c))
    };
    let generic = args.len() <= omitted.len()
        && (args.len()..omitted.len()).all(defaulted)
        && args.iter().zip(&chosen).all(|(a, chosen)| match a {
            syn::GenericArgument::Type(Type::Path(p)) => {
                p.path
                    .get_ident()
                    .is_some_and(|i| own.contains(&i.to_string()))
                    // The very type the harness chose
                    // (`impl ArrayDeque<T, CAP, Saturating>`, the declared default behaviour).
                    || chosen.is_some_and(|c| same_type_path(&p.path, c))
                    // `BuildHasherDefault<S>` over the impl's own `S` where the harness chose
                    // its hasher: `FixedState` is `BuildHasherDefault<DefaultHasher>` (std's
                    // SipHash keyed by zeros, so costs stay deterministic), `S` its hasher.
                    || (chosen.map(String::as_str) == Some("FixedState")
                        && hasher_default_over(p, &own, std_hasher))
            }
            // Unit, where the harness chose it (a fixed instantiation's weights).
            syn::GenericArgument::Type(Type::Tuple(t)) if t.elems.is_empty() => {
                chosen.map(String::as_str) == Some(super::fixed_instantiations::UNIT)
            }
            _ => false,
        });
    (!generic).then(|| imp.self_ty.to_token_stream().to_string().replace(' ', ""))
}

/// Whether `p` is std's `BuildHasherDefault<S>` with `S` one of the impl's own parameters
/// (`own`), which the harness's `FixedState` instantiates: written `core::hash::`/`std::hash::`,
/// or bare where the crate's every import of that name is std's (`std_hasher`); hash32's
/// `BuildHasherDefault` of the same name is another type (the compiler rejected heapless's).
fn hasher_default_over(p: &syn::TypePath, own: &HashSet<String>, std_hasher: bool) -> bool {
    let Some(seg) = p.path.segments.last() else {
        return false;
    };
    let written: Vec<String> = p
        .path
        .segments
        .iter()
        .map(|s| s.ident.to_string())
        .collect();
    let std_path =
        matches!(written.as_slice(), [m, h, _] if (m == "core" || m == "std") && h == "hash");
    if !(std_path || (written.len() == 1 && std_hasher)) {
        return false;
    }
    let syn::PathArguments::AngleBracketed(a) = &seg.arguments else {
        return false;
    };
    seg.ident == "BuildHasherDefault"
        && matches!(a.args.iter().collect::<Vec<_>>().as_slice(),
            [syn::GenericArgument::Type(Type::Path(s))]
                if s.path.get_ident().is_some_and(|i| own.contains(&i.to_string())))
}

/// Whether `path` (as an impl block writes it) names `chosen`, a type the harness writes with
/// the crate's path (`mycrate::Saturating` for `Saturating`): the same segments at the
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

/// The public methods (functions with a `self` receiver) of a type's impls, by name: a
/// trait method of the crate named like an inherent one (`EdgeRef::weight` beside
/// `EdgeReference::weight`) is the method `e.weight()` calls once, as a registered type
/// counts it (the first impl registering a name wins there; the other is neither
/// registered nor skipped). Counting both made a borrowing type whose methods chains all
/// reach read "4 of its 5 methods".
fn method_count(t: &FoundType) -> usize {
    t.impls
        .iter()
        .flat_map(|i| &i.items)
        .filter_map(|it| match it {
            ImplItem::Fn(f) if is_pub(&f.vis) && f.sig.receiver().is_some() => {
                Some(f.sig.ident.to_string())
            }
            _ => None,
        })
        .collect::<HashSet<String>>()
        .len()
}

/// The full path (`lib::a::T`) of every reachable type of the crate whose identifier is
/// unique, by identifier: what a parameter's default (`G: LevelGenerator = Geometric`) names.
fn default_paths(lib: &str, scan: &Scan) -> HashMap<String, String> {
    let counts = ident_counts(&scan.types);
    // A public alias without parameters names a type as well as the type does
    // (`B = DefaultBackend`, `pub type DefaultBackend = StringBackend<..>`); one of a
    // primitive is that primitive (`Ix = DefaultIx`, `pub type DefaultIx = u32`), which
    // signatures then read as the integer they pass (`a: Ix`, `NodeIndex<Ix>`).
    let aliases = scan
        .aliases
        .iter()
        .filter(|(a, _)| a.reachable && a.generics.params.is_empty());
    let mut out: HashMap<String, String> = scan
        .types
        .iter()
        .filter(|t| t.reachable && counts.get(&t.ident) == Some(&1))
        .chain(aliases.clone().map(|(a, _)| a))
        .map(|t| {
            let full = std::iter::once(lib.to_string())
                .chain(t.public_path.iter().cloned())
                .collect::<Vec<_>>()
                .join("::");
            (t.ident.clone(), full)
        })
        .collect();
    for (a, target) in aliases {
        if let Some(prim) = super::scoped_aliases::primitive_name(target) {
            out.insert(a.ident.clone(), prim);
        }
    }
    out
}

/// `named` as `module` sees it: an identifier two types share (`binary_heap::Min` and
/// `sorted_linked_list::Min`) names the one `module` defines. `BinaryHeap<T, K: Kind, N>`
/// was skipped, "K needs Kind", although its module's `Min` implements it.
fn named_in<'n>(
    lib: &str,
    scan: &Scan,
    named: &'n HashMap<String, String>,
    module: &[String],
) -> std::borrow::Cow<'n, HashMap<String, String>> {
    let own: Vec<&FoundType> = scan
        .types
        .iter()
        .filter(|t| t.reachable && t.module == module && !named.contains_key(&t.ident))
        .collect();
    if own.is_empty() {
        return std::borrow::Cow::Borrowed(named);
    }
    let mut out = named.clone();
    for t in own {
        let full = std::iter::once(lib.to_string())
            .chain(t.public_path.iter().cloned())
            .collect::<Vec<_>>()
            .join("::");
        out.insert(t.ident.clone(), full);
    }
    std::borrow::Cow::Owned(out)
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

/// Whether the crate imports `BuildHasherDefault` only from std or core (and at least once).
fn std_build_hasher_default(scan: &Scan) -> bool {
    let imports: Vec<_> = scan
        .imports
        .iter()
        .filter(|i| i.local.as_deref() == Some("BuildHasherDefault"))
        .collect();
    !imports.is_empty()
        && imports.iter().all(|i| {
            matches!(i.target.0.first().map(String::as_str), Some("core" | "std"))
                && i.target.1.as_deref() == Some("BuildHasherDefault")
        })
}

/// The parameters of a literal of `fields` (a struct's or a variant's, named or positional:
/// `f0`, `f1`), and whether they are positional; `None` when the model cannot supply one.
fn field_params(
    fields: &[(Option<String>, syn::Type)],
    cx: &Ctx<'_>,
    vecs: &mut BTreeSet<String>,
) -> Option<(Vec<Param>, bool)> {
    let params = fields
        .iter()
        .enumerate()
        .map(|(i, (name, ty))| {
            let name = name.clone().unwrap_or_else(|| format!("f{i}"));
            cx.param(&name, ty, vecs)
        })
        .collect::<Result<Vec<Param>, String>>()
        .ok()?;
    Some((params, fields.iter().all(|(name, _)| name.is_none())))
}
