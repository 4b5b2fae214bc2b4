//! Every class a crate's docs state, read with its qualifier and the sentence it came from.
//! [`documented_class`] reads one doc; this file reads what only the whole crate's docs say
//! about it:
//! - a footnote marker after a class (`O(1)*`) that another doc defines ("*O(1)** means
//!   'amortised O(1)'"): the class takes the qualifier the definition names;
//! - "(average)", "on average", "expected": the class is an expected cost (`O(1) expected`);
//! - a class in terms of another quantity (`O(e')` "where e' is the number of successors",
//!   `O(|V| + |E|)`): no class of the input size, so it is kept as unread, with its sentence;
//! - a class named by a module's doc or a column table (`| [push] | [pop] |` over a row of
//!   classes), and a conversion method (`into_sorted_vec`) named in prose by its target
//!   ("converted to a sorted vector ... O(n log n)").
//!
//! What was read, per method, travels beside the harness as `perfsyn/classes.json`
//! ([`CLASSES_FILE`]), which `perfsyn list` shows.

use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap};

use serde::{Deserialize, Serialize};

use super::doc_classes::{documented_class, normalized};

/// The file beside the harness's `Cargo.toml` that lists each class and its sentence.
pub const CLASSES_FILE: &str = "classes.json";

/// Characters crates put after a class to point at a footnote.
const MARKERS: &str = "*~†‡";

/// What a qualifier marker means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Qualifier {
    Amortized,
    Expected,
}

impl Qualifier {
    fn word(self) -> &'static str {
        match self {
            Qualifier::Amortized => "amortized",
            Qualifier::Expected => "expected",
        }
    }

    /// The qualifier a sentence names, if any ("amortised", "on average").
    fn named_in(sentence: &str) -> Option<Qualifier> {
        let s = sentence.to_lowercase();
        if s.contains("amortis") || s.contains("amortiz") {
            Some(Qualifier::Amortized)
        } else if s.contains("average") || s.contains("expected") {
            Some(Qualifier::Expected)
        } else {
            None
        }
    }
}

/// Footnote markers the crate's docs define, and what each means.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Footnotes(pub BTreeMap<char, Qualifier>);

/// One class read for a method: the class (`None` when the docs state one the harness cannot
/// read as a class of the input size), the sentence it was read from, and where that
/// sentence is.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClassRecord {
    /// `Type::method`, as `perfsyn list` names it.
    pub method: String,
    pub class: Option<String>,
    pub sentence: String,
    /// `its own doc`, `its type's doc`, `its module's doc`, `the crate's doc`.
    pub from: String,
}

/// The sentences of a doc's prose, its lines joined ("Runs in O(n). Then ..."): code blocks
/// left out, a heading (`# Time complexity`) ending the sentence before it.
fn sentences(doc: &str) -> Vec<String> {
    let prose: Vec<&str> = doc.split("```").step_by(2).collect();
    prose
        .join(" ")
        .split(". ")
        .flat_map(|s| s.split("# "))
        .map(|s| s.trim().trim_end_matches('#').trim().to_string())
        .filter(|s| !s.is_empty())
        .collect()
}

/// The marker right after a class, whose text before it is `before` and after it `after`:
/// a `~`, `†` or `‡`, or a `*` beyond those closing an emphasis the class opened (`*O(1)**`,
/// `O(1)*`; `**O(1)**` has none).
fn marker_after(before: &str, after: &str) -> Option<char> {
    let opening = before.chars().rev().take_while(|c| *c == '*').count();
    let run: Vec<char> = after.chars().take_while(|c| MARKERS.contains(*c)).collect();
    if let Some(c) = run.iter().find(|c| **c != '*') {
        return Some(*c);
    }
    (run.len() > opening).then_some('*')
}

/// Each `O(` of `doc` with its end: (start of `O(`, index just past its closing parenthesis).
fn class_spans(doc: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(i) = doc[from..].find("O(").map(|i| i + from) {
        let mut depth = 0;
        let end = doc[i + 1..].char_indices().find_map(|(k, c)| {
            match c {
                '(' => depth += 1,
                ')' => depth -= 1,
                _ => {}
            }
            (depth == 0).then_some(i + 1 + k + 1)
        });
        let Some(end) = end else { break };
        out.push((i, end));
        from = end;
    }
    out
}

/// The footnote markers `docs` define: a sentence naming a qualifier ("means 'amortised
/// O(1)'") whose class carries a marker (`*O(1)**`), or that shows the marker in code
/// (`` `*` denotes an amortised cost ``).
pub fn footnotes<'a>(docs: impl IntoIterator<Item = &'a str>) -> Footnotes {
    let mut out = Footnotes::default();
    for doc in docs {
        let doc = normalized(doc);
        for s in &sentences(&doc) {
            let s = s.as_str();
            let Some(q) = Qualifier::named_in(s) else {
                continue;
            };
            for (start, end) in class_spans(s) {
                if let Some(m) = marker_after(&s[..start], &s[end..]) {
                    out.0.entry(m).or_insert(q);
                }
            }
            for code in s.split('`').skip(1).step_by(2) {
                let code = code.trim();
                let mut cs = code.chars();
                if let (Some(m), None) = (cs.next(), cs.next()) {
                    if MARKERS.contains(m) {
                        out.0.entry(m).or_insert(q);
                    }
                }
            }
        }
    }
    out
}

/// `doc` (normalized) with each class that carries a defined marker followed by the
/// qualifier the marker stands for (`O(1)*` → `O(1) amortized`).
pub fn with_footnotes(doc: &str, notes: &Footnotes) -> String {
    let doc = normalized(doc);
    if notes.0.is_empty() {
        return doc;
    }
    let mut out = String::new();
    let mut last = 0;
    for (start, end) in class_spans(&doc) {
        let Some(q) = marker_after(&doc[..start], &doc[end..]).and_then(|m| notes.0.get(&m)) else {
            continue;
        };
        out.push_str(&doc[last..end]);
        out.push(' ');
        out.push_str(q.word());
        // The marker itself is dropped, what closes an emphasis is kept.
        let rest = &doc[end..];
        let run = rest
            .chars()
            .take_while(|c| MARKERS.contains(*c))
            .map(char::len_utf8)
            .sum::<usize>();
        let opening = doc[..start].chars().rev().take_while(|c| *c == '*').count();
        out.push_str(&"*".repeat(opening));
        last = end + run;
    }
    out.push_str(&doc[last..]);
    out
}

/// The class a method's own doc states, with its qualifier and sentence: `Ok` with the
/// class read, `Err` with the sentence of a class the harness cannot read (another quantity,
/// a condition), `None` when the doc states no class.
pub fn read_class(doc: &str, notes: &Footnotes) -> Option<Result<(String, String), String>> {
    // Sentences as written (`Time: O(1)*`), each read with the footnotes applied.
    let with_class: Vec<(String, String)> = sentences(&normalized(doc))
        .into_iter()
        .filter(|s| !class_spans(s).is_empty())
        .map(|s| (with_footnotes(&s, notes), s))
        .collect();
    let (_, first) = with_class.first()?;
    let Some(class) = documented_class(&with_footnotes(doc, notes)) else {
        return Some(Err(first.to_string()));
    };
    let base = class
        .split(" amortized")
        .next()
        .unwrap_or(&class)
        .to_string();
    let (read, sentence) = with_class
        .iter()
        .find(|(read, _)| documented_class(read).is_some_and(|c| c.starts_with(&base)))
        .unwrap_or(&with_class[0]);
    let class = if class.ends_with("amortized") {
        class
    } else {
        match Qualifier::named_in(read) {
            Some(q) => format!("{class} {}", q.word()),
            None => class,
        }
    };
    Some(Ok((class, sentence.to_string())))
}

/// Classes a column table gives the methods of its header (`| [push] | [pop] | [peek]/[peek_mut] |`
/// over `|---|---|---|` and a row of classes), with the header cell as its source. `doc` has
/// its lines joined, so the rows are told apart by the separator cells.
pub fn column_table_classes(doc: &str) -> HashMap<String, (String, String)> {
    let mut out = HashMap::new();
    let cells: Vec<&str> = doc.split('|').map(str::trim).collect();
    let separator = |c: &str| !c.is_empty() && c.chars().all(|c| matches!(c, '-' | ':'));
    let mut i = 0;
    while i < cells.len() {
        if !separator(cells[i]) {
            i += 1;
            continue;
        }
        let k = cells[i..].iter().take_while(|c| separator(c)).count();
        // The header: the k non-empty cells before the separators.
        let mut header: Vec<&str> = cells[..i]
            .iter()
            .rev()
            .filter(|c| !c.is_empty())
            .take(k)
            .copied()
            .collect();
        header.reverse();
        let row: Vec<&str> = cells[i + k..]
            .iter()
            .filter(|c| !c.is_empty())
            .take(k)
            .copied()
            .collect();
        if header.len() == k && row.len() == k {
            for (h, c) in header.iter().zip(&row) {
                let Some(class) = documented_class(c) else {
                    continue;
                };
                for name in header_names(h) {
                    out.entry(name)
                        .or_insert_with(|| (class.clone(), format!("| {h} | {c} |")));
                }
            }
        }
        i += k;
    }
    out
}

/// The method names a header cell gives: `[push]`, `` `pop()` ``, `[peek]/[peek\_mut]`.
fn header_names(cell: &str) -> Vec<String> {
    cell.split('/')
        .map(|n| {
            n.chars()
                .filter(|c| !matches!(c, '[' | ']' | '`' | '\\'))
                .collect::<String>()
                .trim()
                .trim_end_matches("()")
                .to_string()
        })
        .filter(|n| {
            n.chars()
                .next()
                .is_some_and(|c| c.is_lowercase() || c == '_')
                && n.chars().all(|c| c.is_alphanumeric() || c == '_')
        })
        .collect()
}

/// The class prose gives a conversion method (`into_sorted_vec`, `to_vec`) by naming its
/// target after a verb of conversion ("can be converted to a sorted vector ..., O(n log n)"):
/// the words of the name after `into_`/`to_` begin, in order, the words after "to"/"into",
/// and the sentence states one class. The sentence is returned with it.
pub fn conversion_class(doc: &str, method: &str) -> Option<(String, String)> {
    let target = method
        .strip_prefix("into_")
        .or_else(|| method.strip_prefix("to_"))?;
    let words: Vec<&str> = target.split('_').filter(|w| !w.is_empty()).collect();
    if words.is_empty() {
        return None;
    }
    let doc = normalized(doc);
    let found = sentences(&doc).iter().find_map(|s| {
        if class_spans(s).len() != 1 {
            return None;
        }
        let lower = s.to_lowercase();
        let verb = lower.find("convert")?;
        let rest = &lower[verb..];
        let to = [" to ", " into "]
            .iter()
            .filter_map(|w| rest.find(w).map(|i| i + w.len()))
            .min()?;
        // The target's words, articles left out, in the name's order ("a sorted vector"
        // names `sorted_vec`, not `vec`).
        let near: Vec<&str> = rest[to..]
            .split(|c: char| !c.is_alphanumeric())
            .filter(|w| !w.is_empty() && !["a", "an", "the"].contains(w))
            .take(words.len())
            .collect();
        let named =
            near.len() == words.len() && words.iter().zip(&near).all(|(w, n)| n.starts_with(w));
        named
            .then(|| documented_class(s).map(|c| (c, s.to_string())))
            .flatten()
    });
    found
}

/// Where a type's methods find classes their own docs do not state, most specific first:
/// (what it is, the doc).
pub struct DocSource<'a> {
    pub from: &'static str,
    pub doc: &'a str,
}

/// The classes a type's methods read: their own docs first, then the tables, sentences and
/// conversions of the docs around them. Records what each method read (see [`take`](Self::take)).
#[derive(Default)]
pub struct TypeClasses {
    notes: Footnotes,
    /// Method → (class, source sentence, where), from the docs around the methods.
    named: HashMap<String, (String, String, &'static str)>,
    /// The docs around the methods, for conversion methods named in prose.
    prose: Vec<(String, &'static str)>,
    read: RefCell<BTreeMap<String, (Option<String>, String, &'static str)>>,
}

impl TypeClasses {
    /// The classes of `sources` (most specific first), with the crate's footnotes.
    pub fn new(sources: &[DocSource<'_>], notes: &Footnotes) -> TypeClasses {
        let mut named = HashMap::new();
        let docs: Vec<(String, &'static str)> = sources
            .iter()
            .filter(|s| !s.doc.is_empty())
            .map(|s| (with_footnotes(s.doc, notes), s.from))
            .collect();
        // Tables of every doc before sentences of any: a table names its methods.
        for (doc, from) in &docs {
            for (m, c) in super::doc_classes::table_classes(doc) {
                named
                    .entry(m.clone())
                    .or_insert_with(|| (c.clone(), format!("| `{m}` | {c} |"), *from));
            }
            for (m, (c, s)) in column_table_classes(doc) {
                named.entry(m).or_insert((c, s, *from));
            }
        }
        for (doc, from) in &docs {
            for (m, (c, s)) in super::sentences::sentence_sources(doc) {
                named.entry(m).or_insert((c, s, *from));
            }
        }
        TypeClasses {
            notes: notes.clone(),
            named,
            prose: docs,
            read: RefCell::default(),
        }
    }

    /// The class of `method`, whose own doc is `doc`; what was read is recorded.
    pub fn class_of(&self, method: &str, doc: &str) -> Option<String> {
        let (class, sentence, from) = match read_class(doc, &self.notes) {
            Some(Ok((c, s))) => (Some(c), s, "its own doc"),
            found => match self.named.get(method).cloned().or_else(|| {
                self.prose
                    .iter()
                    .find_map(|(d, from)| conversion_class(d, method).map(|(c, s)| (c, s, *from)))
            }) {
                Some((c, s, from)) => (Some(c), s, from),
                None => match found {
                    Some(Err(s)) => (None, s, "its own doc"),
                    _ => return None,
                },
            },
        };
        self.read
            .borrow_mut()
            .insert(method.to_string(), (class.clone(), sentence, from));
        class
    }

    /// What [`class_of`](Self::class_of) read so far, as records of the methods of `path`
    /// among `registered` (method names), and forgets it.
    pub fn take(&self, path: &str, registered: &[String]) -> Vec<ClassRecord> {
        let out = self.records(path, registered);
        self.read.borrow_mut().clear();
        out
    }

    /// What [`class_of`](Self::class_of) read so far for the methods of `path` among
    /// `registered` (several namespaces share one reader: each takes its own).
    pub fn records(&self, path: &str, registered: &[String]) -> Vec<ClassRecord> {
        self.read
            .borrow()
            .iter()
            .filter(|(m, _)| registered.contains(m))
            .map(|(m, (class, sentence, from))| ClassRecord {
                method: format!("{path}::{m}"),
                class: class.clone(),
                sentence: sentence.clone(),
                from: from.to_string(),
            })
            .collect()
    }
}

/// `text` of the classes file for `records`.
pub fn classes_json(records: &[ClassRecord]) -> String {
    serde_json::to_string_pretty(records).unwrap_or_else(|_| "[]".into())
}

/// Reads the classes file's `text` back: the records by method.
pub fn read_classes_json(text: &str) -> HashMap<String, ClassRecord> {
    serde_json::from_str::<Vec<ClassRecord>>(text)
        .unwrap_or_default()
        .into_iter()
        .map(|r| (r.method.clone(), r))
        .collect()
}

#[cfg(test)]
#[path = "qualified_classes_tests.rs"]
mod tests;
