//! `BinaryHeap<Key>`, with the complexities `std`'s documentation states.

use std::collections::BinaryHeap;

use perfsyn_profiler_ipc::probe::Key;
use perfsyn_profiler_ipc::register_type;

register_type! {
    /// A max-heap of probe keys.
    pub fn binary_heap_key() -> BinaryHeap<Key> {
        path: "BinaryHeap",
        imports: ["std::collections::BinaryHeap", "perfsyn_corpus::probe::Key"],
        version: None,
        size: [|h| h.len() as u64],
        ctors {
            new() => BinaryHeap::new();
            with_capacity(capacity: copy usize) => BinaryHeap::with_capacity(capacity);
            // `From<Vec<T>>`: "This conversion happens in-place, and has O(n) time complexity."
            from_vec(vec: val Vec<Key>) as "BinaryHeap::<Key>::from({vec})"
                => BinaryHeap::from(vec);
        }
        methods {
            // BinaryHeap::push: "The expected cost of push, averaged over every possible
            // ordering of the elements being pushed, and over a sufficiently large number of
            // pushes, is O(1)." (Ascending input degrades it to amortized O(log(n)).)
            push(mut self, item: val Key) ["O(1)"];
            // BinaryHeap::pop: "The worst case cost of pop on a heap containing n elements is
            // O(log(n))."
            pop(mut self) ["O(log n)"];
            // BinaryHeap::peek: "Cost is O(1) in the worst case."
            peek(ref self) ["O(1)"];
            // No complexity stated.
            len(ref self) -> usize;
            // No complexity stated.
            clear(mut self);
            // BinaryHeap::append: no complexity stated.
            append(mut self, other: mut BinaryHeap<Key>);
            // BinaryHeap::retain: no complexity stated.
            retain_even(mut self) as "{self}.retain(|k| k.get() % 2 == 0)"
                => |h| h.retain(|k| k.get() % 2 == 0);
            // BinaryHeap::into_sorted_vec: no complexity stated.
            into_sorted_vec(val self) -> Vec<Key>;
            // BinaryHeap::into_vec: no complexity stated.
            into_vec(val self) -> Vec<Key>;
        }
        fields {}
    }
}
