//! A planted parser of a nested syntax that rejects any input that is not one balanced
//! element, and is slow only past that check, on deep or long valid input: the case the
//! span shapes (`synth/src/search/text.rs`, a mined value with a span repeated in place) are
//! for, kept apart from every published bug they are measured on.
//!
//! [`NestedDoc::count_elements`] is documented O(n). The input is one root element of
//! `<name>`, `</name>`, `<name/>` and text; anything else (a second root, an unclosed or
//! mismatched element, text outside the root) is rejected by a linear check before any tree
//! is built. Building it, each element is appended after its last sibling found by walking
//! the siblings from the first, and its depth is found by walking up to the root: n
//! siblings or n levels cost O(n^2). Repeating a whole test value (`<doc><item/></doc>`)
//! or a piece of it is rejected; only the value with a child repeated in place, or an
//! element and its end each repeated where they stand, reaches the slow path.

use perfsyn_profiler_ipc::register_type;

/// Counts the elements of a nested document.
#[derive(Debug, Clone, Default)]
pub struct NestedDoc;

/// A token of the syntax.
#[derive(Debug, PartialEq)]
enum Token<'a> {
    Open(&'a str),
    Close(&'a str),
    Empty(&'a str),
    Text,
}

/// The tokens of `text`, or `None` at the first malformed tag.
fn tokens(text: &str) -> Option<Vec<Token<'_>>> {
    let mut out = Vec::new();
    let mut rest = text;
    while !rest.is_empty() {
        if let Some(tag) = rest.strip_prefix('<') {
            let end = tag.find('>')?;
            let body = &tag[..end];
            let token = if let Some(name) = body.strip_prefix('/') {
                Token::Close(name)
            } else if let Some(name) = body.strip_suffix('/') {
                Token::Empty(name)
            } else {
                Token::Open(body)
            };
            let name = match &token {
                Token::Open(n) | Token::Close(n) | Token::Empty(n) => *n,
                Token::Text => "",
            };
            if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric()) {
                return None;
            }
            out.push(token);
            rest = &tag[end + 1..];
        } else {
            let end = rest.find('<').unwrap_or(rest.len());
            if rest[..end].contains('>') {
                return None;
            }
            out.push(Token::Text);
            rest = &rest[end..];
        }
    }
    Some(out)
}

/// Whether `tokens` are one balanced root element (linear).
fn well_formed(tokens: &[Token<'_>]) -> bool {
    let mut open: Vec<&str> = Vec::new();
    let mut roots = 0;
    for t in tokens {
        if open.is_empty() {
            roots += 1;
            if roots > 1 || *t == Token::Text {
                return false;
            }
        }
        match t {
            Token::Open(n) => open.push(n),
            Token::Close(n) => {
                if open.pop() != Some(n) {
                    return false;
                }
            }
            Token::Empty(_) | Token::Text => {}
        }
    }
    roots == 1 && open.is_empty()
}

impl NestedDoc {
    /// A document reader.
    pub fn new() -> NestedDoc {
        NestedDoc
    }

    /// The number of elements of `text`, 0 when it is not one balanced root element.
    /// Documented O(n).
    pub fn count_elements(&self, text: &str) -> usize {
        let Some(tokens) = tokens(text) else {
            return 0;
        };
        if !well_formed(&tokens) {
            return 0;
        }
        // Each element: its parent, first child, next sibling, depth and name.
        let mut parent: Vec<usize> = Vec::new();
        let mut first: Vec<Option<usize>> = Vec::new();
        let mut next: Vec<Option<usize>> = Vec::new();
        let mut depth: Vec<usize> = Vec::new();
        let mut names: Vec<&str> = Vec::new();
        let mut open: Vec<usize> = Vec::new();
        for t in &tokens {
            let (Token::Open(name) | Token::Empty(name)) = t else {
                if let Token::Close(_) = t {
                    open.pop();
                }
                continue;
            };
            let id = parent.len();
            let up = open.last().copied().unwrap_or(id);
            parent.push(up);
            names.push(name);
            first.push(None);
            next.push(None);
            if up != id {
                // PLANTED: the last sibling is found from the first, O(siblings).
                match first[up] {
                    None => first[up] = Some(id),
                    Some(mut s) => {
                        while let Some(n) = next[s] {
                            s = n;
                        }
                        next[s] = Some(id);
                    }
                }
            }
            // PLANTED: the depth, and how many ancestors share the element's name, are
            // found by walking to the root, O(depth).
            let mut d = 0;
            let mut same = 0;
            let mut at = id;
            while parent[at] != at {
                at = parent[at];
                d += 1;
                same += usize::from(names[at] == *name);
            }
            depth.push(d + same);
            if let Token::Open(_) = t {
                open.push(id);
            }
        }
        parent.len()
    }
}

register_type! {
    /// A nested-document reader, quadratic in siblings and in depth of valid input (planted).
    pub fn nested_doc() -> NestedDoc {
        path: "NestedDoc",
        imports: ["perfsyn_corpus::nested::NestedDoc"],
        version: None,
        // It holds nothing: its input is the text, whose length counts as an argument's.
        size: [|_s| 0],
        ctors {
            new() => NestedDoc::new();
        }
        methods {
            // Documented O(n); PLANTED: O(n^2) in siblings or depth of a valid document.
            count_elements(ref self, text: str String) -> usize ["O(n)"];
        }
        fields {}
    }
}

#[cfg(test)]
mod tests {
    use super::NestedDoc;

    #[test]
    fn one_balanced_root_is_counted() {
        let d = NestedDoc::new();
        assert_eq!(d.count_elements("<doc><item/></doc>"), 2);
        assert_eq!(d.count_elements("<note>hello</note>"), 1);
        assert_eq!(d.count_elements("<page><title>x</title><body/></page>"), 3);
        assert_eq!(d.count_elements("<leaf/>"), 1);
    }

    #[test]
    fn anything_but_one_balanced_root_is_rejected() {
        let d = NestedDoc::new();
        assert_eq!(d.count_elements("<doc>"), 0);
        assert_eq!(d.count_elements("<doc></item>"), 0);
        assert_eq!(d.count_elements("<leaf/><leaf/>"), 0);
        assert_eq!(d.count_elements("text"), 0);
        assert_eq!(d.count_elements("<a b>"), 0);
        assert_eq!(d.count_elements(""), 0);
    }
}
