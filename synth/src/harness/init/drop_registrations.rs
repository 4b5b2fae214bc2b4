//! Registrations taken out of a generated registrations file (`src/lib.rs`) by text: what
//! `init` does when the crate's own compile-time checks reject an instantiation it chose (a
//! capacity rung, a fixed instantiation), an error in the crate's code that names no
//! registration to drop. Each registration is a doc line, `pub fn name() -> T {` through its
//! closing `    }` and the blank line after, plus its entry in the registry.

/// `text` without the registry entries `entry` matches and the registrations whose first
/// line `starts` matches; `None` when neither matched anything.
pub fn without(
    text: &str,
    entry: &dyn Fn(&str) -> bool,
    starts: &dyn Fn(&str) -> bool,
) -> Option<String> {
    let lines: Vec<&str> = text.lines().collect();
    let mut keep = vec![true; lines.len()];
    let mut found = false;
    let mut i = 0;
    while i < lines.len() {
        if entry(lines[i]) {
            keep[i] = false;
            found = true;
        } else if starts(lines[i]) {
            found = true;
            if i > 0 && lines[i - 1].trim_start().starts_with("///") {
                keep[i - 1] = false;
            }
            while i < lines.len() && lines[i] != "    }" {
                keep[i] = false;
                i += 1;
            }
            if i < lines.len() {
                keep[i] = false;
            }
            if lines.get(i + 1).is_some_and(|l| l.is_empty()) {
                i += 1;
                keep[i] = false;
            }
        }
        i += 1;
    }
    found.then(|| {
        let mut out: String = lines
            .iter()
            .zip(keep)
            .filter(|(_, k)| *k)
            .map(|(l, _)| format!("{l}\n"))
            .collect();
        if !text.ends_with('\n') {
            out.pop();
        }
        out
    })
}
