//! Classes a crate's or a type's doc comment states for methods it names in prose, outside a
//! table: a crate doc such as "The cache supports `get`, `get_mut`, `put`, and `pop` operations,
//! all of which are O(1)." Without it, every method of such a crate was `undocumented` and a
//! hunt could report nothing. An operation may also be named by a noun after its class
//! ("`O(1)` insertion", uluru). Like a table's classes (see
//! [`table_classes`](super::doc_classes::table_classes)), these apply only to methods whose own doc
//! states none.

use std::collections::HashMap;

use super::doc_classes::documented_class;

/// The class of each method a sentence names in code spans (`` `get` ``, `` `get_mut()` ``)
/// when the sentence states exactly one class. A sentence with several classes ("`push` is
/// O(1), `sort` O(n log n)") does not say which is whose, and a path (`` `Vec::insert` ``) or
/// a class in code (`` `O(1)` ``) is not a method name.
pub fn sentence_classes(doc: &str) -> HashMap<String, String> {
    sentence_sources(doc)
        .into_iter()
        .map(|(m, (c, _))| (m, c))
        .collect()
}

/// [`sentence_classes`], each class with the sentence (or the class and its noun) it was
/// read from.
pub fn sentence_sources(doc: &str) -> HashMap<String, (String, String)> {
    let mut out = HashMap::new();
    let doc = super::math::plain_math(doc);
    for sentence in doc.split(". ") {
        if sentence.matches("O(").count() + sentence.matches("Θ(").count() != 1 {
            continue;
        }
        let Some(class) = documented_class(sentence) else {
            continue;
        };
        // The class's own variable is not a method ("takes `O(n)` where `n` is the length",
        // "O([`len`])").
        let inside: String = sentence
            .split("O(")
            .skip(1)
            .filter_map(|rest| rest.split_once(')').map(|(v, _)| v))
            .collect::<Vec<_>>()
            .join(" ");
        for code in sentence.split('`').skip(1).step_by(2) {
            let name = code.trim().trim_end_matches("()");
            let in_class = inside
                .split(|c: char| !(c.is_alphanumeric() || c == '_'))
                .any(|w| w == name);
            let is_method = !name.is_empty()
                && !in_class
                && name
                    .chars()
                    .next()
                    .is_some_and(|c| c.is_lowercase() || c == '_')
                && name.chars().all(|c| c.is_alphanumeric() || c == '_');
            if is_method {
                out.entry(name.to_string())
                    .or_insert_with(|| (class.clone(), sentence.trim().to_string()));
            }
        }
    }
    for (name, class, source) in noun_classes(&doc) {
        out.entry(name).or_insert((class, source));
    }
    out
}

/// Operations named by a noun right after their class: uluru's "It provides `O(1)`
/// insertion, and `O(n)` lookup." (several classes in one sentence, each with its own
/// noun). The noun names the methods it is the noun of; a method of that name that the
/// type lacks is never looked up. Each with the class and its noun, as written.
fn noun_classes(doc: &str) -> Vec<(String, String, String)> {
    const NOUNS: [(&str, &[&str]); 8] = [
        ("insertion", &["insert"]),
        ("insertions", &["insert"]),
        ("removal", &["remove"]),
        ("removals", &["remove"]),
        ("deletion", &["remove", "delete"]),
        ("lookup", &["lookup", "get", "find"]),
        ("lookups", &["lookup", "get", "find"]),
        ("retrieval", &["get"]),
    ];
    let mut out = Vec::new();
    let mut rest = doc;
    while let Some(i) = rest.find("O(") {
        let after = &rest[i..];
        let Some(close) = after.find(')') else { break };
        let class = documented_class(&after[..=close]);
        let next = super::doc_classes::past_marks(&after[close + 1..])
            .split(|c: char| !(c.is_alphanumeric() || c == '-'))
            .next()
            .unwrap_or("")
            .to_lowercase();
        if let (Some(class), Some((_, names))) = (class, NOUNS.iter().find(|(n, _)| *n == next)) {
            let source = format!("{} {next}", &after[..=close]);
            out.extend(
                names
                    .iter()
                    .map(|n| (n.to_string(), class.clone(), source.clone())),
            );
        }
        rest = &after[close + 1..];
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn methods_named_in_a_sentence_with_one_class_take_it() {
        let c = sentence_classes(
            "An implementation of a LRU cache. The cache supports `get`, `get_mut()`, `put`, \
             and `pop` operations, all of which are O(1). This crate was influenced by \
             `std`'s `Vec::insert`. `push` is O(1) and `sort` is O(n log n). See `iter`. \
             Complexity is `O(n)` where `n` is the length. `drain` takes O([`len`]) time.",
        );
        assert_eq!(c.get("drain").map(String::as_str), Some("O(n)"), "{c:?}");
        for m in ["get", "get_mut", "put", "pop"] {
            assert_eq!(c.get(m).map(String::as_str), Some("O(1)"), "{m}: {c:?}");
        }
        for m in ["std", "insert", "push", "sort", "iter", "O", "n", "len"] {
            assert!(!c.contains_key(m), "{m}: {c:?}");
        }
    }

    #[test]
    fn an_operation_named_by_a_noun_after_its_class_takes_it() {
        let c = sentence_classes(
            "A simple LRU cache. It provides `O(1)` insertion, and `O(n)` lookup. \
             The O(1) path is taken when full.",
        );
        assert_eq!(c.get("insert").map(String::as_str), Some("O(1)"), "{c:?}");
        assert_eq!(c.get("lookup").map(String::as_str), Some("O(n)"), "{c:?}");
        assert_eq!(c.get("get").map(String::as_str), Some("O(n)"), "{c:?}");
        assert!(!c.contains_key("path"), "{c:?}");
        assert_eq!(c.get("find").map(String::as_str), Some("O(n)"), "{c:?}");
        assert_eq!(c.len(), 4, "{c:?}");
    }
}
