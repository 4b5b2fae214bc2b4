//! The API schema: the serializable description of a registry.
//!
//! The worker sends it in its hello; the engine learns every type, constructor, method,
//! field and declared complexity from it and never links target code. It is also what the
//! printer and the type checker read, so they work the same on both sides of the boundary.

use serde::{Deserialize, Serialize};

/// How an operand is passed to a call.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Mode {
    /// `&x`
    Ref,
    /// `&mut x`
    Mut,
    /// `x`, moving it (the variable is no longer visible afterwards).
    Val,
    /// `x` for a `Copy` value (stays visible).
    Copy,
    /// `&x` where `x: Vec<T>` is passed as `&[T]`.
    Slice,
    /// `&x` where `x: String` is passed as `&str`.
    Str,
}

impl Mode {
    /// The mode's keyword in the registry DSL.
    pub fn keyword(self) -> &'static str {
        match self {
            Mode::Ref => "ref",
            Mode::Mut => "mut",
            Mode::Val => "val",
            Mode::Copy => "copy",
            Mode::Slice => "slice",
            Mode::Str => "str",
        }
    }

    /// Whether passing a variable this way moves it.
    pub fn moves(self) -> bool {
        self == Mode::Val
    }

    /// Whether the callee may mutate the operand.
    pub fn mutates(self) -> bool {
        self == Mode::Mut
    }
}

/// One parameter of a constructor or method.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ParamSchema {
    pub name: String,
    /// Registry type name of the variable passed (for `Slice`, the `Vec<T>`).
    pub ty: String,
    pub mode: Mode,
}

/// A constructor.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct CtorSchema {
    pub name: String,
    pub params: Vec<ParamSchema>,
    /// Rust expression template with `{param}` placeholders; `None` prints `Type::name(args)`.
    pub template: Option<String>,
}

/// A method.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct MethodSchema {
    pub name: String,
    pub receiver: Mode,
    pub params: Vec<ParamSchema>,
    /// The type of the value kept from the call, if the registration keeps it.
    pub ret: Option<String>,
    /// Expected complexity in the input size, as the type's documentation states it ("O(n)").
    pub expected: Option<String>,
    /// Rust template with `{self}` and `{param}` placeholders; `None` prints `recv.name(args)`.
    pub template: Option<String>,
    /// Whether the call returns `()`: the printer writes it as a plain statement instead of
    /// `let _ = ...;`. False in schemas written before it existed.
    #[serde(default)]
    pub returns_unit: bool,
    /// Whether a caller keeps the call's unkept result: the measured window ends before it
    /// is dropped (`{kept}` in `register_type!`, see `meter::call_returned`), and an exported
    /// test drops it after `stop()`. False in schemas written before it existed.
    #[serde(default)]
    pub kept: bool,
}

impl MethodSchema {
    /// A one-line signature, e.g. `fn insert(&mut self, index: usize, element: Key)`.
    pub fn signature(&self) -> String {
        let recv = match self.receiver {
            Mode::Ref => "&self",
            Mode::Mut => "&mut self",
            _ => "self",
        };
        let mut s = format!("fn {}({recv}", self.name);
        for p in &self.params {
            s.push_str(&format!(", {}: {}", p.name, param_rust_type(p)));
        }
        s.push(')');
        if let Some(r) = &self.ret {
            s.push_str(&format!(" -> {r}"));
        }
        s
    }
}

/// The Rust type of a parameter as the callee sees it.
pub fn param_rust_type(p: &ParamSchema) -> String {
    match p.mode {
        Mode::Ref => format!("&{}", p.ty),
        Mode::Mut => format!("&mut {}", p.ty),
        Mode::Val | Mode::Copy => p.ty.clone(),
        Mode::Slice => format!(
            "&[{}]",
            p.ty.strip_prefix("Vec<")
                .and_then(|t| t.strip_suffix('>'))
                .unwrap_or(&p.ty)
        ),
        Mode::Str => "&str".to_string(),
    }
}

/// A public field.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct FieldSchema {
    pub name: String,
    pub ty: String,
}

/// Membership in a version group: two registrations of one API.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct VersionSchema {
    /// The group's name (shared by both members), e.g. `ListOrderedMap`.
    pub group: String,
    /// `old` or `new`.
    pub version: String,
}

/// What a concurrent (thread-safe) type adds to its schema: the version pairs in which it is
/// the new version. Declared with `register_concurrent!`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ConcurrentSchema {
    pub pairs: Vec<PairSchema>,
}

/// One change of a thread-safe type's history: `old` (another concurrent type) became the
/// type that carries this record.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct PairSchema {
    /// Registry name of the old version.
    pub old: String,
    /// What the change does to concurrent performance: `regression`, `improvement`, `none`,
    /// or `inconclusive` (a version that deadlocks or panics on purpose).
    pub expected: String,
    /// Where the pair comes from (e.g. "SpeedGun Table 2 (9)").
    pub origin: String,
    /// Methods the change influences, directly or indirectly (the focus methods).
    pub changed: Vec<String>,
}

/// Where a registered type (or method) comes from, so that a user can tell std's own methods
/// from what the corpus made up, and a hunt a crate's harness from the corpus.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Origin {
    /// The standard library's own, called as itself.
    Std,
    /// Written for perfsyn's corpus: a corpus type, or a wrapper registered on a std type.
    Corpus,
    /// A corpus type with a bottleneck planted on purpose.
    Planted,
    /// A type of the named crate (a user's harness).
    Crate(String),
    /// Neither the registration nor its imports say.
    Unknown,
}

impl std::fmt::Display for Origin {
    /// As `perfsyn list` shows it: `std`, `corpus`, `planted`, the crate's name, or `-`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Origin::Std => "std",
            Origin::Corpus => "corpus",
            Origin::Planted => "planted",
            Origin::Crate(c) => c,
            Origin::Unknown => "-",
        })
    }
}

/// Std types a registration may name without importing them (the prelude).
const PRELUDE: &[&str] = &["Vec", "String", "Option", "Box"];

/// A registered type.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct TypeSchema {
    /// Registry name: by default the Rust type without spaces, e.g. `Vec<Key>`; a registration
    /// may choose another (`name: "v2::Stack"`) so that two types with the same Rust name in
    /// different modules register side by side.
    pub name: String,
    /// The Rust type as a printed program writes it, without spaces (`Vec<Key>`,
    /// `my_crate::v2::Stack`). Empty in schemas written before it existed: then `name`.
    #[serde(default)]
    pub rust: String,
    /// The path users write, without generics, e.g. `Vec`.
    pub path: String,
    /// Whether the type has an input-size function.
    pub sized: bool,
    pub version: Option<VersionSchema>,
    /// Set for thread-safe types (`Send + Sync`, every method through `&self`) that can be
    /// shared by the threads of a concurrent test.
    #[serde(default)]
    pub concurrent: Option<ConcurrentSchema>,
    pub ctors: Vec<CtorSchema>,
    pub methods: Vec<MethodSchema>,
    pub fields: Vec<FieldSchema>,
    /// Imports a printed program needs for this type (`use` paths).
    pub imports: Vec<String>,
    /// The registration's one-line description.
    pub doc: String,
    /// Where the type comes from, as the registry that collects it records it (the corpus
    /// does, see `TypeDef::with_origin`). `None` where it does not, and in schemas written
    /// before it existed: [`TypeSchema::origin()`] then reads it from the imports.
    #[serde(default)]
    pub origin: Option<Origin>,
    /// Set on a registration of a fixed-capacity type at another capacity than its main
    /// registration's (see [`Rung`]); `None` for every other type.
    #[serde(default)]
    pub rung: Option<Rung>,
}

/// A rung of a capacity ladder: a fixed-capacity type (`ArrayString<const CAP: usize>`)
/// registered again at a smaller capacity than its main registration. Programs never start
/// from a rung; the engine renames a program's main type to its rungs when the capacity
/// itself is what sizes the input (a constructor that fills the container), or when the
/// main capacity cannot be built (a type asserting `N < 256`). Rungs are not listed and do
/// not resolve by path: they are their main type at other sizes, not other API.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Rung {
    /// The main registration's registry name.
    pub of: String,
    /// The capacity this registration instantiates.
    pub capacity: u64,
}

impl TypeSchema {
    /// Whether this registration is a rung of another's capacity ladder (see [`Rung`]).
    pub fn is_rung(&self) -> bool {
        self.rung.is_some()
    }

    /// The method named `name`.
    pub fn method(&self, name: &str) -> Option<&MethodSchema> {
        self.methods.iter().find(|m| m.name == name)
    }

    /// The constructor named `name`.
    pub fn ctor(&self, name: &str) -> Option<&CtorSchema> {
        self.ctors.iter().find(|c| c.name == name)
    }

    /// The field named `name`.
    pub fn field(&self, name: &str) -> Option<&FieldSchema> {
        self.fields.iter().find(|f| f.name == name)
    }

    /// The Rust type as a printed program writes it (see [`TypeSchema::rust`]).
    pub fn rust_type(&self) -> &str {
        if self.rust.is_empty() {
            &self.name
        } else {
            &self.rust
        }
    }

    /// Whether the type is a namespace of free functions: a `()` value whose methods call
    /// a module's functions by path (a generated harness registers one per module); printed
    /// programs never name it.
    pub fn is_namespace(&self) -> bool {
        self.rust == "()"
    }

    /// Where the type comes from: the recorded `origin` field, else the crate named by the
    /// import that names the type (or by its Rust path), `std` for `std`, `core`, `alloc` and
    /// the prelude. A generated harness records none: its types are imported from the user's
    /// crate, its vectors and strings are the prelude's. A namespace of free functions belongs
    /// to the crate its calls name (`mycrate::util::f({x})`).
    pub fn origin(&self) -> Origin {
        if let Some(o) = &self.origin {
            return o.clone();
        }
        if self.is_namespace() {
            let krate = self
                .methods
                .iter()
                .filter_map(|m| {
                    let t = m.template.as_deref()?;
                    // A trait's methods on strings: `<str as mycrate::Trait>::f({text})`.
                    let t = t
                        .strip_prefix('<')
                        .and_then(|r| r.split_once(" as "))
                        .map_or(t, |(_, path)| path);
                    t.split("::").next()
                })
                .next();
            return match krate {
                Some(k) if !k.is_empty() => Origin::Crate(k.to_string()),
                _ => Origin::Unknown,
            };
        }
        let base = self.name.split('<').next().unwrap_or(&self.name);
        let import = self
            .imports
            .iter()
            .find(|i| i.rsplit("::").next() == Some(base));
        // A type spelled by its full path (two types of one name, `partial::SortedVec` and
        // `SortedVec`, are imported by neither): the crate its Rust path names.
        let spelled = self.rust.split('<').next().filter(|r| r.contains("::"));
        let Some(import) = import.map(String::as_str).or(spelled) else {
            return if PRELUDE.contains(&base) {
                Origin::Std
            } else {
                Origin::Unknown
            };
        };
        match import.split("::").next() {
            Some("std" | "core" | "alloc") => Origin::Std,
            Some(krate) => Origin::Crate(krate.to_string()),
            None => Origin::Unknown,
        }
    }

    /// The type as a Rust path prefix for associated functions: `Vec<Key>` -> `Vec::<Key>`.
    pub fn rust_path(&self) -> String {
        let t = self.rust_type();
        match t.find('<') {
            Some(i) => format!("{}::{}", &t[..i], &t[i..]),
            None => t.to_string(),
        }
    }
}

/// The primitive types every schema has, with literal and operator support built in.
pub const PRIMITIVES: &[&str] = &[
    "bool", "u8", "u32", "u64", "usize", "i32", "i64", "char", "String",
];

/// The whole API a worker offers.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ApiSchema {
    pub types: Vec<TypeSchema>,
}

impl ApiSchema {
    /// The type named `name` (registry spelling, e.g. `Vec<Key>`).
    pub fn ty(&self, name: &str) -> Option<&TypeSchema> {
        self.types.iter().find(|t| t.name == name)
    }

    /// Whether `name` is a primitive or a registered type.
    pub fn knows(&self, name: &str) -> bool {
        PRIMITIVES.contains(&name) || self.ty(name).is_some()
    }

    /// A stable hash of the schema, recorded in run files to detect a changed worker.
    pub fn hash(&self) -> u64 {
        let bytes = crate::wire::encode(self).unwrap_or_default();
        bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
            (h ^ *b as u64).wrapping_mul(0x0100_0000_01b3)
        })
    }

    /// The other member of `ty`'s version group, if it has one.
    pub fn counterpart(&self, ty: &str) -> Option<&TypeSchema> {
        let v = self.ty(ty)?.version.as_ref()?;
        self.types.iter().find(|t| {
            t.name != ty
                && t.version
                    .as_ref()
                    .is_some_and(|o| o.group == v.group && o.version != v.version)
        })
    }
}
