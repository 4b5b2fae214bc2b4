//! Borrowing types reached through the methods that hand them out (see
//! [`handed_out`](super::handed_out)): a parsed document's nodes, an iterator's borrowed
//! items, a value in a `Result`, and how far the chains go.

use super::tests::{generate, skipped_file};

/// A document parsed from `&str` (registered as a namespace, see `borrowed_input`) hands out
/// `Node`s: one (`root`, `root_element`, `get_node`) or many (`descendants`); a node hands
/// out nodes again (`parent`, `children`), its attributes (one, or many as an iterator of
/// references), and a qualified name. roxmltree has this shape; init registered none of the
/// node's methods ("it borrows (a lifetime parameter)").
const DOC: &str = r#"
    pub struct Doc<'input> { text: &'input str, nodes: Vec<usize> }
    pub struct Error;
    #[derive(Clone, Copy)]
    pub struct Node<'a, 'input: 'a> { d: &'a Doc<'input>, id: usize }
    pub struct Attr<'a, 'input> { n: Node<'a, 'input> }
    pub struct Name<'a> { s: &'a str }
    pub struct Descendants<'a, 'input> { n: Node<'a, 'input> }
    pub struct Children<'a, 'input> { n: Node<'a, 'input> }
    pub struct Attrs<'a, 'input> { n: Node<'a, 'input> }
    impl<'input> Doc<'input> {
        pub fn parse(text: &'input str) -> Result<Doc<'input>, Error> { Err(Error) }
        pub fn root<'a>(&'a self) -> Node<'a, 'input> { Node { d: self, id: 0 } }
        pub fn root_element<'a>(&'a self) -> Node<'a, 'input> { Node { d: self, id: 1 } }
        pub fn get_node<'a>(&'a self, id: usize) -> Option<Node<'a, 'input>> { None }
        pub fn descendants(&self) -> Descendants<'_, 'input> { Descendants { n: self.root() } }
    }
    impl<'a, 'input: 'a> Node<'a, 'input> {
        /// Runs in O(1).
        pub fn text(&self) -> Option<&'a str> { None }
        pub fn is_root(&self) -> bool { true }
        pub fn parent(&self) -> Option<Self> { None }
        pub fn first_child(&self) -> Option<Node<'a, 'input>> { None }
        pub fn children(&self) -> Children<'a, 'input> { Children { n: *self } }
        pub fn descendants(&self) -> Descendants<'a, 'input> { Descendants { n: *self } }
        pub fn attribute_node(&self, at: usize) -> Option<Attr<'a, 'input>> { None }
        pub fn attributes(&self) -> Attrs<'a, 'input> { Attrs { n: *self } }
        pub fn tag_name(&self) -> Name<'a> { Name { s: "" } }
        pub fn lookup(&self, f: fn(u8) -> u8) -> bool { false }
    }
    impl<'a, 'input> Attr<'a, 'input> {
        pub fn value(&self) -> &'a str { "" }
        pub fn position(&self) -> usize { 0 }
        pub fn owner(&self) -> Owner<'a> { Owner { s: "" } }
    }
    pub struct Owner<'a> { s: &'a str }
    impl<'a> Owner<'a> { pub fn depth(&self) -> usize { 0 } }
    impl<'a> Name<'a> { pub fn local(&self) -> &'a str { self.s } }
    impl<'a, 'input> Iterator for Descendants<'a, 'input> {
        type Item = Node<'a, 'input>;
        fn next(&mut self) -> Option<Self::Item> { None }
    }
    impl<'a, 'input> Iterator for Children<'a, 'input> {
        type Item = Node<'a, 'input>;
        fn next(&mut self) -> Option<Self::Item> { None }
    }
    impl<'a, 'input> Iterator for Attrs<'a, 'input> {
        type Item = &'a Attr<'a, 'input>;
        fn next(&mut self) -> Option<Self::Item> { None }
    }
"#;

/// The line registering method `name` of the generated file.
fn line<'t>(text: &'t str, name: &str) -> Option<&'t str> {
    text.lines()
        .map(str::trim)
        .find(|l| l.starts_with(&format!("{name}(")))
}

#[test]
fn a_node_handed_out_by_a_parsed_document_has_its_methods_registered_as_chains() {
    let (_, text) = generate(&[("lib.rs", DOC)], &[]);
    // One node: the document's first method handing one out, then the node's method.
    assert_eq!(
        line(&text, "parse_root_text"),
        Some(
            r#"parse_root_text(ref self, text: str String) as "if let Some(mut b) = demo::Doc::parse(&{text}).into_iter().next() { std::hint::black_box(b.root().text()); }" => |_namespace| { if let Some(mut b) = demo::Doc::parse(text).into_iter().next() { std::hint::black_box(b.root().text()); } };"#
        ),
        "{text}"
    );
    // An iterator the node hands out is consumed.
    assert!(
        line(&text, "parse_root_children").is_some_and(|l| l.contains(
            "std::hint::black_box(b.root().children().map(std::hint::black_box).count());"
        )),
        "{text}"
    );
    // A method's own parameters follow the constructor's.
    assert!(
        line(&text, "parse_root_attribute_node").is_some_and(|l| l
            .starts_with("parse_root_attribute_node(ref self, text: str String, at: copy usize)")),
        "{text}"
    );
}

#[test]
fn a_method_handing_out_many_values_is_followed_by_a_call_on_each() {
    let (_, text) = generate(&[("lib.rs", DOC)], &[]);
    // `descendants()` hands out every node: the method is called on each, so the measured
    // cost grows with the document.
    assert!(
        line(&text, "parse_descendants_text").is_some_and(|l| l.contains(
            r#"as "if let Some(mut b) = demo::Doc::parse(&{text}).into_iter().next() { std::hint::black_box(for mut b1 in b.descendants() { std::hint::black_box(b1.text()); }); }""#
        )),
        "{text}"
    );
    // Items that are references allow `&self` methods: each attribute of the root.
    assert!(
        line(&text, "parse_root_attributes_value").is_some_and(|l| l
            .contains("for mut b1 in b.root().attributes() { std::hint::black_box(b1.value()); }")),
        "{text}"
    );
}

#[test]
fn a_chain_hands_out_at_most_three_times_and_never_a_type_already_on_its_route() {
    let (m, text) = generate(&[("lib.rs", DOC)], &[]);
    // Three hand-outs: the document, a node, the name.
    assert!(line(&text, "parse_root_tag_name_local").is_some(), "{text}");
    // A fourth (the attribute's owner) is not made.
    assert!(!text.contains("owner_depth("), "{text}");
    // A node hands out nodes, whose methods this route already reached.
    assert!(line(&text, "parse_root_parent_text").is_none(), "{text}");
    assert!(line(&text, "parse_root_children_text").is_none(), "{text}");
    // Past the first hand-out each type is reached once as one value and once as many:
    // by `root` and `descendants`, not again by `root_element` or `get_node`.
    assert!(line(&text, "parse_root_element_text").is_none(), "{text}");
    assert!(line(&text, "parse_get_node_text").is_none(), "{text}");
    // Node: text, is_root, parent, first_child, children, descendants, attribute_node,
    // attributes, tag_name (lookup skipped); Attr: value, position, owner; Name: local.
    let ns = m.types.iter().find(|t| t.path == "Doc").expect(&text);
    let reached: std::collections::BTreeSet<&str> = ns
        .methods
        .iter()
        .filter_map(|f| f.chain.as_ref())
        .filter(|c| c.calls.len() > 2)
        .map(|c| c.calls.last().unwrap().method.as_str())
        .collect();
    assert_eq!(
        reached.into_iter().collect::<Vec<_>>(),
        [
            "attribute_node",
            "attributes",
            "children",
            "descendants",
            "first_child",
            "is_root",
            "local",
            "owner",
            "parent",
            "position",
            "tag_name",
            "text",
            "value"
        ],
        "{text}"
    );
}

#[test]
fn a_method_a_chain_cannot_call_is_skipped_once_with_the_route_and_the_reason() {
    let (m, _) = generate(&[("lib.rs", DOC)], &[]);
    let file = skipped_file(&m);
    let lookups: Vec<String> = file
        .skipped
        .iter()
        .filter(|s| s.item == "Node::lookup")
        .map(|s| s.reason.to_string())
        .collect();
    assert_eq!(lookups.len(), 1, "{lookups:?}");
    assert!(
        lookups[0].starts_with("reached through `parse_root`, but parameter `f`"),
        "{lookups:?}"
    );
    // Its nine other methods are registered, with the document's four, the attribute's three and
    // the name's one: each counted once however many routes reach it.
    assert_eq!(m.chained, 4 + 9 + 3 + 1, "Doc, Node, Attr, Name");
}

/// An owned type's method handing out an iterator of borrowed items (`Graph::edges(a)`, items
/// `EdgeRef<'a>`), or a borrowed view in a `Result`: each item's methods are called on every
/// item, the view's in the `Ok`.
#[test]
fn an_owned_types_iterator_of_borrowed_items_and_fallible_view_reach_their_methods() {
    let lib = r#"
        pub struct Graph { e: Vec<(usize, usize, u64)> }
        pub struct EdgeRef<'a> { w: &'a u64 }
        pub struct Edges<'a> { g: &'a Graph }
        pub struct View<'a> { g: &'a mut Graph }
        pub struct Full;
        impl Graph {
            pub fn new() -> Self { Graph { e: Vec::new() } }
            pub fn add(&mut self, a: usize) { }
            pub fn edges(&self, a: usize) -> Edges<'_> { Edges { g: self } }
            pub fn view(&mut self) -> Result<View<'_>, Full> { Err(Full) }
        }
        impl<'a> EdgeRef<'a> { pub fn weight(&self) -> &'a u64 { self.w } }
        impl<'a> View<'a> { pub fn grow(&mut self, by: usize) { } }
        impl<'a> Iterator for Edges<'a> {
            type Item = EdgeRef<'a>;
            fn next(&mut self) -> Option<EdgeRef<'a>> { None }
        }
    "#;
    let (m, text) = generate(&[("lib.rs", lib)], &[]);
    assert!(
        line(&text, "edges_weight").is_some_and(|l| l.contains(
            r#"as "for mut b in {self}.edges({a}) { std::hint::black_box(b.weight()); }" => |r| { std::hint::black_box(for mut b in r.edges(a) { std::hint::black_box(b.weight()); }); };"#
        )),
        "{text}"
    );
    // `&mut self` on the owner, `&mut self` on the view in its `Ok`.
    assert!(
        line(&text, "view_grow").is_some_and(|l| l
            .starts_with("view_grow(mut self, by: copy usize)")
            && l.contains("if let Some(mut b) = {self}.view().into_iter().next() { std::hint::black_box(b.grow({by})); }")),
        "{text}"
    );
    // add, edges, view on Graph; weight and grow reached.
    assert_eq!(m.methods(), 5, "{text}");
    assert_eq!(m.unregistered_methods, 0, "{text}");
}

/// `Queue::split(&mut self) -> (Producer<'_>, Consumer<'_>)`: each half of the tuple is
/// handed out, its methods called on it, named by the field (both halves have a `len`).
#[test]
fn each_field_of_a_returned_tuple_is_handed_out() {
    let lib = r#"
        pub struct Queue { v: Vec<u64> }
        pub struct Producer<'a> { q: &'a Queue }
        pub struct Consumer<'a> { q: &'a Queue }
        impl Queue {
            pub fn new() -> Self { Queue { v: Vec::new() } }
            pub fn split(&mut self) -> (Producer<'_>, Consumer<'_>) { let q: &Queue = self; (Producer { q }, Consumer { q }) }
        }
        impl<'a> Producer<'a> {
            pub fn enqueue(&mut self, v: u64) -> bool { true }
            pub fn len(&self) -> usize { 0 }
        }
        impl<'a> Consumer<'a> {
            pub fn dequeue(&mut self) -> Option<u64> { None }
            pub fn len(&self) -> usize { 0 }
        }
    "#;
    let (_, text) = generate(&[("lib.rs", lib)], &[]);
    assert!(
        line(&text, "split_0_enqueue").is_some_and(|l| l.starts_with(
            r#"split_0_enqueue(mut self, v: copy u64) as "{ let mut b = {self}.split().0; std::hint::black_box(b.enqueue({v})); }""#
        )),
        "{text}"
    );
    assert!(line(&text, "split_1_dequeue").is_some(), "{text}");
    assert!(line(&text, "split_0_len").is_some(), "{text}");
    assert!(line(&text, "split_1_len").is_some(), "{text}");
}

/// A borrowing type whose methods chains reach says so in its skip line; one nothing hands
/// out, or without methods, still "borrows".
#[test]
fn a_borrowing_type_reached_through_hand_outs_says_how_many_of_its_methods_are() {
    let (m, _) = generate(&[("lib.rs", DOC)], &[]);
    let file = skipped_file(&m);
    let why = |item: &str| {
        file.skipped
            .iter()
            .find(|s| s.item == item)
            .map(|s| s.reason.to_string())
    };
    assert_eq!(
        why("Node").as_deref(),
        Some("it borrows (a lifetime parameter), so no program holds one: 9 of its 10 methods are registered through the methods handing it out (`perfsyn list` shows their calls)")
    );
    assert_eq!(
        why("Descendants").as_deref(),
        Some("it borrows (a lifetime parameter): values the program model builds are owned")
    );
}

/// Two modules each with an iterator named `Edges`, of different items: a method handing
/// one out reaches the items of the one nearest it.
#[test]
fn an_iterators_items_are_those_of_the_impl_nearest_the_method() {
    let lib = r#"
        pub mod a {
            pub struct Graph { e: Vec<u64> }
            pub struct EdgeRef<'x> { w: &'x u64 }
            pub struct Edges<'x> { g: &'x Graph }
            impl Graph {
                pub fn new() -> Self { Graph { e: Vec::new() } }
                pub fn edges(&self) -> Edges<'_> { Edges { g: self } }
            }
            impl<'x> EdgeRef<'x> { pub fn weight(&self) -> u64 { 0 } }
            impl<'x> Iterator for Edges<'x> {
                type Item = EdgeRef<'x>;
                fn next(&mut self) -> Option<EdgeRef<'x>> { None }
            }
        }
        pub mod b {
            pub struct Edges<'x> { v: &'x [u64] }
            impl<'x> Iterator for Edges<'x> {
                type Item = &'x u64;
                fn next(&mut self) -> Option<&'x u64> { None }
            }
        }
    "#;
    let (_, text) = generate(&[("lib.rs", lib)], &[]);
    assert!(line(&text, "edges_weight").is_some(), "{text}");
}

/// Two borrowing types of one name, one beside the owner and one a module deeper
/// (`graph::Neighbors` and `graph::stable_graph::Neighbors`, both as near by their common
/// path): the owner's method hands out the one beside it, whose methods are then counted.
#[test]
fn a_handed_out_type_is_the_one_beside_the_owner_not_one_a_module_deeper() {
    let lib = r#"
        pub mod graph {
            pub struct Graph { e: Vec<u64> }
            pub struct Neighbors<'a> { g: &'a Graph }
            impl Graph {
                pub fn new() -> Self { Graph { e: Vec::new() } }
                pub fn neighbors(&self) -> Neighbors<'_> { Neighbors { g: self } }
            }
            impl<'a> Neighbors<'a> { pub fn detach(&self) -> usize { 0 } }
            pub mod stable {
                pub struct Neighbors<'a> { v: &'a [u64] }
                impl<'a> Neighbors<'a> { pub fn detach(&self) -> usize { 0 } }
            }
        }
    "#;
    let (m, _) = generate(&[("lib.rs", lib)], &[]);
    let file = skipped_file(&m);
    let kind = |item: &str| {
        file.skipped
            .iter()
            .find(|s| s.item == item)
            .map(|s| s.reason.kind())
    };
    assert_eq!(
        kind("graph::Neighbors"),
        Some("types that borrow, reached through what hands them out")
    );
    assert_eq!(
        kind("graph::stable::Neighbors"),
        Some("types that borrow (a lifetime parameter)")
    );
}

/// `Option<&B>` hands out a reference, whose `&self` methods are called on it when present.
#[test]
fn an_option_of_a_reference_hands_out_what_it_refers_to() {
    let lib = r#"
        pub struct Doc { s: String }
        pub struct Storage<'a> { s: &'a str }
        impl Doc {
            pub fn new() -> Self { Doc { s: String::new() } }
            pub fn storage(&self) -> Option<&Storage<'_>> { None }
        }
        impl<'a> Storage<'a> {
            pub fn as_str(&self) -> &str { self.s }
            pub fn clear(&mut self) { }
        }
    "#;
    let (m, text) = generate(&[("lib.rs", lib)], &[]);
    assert!(
        line(&text, "storage_as_str").is_some_and(|l| l
            .contains("{self}.storage().map(move |mut b| { std::hint::black_box(b.as_str()); })")),
        "{text}"
    );
    let file = skipped_file(&m);
    assert!(
        file.skipped.iter().any(|s| s.item == "Storage::clear"
            && s.reason.to_string()
                == "reached through `storage`, whose result does not allow a `mut` receiver"),
        "{text}"
    );
}
