//! A crate type written at another instantiation than the one it registers at: heapless's
//! `String<N>::into_bytes(self) -> Vec<u8, N>` names the crate's `Vec`, registered as
//! `Vec<Key, 8192>`. Resolved by its identifier alone, it was that registration, and the
//! compiler rejected the harness ("expected `Vec<Key, _>`, found `Vec<u8, _>`"). A primitive
//! argument (`u8`) where the registration has another type says the written type is another
//! instantiation, which the program model does not hold: the item is skipped with that reason
//! instead. Only primitives are compared: a parameter or an alias (`Ix`, `DefaultIx`) stands
//! for what the instantiation chose, and text alone cannot tell.

use quote::ToTokens;

/// The primitive types whose names are their own instantiation.
const PRIMITIVES: &[&str] = &[
    "u8", "u16", "u32", "u64", "u128", "usize", "i8", "i16", "i32", "i64", "i128", "isize", "bool",
    "char", "f32", "f64",
];

/// Whether `seg` (`Vec<u8, N>`) writes a primitive argument where `registered` (the
/// registration's Rust type, `::heapless::Vec<Key,8192>`) has another.
pub fn written_at_other(seg: &syn::PathSegment, registered: &str) -> bool {
    let syn::PathArguments::AngleBracketed(a) = &seg.arguments else {
        return false;
    };
    let theirs = registered_args(registered);
    a.args.iter().zip(&theirs).any(|(w, r)| {
        let w = w.to_token_stream().to_string().replace(' ', "");
        PRIMITIVES.contains(&w.as_str()) && w != *r
    })
}

/// Whether `seg` (`NodeIndex<Ix>`) writes a parameter that `subst` instantiates with a
/// primitive where `registered` (`NodeIndex<u32>`) has another: the same mismatch read through
/// the instantiation (a type registered again at `Ix = u16`, see `fixed_args`, takes no
/// `NodeIndex<u32>` of the program).
pub fn instantiated_at_other(
    seg: &syn::PathSegment,
    registered: &str,
    subst: &std::collections::HashMap<String, String>,
) -> bool {
    let syn::PathArguments::AngleBracketed(a) = &seg.arguments else {
        return false;
    };
    let theirs = registered_args(registered);
    a.args
        .iter()
        .filter(|w| !matches!(w, syn::GenericArgument::Lifetime(_)))
        .zip(&theirs)
        .any(|(w, r)| {
            let w = w.to_token_stream().to_string().replace(' ', "");
            subst
                .get(&w)
                .is_some_and(|v| PRIMITIVES.contains(&v.as_str()) && v != r)
        })
}

/// The generic arguments of a type written as text (`a::B<Key,C<u8,2>,8>`: `Key`, `C<u8,2>`,
/// `8`), split at the top-level commas.
fn registered_args(rust: &str) -> Vec<String> {
    let Some(open) = rust.find('<') else {
        return Vec::new();
    };
    let inner = rust[open + 1..]
        .strip_suffix('>')
        .unwrap_or(&rust[open + 1..]);
    let (mut out, mut depth, mut cur) = (Vec::new(), 0i32, String::new());
    for c in inner.chars() {
        match c {
            '<' | '(' | '[' => depth += 1,
            '>' | ')' | ']' => depth -= 1,
            ',' if depth == 0 => {
                out.push(std::mem::take(&mut cur));
                continue;
            }
            _ => {}
        }
        if !c.is_whitespace() {
            cur.push(c);
        }
    }
    out.push(cur);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seg(t: &str) -> syn::PathSegment {
        let syn::Type::Path(p) = syn::parse_str::<syn::Type>(t).unwrap() else {
            panic!("{t}")
        };
        p.path.segments.last().unwrap().clone()
    }

    #[test]
    fn a_primitive_argument_the_registration_lacks_is_another_instantiation() {
        assert!(written_at_other(
            &seg("Vec<u8, N>"),
            "::heapless::Vec<Key,8192>"
        ));
        assert!(!written_at_other(
            &seg("Vec<T, N>"),
            "::heapless::Vec<Key,8192>"
        ));
        assert!(!written_at_other(&seg("NodeIndex<u32>"), "NodeIndex<u32>"));
        assert!(!written_at_other(&seg("NodeIndex<Ix>"), "NodeIndex<u32>"));
        assert_eq!(
            registered_args("a::B<Key,C<u8,2>,8>"),
            ["Key", "C<u8,2>", "8"]
        );
    }
}
