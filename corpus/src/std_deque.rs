//! `VecDeque<Key>`, with the complexities `std`'s documentation states.
//!
//! Sources: the module docs of `std::collections::vec_deque` ("This queue has O(1) amortized
//! inserts and removals from both ends of the container. It also has O(1) indexing like a
//! vector."), the "Cost of Collection Operations" table of `std::collections`, and the method
//! docs. Where a documented bound depends on an index (`O(min(i, n-i))`), we register its
//! worst case in the receiver's size `n`.

use std::collections::VecDeque;

use perfsyn_profiler_ipc::probe::Key;
use perfsyn_profiler_ipc::register_type;

register_type! {
    /// A double-ended queue of probe keys (a growable ring buffer).
    pub fn vec_deque_key() -> VecDeque<Key> {
        path: "VecDeque",
        imports: ["std::collections::VecDeque", "perfsyn_corpus::probe::Key"],
        version: None,
        size: [|v| v.len() as u64],
        ctors {
            new() => VecDeque::new();
            with_capacity(capacity: copy usize) => VecDeque::with_capacity(capacity);
            // `From<Vec<T>>`: "This conversion is guaranteed to run in O(1) time".
            from_vec(vec: val Vec<Key>) as "VecDeque::<Key>::from({vec})" => VecDeque::from(vec);
        }
        methods {
            // vec_deque module: "O(1) amortized inserts and removals from both ends".
            push_back(mut self, value: val Key) ["O(1)"];
            // vec_deque module: "O(1) amortized inserts and removals from both ends".
            push_front(mut self, value: val Key) ["O(1)"];
            // vec_deque module: "O(1) amortized inserts and removals from both ends".
            pop_back(mut self) ["O(1)"];
            // vec_deque module: "O(1) amortized inserts and removals from both ends".
            pop_front(mut self) ["O(1)"];
            // collections table: VecDeque get(i) "O(1)"; module: "O(1) indexing like a vector".
            get(ref self, index: copy usize) ["O(1)"];
            // No complexity stated for front/back.
            front(ref self);
            // No complexity stated.
            back(ref self);
            // collections table: VecDeque insert(i) "O(min(i, n-i))*" -> O(n) worst case.
            insert(mut self, index: copy usize, value: val Key) ["O(n)"];
            // collections table: VecDeque remove(i) "O(min(i, n-i))" -> O(n) worst case.
            remove(mut self, index: copy usize) ["O(n)"];
            // VecDeque::swap_remove_front: "This does not preserve ordering, but is O(1)."
            swap_remove_front(mut self, index: copy usize) ["O(1)"];
            // VecDeque::swap_remove_back: "This does not preserve ordering, but is O(1)."
            swap_remove_back(mut self, index: copy usize) ["O(1)"];
            // VecDeque::contains: "This operation is O(n)."
            contains(ref self, x: ref Key) -> bool ["O(n)"];
            // No complexity stated.
            len(ref self) -> usize;
            // No complexity stated.
            truncate(mut self, len: copy usize);
            // No complexity stated.
            clear(mut self);
            // VecDeque::retain: "This method operates in place, visiting each element exactly
            // once in the original order" -> O(n).
            retain_even(mut self) ["O(n)"] as "{self}.retain(|k| k.get() % 2 == 0)"
                => |d| d.retain(|k| k.get() % 2 == 0);
            // VecDeque::rotate_left: "Takes O(min(n, len() - n)) time and no extra space."
            // -> O(n) worst case in the length (the amount is reduced modulo the length).
            rotate_left_by(mut self, mid: copy usize) ["O(n)"]
                as "{self}.rotate_left({mid} % {self}.len().max(1))"
                => |d| { let len = d.len().max(1); d.rotate_left(mid % len) };
            // VecDeque::rotate_right: "Takes O(min(n, len() - n)) time and no extra space."
            rotate_right_by(mut self, k: copy usize) ["O(n)"]
                as "{self}.rotate_right({k} % {self}.len().max(1))"
                => |d| { let len = d.len().max(1); d.rotate_right(k % len) };
            // collections table: VecDeque split_off(i) "O(min(i, n-i))" -> O(n) worst case.
            split_off(mut self, at: copy usize) -> VecDeque<Key> ["O(n)"];
            // collections table: append "O(m)*" in the size m of `other`; nothing is stated in
            // the receiver's size, so no expectation.
            append(mut self, other: mut VecDeque<Key>);
            // No complexity stated ("This method does not allocate").
            make_contiguous(mut self);
            // No complexity stated ("Binary searches this VecDeque for a given element").
            binary_search(ref self, x: ref Key);
            // No complexity stated.
            resize(mut self, new_len: copy usize, value: val Key);
            // `Extend`: no complexity stated.
            extend_from_slice(mut self, other: slice Key)
                as "{self}.extend({other}.iter().cloned())"
                => |d| d.extend(other.iter().cloned());
        }
        fields {}
    }
}
