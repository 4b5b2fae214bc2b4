//! The house's invariants, read from the code: the engine's folders are floors and a module
//! imports only from its own floor or the floors below (the floors are the `Floors:` line of
//! ARCHITECTURE.md, so the map and this test cannot drift apart), and no module of the engine
//! or of the worker crate imports from one that imports back from it, directly or through
//! others.
//!
//! Imports are every path a file names that starts with `crate::` or `super::` (in `use`
//! items and in code, test modules included), resolved to the longest module path that is a
//! file. A folder's `mod.rs` is the folder's face: its files may use what it declares
//! without that counting as a circle.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use syn::visit::Visit;

/// A module path inside its crate (`["judge", "sweep"]`); the root is empty.
type ModPath = Vec<String>;

/// Every module of the crate rooted at `src`, by path, with its file.
fn modules(src: &Path) -> BTreeMap<ModPath, PathBuf> {
    let mut out = BTreeMap::new();
    let mut stack = vec![src.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
                continue;
            }
            if p.extension().is_none_or(|x| x != "rs") {
                continue;
            }
            let rel = p.strip_prefix(src).unwrap().with_extension("");
            let mut m: ModPath = rel.iter().map(|s| s.to_string_lossy().into()).collect();
            if matches!(m.last().map(String::as_str), Some("mod" | "lib" | "main")) {
                m.pop();
            }
            // `src/bin/*.rs` are crates of their own.
            if m.first().is_some_and(|s| s == "bin") {
                continue;
            }
            out.insert(m, p);
        }
    }
    out
}

/// Collects the `crate::`/`super::` paths of one file, resolved against the module they
/// are written in (inline modules such as `mod tests` included).
struct Paths {
    /// The module the visitor is in.
    at: ModPath,
    found: Vec<ModPath>,
}

impl Paths {
    fn absolute(&self, segs: &[String]) -> Option<ModPath> {
        let mut base = self.at.clone();
        let mut rest = segs;
        match segs.first().map(String::as_str) {
            Some("crate") => {
                base.clear();
                rest = &segs[1..];
            }
            Some("super") => {
                while rest.first().is_some_and(|s| s == "super") {
                    base.pop()?;
                    rest = &rest[1..];
                }
            }
            _ => return None,
        }
        base.extend(rest.iter().cloned());
        Some(base)
    }

    fn use_tree(&mut self, prefix: &mut Vec<String>, tree: &syn::UseTree) {
        match tree {
            syn::UseTree::Path(p) => {
                prefix.push(p.ident.to_string());
                self.use_tree(prefix, &p.tree);
                prefix.pop();
            }
            syn::UseTree::Name(n) => {
                prefix.push(n.ident.to_string());
                self.record(prefix);
                prefix.pop();
            }
            syn::UseTree::Rename(r) => {
                prefix.push(r.ident.to_string());
                self.record(prefix);
                prefix.pop();
            }
            syn::UseTree::Glob(_) => self.record(prefix),
            syn::UseTree::Group(g) => {
                for t in &g.items {
                    self.use_tree(prefix, t);
                }
            }
        }
    }

    fn record(&mut self, segs: &[String]) {
        if let Some(p) = self.absolute(segs) {
            self.found.push(p);
        }
    }
}

impl<'ast> Visit<'ast> for Paths {
    fn visit_item_use(&mut self, u: &'ast syn::ItemUse) {
        self.use_tree(&mut Vec::new(), &u.tree);
    }

    fn visit_path(&mut self, p: &'ast syn::Path) {
        let segs: Vec<String> = p.segments.iter().map(|s| s.ident.to_string()).collect();
        self.record(&segs);
        syn::visit::visit_path(self, p);
    }

    fn visit_item_mod(&mut self, m: &'ast syn::ItemMod) {
        self.at.push(m.ident.to_string());
        syn::visit::visit_item_mod(self, m);
        self.at.pop();
    }
}

/// The import graph of the crate at `src`: module -> the modules it names.
fn graph(
    src: &Path,
) -> (
    BTreeMap<ModPath, PathBuf>,
    BTreeMap<ModPath, BTreeSet<ModPath>>,
) {
    let mods = modules(src);
    let mut edges = BTreeMap::new();
    for (m, file) in &mods {
        let text = std::fs::read_to_string(file).unwrap();
        let ast = syn::parse_file(&text)
            .unwrap_or_else(|e| panic!("{} does not parse: {e}", file.display()));
        let mut v = Paths {
            at: m.clone(),
            found: Vec::new(),
        };
        v.visit_file(&ast);
        let mut to = BTreeSet::new();
        for p in v.found {
            let target = (1..=p.len())
                .rev()
                .map(|k| p[..k].to_vec())
                .find(|k| mods.contains_key(k));
            // A module's own paths, and a file's paths to the folders above it (their faces).
            if let Some(t) = target.filter(|t| t != m && !m.starts_with(t)) {
                to.insert(t);
            }
        }
        edges.insert(m.clone(), to);
    }
    (mods, edges)
}

/// The first line of `file` that names `target` (for the failure message).
fn line_naming(file: &Path, target: &ModPath) -> String {
    let text = std::fs::read_to_string(file).unwrap();
    let last = target.last().cloned().unwrap_or_default();
    let whole = target.join("::");
    text.lines()
        .enumerate()
        .find(|(_, l)| l.contains(&whole))
        .or_else(|| {
            text.lines()
                .enumerate()
                .find(|(_, l)| l.contains(&format!("{last}::")) || l.contains(&last))
        })
        .map(|(i, l)| format!("{}:{}: {}", shown(file), i + 1, l.trim()))
        .unwrap_or_else(|| shown(file))
}

/// `file` relative to the repository when it is inside it.
fn shown(file: &Path) -> String {
    file.strip_prefix(root())
        .unwrap_or(file)
        .display()
        .to_string()
}

/// Modules that import each other in a loop (strongly connected components of two or more).
fn circles(edges: &BTreeMap<ModPath, BTreeSet<ModPath>>) -> Vec<Vec<ModPath>> {
    // Tarjan's algorithm, iteratively small enough to recurse: a few hundred modules.
    struct T<'a> {
        edges: &'a BTreeMap<ModPath, BTreeSet<ModPath>>,
        index: BTreeMap<ModPath, usize>,
        low: BTreeMap<ModPath, usize>,
        stack: Vec<ModPath>,
        on: BTreeSet<ModPath>,
        out: Vec<Vec<ModPath>>,
    }
    fn visit(t: &mut T<'_>, v: &ModPath) {
        let i = t.index.len();
        t.index.insert(v.clone(), i);
        t.low.insert(v.clone(), i);
        t.stack.push(v.clone());
        t.on.insert(v.clone());
        for w in t.edges.get(v).into_iter().flatten() {
            if !t.index.contains_key(w) {
                visit(t, w);
                let lw = t.low[w];
                let lv = t.low.get_mut(v).unwrap();
                *lv = (*lv).min(lw);
            } else if t.on.contains(w) {
                let iw = t.index[w];
                let lv = t.low.get_mut(v).unwrap();
                *lv = (*lv).min(iw);
            }
        }
        if t.low[v] == t.index[v] {
            let mut comp = Vec::new();
            loop {
                let w = t.stack.pop().unwrap();
                t.on.remove(&w);
                let done = &w == v;
                comp.push(w);
                if done {
                    break;
                }
            }
            if comp.len() > 1 {
                comp.sort();
                t.out.push(comp);
            }
        }
    }
    let mut t = T {
        edges,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on: BTreeSet::new(),
        out: Vec::new(),
    };
    for v in edges.keys() {
        if !t.index.contains_key(v) {
            visit(&mut t, v);
        }
    }
    t.out
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The engine's floors, bottom first, from the `Floors:` line of ARCHITECTURE.md.
fn floors() -> Vec<String> {
    let text = std::fs::read_to_string(root().join("ARCHITECTURE.md")).unwrap();
    let line = text
        .lines()
        .find_map(|l| l.strip_prefix("Floors:"))
        .expect("ARCHITECTURE.md has a `Floors:` line naming the engine's folders, bottom first");
    line.split(['<', ',', '.'])
        .map(|s| s.trim().trim_matches('`').trim_end_matches('/').to_string())
        .filter(|s| !s.is_empty())
        .collect()
}

/// Upward imports of the crate at `src` under `floors`: one line per offending import.
fn upward(src: &Path, floors: &[String]) -> Vec<String> {
    let (mods, edges) = graph(src);
    let floor = |m: &ModPath| m.first().and_then(|f| floors.iter().position(|x| x == f));
    let mut out = Vec::new();
    for (m, to) in &edges {
        let Some(own) = floor(m) else { continue };
        for t in to {
            if floor(t).is_some_and(|f| f > own) {
                out.push(format!(
                    "{} (floor {}) imports {} (floor {}): {}",
                    m.join("::"),
                    floors[own],
                    t.join("::"),
                    floors[floor(t).unwrap()],
                    line_naming(&mods[m], t)
                ));
            }
        }
    }
    out
}

#[test]
fn every_engine_folder_is_a_floor_of_the_map() {
    let floors = floors();
    let (mods, _) = graph(&root().join("synth/src"));
    let tops: BTreeSet<&String> = mods.keys().filter_map(|m| m.first()).collect();
    let unmapped: Vec<_> = tops
        .iter()
        .filter(|t| !floors.contains(t) && !["lib", "main"].contains(&t.as_str()))
        .collect();
    assert!(
        unmapped.is_empty(),
        "modules of synth/src on no floor of ARCHITECTURE.md's `Floors:` line: {unmapped:?}"
    );
}

#[test]
fn no_engine_module_imports_from_a_floor_above_its_own() {
    let up = upward(&root().join("synth/src"), &floors());
    assert!(up.is_empty(), "imports that point up:\n{}", up.join("\n"));
}

#[test]
fn no_import_circle_in_the_engine_or_the_worker_crate() {
    for krate in ["synth/src", "profiler-ipc/src", "corpus/src"] {
        let (_, edges) = graph(&root().join(krate));
        let c = circles(&edges);
        let text: Vec<String> = c
            .iter()
            .map(|comp| {
                comp.iter()
                    .map(|m| m.join("::"))
                    .collect::<Vec<_>>()
                    .join(", ")
            })
            .collect();
        assert!(
            c.is_empty(),
            "import circles in {krate}:\n{}",
            text.join("\n")
        );
    }
}

/// The checker itself: a planted upward import and a planted circle are both caught.
#[test]
fn the_checks_catch_a_planted_upward_import_and_a_planted_circle() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path();
    std::fs::create_dir_all(src.join("low")).unwrap();
    std::fs::create_dir_all(src.join("high")).unwrap();
    std::fs::write(src.join("lib.rs"), "pub mod high;\npub mod low;\n").unwrap();
    std::fs::write(src.join("low/mod.rs"), "pub mod a;\npub mod b;\n").unwrap();
    std::fs::write(
        src.join("low/a.rs"),
        "use crate::low::b::g;\npub fn f() { g() }\n",
    )
    .unwrap();
    std::fs::write(
        src.join("low/b.rs"),
        "pub fn g() { super::a::f(); crate::high::h(); }\n#[cfg(test)]\nmod tests { use super::*; }\n",
    )
    .unwrap();
    std::fs::write(
        src.join("high/mod.rs"),
        "pub fn h() { crate::low::a::f() }\n",
    )
    .unwrap();
    let floors = vec!["low".to_string(), "high".to_string()];
    let up = upward(src, &floors);
    assert_eq!(up.len(), 1, "{up:?}");
    assert!(
        up[0].starts_with("low::b (floor low) imports high (floor high)")
            && up[0].contains("b.rs:1: pub fn g()"),
        "{}",
        up[0]
    );
    let (_, edges) = graph(src);
    let c = circles(&edges);
    let names: Vec<Vec<String>> = c
        .iter()
        .map(|comp| comp.iter().map(|m| m.join("::")).collect())
        .collect();
    assert_eq!(names, vec![vec!["high", "low::a", "low::b"]]);
}

/// Lines of `src`'s files, outside comments and test modules, that name the corpus: its crate
/// (`perfsyn_corpus`) or a path into it. `allowed` is the one file that may: where the built-in
/// harness is found.
fn corpus_mentions(src: &Path, allowed: &[&str]) -> Vec<String> {
    let mut out = Vec::new();
    for file in modules(src).into_values() {
        let rel = shown(&file);
        if allowed.iter().any(|a| rel.ends_with(a)) {
            continue;
        }
        let text = std::fs::read_to_string(&file).unwrap();
        for (i, line) in text.lines().enumerate() {
            let code = line.trim_start();
            if code.starts_with("#[cfg(test)]") {
                break;
            }
            if code.starts_with("//") {
                continue;
            }
            if ["perfsyn_corpus", "corpus/", "join(\"corpus\")"]
                .iter()
                .any(|m| code.contains(m))
            {
                out.push(format!("{rel}:{}: {code}", i + 1));
            }
        }
    }
    out
}

#[test]
fn neither_the_worker_crate_nor_the_engine_names_a_corpus_path() {
    let mut found = corpus_mentions(&root().join("profiler-ipc/src"), &[]);
    found.extend(corpus_mentions(
        &root().join("synth/src"),
        &["synth/src/harness/discovery.rs"],
    ));
    assert!(
        found.is_empty(),
        "corpus paths outside the built-in harness's discovery:\n{}",
        found.join("\n")
    );
}
