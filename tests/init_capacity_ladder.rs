//! A const generic capacity through the real binary: `perfsyn init` registers a
//! fixed-capacity type at its capacity ladder (16, 128, 1024 and the main 8192), and explore
//! measures a class over the ladder where the capacity is the input size (a constructor that
//! fills the container, arrayvec's `ArrayString::zero_filled`), and starts on a rung where
//! the main capacity cannot be built (heapless's `MpMcQueue<T, N>` asserts `N < 255`).

use std::path::Path;

mod common;
use common::{perfsyn_in, text};

fn capacity_crate(dir: &Path) {
    std::fs::create_dir_all(dir.join("src")).unwrap();
    std::fs::write(
        dir.join("Cargo.toml"),
        "[package]\nname = \"capacity-crate\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("src/lib.rs"),
        r#"
/// Bytes in a buffer of a fixed capacity, built empty or full.
pub struct Bytes<const CAP: usize> { buf: [u8; CAP], len: usize }

impl<const CAP: usize> Bytes<CAP> {
    pub fn new() -> Self { Bytes { buf: [0; CAP], len: 0 } }
    pub fn zero_filled() -> Self { Bytes { buf: [0; CAP], len: CAP } }
    pub fn len(&self) -> usize { self.len }
    /// Counts the zero bytes.
    pub fn zeros(&self) -> usize { self.buf[..self.len].iter().filter(|b| **b == 0).count() }
}

/// A queue indexed by a `u8`: its capacity must be below 255.
pub struct Small<const N: usize> { slots: [std::cell::Cell<u64>; N], head: std::cell::Cell<u8> }

impl<const N: usize> Small<N> {
    pub fn new() -> Self {
        assert!(N < u8::MAX as usize, "the capacity must fit a u8 index");
        Small { slots: std::array::from_fn(|_| std::cell::Cell::new(0)), head: std::cell::Cell::new(0) }
    }
    pub fn put(&self, x: u64) -> bool {
        let h = self.head.get();
        if (h as usize) < N {
            self.slots[h as usize].set(x);
            self.head.set(h + 1);
            true
        } else {
            false
        }
    }
}
"#,
    )
    .unwrap();
}

/// The run file's report of `explore --method spec` in `krate`.
fn explore(krate: &Path, spec: &str, out: &Path) -> serde_json::Value {
    let run = perfsyn_in(
        krate,
        &[
            "explore",
            "--method",
            spec,
            "--max-programs",
            "300",
            "--seed",
            "1",
            "--confirm-top",
            "0",
            "--no-repeated-traversals",
            "--no-repeated-computations",
            "--out",
            out.to_str().unwrap(),
        ],
    );
    assert!(run.status.success(), "{spec}: {}", text(&run));
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out).unwrap()).unwrap();
    doc["report"].clone()
}

#[test]
fn a_fixed_capacity_type_is_measured_over_its_capacity_ladder() {
    let _worker = common::one_crate_worker_at_a_time();
    let tmp = tempfile::tempdir().unwrap();
    let krate = tmp.path().join("capacity-crate");
    capacity_crate(&krate);
    let init = perfsyn_in(&krate, &["init"]);
    assert!(init.status.success(), "{}", text(&init));
    let lib = std::fs::read_to_string(krate.join("perfsyn/src/lib.rs")).unwrap();
    assert!(lib.contains("pub fn bytes_at_128() -> Bytes<128>"), "{lib}");
    // Only the main registration is API: the rungs are not listed.
    let list = text(&perfsyn_in(&krate, &["list"]));
    assert!(!list.contains("Bytes<16>"), "{list}");
    // The size follows only the capacity: the ladder gives the sizes and the class.
    let zeros = explore(&krate, "Bytes::zeros", &tmp.path().join("zeros.json"));
    assert_eq!(zeros["points_from"], "capacity-ladder", "{zeros}");
    assert_eq!(zeros["empirical"], "O(n)", "{zeros}");
    // The main capacity panics in `new()`: the largest rung that builds is explored.
    let put = explore(&krate, "Small::put", &tmp.path().join("put.json"));
    assert_ne!(put["verdict"], "no-initial-program", "{put}");
    assert_eq!(put["type"], "Small<128>", "{put}");
}

/// A crate that checks its capacity when it compiles (`const ENOUGH: () = assert!(N >= 32)`):
/// the rung at 16 fails the build with an error in the crate's code, which names no
/// registration to drop. init builds the harness again at the main capacity only instead of
/// failing as a whole.
#[test]
fn a_capacity_checked_when_the_crate_compiles_leaves_the_main_capacity_registered() {
    let _worker = common::one_crate_worker_at_a_time();
    let tmp = tempfile::tempdir().unwrap();
    let krate = tmp.path().join("checked-capacity");
    std::fs::create_dir_all(krate.join("src")).unwrap();
    std::fs::write(
        krate.join("Cargo.toml"),
        "[package]\nname = \"checked-capacity\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
    )
    .unwrap();
    std::fs::write(
        krate.join("src/lib.rs"),
        r#"
pub struct Big<const N: usize> { xs: [u64; N], len: usize }

impl<const N: usize> Big<N> {
    const ENOUGH: () = assert!(N >= 32, "capacity below 32");
    pub fn new() -> Self { let () = Self::ENOUGH; Big { xs: [0; N], len: 0 } }
    pub fn len(&self) -> usize { self.len }
    pub fn push(&mut self, x: u64) { if self.len < N { self.xs[self.len] = x; self.len += 1 } }
}
"#,
    )
    .unwrap();
    let init = perfsyn_in(&krate, &["init"]);
    let out = text(&init);
    assert!(init.status.success(), "{out}");
    assert!(
        out.contains("building again at the main capacity only"),
        "{out}"
    );
    assert!(
        out.contains("2 methods registered of 2 public ones"),
        "{out}"
    );
    let lib = std::fs::read_to_string(krate.join("perfsyn/src/lib.rs")).unwrap();
    assert!(lib.contains("pub fn big() -> Big<8192>"), "{lib}");
    assert!(!lib.contains("_at_16"), "{lib}");
}
