//! Where a method is defined in a crate's sources, found by reading the text.
//!
//! Why: a SARIF result (GitHub code scanning) must point at a file and line, and a finding
//! without hot lines in the user's crate (a relative finding, a `check` regression) has only
//! its method's name. The worker's line tables know the hot lines, not the definitions, so
//! this scans the sources for `fn name` inside an `impl` block naming the type (or, for a
//! free function, anywhere). A text scan, not a parse: it must not fail on a file the
//! compiler accepts and syn does not, and a wrong line in a rare macro-built impl costs only
//! a less precise annotation.

use std::path::{Path, PathBuf};

/// A definition: the file (as found under the searched directory) and its 1-based line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Definition {
    pub file: PathBuf,
    pub line: u32,
}

/// The definition of `method` (`Type::name`, `module::name` or `name`) in the `.rs` files
/// under `src` (sorted, `target/` left out): the first `fn name` whose latest `impl` line
/// names `Type`, else the first `fn name` at all.
pub fn find(src: &Path, method: &str) -> Option<Definition> {
    let (owner, name) = match method.rsplit_once("::") {
        Some((o, n)) => (o.rsplit("::").next().map(str::to_string), n),
        None => (None, method),
    };
    let mut files = Vec::new();
    collect(src, &mut files);
    files.sort();
    let mut fallback = None;
    for f in files {
        let Ok(text) = std::fs::read_to_string(&f) else {
            continue;
        };
        let mut last_impl = String::new();
        for (i, line) in text.lines().enumerate() {
            let t = line.trim_start();
            if t.starts_with("impl") || t.starts_with("unsafe impl") {
                last_impl = t.to_string();
            }
            if !declares_fn(t, name) {
                continue;
            }
            let here = Definition {
                file: f.clone(),
                line: i as u32 + 1,
            };
            match &owner {
                Some(o) if has_word(&last_impl, o) => return Some(here),
                _ => {
                    fallback.get_or_insert(here);
                }
            }
        }
    }
    fallback
}

/// Whether `line` (trimmed at the start) declares `fn name` (any visibility, `const`,
/// `async`, `unsafe` before it).
fn declares_fn(line: &str, name: &str) -> bool {
    let Some(at) = line.find("fn ") else {
        return false;
    };
    let before = &line[..at];
    if before.split_whitespace().any(|w| {
        !matches!(w, "pub" | "const" | "async" | "unsafe" | "extern") && !w.starts_with("pub(")
    }) {
        return false;
    }
    let rest = line[at + 3..].trim_start();
    rest.strip_prefix(name)
        .is_some_and(|r| r.starts_with('(') || r.starts_with('<'))
}

/// Whether `word` appears in `text` as a whole identifier.
fn has_word(text: &str, word: &str) -> bool {
    text.split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .any(|w| w == word)
}

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            if p.file_name().is_some_and(|n| n != "target") {
                collect(&p, out);
            }
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_method_is_found_in_the_impl_of_its_type_not_a_namesake() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("lib.rs"),
            "pub struct A;\npub struct B;\nimpl A {\n    pub fn total(&self) -> u64 { 0 }\n}\nimpl B {\n    pub fn total(&self) -> u64 { 1 }\n}\npub fn count_pairs(v: &[u64]) -> usize { 0 }\n",
        )
        .unwrap();
        let at = |m: &str| find(dir.path(), m).map(|d| d.line);
        assert_eq!(at("B::total"), Some(7));
        assert_eq!(at("A::total"), Some(4));
        assert_eq!(at("count_pairs"), Some(9));
        assert_eq!(at("util::count_pairs"), Some(9));
        assert_eq!(at("B::missing"), None);
    }
}
