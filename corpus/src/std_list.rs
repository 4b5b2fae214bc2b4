//! `LinkedList<Key>`, with the complexities `std`'s documentation states (every method doc
//! of `LinkedList` says "This operation should compute in O(..) time").

use std::collections::LinkedList;

use perfsyn_profiler_ipc::probe::Key;
use perfsyn_profiler_ipc::register_type;

register_type! {
    /// A doubly-linked list of probe keys.
    pub fn linked_list_key() -> LinkedList<Key> {
        path: "LinkedList",
        imports: ["std::collections::LinkedList", "perfsyn_corpus::probe::Key"],
        version: None,
        size: [|l| l.len() as u64],
        ctors {
            new() => LinkedList::new();
            from_vec(vec: val Vec<Key>) as "{vec}.into_iter().collect::<LinkedList<Key>>()"
                => vec.into_iter().collect();
        }
        methods {
            // LinkedList::push_front: "This operation should compute in O(1) time."
            push_front(mut self, elt: val Key) ["O(1)"];
            // LinkedList::push_back: "This operation should compute in O(1) time."
            push_back(mut self, elt: val Key) ["O(1)"];
            // LinkedList::pop_front: "This operation should compute in O(1) time."
            pop_front(mut self) ["O(1)"];
            // LinkedList::pop_back: "This operation should compute in O(1) time."
            pop_back(mut self) ["O(1)"];
            // LinkedList::front: "This operation should compute in O(1) time."
            front(ref self) ["O(1)"];
            // LinkedList::back: "This operation should compute in O(1) time."
            back(ref self) ["O(1)"];
            // LinkedList::len: "This operation should compute in O(1) time."
            len(ref self) -> usize ["O(1)"];
            // LinkedList::contains: "This operation should compute linearly in O(n) time."
            contains(ref self, x: ref Key) -> bool ["O(n)"];
            // LinkedList::clear: "This operation should compute in O(n) time."
            clear(mut self) ["O(n)"];
            // LinkedList::append: "This operation should compute in O(1) time and O(1)
            // memory."
            append(mut self, other: mut LinkedList<Key>) ["O(1)"];
            // LinkedList::split_off: "This operation should compute in O(n) time."
            split_off(mut self, at: copy usize) -> LinkedList<Key> ["O(n)"];
        }
        fields {}
    }
}
