//! The call of a function with a turbofish naming the generic parameters only its result
//! names (see [`result_generics`](super::result_generics)), `_` for the others: text, a
//! helper the resolver uses when it writes the call.

use std::collections::HashMap;

/// The call of function `name` with a turbofish: the chosen types of `chosen`, `_` for the
/// others of `params` (the function's own type and const parameters, in order); `None`
/// when nothing is chosen.
pub fn turbofish(
    name: &str,
    params: &[String],
    chosen: &HashMap<String, String>,
) -> Option<String> {
    if chosen.is_empty() {
        return None;
    }
    let args: Vec<&str> = params
        .iter()
        .map(|p| chosen.get(p).map_or("_", String::as_str))
        .collect();
    Some(format!("{name}::<{}>", args.join(", ")))
}
