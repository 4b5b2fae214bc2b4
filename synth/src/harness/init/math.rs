//! Complexity classes written in TeX, read as plain text. Crates whose docs render math with
//! KaTeX write "This operation is `$O(\log n)$` on average." (one crate has 87 such
//! classes, none of them read before), `$\mathcal{O}(n)$` or `$\Theta(n \log n)$`. The class readers
//! ([`documented_class`](super::doc_classes::documented_class), the table and sentence readers) know
//! the plain spellings; this rewrites the TeX ones into them first.

/// `doc` with TeX's class notation in plain words: `\mathcal{O}(`, `\Theta(` and the like
/// become `O(` (a tight bound bounds from above too), `\log`/`\lg`/`\ln` become `log`,
/// spacing and product commands a space, `\left(`/`\right)` plain parentheses, and the
/// braces of a group (`n^{2}`, `\log{n}`) go. Text without a backslash or a brace is
/// returned as is.
pub fn plain_math(doc: &str) -> String {
    if !doc.contains(['\\', '{']) {
        return doc.to_string();
    }
    let mut s = doc.to_string();
    for (tex, plain) in [
        ("\\mathcal{O}", "O"),
        ("\\mathcal O", "O"),
        ("\\mathrm{O}", "O"),
        ("\\operatorname{O}", "O"),
        ("\\Theta", "O"),
        ("\\left(", "("),
        ("\\right)", ")"),
        ("\\operatorname{log}", "log"),
        ("\\mathrm{log}", "log"),
        ("\\log", "log"),
        ("\\lg", "log"),
        ("\\ln", "log"),
        ("\\cdot", " "),
        ("\\times", " "),
        ("\\,", " "),
        ("\\;", " "),
        ("\\!", ""),
        ("\\ ", " "),
    ] {
        s = s.replace(tex, plain);
    }
    // "O (" after a command and its space: the class readers look for "O(".
    s = s.replace("O (", "O(");
    strip_groups(&s)
}

/// Removes the braces of TeX groups inside a class's parentheses (`O(n^{2})`, `O(log{n})`),
/// leaving braces elsewhere alone.
fn strip_groups(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut depth = 0usize;
    let mut prev = ' ';
    for c in s.chars() {
        match c {
            '(' if depth > 0 || prev == 'O' => depth += 1,
            ')' if depth > 0 => depth -= 1,
            '{' | '}' if depth > 0 => {
                prev = c;
                continue;
            }
            _ => {}
        }
        out.push(c);
        prev = c;
    }
    out
}
