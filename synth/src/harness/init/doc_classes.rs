//! Complexity classes read from doc comments: a method's own doc ("Runs in O(n) time",
//! "amortized O(1)", a worst case beside it), a class per item of a returned iterator, and a
//! type's or crate's doc table naming methods. It reads prose only, knowing nothing of the
//! items around it; [`scan`](super::scan) finds the docs, [`sentences`](super::sentences)
//! and [`math`](super::math) read the other ways crates write classes.

use std::collections::{HashMap, HashSet};

/// The complexity class a doc comment states ("Runs in O(log n) time.", "O(1)", "amortized
/// O(1)"), as the oracle spells it. When it states several ("The item is found in O(1)
/// thanks to the hash table. The operation is performed in O(log(N)) time."), the highest
/// wins: parts of an operation cost at most the whole, so a lower class is a step's, not the
/// method's. A single variable other than `n` (`O(m)`, `O(len)`) is read as the input size.
pub fn documented_class(doc: &str) -> Option<String> {
    let mut best: Option<crate::report::class::Class> = None;
    // The highest class stated for a single call (see `single_call_clause`).
    let mut single_best: Option<crate::report::class::Class> = None;
    let mut unparsed = false;
    let doc = normalized(doc);
    let amortized = doc.to_lowercase().contains("amortized");
    for m in mentions(&doc) {
        // "Amortized O(log n); worst-case O(n) when the backing vector needs to grow."
        // (`push`): the worst case a class is labelled with, in a doc that
        // states an amortized class, is one call's spike, which the amortized class covers:
        // neither its class nor its condition is the method's.
        if amortized && worst_case_label(m.before, m.after) {
            continue;
        }
        let before_ok = !m
            .before
            .chars()
            .next_back()
            .is_some_and(|c| c.is_alphanumeric() || c == '_');
        // "**O(n)** space", "O(1) extra memory": a bound on memory, not on time. The marks
        // closing the class ("`$O(1)$` when ...") are not the next word.
        let as_written = past_marks(m.after);
        let following = as_written.to_lowercase();
        let space = [
            "space",
            "extra space",
            "additional space",
            "memory",
            "extra memory",
        ]
        .iter()
        .any(|w| following.starts_with(w));
        // "performance is O(1) when the element belongs at the back" (`push`):
        // a best case, not a bound; the doc then states no class for every input.
        // A capitalized word starts the next sentence (keyed_priority_queue's doc lines
        // "Average complexity is ***O(log n)***" / "If elements pushed in descending order,
        // ..."), not a condition on this class.
        let mut words = as_written.split_whitespace();
        let mut first = words.next().unwrap_or("");
        if ["time", "amortized", "performance"].contains(&first) {
            first = words.next().unwrap_or("");
        }
        if before_ok && ["when", "if", "unless", "provided"].contains(&first) {
            unparsed = true;
        }
        // "Navigation to the split point is O(log n)." (`split_off`, which then
        // rebuilds every skip link): the class of a step the clause names, not the method's.
        let step = step_clause(m.before);
        // "The worst case cost of a *single* call to `push` is O(n). ... The resize cost has
        // been amortized in the previous figures." (as std's `BinaryHeap`): the
        // spike of one call that the doc's amortized class covers, which the verdict leaves
        // out of its fit too. Read only when the doc states no amortized class.
        let single = single_call_clause(m.before);
        // "the time complexity is O(|V|·|E|) for the whole operation" (petgraph's
        // `Csr::add_edge`, of adding every edge): a bound on a sequence of calls, no
        // class of one.
        let sequence = ["for the whole", "in total", "overall"]
            .iter()
            .any(|w| following.starts_with(w));
        if before_ok && sequence {
            unparsed = true;
        }
        if before_ok && !space && !step && !sequence {
            match mention_class(&m.inner) {
                Some(c) if single => single_best = single_best.max(Some(c)),
                Some(c) => best = best.max(Some(c)),
                // A cost in several variables ("O(m n + n log n + c) time"): no
                // single class of the input size is documented, and the other mentions
                // (the closure's "O(m)") are not the method's.
                None => unparsed = true,
            }
        }
    }
    if unparsed {
        return None;
    }
    if !amortized {
        best = best.max(single_best);
    }
    // An amortized class bounds a sequence of calls, and the verdict judges it so (see the
    // engine's `amortized`): the qualifier travels with the class.
    match best {
        Some(c) if amortized => Some(format!("{} amortized", c.label())),
        _ => best.or(single_best).map(|c| c.label().to_string()),
    }
}

/// A doc with its classes written one way: TeX first ("`$O(\log n)$`", see
/// `math`), a tight bound (rpds: "Θ(log n)") as the bound from above it also is, an italic O
/// ("*O*(*N*)") as the plain one.
pub(super) fn normalized(doc: &str) -> String {
    super::math::plain_math(doc)
        .replace("Θ(", "O(")
        .replace("*O*(", "O(")
        .replace("_O_(", "O(")
}

/// One `O(..)` of a [`normalized`] doc: the text since the previous one, what stands between
/// its parentheses (Markdown removed: "Takes O([`len`]) time" links to `len`; an
/// italic variable, "*N*", is the variable), and the text after it.
struct Mention<'a> {
    before: &'a str,
    inner: String,
    after: &'a str,
}

/// Every class a [`normalized`] doc states, in order (nested parentheses inside one:
/// "O(log(n))").
fn mentions(doc: &str) -> Vec<Mention<'_>> {
    let mut out = Vec::new();
    let mut rest = doc;
    while let Some(i) = rest.find("O(") {
        let after = &rest[i + 2..];
        let mut depth = 1;
        let end = after.char_indices().find_map(|(k, c)| {
            match c {
                '(' => depth += 1,
                ')' => depth -= 1,
                _ => {}
            }
            (depth == 0).then_some(k)
        });
        let Some(end) = end else { break };
        let inner: String = after[..end]
            .chars()
            .filter(|c| !matches!(c, '[' | ']' | '`'))
            .collect();
        out.push(Mention {
            before: &rest[..i],
            inner: inner.trim().trim_matches('*').to_string(),
            after: &after[end + 1..],
        });
        rest = &after[end..];
    }
    out
}

/// The class of a mention's contents, a single variable read as the input size, and a size
/// named by its method ("O(len())", "O(self.len())") as that variable.
fn mention_class(inner: &str) -> Option<crate::report::class::Class> {
    let called = inner.replace("self.", "").replace("()", "");
    [
        inner.to_string(),
        single_variable_as_n(inner),
        single_variable_as_n(&called),
    ]
    .iter()
    .find_map(|candidate| crate::report::class::Class::parse(&format!("O({candidate})")))
    .or_else(|| {
        super::several_sizes::several_sizes_class(inner)
            .and_then(|c| crate::report::class::Class::parse(&format!("O({c})")))
    })
}

/// The highest class a doc states per item of the iterator a method returns ("*O*(1) on
/// creation, and *O*(log *n*) for each `next()` operation", `drain_asc`; "O(1)
/// per element"), if any. Consuming the iterator costs n times it: `drain_asc` is O(n log n),
/// and reading only its highest class (O(log n)), raised to the walk's O(n), made the sorted
/// drain a false O(n log n) finding.
pub fn per_item_class(doc: &str) -> Option<crate::report::class::Class> {
    let doc = normalized(doc);
    mentions(&doc)
        .iter()
        .filter(|m| {
            let following = past_marks(m.after).to_lowercase();
            // "per call" and "for each operation" are the method's own cost; "for each
            // `next()` operation" is an item's.
            let head: String = following.chars().take(40).collect();
            let per_call = ["call", "invocation", "operation"]
                .iter()
                .any(|w| head.contains(w));
            ["for each", "for every", "per ", "each "]
                .iter()
                .any(|w| following.starts_with(w))
                && (head.contains("next") || !per_call)
        })
        .filter_map(|m| mention_class(&m.inner))
        .max()
}

/// Whether the sentence that `head` (the text before a class) ends in states the cost of a
/// single call ("The worst case cost of a *single* call to `push` is").
fn single_call_clause(head: &str) -> bool {
    let sentence: String = head
        .rsplit(['.', ';'])
        .next()
        .unwrap_or(head)
        .chars()
        .filter(|c| !matches!(c, '*' | '_' | '`'))
        .collect::<String>()
        .to_lowercase();
    sentence.contains("single call") || sentence.contains("single invocation")
}

/// Whether a class is labelled a worst case by the words right beside it ("worst-case
/// O(n)", "O(n) in the worst case"), as opposed to a sentence about a worst case that states
/// an amortized cost ("In the worst case, ... the amortized cost per push is O(log n)").
fn worst_case_label(before: &str, after: &str) -> bool {
    let label = |s: &str| {
        let s = s.replace('-', " ").to_lowercase();
        s.split_whitespace().collect::<Vec<_>>().join(" ")
    };
    let tail = label(before.trim_end_matches(|c: char| {
        matches!(c, '*' | '_' | '`' | '$' | ',' | ':') || c.is_whitespace()
    }));
    let head = label(past_marks(after));
    ["worst case", "worst case is", "worst case of"]
        .iter()
        .any(|w| tail.ends_with(w))
        || ["worst case", "in the worst case", "in worst case"]
            .iter()
            .any(|w| head.starts_with(w))
}

/// `s` (the text after a class's closing parenthesis) from its first word: past the marks that
/// close the class (bold, italics, a code span, a math delimiter) and spaces.
pub fn past_marks(s: &str) -> &str {
    s.trim_start_matches(|c: char| matches!(c, '*' | '_' | '`' | '$') || c.is_whitespace())
}

/// Whether the clause that `head` (the text before a class) ends in is about a step of the
/// operation: one opened by finding or moving to a place ("Navigation to the split point is",
/// "Finding the start and end nodes is"). A gerund naming the operation itself ("Setting up
/// the iterator runs in", "Searching is") is the method's cost and is not listed.
fn step_clause(head: &str) -> bool {
    const STEP_SUBJECTS: [&str; 6] = [
        "navigation",
        "navigating",
        "finding",
        "locating",
        "seeking",
        "positioning",
    ];
    let clause = head.rsplit(['.', ';', ':']).next().unwrap_or(head);
    clause
        .split_whitespace()
        .next()
        .map(|w| {
            w.trim_matches(|c: char| !c.is_alphanumeric())
                .to_lowercase()
        })
        .is_some_and(|w| STEP_SUBJECTS.contains(&w.as_str()))
}

/// The classes a type's doc comment gives its methods in a Markdown table (rpds:
/// "| `push_front()` | Θ(1) | Θ(1) |", one column per case), by method name: the highest
/// class of every row that names the method (worst case, and "`dequeue()` amortized" rows).
/// `doc` is [`doc_text`](super::scan::doc_text)'s, lines joined with spaces, so rows are read cell by cell.
pub fn table_classes(doc: &str) -> HashMap<String, String> {
    let mut out: HashMap<String, crate::report::class::Class> = HashMap::new();
    let mut methods: Vec<String> = Vec::new();
    for cell in doc.split('|') {
        let cell = cell.trim();
        if cell.is_empty() {
            continue;
        }
        let class = documented_class(cell).and_then(|c| crate::report::class::Class::parse(&c));
        // A first cell naming methods: `` `name()` ``, `` `name(x)` `` (maybe followed by
        // words), several (`` `first()`/`last()`/`get()` ``), or one bare `` `name` ``
        // (scapegoat: "| `get` | `O(log n)` | `O(log n)` |"). A class in code (`` `O(1)` ``)
        // is a class, not a method `O`.
        if cell.starts_with('`') && class.is_none() {
            let named: Vec<String> = cell
                .split('`')
                .skip(1)
                .step_by(2)
                .filter_map(|code| code.split_once('('))
                .map(|(n, _)| n.trim().to_string())
                .filter(|n| !n.is_empty() && n.chars().all(|c| c.is_alphanumeric() || c == '_'))
                .collect();
            let bare = cell
                .strip_prefix('`')
                .and_then(|c| c.strip_suffix('`'))
                .filter(|n| !n.is_empty() && n.chars().all(|c| c.is_alphanumeric() || c == '_'));
            if !named.is_empty() {
                methods = named;
                continue;
            }
            if let Some(n) = bare {
                methods = vec![n.to_string()];
                continue;
            }
        }
        match class {
            Some(c) => {
                for m in &methods {
                    let e = out.entry(m.clone()).or_insert(c);
                    *e = (*e).max(c);
                }
            }
            // Any other cell ends the row's cells of classes.
            None => methods.clear(),
        }
    }
    out.into_iter()
        .map(|(m, c)| (m, c.label().to_string()))
        .collect()
}

fn single_variable_as_n(inner: &str) -> String {
    let words: HashSet<&str> = inner
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty() && !w.chars().all(|c| c.is_ascii_digit()) && *w != "log")
        .collect();
    if words.len() == 1 {
        let w = words.into_iter().next().unwrap_or("n");
        let mut out = String::new();
        let mut token = String::new();
        for c in inner.chars().chain(std::iter::once(' ')) {
            if c.is_alphanumeric() || c == '_' {
                token.push(c);
            } else {
                out.push_str(if token == w { "n" } else { &token });
                token.clear();
                if c != ' ' || !out.is_empty() {
                    out.push(c);
                }
            }
        }
        out.trim().to_string()
    } else {
        inner.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::harness::init::math::plain_math;
    use crate::harness::init::scan::doc_text;

    #[test]
    fn classes_are_read_from_a_type_doc_table() {
        let doc = doc_text(&[
            syn::parse_quote!(#[doc = " # Complexity"]),
            syn::parse_quote!(#[doc = " | Operation | Average | Worst case |"]),
            syn::parse_quote!(#[doc = " |:----------|--------:|-----------:|"]),
            syn::parse_quote!(#[doc = " | `new()` | Θ(1) | Θ(1) |"]),
            syn::parse_quote!(#[doc = " | `dequeue()` | Θ(1) | Θ(n) |"]),
            syn::parse_quote!(#[doc = " | `dequeue()` amortized | Θ(1) | Θ(1) |"]),
            syn::parse_quote!(#[doc = " | `get(k)` | Θ(log(n)) | Θ(log(n)) |"]),
            syn::parse_quote!(#[doc = " | iterator step | Θ(1) | Θ(n) |"]),
            syn::parse_quote!(#[doc = " | `first()`/`last()` | Θ(log(n)) | Θ(log(n)) |"]),
        ]);
        let t = table_classes(&doc);
        assert_eq!(t.get("new").map(String::as_str), Some("O(1)"));
        assert_eq!(t.get("dequeue").map(String::as_str), Some("O(n)"));
        assert_eq!(t.get("get").map(String::as_str), Some("O(log n)"));
        assert_eq!(t.get("last").map(String::as_str), Some("O(log n)"));
        assert_eq!(t.len(), 5, "{t:?}");
    }

    #[test]
    fn documented_classes_are_read_from_doc_sentences() {
        let c = |s: &str| documented_class(s);
        assert_eq!(c("Runs in O(log n) time."), Some("O(log n)".into()));
        assert_eq!(c("This is O(1) amortized."), Some("O(1) amortized".into()));
        // dary_heap's (and std's `BinaryHeap`'s) `push`: the single call's resize is covered
        // by the amortized class.
        let push =
            "The expected cost of `push`, averaged over every possible ordering, is *O*(1). \
            In the worst case, elements are pushed in ascending sorted order and the amortized \
            cost per push is *O*(log(*n*)) against a heap containing *n* elements. \
            The worst case cost of a *single* call to `push` is *O*(*n*). The worst case occurs \
            when capacity is exhausted and needs a resize. The resize cost has been amortized \
            in the previous figures.";
        assert_eq!(c(push), Some("O(log n) amortized".into()));
        // A class labelled worst case beside an amortized one is a single call's spike,
        // whichever side the label is on, and its condition is not the method's.
        assert_eq!(
            c("Amortized *O*(log *n*); worst-case *O*(*n*) when the backing vector needs to grow."),
            Some("O(log n) amortized".into())
        );
        assert_eq!(
            c("Amortized O(1), O(n) in the worst case."),
            Some("O(1) amortized".into())
        );
        assert_eq!(
            c("Worst-case O(n) when the vector grows."),
            None,
            "with no amortized class, the condition stands"
        );
        assert_eq!(
            c("The worst case cost of a single call is O(n). Otherwise O(1)."),
            Some("O(n)".into()),
            "with no amortized class, the single call's counts"
        );
        assert_eq!(c("Takes O(len) time"), Some("O(n)".into()));
        assert_eq!(c("Takes O([`len`]) time."), Some("O(n)".into()));
        assert_eq!(c("Takes O(`n`) time."), Some("O(n)".into()));
        assert_eq!(
            c("Takes `O(len())` time and no extra space."),
            Some("O(n)".into())
        );
        assert_eq!(c("Runs in O(self.len()) time."), Some("O(n)".into()));
        assert_eq!(c("this method takes *O*(*N*) time"), Some("O(n)".into()));
        assert_eq!(c("Costs O(n*m)."), None);
        assert_eq!(c("worst case O(n²)"), Some("O(n^2)".into()));
        assert_eq!(c("O(n log n) comparisons"), Some("O(n log n)".into()));
        assert_eq!(c("Returns the length."), None);
        assert_eq!(c("Costs O(m + n)."), None);
        assert_eq!(
            c("The item is found in **O(1)** thanks to the hash table. The operation is performed in **O(log(N))** time."),
            Some("O(log n)".into())
        );
        assert_eq!(c("FOO(1) is not a class"), None);
        // A step's class is not the method's; the operation's own gerund is.
        assert_eq!(
            c("Splits the list. Navigation to the split point is O(log n). Both halves are consistent."),
            None
        );
        assert_eq!(
            c("Finding the start and end nodes is O(log n); the rest runs in O(n)."),
            Some("O(n)".into())
        );
        assert_eq!(
            c("Setting up the iterator runs in O(log n)."),
            Some("O(log n)".into())
        );
        assert_eq!(c("Θ(log n) worst case"), Some("O(log n)".into()));
        // A space bound is not the time class; a cost in several variables is no class.
        assert_eq!(
            c("Computes in **O(1)** time and **O(n)** space."),
            Some("O(1)".into())
        );
        // A class under a condition is a best case: the doc bounds no other input.
        assert_eq!(
            c("Same as insert, except performance is O(1) when the element belongs at the back of the container. This avoids an O(log(N)) search."),
            None
        );
        assert_eq!(c("O(1) time if the key is cached, else O(n)."), None);
        assert_eq!(
            c("Average complexity is ***O(log n)*** If elements pushed in descending order, amortized complexity is ***O(1)***."),
            Some("O(log n) amortized".into())
        );
        assert_eq!(
            c("Computes in **O(m n + n log n + c)** time and **O(n)** space, where the function is **O(m)**."),
            None
        );
    }

    /// TeX classes (`math.rs`) read as their plain spelling.
    #[test]
    fn tex_classes_read_as_their_plain_spelling() {
        let c = |s: &str| documented_class(&plain_math(s));
        assert_eq!(
            c("This operation is `$O(\\log n)$` on average."),
            Some("O(log n)".into())
        );
        assert_eq!(c("Runs in $\\mathcal{O}(n)$ time."), Some("O(n)".into()));
        assert_eq!(
            c("$\\Theta(n \\log n)$ comparisons"),
            Some("O(n log n)".into())
        );
        assert_eq!(c("$O(n \\cdot \\log n)$"), Some("O(n log n)".into()));
        assert_eq!(c("worst case $O(n^{2})$"), Some("O(n^2)".into()));
        assert_eq!(c("$O\\left(\\log{n}\\right)$"), Some("O(log n)".into()));
        assert_eq!(c("$O(\\lg n)$"), Some("O(log n)".into()));
        // Several variables stay no class, and a best case stays conditional.
        assert_eq!(c("`$O(m \\log(n+m))$`"), None);
        assert_eq!(c("`$O(1)$` when the predicate rejects"), None);
        // Text without TeX is untouched.
        assert_eq!(plain_math("a {b} O(n)"), "a {b} O(n)");
    }
}
