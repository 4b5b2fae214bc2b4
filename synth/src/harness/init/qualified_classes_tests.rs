//! Classes read with their qualifiers and the sentences they came from (see `class_reader`),
//! each test named after the way docs write a class.

use super::*;

/// im's convention: the crate's doc defines the asterisk, each method writes `O(1)*`.
const MARKER_DEFINITION: &str = "*O(1)* means an operation runs in constant time. \
    *O(1)** means 'amortised O(1),' which means that an operation usually runs in constant \
    time but will occasionally be more expensive.";

#[test]
fn footnote_marker_defined_in_module_docs_means_amortized() {
    // The sentence is kept as written, marker and all.
    let notes = footnotes([MARKER_DEFINITION]);
    assert_eq!(notes.0.get(&'*'), Some(&Qualifier::Amortized), "{notes:?}");
    assert_eq!(notes.0.len(), 1, "{notes:?}");
    assert_eq!(
        read_class("Add an element to the back. Time: O(1)*", &notes),
        Some(Ok(("O(1) amortized".into(), "Time: O(1)*".into())))
    );
    // Without the definition the marker means nothing, and emphasis is no marker.
    assert_eq!(
        read_class("Time: O(1)*", &Footnotes::default()).map(|r| r.map(|(c, _)| c)),
        Some(Ok("O(1)".into()))
    );
    assert_eq!(
        read_class("Computes in **O(1)** time.", &notes).map(|r| r.map(|(c, _)| c)),
        Some(Ok("O(1)".into()))
    );
}

#[test]
fn footnote_marker_shown_in_code_is_defined_too() {
    let notes = footnotes(["Classes marked `†` are amortized."]);
    assert_eq!(notes.0.get(&'†'), Some(&Qualifier::Amortized));
    assert_eq!(
        read_class("Runs in O(log n)†.", &notes).map(|r| r.map(|(c, _)| c)),
        Some(Ok("O(log n) amortized".into()))
    );
}

#[test]
fn average_case_class_reads_as_expected() {
    let none = Footnotes::default();
    assert_eq!(
        read_class(
            "Returns a reference. Computes in **O(1)** time (average).",
            &none
        ),
        Some(Ok((
            "O(1) expected".into(),
            "Computes in **O(1)** time (average).".into()
        )))
    );
    assert_eq!(
        read_class("Lookup is O(1) on average.", &none).map(|r| r.map(|(c, _)| c)),
        Some(Ok("O(1) expected".into()))
    );
    // An amortized class keeps its own qualifier.
    assert_eq!(
        read_class("The expected cost is O(1). This is O(1) amortized.", &none)
            .map(|r| r.map(|(c, _)| c)),
        Some(Ok("O(1) amortized".into()))
    );
}

#[test]
fn class_in_another_quantity_is_kept_unread_with_its_sentence() {
    let none = Footnotes::default();
    assert_eq!(
        read_class(
            "Remove a node. Computes in **O(e')** time, where **e'** is the number of successors of `a`.",
            &none
        ),
        Some(Err(
            "Computes in **O(e')** time, where **e'** is the number of successors of `a`.".into()
        ))
    );
    assert!(matches!(
        read_class("* Time complexity: **O(k|E| log(k|E|))**.", &none),
        Some(Err(_))
    ));
    assert_eq!(read_class("Returns the length.", &none), None);
}

/// A class in several sizes of the input (a graph's `|V|` and `|E|`) is read with every
/// size as the input size (see `several_sizes`); petgraph's algorithms had no class.
#[test]
fn class_in_sizes_of_the_input_is_read_as_the_input_sizes_class() {
    let none = Footnotes::default();
    let class = |doc: &str| read_class(doc, &none).and_then(Result::ok).map(|(c, _)| c);
    assert_eq!(
        class("* Time complexity: **O(|V| + |E|)**."),
        Some("O(n)".into())
    );
    assert_eq!(
        class("* Time complexity: **O((|V|+|E|)log(|V|))**"),
        Some("O(n log n)".into())
    );
    assert_eq!(
        class("Computes in **O(log |V|)** time where V is the set of nodes"),
        Some("O(log n)".into())
    );
    // A bound on a sequence of calls is no class of one call.
    assert_eq!(
        class("Return `true` if the edge was added. If you add all edges in row-major order, the time complexity is **O(|V|·|E|)** for the whole operation."),
        None
    );
}

#[test]
fn column_table_names_the_methods_of_its_header() {
    let doc = "# Time complexity | [push]  | [pop]         | [peek]/[peek\\_mut] | \
        |---------|---------------|--------------------| \
        | *O*(1)~ | *O*(log(*n*)) | *O*(1)             | \
        The value for `push` is an expected cost.";
    let t = column_table_classes(doc);
    let class = |m: &str| t.get(m).map(|(c, _)| c.as_str());
    assert_eq!(class("push"), Some("O(1)"), "{t:?}");
    assert_eq!(class("pop"), Some("O(log n)"), "{t:?}");
    assert_eq!(class("peek"), Some("O(1)"), "{t:?}");
    assert_eq!(class("peek_mut"), Some("O(1)"), "{t:?}");
    assert_eq!(t.len(), 4, "{t:?}");
    assert_eq!(t["pop"].1, "| [pop] | *O*(log(*n*)) |");
}

#[test]
fn conversion_method_takes_the_class_prose_gives_its_target() {
    let doc = "Insertion and popping the largest element have *O*(log(*n*)) time complexity. \
        Checking the largest element is *O*(1). Converting a vector to a binary heap \
        can be done in-place, and has *O*(*n*) complexity. A binary heap can also be \
        converted to a sorted vector in-place, allowing it to be used for an *O*(*n* * log(*n*)) \
        in-place heapsort.";
    assert_eq!(
        conversion_class(doc, "into_sorted_vec").map(|(c, _)| c),
        Some("O(n log n)".into())
    );
    // "a vector to a binary heap" converts into the heap, not into a vector.
    assert_eq!(conversion_class(doc, "into_vec"), None);
    assert_eq!(conversion_class(doc, "push"), None);
}

/// Through init's model: a private module's doc (re-exported type) gives its conversion
/// method a class, a marker defined in the crate's doc qualifies another, and each class is
/// recorded with its sentence for `perfsyn list`.
#[test]
fn classes_from_module_docs_and_footnotes_reach_the_registrations_with_their_sentences() {
    let lib = "//! A crate.\n//!\n//! *O(1)** means amortised O(1).\nmod heap;\npub use crate::heap::Heap;\n";
    let heap = r#"
        //! A heap. It can be converted to a sorted vector, an O(n log n) heapsort.
        pub struct Heap { v: Vec<u64> }
        impl Heap {
            pub fn new() -> Self { Heap { v: Vec::new() } }
            /// Time: O(1)*
            pub fn push(&mut self, x: u64) { self.v.push(x) }
            /// Computes in O(1) time (average).
            pub fn peek(&self) -> Option<u64> { None }
            /// Takes O(e') where e' is the number of equal items.
            pub fn count_equal(&self, x: u64) -> usize { 0 }
            /// Sorted.
            pub fn into_sorted_vec(self) -> Vec<u64> { self.v }
        }
    "#;
    let (m, text) =
        crate::harness::init::tests::generate(&[("lib.rs", lib), ("heap.rs", heap)], &[]);
    assert!(
        text.contains("push(mut self, x: copy u64) [\"O(1) amortized\"]"),
        "{text}"
    );
    assert!(text.contains("[\"O(1) expected\"]"), "{text}");
    assert!(
        text.contains("into_sorted_vec(val self) [\"O(n log n)\"]"),
        "{text}"
    );
    let rec = |name: &str| {
        m.classes
            .iter()
            .find(|r| r.method == format!("Heap::{name}"))
            .cloned()
            .unwrap_or_else(|| panic!("{name}: {:?}", m.classes))
    };
    assert_eq!(rec("push").from, "its own doc");
    assert_eq!(rec("into_sorted_vec").from, "its module's doc");
    assert!(rec("into_sorted_vec").sentence.contains("sorted vector"));
    assert_eq!(rec("count_equal").class, None);
    assert!(rec("count_equal").sentence.contains("O(e')"));
    // Read back as `perfsyn list` reads it.
    let back = read_classes_json(&classes_json(&m.classes));
    assert_eq!(back["Heap::peek"].class.as_deref(), Some("O(1) expected"));
}
