//! The synthesized program (Definition 7 of the PerfSyn chapter), as plain data.
//!
//! A program is a sequence of statements over typed variables. It crosses the process
//! boundary (bincode), is stored in run files (JSON), is hashed for A*'s closed set, and is
//! printed as Rust by [`crate::print`]. Our extension beyond the paper is [`Stmt::Repeat`]: a
//! loop whose index feeds [`Pattern`] literals, so one mutation can grow an input to 10^4
//! elements and give it a shape (sorted, reversed, duplicated, scattered).

use serde::{Deserialize, Serialize};

/// A variable of the program: an index into [`Program::vars`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Var(pub u32);

impl Var {
    /// The index of this variable in [`Program::vars`].
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// Integer types the program model knows as primitives.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum IntTy {
    U8,
    U32,
    U64,
    Usize,
    I32,
    I64,
}

impl IntTy {
    /// Every integer type, in the order the registry lists primitives.
    pub const ALL: [IntTy; 6] = [
        IntTy::U8,
        IntTy::U32,
        IntTy::U64,
        IntTy::Usize,
        IntTy::I32,
        IntTy::I64,
    ];

    /// The Rust spelling of the type, which is also its registry type name.
    pub fn name(self) -> &'static str {
        match self {
            IntTy::U8 => "u8",
            IntTy::U32 => "u32",
            IntTy::U64 => "u64",
            IntTy::Usize => "usize",
            IntTy::I32 => "i32",
            IntTy::I64 => "i64",
        }
    }

    /// The integer type named `name`, if it is one.
    pub fn from_name(name: &str) -> Option<IntTy> {
        IntTy::ALL.into_iter().find(|t| t.name() == name)
    }

    /// Clamps `v` into the range of this type, so that literals are always representable.
    pub fn clamp(self, v: i64) -> i64 {
        let (lo, hi): (i64, i64) = match self {
            IntTy::U8 => (0, u8::MAX as i64),
            IntTy::U32 => (0, u32::MAX as i64),
            IntTy::U64 | IntTy::Usize => (0, i64::MAX),
            IntTy::I32 => (i32::MIN as i64, i32::MAX as i64),
            IntTy::I64 => (i64::MIN, i64::MAX),
        };
        v.clamp(lo, hi)
    }
}

/// A value computed from the index `i` of the innermost `repeat n` loop.
///
/// These express the input shapes worst cases need: ascending (`I`), descending (`NMinusI`),
/// many duplicates (`ModK`), scattered (`Hash`), all equal (`Const`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Pattern {
    I,
    NMinusI,
    ModK(u32),
    Hash(u32),
    Const(i64),
}

impl Pattern {
    /// The value of the pattern at loop index `i` of a loop of `n` iterations.
    ///
    /// Kept in lockstep with [`Pattern::rust`]; a test compiles the printed form and compares.
    pub fn eval(self, i: i64, n: i64) -> i64 {
        match self {
            Pattern::I => i,
            Pattern::NMinusI => n - i,
            Pattern::ModK(k) => i % (k.max(1) as i64),
            Pattern::Hash(seed) => hash_index(i, seed),
            Pattern::Const(c) => c,
        }
    }

    /// Rust source computing the pattern from the `i64` loop index named `i` and count `n`.
    pub fn rust(self, i: &str, n: u32) -> String {
        match self {
            Pattern::I => i.to_string(),
            Pattern::NMinusI => format!("{n} - {i}"),
            Pattern::ModK(k) => format!("{i} % {}", k.max(1)),
            Pattern::Hash(seed) => format!(
                "(({i} as u64).wrapping_add({seed}).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 48) as i64"
            ),
            Pattern::Const(c) => format!("{c}"),
        }
    }
}

/// A scattered but deterministic value for loop index `i` (16 bits, non-negative).
pub fn hash_index(i: i64, seed: u32) -> i64 {
    ((i as u64)
        .wrapping_add(seed as u64)
        .wrapping_mul(0x9E37_79B9_7F4A_7C15)
        >> 48) as i64
}

/// A literal value; `Index` is only valid inside a `repeat` body.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Literal {
    Bool(bool),
    Int { ty: IntTy, value: i64 },
    Char(char),
    Str(String),
    Index { ty: IntTy, pattern: Pattern },
}

impl Literal {
    /// The registry type name of the value this literal produces.
    pub fn type_name(&self) -> &'static str {
        match self {
            Literal::Bool(_) => "bool",
            Literal::Int { ty, .. } | Literal::Index { ty, .. } => ty.name(),
            Literal::Char(_) => "char",
            Literal::Str(_) => "String",
        }
    }
}

/// A type-specific operator (the "mutate value" operator of section 3.2.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Op {
    /// Integer `x + 1` (saturating at the type's bounds).
    Inc,
    /// Integer `x - 1` (saturating).
    Dec,
    /// Integer `x * 2` (saturating).
    Double,
    /// Integer `x / 2`.
    Halve,
    /// Boolean `!x`.
    Toggle,
    /// String `x + "a"`.
    Append,
    /// String `x.repeat(2)`.
    Repeat2,
}

impl Op {
    /// The operators that apply to values of type `ty`.
    pub fn for_type(ty: &str) -> &'static [Op] {
        if IntTy::from_name(ty).is_some() {
            &[Op::Inc, Op::Dec, Op::Double, Op::Halve]
        } else if ty == "bool" {
            &[Op::Toggle]
        } else if ty == "String" {
            &[Op::Append, Op::Repeat2]
        } else {
            &[]
        }
    }

    /// A short stable name, used in learning-table keys and reports.
    pub fn name(self) -> &'static str {
        match self {
            Op::Inc => "inc",
            Op::Dec => "dec",
            Op::Double => "double",
            Op::Halve => "halve",
            Op::Toggle => "toggle",
            Op::Append => "append",
            Op::Repeat2 => "repeat2",
        }
    }
}

/// One statement of a program.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Stmt {
    /// `let out = literal;`
    Lit { out: Var, value: Literal },
    /// `let out = Type::ctor(args);`
    Ctor {
        out: Var,
        ty: String,
        ctor: String,
        args: Vec<Var>,
    },
    /// `[let out =] recv.method(args);` Calls marked `under_test` are the ones measured.
    Call {
        out: Option<Var>,
        ty: String,
        method: String,
        recv: Var,
        args: Vec<Var>,
        under_test: bool,
    },
    /// `let out = OP(arg);`
    Op { out: Var, op: Op, arg: Var },
    /// `let out = target.field.clone();`
    GetField {
        out: Var,
        target: Var,
        field: String,
    },
    /// `target.field = value;`
    SetField {
        target: Var,
        field: String,
        value: Var,
    },
    /// `for i in 0..n { body }`; variables defined in `body` are local to one iteration.
    Repeat { n: u32, body: Vec<Stmt> },
}

impl Stmt {
    /// The variable this statement defines, if any.
    pub fn defines(&self) -> Option<Var> {
        match self {
            Stmt::Lit { out, .. }
            | Stmt::Ctor { out, .. }
            | Stmt::Op { out, .. }
            | Stmt::GetField { out, .. } => Some(*out),
            Stmt::Call { out, .. } => *out,
            Stmt::SetField { .. } | Stmt::Repeat { .. } => None,
        }
    }
}

/// A program: the type of every variable and the statements.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Program {
    /// Registry type name of each variable, indexed by [`Var`].
    pub vars: Vec<String>,
    pub body: Vec<Stmt>,
}

impl Program {
    /// Declares a fresh variable of type `ty`.
    pub fn fresh(&mut self, ty: &str) -> Var {
        self.vars.push(ty.to_string());
        Var(self.vars.len() as u32 - 1)
    }

    /// The type name of `v`.
    pub fn ty(&self, v: Var) -> &str {
        &self.vars[v.index()]
    }

    /// Number of statements, counting loop bodies once.
    pub fn len(&self) -> usize {
        fn count(stmts: &[Stmt]) -> usize {
            stmts
                .iter()
                .map(|s| match s {
                    Stmt::Repeat { body, .. } => 1 + count(body),
                    _ => 1,
                })
                .sum()
        }
        count(&self.body)
    }

    /// True when the program has no statements.
    pub fn is_empty(&self) -> bool {
        self.body.is_empty()
    }

    /// A stable 64-bit hash (FNV-1a over the bincode encoding), for closed sets and file names.
    pub fn stable_hash(&self) -> u64 {
        let bytes = crate::wire::encode(self).unwrap_or_default();
        bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
            (h ^ *b as u64).wrapping_mul(0x0100_0000_01b3)
        })
    }

    /// Renames types (and thereby their methods) through `map`; used to run one program
    /// against the other member of a version group.
    pub fn retyped(&self, map: &dyn Fn(&str) -> Option<String>) -> Program {
        fn walk(stmts: &mut [Stmt], map: &dyn Fn(&str) -> Option<String>) {
            for s in stmts {
                match s {
                    Stmt::Ctor { ty, .. } | Stmt::Call { ty, .. } => {
                        if let Some(t) = map(ty) {
                            *ty = t;
                        }
                    }
                    Stmt::Repeat { body, .. } => walk(body, map),
                    _ => {}
                }
            }
        }
        let mut p = self.clone();
        for v in &mut p.vars {
            if let Some(t) = map(v) {
                *v = t;
            }
        }
        walk(&mut p.body, map);
        p
    }
}
