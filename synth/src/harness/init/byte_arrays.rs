//! Byte arrays of the callee's own length (`from_byte_string(b: &[u8; CAP])`, `[u8; N]` of a
//! type's const parameter): a program string's bytes, cut or padded with zeros to the
//! length, so a byte parser's array grows with the text the search writes. The length is
//! never written: `std::array::from_fn` takes it from the parameter's type, so one line
//! serves every capacity a type is registered at (see
//! [`capacity_ladder`](super::capacity_ladder)). Arrays of a function's own const length
//! stay with [`compound::array`](super::compound::array) (one program value per element).

use std::collections::HashMap;

use quote::ToTokens;
use syn::Type;

use super::compound::ARRAY_LEN;
use super::registrations::{Param, ParamKind};

/// The parameter `name` of type `t` when `t` is `[u8; N]` or `&[u8; N]` with `N` not a
/// function's own const parameter (which `subst` sets to [`ARRAY_LEN`]).
pub(super) fn byte_array(subst: &HashMap<String, String>, name: &str, t: &Type) -> Option<Param> {
    let (a, borrow) = match t {
        Type::Array(a) => (a, false),
        Type::Reference(r) if r.mutability.is_none() => match &*r.elem {
            Type::Array(a) => (a, true),
            _ => return None,
        },
        _ => return None,
    };
    if !matches!(&*a.elem, Type::Path(e) if e.path.is_ident("u8")) {
        return None;
    }
    let len = a.len.to_token_stream().to_string();
    if subst.get(&len).map(String::as_str) == Some(&*ARRAY_LEN.to_string()) {
        return None;
    }
    Some(Param::new(name, ParamKind::ByteArray { borrow }))
}
