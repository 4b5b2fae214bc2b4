//! Classes in several sizes of one input: a graph's `O(|V| + |E|)`, `O((|V|+|E|) log |V|)`,
//! `O(|V|·|E|)`. The verdict sweep scales every size-like quantity of a program alike (see
//! `judge/sweep.rs`), and a graph's input size counts the nodes and edges its setup added,
//! so each of these sizes grows as the input size `n` does: the class is the growth of the
//! expression with every size read as `n` (`O(|V| + |E|)` is O(n), `O(|V|·|E|)` is O(n^2)).
//! A size that is not the input's (`O(e')`, the edges of one node; `O(k|E|)`, a parameter)
//! is not read: such a class stays unread, with its sentence.

/// The class label (`n log n`) of `inner` (what a doc writes inside `O(...)`) when it is an
/// expression in sizes of the input: cardinalities `|X|` and single capital letters (`V`,
/// `E`), besides `n`.
pub fn several_sizes_class(inner: &str) -> Option<&'static str> {
    if inner.contains('\'') {
        return None;
    }
    let mut s = String::new();
    let chars: Vec<char> = inner.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c == '|' {
            // `|X|`: the size of X.
            let close = chars[i + 1..].iter().position(|&d| d == '|')?;
            let name: String = chars[i + 1..i + 1 + close].iter().collect();
            if name.is_empty() || !name.chars().all(|d| d.is_alphanumeric() || d == '_') {
                return None;
            }
            s.push('n');
            i += close + 2;
            continue;
        }
        if c.is_alphabetic() {
            let start = i;
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            let word: String = chars[start..i].iter().collect();
            let size =
                word == "n" || (word.chars().count() == 1 && word.chars().all(char::is_uppercase));
            if word == "log" {
                s.push_str("log");
            } else if size {
                s.push('n');
            } else {
                return None;
            }
            continue;
        }
        if !c.is_whitespace() {
            s.push(c);
        }
        i += 1;
    }
    let mut p = Parser {
        s: s.as_bytes(),
        at: 0,
    };
    let g = p.sum()?;
    if p.at != p.s.len() {
        return None;
    }
    Some(match g {
        (0, 0) => "1",
        (0, 1) => "log n",
        (1, 0) => "n",
        (1, 1) => "n log n",
        (2, 0) => "n^2",
        (3, 0) => "n^3",
        _ => return None,
    })
}

/// A growth: the power of `n` and of `log n`.
type Growth = (u32, u32);

/// A recursive-descent reader of sums, products, powers, `log` and parentheses over `n`.
struct Parser<'a> {
    s: &'a [u8],
    at: usize,
}

impl Parser<'_> {
    fn peek(&self) -> Option<u8> {
        self.s.get(self.at).copied()
    }

    /// A sum grows as its fastest term.
    fn sum(&mut self) -> Option<Growth> {
        let mut g = self.product()?;
        while self.peek() == Some(b'+') {
            self.at += 1;
            g = g.max(self.product()?);
        }
        Some(g)
    }

    /// A product (`*`, `·`, `×` or side by side) adds its factors' powers.
    fn product(&mut self) -> Option<Growth> {
        let mut g = self.power()?;
        loop {
            let rest = &self.s[self.at..];
            if rest.starts_with(b"*") {
                self.at += 1;
            } else if rest.starts_with("·".as_bytes()) || rest.starts_with("×".as_bytes()) {
                self.at += 2;
            } else if !matches!(self.peek(), Some(b'n' | b'l' | b'(' | b'0'..=b'9')) {
                return Some(g);
            }
            let f = self.power()?;
            g = (g.0 + f.0, g.1 + f.1);
        }
    }

    /// An atom raised to a small power (`^2`, `²`, `³`).
    fn power(&mut self) -> Option<Growth> {
        let g = self.atom()?;
        let rest = &self.s[self.at..];
        let k = if rest.starts_with(b"^") {
            self.at += 1;
            let d = self.peek().filter(u8::is_ascii_digit)?;
            self.at += 1;
            u32::from(d - b'0')
        } else if rest.starts_with("²".as_bytes()) {
            self.at += 2;
            2
        } else if rest.starts_with("³".as_bytes()) {
            self.at += 2;
            3
        } else {
            1
        };
        Some((g.0 * k, g.1 * k))
    }

    fn atom(&mut self) -> Option<Growth> {
        let rest = &self.s[self.at..];
        if rest.starts_with(b"log") {
            self.at += 3;
            let inner = self.power()?;
            return Some(if inner == (0, 0) { (0, 0) } else { (0, 1) });
        }
        match self.peek()? {
            b'n' => {
                self.at += 1;
                Some((1, 0))
            }
            b'(' => {
                self.at += 1;
                let g = self.sum()?;
                (self.peek() == Some(b')')).then(|| self.at += 1)?;
                Some(g)
            }
            b'0'..=b'9' => {
                while self.peek().is_some_and(|c| c.is_ascii_digit()) {
                    self.at += 1;
                }
                Some((0, 0))
            }
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::several_sizes_class;

    /// petgraph's classes in the sizes of a graph, read as the input size's class; a size
    /// of one node (`e'`) or a parameter (`k`) is not the input's.
    #[test]
    fn a_class_in_several_sizes_of_the_input_reads_as_the_input_size() {
        for (inner, want) in [
            ("|V| + |E|", Some("n")),
            ("|V|", Some("n")),
            ("(|V|+|E|)log(|V|)", Some("n log n")),
            ("|E| + |V|log|V|", Some("n log n")),
            ("|V|·|E|", Some("n^2")),
            ("|V|³", Some("n^3")),
            ("log |V|", Some("log n")),
            ("|E| log |E|", Some("n log n")),
            ("V + E", Some("n")),
            ("e'", None),
            ("n + e'", None),
            ("k|E| log(k|E|)", None),
            ("3^(|V|/3)", None),
            ("|V||E|log(|V|) + |V|²*log(|V|)", None),
        ] {
            assert_eq!(several_sizes_class(inner), want, "{inner}");
        }
    }
}
