//! Which spans of a mined value can be repeated in place (`TextShape::Span`, `SpanPair`).
//!
//! A value mined from a crate's tests is usually a whole valid input (`<r><i/></r>`,
//! `[1,[2]]`, `a;b;`). Repeated or nested as a whole it stops being one (two roots, an
//! unclosed element), and a parser that rejects its input early never reaches its deep code.
//! Repeating one of its self-contained pieces where it stands (a child, an item, a
//! statement), or an opening piece and its closing one each where they stand, keeps it
//! valid while it grows long or deep. The pieces are found from the value's own
//! punctuation, never from a syntax we know:
//!
//! - a span that the value already repeats back to back comes first (`<i/><i/>`);
//! - else the text between two occurrences of a punctuation character that occurs at least
//!   twice (from each occurrence to the next, the last to the end), kept when its brackets
//!   (`()[]{}<>`) balance;
//! - two such spans whose first word is the same (`<r>` and `</r>`, `<p>text` and `</p>`)
//!   pair as an opening and a closing span, and so does a bracket and its match when what it encloses already holds
//!   brackets (`[` and `]` of `[1,[2]]`: a nesting the value already has, made deeper); a
//!   span half of a pair is no single span (repeated alone it unbalances).

/// A byte range of the value.
pub type Range = (usize, usize);

/// At most this many spans, and pairs, are offered per value (the best first).
const MOST: usize = 4;

/// Values longer than this (in bytes) are not cut (the search is quadratic in the length).
const LONGEST: usize = 256;

/// The spans of `s` to repeat in place, best first.
pub fn singles(s: &str) -> Vec<Range> {
    let (singles, _) = choose(s);
    singles
}

/// The (opening, closing) span pairs of `s` to repeat in place, best first.
pub fn pairs(s: &str) -> Vec<(Range, Range)> {
    let (_, pairs) = choose(s);
    pairs
}

fn choose(s: &str) -> (Vec<Range>, Vec<(Range, Range)>) {
    if s.len() > LONGEST {
        return (Vec::new(), Vec::new());
    }
    let cut = cut_spans(s);
    let mut pairs: Vec<(Range, Range)> = Vec::new();
    for (i, a) in cut.iter().enumerate() {
        for c in &cut[i + 1..] {
            let (wa, wc) = (words(&s[a.0..a.1]), words(&s[c.0..c.1]));
            if a.1 <= c.0
                && !wa.is_empty()
                && wa.first() == wc.first()
                && s[a.0..a.1] != s[c.0..c.1]
            {
                pairs.push((*a, *c));
            }
        }
    }
    pairs.extend(bracket_pairs(s));
    pairs.dedup();
    pairs.truncate(MOST);
    let paired = |r: &Range| pairs.iter().any(|(a, c)| a == r || c == r);
    let mut singles = repeated_runs(s);
    for r in cut.iter().filter(|r| !paired(r)) {
        if !singles.contains(r) {
            singles.push(*r);
        }
    }
    singles.truncate(MOST);
    (singles, pairs)
}

/// Spans `s` repeats back to back (`t` where `tt` occurs), shortest first, each first where
/// it starts; a span of one character only when it is punctuation.
fn repeated_runs(s: &str) -> Vec<Range> {
    let bounds: Vec<usize> = s.char_indices().map(|(i, _)| i).chain([s.len()]).collect();
    let mut out: Vec<Range> = Vec::new();
    for len in 1..bounds.len() / 2 + 1 {
        for (k, &i) in bounds.iter().enumerate() {
            let (Some(&j), Some(&e)) = (bounds.get(k + len), bounds.get(k + 2 * len)) else {
                break;
            };
            let t = &s[i..j];
            if t == &s[j..e]
                && balanced(t)
                && (len > 1 || t.chars().all(|c| c.is_ascii_punctuation()))
                && !out.iter().any(|r| &s[r.0..r.1] == t)
            {
                out.push((i, j));
            }
        }
    }
    out
}

/// The balanced spans between consecutive occurrences of a punctuation character that
/// occurs at least twice (the last occurrence's span runs to the end), in order of start.
fn cut_spans(s: &str) -> Vec<Range> {
    let mut out: Vec<Range> = Vec::new();
    let puncts: Vec<char> = s.chars().filter(|c| c.is_ascii_punctuation()).collect();
    let mut seen: Vec<char> = Vec::new();
    for &c in &puncts {
        if seen.contains(&c) || puncts.iter().filter(|&&d| d == c).count() < 2 {
            continue;
        }
        seen.push(c);
        let at: Vec<usize> = s.match_indices(c).map(|(i, _)| i).collect();
        for (k, &i) in at.iter().enumerate() {
            let j = at.get(k + 1).copied().unwrap_or(s.len());
            if balanced(&s[i..j]) && !out.contains(&(i, j)) {
                out.push((i, j));
            }
        }
    }
    out.sort();
    out
}

/// Whether every bracket of `t` closes one opened before it in `t`, and all close.
fn balanced(t: &str) -> bool {
    let mut depth = 0i32;
    for c in t.chars() {
        match c {
            '(' | '[' | '{' | '<' => depth += 1,
            ')' | ']' | '}' | '>' => depth -= 1,
            _ => {}
        }
        if depth < 0 {
            return false;
        }
    }
    depth == 0
}

/// The words (runs of letters and digits) of `t`, in order.
fn words(t: &str) -> Vec<&str> {
    t.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect()
}

/// Each bracket and its match (same kind, by nesting), when what they enclose holds a
/// bracket too.
fn bracket_pairs(s: &str) -> Vec<(Range, Range)> {
    let mirror = |c: char| match c {
        ')' => Some('('),
        ']' => Some('['),
        '}' => Some('{'),
        '>' => Some('<'),
        _ => None,
    };
    let mut open: Vec<(char, usize)> = Vec::new();
    let mut out = Vec::new();
    for (i, c) in s.char_indices() {
        if "([{<".contains(c) {
            open.push((c, i));
        } else if let Some(m) = mirror(c) {
            match open.pop() {
                Some((o, at)) if o == m => {
                    let inner = &s[at + 1..i];
                    if inner.chars().any(|d| "()[]{}<>".contains(d)) {
                        out.push(((at, at + 1), (i, i + 1)));
                    }
                }
                _ => return out,
            }
        }
    }
    out.sort();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(s: &str) -> (Vec<&str>, Vec<(&str, &str)>) {
        let singles = singles(s).into_iter().map(|(i, j)| &s[i..j]).collect();
        let pairs = pairs(s)
            .into_iter()
            .map(|(a, c)| (&s[a.0..a.1], &s[c.0..c.1]))
            .collect();
        (singles, pairs)
    }

    #[test]
    fn a_child_repeats_alone_and_an_element_pairs_with_its_end() {
        let (singles, pairs) = texts("<svg><g/></svg>");
        assert_eq!(singles, vec!["<g/>"]);
        assert_eq!(pairs, vec![("<svg>", "</svg>")]);
        let (singles, pairs) = texts("<p>text</p>");
        assert!(singles.is_empty(), "{singles:?}");
        assert_eq!(pairs, vec![("<p>text", "</p>")]);
    }

    #[test]
    fn a_span_the_value_repeats_comes_first() {
        let (singles, _) = texts("<a><b/><b/></a>");
        assert_eq!(singles[0], "<b/>");
        let (singles, _) = texts("[1][1]");
        assert_eq!(singles[0], "[1]");
    }

    #[test]
    fn a_bracket_pairs_with_its_match_when_it_already_nests() {
        let (singles, pairs) = texts("[1,[2]]");
        assert_eq!(pairs, vec![("[", "]")]);
        assert!(singles.iter().all(|t| balanced(t)), "{singles:?}");
        let (_, pairs) = texts("(a)");
        assert!(pairs.is_empty(), "{pairs:?}");
    }

    #[test]
    fn plain_words_and_long_values_have_no_spans() {
        assert_eq!(texts("hello"), (vec![], vec![]));
        assert_eq!(texts(&"<a>".repeat(200)), (vec![], vec![]));
    }
}
