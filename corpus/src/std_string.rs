//! `String`, with the complexities `std`'s documentation states. Indices are byte offsets;
//! out-of-range or non-boundary indices panic, which the interpreter reports as data.

use perfsyn_profiler_ipc::register_type;

register_type! {
    /// An owned UTF-8 string.
    pub fn string() -> String {
        path: "String", imports: [], version: None,
        size: [|s| s.len() as u64],
        ctors {
            new() => String::new();
            with_capacity(capacity: copy usize) => String::with_capacity(capacity);
            from_repeat(ch: copy char, n: copy usize) as "{ch}.to_string().repeat({n})"
                => ch.to_string().repeat(n);
        }
        methods {
            // String::push: no complexity stated.
            push(mut self, ch: copy char);
            // String::push_str: no complexity stated.
            push_str(mut self, string: str String);
            // String::insert: "Makes space for the insertion by copying all bytes of
            // &self[idx..] to new positions. Note that calling this in a loop can result in
            // quadratic behavior." (before Rust 1.83: "This is an O(n) operation as it
            // requires copying every element in the buffer.")
            insert(mut self, idx: copy usize, ch: copy char) ["O(n)"];
            // String::insert_str: "Makes space for the insertion by copying all bytes of
            // &self[idx..] to new positions" (before Rust 1.83: "This is an O(n) operation as
            // it requires copying every element in the buffer.")
            insert_str(mut self, idx: copy usize, string: str String) ["O(n)"];
            // String::remove: "Copies all bytes after the removed char to new positions.
            // Note that calling this in a loop can result in quadratic behavior." (before Rust
            // 1.83: "This is an O(n) operation, as it requires copying every element in the
            // buffer.")
            remove(mut self, idx: copy usize) -> char ["O(n)"];
            // String::pop: no complexity stated.
            pop(mut self);
            // String::truncate: no complexity stated.
            truncate(mut self, new_len: copy usize);
            // String::clear: no complexity stated.
            clear(mut self);
            // String::len: no complexity stated.
            len(ref self) -> usize;
            // str::contains: no complexity stated.
            contains(ref self, pat: str String) -> bool;
            // str::find: no complexity stated.
            find(ref self, pat: str String);
            // str::replace: no complexity stated.
            replace(ref self, from: str String, to: str String) -> String;
            // str::repeat: no complexity stated.
            repeat(ref self, n: copy usize) -> String;
            // String::retain: "This method operates in place, visiting each character
            // exactly once in the original order" -> O(n).
            retain_alphanumeric(mut self) ["O(n)"]
                as "{self}.retain(|c| c.is_alphanumeric())"
                => |s| s.retain(|c| c.is_alphanumeric());
            // str::make_ascii_uppercase: no complexity stated.
            make_ascii_uppercase(mut self);
            // String::split_off: no complexity stated.
            split_off(mut self, at: copy usize) -> String;
        }
        fields {}
    }
}
