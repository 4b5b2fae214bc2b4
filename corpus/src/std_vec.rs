//! `Vec<Key>` and slice algorithms, with the complexities `std`'s documentation states.

use perfsyn_profiler_ipc::probe::Key;
use perfsyn_profiler_ipc::register_type;

register_type! {
    /// A vector of probe keys; slice algorithms are registered on it too.
    pub fn vec_key() -> Vec<Key> {
        path: "Vec", imports: ["perfsyn_corpus::probe::Key"], version: None,
        size: [|v| v.len() as u64],
        ctors {
            new() => Vec::new();
            with_capacity(capacity: copy usize) => Vec::with_capacity(capacity);
            from_elem(elem: val Key, n: copy usize) as "vec![{elem}; {n}]" => vec![elem; n];
        }
        methods {
            // Vec::push: "Takes amortized O(1) time."
            push(mut self, value: val Key) ["O(1)"];
            // Vec::pop: "Takes O(1) time."
            pop(mut self) -> Option<Key> ["O(1)"];
            // Vec::insert: "Takes O(Vec::len) time."
            insert(mut self, index: copy usize, element: val Key) ["O(n)"];
            // Vec::remove: "Takes O(Vec::len) time." (worst case)
            remove(mut self, index: copy usize) -> Key ["O(n)"];
            // Vec::swap_remove: "Takes O(1) time."
            swap_remove(mut self, index: copy usize) -> Key ["O(1)"];
            // Vec::truncate: no complexity stated.
            truncate(mut self, len: copy usize);
            // Vec::clear: no complexity stated.
            clear(mut self);
            // Vec::dedup: "O(n)" is not stated in the docs of dedup itself; dedup_by is
            // documented as running in linear time ("This method operates in place, visiting
            // each element exactly once"), so O(n).
            dedup(mut self) ["O(n)"];
            // Vec::retain: "This method operates in place, visiting each element exactly once
            // in the original order" -> O(n).
            retain_even(mut self) ["O(n)"] as "{self}.retain(|k| k.get() % 2 == 0)"
                => |v| v.retain(|k| k.get() % 2 == 0);
            // Vec::extend_from_slice: no complexity stated.
            extend_from_slice(mut self, other: slice Key);
            // Vec::append: no complexity stated.
            append(mut self, other: mut Vec<Key>);
            // Vec::split_off: no complexity stated.
            split_off(mut self, at: copy usize) -> Vec<Key>;
            // Vec::len: no complexity stated.
            len(ref self) -> usize;
            // slice::contains: "This operation is O(n)."
            contains(ref self, x: ref Key) -> bool ["O(n)"];
            // slice::sort: "This sort is stable ... and O(n * log(n)) worst-case."
            sort(mut self) ["O(n log n)"];
            // slice::sort_unstable: "... and O(n * log(n)) worst-case."
            sort_unstable(mut self) ["O(n log n)"];
            // slice::binary_search: "O(log n)"? The docs say "If the slice is not sorted, the
            // returned result is unspecified"; sort::binary_search_by states no class, but
            // std's slice docs of binary_search_by describe it as a binary search: O(log n).
            binary_search(ref self, x: ref Key) ["O(log n)"];
            // slice::reverse: no complexity stated.
            reverse(mut self);
            // slice::rotate_left: "Takes linear (in self.len()) time."
            rotate_left_by(mut self, mid: copy usize) ["O(n)"]
                as "{ let len = {self}.len().max(1); {self}.rotate_left({mid} % len) }"
                => |v| { let len = v.len().max(1); v.rotate_left(mid % len) };
            // slice::rotate_right: "Takes linear (in self.len()) time."
            rotate_right_by(mut self, k: copy usize) ["O(n)"]
                as "{ let len = {self}.len().max(1); {self}.rotate_right({k} % len) }"
                => |v| { let len = v.len().max(1); v.rotate_right(k % len) };
            // slice::select_nth_unstable: "O(n) worst-case".
            select_nth(mut self, index: copy usize) ["O(n)"]
                as "if !{self}.is_empty() { let len = {self}.len(); {self}.select_nth_unstable({index} % len); }"
                => |v| if !v.is_empty() { let len = v.len(); v.select_nth_unstable(index % len); };
            // slice::sort_by_key: "O(m * n * log(n)) worst-case, where the key function is
            // O(m)"; the key here is O(1).
            sort_by_key_desc(mut self) ["O(n log n)"]
                as "{self}.sort_by_key(|k| std::cmp::Reverse(k.get()))"
                => |v| v.sort_by_key(|k| std::cmp::Reverse(k.get()));
            // slice::is_sorted: no complexity stated.
            is_sorted(ref self) -> bool;
            // slice::starts_with: no complexity stated.
            starts_with(ref self, needle: slice Key) -> bool;
            // slice::swap: no complexity stated.
            swap(mut self, a: copy usize, b: copy usize);
            // slice::fill: no complexity stated.
            fill(mut self, value: val Key);
            // Vec::resize: no complexity stated.
            resize(mut self, new_len: copy usize, value: val Key);
        }
        fields {}
    }
}
