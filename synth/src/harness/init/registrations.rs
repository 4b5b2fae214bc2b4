//! What the model decides, as plain data: the types to register ([`TypeReg`]), their
//! constructors and methods ([`Func`]) and parameters ([`Param`]), and what was skipped, in
//! one [`Model`]. The model's resolvers build it and [`gen`](super::gen) prints it; it sits
//! below both so that the printer never imports the resolution.

use std::collections::BTreeSet;

use perfsyn_profiler_ipc::Mode;

use super::model_ty::ModelTy;
use super::skips::{SkipReason, Skipped};
use super::syntax::map_words;

/// One program value a registration takes: how it is passed and its model type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Value {
    /// How the argument is passed (the registry DSL's copy, val, ref, mut, slice, str).
    pub mode: Mode,
    /// The model type (for `slice`, the element type).
    pub ty: ModelTy,
}

impl Value {
    pub fn new(mode: Mode, ty: ModelTy) -> Value {
        Value { mode, ty }
    }

    /// The value as a print template names it: `&{x}` for a borrow, `{x}` otherwise.
    fn shown(&self, name: &str) -> String {
        match self.mode {
            Mode::Ref | Mode::Slice | Mode::Str => format!("&{{{name}}}"),
            Mode::Mut => format!("&mut {{{name}}}"),
            _ => format!("{{{name}}}"),
        }
    }
}

/// A conversion from the model's value to the parameter's real type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Cast {
    /// `x as u16`: a numeric cast to the named type.
    As(String),
    /// `x.into()`: `Option<T>` from `T`.
    Into,
    /// `Some(x)`: `Option<&str>` from a string (`x.into()` would print `&{x}.into()`,
    /// which borrows the conversion).
    Some,
}

impl Cast {
    /// The cast after the value, with its leading space (`x as u16`, `x.into()`).
    fn after(&self) -> String {
        match self {
            Cast::As(t) => format!(" as {t}"),
            Cast::Into => ".into()".to_string(),
            Cast::Some => String::new(),
        }
    }
}

/// An argument written as code: in Rust and as a print template (`{x}` for a value).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Code {
    pub rust: String,
    pub shown: String,
}

/// How a range argument is written when it is a range type itself (see
/// [`concrete_range`](super::compound::concrete_range)).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RangeType {
    /// `..` or `..=`.
    pub op: &'static str,
    /// Passed as `&(a..b)`.
    pub by_ref: bool,
}

/// How a filled sequence is passed (see [`filled`](super::variants::filled)).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Passed {
    /// The vector by value.
    Vec,
    /// A borrow of it (`&[T]`).
    Slice,
    /// Its `into_iter()`.
    Iter,
}

/// What a parameter is built from: one variant per family the resolvers produce, each
/// with what its argument's code is written from.
#[derive(Clone, Debug)]
pub enum ParamKind {
    /// A program value itself (an integer, a string, a slice, a vector, one of the crate's
    /// types, by value or borrowed), converted by `cast` where the real type differs.
    Plain { value: Value, cast: Option<Cast> },
    /// A closure chosen by a program value (`None`: one that needs none), built by
    /// [`closure`](super::closures::closure).
    Closure { value: Option<Value>, code: Code },
    /// `name..name_end`: two program values of one type, written as the range type itself
    /// when `written` says how.
    Range {
        value: Value,
        written: Option<RangeType>,
    },
    /// An array `[a, a_1]` or tuple `(a, a_1)`: the first element's value and the
    /// others' parameters (each a plain value).
    Elements {
        value: Value,
        rest: Vec<Param>,
        tuple: bool,
    },
    /// A non-zero integer: one plus a program value of that integer type.
    NonZero { int: &'static str },
    /// A vector of program values taken as a sequence: the vector, or its `into_iter()`.
    Sequence { elem: ModelTy, iterator: bool },
    /// A sequence of `elem`s filled with `0..n`, `n` a program value.
    Filled { elem: ModelTy, passed: Passed },
    /// A string written out from a program integer (`&` before it when `borrow`).
    Numbered { borrow: bool },
    /// The harness's fixed, seedless hasher: no program value.
    Hasher,
    /// `None` for an `Option<T>` whose `T` no program value builds (`space: Option<&mut
    /// DfsSpace<..>>`, scratch space the callee allocates itself when it is absent): the
    /// method registers with the path it takes without one, not skipped for an argument
    /// it does not need.
    Absent,
    /// A reader (`R: BufRead`, `impl Read`) or a byte slice (`&[u8]`): the bytes of a program
    /// string, `s.as_bytes()` (see [`readers`](super::readers)); `owned`: a `Vec<u8>`,
    /// `s.as_bytes().to_vec()`.
    Bytes { owned: bool },
    /// An owned reader (a type's `R: BufRead` instantiated with `Cursor<Vec<u8>>`): a cursor
    /// over a copy of a program string's bytes (see [`readers`](super::readers)).
    Reader,
    /// A byte array of the callee's length (`[u8; CAP]`, `&[u8; CAP]`): a program string's
    /// bytes, cut or padded with zeros (see [`byte_arrays`](super::byte_arrays)).
    ByteArray { borrow: bool },
    /// An argument the harness builds whole, with no program value: slots for a parser to
    /// fill, or a type built from them (see [`slots`](super::slots)).
    Built { code: String },
}

/// One registration parameter.
#[derive(Clone, Debug)]
pub struct Param {
    pub name: String,
    pub kind: ParamKind,
}

impl Param {
    pub fn new(name: &str, kind: ParamKind) -> Param {
        Param {
            name: name.to_string(),
            kind,
        }
    }

    /// A plain program value passed in `mode`.
    pub fn plain(name: &str, mode: Mode, ty: ModelTy, cast: Option<Cast>) -> Param {
        Param::new(
            name,
            ParamKind::Plain {
                value: Value::new(mode, ty),
                cast,
            },
        )
    }

    /// The program values the registration takes for this parameter, named, in order.
    pub fn values(&self) -> Vec<(String, Value)> {
        let one = |v: &Value| vec![(self.name.clone(), v.clone())];
        match &self.kind {
            ParamKind::Plain { value, .. } => one(value),
            ParamKind::Closure { value, .. } => value.iter().flat_map(one).collect(),
            ParamKind::Range { value, .. } => {
                vec![
                    (self.name.clone(), value.clone()),
                    (self.range_end(), value.clone()),
                ]
            }
            ParamKind::Elements { value, rest, .. } => one(value)
                .into_iter()
                .chain(rest.iter().flat_map(Param::values))
                .collect(),
            ParamKind::NonZero { int } => one(&Value::new(Mode::Copy, ModelTy::Prim(int))),
            ParamKind::Sequence { elem, .. } => {
                one(&Value::new(Mode::Val, ModelTy::Vec(Box::new(elem.clone()))))
            }
            ParamKind::Filled { .. } => one(&Value::new(Mode::Copy, ModelTy::Prim("usize"))),
            ParamKind::Numbered { .. } => one(&Value::new(Mode::Copy, ModelTy::Prim("u64"))),
            ParamKind::Hasher | ParamKind::Absent | ParamKind::Built { .. } => Vec::new(),
            ParamKind::Bytes { .. } | ParamKind::ByteArray { .. } | ParamKind::Reader => {
                one(&Value::new(Mode::Ref, ModelTy::String))
            }
        }
    }

    /// Every name the parameter binds, with or without a program value.
    pub fn names(&self) -> Vec<String> {
        let mut out = vec![self.name.clone()];
        match &self.kind {
            ParamKind::Range { .. } => out.push(self.range_end()),
            ParamKind::Elements { rest, .. } => out.extend(rest.iter().flat_map(Param::names)),
            _ => {}
        }
        out
    }

    fn range_end(&self) -> String {
        format!("{}_end", self.name)
    }

    /// Whether the argument is code rather than the program value itself.
    pub fn templated(&self) -> bool {
        match &self.kind {
            ParamKind::Plain { cast, .. } => cast.is_some(),
            ParamKind::Sequence { iterator, .. } => *iterator,
            _ => true,
        }
    }

    /// The argument in Rust (`x as f64`) and in a print template (`{x} as f64`).
    pub fn arg(&self) -> (String, String) {
        let name = &self.name;
        let code = |f: &dyn Fn(&str) -> String| (f(name), f(&format!("{{{name}}}")));
        match &self.kind {
            ParamKind::Plain { value, cast } => {
                let after = cast.as_ref().map(Cast::after).unwrap_or_default();
                let (rust, shown) = (
                    format!("{name}{after}"),
                    format!("{}{after}", value.shown(name)),
                );
                if *cast == Some(Cast::Some) {
                    (format!("Some({rust})"), format!("Some({shown})"))
                } else {
                    (rust, shown)
                }
            }
            ParamKind::Closure { code, .. } => (code.rust.clone(), code.shown.clone()),
            ParamKind::Range { value, written } => {
                let end = self.range_end();
                let Some(RangeType { op, by_ref }) = written else {
                    return (format!("{name}..{end}"), format!("{{{name}}}..{{{end}}}"));
                };
                // Never empty: the lower value starts it, the higher ends it (one past,
                // for `..`).
                let past = if *op == ".." {
                    ".saturating_add(1)"
                } else {
                    ""
                };
                let write = |a: &str, b: &str| {
                    if value.ty == ModelTy::Key {
                        format!(
                            "{{ let (s, e) = ({a}.get(), {b}.get()); Key::new(s.min(e)){op}Key::new(s.max(e){past}) }}"
                        )
                    } else {
                        format!("{a}.min({b}){op}{a}.max({b}){past}")
                    }
                };
                let (rust, shown) = (
                    write(name, &end),
                    write(&format!("{{{name}}}"), &format!("{{{end}}}")),
                );
                if *by_ref {
                    (format!("&({rust})"), format!("&({shown})"))
                } else {
                    (rust, shown)
                }
            }
            ParamKind::Elements { value, rest, tuple } => {
                let names: Vec<String> = self.values().into_iter().map(|(n, _)| n).collect();
                let shown: Vec<String> = std::iter::once(value.shown(name))
                    .chain(rest.iter().flat_map(|p| {
                        p.values()
                            .into_iter()
                            .map(|(n, v)| v.shown(&n))
                            .collect::<Vec<_>>()
                    }))
                    .collect();
                let (open, close) = match (tuple, rest.is_empty()) {
                    (false, _) => ("[", "]"),
                    // A one-element tuple is written `(a,)`.
                    (true, true) => ("(", ",)"),
                    (true, false) => ("(", ")"),
                };
                (
                    format!("{open}{}{close}", names.join(", ")),
                    format!("{open}{}{close}", shown.join(", ")),
                )
            }
            ParamKind::NonZero { int } => {
                code(&|v| format!("std::num::NonZero::<{int}>::MIN.saturating_add({v})"))
            }
            ParamKind::Sequence { iterator, .. } => {
                if *iterator {
                    code(&|v| format!("{v}.into_iter()"))
                } else {
                    (name.clone(), format!("{{{name}}}"))
                }
            }
            ParamKind::Filled { elem, passed } => {
                let map = match fill_item(elem) {
                    Some(item) if *elem != ModelTy::Prim("u64") => format!(".map(|i| {item})"),
                    _ => String::new(),
                };
                code(&|n| {
                    let fill = format!("(0..{n} as u64){map}.collect::<Vec<{elem}>>()");
                    match passed {
                        Passed::Vec => fill,
                        Passed::Slice => format!("&{fill}"),
                        Passed::Iter => format!("{fill}.into_iter()"),
                    }
                })
            }
            ParamKind::Numbered { borrow } => {
                let b = if *borrow { "&" } else { "" };
                code(&|v| format!("{b}{v}.to_string()"))
            }
            ParamKind::Hasher => {
                let c = "FixedState::default()".to_string();
                (c.clone(), c)
            }
            ParamKind::Absent => ("None".to_string(), "None".to_string()),
            ParamKind::Bytes { owned: false } => code(&|v| format!("{v}.as_bytes()")),
            ParamKind::Bytes { owned: true } => code(&|v| format!("{v}.as_bytes().to_vec()")),
            ParamKind::Reader => {
                code(&|v| format!("::std::io::Cursor::new({v}.as_bytes().to_vec())"))
            }
            ParamKind::ByteArray { borrow } => {
                let b = if *borrow { "&" } else { "" };
                code(&|v| {
                    format!(
                        "{b}std::array::from_fn(|i| {v}.as_bytes().get(i).copied().unwrap_or(0))"
                    )
                })
            }
            ParamKind::Built { code } => (code.clone(), code.clone()),
        }
    }

    /// The parameter with `prefix` before its name and those of its further values, in the
    /// argument's code too (a chain's second call whose names clash with the first's).
    pub fn renamed(&self, prefix: &str) -> Param {
        let names = self.names();
        let fix = |code: &str| {
            map_words(code, |word, _| {
                if names.iter().any(|n| n == word) {
                    format!("{prefix}{word}")
                } else {
                    word.to_string()
                }
            })
        };
        let kind = match &self.kind {
            ParamKind::Closure { value, code } => ParamKind::Closure {
                value: value.clone(),
                code: Code {
                    rust: fix(&code.rust),
                    shown: fix(&code.shown),
                },
            },
            ParamKind::Elements { value, rest, tuple } => ParamKind::Elements {
                value: value.clone(),
                rest: rest.iter().map(|p| p.renamed(prefix)).collect(),
                tuple: *tuple,
            },
            k => k.clone(),
        };
        Param {
            name: format!("{prefix}{}", self.name),
            kind,
        }
    }
}

/// The `i`-th element of a filled sequence of `elem`s (`i` a `u64`), for the elements a
/// program builds.
pub fn fill_item(elem: &ModelTy) -> Option<String> {
    match elem {
        ModelTy::Key => Some("Key::new(i)".into()),
        ModelTy::String => Some("i.to_string()".into()),
        e if e.is_int() => Some(format!("i as {e}")),
        _ => None,
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
    pub ret: Option<ModelTy>,
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

/// The `suffix` of a constructor that is an enum variant holding fields, named after the
/// variant (`Element::Edge { source, target, weight }`, `Value::Int(i)`; see
/// `gen::ctor_line`); [`TUPLE_VARIANT`] when they are positional.
pub const STRUCT_VARIANT: &str = "<struct variant>";

/// The `suffix` of an enum variant constructor with positional fields (`Value::Int({f0})`).
pub const TUPLE_VARIANT: &str = "<tuple variant>";

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
    /// Whether the namespace is that of a type that borrows its input, its methods each
    /// building one and consuming it (see [`borrowed_input`](super::borrowed_input)).
    pub borrowed_input: bool,
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
    /// Methods registered again at another instantiation of their type (see
    /// [`fixed_instantiations`](super::fixed_instantiations)): one public method each.
    pub instance_duplicates: usize,
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
            - self.instance_duplicates
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

/// The calls of a chained method: the receiver's (or a namespace's) method, then each
/// method called on what the one before handed out, the last being the method reached
/// (`doc.root().children()`, `for n in doc.descendants() { n.text() }`; see
/// [`chain`](super::chain) and [`handed_out`](super::handed_out)).
#[derive(Clone, Debug)]
pub struct Chain {
    /// At least two calls, in order.
    pub calls: Vec<Hop>,
}

/// One call of a chain.
#[derive(Clone, Debug)]
pub struct Hop {
    pub method: String,
    /// How many of the registered parameters it takes (after those of the calls before).
    pub params: usize,
    /// How the next call reaches the value this one returns, outermost first (`[]`: called
    /// on it directly; `[Fallible, Variant]`: in the `Ok`, matched). Empty on the last.
    pub via: Vec<Via>,
    /// A pull method (`reader.read_event()`, see [`borrowed_input`](super::borrowed_input)):
    /// called again and again, each item it hands out (the `Ok` or `Some`) reaching the next
    /// call, until it answers `Err` or `None`, and at most once per byte (plus one) of the
    /// text parameter at this index of the method's parameters, so a pull that repeats its
    /// end item forever still ends.
    pub pull: Option<usize>,
    /// Whether the pull method's buffer (`read_event_into(&mut Vec<u8>)`) is
    /// [`PULL_BUFFER`], a fresh vector each pull: the idiom's cleared buffer, and no
    /// program value whose contents the pulls would pile up.
    pub buffer: bool,
}

/// The variable a pull method's buffer argument is (see [`Hop::buffer`]).
pub const PULL_BUFFER: &str = "pull_buffer";

impl Chain {
    /// `first` (a plain method, or a chain itself) followed by `second`, which takes
    /// `params` parameters, reaching `first`'s result by `via`.
    pub fn then(first: &Func, via: Vec<Via>, second: &str, params: usize) -> Chain {
        let mut calls = match &first.chain {
            Some(c) => c.calls.clone(),
            None => vec![Hop {
                method: first.name.clone(),
                params: first.params.len(),
                via: Vec::new(),
                pull: None,
                buffer: false,
            }],
        };
        if let Some(last) = calls.last_mut() {
            last.via = via.into_iter().filter(|v| *v != Via::Direct).collect();
        }
        calls.push(Hop {
            method: second.to_string(),
            params,
            via: Vec::new(),
            pull: None,
            buffer: false,
        });
        Chain { calls }
    }

    /// The first call's method.
    pub fn first(&self) -> &str {
        &self.calls[0].method
    }

    /// Whether every call is made on the value the one before returned (the result is
    /// surely there, so it may be kept).
    pub fn direct(&self) -> bool {
        self.calls.iter().all(|h| h.via.is_empty())
    }
}

/// How the second call of a chain reaches the value the first returns.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Via {
    /// `r.first().second()`.
    Direct,
    /// `for b in r.first() { b.second() }`: the first returns a `Result` or `Option` of `B`
    /// (a fallible constructor, see [`borrowed_input`](super::borrowed_input)); a failure is
    /// an answer, not a panic (a parser rejecting text measures its work up to the error).
    Fallible,
    /// `r.first().map(|b| b.second())`: the first returns `Option<B>` (`get_index_entry`).
    Option,
    /// `for b in r.first() { b.second() }`: the first hands out many `B`, an iterator of
    /// them (`descendants()`): the second is called on each, so the cost grows with the data
    /// (see [`handed_out`](super::handed_out)).
    Each,
    /// `if let Err(b) = r.first() { b.second() }`: the first returns a `Result` whose error
    /// is `B` (`toposort() -> Result<Vec<N>, Cycle<N>>`): a failure is an answer, and its
    /// value the caller asks.
    Failure,
    /// `{ let b = r.first().k; b.second() }`: field `k` of the tuple the first returns
    /// (`split() -> (Producer, Consumer)`).
    Field(usize),
    /// `if let Enum::Variant(b) = r.first() { b.second() }`: the first returns an enum of the
    /// crate whose variant holds `B` (`entry()`'s `Entry::Occupied`); the full enum path and
    /// the variant.
    Variant(String, String),
}
