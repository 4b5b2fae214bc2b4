//! Which public methods a change touched, and how risky each change is for performance.
//!
//! `perfsyn check --baseline REV` cannot explore every method of a crate on every pull request,
//! so it explores the ones a change touched, riskiest first. This is PerfScope's performance risk
//! analysis (Huang et al., ICSE 2014, `seeds/004_…`, section 3.2) transplanted from LLVM IR to
//! Rust syntax trees:
//!
//! - **Change units** (3.2.1): every statement of a function body, with the bodies of loops,
//!   conditionals and blocks broken out so that a unit is a leaf statement or the *header* of a
//!   control construct (`for PAT in EXPR`, `while COND`, `if COND`, `match EXPR`). A unit of the
//!   new body that does not occur in the old body (as a multiset of token strings, so formatting
//!   and comments do not count) is *added or replaced*. Deleted units cost nothing (the paper's
//!   default), except deleted conditions: removing a guard can send every call down an expensive
//!   path (3.2.2, performance-sensitive conditions).
//! - **Expensiveness** (3.2.1, 3.2.2): `Expensive` when the unit is a loop header (it changes a
//!   performance-critical variable: the trip count), contains a loop or an iterator pipeline,
//!   calls a collection operation that is linear in general (`contains`, `retain`, `sort`,
//!   `insert(0, ..)`-style, `to_vec`, `collect`, ...), or calls a function of the crate whose body
//!   loops; `Normal` when it calls anything else; `Minor` otherwise (arithmetic, moves).
//! - **Frequency** (3.2.3): `Frequent` when the unit sits inside a loop of its function, inside a
//!   recursive function, or in a function called from inside a loop of a caller that reaches it
//!   (call paths bounded to [`CALL_DEPTH`]); `Normal` otherwise. Without profiles or trip counts
//!   we have no `Rare` level: the paper's rare paths need dynamic information.
//! - **Risk matrix** (Table 5) and **risk score** (equation 1): each changed unit gets a level,
//!   and a method's score is `100 N_extreme + 10 N_high + N_moderate / 100 + N_low / 1000` over
//!   the changed units of the method and of the crate functions it reaches.
//!
//! The analysis is syntactic. A call is resolved by its receiver's type where the syntax
//! declares it: `self.f(..)` and `Self::f(..)` to the impl's type, `Type::f(..)` to `Type`,
//! `self.field.f(..)` (or `x.field.f(..)`) to the field's declared type, `x.f(..)` to the type
//! a parameter or a `let` declares for `x` (`&`, `Box`, `Rc` and `Arc` looked through). So
//! `self.items.contains(..)` on a `Vec` field reaches no crate function, even when the crate
//! has a `contains` of its own. Only a receiver of unknown type (a call's result, a local
//! without a declared type, a generic field) falls back to every crate function of that name,
//! and what is reached only through such a link counts [`WEAK_LINK`] of its weight and says
//! so. Collection operations are still judged by name (`v.insert(0, x)` counts as linear
//! whatever `v` is). It ranks; it does not judge: the exploration that follows decides.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::path::{Path, PathBuf};

use quote::ToTokens;
use serde::Serialize;
use syn::visit::Visit;

/// How far call paths are followed from a public method to the changed functions it reaches.
pub const CALL_DEPTH: usize = 3;

/// The share of a changed unit's weight that counts when every call path to it has a link
/// matched by method name only (the receiver's type unknown): such a path may not exist.
pub const WEAK_LINK: f64 = 0.5;

/// Smart pointers a method call looks through to the pointee's methods.
const DEREF_TYPES: &[&str] = &["Box", "Rc", "Arc"];

/// Method names whose cost grows with the size of a collection in general (std's documented
/// O(n) operations and the iterator consumers that walk everything).
const LINEAR_METHODS: &[&str] = &[
    "contains",
    "contains_key",
    "position",
    "rposition",
    "find",
    "retain",
    "retain_mut",
    "sort",
    "sort_by",
    "sort_by_key",
    "sort_unstable",
    "sort_unstable_by",
    "sort_unstable_by_key",
    "dedup",
    "dedup_by",
    "dedup_by_key",
    "reverse",
    "to_vec",
    "to_owned",
    "to_string",
    "collect",
    "extend",
    "extend_from_slice",
    "drain",
    "split_off",
    "concat",
    "join",
    "remove",
    "insert",
    "clone",
    "iter",
    "iter_mut",
    "into_iter",
    "chars",
    "bytes",
    "windows",
    "chunks",
    "count",
    "sum",
    "max",
    "min",
    "fold",
    "for_each",
    "any",
    "all",
    "rotate_left",
    "rotate_right",
    "resize",
    "binary_search",
];

/// Macros that build or format whole collections.
const LINEAR_MACROS: &[&str] = &["vec", "format"];

/// How expensive one changed unit is (PerfScope's expensiveness axis).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Expense {
    Minor,
    Normal,
    Expensive,
}

/// How often one changed unit may run per call of the public method (the frequency axis).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Frequency {
    Normal,
    Frequent,
}

/// A cell of Table 5.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum RiskLevel {
    Low,
    Moderate,
    High,
    Extreme,
}

impl RiskLevel {
    /// Table 5 without its `Rare` column (see the module documentation).
    pub fn of(expense: Expense, frequency: Frequency) -> RiskLevel {
        match (expense, frequency) {
            (Expense::Expensive, Frequency::Frequent) => RiskLevel::Extreme,
            (Expense::Expensive, Frequency::Normal) => RiskLevel::High,
            (Expense::Normal, Frequency::Frequent) => RiskLevel::High,
            (Expense::Normal, Frequency::Normal) => RiskLevel::Moderate,
            (Expense::Minor, Frequency::Frequent) => RiskLevel::Moderate,
            (Expense::Minor, Frequency::Normal) => RiskLevel::Low,
        }
    }

    /// The weight of one unit at this level in equation 1.
    pub fn weight(self) -> f64 {
        match self {
            RiskLevel::Extreme => 100.0,
            RiskLevel::High => 10.0,
            RiskLevel::Moderate => 0.01,
            RiskLevel::Low => 0.001,
        }
    }
}

impl fmt::Display for RiskLevel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            RiskLevel::Low => "low",
            RiskLevel::Moderate => "moderate",
            RiskLevel::High => "high",
            RiskLevel::Extreme => "extreme",
        })
    }
}

/// One public method touched by the change, directly or through a crate function it calls.
#[derive(Debug, Clone, Serialize)]
pub struct ChangedMethod {
    /// `Type::method` as `perfsyn explore --method` takes it.
    pub method: String,
    /// Equation 1 over the changed units this method reaches.
    pub risk: f64,
    /// Whether the method's own body changed (else only functions it calls did).
    pub direct: bool,
    /// Whether the signature changed between the two revisions (such a method cannot be run
    /// by one program against both).
    pub signature_changed: bool,
    /// Whether the method is new (absent from the baseline).
    pub new: bool,
    /// The changed units behind the score, most risky first, in words.
    pub reasons: Vec<String>,
}

/// Errors reading a crate's sources.
#[derive(Debug, thiserror::Error)]
pub enum RiskError {
    #[error("cannot read {path}: {source}")]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("cannot parse {path}: {message}")]
    Parse { path: PathBuf, message: String },
}

/// Compares the crate sources under `old_src` and `new_src` (each a crate's `src/` directory)
/// and returns the public methods the change touched, riskiest first (ties by name).
pub fn changed_methods(old_src: &Path, new_src: &Path) -> Result<Vec<ChangedMethod>, RiskError> {
    let old = CrateFns::read(old_src)?;
    let new = CrateFns::read(new_src)?;
    Ok(compare(&old, &new))
}

/// The functions of one revision of a crate, by `Type::name` (or `name` for free functions).
#[derive(Debug, Default)]
pub struct CrateFns {
    fns: BTreeMap<String, FnInfo>,
    /// Struct name -> field name (or tuple index) -> the field's type name, `None` when the
    /// syntax does not name one (a type parameter, a trait object, a tuple).
    fields: BTreeMap<String, BTreeMap<String, Option<String>>>,
    /// Names of the types the crate defines (structs, enums, unions, type aliases).
    types: BTreeSet<String>,
}

/// A call as written, resolved against the crate's functions once every file is read (a
/// field's type may be declared in another file).
#[derive(Debug, Clone, PartialEq, Eq)]
enum Callee {
    /// `Type::name` (a path, or a method on a receiver of known type), or `name`.
    Exact(String),
    /// `.name(..)` on field `field` of a value of type `ty`.
    Field {
        ty: String,
        field: String,
        name: String,
    },
    /// `.name(..)` on a receiver of unknown type: every crate function named `name`.
    Named(String),
}

#[derive(Debug, Clone)]
struct FnInfo {
    public: bool,
    signature: String,
    units: Vec<Unit>,
    calls: Vec<Call>,
    loops: bool,
}

#[derive(Debug, Clone)]
struct Unit {
    text: String,
    in_loop: bool,
    expense: Expense,
    condition: bool,
    /// The calls this unit makes (resolved later against the crate's functions).
    callees: Vec<Callee>,
}

#[derive(Debug, Clone)]
struct Call {
    callee: Callee,
    in_loop: bool,
}

/// What a function body's calls are resolved with: the impl's type and the declared types of
/// its parameters and locals (`None`: bound more than once with different or unknown types).
struct Ctx<'a> {
    self_ty: Option<&'a str>,
    locals: BTreeMap<String, Option<String>>,
}

impl CrateFns {
    /// Parses every `.rs` file under `src` (test modules left out).
    pub fn read(src: &Path) -> Result<CrateFns, RiskError> {
        let mut files = Vec::new();
        collect_rs(src, &mut files)?;
        files.sort();
        let mut out = CrateFns::default();
        for path in files {
            let text = std::fs::read_to_string(&path).map_err(|source| RiskError::Read {
                path: path.clone(),
                source,
            })?;
            out.add_source(&path, &text)?;
        }
        Ok(out)
    }

    /// The functions' names: `Type::name`, or `name` for free functions.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.fns.keys().map(String::as_str)
    }

    /// The names of the types the crate defines (structs, enums, unions, type aliases).
    pub fn types(&self) -> impl Iterator<Item = &str> {
        self.types.iter().map(String::as_str)
    }

    /// Adds the functions of one source file.
    pub fn add_source(&mut self, path: &Path, text: &str) -> Result<(), RiskError> {
        let file = syn::parse_file(text).map_err(|e| RiskError::Parse {
            path: path.to_path_buf(),
            message: e.to_string(),
        })?;
        self.add_items(&file.items);
        Ok(())
    }

    fn add_items(&mut self, items: &[syn::Item]) {
        for item in items {
            if is_test_only(item_attrs(item)) {
                continue;
            }
            match item {
                syn::Item::Fn(f) => {
                    let public = matches!(f.vis, syn::Visibility::Public(_));
                    self.add_fn(f.sig.ident.to_string(), public, &f.sig, &f.block, None, &[]);
                }
                syn::Item::Impl(imp) => {
                    // The crate's trait on strings registers as a namespace named by the
                    // trait (`ToSnakeCase::to_snake_case`, see `init::strext`).
                    let on_strings = crate::harness::init::strext::string_self(imp)
                        .and_then(|_| imp.trait_.as_ref()?.0.segments.last())
                        .map(|s| s.ident.to_string());
                    let Some(ty) = on_strings.or_else(|| type_name(&imp.self_ty)) else {
                        continue;
                    };
                    let in_trait = imp.trait_.is_some();
                    let outer: Vec<String> = imp
                        .generics
                        .type_params()
                        .map(|p| p.ident.to_string())
                        .collect();
                    for it in &imp.items {
                        if let syn::ImplItem::Fn(f) = it {
                            if is_test_only(&f.attrs) {
                                continue;
                            }
                            // Trait methods are public exactly when the type is; inherent ones
                            // need `pub`.
                            let public = in_trait || matches!(f.vis, syn::Visibility::Public(_));
                            let key = format!("{ty}::{}", f.sig.ident);
                            self.add_fn(key, public, &f.sig, &f.block, Some(&ty), &outer);
                        }
                    }
                }
                syn::Item::Mod(m) => {
                    if let Some((_, items)) = &m.content {
                        self.add_items(items);
                    }
                }
                syn::Item::Struct(st) => {
                    let generics: Vec<String> = st
                        .generics
                        .type_params()
                        .map(|p| p.ident.to_string())
                        .collect();
                    let fields = st
                        .fields
                        .iter()
                        .enumerate()
                        .map(|(i, f)| {
                            let name = f
                                .ident
                                .as_ref()
                                .map_or_else(|| i.to_string(), |id| id.to_string());
                            let self_name = st.ident.to_string();
                            (name, declared_type(&f.ty, Some(&self_name), &generics))
                        })
                        .collect();
                    self.fields.insert(st.ident.to_string(), fields);
                    self.types.insert(st.ident.to_string());
                }
                syn::Item::Enum(e) => {
                    self.types.insert(e.ident.to_string());
                }
                syn::Item::Union(u) => {
                    self.types.insert(u.ident.to_string());
                }
                syn::Item::Type(t) => {
                    self.types.insert(t.ident.to_string());
                }
                _ => {}
            }
        }
    }

    fn add_fn(
        &mut self,
        key: String,
        public: bool,
        sig: &syn::Signature,
        block: &syn::Block,
        self_ty: Option<&str>,
        outer: &[String],
    ) {
        let ctx = Ctx {
            self_ty,
            locals: locals(sig, block, self_ty, outer),
        };
        let mut units = Vec::new();
        collect_units(&block.stmts, false, &ctx, &mut units);
        let mut calls = Vec::new();
        for u in &units {
            for c in &u.callees {
                calls.push(Call {
                    callee: c.clone(),
                    in_loop: u.in_loop,
                });
            }
        }
        let loops = units
            .iter()
            .any(|u| u.in_loop || u.expense == Expense::Expensive);
        let info = FnInfo {
            public,
            signature: sig.to_token_stream().to_string(),
            units,
            calls,
            loops,
        };
        self.fns.insert(key, info);
    }

    /// The crate functions `callee` may reach, each with whether the link is typed (`false`:
    /// matched by method name only).
    fn resolve(&self, callee: &Callee) -> Vec<(&str, bool)> {
        let exact = |key: &str| {
            self.fns
                .get_key_value(key)
                .map(|(k, _)| vec![(k.as_str(), true)])
                .unwrap_or_default()
        };
        let named = |name: &str| {
            let suffix = format!("::{name}");
            self.fns
                .keys()
                .filter(|k| k.ends_with(&suffix))
                .map(|k| (k.as_str(), false))
                .collect()
        };
        match callee {
            Callee::Exact(key) => exact(key),
            Callee::Field { ty, field, name } => {
                match self.fields.get(ty).and_then(|f| f.get(field)) {
                    Some(Some(fty)) => exact(&format!("{fty}::{name}")),
                    _ => named(name),
                }
            }
            Callee::Named(name) => named(name),
        }
    }
}

/// The ranking: public methods of `new` reaching changed units, riskiest first.
pub fn compare(old: &CrateFns, new: &CrateFns) -> Vec<ChangedMethod> {
    // Changed units per function of the new revision, before frequencies from callers.
    let mut changed: BTreeMap<&str, Vec<(Unit, bool)>> = BTreeMap::new();
    for (key, info) in &new.fns {
        let old_info = old.fns.get(key);
        let mut old_texts: BTreeMap<&str, usize> = BTreeMap::new();
        if let Some(o) = old_info {
            for u in &o.units {
                *old_texts.entry(u.text.as_str()).or_default() += 1;
            }
        }
        let mut units = Vec::new();
        for u in &info.units {
            match old_texts.get_mut(u.text.as_str()) {
                Some(n) if *n > 0 => *n -= 1,
                _ => units.push((upgrade(u, new), false)),
            }
        }
        // Deleted conditions: a removed guard may send every call down an expensive path.
        if let Some(o) = old_info {
            for u in &o.units {
                if u.condition {
                    if let Some(n) = old_texts.get_mut(u.text.as_str()) {
                        if *n > 0 {
                            *n -= 1;
                            let mut d = u.clone();
                            d.expense = Expense::Expensive;
                            units.push((d, true));
                        }
                    }
                }
            }
        }
        if !units.is_empty() {
            changed.insert(key.as_str(), units);
        }
    }

    // Only exact calls (`self.f(..)`, `Self::f(..)`, `f(..)`) count as recursion: `.push(..)` on
    // a field is not a call of our own `push`.
    let recursive: BTreeSet<&str> = new
        .fns
        .iter()
        .filter(|(k, f)| {
            f.calls
                .iter()
                .any(|c| matches!(&c.callee, Callee::Exact(e) if e == *k))
        })
        .map(|(k, _)| k.as_str())
        .collect();
    let mut out = Vec::new();
    for (key, info) in &new.fns {
        // Public methods (`Type::m`) and public free functions (`f`: `init` registers them on
        // a namespace, and `explore --method f` finds them).
        if !info.public {
            continue;
        }
        // Breadth-first over call paths: each reachable function, frequent when any path to it
        // passes through a loop, typed when any path to it has only typed links.
        let mut reach: BTreeMap<&str, (bool, bool)> = BTreeMap::new();
        let mut frontier: Vec<(&str, bool, bool)> = vec![(key.as_str(), false, true)];
        for depth in 0..=CALL_DEPTH {
            let mut next = Vec::new();
            for (f, hot, typed) in frontier {
                match reach.get(f).copied() {
                    Some((h, t)) if (h || !hot) && (t || !typed) => continue,
                    Some((h, t)) => reach.insert(f, (h || hot, t || typed)),
                    None => reach.insert(f, (hot, typed)),
                };
                if depth == CALL_DEPTH {
                    continue;
                }
                if let Some(info) = new.fns.get(f) {
                    for c in &info.calls {
                        for (callee, link) in new.resolve(&c.callee) {
                            // `.push(..)` on a field inside our own `push` is not recursion.
                            if callee != f {
                                next.push((callee, hot || c.in_loop, typed && link));
                            }
                        }
                    }
                }
            }
            frontier = next;
        }
        let mut levels: Vec<(RiskLevel, f64, String)> = Vec::new();
        for (f, (hot, typed)) in reach {
            let Some(units) = changed.get(f) else {
                continue;
            };
            for (u, deleted) in units {
                let frequent = hot || u.in_loop || recursive.contains(f);
                let freq = if frequent {
                    Frequency::Frequent
                } else {
                    Frequency::Normal
                };
                let level = RiskLevel::of(u.expense, freq);
                let what = if *deleted { "removed" } else { "changed" };
                let place = if f == key.as_str() {
                    String::new()
                } else {
                    format!(" in {f}")
                };
                let loop_note = if frequent { ", inside a loop" } else { "" };
                let (weight, weak_note) = if typed {
                    (level.weight(), "")
                } else {
                    (
                        level.weight() * WEAK_LINK,
                        " (reached by method name only: a receiver's type is unknown)",
                    )
                };
                levels.push((
                    level,
                    weight,
                    format!(
                        "{level}: {what} `{}`{place}{loop_note}{weak_note}",
                        short(&u.text)
                    ),
                ));
            }
        }
        if levels.is_empty() {
            continue;
        }
        levels.sort_by(|a, b| {
            b.0.cmp(&a.0)
                .then_with(|| b.1.total_cmp(&a.1))
                .then_with(|| a.2.cmp(&b.2))
        });
        let risk = levels.iter().map(|(_, w, _)| w).sum();
        let old_info = old.fns.get(key);
        out.push(ChangedMethod {
            method: key.clone(),
            risk,
            direct: changed.contains_key(key.as_str()),
            signature_changed: old_info.is_some_and(|o| o.signature != info.signature),
            new: old_info.is_none(),
            reasons: levels.into_iter().map(|(_, _, r)| r).collect(),
        });
    }
    out.sort_by(|a, b| {
        b.risk
            .total_cmp(&a.risk)
            .then_with(|| a.method.cmp(&b.method))
    });
    out
}

/// A unit that calls a crate function whose body loops is expensive.
fn upgrade(u: &Unit, fns: &CrateFns) -> Unit {
    let mut u = u.clone();
    if u.expense < Expense::Expensive
        && u.callees.iter().any(|c| {
            fns.resolve(c)
                .iter()
                .any(|(k, _)| fns.fns.get(*k).is_some_and(|f| f.loops))
        })
    {
        u.expense = Expense::Expensive;
    }
    u
}

fn short(text: &str) -> String {
    const MAX: usize = 60;
    if text.chars().count() <= MAX {
        text.to_string()
    } else {
        let cut: String = text.chars().take(MAX).collect();
        format!("{cut}…")
    }
}

fn collect_rs(dir: &Path, out: &mut Vec<PathBuf>) -> Result<(), RiskError> {
    let entries = std::fs::read_dir(dir).map_err(|source| RiskError::Read {
        path: dir.to_path_buf(),
        source,
    })?;
    for entry in entries {
        let entry = entry.map_err(|source| RiskError::Read {
            path: dir.to_path_buf(),
            source,
        })?;
        let path = entry.path();
        if path.is_dir() {
            collect_rs(&path, out)?;
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
    Ok(())
}

fn item_attrs(item: &syn::Item) -> &[syn::Attribute] {
    match item {
        syn::Item::Fn(f) => &f.attrs,
        syn::Item::Impl(i) => &i.attrs,
        syn::Item::Mod(m) => &m.attrs,
        _ => &[],
    }
}

fn is_test_only(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|a| {
        let text = a.to_token_stream().to_string();
        text.contains("cfg (test)") || text.starts_with("# [test]")
    })
}

/// The last path segment of an impl's self type, without generics (`Foo<T>` -> `Foo`).
fn type_name(ty: &syn::Type) -> Option<String> {
    match ty {
        syn::Type::Path(p) => p.path.segments.last().map(|s| s.ident.to_string()),
        syn::Type::Reference(r) => type_name(&r.elem),
        _ => None,
    }
}

/// `e` without parentheses and borrows: `(&self.items)` -> `self.items`.
fn peel(e: &syn::Expr) -> &syn::Expr {
    match e {
        syn::Expr::Paren(p) => peel(&p.expr),
        syn::Expr::Reference(r) => peel(&r.expr),
        _ => e,
    }
}

/// The type whose methods a value declared as `ty` offers: the last path segment, through
/// references and [`DEREF_TYPES`] (`&Box<Set<T>>` -> `Set`), `Self` as `self_ty`; `None` for
/// one of the item's type parameters `generics` or a type that names none.
fn declared_type(ty: &syn::Type, self_ty: Option<&str>, generics: &[String]) -> Option<String> {
    match ty {
        syn::Type::Reference(r) => declared_type(&r.elem, self_ty, generics),
        syn::Type::Paren(p) => declared_type(&p.elem, self_ty, generics),
        syn::Type::Path(p) if p.qself.is_none() => {
            let last = p.path.segments.last()?;
            let name = last.ident.to_string();
            if DEREF_TYPES.contains(&name.as_str()) {
                if let syn::PathArguments::AngleBracketed(a) = &last.arguments {
                    return a.args.iter().find_map(|g| match g {
                        syn::GenericArgument::Type(t) => declared_type(t, self_ty, generics),
                        _ => None,
                    });
                }
            }
            if name == "Self" {
                return self_ty.map(str::to_string);
            }
            if p.path.segments.len() == 1 && generics.contains(&name) {
                return None;
            }
            Some(name)
        }
        _ => None,
    }
}

/// The declared types of a function's parameters and locals, by name: a typed parameter, a
/// `let x: T`, a `let x = T { .. }`. A name bound twice with different types, or bound by any
/// other pattern (`for x in`, a closure's `|x|`, a `match` arm), has no known type; nor has a
/// type parameter of the function or of its impl (`outer`).
fn locals(
    sig: &syn::Signature,
    block: &syn::Block,
    self_ty: Option<&str>,
    outer: &[String],
) -> BTreeMap<String, Option<String>> {
    struct Bindings<'a> {
        self_ty: Option<&'a str>,
        generics: Vec<String>,
        out: BTreeMap<String, Option<String>>,
    }
    impl Bindings<'_> {
        fn bind(&mut self, name: String, ty: Option<String>) {
            let e = self.out.entry(name).or_insert_with(|| ty.clone());
            if *e != ty {
                *e = None;
            }
        }
        fn typed(&mut self, pat: &syn::Pat, ty: Option<String>) {
            match pat {
                syn::Pat::Ident(id) if id.subpat.is_none() => self.bind(id.ident.to_string(), ty),
                other => self.visit_pat(other),
            }
        }
    }
    impl<'ast> Visit<'ast> for Bindings<'_> {
        fn visit_local(&mut self, l: &'ast syn::Local) {
            match &l.pat {
                syn::Pat::Type(pt) => {
                    let ty = declared_type(&pt.ty, self.self_ty, &self.generics);
                    self.typed(&pt.pat, ty);
                }
                pat => {
                    let ty = l.init.as_ref().and_then(|i| match &*i.expr {
                        syn::Expr::Struct(st) => {
                            let name = st.path.segments.last()?.ident.to_string();
                            if name == "Self" {
                                self.self_ty.map(str::to_string)
                            } else {
                                Some(name)
                            }
                        }
                        _ => None,
                    });
                    self.typed(pat, ty);
                }
            }
            if let Some(init) = &l.init {
                self.visit_local_init(init);
            }
        }
        fn visit_pat_ident(&mut self, p: &'ast syn::PatIdent) {
            self.bind(p.ident.to_string(), None);
            syn::visit::visit_pat_ident(self, p);
        }
        // Items nested in the body have their own scopes.
        fn visit_item(&mut self, _: &'ast syn::Item) {}
    }
    let mut b = Bindings {
        self_ty,
        generics: sig
            .generics
            .type_params()
            .map(|p| p.ident.to_string())
            .chain(outer.iter().cloned())
            .collect(),
        out: BTreeMap::new(),
    };
    for input in &sig.inputs {
        if let syn::FnArg::Typed(pt) = input {
            let ty = declared_type(&pt.ty, self_ty, &b.generics);
            b.typed(&pt.pat, ty);
        }
    }
    b.visit_block(block);
    b.out
}

/// Splits statements into units: leaf statements, and the headers of control constructs whose
/// blocks are split further.
fn collect_units(stmts: &[syn::Stmt], in_loop: bool, ctx: &Ctx<'_>, out: &mut Vec<Unit>) {
    for stmt in stmts {
        match stmt {
            syn::Stmt::Expr(e, _) => collect_expr_units(e, in_loop, ctx, out),
            syn::Stmt::Local(local) => {
                // `let x = if ..` / `let x = match ..` / `let x = loop ..`: split the initializer.
                if let Some(init) = &local.init {
                    if is_control(&init.expr) {
                        out.push(leaf(
                            &local.pat.to_token_stream().to_string(),
                            in_loop,
                            ctx,
                            None,
                        ));
                        collect_expr_units(&init.expr, in_loop, ctx, out);
                        continue;
                    }
                }
                out.push(leaf_tokens(stmt, in_loop, ctx));
            }
            _ => out.push(leaf_tokens(stmt, in_loop, ctx)),
        }
    }
}

fn is_control(e: &syn::Expr) -> bool {
    matches!(
        e,
        syn::Expr::ForLoop(_)
            | syn::Expr::While(_)
            | syn::Expr::Loop(_)
            | syn::Expr::If(_)
            | syn::Expr::Match(_)
            | syn::Expr::Block(_)
            | syn::Expr::Unsafe(_)
    )
}

fn collect_expr_units(e: &syn::Expr, in_loop: bool, ctx: &Ctx<'_>, out: &mut Vec<Unit>) {
    match e {
        syn::Expr::ForLoop(f) => {
            let header = format!(
                "for {} in {}",
                f.pat.to_token_stream(),
                f.expr.to_token_stream()
            );
            let mut u = leaf(&header, in_loop, ctx, Some(&f.expr));
            u.expense = Expense::Expensive;
            out.push(u);
            collect_units(&f.body.stmts, true, ctx, out);
        }
        syn::Expr::While(w) => {
            let header = format!("while {}", w.cond.to_token_stream());
            let mut u = leaf(&header, in_loop, ctx, Some(&w.cond));
            u.expense = Expense::Expensive;
            u.condition = true;
            out.push(u);
            collect_units(&w.body.stmts, true, ctx, out);
        }
        syn::Expr::Loop(l) => {
            let mut u = leaf("loop", in_loop, ctx, None);
            u.expense = Expense::Expensive;
            out.push(u);
            collect_units(&l.body.stmts, true, ctx, out);
        }
        syn::Expr::If(i) => {
            let header = format!("if {}", i.cond.to_token_stream());
            let mut u = leaf(&header, in_loop, ctx, Some(&i.cond));
            u.condition = true;
            out.push(u);
            collect_units(&i.then_branch.stmts, in_loop, ctx, out);
            if let Some((_, els)) = &i.else_branch {
                collect_expr_units(els, in_loop, ctx, out);
            }
        }
        syn::Expr::Match(m) => {
            let header = format!("match {}", m.expr.to_token_stream());
            out.push(leaf(&header, in_loop, ctx, Some(&m.expr)));
            for arm in &m.arms {
                let pat = arm.pat.to_token_stream().to_string();
                let guard = match &arm.pat {
                    syn::Pat::Guard(g) => Some(&*g.guard),
                    _ => None,
                };
                let mut u = leaf(&pat, in_loop, ctx, guard);
                u.condition = guard.is_some();
                out.push(u);
                collect_expr_units(&arm.body, in_loop, ctx, out);
            }
        }
        syn::Expr::Block(b) => collect_units(&b.block.stmts, in_loop, ctx, out),
        syn::Expr::Unsafe(b) => collect_units(&b.block.stmts, in_loop, ctx, out),
        other => out.push(leaf_tokens(other, in_loop, ctx)),
    }
}

fn leaf_tokens(node: &impl ToTokens, in_loop: bool, ctx: &Ctx<'_>) -> Unit {
    let text = node.to_token_stream().to_string();
    let mut scan = Scan::new(ctx);
    scan.tokens(node);
    scan.into_unit(text, in_loop)
}

fn leaf(text: &str, in_loop: bool, ctx: &Ctx<'_>, expr: Option<&syn::Expr>) -> Unit {
    let mut scan = Scan::new(ctx);
    if let Some(e) = expr {
        scan.visit_expr(e);
    }
    scan.into_unit(text.to_string(), in_loop)
}

/// Walks one unit's syntax for calls, loops and iterator pipelines.
struct Scan<'a> {
    ctx: &'a Ctx<'a>,
    expense: Expense,
    callees: Vec<Callee>,
}

impl<'a> Scan<'a> {
    fn new(ctx: &'a Ctx<'a>) -> Scan<'a> {
        Scan {
            ctx,
            expense: Expense::Minor,
            callees: Vec::new(),
        }
    }

    /// The type of `e` when the syntax declares it: `self`, or a parameter or local whose
    /// declaration names a type.
    fn typed(&self, e: &syn::Expr) -> Option<String> {
        match e {
            syn::Expr::Path(p) if p.path.is_ident("self") => self.ctx.self_ty.map(str::to_string),
            syn::Expr::Path(p) => {
                let id = p.path.get_ident()?.to_string();
                self.ctx.locals.get(&id).cloned().flatten()
            }
            syn::Expr::Paren(p) => self.typed(&p.expr),
            syn::Expr::Reference(r) => self.typed(&r.expr),
            _ => None,
        }
    }

    /// What a method call `receiver.name(..)` may call.
    fn method_callee(&self, receiver: &syn::Expr, name: String) -> Callee {
        let receiver = peel(receiver);
        if let Some(ty) = self.typed(receiver) {
            return Callee::Exact(format!("{ty}::{name}"));
        }
        if let syn::Expr::Field(f) = receiver {
            if let Some(ty) = self.typed(peel(&f.base)) {
                let field = match &f.member {
                    syn::Member::Named(id) => id.to_string(),
                    syn::Member::Unnamed(i) => i.index.to_string(),
                };
                return Callee::Field { ty, field, name };
            }
        }
        Callee::Named(name)
    }

    fn tokens(&mut self, node: &impl ToTokens) {
        // Re-parse the unit as a statement or an expression to visit it; units always parse
        // because they were printed from a syntax tree.
        let ts = node.to_token_stream();
        if let Ok(stmt) = syn::parse2::<syn::Stmt>(ts.clone()) {
            self.visit_stmt(&stmt);
        } else if let Ok(e) = syn::parse2::<syn::Expr>(ts) {
            self.visit_expr(&e);
        }
    }

    fn bump(&mut self, e: Expense) {
        self.expense = self.expense.max(e);
    }

    fn into_unit(self, text: String, in_loop: bool) -> Unit {
        Unit {
            text,
            in_loop,
            expense: self.expense,
            condition: false,
            callees: self.callees,
        }
    }
}

impl<'ast> Visit<'ast> for Scan<'_> {
    fn visit_expr_method_call(&mut self, m: &'ast syn::ExprMethodCall) {
        let name = m.method.to_string();
        if LINEAR_METHODS.contains(&name.as_str()) {
            self.bump(Expense::Expensive);
        } else {
            self.bump(Expense::Normal);
        }
        let callee = self.method_callee(&m.receiver, name);
        self.callees.push(callee);
        syn::visit::visit_expr_method_call(self, m);
    }

    fn visit_expr_call(&mut self, c: &'ast syn::ExprCall) {
        self.bump(Expense::Normal);
        if let syn::Expr::Path(p) = &*c.func {
            let segs: Vec<String> = p
                .path
                .segments
                .iter()
                .map(|s| s.ident.to_string())
                .collect();
            let callee = match segs.as_slice() {
                [f] => f.clone(),
                [.., ty, f] if ty == "Self" => match self.ctx.self_ty {
                    Some(t) => format!("{t}::{f}"),
                    None => f.clone(),
                },
                [.., ty, f] => format!("{ty}::{f}"),
                [] => String::new(),
            };
            if !callee.is_empty() {
                self.callees.push(Callee::Exact(callee));
            }
        }
        syn::visit::visit_expr_call(self, c);
    }

    fn visit_macro(&mut self, m: &'ast syn::Macro) {
        let name = m
            .path
            .segments
            .last()
            .map(|s| s.ident.to_string())
            .unwrap_or_default();
        if LINEAR_MACROS.contains(&name.as_str()) {
            self.bump(Expense::Expensive);
        } else {
            self.bump(Expense::Normal);
        }
    }

    fn visit_expr_for_loop(&mut self, f: &'ast syn::ExprForLoop) {
        self.bump(Expense::Expensive);
        syn::visit::visit_expr_for_loop(self, f);
    }

    fn visit_expr_while(&mut self, w: &'ast syn::ExprWhile) {
        self.bump(Expense::Expensive);
        syn::visit::visit_expr_while(self, w);
    }

    fn visit_expr_loop(&mut self, l: &'ast syn::ExprLoop) {
        self.bump(Expense::Expensive);
        syn::visit::visit_expr_loop(self, l);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fns(src: &str) -> CrateFns {
        let mut c = CrateFns::default();
        c.add_source(Path::new("lib.rs"), src).unwrap();
        c
    }

    const BASE: &str = r#"
        pub struct Bag { items: Vec<u64> }
        impl Bag {
            pub fn new() -> Self { Bag { items: Vec::new() } }
            pub fn push(&mut self, x: u64) { self.items.push(x); }
            pub fn len(&self) -> usize { self.items.len() }
            pub fn total(&self) -> u64 { let mut t = 0; for x in &self.items { t += x; } t }
            fn helper(&self, x: u64) -> u64 { x + 1 }
            pub fn bump(&mut self, x: u64) -> u64 { self.helper(x) }
        }
    "#;

    /// A public free function is checked too (`init` registers it, `explore --method f`
    /// finds it); a private one only through its public callers.
    #[test]
    fn a_changed_public_free_function_is_touched() {
        let old = "pub fn count(v: &[u64]) -> usize { v.len() }\nfn inner(x: u64) -> u64 { x }\n";
        let new = "pub fn count(v: &[u64]) -> usize { v.iter().filter(|x| v.contains(x)).count() }\nfn inner(x: u64) -> u64 { x + 1 }\n";
        let ranked = compare(&fns(old), &fns(new));
        let names: Vec<&str> = ranked.iter().map(|m| m.method.as_str()).collect();
        assert_eq!(names, ["count"], "{ranked:?}");
    }

    /// A method of the crate's trait on strings is named by the trait, as `init` registers
    /// it (`Shout::shout`), not `str::shout`.
    #[test]
    fn a_changed_method_of_a_trait_on_strings_is_named_by_the_trait() {
        let old = "pub trait Shout { fn shout(&self) -> String; }\nimpl Shout for str { fn shout(&self) -> String { self.to_uppercase() } }\n";
        let new = old.replace(
            "self.to_uppercase()",
            "self.chars().fold(String::new(), |a, c| format!(\"{a}{}\", c.to_ascii_uppercase()))",
        );
        let ranked = compare(&fns(old), &fns(&new));
        let names: Vec<&str> = ranked.iter().map(|m| m.method.as_str()).collect();
        assert_eq!(names, ["Shout::shout"], "{ranked:?}");
    }

    #[test]
    fn an_unchanged_crate_touches_nothing() {
        assert!(compare(&fns(BASE), &fns(BASE)).is_empty());
    }

    #[test]
    fn formatting_and_comments_are_not_changes() {
        let reformatted = BASE
            .replace("self.items.push(x);", "// push it\n self.items.push( x );")
            .replace("{ x + 1 }", "{\n    x + 1\n}");
        assert!(compare(&fns(BASE), &fns(&reformatted)).is_empty());
    }

    #[test]
    fn a_scan_added_to_push_ranks_above_a_refactor_elsewhere() {
        let new = BASE
            .replace(
                "pub fn push(&mut self, x: u64) { self.items.push(x); }",
                "pub fn push(&mut self, x: u64) { if !self.items.contains(&x) { self.items.push(x); } }",
            )
            .replace("{ self.items.len() }", "{ let n = self.items.len(); n }");
        let ranked = compare(&fns(BASE), &fns(&new));
        let names: Vec<&str> = ranked.iter().map(|m| m.method.as_str()).collect();
        assert_eq!(names, ["Bag::push", "Bag::len"]);
        assert!(ranked[0].risk >= 10.0, "{ranked:?}");
        assert!(ranked[1].risk < 1.0, "{ranked:?}");
        assert!(ranked[0].direct && !ranked[0].signature_changed && !ranked[0].new);
    }

    #[test]
    fn a_call_added_inside_a_loop_is_extreme() {
        let new = BASE.replace("t += x;", "t += x; self.items.iter().count();");
        let ranked = compare(&fns(BASE), &fns(&new));
        assert_eq!(ranked[0].method, "Bag::total");
        assert_eq!(ranked[0].risk, 100.0, "{ranked:?}");
        assert!(ranked[0].reasons[0].starts_with("extreme"), "{ranked:?}");
    }

    #[test]
    fn a_changed_private_helper_reaches_its_public_callers() {
        let new = BASE.replace(
            "fn helper(&self, x: u64) -> u64 { x + 1 }",
            "fn helper(&self, x: u64) -> u64 { x + self.items.iter().filter(|y| **y == x).count() as u64 }",
        );
        let ranked = compare(&fns(BASE), &fns(&new));
        assert_eq!(ranked.len(), 1, "{ranked:?}");
        assert_eq!(ranked[0].method, "Bag::bump");
        assert!(!ranked[0].direct);
        assert!(
            ranked[0].reasons[0].contains("in Bag::helper"),
            "{ranked:?}"
        );
    }

    #[test]
    fn signature_changes_and_new_methods_are_flagged() {
        let new = BASE
            .replace(
                "pub fn bump(&mut self, x: u64) -> u64 { self.helper(x) }",
                "pub fn bump(&mut self, x: u32) -> u64 { self.helper(x as u64) }",
            )
            .replace(
                "pub fn new() -> Self",
                "pub fn clear(&mut self) { self.items.clear(); }\n pub fn new() -> Self",
            );
        let ranked = compare(&fns(BASE), &fns(&new));
        let bump = ranked.iter().find(|m| m.method == "Bag::bump").unwrap();
        assert!(bump.signature_changed);
        let clear = ranked.iter().find(|m| m.method == "Bag::clear").unwrap();
        assert!(clear.new);
    }

    #[test]
    fn a_removed_guard_counts_as_expensive() {
        let old = BASE.replace(
            "pub fn total(&self) -> u64 {",
            "pub fn total(&self) -> u64 { if self.items.is_empty() { return 0; }",
        );
        let ranked = compare(&fns(&old), &fns(BASE));
        assert_eq!(ranked[0].method, "Bag::total");
        assert!(ranked[0].reasons[0].contains("removed"), "{ranked:?}");
        assert!(ranked[0].risk >= 10.0);
    }

    /// Only `SortedSet::contains` changes. `Inbox::add_unique` calls `contains` on its `Vec`
    /// field: matching callees by method name listed it as changed; the field's declared type
    /// says it calls `Vec::contains`. Calls whose receiver's type is declared (a field, a
    /// parameter, a typed local) reach the change fully; a receiver of unknown type (a call's
    /// result, a generic field) reaches it as a weaker link, at half weight.
    #[test]
    fn callees_resolve_by_the_receivers_declared_type() {
        const OLD: &str = r#"
            pub struct SortedSet { items: Vec<u64> }
            impl SortedSet {
                pub fn contains(&self, x: u64) -> bool { self.items.binary_search(&x).is_ok() }
            }
            pub struct Inbox { items: Vec<u64>, seen: Box<SortedSet> }
            impl Inbox {
                pub fn add_unique(&mut self, x: u64) {
                    if !self.items.contains(&x) { self.items.push(x); }
                }
                pub fn seen(&self, x: u64) -> bool { self.seen.contains(x) }
                pub fn seen_in(&self, set: &SortedSet, x: u64) -> bool { set.contains(x) }
                pub fn seen_local(&self, x: u64) -> bool {
                    let set: &SortedSet = &self.seen;
                    set.contains(x)
                }
                fn set(&self) -> &SortedSet { &self.seen }
                pub fn seen_via_call(&self, x: u64) -> bool { self.set().contains(x) }
            }
            pub struct Holder<S> { inner: S }
            impl<S> Holder<S> {
                pub fn has(&self, x: u64) -> bool { self.inner.contains(x) }
            }
        "#;
        let new = OLD.replace(
            "self.items.binary_search(&x).is_ok()",
            "self.items.iter().any(|y| *y == x)",
        );
        let ranked = compare(&fns(OLD), &fns(&new));
        let risk = |m: &str| ranked.iter().find(|c| c.method == m).map(|c| c.risk);
        assert_eq!(risk("Inbox::add_unique"), None, "{ranked:#?}");
        for typed in [
            "SortedSet::contains",
            "Inbox::seen",
            "Inbox::seen_in",
            "Inbox::seen_local",
        ] {
            assert_eq!(risk(typed), Some(10.0), "{typed}: {ranked:#?}");
        }
        for weak in ["Inbox::seen_via_call", "Holder::has"] {
            assert_eq!(risk(weak), Some(10.0 * WEAK_LINK), "{weak}: {ranked:#?}");
            let m = ranked.iter().find(|c| c.method == weak).unwrap();
            assert!(m.reasons[0].contains("by method name only"), "{m:?}");
        }
        assert_eq!(ranked.len(), 6, "{ranked:#?}");
    }

    #[test]
    fn test_modules_are_ignored() {
        let new = format!("{BASE}\n#[cfg(test)] mod tests {{ fn t() {{ for _ in 0..3 {{}} }} }}");
        assert!(compare(&fns(BASE), &fns(&new)).is_empty());
    }
}
