//! Borrowing types reached through the methods that hand them out, through the real binary:
//! a document parsed from `&str` hands out `Node`s, one (`root()`) or every one
//! (`nodes()`, an iterator); `perfsyn init` registers the node's methods as chains on the
//! document's namespace, `perfsyn list` shows them, and `explore` measures one as a single
//! call whose size is the text's: `depth()`, which walks up the parents, called on every
//! node of nested text costs the sum of the depths, O(n^2) in the text's length.

use std::path::Path;

mod common;
use common::{perfsyn_in, text};

fn dom_crate(dir: &Path) {
    std::fs::create_dir_all(dir.join("src")).unwrap();
    std::fs::create_dir_all(dir.join("tests")).unwrap();
    std::fs::write(
        dir.join("Cargo.toml"),
        "[package]\nname = \"tiny-dom\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("src/lib.rs"),
        r#"/// A document of nested elements: each `<` opens one inside the open one, `>` closes it.
pub struct Doc<'a> {
    text: &'a str,
    parents: Vec<usize>,
}

/// One element of a document.
#[derive(Clone, Copy)]
pub struct Node<'d, 'a> {
    doc: &'d Doc<'a>,
    id: usize,
}

/// Every element of a document, in order.
pub struct Nodes<'d, 'a> {
    doc: &'d Doc<'a>,
    next: usize,
}

impl<'a> Doc<'a> {
    /// Reads `text`.
    pub fn parse(text: &'a str) -> Doc<'a> {
        let mut parents = vec![usize::MAX];
        let mut open = 0;
        for c in text.chars() {
            match c {
                '<' => {
                    parents.push(open);
                    open = parents.len() - 1;
                }
                '>' if open != 0 => open = parents[open],
                _ => {}
            }
        }
        Doc { text, parents }
    }

    /// The document's root element.
    pub fn root(&self) -> Node<'_, 'a> {
        Node { doc: self, id: 0 }
    }

    /// Every element.
    pub fn nodes(&self) -> Nodes<'_, 'a> {
        Nodes { doc: self, next: 0 }
    }
}

impl<'d, 'a> Node<'d, 'a> {
    /// How many elements enclose this one.
    pub fn depth(&self) -> usize {
        let mut d = 0;
        let mut at = self.id;
        while self.doc.parents[at] != usize::MAX {
            at = self.doc.parents[at];
            d += 1;
        }
        d
    }

    /// Whether it is the root.
    pub fn is_root(&self) -> bool {
        self.id == 0
    }

    /// The text it was read from.
    pub fn source(&self) -> &'a str {
        self.doc.text
    }
}

impl<'d, 'a> Iterator for Nodes<'d, 'a> {
    type Item = Node<'d, 'a>;
    fn next(&mut self) -> Option<Node<'d, 'a>> {
        if self.next >= self.doc.parents.len() {
            return None;
        }
        self.next += 1;
        Some(Node { doc: self.doc, id: self.next - 1 })
    }
}
"#,
    )
    .unwrap();
    std::fs::write(
        dir.join("tests/nesting.rs"),
        "#[test]\nfn nested() {\n    let d = tiny_dom::Doc::parse(\"<a<b>>\");\n    assert_eq!(d.nodes().map(|n| n.depth()).sum::<usize>(), 3);\n}\n",
    )
    .unwrap();
}

#[test]
fn a_node_handed_out_by_a_parsed_document_is_listed_and_explored_through_it() {
    let _worker = common::one_crate_worker_at_a_time();
    let tmp = tempfile::tempdir().unwrap();
    let krate = tmp.path().join("tiny-dom");
    dom_crate(&krate);
    let init = perfsyn_in(&krate, &["init"]);
    let out = text(&init);
    assert!(init.status.success(), "{out}");
    // Doc's two methods and Node's three are registered, none rejected.
    let skipped = std::fs::read_to_string(krate.join("perfsyn/skipped.json")).unwrap();
    assert!(!skipped.contains("Node::"), "{skipped}");
    assert!(
        out.contains("5 methods registered of 5 public ones"),
        "{out}"
    );

    let list = perfsyn_in(&krate, &["list"]);
    let listed = text(&list);
    assert!(list.status.success(), "{listed}");
    for spec in [
        "Doc::parse_root_depth ",
        "Doc::parse_nodes_depth ",
        "Doc::parse_nodes_source ",
    ] {
        assert!(
            listed.lines().any(|l| l.starts_with(spec)),
            "{spec} listed: {listed}"
        );
    }
    // With the calls it makes, as measured.
    assert!(
        listed.contains(
            "    calls: for mut b in tiny_dom::Doc::parse(&{text}).nodes() { b.depth(); }\n"
        ),
        "{listed}"
    );

    let explore = perfsyn_in(
        &krate,
        &[
            "explore",
            "--method",
            "Doc::parse_nodes_depth",
            "--max-programs",
            "400",
            "--seed",
            "1",
            "--confirm-top",
            "0",
            // No trace build of the crate: the checks it serves change no verdict, and
            // nothing here reads them.
            "--no-repeated-traversals",
            "--no-repeated-computations",
        ],
    );
    let out = text(&explore);
    assert!(explore.status.success(), "{out}");
    // The chain as one call on the text, each node's depth walked.
    assert!(
        out.contains("for mut b in tiny_dom::Doc::parse(&text"),
        "{out}"
    );
    assert!(
        out.contains(".nodes() { std::hint::black_box(b.depth()); }"),
        "{out}"
    );
    // The text draws what the crate's test passes to `parse` (the callee of its argument,
    // see `harness/mine/callee.rs`), grown by nesting: the sum of the depths is quadratic.
    assert!(
        out.contains("Doc::parse_nodes_depth: undocumented (no class was documented (judge it with --expect CLASS); cost grows as O(n^2))"),
        "{out}"
    );
    assert!(out.contains("\"<\".repeat("), "{out}");
}
