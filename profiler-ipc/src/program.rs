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
    ///
    /// Inlined, as [`Pattern::eval`]: the interpreter materializes an index literal per loop
    /// iteration, and out of line both were instrumented calls charged to the program's fuel
    /// (about 4% of a setup loop's worker time); inlined into the uninstrumented interpreter
    /// they count no edges.
    #[inline(always)]
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
/// many duplicates (`ModK`), scattered (`HashBelow`, `Hash`), all equal (`Const`).
///
/// New variants go at the end: the wire (bincode) names a variant by its position, and run
/// files (JSON) by its name, so older programs keep their meaning.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Pattern {
    I,
    NMinusI,
    ModK(u32),
    /// A scattered 16-bit value: `HashBelow { seed, bound: 65536 }`, with the same values.
    /// Kept so that programs saved before the bound existed read and run as they did;
    /// mutations make `HashBelow`.
    Hash(u32),
    Const(i64),
    /// A scattered value in `[0, bound)` (0 when `bound` is 0): the high 32 bits of the
    /// index's hash, `u`, scaled by multiplication, `u * bound >> 32`. A value is the same
    /// fraction of `bound` for every bound, so scaling the bound scales every value by the
    /// same factor and keeps the order of the values: a length drawn from it (a
    /// `resize(hash, k)`) is a size-like quantity the verdict sweep scales (see
    /// `synth/src/sweep.rs`), which a fixed 16-bit range is not.
    HashBelow {
        seed: u32,
        bound: u32,
    },
}

impl Pattern {
    /// The value of the pattern at loop index `i` of a loop of `n` iterations.
    ///
    /// Kept in lockstep with [`Pattern::rust`]; a test compiles the printed form and compares.
    /// Inlined (see [`IntTy::clamp`]).
    #[inline(always)]
    pub fn eval(self, i: i64, n: i64) -> i64 {
        match self {
            Pattern::I => i,
            Pattern::NMinusI => n - i,
            Pattern::ModK(k) => i % (k.max(1) as i64),
            Pattern::Hash(seed) => hash_index(i, seed),
            Pattern::Const(c) => c,
            Pattern::HashBelow { seed, bound } => hash_below(i, seed, bound),
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
            Pattern::HashBelow { seed, bound } => {
                let h = format!("({i} as u64).wrapping_add({seed}).wrapping_mul({HASH_MUL})");
                match bound {
                    0 | 1 => "0".to_string(),
                    // `u * 2^k >> 32` is `h >> (64 - k)`: the 16-bit form reads as before.
                    b if b.is_power_of_two() => {
                        format!("({h} >> {}) as i64", 64 - b.trailing_zeros())
                    }
                    b => format!("((({h} >> 32) * {b}) >> 32) as i64"),
                }
            }
        }
    }

    /// The value of the pattern when it does not depend on the index.
    pub fn constant(self) -> Option<i64> {
        match self {
            Pattern::Const(c) => Some(c),
            Pattern::HashBelow { bound: 0 | 1, .. } => Some(0),
            _ => None,
        }
    }
}

/// The multiplier of the index hash (2^64 over the golden ratio), as [`Pattern::rust`]
/// prints it.
const HASH_MUL: &str = "0x9E37_79B9_7F4A_7C15";

/// The index hash: a scattered but deterministic 64-bit value for loop index `i`.
#[inline(always)]
fn index_hash(i: i64, seed: u32) -> u64 {
    (i as u64)
        .wrapping_add(seed as u64)
        .wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// A scattered but deterministic value for loop index `i` (16 bits, non-negative).
#[inline(always)]
pub fn hash_index(i: i64, seed: u32) -> i64 {
    hash_below(i, seed, 1 << 16)
}

/// A scattered but deterministic value for loop index `i` in `[0, bound)` (see
/// [`Pattern::HashBelow`]).
#[inline(always)]
pub fn hash_below(i: i64, seed: u32, bound: u32) -> i64 {
    (((index_hash(i, seed) >> 32) * bound as u64) >> 32) as i64
}

/// How a text that grows is made of its two fragments `a` and `b`, `n` times: the string
/// counterpart of a loop, so a parser can be driven to its worst case as a loop drives a
/// collection to its (`"<!--".repeat(n)`, `"(".repeat(n) + ")".repeat(n)`).
///
/// New variants go at the end (see [`Pattern`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum TextShape {
    /// `a` n times.
    Repeat,
    /// `a` n times, then `b` n times: n levels of nesting.
    Nest,
    /// `a` and `b` alternating, n pairs.
    Interleave,
    /// `a` once, then `b` n times.
    Then,
    /// `a` (a whole value mined from the crate's tests) with its bytes `start..end` repeated
    /// n times in place: a child element, a list item, a statement made n siblings, so a
    /// valid input stays valid as it grows. `b` is unused.
    Span { start: u32, end: u32 },
    /// `a` with two of its spans each repeated n times in place, an opening one
    /// (`open..open_end`) and its closing one (`close..close_end`, after it): n levels of
    /// nesting that stay balanced. `b` is unused.
    SpanPair {
        open: u32,
        open_end: u32,
        close: u32,
        close_end: u32,
    },
}

impl TextShape {
    /// Every shape.
    pub const ALL: [TextShape; 4] = [
        TextShape::Repeat,
        TextShape::Nest,
        TextShape::Interleave,
        TextShape::Then,
    ];

    /// A short stable name, for mutation targets and reports.
    pub fn name(self) -> &'static str {
        match self {
            TextShape::Repeat => "repeat",
            TextShape::Nest => "nest",
            TextShape::Interleave => "interleave",
            TextShape::Then => "then",
            TextShape::Span { .. } => "span",
            TextShape::SpanPair { .. } => "span-pair",
        }
    }

    /// The pieces of `a` a span shape cuts it into, alternately fixed and repeated (prefix,
    /// span, suffix; or prefix, opening span, middle, closing span, suffix). Offsets out of
    /// order, out of range or off a character boundary leave `a` whole (nothing repeats)
    /// rather than panic.
    fn pieces(self, a: &str) -> Vec<&str> {
        let cuts: Vec<usize> = match self {
            TextShape::Span { start, end } => vec![start as usize, end as usize],
            TextShape::SpanPair {
                open,
                open_end,
                close,
                close_end,
            } => [open, open_end, close, close_end]
                .map(|x| x as usize)
                .to_vec(),
            _ => return vec![a],
        };
        let mut out = Vec::new();
        let mut from = 0;
        for to in cuts.into_iter().chain([a.len()]) {
            match a.get(from..to) {
                Some(piece) => out.push(piece),
                None => return vec![a],
            }
            from = to;
        }
        out
    }

    /// The text of this shape.
    pub fn eval(self, a: &str, b: &str, n: u32) -> String {
        let n = n as usize;
        match self {
            TextShape::Repeat => a.repeat(n),
            TextShape::Nest => a.repeat(n) + &b.repeat(n),
            TextShape::Interleave => [a, b].concat().repeat(n),
            TextShape::Then => a.to_string() + &b.repeat(n),
            TextShape::Span { .. } | TextShape::SpanPair { .. } => self
                .pieces(a)
                .iter()
                .enumerate()
                .map(|(i, p)| {
                    if i % 2 == 1 {
                        p.repeat(n)
                    } else {
                        p.to_string()
                    }
                })
                .collect(),
        }
    }

    /// Rust source building the same text (a `String` expression). Kept in lockstep with
    /// [`TextShape::eval`]; a test compiles the printed form and compares.
    pub fn rust(self, a: &str, b: &str, n: u32) -> String {
        match self {
            TextShape::Repeat => format!("{a:?}.repeat({n})"),
            TextShape::Nest => format!("{a:?}.repeat({n}) + &{b:?}.repeat({n})"),
            TextShape::Interleave => format!("[{a:?}, {b:?}].concat().repeat({n})"),
            TextShape::Then => format!("String::from({a:?}) + &{b:?}.repeat({n})"),
            TextShape::Span { .. } | TextShape::SpanPair { .. } => {
                let pieces = self.pieces(a);
                let args: Vec<String> = pieces
                    .iter()
                    .enumerate()
                    .map(|(i, p)| match i % 2 {
                        1 => format!("{p:?}.repeat({n})"),
                        _ => format!("{p:?}"),
                    })
                    .collect();
                format!(
                    "format!(\"{}\", {})",
                    "{}".repeat(pieces.len()),
                    args.join(", ")
                )
            }
        }
    }
}

/// A literal value; `Index` is only valid inside a `repeat` body.
///
/// New variants go at the end (see [`Pattern`]).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Literal {
    Bool(bool),
    Int {
        ty: IntTy,
        value: i64,
    },
    Char(char),
    Str(String),
    Index {
        ty: IntTy,
        pattern: Pattern,
    },
    /// A `String` that grows with `n` ([`TextShape`]); the verdict sweep scales `n` as it
    /// scales a loop's count.
    Text {
        shape: TextShape,
        a: String,
        b: String,
        n: u32,
    },
}

impl Literal {
    /// The registry type name of the value this literal produces.
    pub fn type_name(&self) -> &'static str {
        match self {
            Literal::Bool(_) => "bool",
            Literal::Int { ty, .. } | Literal::Index { ty, .. } => ty.name(),
            Literal::Char(_) => "char",
            Literal::Str(_) | Literal::Text { .. } => "String",
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
    /// Every operator.
    pub const ALL: [Op; 7] = [
        Op::Inc,
        Op::Dec,
        Op::Double,
        Op::Halve,
        Op::Toggle,
        Op::Append,
        Op::Repeat2,
    ];

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
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A program with every statement kind, literal kind and pattern.
    fn every_kind() -> Program {
        let mut p = Program::default();
        let v = p.fresh("Vec<Key>");
        let n = p.fresh("usize");
        let b = p.fresh("bool");
        let s = p.fresh("String");
        let c = p.fresh("char");
        let n2 = p.fresh("usize");
        let f = p.fresh("u64");
        let i = p.fresh("u64");
        let k = p.fresh("Key");
        p.body = vec![
            Stmt::Ctor {
                out: v,
                ty: "Vec<Key>".into(),
                ctor: "new".into(),
                args: vec![],
            },
            Stmt::Lit {
                out: n,
                value: Literal::Int {
                    ty: IntTy::Usize,
                    value: 7,
                },
            },
            Stmt::Lit {
                out: b,
                value: Literal::Bool(true),
            },
            Stmt::Lit {
                out: s,
                value: Literal::Str("é\"x".into()),
            },
            Stmt::Lit {
                out: c,
                value: Literal::Char('\n'),
            },
            Stmt::Lit {
                out: s,
                value: Literal::Text {
                    shape: TextShape::Nest,
                    a: "<a ".into(),
                    b: "/>".into(),
                    n: 3,
                },
            },
            Stmt::Op {
                out: n2,
                op: Op::Double,
                arg: n,
            },
            Stmt::GetField {
                out: f,
                target: v,
                field: "cap".into(),
            },
            Stmt::SetField {
                target: v,
                field: "cap".into(),
                value: f,
            },
            Stmt::Repeat {
                n: 300,
                body: vec![
                    Stmt::Lit {
                        out: i,
                        value: Literal::Index {
                            ty: IntTy::U64,
                            pattern: Pattern::Hash(3),
                        },
                    },
                    Stmt::Ctor {
                        out: k,
                        ty: "Key".into(),
                        ctor: "new".into(),
                        args: vec![i],
                    },
                    Stmt::Call {
                        out: None,
                        ty: "Vec<Key>".into(),
                        method: "push".into(),
                        recv: v,
                        args: vec![k],
                        under_test: false,
                    },
                ],
            },
            Stmt::Call {
                out: None,
                ty: "Vec<Key>".into(),
                method: "insert".into(),
                recv: v,
                args: vec![n2, k],
                under_test: true,
            },
        ];
        p
    }

    #[test]
    fn bincode_round_trip_is_identity() {
        let p = every_kind();
        let bytes = crate::wire::encode(&p).unwrap();
        let q: Program = crate::wire::decode(&bytes).unwrap();
        assert_eq!(p, q);
        assert_eq!(p.stable_hash(), q.stable_hash());
    }

    #[test]
    fn json_round_trip_is_identity() {
        let p = every_kind();
        let q: Program = serde_json::from_str(&serde_json::to_string(&p).unwrap()).unwrap();
        assert_eq!(p, q);
    }

    #[test]
    fn text_shapes_grow_their_fragments_n_times() {
        let t = |shape: TextShape| shape.eval("(", ")", 3);
        assert_eq!(t(TextShape::Repeat), "(((");
        assert_eq!(t(TextShape::Nest), "((()))");
        assert_eq!(t(TextShape::Interleave), "()()()");
        assert_eq!(t(TextShape::Then), "()))");
        assert_eq!(
            TextShape::Nest.rust("(", ")", 3),
            r#""(".repeat(3) + &")".repeat(3)"#
        );
    }

    #[test]
    fn span_shapes_repeat_parts_of_a_value_in_place() {
        let v = "<r><i/></r>";
        let one = TextShape::Span { start: 3, end: 7 };
        assert_eq!(one.eval(v, "", 3), "<r><i/><i/><i/></r>");
        assert_eq!(
            one.rust(v, "", 3),
            r#"format!("{}{}{}", "<r>", "<i/>".repeat(3), "</r>")"#
        );
        let two = TextShape::SpanPair {
            open: 0,
            open_end: 3,
            close: 7,
            close_end: 11,
        };
        assert_eq!(two.eval(v, "", 2), "<r><r><i/></r></r>");
        // Offsets past the end or off a character boundary cut nothing out.
        assert_eq!(TextShape::Span { start: 1, end: 99 }.eval("é", "", 2), "é");
    }

    #[test]
    fn patterns_shape_loop_values() {
        let vals = |p: Pattern| (0..5).map(|i| p.eval(i, 5)).collect::<Vec<_>>();
        assert_eq!(vals(Pattern::I), vec![0, 1, 2, 3, 4]);
        assert_eq!(vals(Pattern::NMinusI), vec![5, 4, 3, 2, 1]);
        assert_eq!(vals(Pattern::ModK(2)), vec![0, 1, 0, 1, 0]);
        assert_eq!(vals(Pattern::Const(9)), vec![9; 5]);
        let h = vals(Pattern::Hash(1));
        assert!(h.iter().all(|v| (0..1 << 16).contains(v)));
        let mut d = h.clone();
        d.sort();
        d.dedup();
        assert_eq!(d.len(), 5, "hash values are scattered: {h:?}");
    }

    #[test]
    fn a_bounded_hash_scales_with_its_bound() {
        // The 16-bit form is the bound 65536, value for value.
        for i in 0..1000 {
            let b = Pattern::HashBelow {
                seed: 3,
                bound: 1 << 16,
            };
            assert_eq!(b.eval(i, 1000), Pattern::Hash(3).eval(i, 1000));
        }
        let at = |bound: u32| {
            (0..200)
                .map(|i| Pattern::HashBelow { seed: 1, bound }.eval(i, 200))
                .collect::<Vec<_>>()
        };
        let (big, small) = (at(1_000_000), at(1000));
        assert!(big.iter().all(|v| (0..1_000_000).contains(v)));
        assert!(small.iter().all(|v| (0..1000).contains(v)));
        // Each value is the same fraction of its bound, up to the rounding down.
        for (b, s) in big.iter().zip(&small) {
            assert!((b / 1000 - s).abs() <= 1, "{b} at 10^6, {s} at 10^3");
        }
        assert_eq!(at(1), vec![0; 200]);
        assert_eq!(at(0), vec![0; 200]);
        assert_eq!(Pattern::HashBelow { seed: 1, bound: 1 }.constant(), Some(0));
        assert_eq!(Pattern::HashBelow { seed: 1, bound: 2 }.constant(), None);
    }
}
