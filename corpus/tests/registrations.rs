//! What the corpus's registrations record beyond their API: the paths printed programs
//! import, and where each type comes from.

use std::collections::BTreeMap;

use perfsyn_profiler_ipc::schema::Origin;

/// Every name the corpus's registrations import comes by one path: a printed program that
/// imported one name by two (the runtime's `perfsyn_profiler_ipc::probe::Key` and the
/// corpus's re-export `perfsyn_corpus::probe::Key`) would be `E0252`, and nothing downstream
/// picks one of two any more.
#[test]
fn each_imported_name_has_one_path() {
    let schema = perfsyn_corpus::registry().schema();
    let mut paths: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for i in schema.types.iter().flat_map(|t| &t.imports) {
        let name = match i.rsplit_once(" as ") {
            Some((_, alias)) => alias.trim(),
            None => i.rsplit("::").next().unwrap_or(i),
        };
        let seen = paths.entry(name.to_string()).or_default();
        if !seen.contains(i) {
            seen.push(i.clone());
        }
    }
    let twice: Vec<_> = paths.iter().filter(|(_, p)| p.len() > 1).collect();
    assert!(
        twice.is_empty(),
        "names imported by several paths: {twice:?}"
    );
    assert_eq!(paths["Key"], ["perfsyn_corpus::probe::Key"]);
}

/// The corpus records each type's origin, which its imports cannot tell (every corpus type is
/// imported from `perfsyn_corpus`, planted or not): `perfsyn list` shows it.
#[test]
fn each_type_records_its_origin() {
    let schema = perfsyn_corpus::registry().schema();
    let unrecorded: Vec<&str> = schema
        .types
        .iter()
        .filter(|t| t.origin.is_none())
        .map(|t| t.name.as_str())
        .collect();
    assert!(unrecorded.is_empty(), "no origin recorded: {unrecorded:?}");
    let origin = |name: &str| schema.ty(name).expect(name).origin();
    assert_eq!(origin("Vec<Key>"), Origin::Std);
    assert_eq!(origin("BTreeMap<Key,u64>"), Origin::Std);
    assert_eq!(origin("String"), Origin::Std);
    assert_eq!(origin("TombstoneSet"), Origin::Planted);
    assert_eq!(origin("JavaHashSet"), Origin::Corpus);
    assert_eq!(origin("UniqueLog"), Origin::Corpus);
}
