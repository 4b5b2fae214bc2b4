//! The engine's encoder of programs, byte for byte the encoding of [`crate::wire`] (bincode
//! 2, standard configuration: little-endian varints, variants by position).
//!
//! Why it exists: the engine encodes every program it posts, and through serde's generic
//! path (a visitor call per field, a varint function call per integer, a `memcpy` call per
//! type or method name) a small program of ten statements took about half a microsecond,
//! a quarter of `perfsyn bench ipc`'s round trip (`perf record` of the round-trip figure:
//! `Stmt::serialize`, bincode's varint encoders and `memmove` were about half of the
//! engine's busy samples). Written out by hand it is a few stores per field. The worker
//! decodes with [`crate::wire`] unchanged, so the wire format and the protocol version
//! stay as they are; a test compares the bytes with bincode's for every statement,
//! literal, pattern and varint width. The worker never calls this: it only decodes
//! programs.

use crate::program::{IntTy, Literal, Op, Pattern, Program, Stmt, TextShape, Var};

/// A bounds-checked writer over the request area: every write either fits or makes the
/// whole encoding fail (`None`), never a truncation.
struct Out<'a> {
    buf: &'a mut [u8],
    at: usize,
}

impl Out<'_> {
    #[inline(always)]
    fn byte(&mut self, b: u8) -> Option<()> {
        *self.buf.get_mut(self.at)? = b;
        self.at += 1;
        Some(())
    }

    #[inline(always)]
    fn bytes(&mut self, b: &[u8]) -> Option<()> {
        let end = self.at.checked_add(b.len())?;
        self.buf.get_mut(self.at..end)?.copy_from_slice(b);
        self.at = end;
        Some(())
    }

    /// An unsigned integer as bincode's varint: one byte below 251, else a marker and the
    /// value's smallest fitting width.
    #[inline(always)]
    fn varint(&mut self, v: u64) -> Option<()> {
        if v < 251 {
            self.byte(v as u8)
        } else if v <= u16::MAX as u64 {
            self.byte(251)?;
            self.bytes(&(v as u16).to_le_bytes())
        } else if v <= u32::MAX as u64 {
            self.byte(252)?;
            self.bytes(&(v as u32).to_le_bytes())
        } else {
            self.byte(253)?;
            self.bytes(&v.to_le_bytes())
        }
    }

    /// A signed integer: zigzag, then varint.
    #[inline(always)]
    fn signed(&mut self, v: i64) -> Option<()> {
        self.varint(((v << 1) ^ (v >> 63)) as u64)
    }

    #[inline(always)]
    fn str(&mut self, s: &str) -> Option<()> {
        self.varint(s.len() as u64)?;
        self.bytes(s.as_bytes())
    }

    #[inline(always)]
    fn var(&mut self, v: Var) -> Option<()> {
        self.varint(v.0 as u64)
    }

    fn vars(&mut self, vs: &[Var]) -> Option<()> {
        self.varint(vs.len() as u64)?;
        vs.iter().try_for_each(|v| self.var(*v))
    }

    fn int_ty(&mut self, t: IntTy) -> Option<()> {
        self.varint(match t {
            IntTy::U8 => 0,
            IntTy::U32 => 1,
            IntTy::U64 => 2,
            IntTy::Usize => 3,
            IntTy::I32 => 4,
            IntTy::I64 => 5,
        })
    }

    fn pattern(&mut self, p: Pattern) -> Option<()> {
        match p {
            Pattern::I => self.varint(0),
            Pattern::NMinusI => self.varint(1),
            Pattern::ModK(k) => {
                self.varint(2)?;
                self.varint(k as u64)
            }
            Pattern::Hash(seed) => {
                self.varint(3)?;
                self.varint(seed as u64)
            }
            Pattern::Const(c) => {
                self.varint(4)?;
                self.signed(c)
            }
            Pattern::HashBelow { seed, bound } => {
                self.varint(5)?;
                self.varint(seed as u64)?;
                self.varint(bound as u64)
            }
        }
    }

    fn literal(&mut self, l: &Literal) -> Option<()> {
        match l {
            Literal::Bool(b) => {
                self.varint(0)?;
                self.byte(*b as u8)
            }
            Literal::Int { ty, value } => {
                self.varint(1)?;
                self.int_ty(*ty)?;
                self.signed(*value)
            }
            Literal::Char(c) => {
                self.varint(2)?;
                self.bytes(c.encode_utf8(&mut [0u8; 4]).as_bytes())
            }
            Literal::Str(s) => {
                self.varint(3)?;
                self.str(s)
            }
            Literal::Index { ty, pattern } => {
                self.varint(4)?;
                self.int_ty(*ty)?;
                self.pattern(*pattern)
            }
            Literal::Text { shape, a, b, n } => {
                self.varint(5)?;
                match *shape {
                    TextShape::Repeat => self.varint(0)?,
                    TextShape::Nest => self.varint(1)?,
                    TextShape::Interleave => self.varint(2)?,
                    TextShape::Then => self.varint(3)?,
                    TextShape::Span { start, end } => {
                        self.varint(4)?;
                        self.varint(start as u64)?;
                        self.varint(end as u64)?
                    }
                    TextShape::SpanPair {
                        open,
                        open_end,
                        close,
                        close_end,
                    } => {
                        self.varint(5)?;
                        for x in [open, open_end, close, close_end] {
                            self.varint(x as u64)?;
                        }
                    }
                }
                self.str(a)?;
                self.str(b)?;
                self.varint(*n as u64)
            }
        }
    }

    fn op(&mut self, op: Op) -> Option<()> {
        self.varint(match op {
            Op::Inc => 0,
            Op::Dec => 1,
            Op::Double => 2,
            Op::Halve => 3,
            Op::Toggle => 4,
            Op::Append => 5,
            Op::Repeat2 => 6,
        })
    }

    fn stmt(&mut self, s: &Stmt) -> Option<()> {
        match s {
            Stmt::Lit { out, value } => {
                self.varint(0)?;
                self.var(*out)?;
                self.literal(value)
            }
            Stmt::Ctor {
                out,
                ty,
                ctor,
                args,
            } => {
                self.varint(1)?;
                self.var(*out)?;
                self.str(ty)?;
                self.str(ctor)?;
                self.vars(args)
            }
            Stmt::Call {
                out,
                ty,
                method,
                recv,
                args,
                under_test,
            } => {
                self.varint(2)?;
                match out {
                    None => self.byte(0)?,
                    Some(o) => {
                        self.byte(1)?;
                        self.var(*o)?;
                    }
                }
                self.str(ty)?;
                self.str(method)?;
                self.var(*recv)?;
                self.vars(args)?;
                self.byte(*under_test as u8)
            }
            Stmt::Op { out, op, arg } => {
                self.varint(3)?;
                self.var(*out)?;
                self.op(*op)?;
                self.var(*arg)
            }
            Stmt::GetField { out, target, field } => {
                self.varint(4)?;
                self.var(*out)?;
                self.var(*target)?;
                self.str(field)
            }
            Stmt::SetField {
                target,
                field,
                value,
            } => {
                self.varint(5)?;
                self.var(*target)?;
                self.str(field)?;
                self.var(*value)
            }
            Stmt::Repeat { n, body } => {
                self.varint(6)?;
                self.varint(*n as u64)?;
                self.stmts(body)
            }
        }
    }

    fn stmts(&mut self, body: &[Stmt]) -> Option<()> {
        self.varint(body.len() as u64)?;
        body.iter().try_for_each(|s| self.stmt(s))
    }
}

/// Encodes `p` into `buf` as [`crate::wire::encode_into`] would; the number of bytes
/// written, or `None` if it does not fit.
pub fn encode_program(p: &Program, buf: &mut [u8]) -> Option<usize> {
    let mut out = Out { buf, at: 0 };
    out.varint(p.vars.len() as u64)?;
    p.vars.iter().try_for_each(|v| out.str(v))?;
    out.stmts(&p.body)?;
    Some(out.at)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Integers at every varint width's edges, signed and unsigned.
    const WIDTHS: [i64; 12] = [
        0,
        1,
        -1,
        125,
        126,
        250,
        251,
        65_535,
        65_536,
        u32::MAX as i64,
        u32::MAX as i64 + 1,
        i64::MAX,
    ];

    fn patterns(k: u32) -> Vec<Pattern> {
        vec![
            Pattern::I,
            Pattern::NMinusI,
            Pattern::ModK(k),
            Pattern::Hash(k),
            Pattern::Const(-(k as i64) - 3),
            Pattern::Const(i64::MIN),
            Pattern::HashBelow {
                seed: k,
                bound: u32::MAX - k,
            },
        ]
    }

    /// A program with every statement, literal, pattern, operator and integer type, its
    /// variable numbers and loop counts drawn from [`WIDTHS`] shifted by `k`.
    fn every_shape(k: usize) -> Program {
        let w = |i: usize| WIDTHS[(k + i) % WIDTHS.len()];
        let var = |i: usize| Var(w(i).unsigned_abs() as u32);
        let mut p = Program::default();
        for t in ["Vec<Key>", "u64", "", "BTreeMap<Key, ()>", "ünïcødé"] {
            p.vars.push(t.to_string());
        }
        let mut body = vec![
            Stmt::Lit {
                out: var(0),
                value: Literal::Bool(k % 2 == 0),
            },
            Stmt::Lit {
                out: var(1),
                value: Literal::Char(['a', 'é', '€', '😀'][k % 4]),
            },
            Stmt::Lit {
                out: var(2),
                value: Literal::Str("x".repeat(k * 37)),
            },
            Stmt::Lit {
                out: Var(k as u32),
                value: Literal::Text {
                    shape: match k % 6 {
                        4 => TextShape::Span {
                            start: k as u32,
                            end: 300 * k as u32,
                        },
                        5 => TextShape::SpanPair {
                            open: 1,
                            open_end: 2,
                            close: 70_000,
                            close_end: k as u32,
                        },
                        i => TextShape::ALL[i],
                    },
                    a: "<!".repeat(k * 11),
                    b: "é".into(),
                    n: (k * 997) as u32,
                },
            },
            Stmt::Ctor {
                out: var(3),
                ty: "Vec<Key>".into(),
                ctor: "with_capacity".into(),
                args: (0..k % 4).map(var).collect(),
            },
            Stmt::Call {
                out: None,
                ty: "Vec<Key>".into(),
                method: "push".into(),
                recv: var(4),
                args: vec![var(5)],
                under_test: false,
            },
            Stmt::Call {
                out: Some(var(6)),
                ty: "Vec<Key>".into(),
                method: "dedup".into(),
                recv: var(7),
                args: vec![],
                under_test: true,
            },
            Stmt::GetField {
                out: var(8),
                target: var(9),
                field: "len".into(),
            },
            Stmt::SetField {
                target: var(10),
                field: "cap".into(),
                value: var(11),
            },
        ];
        for (i, ty) in IntTy::ALL.iter().enumerate() {
            body.push(Stmt::Lit {
                out: var(i),
                value: Literal::Int {
                    ty: *ty,
                    value: w(i) * if i % 2 == 0 { 1 } else { -1 },
                },
            });
            for pattern in patterns(w(i + 1) as u32) {
                body.push(Stmt::Lit {
                    out: var(i + 2),
                    value: Literal::Index { ty: *ty, pattern },
                });
            }
        }
        for (i, op) in Op::ALL.iter().enumerate() {
            body.push(Stmt::Op {
                out: var(i),
                op: *op,
                arg: var(i + 1),
            });
        }
        let inner = Stmt::Repeat {
            n: w(3) as u32,
            body: body[..3].to_vec(),
        };
        body.push(Stmt::Repeat {
            n: w(2) as u32,
            body: vec![inner, body[4].clone()],
        });
        p.body = body;
        p
    }

    /// The same bytes as bincode, and they decode back to the program.
    #[test]
    fn programs_encode_as_bincode_does() {
        for k in 0..WIDTHS.len() * 2 {
            let p = every_shape(k);
            let want = crate::wire::encode(&p).unwrap();
            let mut buf = vec![0u8; want.len() + 64];
            let n = encode_program(&p, &mut buf).expect("fits");
            assert_eq!(&buf[..n], &want[..], "shape {k}");
            let back: Program = crate::wire::decode(&buf[..n]).unwrap();
            assert_eq!(back, p);
        }
        let empty = Program::default();
        let mut buf = [0u8; 8];
        let n = encode_program(&empty, &mut buf).unwrap();
        assert_eq!(&buf[..n], &crate::wire::encode(&empty).unwrap()[..]);
    }

    /// A buffer too small is refused, never overrun, at every length.
    #[test]
    fn small_buffers_are_refused() {
        let p = every_shape(5);
        let full = crate::wire::encode(&p).unwrap();
        for len in 0..full.len() {
            let mut buf = vec![0u8; len];
            assert_eq!(encode_program(&p, &mut buf), None, "{len} bytes");
        }
        let mut buf = vec![0u8; full.len()];
        assert_eq!(encode_program(&p, &mut buf), Some(full.len()));
    }
}
