//! What the model decides, as plain data: the types to register ([`TypeReg`]), their
//! constructors and methods ([`Func`]) and parameters ([`Param`]), and what was skipped, in
//! one [`Model`]. The model's resolvers build it and [`gen`](super::gen) prints it; it sits
//! below both so that the printer never imports the resolution.

use std::collections::BTreeSet;

use perfsyn_profiler_ipc::Mode;

use super::skips::{SkipReason, Skipped};
use super::syntax::map_words;

/// One registration parameter.
#[derive(Clone, Debug)]
pub struct Param {
    pub name: String,
    /// How the argument is passed (the registry DSL's copy, val, ref, mut, slice, str).
    pub mode: Mode,
    /// DSL type (for `slice`, the element type).
    pub ty: String,
    /// A cast from the model's type to the real one (`as f64`), printed into a template.
    pub cast: Option<String>,
    /// The argument as Rust code and as a print template, when it is not the variable itself
    /// (a closure built from the variable: see [`closure`](super::closures::closure)).
    pub expr: Option<(String, String)>,
    /// Whether the program supplies a value (false for a closure that needs none).
    pub dsl: bool,
    /// Further program values the argument is built from (the end of a range, the other
    /// elements of an array), each its own registration parameter, not a call argument.
    pub more: Vec<Param>,
}

impl Param {
    /// The parameter with `prefix` before its name and those of its further values, in the
    /// argument's code too (a chain's second call whose names clash with the first's).
    pub fn renamed(&self, prefix: &str) -> Param {
        let names: Vec<String> = std::iter::once(&self.name)
            .chain(self.more.iter().map(|m| &m.name))
            .cloned()
            .collect();
        let fix = |code: &str| {
            map_words(code, |word, _| {
                if names.iter().any(|n| n == word) {
                    format!("{prefix}{word}")
                } else {
                    word.to_string()
                }
            })
        };
        Param {
            name: format!("{prefix}{}", self.name),
            expr: self.expr.as_ref().map(|(r, t)| (fix(r), fix(t))),
            more: self.more.iter().map(|m| m.renamed(prefix)).collect(),
            ..self.clone()
        }
    }
}

/// How a method takes `self`: a passing mode of the registry DSL, or `self: Box<Self>`,
/// which no program variable can pass (only a chained call reaches it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Receiver {
    By(Mode),
    Boxed,
}

impl Receiver {
    /// `&self`, the receiver a call takes when nothing else is said.
    pub const REF: Receiver = Receiver::By(Mode::Ref);

    /// The receiver's keyword in the registry DSL (`box` for [`Receiver::Boxed`]).
    pub fn keyword(self) -> &'static str {
        match self {
            Receiver::By(m) => m.keyword(),
            Receiver::Boxed => "box",
        }
    }
}

/// A registered constructor or method.
#[derive(Clone, Debug)]
pub struct Func {
    pub name: String,
    /// `None` for constructors; DSL mode of `self` otherwise.
    pub receiver: Option<Receiver>,
    pub params: Vec<Param>,
    /// The result kept as a variable (primitives and the crate's own types), if any.
    pub ret: Option<String>,
    pub expected: Option<String>,
    /// Code after the call (`.count()`: an iterator the call returns is consumed).
    pub suffix: Option<String>,
    /// A method of a borrowing type reached through the method that returns it
    /// (`slab.vacant_entry().insert(v)`, see [`chain`](super::chain)).
    pub chain: Option<Chain>,
    /// The call returns an owned value the program does not keep (`-> (Option<V>, Self)`):
    /// a caller would keep it, so it is dropped after the measured window (`{kept}`, see
    /// `Ctx::owned` in [`resolve`](super::resolve)).
    pub kept: bool,
    /// The function a constructor calls when it is not `name` (a `filled` variant, see [`model`](super::model)).
    pub call: Option<String>,
}

impl Func {
    /// A constructor named `name` taking `params`, with `suffix` (a marker such as
    /// [`UNIT_VARIANT`], or code after the call).
    pub fn ctor(name: &str, params: Vec<Param>, suffix: Option<&str>) -> Func {
        Func {
            name: name.into(),
            receiver: None,
            params,
            ret: None,
            expected: None,
            suffix: suffix.map(Into::into),
            chain: None,
            kept: false,
            call: None,
        }
    }
}

/// The `suffix` of a constructor that is an enum's unit variant (`Mode::Fast`): written
/// without a call (see `gen::ctor_line`).
pub const UNIT_VARIANT: &str = "<unit variant>";

/// The `suffix` of a constructor that is a struct literal of a type whose fields are all
/// public (`Edge { from, to, weight }`; see `gen::ctor_line`).
pub const STRUCT_LITERAL: &str = "<struct literal>";

/// The name of a tuple struct's literal constructor (`Meters({f0})`); a struct with named
/// fields has `literal`.
pub const TUPLE_LITERAL: &str = "tuple_literal";

/// A type to register.
#[derive(Clone, Debug)]
pub struct TypeReg {
    pub fn_name: String,
    /// The type's identifier in its defining module.
    pub ident: String,
    /// The Rust type as the registration writes it (`Stack<Key>` or a full path).
    pub rust: String,
    /// `use` path needed for `rust` (None when `rust` is a full path).
    pub import: Option<String>,
    /// `use` paths of the crate's traits whose methods are registered (called as methods,
    /// they must be in scope).
    pub traits: Vec<String>,
    /// Registry name when it must differ from `rust` (same ident in two modules).
    pub name: Option<String>,
    /// The spec prefix users type (`Stack`, or `a::Stack` for duplicates).
    pub path: String,
    pub doc: String,
    /// The method that measures an instance's size (see `size_rank` in [`model`](super::model)).
    pub size_method: Option<String>,
    pub ctors: Vec<Func>,
    pub methods: Vec<Func>,
    /// (`Type::item`, reason) of everything not registered.
    pub skipped: Vec<(String, SkipReason)>,
    /// How many of `skipped` are not this type's methods: associated functions (no `self`),
    /// and methods of borrowing types reached through a chain (counted with their type).
    pub skipped_not_methods: usize,
    /// For a namespace of free functions (see [`free`](super::free)), the Rust path of
    /// their module (`mycrate::util`): methods call `path::name(args)`, and the type is `()`.
    pub free: Option<String>,
}

/// The whole generated API.
#[derive(Clone, Debug, Default)]
pub struct Model {
    pub types: Vec<TypeReg>,
    /// Types that do not register at all, with the reason.
    pub skipped_types: Vec<(String, SkipReason)>,
    /// `Vec<T>` element types needed by slice or vector parameters.
    pub vecs: BTreeSet<String>,
    /// Public methods of the types that do not register (iterators, entries, error types):
    /// part of the public API, none of them reachable from a program.
    pub unregistered_methods: usize,
    /// Distinct methods of borrowing types registered through chains.
    pub chained: usize,
    /// (identifier, registry name) of the types left out for want of a constructor: the
    /// first pass's candidates for `handles` (see [`model`](super::model)).
    pub no_ctor: Vec<(String, String)>,
    /// (`module::function`, reason) of the free functions not registered in modules where
    /// none is (those of other modules are their namespace's `skipped`).
    pub skipped_fns: Vec<(String, SkipReason)>,
    /// Each class read from the docs, with its sentence (see
    /// [`class_reader`](super::class_reader)).
    pub classes: Vec<super::class_reader::ClassRecord>,
}

impl Model {
    /// Registered public methods: each type's own, plus each method of a borrowing type
    /// reached through a chain once (however many chains reach it); a variant calling
    /// another (a `numbered` one, see [`model`](super::model)) is not a method of its own.
    pub fn methods(&self) -> usize {
        self.types
            .iter()
            .flat_map(|t| &t.methods)
            .filter(|m| m.chain.is_none() && m.call.is_none())
            .count()
            + self.chained
    }
    pub fn ctors(&self) -> usize {
        self.types.iter().map(|t| t.ctors.len()).sum()
    }
    pub fn skipped(&self) -> usize {
        self.types.iter().map(|t| t.skipped.len()).sum::<usize>() + self.skipped_fns.len()
    }
    /// Every item not registered, with why, in the order the generated file lists them:
    /// types, then free functions of modules where none registers, then each type's items.
    pub fn skipped_items(&self) -> Vec<Skipped> {
        self.skipped_types
            .iter()
            .chain(&self.skipped_fns)
            .chain(self.types.iter().flat_map(|t| &t.skipped))
            .map(|(item, reason)| Skipped {
                item: item.clone(),
                reason: reason.clone(),
            })
            .collect()
    }
}

/// The elements of a tuple type written without spaces (`(usize,u64)`), if it is one.
pub(super) fn tuple_elements(t: &str) -> Option<Vec<&str>> {
    let inner = t.strip_prefix('(')?.strip_suffix(')')?;
    Some(inner.split(',').filter(|e| !e.is_empty()).collect())
}

/// The two calls of a chained method.
#[derive(Clone, Debug)]
pub struct Chain {
    /// The owning type's method that returns the borrowing value.
    pub first: String,
    /// The borrowing type's method called on it.
    pub second: String,
    /// How many of the registered parameters belong to `first`.
    pub split: usize,
    /// How the second call reaches the first's result.
    pub via: Via,
}

/// How the second call of a chain reaches the value the first returns.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Via {
    /// `r.first().second()`.
    Direct,
    /// `r.first().map(|b| b.second())`: the first returns `Option<B>` (`get_index_entry`).
    Option,
    /// `if let Enum::Variant(b) = r.first() { b.second() }`: the first returns an enum of the
    /// crate whose variant holds `B` (`entry()`'s `Entry::Occupied`); the full enum path and
    /// the variant.
    Variant(String, String),
}
