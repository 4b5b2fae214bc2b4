//! The call a registration passes a parameter to, read from its template. A chained
//! registration (`Doc::parse_nodes_depth`, see `init/handed_out.rs`) is named after all of
//! its calls, but its text is the argument of one of them (`Doc::parse(&{text}).nodes()`):
//! TestMiner's context of a value is the callee it is passed to, so the parameter is also
//! queried with that callee's name. Before this, the long name diluted the query below the
//! similarity bar, and a parser reached through a chain drew none of the texts its tests pass
//! to `parse`.

/// The name of the function or method whose argument list holds `{param}` in `template`
/// (`parse` in `for b in dom::Doc::parse(&{text}).nodes() { .. }`), if any.
pub fn callee_of<'t>(template: &'t str, param: &str) -> Option<&'t str> {
    let at = template.find(&format!("{{{param}}}"))?;
    // The parentheses still open before the parameter, innermost first; a tuple's or a
    // group's (no name before it) is passed on to the call around it.
    let mut depth = 0usize;
    for (k, c) in template[..at].char_indices().rev() {
        match c {
            ')' => depth += 1,
            '(' if depth > 0 => depth -= 1,
            '(' => {
                let before = &template[..k];
                let start = before
                    .rfind(|c: char| !(c.is_alphanumeric() || c == '_'))
                    .map_or(0, |s| s + 1);
                if start < k {
                    return Some(&before[start..]);
                }
            }
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::callee_of;

    #[test]
    fn a_parameter_belongs_to_the_call_whose_arguments_hold_it() {
        let t = "for mut b in dom::Doc::parse(&{text}).nodes() { std::hint::black_box(b.attr({name}.as_str())); }";
        assert_eq!(callee_of(t, "text"), Some("parse"));
        assert_eq!(callee_of(t, "name"), Some("attr"));
        assert_eq!(callee_of("{self}.get(({k}, 1))", "k"), Some("get"));
        assert_eq!(callee_of("{self}.len()", "k"), None);
    }

    /// A chained registration's text draws what the crate's tests pass to the call it is
    /// the argument of, though the registration's long name alone is too unlike the test's
    /// call to draw it.
    #[test]
    fn a_chained_registrations_text_draws_the_values_passed_to_its_callee() {
        use crate::harness::mine::{collect, values_for, MinedIndex, MinedValue, Retriever};
        let d = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(d.path().join("tests")).unwrap();
        std::fs::write(
            d.path().join("tests/nesting.rs"),
            "#[test]\nfn nested() { let d = tiny_dom::Doc::parse(\"<a<b>>\"); }\n",
        )
        .unwrap();
        let index = Retriever::new(MinedIndex::build(&collect::crate_pairs(d.path())));
        let tmpl = "for mut b in tiny_dom::Doc::parse(&{text}).nodes() { std::hint::black_box(b.depth()); }";
        let t: perfsyn_profiler_ipc::schema::TypeSchema =
            serde_json::from_value(serde_json::json!({
                "name": "Doc", "path": "Doc", "rust": "()", "sized": false, "version": null,
                "ctors": [], "fields": [], "imports": [], "doc": "",
                "methods": [{"name": "parse_nodes_depth", "receiver": "Ref", "ret": null,
                             "expected": null, "template": tmpl,
                             "params": [{"name": "text", "ty": "String", "mode": "Str"}]}]
            }))
            .unwrap();
        let m = &t.methods[0];
        let got = values_for(&index, &t, &m.name, &m.params[0]);
        assert_eq!(got, [(MinedValue::Str("<a<b>>".into()), 1)]);
    }
}
