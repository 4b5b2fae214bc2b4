//! `perfsyn export --into CRATE_DIR`: places an exported file in a crate (`tests/` or
//! `benches/`) and adds what it needs to the crate's Cargo.toml (dev-dependencies, the
//! `[[bench]]` entry with `harness = false`). The manifest is edited with toml_edit so the
//! user's formatting and comments stay as they were.

use std::path::{Path, PathBuf};

use toml_edit::{value, DocumentMut, InlineTable, Item, Table};

use crate::commands::export::Format;

/// Where the file went and what was added to the manifest.
#[derive(Debug)]
pub struct Placed {
    pub file: PathBuf,
    pub added: Vec<String>,
}

/// The crates an exported file names in its module-level `use` lines and its type aliases
/// (`type Subject = krate::T;`), by first path segment, without std/core/alloc/self/crate/super.
pub fn used_crates(source: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for line in source.lines() {
        let rest = match line.strip_prefix("use ") {
            Some(rest) => rest,
            None => match line.strip_prefix("type ").and_then(|l| l.split_once(" = ")) {
                Some((_, rest)) => rest,
                None => continue,
            },
        };
        let root: String = rest
            .trim_start_matches("::")
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        if root.is_empty()
            || ["std", "core", "alloc", "self", "crate", "super"].contains(&root.as_str())
        {
            continue;
        }
        if !out.contains(&root) {
            out.push(root);
        }
    }
    out
}

/// The dependency entry perfsyn knows for a crate named in an export, if any: criterion and
/// gungraun from the registry; perfsyn's runtime and the built-in harness (an export of a
/// corpus run imports its types) by path to this checkout.
fn known_dependency(lib: &str) -> Option<(String, Item)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let path_dep = |dir: &Path| {
        let mut t = InlineTable::new();
        t.insert("path", dir.display().to_string().into());
        Item::Value(t.into())
    };
    let builtin = crate::harness::Harness::builtin();
    if lib == builtin.package.replace('-', "_") {
        let dir = builtin.manifest.parent().unwrap_or(root);
        return Some((builtin.package.clone(), path_dep(dir)));
    }
    match lib {
        "criterion" => Some(("criterion".into(), value("0.5"))),
        "gungraun" => Some((
            "gungraun".into(),
            value(crate::commands::export::gungraun::VERSION),
        )),
        "perfsyn_profiler_ipc" => Some((
            "perfsyn-profiler-ipc".into(),
            path_dep(&root.join("profiler-ipc")),
        )),
        _ => None,
    }
}

fn has_dep(doc: &DocumentMut, table: &str, name: &str) -> bool {
    let dash = name.replace('_', "-");
    doc.get(table)
        .and_then(|t| t.as_table_like())
        .is_some_and(|t| t.contains_key(name) || t.contains_key(&dash))
}

/// Writes `source` as `tests/NAME.rs` or `benches/NAME.rs` of the crate at `dir` and adds the
/// dev-dependencies (and `[[bench]]` entry, or `[[test]]` entry when the crate sets
/// `autotests = false`) it needs. Refuses, with one line, when `dir` has no
/// Cargo.toml, the file exists and `force` is false, or a crate the file uses is unknown.
pub fn place(
    dir: &Path,
    format: Format,
    name: &str,
    source: &str,
    force: bool,
) -> Result<Placed, String> {
    let manifest = dir.join("Cargo.toml");
    let text = std::fs::read_to_string(&manifest).map_err(|_| {
        format!(
            "{} has no Cargo.toml: --into needs a crate directory",
            dir.display()
        )
    })?;
    let mut doc: DocumentMut = text.parse().map_err(|e: toml_edit::TomlError| {
        format!(
            "cannot parse {}: {}",
            manifest.display(),
            one_line(&e.to_string())
        )
    })?;
    let bench = matches!(format, Format::Bench | Format::Gungraun);
    let sub = if bench { "benches" } else { "tests" };
    let file = dir.join(sub).join(format!("{name}.rs"));
    if file.exists() && !force {
        return Err(format!(
            "{} exists; pass --force to overwrite it",
            file.display()
        ));
    }
    let own = doc
        .get("package")
        .and_then(|p| p.get("name"))
        .and_then(|n| n.as_str())
        .map(|n| n.replace('-', "_"));
    let mut added = Vec::new();
    for lib in used_crates(source) {
        if Some(&lib) == own.as_ref()
            || has_dep(&doc, "dev-dependencies", &lib)
            || has_dep(&doc, "dependencies", &lib)
        {
            continue;
        }
        let Some((pkg, item)) = known_dependency(&lib) else {
            return Err(format!(
                "the export uses the crate `{lib}`, which {} does not depend on; add it to [dev-dependencies] first",
                manifest.display()
            ));
        };
        if !doc.contains_key("dev-dependencies") {
            doc.insert("dev-dependencies", Item::Table(Table::new()));
        }
        doc["dev-dependencies"][pkg.as_str()] = item;
        added.push(format!("[dev-dependencies] {pkg}"));
    }
    // A crate with `autotests = false` runs only the tests its manifest lists.
    let autotests_off = doc
        .get("package")
        .and_then(|p| p.get("autotests"))
        .and_then(|a| a.as_bool())
        == Some(false);
    if !bench && autotests_off && declare(&mut doc, "test", name, &[], &manifest)? {
        added.push(format!(
            "[[test]] name = \"{name}\" (the crate sets autotests = false)"
        ));
    }
    if bench && declare(&mut doc, "bench", name, &[("harness", false)], &manifest)? {
        added.push(format!("[[bench]] name = \"{name}\" harness = false"));
    }
    let source = if edition_2015(&doc) {
        with_extern_crates(source)
    } else {
        source.to_string()
    };
    std::fs::create_dir_all(dir.join(sub)).map_err(|e| format!("cannot create {sub}/: {e}"))?;
    crate::explore::runfile::write_atomic(&file, source.as_bytes())
        .map_err(|e| format!("cannot write {}: {e}", file.display()))?;
    if !added.is_empty() {
        crate::explore::runfile::write_atomic(&manifest, doc.to_string().as_bytes())
            .map_err(|e| format!("cannot write {}: {e}", manifest.display()))?;
    }
    Ok(Placed { file, added })
}

/// Whether the crate is of the 2015 edition: it says so, or names none (a manifest without
/// `edition` is 2015; one inheriting it from a workspace is taken as later).
fn edition_2015(doc: &DocumentMut) -> bool {
    match doc.get("package").and_then(|p| p.get("edition")) {
        None => true,
        Some(e) => e.as_str() == Some("2015"),
    }
}

/// `source` with an `extern crate` line for each crate it uses, after its inner doc comment
/// and attributes: in a 2015-edition crate (bit-vec, multimap) a test or bench reaches a
/// dependency only through one (`use criterion::..` alone is E0432); the line is harmless in
/// later editions' terms too.
fn with_extern_crates(source: &str) -> String {
    let lines: Vec<&str> = source.lines().collect();
    let head = lines
        .iter()
        .take_while(|l| l.starts_with("//!") || l.starts_with("#![") || l.trim().is_empty())
        .count();
    let mut out: Vec<String> = lines[..head].iter().map(|l| l.to_string()).collect();
    if head > 0 && !lines[head - 1].trim().is_empty() {
        out.push(String::new());
    }
    out.extend(
        used_crates(source)
            .into_iter()
            .map(|c| format!("extern crate {c};")),
    );
    out.push(String::new());
    out.extend(lines[head..].iter().map(|l| l.to_string()));
    let mut text = out.join("\n");
    if source.ends_with('\n') {
        text.push('\n');
    }
    text
}

/// Adds a `[[kind]]` target named `name` (with the boolean keys `extra`) unless the manifest
/// declares one of that name already; returns whether it added it.
fn declare(
    doc: &mut DocumentMut,
    kind: &str,
    name: &str,
    extra: &[(&str, bool)],
    manifest: &Path,
) -> Result<bool, String> {
    let declared = doc
        .get(kind)
        .and_then(|b| b.as_array_of_tables())
        .is_some_and(|a| {
            a.iter()
                .any(|t| t.get("name").and_then(|n| n.as_str()) == Some(name))
        });
    if declared {
        return Ok(false);
    }
    let mut t = Table::new();
    t.insert("name", value(name));
    for (k, v) in extra {
        t.insert(k, value(*v));
    }
    if !doc.contains_key(kind) {
        doc.insert(kind, Item::ArrayOfTables(Default::default()));
    }
    doc[kind]
        .as_array_of_tables_mut()
        .ok_or_else(|| format!("{}: `{kind}` is not an array of tables", manifest.display()))?
        .push(t);
    Ok(true)
}

fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn places_a_bench_and_keeps_the_manifest_formatting() {
        let dir = tempfile::tempdir().unwrap();
        let manifest = "# my crate\n[package]\nname = \"my-crate\"\nversion = \"0.1.0\"   # keep\nedition = \"2021\"\n";
        std::fs::write(dir.path().join("Cargo.toml"), manifest).unwrap();
        let src = "use criterion::Criterion;\nuse my_crate::Thing;\nuse perfsyn_profiler_ipc::regress::Meter;\nuse std::time::Duration;\n";
        let p = place(dir.path(), Format::Bench, "b1", src, false).unwrap();
        assert_eq!(p.file, dir.path().join("benches/b1.rs"));
        assert_eq!(std::fs::read_to_string(&p.file).unwrap(), src);
        let out = std::fs::read_to_string(dir.path().join("Cargo.toml")).unwrap();
        assert!(out.starts_with(manifest), "{out}");
        assert!(out.contains("criterion = \"0.5\""), "{out}");
        assert!(out.contains("perfsyn-profiler-ipc = { path = "), "{out}");
        assert!(
            out.contains("[[bench]]\nname = \"b1\"\nharness = false"),
            "{out}"
        );
        assert!(!out.contains("my-crate ="), "{out}");
        let aliased = format!("{src}type Subject = dep_x::T<u8>;\n");
        assert_eq!(
            used_crates(&aliased),
            ["criterion", "my_crate", "perfsyn_profiler_ipc", "dep_x"]
        );
        let again = place(dir.path(), Format::Bench, "b1", src, false).unwrap_err();
        assert!(again.contains("--force"), "{again}");
        let p = place(dir.path(), Format::Bench, "b1", src, true).unwrap();
        assert!(p.added.is_empty(), "{:?}", p.added);
    }

    #[test]
    fn a_test_is_declared_when_the_crate_turns_autotests_off() {
        let dir = tempfile::tempdir().unwrap();
        let manifest = "[package]\nname = \"a\"\nautotests = false\n";
        std::fs::write(dir.path().join("Cargo.toml"), manifest).unwrap();
        let p = place(dir.path(), Format::Test, "t1", "use a::X;\n", false).unwrap();
        assert_eq!(p.file, dir.path().join("tests/t1.rs"));
        let out = std::fs::read_to_string(dir.path().join("Cargo.toml")).unwrap();
        assert!(out.contains("[[test]]\nname = \"t1\""), "{out}");
        // Declared once, and not at all when cargo finds tests by itself.
        place(dir.path(), Format::Test, "t1", "use a::X;\n", true).unwrap();
        let again = std::fs::read_to_string(dir.path().join("Cargo.toml")).unwrap();
        assert_eq!(again.matches("[[test]]").count(), 1, "{again}");
        let auto = tempfile::tempdir().unwrap();
        std::fs::write(auto.path().join("Cargo.toml"), "[package]\nname = \"a\"\n").unwrap();
        let p = place(auto.path(), Format::Test, "t1", "use a::X;\n", false).unwrap();
        assert!(p.added.is_empty(), "{:?}", p.added);
    }

    /// A 2015-edition crate (or one whose manifest names no edition) reaches the crates an
    /// export uses through `extern crate` lines; a later edition's file is left as it was.
    #[test]
    fn a_2015_edition_crate_gets_extern_crate_lines() {
        let src = "//! doc\n//! more\n\nuse criterion::Criterion;\nuse perfsyn_profiler_ipc::regress::Meter;\n\ntype Subject = bit_vec::BitVec<u32>;\nfn f() {}\n";
        for manifest in [
            "[package]\nname = \"bit-vec\"\nedition = \"2015\"\n",
            "[package]\nname = \"bit-vec\"\n",
        ] {
            let dir = tempfile::tempdir().unwrap();
            std::fs::write(dir.path().join("Cargo.toml"), manifest).unwrap();
            let p = place(dir.path(), Format::Bench, "b", src, false).unwrap();
            let out = std::fs::read_to_string(&p.file).unwrap();
            assert_eq!(
                out,
                "//! doc\n//! more\n\nextern crate criterion;\nextern crate perfsyn_profiler_ipc;\nextern crate bit_vec;\n\nuse criterion::Criterion;\nuse perfsyn_profiler_ipc::regress::Meter;\n\ntype Subject = bit_vec::BitVec<u32>;\nfn f() {}\n"
            );
        }
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("Cargo.toml"),
            "[package]\nname = \"bit-vec\"\nedition = \"2018\"\n",
        )
        .unwrap();
        let p = place(dir.path(), Format::Bench, "b", src, false).unwrap();
        assert_eq!(std::fs::read_to_string(&p.file).unwrap(), src);
    }

    #[test]
    fn refuses_a_directory_without_a_manifest_and_unknown_crates() {
        let dir = tempfile::tempdir().unwrap();
        let e = place(dir.path(), Format::Test, "t", "", false).unwrap_err();
        assert!(e.contains("no Cargo.toml"), "{e}");
        std::fs::write(dir.path().join("Cargo.toml"), "[package]\nname = \"a\"\n").unwrap();
        let e = place(dir.path(), Format::Test, "t", "use rand::Rng;\n", false).unwrap_err();
        assert!(e.contains("`rand`"), "{e}");
        assert!(!dir.path().join("tests/t.rs").exists());
    }
}
