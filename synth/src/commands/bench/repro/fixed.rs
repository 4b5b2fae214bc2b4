//! Where the fixed version of a bug lives, for checking that an exported regression test
//! passes once the bug is fixed. A version group's fixed version is its faster member (the
//! export's `Reference`); a planted asymptotic bug's is a type of the same name in a fixture
//! file kept beside the bug and never registered, so the search never sees it: the corpus's
//! `export_fixtures.rs` (`Fixed` + name) and the example crate's sibling `own-crate-fixed`.
//! The files are read as text: the engine does not link them.

use std::path::{Path, PathBuf};

/// A place that keeps fixed versions of the types of one crate.
#[derive(Debug, serde::Deserialize)]
pub struct Fixtures {
    /// The crate of the buggy types, as exported files name it.
    krate: String,
    /// The fixture source.
    file: PathBuf,
    /// The path of its types as exported files name them.
    path: String,
    /// Prepended to the buggy type's name.
    prefix: String,
}

/// The fixture places, read once per run: the built-in corpus's (its data file
/// `fixed_versions.json`, files relative to the corpus) and the example crate's sibling
/// `own-crate-fixed` under `root`. A missing or corrupt data file is one error naming it.
pub fn fixtures(root: &Path) -> anyhow::Result<Vec<Fixtures>> {
    let corpus = crate::harness::Harness::builtin();
    let data = corpus.data_file("fixed_versions.json");
    let text = std::fs::read_to_string(&data)
        .map_err(|e| anyhow::anyhow!("cannot read {}: {e}", data.display()))?;
    let mut out: Vec<Fixtures> =
        serde_json::from_str(&text).map_err(|e| anyhow::anyhow!("{}: {e}", data.display()))?;
    let dir = corpus.manifest.parent().unwrap_or(root).to_path_buf();
    for f in &mut out {
        f.file = dir.join(&f.file);
    }
    out.push(Fixtures {
        krate: "own_crate".into(),
        file: root.join("examples/own-crate-fixed/src/lib.rs"),
        path: "own_crate_fixed::".into(),
        prefix: String::new(),
    });
    Ok(out)
}

/// The example crate with fixed versions, as a dev-dependency of the scratch crate.
pub fn example_fixed_crate(root: &Path) -> (String, PathBuf) {
    (
        "own-crate-fixed".into(),
        root.join("examples").join("own-crate-fixed"),
    )
}

/// The fixed version of the type at `subject` (a path like `perfsyn_corpus::planted::T`),
/// if one of the `fixtures` declares one.
pub fn fixed_type(fixtures: &[Fixtures], subject: &str) -> Option<String> {
    let krate = subject.split("::").next()?;
    let name = subject.rsplit("::").next()?;
    fixtures.iter().filter(|f| f.krate == krate).find_map(|f| {
        let text = std::fs::read_to_string(&f.file).ok()?;
        let fixed = format!("{}{name}", f.prefix);
        let declared = text.lines().any(|l| {
            l.trim_start()
                .strip_prefix("pub struct ")
                .is_some_and(|rest| {
                    rest.strip_prefix(fixed.as_str())
                        .is_some_and(|after| after.starts_with([' ', '{', '<', '(', ';']))
                })
        });
        declared.then(|| format!("{}{fixed}", f.path))
    })
}

/// The target of `type ALIAS = ...;` in an exported file.
pub fn alias_target(source: &str, alias: &str) -> Option<String> {
    let head = format!("type {alias} = ");
    source
        .lines()
        .find_map(|l| l.strip_prefix(head.as_str()))
        .and_then(|l| l.strip_suffix(';'))
        .map(String::from)
}

/// `source` with its `type Subject = ...;` line pointed at `fixed`.
pub fn point_subject_at(source: &str, fixed: &str) -> Option<String> {
    let line = source.lines().find(|l| l.starts_with("type Subject = "))?;
    Some(source.replacen(line, &format!("type Subject = {fixed};"), 1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_fixture_types_by_name_and_aliases() {
        let root = crate::harness::worker_build::workspace_root();
        let fx = fixtures(&root).unwrap();
        assert_eq!(
            fixed_type(&fx, "perfsyn_corpus::planted::TombstoneSet").as_deref(),
            Some("perfsyn_corpus::export_fixtures::FixedTombstoneSet")
        );
        assert_eq!(
            fixed_type(&fx, "own_crate::Tally").as_deref(),
            Some("own_crate_fixed::Tally")
        );
        assert_eq!(fixed_type(&fx, "perfsyn_corpus::planted::SmallSort"), None);
        assert_eq!(fixed_type(&fx, "other::TombstoneSet"), None);
        let src = "//! x\ntype Subject = a::B;\ntype Reference = a::C;\nfn f() {}\n";
        assert_eq!(alias_target(src, "Reference").as_deref(), Some("a::C"));
        let fixed = point_subject_at(src, "a::C").unwrap();
        assert!(fixed.contains("type Subject = a::C;\ntype Reference = a::C;"));
    }
}
