//! A planted parser whose slow path needs a token that is rare among its tests' values, and
//! only where it follows other text on the same line: the case the search's coverage-guided
//! fragment choice (`synth/src/search/credit.rs`) is tuned on, kept apart from every
//! published bug it is measured on.
//!
//! [`TemplateText::count_tags`] is documented O(n). A line that begins with `{%` is a
//! directive and is skipped to its end, so `"{%"` repeated, or any text that starts with it,
//! is linear. Elsewhere, `{%` opens an inline tag whose end (`%}`) is searched through the
//! rest of the text; when there is none, the `{` is text and the scan goes on one byte later:
//! `"x"` followed by unclosed `{%` tokens (or `"x{%"` repeated) rescans the rest once per
//! token, O(n^2). Its tests pass forty-odd strings of other syntax and one with the token.

use perfsyn_profiler_ipc::register_type;

/// Counts the tags of a template.
#[derive(Debug, Clone, Default)]
pub struct TemplateText;

impl TemplateText {
    /// A template reader.
    pub fn new() -> TemplateText {
        TemplateText
    }

    /// The number of closed inline tags (`{% ... %}`) in `text`. Documented O(n).
    pub fn count_tags(&self, text: &str) -> usize {
        let b = text.as_bytes();
        let mut count = 0;
        let mut i = 0;
        let mut line_start = true;
        while i < b.len() {
            if line_start && b[i..].starts_with(b"{%") {
                // A directive line: skipped to its end.
                i += b[i..]
                    .iter()
                    .position(|&c| c == b'\n')
                    .unwrap_or(b.len() - i);
                continue;
            }
            line_start = b[i] == b'\n';
            if b[i..].starts_with(b"{%") {
                // PLANTED: the end is searched to the end of the text from every `{%`.
                match b[i + 2..].windows(2).position(|w| w == b"%}") {
                    Some(end) => {
                        count += 1;
                        i += 2 + end + 2;
                        continue;
                    }
                    None => {}
                }
            }
            i += 1;
        }
        count
    }
}

register_type! {
    /// A template reader whose tag count is quadratic in unclosed `{%` after text (planted).
    pub fn template_text() -> TemplateText {
        path: "TemplateText",
        imports: ["perfsyn_corpus::template::TemplateText"],
        version: None,
        // It holds nothing: its input is the text, whose length counts as an argument's.
        size: [|_s| 0],
        ctors {
            new() => TemplateText::new();
        }
        methods {
            // Documented O(n); PLANTED: O(n^2) in unclosed `{%` after text on a line.
            count_tags(ref self, text: str String) -> usize ["O(n)"];
        }
        fields {}
    }
}

#[cfg(test)]
mod tests {
    use super::TemplateText;

    #[test]
    fn text_of_other_syntax_has_no_tags() {
        let t = TemplateText::new();
        assert_eq!(t.count_tags("Hello, world"), 0);
        assert_eq!(t.count_tags("{{ name }}"), 0);
        assert_eq!(t.count_tags("{{ user.name | upper }}"), 0);
        assert_eq!(t.count_tags("{# a comment #}"), 0);
        assert_eq!(t.count_tags("$title"), 0);
        assert_eq!(t.count_tags("${count} items"), 0);
        assert_eq!(t.count_tags("**bold** and _italic_"), 0);
        assert_eq!(t.count_tags("<b>strong</b>"), 0);
        assert_eq!(t.count_tags("<br/>"), 0);
        assert_eq!(t.count_tags("[link](http://example.com)"), 0);
        assert_eq!(t.count_tags("![image](a.png)"), 0);
        assert_eq!(t.count_tags("# Heading"), 0);
        assert_eq!(t.count_tags("## Second heading"), 0);
        assert_eq!(t.count_tags("> quoted line"), 0);
        assert_eq!(t.count_tags("- item one\n- item two"), 0);
        assert_eq!(t.count_tags("1. first\n2. second"), 0);
        assert_eq!(t.count_tags("`code`"), 0);
        assert_eq!(t.count_tags("```\nblock\n```"), 0);
        assert_eq!(t.count_tags("a | b | c"), 0);
        assert_eq!(t.count_tags("---"), 0);
        assert_eq!(t.count_tags("key: value"), 0);
        assert_eq!(t.count_tags("key = \"value\""), 0);
        assert_eq!(t.count_tags("(a, b)"), 0);
        assert_eq!(t.count_tags("[1, 2, 3]"), 0);
        assert_eq!(t.count_tags("x -> y"), 0);
        assert_eq!(t.count_tags("a => b"), 0);
        assert_eq!(t.count_tags("100%"), 0);
        assert_eq!(t.count_tags("50% off"), 0);
        assert_eq!(t.count_tags("@mention"), 0);
        assert_eq!(t.count_tags("#tag"), 0);
        assert_eq!(t.count_tags("a & b"), 0);
        assert_eq!(t.count_tags("&amp;"), 0);
        assert_eq!(t.count_tags("line one\nline two"), 0);
        assert_eq!(t.count_tags("tab\tseparated"), 0);
        assert_eq!(t.count_tags("ends with a space "), 0);
        assert_eq!(t.count_tags("{ braces }"), 0);
        assert_eq!(t.count_tags("{{{ triple }}}"), 0);
        assert_eq!(t.count_tags("%d items"), 0);
    }

    #[test]
    fn closed_inline_tags_are_counted_and_directive_lines_skipped() {
        let t = TemplateText::new();
        assert_eq!(t.count_tags("Dear {% name %}, welcome"), 1);
        assert_eq!(t.count_tags("{% directive %}\nplain"), 0);
    }
}
