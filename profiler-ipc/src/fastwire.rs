//! The worker's encoder of ordinary feedback records, byte for byte the encoding of
//! [`crate::wire`] (bincode 2, standard configuration: little-endian varints).
//!
//! Why it exists: the worker is instrumented like the code it measures, so the generic serde
//! path pays a coverage callback on every branch of bincode's encoder; for a small program
//! that was about 6,500 instructions per record, more than the transport itself. Records
//! with an outcome other than `Ok` (which carry target text) go through [`crate::wire`];
//! the supervisor decodes every record with [`crate::wire`] unchanged, so the wire format
//! and the protocol version stay as they are (a test compares the bytes with bincode's).

use crate::feedback::{Feedback, Outcome};

/// Longest varint: a tag byte and a `u64`.
const VARINT_MAX: usize = 9;

/// Writes `v` as a bincode varint at `buf[at..]`; returns the new end. The caller has
/// checked that [`VARINT_MAX`] bytes fit.
#[inline(always)]
fn varint(buf: &mut [u8], at: usize, v: u64) -> usize {
    if v < 251 {
        buf[at] = v as u8;
        at + 1
    } else if v <= u16::MAX as u64 {
        buf[at] = 251;
        put(buf, at + 1, (v as u16).to_le_bytes())
    } else if v <= u32::MAX as u64 {
        buf[at] = 252;
        put(buf, at + 1, (v as u32).to_le_bytes())
    } else {
        buf[at] = 253;
        put(buf, at + 1, v.to_le_bytes())
    }
}

/// Writes `bytes` at `buf[at..]`; returns the new end. A store into an array rather than
/// `copy_from_slice`, which calls an instrumented function and the counting `memcpy`.
#[inline(always)]
pub(crate) fn put<const N: usize>(buf: &mut [u8], at: usize, bytes: [u8; N]) -> usize {
    let dst: &mut [u8; N] = (&mut buf[at..at + N]).try_into().expect("N bytes");
    *dst = bytes;
    at + N
}

/// Encodes `fb` into `buf` as [`crate::wire::encode_into`] would; `None` if it does not fit.
/// Uninstrumented (see `meter`, "The uninstrumented runtime").
#[export_name = "__sanitizer_perfsyn_fastwire_encode_feedback"]
#[inline(never)]
pub fn encode_feedback(fb: &Feedback, buf: &mut [u8]) -> Option<usize> {
    if fb.outcome != Outcome::Ok {
        return crate::wire::encode_into(fb, buf).ok();
    }
    // Variant index, 7 cost fields, input_size, heap_bytes, calls, hot's length, hot,
    // fuel_spent.
    let need = (12 + 2 * fb.hot.len()) * VARINT_MAX + 1;
    if buf.len() < need {
        // Rare (a full response area): the exact check is bincode's.
        return crate::wire::encode_into(fb, buf).ok();
    }
    let mut at = varint(buf, 0, 0); // Outcome::Ok
    for v in fb.cost.to_array() {
        at = varint(buf, at, v);
    }
    for v in [
        fb.input_size,
        fb.heap_bytes,
        fb.calls as u64,
        fb.hot.len() as u64,
    ] {
        at = varint(buf, at, v);
    }
    for h in &fb.hot {
        at = varint(buf, at, h.addr);
        at = varint(buf, at, h.hits);
    }
    at = varint(buf, at, fb.fuel_spent);
    Some(at)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::feedback::{Cost, HotPc};

    const EDGES: [u64; 10] = [
        0,
        1,
        250,
        251,
        65_535,
        65_536,
        u32::MAX as u64,
        u32::MAX as u64 + 1,
        u64::MAX - 1,
        u64::MAX,
    ];

    fn record(k: usize, hot: usize, outcome: Outcome) -> Feedback {
        let v = |i: usize| EDGES[(k + i) % EDGES.len()];
        Feedback {
            outcome,
            cost: Cost {
                edges: v(0),
                probe_ops: v(1),
                bytes_moved: v(2),
                allocs: v(3),
                alloc_bytes: v(4),
                cpu_ns: v(5),
                wall_ns: v(6),
            },
            input_size: v(7),
            heap_bytes: v(8),
            calls: v(9) as u32,
            hot: (0..hot)
                .map(|i| HotPc {
                    addr: v(i),
                    hits: v(i + 3),
                })
                .collect(),
            fuel_spent: v(k),
        }
    }

    /// The same bytes as bincode for every varint width, with and without hot addresses,
    /// and for the outcomes that take the generic path.
    #[test]
    fn records_encode_as_bincode_does() {
        let outcomes = [
            Outcome::Ok,
            Outcome::Panic {
                stmt: 3,
                message: "boom".into(),
            },
            Outcome::Timeout,
        ];
        for k in 0..EDGES.len() {
            for hot in [0, 1, 7] {
                for o in &outcomes {
                    let fb = record(k, hot, o.clone());
                    let mut buf = vec![0u8; 4096];
                    let n = encode_feedback(&fb, &mut buf).expect("fits");
                    assert_eq!(&buf[..n], &crate::wire::encode(&fb).unwrap()[..], "{fb:?}");
                    let back: Feedback = crate::wire::decode(&buf[..n]).unwrap();
                    assert_eq!(back, fb);
                }
            }
        }
    }

    /// A buffer too small is refused, never overrun, at every length.
    #[test]
    fn small_buffers_are_refused() {
        let fb = record(9, 2, Outcome::Ok);
        let full = crate::wire::encode(&fb).unwrap();
        for len in 0..full.len() {
            let mut buf = vec![0u8; len];
            assert_eq!(encode_feedback(&fb, &mut buf), None, "{len} bytes");
        }
        let mut buf = vec![0u8; full.len()];
        assert_eq!(encode_feedback(&fb, &mut buf), Some(full.len()));
    }
}
