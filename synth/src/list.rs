//! `perfsyn list`: every registered method with its signature, expected complexity and
//! version group.

use anyhow::Result;
use perfsyn_profiler_ipc::schema::ApiSchema;
use serde::Serialize;

use crate::spec;

/// One row of `perfsyn list`.
#[derive(Debug, Clone, Serialize)]
pub struct Entry {
    /// `Path::method`, what `explore --method` takes.
    pub method: String,
    /// The registered type, e.g. `Vec<Key>`.
    #[serde(rename = "type")]
    pub ty: String,
    pub signature: String,
    /// Documented complexity, e.g. `O(n)`, or null.
    pub expected: Option<String>,
    /// The version group, if the type is a member of one.
    pub group: Option<String>,
    /// The versions of the group that have this method with the same signature.
    pub versions: Option<Vec<String>>,
}

/// The rows for `schema`, optionally restricted to types matching `type_filter`.
pub fn entries(schema: &ApiSchema, type_filter: Option<&str>) -> Result<Vec<Entry>> {
    let types = match type_filter {
        Some(t) => spec::resolve_type_filter(schema, t)?,
        None => schema.types.iter().collect(),
    };
    let mut out = Vec::new();
    for t in types {
        // The new member of a version group is listed through the old one.
        if t.version.as_ref().is_some_and(|v| v.version == "new") && type_filter.is_none() {
            continue;
        }
        for m in &t.methods {
            let (group, versions) = match &t.version {
                Some(v) => {
                    let mut vs = vec![v.version.clone()];
                    if let Some(other) = schema.counterpart(&t.name) {
                        if other
                            .method(&m.name)
                            .is_some_and(|o| o.signature() == m.signature())
                        {
                            vs.push(
                                other
                                    .version
                                    .as_ref()
                                    .map(|o| o.version.clone())
                                    .unwrap_or_default(),
                            );
                        }
                    }
                    vs.sort_by_key(|v| if v == "old" { 0 } else { 1 });
                    (Some(v.group.clone()), Some(vs))
                }
                None => (None, None),
            };
            out.push(Entry {
                method: format!("{}::{}", t.path, m.name),
                ty: t.name.clone(),
                signature: m.signature(),
                expected: m.expected.clone(),
                group,
                versions,
            });
        }
    }
    Ok(out)
}

/// Renders rows as an aligned text table.
pub fn render(entries: &[Entry]) -> String {
    let w = entries
        .iter()
        .map(|e| e.method.len())
        .max()
        .unwrap_or(6)
        .max(6);
    let mut s = format!(
        "{:<w$}  {:<10}  {:<14}  signature\n",
        "method", "expected", "versions"
    );
    for e in entries {
        s.push_str(&format!(
            "{:<w$}  {:<10}  {:<14}  {}\n",
            e.method,
            e.expected.as_deref().unwrap_or("-"),
            e.versions
                .as_ref()
                .map(|v| v.join("/"))
                .unwrap_or_else(|| "-".into()),
            e.signature
        ));
    }
    s.push_str(&format!("{} methods\n", entries.len()));
    s
}
