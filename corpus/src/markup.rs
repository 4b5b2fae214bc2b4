//! A planted parser: a bottleneck behind a two-character token of its own syntax, which its
//! tests hold and the search's built-in strings (`"a"`, `"abc"`) never do.
//!
//! [`MarkupScanner::count_comments`] is documented O(n) and is linear on every text without
//! `<!`. At each `<!` it looks for the comment's end (`-->`) through the rest of the text, and
//! when there is none it treats the `<` as text and goes on one byte later: a text of
//! unclosed `<!` tokens rescans its rest once per token, O(n^2). The shape of the published
//! complexity bugs in markup parsers (an unclosed construct searched for its end from every
//! start). Only a search that draws the crate's own test values (`harness/mine`) and grows
//! them as text reaches it.

use perfsyn_profiler_ipc::register_type;

/// Counts markup comments.
#[derive(Debug, Clone, Default)]
pub struct MarkupScanner;

impl MarkupScanner {
    /// A scanner.
    pub fn new() -> MarkupScanner {
        MarkupScanner
    }

    /// The number of closed comments (`<!-- ... -->`) in `text`. Documented O(n).
    pub fn count_comments(&self, text: &str) -> usize {
        let b = text.as_bytes();
        let mut count = 0;
        let mut i = 0;
        while i + 1 < b.len() {
            if b[i] == b'<' && b[i + 1] == b'!' {
                // PLANTED: the end is searched to the end of the text from every `<!`.
                match b[i + 2..].windows(3).position(|w| w == b"-->") {
                    Some(end) => {
                        count += 1;
                        i += 2 + end + 3;
                    }
                    None => i += 1,
                }
            } else {
                i += 1;
            }
        }
        count
    }
}

register_type! {
    /// A markup scanner whose comment count is quadratic in unclosed `<!` tokens (planted).
    pub fn markup_scanner() -> MarkupScanner {
        path: "MarkupScanner",
        imports: ["perfsyn_corpus::markup::MarkupScanner"],
        version: None,
        // It holds nothing: its input is the text, whose length counts as an argument's.
        size: [|_s| 0],
        ctors {
            new() => MarkupScanner::new();
        }
        methods {
            // Documented O(n); PLANTED: O(n^2) in unclosed `<!` tokens.
            count_comments(ref self, text: str String) -> usize ["O(n)"];
        }
        fields {}
    }
}

#[cfg(test)]
mod tests {
    use super::MarkupScanner;

    #[test]
    fn closed_comments_are_counted_and_unclosed_ones_are_text() {
        let s = MarkupScanner::new();
        assert_eq!(s.count_comments("<!-- a --> text <!-- b -->"), 2);
        assert_eq!(s.count_comments("<!-- unclosed"), 0);
        assert_eq!(s.count_comments("plain text"), 0);
    }
}
