//! Parameters bounded by `std::io::Read` or `BufRead` (`fn parse<R: BufRead>(r: R)`,
//! `impl Read`): a reader of bytes the program holds. `&[u8]` implements both, so the
//! argument is the bytes of a program string, `s.as_bytes()`: the text a parser reads is
//! the string the search grows, and the call's size is its length.

/// Traits `&[u8]` implements that a reader parameter may name beside `Read`/`BufRead`.
const SLICE_READER_TRAITS: &[&str] = &[
    "Read", "BufRead", "Send", "Sync", "Sized", "Unpin", "Debug", "Copy", "Clone",
];

/// Whether a generic parameter bounded by the traits `names` is a reader the bytes of a
/// string meet: it names `Read` or `BufRead` (a path's last segment), and nothing `&[u8]`
/// lacks.
pub(super) fn reads_bytes(names: &[String]) -> bool {
    let last = |b: &String| b.rsplit("::").next().unwrap_or(b).to_string();
    names
        .iter()
        .any(|b| ["Read", "BufRead"].contains(&last(b).as_str()))
        && names
            .iter()
            .all(|b| SLICE_READER_TRAITS.contains(&last(b).as_str()))
}
