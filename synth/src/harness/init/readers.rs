//! Parameters bounded by `std::io::Read` or `BufRead` (`fn parse<R: BufRead>(r: R)`,
//! `impl Read`): a reader of bytes the program holds. `&[u8]` implements both, so the
//! argument is the bytes of a program string, `s.as_bytes()`: the text a parser reads is
//! the string the search grows, and the call's size is its length.
//!
//! A type's own parameter bounded so (`struct Reader<R>`, `impl<R: BufRead> Reader<R>`) is
//! instantiated with an owned reader instead, [`READER`] (`Cursor<Vec<u8>>`, a copy of a
//! program string's bytes): a program holds the type like any other, and its streaming
//! methods pull from a document the search grows. A parameter bounded by `std::io::Write`
//! (`Writer<W>`) is a [`WRITER`], an empty `Vec<u8>` the type writes into.

/// Traits `&[u8]` implements that a reader parameter may name beside `Read`/`BufRead`.
const SLICE_READER_TRAITS: &[&str] = &[
    "Read", "BufRead", "Send", "Sync", "Sized", "Unpin", "Debug", "Copy", "Clone",
];

/// Traits `Vec<u8>` implements that a writer parameter may name beside `Write`.
const VEC_WRITER_TRAITS: &[&str] = &[
    "Write", "Send", "Sync", "Sized", "Unpin", "Debug", "Clone", "Default",
];

/// The owned reader a type's reader parameter is instantiated with.
pub(super) const READER: &str = "::std::io::Cursor<::std::vec::Vec<u8>>";

/// The writer a type's writer parameter is instantiated with.
pub(super) const WRITER: &str = "::std::vec::Vec<u8>";

/// The last segment of a bound's path (`io::Write`: `Write`).
fn last(b: &str) -> &str {
    b.rsplit("::").next().unwrap_or(b)
}

/// Whether a generic parameter bounded by the traits `names` is a reader the bytes of a
/// string meet: it names `Read` or `BufRead` (a path's last segment), and nothing `&[u8]`
/// lacks.
pub(super) fn reads_bytes(names: &[String]) -> bool {
    names.iter().any(|b| ["Read", "BufRead"].contains(&last(b)))
        && names.iter().all(|b| SLICE_READER_TRAITS.contains(&last(b)))
}

/// Whether a generic parameter bounded by the traits `names` is a writer of bytes a
/// `Vec<u8>` meets: it names `Write`, and nothing `Vec<u8>` lacks. Bounds are read by their
/// last segment, so `fmt::Write` reads as `io::Write` too; `Vec<u8>` does not meet it, and
/// the compiler's rejection of that registration says so (see `repair`).
pub(super) fn writes_bytes(names: &[String]) -> bool {
    names.iter().any(|b| last(b) == "Write")
        && names.iter().all(|b| VEC_WRITER_TRAITS.contains(&last(b)))
}

/// The owned instantiation of a type parameter bounded by `names` when it is a reader
/// ([`READER`]) or a writer ([`WRITER`]) of bytes.
pub(super) fn owned_io(names: &[String]) -> Option<&'static str> {
    if reads_bytes(names) {
        Some(READER)
    } else if writes_bytes(names) {
        Some(WRITER)
    } else {
        None
    }
}

/// The argument for a parameter of type `t` instantiated with `pick` ([`READER`] or
/// [`WRITER`]): a cursor over a copy of program string `v`'s bytes, or an empty vector.
pub(super) fn io_param(name: &str, pick: &str) -> Option<super::registrations::Param> {
    use super::registrations::{Param, ParamKind};
    match pick {
        READER => Some(Param::new(name, ParamKind::Reader)),
        WRITER => Some(Param::new(
            name,
            ParamKind::Built {
                code: "::std::vec::Vec::<u8>::new()".to_string(),
            },
        )),
        _ => None,
    }
}
