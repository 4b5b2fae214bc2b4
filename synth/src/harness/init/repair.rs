//! Drops the registrations the compiler rejects. [`model`](super::model) decides from the
//! API's text what the program model can drive; a bound it cannot see
//! (`try_extend_from_slice` is only there `where T: Copy`, on an impl whose header does not say
//! so) shows only when the harness is compiled. Rather than failing `init` on a crate nobody
//! tuned it for, each rejected registration becomes a `// skipped:` line carrying the
//! compiler's message, and the worker is built again.

use super::gen::SKIPPED;
use super::skips::{SkipReason, Skipped};
use crate::harness::generated::registration_at;

/// How many builds `init` tries before reporting the failure as it is.
pub const ROUNDS: usize = 8;

/// `text` (a generated harness's `src/lib.rs`) without the registrations the compiler
/// rejected, each listed as skipped with the compiler's message; also the items dropped
/// (see [`drop_rejected_as_skipped`] for their reasons too).
pub fn drop_rejected(
    text: &str,
    rejected: &[(Vec<usize>, String)],
) -> Option<(String, Vec<String>)> {
    let (text, skipped) = drop_rejected_as_skipped(text, rejected)?;
    Some((text, skipped.into_iter().map(|s| s.item).collect()))
}

/// [`drop_rejected`], each dropped item with its reason, the compiler's message.
/// Each error comes with the 1-based lines it shows, where it points first: the first of
/// them that is a registration of a constructor or method is the one dropped. An error that
/// shows no registration (rustc points some errors of a registration at the macro's start
/// only, beside the one that names it) is left for the next build, which tells whether it
/// went away with the dropped ones. `None` when no error shows a registration (then the
/// failure is not one a dropped registration fixes).
pub fn drop_rejected_as_skipped(
    text: &str,
    rejected: &[(Vec<usize>, String)],
) -> Option<(String, Vec<Skipped>)> {
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let mut at: Vec<(usize, &str)> = Vec::new();
    for (shown, message) in rejected {
        let line = shown.iter().copied().find(|&l| {
            l > 0
                && lines
                    .get(l - 1)
                    .and_then(|t| registration_name(t))
                    .is_some()
        });
        if let Some(line) = line {
            at.push((line, message.as_str()));
        }
    }
    if at.is_empty() {
        return None;
    }
    at.sort_by_key(|(l, _)| std::cmp::Reverse(*l));
    at.dedup_by_key(|(l, _)| *l);
    let mut skipped = Vec::new();
    let mut items = Vec::new();
    for (line, message) in at {
        let i = line.checked_sub(1)?;
        let name = registration_name(lines.get(i)?)?.to_string();
        let item = registration_at(text, line)?;
        lines.remove(i);
        // The note init writes above a consumed iterator's registration goes with it.
        if i > 0
            && lines[i - 1]
                .trim_start()
                .starts_with(&format!("// {name}: "))
        {
            lines.remove(i - 1);
        }
        let reason = SkipReason::RejectedByCompiler {
            message: message.to_string(),
        };
        skipped.push(format!("{SKIPPED}{item}: {reason}"));
        items.push(Skipped { item, reason });
    }
    let insert_at = lines
        .iter()
        .rposition(|l| l.starts_with(SKIPPED))
        .map(|i| i + 1)
        .or_else(|| lines.iter().position(|l| l.starts_with("#![")))?;
    skipped.reverse();
    items.reverse();
    for (k, s) in skipped.into_iter().enumerate() {
        lines.insert(insert_at + k, s);
    }
    Some((lines.join("\n") + "\n", items))
}

/// The constructor or method a registration line declares (`name(...) ... ;`).
fn registration_name(line: &str) -> Option<&str> {
    let t = line.trim();
    let name = t.split('(').next()?;
    let ok = !name.is_empty()
        && name.chars().all(|c| c.is_alphanumeric() || c == '_')
        && name != "size"
        && t.ends_with(';');
    ok.then_some(name)
}

#[cfg(test)]
mod tests {
    use super::drop_rejected;

    const LIB: &str = "//! header
// skipped: Iter: it borrows
#![allow(unused_imports)]

pub fn stack() -> TypeDef {
    register_type! {
        ctors {
            new() => Stack::new();
        }
        methods {
            // iter: the returned iterator is consumed, so the class includes the O(n) walk over its items
            iter(ref self) [\"O(n)\"] as \"{self}.iter().count()\" => |r| r.iter().count();
            copy_from(mut self, v: slice Key);
            len(ref self) -> usize;
        }
    }
}
";

    #[test]
    fn a_rejected_registration_becomes_a_skipped_line() {
        let rejected = vec![
            (
                vec![13],
                "error[E0277]: the trait bound `Key: Copy` is not satisfied".to_string(),
            ),
            // An error inside the macro points at its start and shows the registration.
            (
                vec![5, 6, 12, 17],
                "error[E0599]: no method named `iter`".to_string(),
            ),
            (vec![13], "error[E0277]: again".to_string()),
        ];
        let (text, items) = drop_rejected(LIB, &rejected).unwrap();
        assert_eq!(items, ["TypeDef::iter", "TypeDef::copy_from"]);
        assert!(!text.contains("copy_from(mut self"), "{text}");
        assert!(!text.contains("iter(ref self)"), "{text}");
        assert!(!text.contains("// iter: the returned"), "{text}");
        assert!(text.contains("len(ref self) -> usize;"), "{text}");
        let skipped: Vec<&str> = text
            .lines()
            .filter(|l| l.starts_with("// skipped:"))
            .collect();
        assert_eq!(
            skipped,
            [
                "// skipped: Iter: it borrows",
                "// skipped: TypeDef::iter: rejected by the compiler in the harness: error[E0599]: no method named `iter`",
                "// skipped: TypeDef::copy_from: rejected by the compiler in the harness: error[E0277]: the trait bound `Key: Copy` is not satisfied",
            ]
        );
    }

    /// The skipped line names the method by the spec users type (`SmallVec::from_slice`),
    /// so `explore --method` finds why it is missing, not by the instantiated type.
    #[test]
    fn a_rejected_registration_is_named_by_its_spec_path() {
        let lib = LIB
            .replace(
                "pub fn stack() -> TypeDef {",
                "pub fn small_vec() -> SmallVec<[Key; 64]> {",
            )
            .replace(
                "    register_type! {\n",
                "    register_type! {\n        path: \"SmallVec\", imports: [], version: None,\n",
            );
        let (_, items) = drop_rejected(&lib, &[(vec![14], "error: x".to_string())]).unwrap();
        assert_eq!(items, ["SmallVec::copy_from"]);
    }

    #[test]
    fn an_error_outside_a_registration_is_not_dropped() {
        assert!(drop_rejected(LIB, &[(vec![5, 6], "error: x".to_string())]).is_none());
    }

    /// petgraph: a mismatched argument type is reported once at the registration and again
    /// at the macro's start only; dropping the registration fixes both.
    #[test]
    fn an_error_outside_a_registration_beside_one_inside_drops_that_one() {
        let rejected = vec![
            (vec![5], "error[E0308]: mismatched types".to_string()),
            (
                vec![13],
                "error[E0308]: arguments to this method are incorrect".to_string(),
            ),
        ];
        let (text, items) = drop_rejected(LIB, &rejected).unwrap();
        assert_eq!(items, ["TypeDef::copy_from"]);
        assert!(!text.contains("copy_from(mut self"), "{text}");
    }
}
