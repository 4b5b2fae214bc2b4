//! Which traits the values a program builds implement: the probe key `Key`, the integers and
//! `String`. A generic parameter whose bounds they meet can be instantiated with them; the
//! reader ([`int_traits`](super::int_traits)) asks it of a crate's impls for integers, and
//! the model of every bound, so it sits below both.

/// Traits the probe key `Key` implements (a generic parameter bounded by these gets `Key`).
pub(super) const KEY_TRAITS: &[&str] = &[
    "Clone",
    "PartialEq",
    "Eq",
    "PartialOrd",
    "Ord",
    "Hash",
    "Debug",
    "Default",
    "Send",
    "Sync",
    "Sized",
    "Unpin",
];

/// Traits `u64` implements beyond those (the fallback instantiation): std's, and the
/// numeric traits (`PrimInt`, `Unsigned`, `Integer`, ...) integer-generic crates bound their
/// parameters with
/// (`Lapper<I: PrimInt + Unsigned + Ord, T>`), which `u64` implements.
pub(super) const U64_TRAITS: &[&str] = &[
    "Copy",
    "Display",
    "LowerHex",
    "UpperHex",
    "Octal",
    "Binary",
    "FromStr",
    "PrimInt",
    "Unsigned",
    "Num",
    "NumCast",
    "NumOps",
    "Zero",
    "One",
    "Bounded",
    "ToPrimitive",
    "FromPrimitive",
    "Saturating",
    "CheckedAdd",
    "CheckedSub",
    "CheckedMul",
    "CheckedDiv",
    "WrappingAdd",
    "WrappingSub",
    "WrappingMul",
    "Integer",
];

/// Whether every integer the model builds implements trait `b` (a std trait `u64` has).
pub(super) fn integers_meet(b: &str) -> bool {
    KEY_TRAITS.contains(&b) || U64_TRAITS.contains(&b)
}

/// Bounds of a generic parameter that make it a string (`T: AsRef<str>`): `String` meets
/// them, and a program builds strings. `Into<Cow<'a, str>>` is written here without its
/// lifetime (see [`string_like`]): `String` converts into an owned `Cow` of any lifetime.
pub(super) const STRING_LIKE: &[&str] = &[
    "AsRef<str>",
    "Into<String>",
    "Borrow<str>",
    "AsRef<[u8]>",
    "Into<Cow<str>>",
];

/// Whether bound `b` (as [`trait_names`](super::syntax::trait_names) writes it) is one of
/// [`STRING_LIKE`], read without lifetimes and with `Cow` named by any path
/// (`Into<std::borrow::Cow<'a,str>>` is `Into<Cow<str>>`).
pub(super) fn string_like(b: &str) -> bool {
    let mut plain = String::with_capacity(b.len());
    let mut rest = b;
    while let Some(at) = rest.find('\'') {
        plain.push_str(&rest[..at]);
        let after = &rest[at + 1..];
        let end = after
            .find(|c: char| !(c.is_alphanumeric() || c == '_'))
            .unwrap_or(after.len());
        rest = after[end..].strip_prefix(',').unwrap_or(&after[end..]);
    }
    plain.push_str(rest);
    let plain = ["std::borrow::", "alloc::borrow::", "::"]
        .iter()
        .fold(plain, |p, prefix| p.replace(prefix, ""));
    STRING_LIKE.contains(&plain.as_str())
}

/// Other bounds `String` meets, allowed beside those.
pub(super) const STRING_TRAITS: &[&str] = &[
    "Clone",
    "Debug",
    "Display",
    "ToString",
    "Hash",
    "Eq",
    "PartialEq",
    "Ord",
    "PartialOrd",
    "Default",
];

/// Primitive types the program model has literals for.
pub(super) const MODEL_INTS: &[&str] = &["u8", "u32", "u64", "usize", "i32", "i64"];
