//! `perfsyn list`: every registered method with its signature, expected complexity, version
//! group and origin, so a user can tell std's own methods from what the corpus made up.
//!
//! A type's origin is what its registry records (see `TypeSchema::origin`); a method
//! registered on a std type with a template that calls another method (`retain_even` as
//! `retain(|k| ...)`) is the corpus's wrapper, not a std method.

use anyhow::Result;
pub use perfsyn_profiler_ipc::schema::Origin;
use perfsyn_profiler_ipc::schema::{ApiSchema, MethodSchema, TypeSchema};
use serde::Serialize;

use crate::harness::spec;

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
    /// Where the method comes from: `std`, `corpus`, `planted` or a crate's name.
    #[serde(serialize_with = "as_text")]
    pub origin: Origin,
    /// Per parameter, how many values mined from the crate's own tests it can draw
    /// (`harness/mine`); filled by [`count_mined`].
    pub mined: Vec<usize>,
    /// The sentence of the crate's docs the class was read from (or a class stated there
    /// that is not one of the input size, `expected` then null), for harnesses `perfsyn
    /// init` wrote.
    pub read_from: Option<ReadFrom>,
    /// The calls a chained registration of a crate makes, as measured (a method of a
    /// borrowing type reached through what hands it out: `for b in Doc::parse(text).nodes()
    /// { b.depth() }`); `None` for a method called as itself.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub calls: Option<String>,
}

/// Where a documented class was read: the sentence, and whose doc it is in.
#[derive(Debug, Clone, Serialize)]
pub struct ReadFrom {
    pub sentence: String,
    pub from: String,
    /// Whether the sentence's class was read (false: another quantity, a condition).
    pub read: bool,
}

/// Gives each entry the sentence its class was read from, from what `perfsyn init` wrote
/// (see [`class_reader`](crate::harness::init::class_reader)).
pub fn with_sources(
    entries: &mut [Entry],
    sources: &std::collections::HashMap<String, crate::harness::init::class_reader::ClassRecord>,
) {
    for e in entries {
        if let Some(r) = sources.get(&e.method) {
            e.read_from = Some(ReadFrom {
                sentence: r.sentence.clone(),
                from: r.from.clone(),
                read: r.class.is_some(),
            });
        }
    }
}

/// An origin as `perfsyn list` shows it.
fn as_text<S: serde::Serializer>(o: &Origin, s: S) -> Result<S::Ok, S::Error> {
    s.collect_str(o)
}

/// The origin of a registered type, as its registry records it.
pub fn type_origin(t: &TypeSchema) -> Origin {
    t.origin()
}

/// The origin of method `m` of type `t`: the type's, except for a wrapper registered on a std
/// type (a template that does not call the method of the same name).
pub fn method_origin(t: &TypeSchema, m: &MethodSchema) -> Origin {
    let ty = type_origin(t);
    let calls_itself = |tmpl: &str| tmpl.starts_with(&format!("{{self}}.{}(", m.name));
    match &m.template {
        Some(tmpl) if ty == Origin::Std && !calls_itself(tmpl) => Origin::Corpus,
        _ => ty,
    }
}

/// The rows for `schema`, optionally restricted to types matching `type_filter`.
pub fn entries(schema: &ApiSchema, type_filter: Option<&str>) -> Result<Vec<Entry>> {
    let types = match type_filter {
        Some(t) => spec::resolve_type_filter(schema, t)?,
        // A capacity ladder's rungs are their main type at other capacities, not API.
        None => schema.types.iter().filter(|t| !t.is_rung()).collect(),
    };
    let mut out = Vec::new();
    let selected: Vec<&str> = types.iter().map(|t| t.name.as_str()).collect();
    for &t in &types {
        // The new member of a version group is listed through the old one, when both are.
        let old_listed = schema
            .counterpart(&t.name)
            .is_some_and(|o| selected.contains(&o.name.as_str()));
        if t.version.as_ref().is_some_and(|v| v.version == "new") && old_listed {
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
                signature: if t.is_namespace() {
                    // A free function: the namespace receiver is the harness's, not its own.
                    m.signature()
                        .replacen("(&self, ", "(", 1)
                        .replacen("(&self)", "()", 1)
                } else {
                    m.signature()
                },
                expected: m.expected.clone(),
                group,
                versions,
                origin: method_origin(t, m),
                mined: vec![0; m.params.len()],
                read_from: None,
                calls: chained_calls(t, m),
            });
        }
    }
    Ok(out)
}

/// The calls method `m` of a crate's type `t` makes, when its registered name is none of
/// them (a chain, see [`Entry::calls`]): its template without the `black_box`es that keep
/// results from the optimizer.
fn chained_calls(t: &TypeSchema, m: &MethodSchema) -> Option<String> {
    if !matches!(type_origin(t), Origin::Crate(_)) {
        return None;
    }
    let tmpl = m.template.as_deref()?;
    let calls_itself = tmpl
        .match_indices(&format!("{}(", m.name))
        .any(|(i, _)| !tmpl[..i].ends_with(|c: char| c.is_alphanumeric() || c == '_'));
    (!calls_itself).then(|| without_black_box(tmpl))
}

/// `code` with each `std::hint::black_box(x)` written `x`.
fn without_black_box(code: &str) -> String {
    const CALL: &str = "std::hint::black_box(";
    let mut out = code.to_string();
    while let Some(at) = out.find(CALL) {
        let inner = at + CALL.len();
        let mut depth = 1;
        let close = out[inner..].char_indices().find_map(|(k, c)| {
            match c {
                '(' => depth += 1,
                ')' => depth -= 1,
                _ => {}
            }
            (depth == 0).then_some(inner + k)
        });
        let Some(close) = close else { break };
        out = format!("{}{}{}", &out[..at], &out[inner..close], &out[close + 1..]);
    }
    out
}

/// Fills each row's [`Entry::mined`] from `index`.
pub fn count_mined(
    entries: &mut [Entry],
    schema: &ApiSchema,
    index: &crate::harness::mine::Retriever,
) {
    for e in entries {
        let Some(t) = schema.ty(&e.ty) else { continue };
        let Some(name) = e.method.rsplit("::").next() else {
            continue;
        };
        if let Some(m) = t.method(name) {
            e.mined = m
                .params
                .iter()
                .map(|p| crate::harness::mine::values_for(index, t, name, p).len())
                .collect();
        }
    }
}

/// Renders rows as an aligned text table; a `mined` column (values each parameter can draw
/// from the crate's tests) when any parameter can draw one.
pub fn render(entries: &[Entry]) -> String {
    let any_mined = entries.iter().any(|e| e.mined.iter().any(|n| *n > 0));
    let mined = |e: &Entry| -> String {
        if !any_mined {
            String::new()
        } else if e.mined.is_empty() {
            format!("{:<8}  ", "-")
        } else {
            let v: Vec<String> = e.mined.iter().map(|n| n.to_string()).collect();
            format!("{:<8}  ", v.join(","))
        }
    };
    let w = entries
        .iter()
        .map(|e| e.method.len())
        .max()
        .unwrap_or(6)
        .max(6);
    // A crate's name is its methods' origin, and may be longer than the column's title.
    let o = entries
        .iter()
        .map(|e| e.origin.to_string().len())
        .max()
        .unwrap_or(8)
        .max(8);
    let mut s = format!(
        "{:<w$}  {:<o$}  {:<10}  {:<14}  {}signature\n",
        "method",
        "origin",
        "expected",
        "versions",
        if any_mined { "mined     " } else { "" }
    );
    for e in entries {
        s.push_str(&format!(
            "{:<w$}  {:<o$}  {:<10}  {:<14}  {}{}\n",
            e.method,
            e.origin.to_string(),
            e.expected.as_deref().unwrap_or("-"),
            e.versions
                .as_ref()
                .map(|v| v.join("/"))
                .unwrap_or_else(|| "-".into()),
            mined(e),
            e.signature
        ));
        if let Some(calls) = &e.calls {
            s.push_str(&format!("    calls: {calls}\n"));
        }
        if let Some(r) = &e.read_from {
            let what = if r.read {
                "read from"
            } else {
                "not read (not a class of the input size), in"
            };
            s.push_str(&format!("    {what} {}: \"{}\"\n", r.from, r.sentence));
        }
    }
    s.push_str(&format!(
        "{} {}\norigin: std = the standard library's own method; corpus = written for perfsyn's corpus (a corpus type, or a wrapper on a std type); planted = a bottleneck planted on purpose\n",
        entries.len(),
        if entries.len() == 1 { "method" } else { "methods" }
    ));
    if any_mined {
        s.push_str("mined: per parameter, the values mined from the crate's own tests it can draw (perfsyn/mined.json)\n");
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A type through JSON, so that schema fields added later (with defaults) do not break it.
    fn ty(name: &str, imports: &[&str], methods: &[(&str, Option<&str>)]) -> TypeSchema {
        let methods: Vec<serde_json::Value> = methods
            .iter()
            .map(|(m, tmpl)| {
                serde_json::json!({"name": m, "receiver": "Mut", "params": [], "ret": null,
                                   "expected": null, "template": tmpl})
            })
            .collect();
        serde_json::from_value(serde_json::json!({
            "name": name, "path": name.split('<').next().unwrap(), "sized": true,
            "version": null, "ctors": [], "methods": methods, "fields": [],
            "imports": imports, "doc": ""
        }))
        .expect("a minimal type")
    }

    /// A namespace of free functions (rust `()`) belongs to the crate its calls name, so
    /// that a crate of free functions is a crate harness (`hunt --all` leaves std out).
    #[test]
    fn a_namespace_belongs_to_the_crate_its_calls_name() {
        let mut ns = ty(
            "crate",
            &[],
            &[("count_pairs", Some("algos::count_pairs(&{v})"))],
        );
        assert_eq!(type_origin(&ns), Origin::Unknown);
        ns.rust = "()".into();
        assert_eq!(type_origin(&ns), Origin::Crate("algos".into()));
    }

    #[test]
    fn origins_come_from_the_registry_imports_and_templates() {
        let vec = ty(
            "Vec<Key>",
            &["perfsyn_corpus::probe::Key"],
            &[
                ("dedup", None),
                ("retain_even", Some("{self}.retain(|k| k.get() % 2 == 0)")),
                ("sort_desc", Some("{self}.sort_desc(1)")),
            ],
        );
        let origins: Vec<Origin> = vec.methods.iter().map(|m| method_origin(&vec, m)).collect();
        assert_eq!(origins, [Origin::Std, Origin::Corpus, Origin::Std]);
        let map = ty("BTreeMap<Key,u64>", &["std::collections::BTreeMap"], &[]);
        assert_eq!(type_origin(&map), Origin::Std);
        // The corpus records its types' origins: its imports alone do not tell planted
        // from not.
        let mut planted = ty(
            "TombstoneSet",
            &["perfsyn_corpus::planted::TombstoneSet"],
            &[],
        );
        planted.origin = Some(Origin::Planted);
        assert_eq!(type_origin(&planted), Origin::Planted);
        let mut toddler = ty(
            "JavaHashSet",
            &["perfsyn_corpus::toddler::JavaHashSet"],
            &[],
        );
        toddler.origin = Some(Origin::Corpus);
        assert_eq!(type_origin(&toddler), Origin::Corpus);
        let user = ty("Ring", &["my_crate::ring::Ring"], &[]);
        assert_eq!(type_origin(&user), Origin::Crate("my_crate".into()));
        assert_eq!(type_origin(&ty("Mystery", &[], &[])), Origin::Unknown);
        // Two types named alike are spelled by their paths and imported by neither.
        let mut spelled = ty(
            "partial::SortedVec<Key>",
            &["perfsyn_corpus::probe::Key"],
            &[],
        );
        spelled.rust = "sorted_vec::partial::SortedVec<perfsyn_corpus::probe::Key>".into();
        assert_eq!(type_origin(&spelled), Origin::Crate("sorted_vec".into()));
        let mut vec = ty("Vec<Key>", &["perfsyn_corpus::probe::Key"], &[]);
        vec.rust = "Vec<perfsyn_corpus::probe::Key>".into();
        assert_eq!(type_origin(&vec), Origin::Std);
    }

    #[test]
    fn each_class_is_listed_with_the_sentence_it_was_read_from() {
        use crate::harness::init::class_reader::ClassRecord;
        let entry = |method: &str| Entry {
            method: method.into(),
            ty: "Heap".into(),
            signature: "fn f(&self)".into(),
            expected: None,
            group: None,
            versions: None,
            origin: Origin::Crate("demo".into()),
            mined: vec![],
            read_from: None,
            calls: None,
        };
        let mut es = vec![entry("Heap::push"), entry("Heap::walk"), entry("Heap::len")];
        let record = |m: &str, class: Option<&str>, sentence: &str| {
            (
                m.to_string(),
                ClassRecord {
                    method: m.into(),
                    class: class.map(Into::into),
                    sentence: sentence.into(),
                    from: "its own doc".into(),
                },
            )
        };
        let sources = [
            record("Heap::push", Some("O(1) amortized"), "Time: O(1) amortized"),
            record("Heap::walk", None, "Computes in O(e') time"),
        ]
        .into_iter()
        .collect();
        with_sources(&mut es, &sources);
        let text = render(&es);
        assert!(
            text.contains("    read from its own doc: \"Time: O(1) amortized\"\n"),
            "{text}"
        );
        assert!(
            text.contains("    not read (not a class of the input size), in its own doc: \"Computes in O(e') time\"\n"),
            "{text}"
        );
        assert!(es[2].read_from.is_none());
    }

    #[test]
    fn one_method_is_not_plural() {
        let e = Entry {
            method: "A::b".into(),
            ty: "A".into(),
            signature: "fn b(&self)".into(),
            expected: None,
            group: None,
            versions: None,
            origin: Origin::Std,
            mined: vec![],
            read_from: None,
            calls: None,
        };
        assert!(render(std::slice::from_ref(&e)).contains("\n1 method\n"));
        assert!(
            !render(std::slice::from_ref(&e)).contains("mined"),
            "no column when nothing is mined"
        );
        let drawn = Entry {
            signature: "fn b(&self, s: &str)".into(),
            mined: vec![4],
            ..e
        };
        assert!(render(&[drawn]).lines().nth(1).unwrap().contains(" 4  "));
    }

    /// A crate's chained registration (a method of a type handed out by another) is listed
    /// with the calls it makes, as measured; a method called as itself, or a corpus
    /// wrapper, is not.
    #[test]
    fn a_chained_method_is_listed_with_the_calls_it_makes() {
        let mut doc = ty(
            "Doc",
            &[],
            &[
                (
                    "parse_nodes_depth",
                    Some("for mut b in dom::Doc::parse(&{text}).nodes() { std::hint::black_box(b.depth()); }"),
                ),
                ("parse", Some("dom::Doc::parse(&{text}).map(std::hint::black_box).count()")),
            ],
        );
        doc.rust = "()".into();
        let es = entries(&ApiSchema { types: vec![doc] }, None).unwrap();
        assert_eq!(
            es[0].calls.as_deref(),
            Some("for mut b in dom::Doc::parse(&{text}).nodes() { b.depth(); }")
        );
        assert_eq!(es[1].calls, None);
        assert!(render(&es).contains(
            "\n    calls: for mut b in dom::Doc::parse(&{text}).nodes() { b.depth(); }\n"
        ));
        let vec = ty(
            "Vec<Key>",
            &["perfsyn_corpus::probe::Key"],
            &[("retain_even", Some("{self}.retain(|k| k.get() % 2 == 0)"))],
        );
        let es = entries(&ApiSchema { types: vec![vec] }, None).unwrap();
        assert_eq!(es[0].calls, None);
    }
}
