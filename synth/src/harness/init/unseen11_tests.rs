//! Init on API shapes of registry crates tried in the session (min-max-heap, ...), each as a
//! small synthetic crate.

use super::tests::generate;

/// min-max-heap 1.3's `push` says "Amortized *O*(log *n*); worst-case *O*(*n*) when the
/// backing vector needs to grow.": init read the conditional worst case ("O(n) when ...") as
/// a best case and registered `push` with no class. A class labelled worst case in a doc that
/// states an amortized one is the single call's spike the amortized class covers.
#[test]
fn a_worst_case_beside_an_amortized_class_is_the_spike() {
    let lib = r#"
        pub struct Heap<T>(Vec<T>);
        impl<T: Ord> Heap<T> {
            pub fn new() -> Self { Heap(Vec::new()) }
            /// Adds an element to the heap.
            ///
            /// Amortized *O*(log *n*); worst-case *O*(*n*) when the backing vector needs to
            /// grow.
            pub fn push(&mut self, element: T) { self.0.push(element) }
        }
    "#;
    let (m, text) = generate(&[("lib.rs", lib)], &[]);
    let heap = m.types.iter().find(|t| t.path == "Heap").expect(&text);
    assert!(heap.methods.iter().any(|f| f.name == "push"), "{text}");
    let line = text.lines().find(|l| l.contains("push(")).unwrap();
    assert!(line.contains(r#"["O(log n) amortized"]"#), "{line}");
}
