//! Impl blocks that fix a type parameter: `impl<N, E> Graph<N, E, Undirected> { pub fn
//! new_undirected() }`, `impl<T: Ord> BinaryHeap<T, MinComparator> { pub fn new_min() }`,
//! `impl<T, K, const N: usize> SortedLinkedList<T, LinkedIndexU8, K, N> { pub const fn
//! new_u8() }`. The harness registers each type at one instantiation (see
//! [`instantiate`](super::instantiate)), and such a block's items were skipped as "defined
//! only for another instantiation"; where the fixed block held the only constructors, the
//! whole type was skipped.
//!
//! The type registers a second time at the instantiation the block fixes: the main
//! instantiation with the fixed arguments put in (`Graph<Key,Key,petgraph::Undirected,u32>`),
//! under its own registry name and path (`Graph<Undirected>`), with the constructors that
//! build it and every method applicable to it, the generic impls' too, so that it explores
//! as the first does. The model walks it as any chosen type (`model::register_type`): an
//! impl is applicable when [`other_instantiation`](super::model) no longer calls it another
//! instantiation, so the fixed block's items and the generic blocks' register, and blocks
//! fixing yet another argument stay skipped.
//!
//! Bounded: at most [`MAX_PER_TYPE`] extra instantiations per type, blocks with an
//! associated function (a constructor candidate) first. A fixed argument registers only when
//! the harness can name it without more choices: a type of the crate without generic
//! arguments (by its public path), a primitive, unit weights `()` (`impl FromGraph6 for
//! Graph<(), (), Undirected, Ix>`), a crate type over the block's own parameters that is
//! registered, or a primitive default the block leaves (both in
//! [`fixed_args`](super::fixed_args)). A block fixing a generic type (`FnComparator<F>`, a
//! closure type), or one that leaves a parameter to a default the harness replaced (a random
//! hasher: `impl<K, V> LruCache<K, V>` omits `S = DefaultHasher`, where the harness's
//! `FixedState` keeps costs deterministic) stays skipped as before.

use std::collections::HashMap;

use syn::{GenericArgument, GenericParam, ImplItem, PathArguments, Type};

use super::fixed_args::Naming;
use super::registrations::{Func, Model};
use super::scan::FoundType;

/// The most instantiations a type registers at besides its main one.
pub const MAX_PER_TYPE: usize = 2;

/// The unit type, a fixed argument named as such.
pub const UNIT: &str = "()";

/// Primitives a fixed argument may name as such.
const PRIMITIVES: &[&str] = &[
    "u8", "u16", "u32", "u64", "u128", "usize", "i8", "i16", "i32", "i64", "i128", "isize", "bool",
    "char",
];

/// One extra instantiation of a type: the parameters it fixes, with their instantiation as
/// the harness writes it, and the label its path takes (`<Undirected>`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fixed {
    pub overrides: Vec<(String, String)>,
    pub label: String,
}

impl Fixed {
    /// `subst` with this instantiation's arguments put in.
    pub fn apply(&self, subst: &HashMap<String, String>) -> HashMap<String, String> {
        let mut s = subst.clone();
        s.extend(self.overrides.iter().cloned());
        s
    }
}

/// The instantiations `t`'s impl blocks fix besides `subst` (the main one), at most
/// [`MAX_PER_TYPE`]. `named` gives the crate's types by identifier (their full paths);
/// `applies(subst, imp)` says whether `imp` is a block of the instantiation `subst`.
pub fn of(
    t: &FoundType,
    subst: &HashMap<String, String>,
    naming: &Naming<'_>,
    applies: &dyn Fn(&HashMap<String, String>, &syn::ItemImpl) -> bool,
) -> Vec<Fixed> {
    // The type's parameters in the order arguments are written, lifetimes left out.
    let params: Vec<String> = t
        .generics
        .params
        .iter()
        .filter_map(|p| match p {
            GenericParam::Type(x) => Some(x.ident.to_string()),
            GenericParam::Const(c) => Some(c.ident.to_string()),
            GenericParam::Lifetime(_) => None,
        })
        .collect();
    // (has an associated function, instantiation), in the order of the blocks.
    let mut found: Vec<(bool, Fixed)> = Vec::new();
    for imp in &t.impls {
        if applies(subst, imp) {
            continue;
        }
        let Some(fixed) = fixed_by(imp, t, &params, subst, naming) else {
            continue;
        };
        if !applies(&fixed.apply(subst), imp) {
            continue;
        }
        let ctor = imp.items.iter().any(
            |i| matches!(i, ImplItem::Fn(f) if f.sig.receiver().is_none() && f.sig.ident != "default"),
        );
        match found.iter_mut().find(|(_, f)| *f == fixed) {
            Some(seen) => seen.0 |= ctor,
            None => found.push((ctor, fixed)),
        }
    }
    // Blocks with a constructor candidate first (stable: in the crate's order otherwise).
    found.sort_by_key(|(ctor, _)| !ctor);
    found
        .into_iter()
        .map(|(_, f)| f)
        .take(MAX_PER_TYPE)
        .collect()
}

/// The arguments `imp`'s self type fixes where `subst` has others, when each is nameable.
fn fixed_by(
    imp: &syn::ItemImpl,
    t: &FoundType,
    params: &[String],
    subst: &HashMap<String, String>,
    naming: &Naming<'_>,
) -> Option<Fixed> {
    let named = naming.named;
    let Type::Path(tp) = &*imp.self_ty else {
        return None;
    };
    let seg = tp.path.segments.last()?;
    let PathArguments::AngleBracketed(a) = &seg.arguments else {
        return None;
    };
    let own: Vec<String> = super::syntax::param_names(&imp.generics).collect();
    let mut overrides = Vec::new();
    let mut shown = Vec::new();
    let args: Vec<&GenericArgument> = a
        .args
        .iter()
        .filter(|a| !matches!(a, GenericArgument::Lifetime(_)))
        .collect();
    let written = args.len();
    for (param, arg) in params.iter().zip(args) {
        // Unit weights (`impl FromGraph6 for Graph<(), (), Undirected, Ix>`): nameable as such.
        if matches!(arg, GenericArgument::Type(Type::Tuple(t)) if t.elems.is_empty()) {
            if subst.get(param).map(String::as_str) != Some(UNIT) {
                overrides.push((param.clone(), UNIT.to_string()));
                shown.push(UNIT.to_string());
            }
            continue;
        }
        let GenericArgument::Type(Type::Path(p)) = arg else {
            return None;
        };
        if p.qself.is_some() {
            return None;
        }
        let ident = p.path.segments.last()?.ident.to_string();
        if p.path.segments.len() == 1 && own.contains(&ident) {
            continue;
        }
        let pick = if p.path.segments.iter().any(|s| !s.arguments.is_none()) {
            // A crate type over the block's own parameters: its registration.
            super::fixed_args::registered_arg(p, &own, naming)?
        } else if PRIMITIVES.contains(&ident.as_str()) && p.path.segments.len() == 1 {
            ident.clone()
        } else {
            named.get(&ident)?.clone()
        };
        if subst.get(param) == Some(&pick) {
            continue;
        }
        // A hasher the harness made its fixed, seedless one: the block's (the crate's
        // default, an alias of std's randomly keyed `RandomState`) would make costs differ
        // from run to run.
        if subst.get(param).map(String::as_str) == Some("FixedState") {
            return None;
        }
        overrides.push((param.clone(), pick));
        shown.push(ident);
    }
    // Parameters the block leaves to a default the harness chose otherwise.
    let defaults = t.generics.params.iter().filter_map(|p| match p {
        GenericParam::Type(x) => Some(x.default.as_ref().map(|(_, d)| d)),
        GenericParam::Const(_) => Some(None),
        GenericParam::Lifetime(_) => None,
    });
    for (param, default) in params.iter().zip(defaults).skip(written) {
        let (Some(d), Some(chosen)) = (default, subst.get(param)) else {
            continue;
        };
        if chosen == super::instantiate::OMITTED {
            continue;
        }
        if let Some(prim) = super::fixed_args::default_override(d, chosen, naming) {
            overrides.push((param.clone(), prim.clone()));
            shown.push(prim);
        }
    }
    // A default written over a parameter the block fixes (`Null = Option<E>` where `E` is
    // `()`) would need its instantiation read again: not such a block.
    let fixed_names: Vec<&String> = overrides.iter().map(|(p, _)| p).collect();
    let over_fixed = t.generics.type_params().any(|tp| {
        tp.default.as_ref().is_some_and(|d| {
            let text = quote::ToTokens::to_token_stream(&d.1).to_string();
            text.split(|c: char| !c.is_alphanumeric() && c != '_')
                .any(|w| fixed_names.iter().any(|p| p.as_str() == w))
        })
    });
    if over_fixed {
        return None;
    }
    (!overrides.is_empty()).then(|| Fixed {
        overrides,
        label: format!("<{}>", shown.join(",")),
    })
}

/// Counts each public method once where a type registers at several instantiations
/// (`fixed`: index in `model.types` and main path of each instantiation a block fixes). The
/// type's standing registration is its main one, or, when that one had no constructor, its
/// first fixed one. An item another instantiation registers is no longer skipped there
/// (`Graph::new_undirected`, skipped on the main one as defined for another instantiation);
/// a method both register counts once (`Model::instance_duplicates`); the other
/// instantiation's own skips repeat the standing one's and are dropped.
pub fn count_once(model: &mut Model, fixed: &[(usize, String)]) {
    // Methods an earlier fixed instantiation of the same standing one already counted
    // (`degree` on `Graph<Undirected>` and on `Graph<(),(),Undirected>`, not on `Graph`).
    let mut counted: std::collections::HashSet<(usize, String)> = Default::default();
    for (k, main_path) in fixed {
        let standing = model
            .types
            .iter()
            .position(|t| t.free.is_none() && t.path == *main_path)
            .or_else(|| fixed.iter().find(|(_, p)| p == main_path).map(|(i, _)| *i));
        let Some(s) = standing.filter(|s| s != k) else {
            continue;
        };
        model.types[*k].skipped.clear();
        model.types[*k].skipped_not_methods = 0;
        let own = |f: &Func| f.chain.is_none() && f.call.is_none();
        let methods: Vec<String> = model.types[*k]
            .methods
            .iter()
            .filter(|f| own(f))
            .map(|f| f.name.clone())
            .collect();
        let ctors: Vec<String> = model.types[*k]
            .ctors
            .iter()
            .map(|f| f.name.clone())
            .collect();
        let st = &mut model.types[s];
        for name in &methods {
            if st.methods.iter().any(|f| own(f) && f.name == *name)
                || !counted.insert((s, name.clone()))
            {
                model.instance_duplicates += 1;
                continue;
            }
            let spec = format!("{}::{name}", st.path);
            st.skipped.retain(|(item, _)| *item != spec);
        }
        for name in &ctors {
            let spec = format!("{}::{name}", st.path);
            let before = st.skipped.len();
            st.skipped.retain(|(item, _)| *item != spec);
            // Not every skipped constructor counted as one (a `default` skipped as defined
            // for another instantiation is not): never below none.
            st.skipped_not_methods = st
                .skipped_not_methods
                .saturating_sub(before - st.skipped.len());
        }
    }
}

/// Moves each registered fixed instantiation (`fixed`, see [`count_once`]) after its type's
/// main registration, where it has one: the main one stays its type's first (the one
/// `init`'s closing hint and the registry list name first).
pub fn after_main(model: &mut Model, fixed: &[(usize, String)]) {
    let has_main = |m: &Model, p: &str| m.types.iter().any(|t| t.free.is_none() && t.path == p);
    let mut idx: Vec<(usize, String)> = fixed
        .iter()
        .filter(|(_, p)| has_main(model, p))
        .cloned()
        .collect();
    idx.sort_unstable();
    let mut moved = Vec::new();
    for (k, p) in idx.into_iter().rev() {
        moved.push((model.types.remove(k), p));
    }
    for (reg, p) in moved.into_iter().rev() {
        let prefix = format!("{p}<");
        let at = model
            .types
            .iter()
            .rposition(|t| t.free.is_none() && (t.path == p || t.path.starts_with(&prefix)))
            .map_or(model.types.len(), |i| i + 1);
        model.types.insert(at, reg);
    }
}

/// A generated registrations file (`src/lib.rs`) without its first instantiation an impl
/// block fixes (a registration whose path carries a label, `path: "Graph<Undirected>"`, with
/// its rungs and registry entries), and that registration's function name; `None` when it
/// has none.
///
/// Why: a block may hold a constructor that checks the instantiation when it compiles
/// (`new_u8` asserts `N < 255` for a list indexed by `u8`, where the harness's capacity is
/// 8192); the error is in the crate's code and names no registration to drop, so rather than
/// fail `init` as a whole the harness is built again without them, one at a time (at most
/// [`MAX_PER_TYPE`] per type), first first: the one indexed by `u16` still builds.
pub fn without_fixed(text: &str) -> Option<(String, String)> {
    let lines: Vec<&str> = text.lines().collect();
    // The first registration function of a fixed instantiation: `pub fn NAME() -> T {`
    // followed by a path line with a label.
    let name = lines.windows(2).find_map(|w| {
        let fixed_path = w[1]
            .trim_start()
            .strip_prefix("path: \"")
            .and_then(|r| r.split_once('"'))
            .is_some_and(|(p, _)| p.ends_with('>'));
        let name = w[0]
            .trim_start()
            .strip_prefix("pub fn ")
            .and_then(|r| r.split_once("() -> "))
            .map(|(n, _)| n.to_string());
        name.filter(|_| fixed_path)
    })?;
    let names = [name.clone()];
    let entry = |l: &str| {
        names.iter().any(|n| {
            let t = l.trim();
            t.ends_with(&format!("::{n}(),")) || t.contains(&format!("::{n}().rung_of("))
        })
    };
    let starts = |l: &str| {
        names.iter().any(|n| {
            let t = l.trim_start();
            t.starts_with(&format!("pub fn {n}() -> "))
                || super::capacity_ladder::RUNGS
                    .iter()
                    .any(|c| t.starts_with(&format!("pub fn {n}_at_{c}() -> ")))
        })
    };
    let out = super::drop_registrations::without(text, &entry, &starts)?;
    Some((out, name))
}

/// How many of the public methods `model` counts as registered only the fixed instantiation
/// registered by `fn_name` registers (see [`count_once`]): what dropping it takes back.
pub fn registered_only_by(model: &Model, fn_name: &str) -> usize {
    let Some(e) = model.types.iter().find(|t| t.fn_name == fn_name) else {
        return 0;
    };
    let own = |f: &Func| f.chain.is_none() && f.call.is_none();
    let others: Vec<&String> = model
        .types
        .iter()
        .filter(|t| t.ident == e.ident && t.fn_name != fn_name && t.free.is_none())
        .flat_map(|t| t.methods.iter().filter(|f| own(f)).map(|f| &f.name))
        .collect();
    e.methods
        .iter()
        .filter(|f| own(f) && !others.contains(&&f.name))
        .count()
}

/// How many public methods the compiler's rejections (`rejected`, specs `Path::name`) take
/// from the count: a rejected constructor is no method, and a method another instantiation of
/// the same type still registers (`MatrixGraph<u16>::extend_with_edges` beside
/// `MatrixGraph::extend_with_edges`) stays registered once.
pub fn rejected_methods(model: &Model, rejected: &[String]) -> usize {
    let own = |f: &Func| f.chain.is_none() && f.call.is_none();
    // A method rejected on every instantiation is taken once (it was counted once).
    let mut taken: std::collections::HashSet<(String, String)> = Default::default();
    rejected
        .iter()
        .filter(|spec| {
            let Some(t) = model.types.iter().find(|t| {
                spec.strip_prefix(&format!("{}::", t.path))
                    .is_some_and(|n| !n.contains("::"))
            }) else {
                return true;
            };
            let name = &spec[t.path.len() + 2..];
            if t.ctors.iter().any(|c| c.name == *name) && !t.methods.iter().any(|m| m.name == *name)
            {
                return false;
            }
            let elsewhere = model.types.iter().any(|o| {
                o.ident == t.ident
                    && o.path != t.path
                    && o.free.is_none()
                    && o.methods.iter().any(|m| own(m) && m.name == *name)
                    && !rejected.contains(&format!("{}::{name}", o.path))
            });
            !elsewhere && taken.insert((t.ident.clone(), name.to_string()))
        })
        .count()
}
