//! Reads a generated registrations file (`perfsyn/src/lib.rs`) back as text, for the one
//! question both sides of a worker build ask of it: which registration a line the compiler
//! points at belongs to. `init` drops that registration when the compiler rejects it
//! ([`repair`](super::init::repair)); the worker build names it in its error; `check`'s
//! baseline names it too. It lives below both, so that neither imports the other for it.

/// The type whose registration encloses line `line` (1-based) of a generated file.
pub fn registration_at(text: &str, line: usize) -> Option<String> {
    let lines: Vec<&str> = text.lines().collect();
    let upto = line.min(lines.len());
    let fn_at = lines[..upto]
        .iter()
        .rposition(|l| l.trim_start().starts_with("pub fn ") && l.contains("() -> "))?;
    // The spec path users type (`path: "SmallVec"`), not the instantiated Rust type
    // (`SmallVec<[Key; 64]>`): `explore --method SmallVec::m` finds the skipped line by it.
    let path = lines[fn_at..upto].iter().find_map(|l| {
        let rest = l.trim_start().strip_prefix("path: \"")?;
        rest.split_once('"').map(|(p, _)| p)
    });
    let ty = match path {
        Some(p) => p,
        None => lines[fn_at]
            .split("() -> ")
            .nth(1)?
            .trim_end_matches('{')
            .trim(),
    };
    let item = lines
        .get(line.checked_sub(1)?)
        .map(|l| l.trim())
        .unwrap_or("");
    let method = item.split('(').next().filter(|m| {
        !m.is_empty() && m.chars().all(|c| c.is_alphanumeric() || c == '_') && *m != "size"
    });
    Some(match method {
        Some(m) => format!("{ty}::{m}"),
        None => ty.to_string(),
    })
}
