//! The compiler's messages of a worker build, read from cargo's `--message-format json`:
//! each diagnostic with its code, its labels (what was expected and found, at which
//! argument) and its notes, and the human text rustc rendered for it. A rejected
//! registration is skipped with its diagnostic's own words (see [`Diagnostic::summary`]),
//! and a build that fails outside the harness (a linker error) is reported with what the
//! linker said, not with the command line rustc ran it with.

use std::path::Path;

/// One compiler diagnostic.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Diagnostic {
    /// `error`, `warning`, ...
    pub level: String,
    /// `E0308`, when rustc gives one.
    pub code: Option<String>,
    pub message: String,
    pub spans: Vec<Span>,
    /// The messages of its notes and helps, each the note's own text.
    pub notes: Vec<String>,
    /// The text rustc prints for it.
    pub rendered: String,
}

/// A place a diagnostic points at.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Span {
    pub file: String,
    pub line: usize,
    pub primary: bool,
    pub label: Option<String>,
    /// The code it highlights (the argument, for a mismatched one), on its first line.
    pub text: String,
}

/// A line of cargo's JSON output: a compiler diagnostic, an artifact cargo finished
/// (`Compiled(name)`), or anything else.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CargoMessage {
    Diagnostic(Diagnostic),
    Compiled(String),
    Other,
}

/// One line of `cargo build --message-format json`'s standard output.
pub fn parse_line(line: &str) -> CargoMessage {
    let Ok(v) = serde_json::from_str::<serde_json::Value>(line) else {
        return CargoMessage::Other;
    };
    match v["reason"].as_str() {
        Some("compiler-message") => CargoMessage::Diagnostic(diagnostic(&v["message"])),
        Some("compiler-artifact") => {
            CargoMessage::Compiled(v["target"]["name"].as_str().unwrap_or_default().to_string())
        }
        _ => CargoMessage::Other,
    }
}

fn diagnostic(m: &serde_json::Value) -> Diagnostic {
    let text = |v: &serde_json::Value| v.as_str().unwrap_or_default().to_string();
    let spans = m["spans"]
        .as_array()
        .map(|ss| ss.iter().map(span).collect())
        .unwrap_or_default();
    let notes = m["children"]
        .as_array()
        .map(|cs| cs.iter().map(|c| text(&c["message"])).collect())
        .unwrap_or_default();
    Diagnostic {
        level: text(&m["level"]),
        code: m["code"]["code"].as_str().map(str::to_string),
        message: text(&m["message"]),
        spans,
        notes,
        rendered: text(&m["rendered"]),
    }
}

fn span(s: &serde_json::Value) -> Span {
    let first = &s["text"][0];
    let line = first["text"].as_str().unwrap_or_default();
    let at = |k: &str| first[k].as_u64().unwrap_or(0) as usize;
    let (from, to) = (
        at("highlight_start").max(1) - 1,
        at("highlight_end").max(1) - 1,
    );
    let highlighted = line
        .char_indices()
        .filter(|(i, _)| *i >= from && *i < to)
        .map(|(_, c)| c)
        .collect::<String>();
    Span {
        file: s["file_name"].as_str().unwrap_or_default().to_string(),
        line: s["line_start"].as_u64().unwrap_or(0) as usize,
        primary: s["is_primary"].as_bool().unwrap_or(false),
        label: s["label"].as_str().map(str::to_string),
        text: highlighted.trim().to_string(),
    }
}

impl Diagnostic {
    /// `error[E0308]: mismatched types`, as rustc heads it.
    pub fn headline(&self) -> String {
        match &self.code {
            Some(c) => format!("{}[{c}]: {}", self.level, self.message),
            None => format!("{}: {}", self.level, self.message),
        }
    }

    /// The diagnostic in one line, in the compiler's words: its headline, then each label
    /// it puts in `file` (the harness's registrations), the primary one first, with the code
    /// it points at (`at \`key\`: expected \`&Key\`, found \`Key\``), then its notes that say
    /// what was expected and found. A diagnostic with no place in the code (a linker error)
    /// gives the notes that are not the command line it ran.
    pub fn summary(&self, file: &Path) -> String {
        let mut parts = vec![self.headline()];
        let mut here: Vec<&Span> = self
            .spans
            .iter()
            .filter(|s| Path::new(&s.file) == file || file.ends_with(&s.file))
            .collect();
        here.sort_by_key(|s| !s.primary);
        for s in here {
            let Some(label) = s.label.as_deref().filter(|l| !l.is_empty()) else {
                continue;
            };
            let part = if s.text.is_empty() || s.text.contains('\n') || s.text.len() > 60 {
                label.to_string()
            } else {
                format!("at `{}`: {label}", s.text)
            };
            if !parts.contains(&part) {
                parts.push(part);
            }
        }
        if self.spans.is_empty() {
            parts.extend(self.tool_output());
        } else {
            parts.extend(
                self.notes
                    .iter()
                    .filter(|n| n.starts_with("expected") || n.contains("found"))
                    .map(|n| one_line(n)),
            );
        }
        parts.join("; ")
    }

    /// What a tool rustc ran said (a linker's errors), from the notes: not the command line,
    /// not rustc's remark that arguments were left out.
    fn tool_output(&self) -> Vec<String> {
        self.notes
            .iter()
            .filter(|n| !is_command_line(n) && !n.starts_with("some arguments are omitted"))
            .flat_map(|n| n.lines().map(str::trim).map(str::to_string))
            .filter(|l| !l.is_empty())
            .take(2)
            .collect()
    }
}

/// Whether a note is the command line rustc ran a tool with.
fn is_command_line(note: &str) -> bool {
    let t = note.trim_start();
    t.starts_with("LC_ALL=") || t.starts_with("env -u") || t.starts_with('"')
}

fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// rustc's diagnostic of a mismatched argument in a registration (abridged from a
    /// harness build): the summary names the argument and what was expected and found.
    #[test]
    fn a_mismatched_argument_is_summarized_with_its_place_and_types() {
        let line = r#"{"reason":"compiler-message","package_id":"x","manifest_path":"/c/perfsyn/Cargo.toml","target":{"name":"perfsyn_harness"},"message":{"rendered":"error[E0308]: mismatched types\n","$message_type":"diagnostic","children":[{"children":[],"code":null,"level":"note","message":"method defined here","rendered":null,"spans":[]}],"code":{"code":"E0308","explanation":"..."},"level":"error","message":"mismatched types","spans":[{"byte_end":10,"byte_start":7,"column_end":31,"column_start":28,"expansion":null,"file_name":"src/lib.rs","is_primary":true,"label":"expected `&Key`, found `Key`","line_end":40,"line_start":40,"suggested_replacement":null,"suggestion_applicability":null,"text":[{"highlight_end":32,"highlight_start":29,"text":"            merge(mut self, key: val Key);"}]},{"byte_end":10,"byte_start":7,"column_end":18,"column_start":13,"expansion":null,"file_name":"src/lib.rs","is_primary":false,"label":"arguments to this method are incorrect","line_end":40,"line_start":40,"suggested_replacement":null,"suggestion_applicability":null,"text":[{"highlight_end":18,"highlight_start":13,"text":"            merge(mut self, key: val Key);"}]}]}}"#;
        let CargoMessage::Diagnostic(d) = parse_line(line) else {
            panic!("not a diagnostic")
        };
        assert_eq!(
            d.summary(Path::new("/c/perfsyn/src/lib.rs")),
            "error[E0308]: mismatched types; at `key`: expected `&Key`, found `Key`; at `merge`: arguments to this method are incorrect"
        );
    }

    /// A linker's failure: its own error, not the command line rustc ran it with.
    #[test]
    fn a_linker_error_is_summarized_with_what_the_linker_said() {
        let d = Diagnostic {
            level: "error".into(),
            message: "linking with `cc` failed: exit status: 1".into(),
            notes: vec![
                "LC_ALL=\"C\" PATH=\"/usr/bin\" \"cc\" \"-m64\" \"/tmp/a.o\"".into(),
                "some arguments are omitted. use `--verbose` to show all linker arguments".into(),
                "/usr/bin/ld: dep.o: relocation R_X86_64_32 against `.rodata' can not be used when making a shared object; recompile with -fPIC\ncollect2: error: ld returned 1 exit status\n".into(),
            ],
            ..Diagnostic::default()
        };
        assert_eq!(
            d.summary(Path::new("/c/perfsyn/src/lib.rs")),
            "error: linking with `cc` failed: exit status: 1; /usr/bin/ld: dep.o: relocation R_X86_64_32 against `.rodata' can not be used when making a shared object; recompile with -fPIC; collect2: error: ld returned 1 exit status"
        );
    }
}
