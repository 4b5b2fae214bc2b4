//! TestMiner (seed 003, chapter 4; DESIGN.md, "TestMiner: values from the crate's own
//! tests"): the literal values a crate's own tests, examples, benches and doc tests pass to
//! its API, indexed by the words of the callee, so the value mutation can draw a parser's
//! own syntax (`"<!--"`, `"(("`) where the built-in pools hold only `"a"` and `"abc"`.
//!
//! [`collect`] reads the call sites with syn, [`index`] weighs and retrieves, [`words`]
//! splits names. `perfsyn init` writes the index beside the harness ([`MINED_FILE`]); the
//! built-in corpus is mined from its sources when a command loads it. The index is part of a
//! run's identity: the search draws from it, so a seed reproduces only with the same index.

pub mod callee;
pub mod collect;
pub mod index;
pub mod words;

#[cfg(test)]
mod mining_tests;

use std::path::Path;

use anyhow::{Context as _, Result};
use perfsyn_profiler_ipc::schema::{ApiSchema, ParamSchema, TypeSchema};

pub use collect::MinedValue;
pub use index::{MinedIndex, Retriever};

use crate::harness::discovery::{Harness, HARNESS_DIR};

/// The file `perfsyn init` writes into the harness directory.
pub const MINED_FILE: &str = "mined.json";

/// Mines the crate at `dir` (its tests, examples, benches, `#[cfg(test)]` modules and doc
/// tests).
pub fn mine_crate(dir: &Path) -> MinedIndex {
    MinedIndex::build(&collect::crate_pairs(dir))
}

/// The index of the crate at `dir` as `perfsyn init` writes it ([`MINED_FILE`]).
pub fn index_json(dir: &Path) -> String {
    serde_json::to_string_pretty(&mine_crate(dir)).unwrap_or_default() + "\n"
}

/// The index a harness's runs draw from: `perfsyn/mined.json` of a user's crate (empty when
/// absent: a harness written before mining), or the built-in corpus's sources mined now.
pub fn load(h: &Harness) -> Result<MinedIndex> {
    if h.builtin {
        // The targets' own tests: the corpus's `#[cfg(test)]` modules and doc tests. Its
        // `tests/` test the harness machinery (programs built by hand), not the targets.
        let dir = h.manifest.parent().unwrap_or(Path::new("."));
        return Ok(MinedIndex::build(&collect::source_pairs(&dir.join("src"))));
    }
    let path = h.crate_dir.join(HARNESS_DIR).join(MINED_FILE);
    if !path.is_file() {
        return Ok(MinedIndex::default());
    }
    let text = std::fs::read_to_string(&path)
        .with_context(|| format!("cannot read {}", path.display()))?;
    serde_json::from_str(&text).with_context(|| {
        format!(
            "{} is not a mined-values index; run `perfsyn init` again",
            path.display()
        )
    })
}

/// The query context of a parameter of method (or constructor) `method` of `t`: the
/// words of the type's path and registry name and the method's name.
pub fn query_of(t: &TypeSchema, method: &str) -> words::Bag {
    words::bag([t.path.as_str(), t.name.as_str(), method])
}

/// Whether a mined value fits a parameter of registry type `ty`.
pub fn fits(ty: &str, v: &MinedValue) -> bool {
    match v {
        MinedValue::Str(_) => ty == "String",
        MinedValue::Bytes(b) => ty == "String" && std::str::from_utf8(b).is_ok(),
        MinedValue::Char(_) => ty == "char",
        MinedValue::Int(i) => {
            perfsyn_profiler_ipc::IntTy::from_name(ty).is_some_and(|t| t.clamp(*i) == *i)
        }
    }
}

/// The values parameter `prm` of `t`'s `method` can draw, most frequent first.
pub fn values_for(
    index: &Retriever,
    t: &TypeSchema,
    method: &str,
    prm: &ParamSchema,
) -> Vec<(MinedValue, u32)> {
    if index.is_empty() || !own_api(t) {
        return Vec::new();
    }
    // As the paper's Randoop (section 4.3): the type and method, then the method alone (a
    // test calls `s.count_comments(..)` on a variable, whose type syn cannot see); each value
    // with the larger of its two weights.
    let mut found: Vec<(MinedValue, u32)> = Vec::new();
    // And the callee the parameter is passed to, when the registration makes several calls
    // (see [`callee`]).
    let callee = t
        .method(method)
        .and_then(|m| m.template.as_deref())
        .and_then(|tmpl| callee::callee_of(tmpl, &prm.name))
        .filter(|c| *c != method)
        .map(|c| query_of(t, c));
    for q in [query_of(t, method), words::bag([method])]
        .into_iter()
        .chain(callee)
    {
        for (v, n) in index.query(&q, |v| fits(&prm.ty, v)) {
            match found.iter_mut().find(|(w, _)| *w == v) {
                Some((_, m)) => *m = (*m).max(n),
                None => found.push((v, n)),
            }
        }
    }
    found.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    found
}

/// Whether `t` is the crate's own API, whose tests the index holds: not a std type (the
/// crate's tests say nothing about `Vec::push`, though they call it), and not the harness's
/// probe element types (`probe::Key`, the runtime's stand-in for any element).
pub fn own_api(t: &TypeSchema) -> bool {
    let probe = format!("::probe::{}", t.path);
    t.origin() != perfsyn_profiler_ipc::schema::Origin::Std
        && !t.imports.iter().any(|i| i.ends_with(&probe))
}

/// Per registered method, `Type::method`, the number of mined values each of its
/// parameters can draw, for `perfsyn list`.
pub fn drawable(index: &Retriever, schema: &ApiSchema) -> Vec<(String, Vec<usize>)> {
    let mut out = Vec::new();
    for t in &schema.types {
        for m in &t.methods {
            let counts = m
                .params
                .iter()
                .map(|p| values_for(index, t, &m.name, p).len())
                .collect();
            out.push((format!("{}::{}", t.name, m.name), counts));
        }
    }
    out
}
