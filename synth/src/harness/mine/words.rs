//! Context words (TestMiner, section 4.2.1): a callee's path and method name split at `::`,
//! `.`, `_`, generic brackets and camelCase humps, lowercased, as a bag of words.

use std::collections::BTreeMap;

/// A bag of words: each word with its count.
pub type Bag = BTreeMap<String, u32>;

/// The words of `text`: split at every non-alphanumeric character and at lower-to-upper
/// case changes (`TagParser::parse_str` is `tag`, `parser`, `parse`, `str`), lowercased.
pub fn split(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut prev_lower = false;
    for c in text.chars() {
        if !c.is_alphanumeric() {
            flush(&mut cur, &mut out);
            prev_lower = false;
            continue;
        }
        if c.is_uppercase() && prev_lower {
            flush(&mut cur, &mut out);
        }
        prev_lower = c.is_lowercase() || c.is_ascii_digit();
        cur.extend(c.to_lowercase());
    }
    flush(&mut cur, &mut out);
    out
}

fn flush(cur: &mut String, out: &mut Vec<String>) {
    if !cur.is_empty() {
        out.push(std::mem::take(cur));
    }
}

/// The bag of the words of every part.
pub fn bag<'a>(parts: impl IntoIterator<Item = &'a str>) -> Bag {
    let mut b = Bag::new();
    for p in parts {
        for w in split(p) {
            *b.entry(w).or_default() += 1;
        }
    }
    b
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_split_at_separators_and_camel_case_humps() {
        assert_eq!(
            split("my_crate::TagParser::parse_str"),
            ["my", "crate", "tag", "parser", "parse", "str"]
        );
        assert_eq!(split("Vec<Key>"), ["vec", "key"]);
        assert_eq!(split("HTMLReader"), ["htmlreader"]);
        let b = bag(["Parser", "parse_parser"]);
        assert_eq!(b.get("parser"), Some(&2));
        assert_eq!(b.get("parse"), Some(&1));
    }
}
