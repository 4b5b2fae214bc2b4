//! Printed programs compile without warnings and compute what the interpreter computes.
//!
//! Builds programs over several registered types by hand, runs each in the interpreter and
//! records the final `{:?}` of its main collection, prints each as a `#[test]` of a throwaway
//! crate (reused across runs, so it builds incrementally), runs that crate's tests with
//! `RUSTFLAGS="-D warnings"`, and compares what each printed test prints with the
//! interpreter's result.

use std::any::Any;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet, LinkedList, VecDeque};
use std::fmt::Debug;
use std::path::{Path, PathBuf};
use std::process::Command;

use perfsyn_corpus::groups::NewOrderedMap;
use perfsyn_corpus::probe::{FixedState, Key};
use perfsyn_corpus::registry;
use perfsyn_profiler_ipc::interp::Interpreter;
use perfsyn_profiler_ipc::print::{name_prefix, print};
use perfsyn_profiler_ipc::schema::TypeSchema;
use perfsyn_profiler_ipc::{
    ApiSchema, IntTy, Literal, Op, Outcome, Pattern, Program, Stmt, TextShape, Var,
};

/// Builds a program statement by statement; `repeat` nests a loop body.
#[derive(Default)]
struct Builder {
    p: Program,
    /// Open statement lists: the top level, then the body of an open `repeat`.
    open: Vec<Vec<Stmt>>,
}

impl Builder {
    fn new() -> Builder {
        Builder {
            p: Program::default(),
            open: vec![vec![]],
        }
    }

    fn push(&mut self, s: Stmt) {
        self.open.last_mut().expect("open list").push(s);
    }

    fn lit(&mut self, value: Literal) -> Var {
        let out = self.p.fresh(value.type_name());
        self.push(Stmt::Lit { out, value });
        out
    }

    fn int(&mut self, ty: IntTy, value: i64) -> Var {
        self.lit(Literal::Int { ty, value })
    }

    fn index(&mut self, ty: IntTy, pattern: Pattern) -> Var {
        self.lit(Literal::Index { ty, pattern })
    }

    fn ctor(&mut self, ty: &str, ctor: &str, args: &[Var]) -> Var {
        let out = self.p.fresh(ty);
        self.push(Stmt::Ctor {
            out,
            ty: ty.into(),
            ctor: ctor.into(),
            args: args.to_vec(),
        });
        out
    }

    /// `Key::new(<pattern of the loop index>)`.
    fn key_at(&mut self, pattern: Pattern) -> Var {
        let x = self.index(IntTy::U64, pattern);
        self.ctor("Key", "new", &[x])
    }

    /// `Key::new(value)`.
    fn key(&mut self, value: i64) -> Var {
        let x = self.int(IntTy::U64, value);
        self.ctor("Key", "new", &[x])
    }

    fn call(&mut self, ty: &str, method: &str, recv: Var, args: &[Var]) {
        self.push(Stmt::Call {
            out: None,
            ty: ty.into(),
            method: method.into(),
            recv,
            args: args.to_vec(),
            under_test: false,
        });
    }

    fn call_kept(&mut self, ty: &str, method: &str, recv: Var, args: &[Var], ret: &str) -> Var {
        let out = self.p.fresh(ret);
        self.push(Stmt::Call {
            out: Some(out),
            ty: ty.into(),
            method: method.into(),
            recv,
            args: args.to_vec(),
            under_test: false,
        });
        out
    }

    fn op(&mut self, op: Op, arg: Var) -> Var {
        let ty = self.p.ty(arg).to_string();
        let out = self.p.fresh(&ty);
        self.push(Stmt::Op { out, op, arg });
        out
    }

    fn repeat(&mut self, n: u32, body: impl FnOnce(&mut Builder)) {
        self.open.push(vec![]);
        body(self);
        let body = self.open.pop().expect("loop body");
        self.push(Stmt::Repeat { n, body });
    }

    fn finish(mut self) -> Program {
        assert_eq!(self.open.len(), 1, "unclosed repeat");
        self.p.body = self.open.pop().expect("top level");
        self.p
    }
}

/// One program and how to render its main variable.
struct Case {
    name: &'static str,
    program: Program,
    main: Var,
    debug: fn(&dyn Any) -> Option<String>,
}

fn debug_of<T: Debug + 'static>(v: &dyn Any) -> Option<String> {
    v.downcast_ref::<T>().map(|x| format!("{x:?}"))
}

const VEC: &str = "Vec<Key>";
const DEQUE: &str = "VecDeque<Key>";
const HMAP: &str = "HashMap<Key,u64,FixedState>";
const HSET: &str = "HashSet<Key,FixedState>";
const BMAP: &str = "BTreeMap<Key,u64>";
const BSET: &str = "BTreeSet<Key>";
const HEAP: &str = "BinaryHeap<Key>";
const LIST: &str = "LinkedList<Key>";

fn cases() -> Vec<Case> {
    let mut out = Vec::new();

    // Vec: a scattered loop-built input, sorted, deduplicated, filtered, then an in-range swap.
    let mut b = Builder::new();
    let v = b.ctor(VEC, "new", &[]);
    b.repeat(40, |b| {
        let k = b.key_at(Pattern::Hash(7));
        b.call(VEC, "push", v, &[k]);
        let d = b.key_at(Pattern::ModK(5));
        b.call(VEC, "push", v, &[d]);
    });
    b.call(VEC, "sort", v, &[]);
    b.call(VEC, "dedup", v, &[]);
    b.call(VEC, "retain_even", v, &[]);
    let i = b.int(IntTy::Usize, 0);
    let j = b.int(IntTy::Usize, 1);
    b.call(VEC, "swap", v, &[i, j]);
    let r = b.int(IntTy::Usize, 3);
    b.call(VEC, "rotate_left_by", v, &[r]);
    let found = b.key(4);
    let _ = b.call_kept(VEC, "contains", v, &[found], "bool");
    out.push(Case {
        name: "vec_sort_dedup_retain",
        program: b.finish(),
        main: v,
        debug: debug_of::<Vec<Key>>,
    });

    // Vec resized to lengths drawn from bounded hashes (a bound that is a power of two, one
    // that is not, and 1, a constant), with keys from one.
    let mut b = Builder::new();
    let v = b.ctor(VEC, "new", &[]);
    b.repeat(9, |b| {
        let n = b.index(
            IntTy::Usize,
            Pattern::HashBelow {
                seed: 1,
                bound: 1000,
            },
        );
        let k = b.key_at(Pattern::HashBelow {
            seed: 2,
            bound: 1024,
        });
        b.call(VEC, "resize", v, &[n, k]);
        let z = b.key_at(Pattern::HashBelow { seed: 3, bound: 1 });
        b.call(VEC, "push", v, &[z]);
    });
    out.push(Case {
        name: "vec_resized_to_bounded_hashes",
        program: b.finish(),
        main: v,
        debug: debug_of::<Vec<Key>>,
    });

    // VecDeque from both ends, rotated, with an insertion and removals.
    let mut b = Builder::new();
    let cap = b.int(IntTy::Usize, 4);
    let d = b.ctor(DEQUE, "with_capacity", &[cap]);
    b.repeat(12, |b| {
        let k = b.key_at(Pattern::I);
        b.call(DEQUE, "push_front", d, &[k]);
        let k = b.key_at(Pattern::NMinusI);
        b.call(DEQUE, "push_back", d, &[k]);
    });
    let r = b.int(IntTy::Usize, 5);
    b.call(DEQUE, "rotate_left_by", d, &[r]);
    let two = b.int(IntTy::Usize, 2);
    let k = b.key(99);
    b.call(DEQUE, "insert", d, &[two, k]);
    b.call(DEQUE, "pop_back", d, &[]);
    b.call(DEQUE, "swap_remove_front", d, &[two]);
    b.call(DEQUE, "make_contiguous", d, &[]);
    out.push(Case {
        name: "deque_both_ends",
        program: b.finish(),
        main: d,
        debug: debug_of::<VecDeque<Key>>,
    });

    // HashMap counting duplicates, then removals and a lookup.
    let mut b = Builder::new();
    let m = b.ctor(HMAP, "default", &[]);
    b.repeat(50, |b| {
        let k = b.key_at(Pattern::ModK(9));
        b.call(HMAP, "increment", m, &[k]);
    });
    let k = b.key(3);
    b.call(HMAP, "remove", m, &[k]);
    let k2 = b.key(4);
    let c = b.int(IntTy::U64, 100);
    let c = b.op(Op::Double, c);
    b.call(HMAP, "insert", m, &[k2, c]);
    let k5 = b.key(5);
    b.call(HMAP, "get", m, &[k5]);
    let _ = b.call_kept(HMAP, "sum_values", m, &[], "u64");
    out.push(Case {
        name: "hash_map_counts",
        program: b.finish(),
        main: m,
        debug: debug_of::<HashMap<Key, u64, FixedState>>,
    });

    // HashSet built from a Vec, compared with a second set.
    let mut b = Builder::new();
    let v = b.ctor(VEC, "new", &[]);
    b.repeat(20, |b| {
        let k = b.key_at(Pattern::Hash(3));
        b.call(VEC, "push", v, &[k]);
    });
    let s = b.ctor(HSET, "from_vec", &[v]);
    let cap = b.int(IntTy::Usize, 8);
    let t = b.ctor(HSET, "with_capacity", &[cap]);
    b.repeat(5, |b| {
        let k = b.key_at(Pattern::I);
        let _ = b.call_kept(HSET, "insert", t, &[k], "bool");
    });
    let _ = b.call_kept(HSET, "is_disjoint", s, &[t], "bool");
    b.call(HSET, "retain_even", s, &[]);
    let k = b.key(0);
    let _ = b.call_kept(HSET, "insert", s, &[k], "bool");
    out.push(Case {
        name: "hash_set_from_vec",
        program: b.finish(),
        main: s,
        debug: debug_of::<HashSet<Key, FixedState>>,
    });

    // BTreeMap with a descending loop, a removal, a split and a range count.
    let mut b = Builder::new();
    let m = b.ctor(BMAP, "new", &[]);
    b.repeat(30, |b| {
        let k = b.key_at(Pattern::NMinusI);
        let x = b.index(IntTy::U64, Pattern::ModK(4));
        b.call(BMAP, "insert", m, &[k, x]);
    });
    let k = b.key(7);
    b.call(BMAP, "remove", m, &[k]);
    let at = b.key(20);
    let _ = b.call_kept(BMAP, "split_off", m, &[at], BMAP);
    let lo = b.key(2);
    let hi = b.key(9);
    let _ = b.call_kept(BMAP, "count_range", m, &[lo, hi], "usize");
    b.call(BMAP, "range_from", m, &[lo]);
    b.call(BMAP, "pop_first", m, &[]);
    out.push(Case {
        name: "btree_map_split",
        program: b.finish(),
        main: m,
        debug: debug_of::<BTreeMap<Key, u64>>,
    });

    // BTreeSet appended to from another set.
    let mut b = Builder::new();
    let s = b.ctor(BSET, "new", &[]);
    let t = b.ctor(BSET, "new", &[]);
    b.repeat(16, |b| {
        let k = b.key_at(Pattern::ModK(6));
        let _ = b.call_kept(BSET, "insert", s, &[k], "bool");
        let k = b.key_at(Pattern::Hash(11));
        let _ = b.call_kept(BSET, "insert", t, &[k], "bool");
    });
    b.call(BSET, "append", s, &[t]);
    b.call(BSET, "pop_last", s, &[]);
    let k = b.key(3);
    let _ = b.call_kept(BSET, "remove", s, &[k], "bool");
    out.push(Case {
        name: "btree_set_append",
        program: b.finish(),
        main: s,
        debug: debug_of::<BTreeSet<Key>>,
    });

    // String editing: pushes in a loop, inserts at the front, replace, retain.
    let mut b = Builder::new();
    let s = b.ctor("String", "new", &[]);
    b.repeat(6, |b| {
        let c = b.lit(Literal::Char('a'));
        b.call("String", "push", s, &[c]);
        let t = b.lit(Literal::Str("b-".into()));
        b.call("String", "push_str", s, &[t]);
    });
    // Texts that grow, one per shape, printed as `"<a ".repeat(n)` and the like.
    for shape in TextShape::ALL {
        let t = b.lit(Literal::Text {
            shape,
            a: "<!".into(),
            b: "-é".into(),
            n: 3,
        });
        b.call("String", "push_str", s, &[t]);
    }
    // A mined value with its spans repeated in place, printed as `format!`.
    for shape in [
        TextShape::Span { start: 4, end: 10 },
        TextShape::SpanPair {
            open: 0,
            open_end: 4,
            close: 10,
            close_end: 15,
        },
    ] {
        let t = b.lit(Literal::Text {
            shape,
            a: "<é><i/>{}</é>".into(),
            b: String::new(),
            n: 3,
        });
        b.call("String", "push_str", s, &[t]);
    }
    let zero = b.int(IntTy::Usize, 0);
    let x = b.lit(Literal::Str("x y".into()));
    let x = b.op(Op::Append, x);
    b.call("String", "insert_str", s, &[zero, x]);
    let c = b.lit(Literal::Char('z'));
    b.call("String", "insert", s, &[zero, c]);
    let from = b.lit(Literal::Str("ab".into()));
    let to = b.lit(Literal::Str("Q".into()));
    let _ = b.call_kept("String", "replace", s, &[from, to], "String");
    b.call("String", "retain_alphanumeric", s, &[]);
    b.call("String", "make_ascii_uppercase", s, &[]);
    let one = b.int(IntTy::Usize, 1);
    let _ = b.call_kept("String", "remove", s, &[one], "char");
    out.push(Case {
        name: "string_edits",
        program: b.finish(),
        main: s,
        debug: debug_of::<String>,
    });

    // BinaryHeap from a Vec, pushes, pops; LinkedList split and appended.
    let mut b = Builder::new();
    let v = b.ctor(VEC, "new", &[]);
    b.repeat(10, |b| {
        let k = b.key_at(Pattern::Hash(1));
        b.call(VEC, "push", v, &[k]);
    });
    let h = b.ctor(HEAP, "from_vec", &[v]);
    b.repeat(10, |b| {
        let k = b.key_at(Pattern::I);
        b.call(HEAP, "push", h, &[k]);
    });
    b.call(HEAP, "pop", h, &[]);
    b.call(HEAP, "pop", h, &[]);
    b.call(HEAP, "peek", h, &[]);
    let sorted = b.call_kept(HEAP, "into_sorted_vec", h, &[], VEC);
    b.call(VEC, "reverse", sorted, &[]);
    out.push(Case {
        name: "heap_into_sorted_vec",
        program: b.finish(),
        main: sorted,
        debug: debug_of::<Vec<Key>>,
    });

    let mut b = Builder::new();
    let l = b.ctor(LIST, "new", &[]);
    b.repeat(8, |b| {
        let k = b.key_at(Pattern::I);
        b.call(LIST, "push_back", l, &[k]);
        let k = b.key_at(Pattern::Const(42));
        b.call(LIST, "push_front", l, &[k]);
    });
    let at = b.int(IntTy::Usize, 5);
    let mut tail = b.call_kept(LIST, "split_off", l, &[at], LIST);
    b.call(LIST, "pop_front", tail, &[]);
    b.call(LIST, "append", l, &[tail]);
    tail = b.ctor(LIST, "new", &[]);
    b.call(LIST, "append", tail, &[l]);
    out.push(Case {
        name: "linked_list_split_append",
        program: b.finish(),
        main: tail,
        debug: debug_of::<LinkedList<Key>>,
    });

    // The planted and grouped types print and compile too.
    let mut b = Builder::new();
    let m = b.ctor("NewOrderedMap", "new", &[]);
    let st = b.ctor("NewMinStack", "new", &[]);
    let dist = b.ctor("EnumeratedDistribution", "new", &[]);
    b.repeat(12, |b| {
        let k = b.key_at(Pattern::ModK(5));
        let x = b.index(IntTy::U64, Pattern::I);
        b.call("NewOrderedMap", "insert", m, &[k, x]);
        let k = b.key_at(Pattern::Hash(2));
        b.call("NewMinStack", "push", st, &[k]);
        let y = b.index(IntTy::I64, Pattern::ModK(3));
        b.call("EnumeratedDistribution", "add", dist, &[y]);
    });
    let k = b.key(2);
    b.call("NewOrderedMap", "remove", m, &[k]);
    b.call("NewMinStack", "pop", st, &[]);
    b.call("NewMinStack", "min", st, &[]);
    let y = b.int(IntTy::I64, 1);
    b.call("EnumeratedDistribution", "probability", dist, &[y]);
    out.push(Case {
        name: "planted_and_groups",
        program: b.finish(),
        main: m,
        debug: debug_of::<NewOrderedMap>,
    });
    out
}

/// Types registered for sandbox tests only (`hostile`), not part of the searchable corpus.
fn sandbox_only(t: &TypeSchema) -> bool {
    t.imports.iter().any(|i| i.contains("::hostile::"))
}

/// A value of type `ty` built from literals and argument-free constructors, if possible.
fn make(b: &mut Builder, schema: &ApiSchema, ty: &str, depth: u32) -> Option<Var> {
    let lit = match ty {
        "bool" => Some(Literal::Bool(true)),
        "char" => Some(Literal::Char('a')),
        "String" => Some(Literal::Str("ab".into())),
        _ => IntTy::from_name(ty).map(|t| Literal::Int { ty: t, value: 0 }),
    };
    if let Some(l) = lit {
        return Some(b.lit(l));
    }
    if depth > 3 {
        return None;
    }
    let t = schema.ty(ty)?;
    let mut ctors: Vec<_> = t.ctors.iter().collect();
    ctors.sort_by_key(|c| c.params.len());
    for c in ctors {
        let args: Option<Vec<Var>> = c
            .params
            .iter()
            .map(|q| make(b, schema, &q.ty, depth + 1))
            .collect();
        if let Some(args) = args {
            return Some(b.ctor(ty, &c.name, &args));
        }
    }
    None
}

/// For every registered method: a program calling it once (keeping its result, if any).
fn every_method_programs(schema: &ApiSchema) -> Vec<(String, String, Program)> {
    let mut out = Vec::new();
    for t in schema.types.iter().filter(|t| !sandbox_only(t)) {
        for m in &t.methods {
            let mut b = Builder::new();
            let recv = make(&mut b, schema, &t.name, 0)
                .unwrap_or_else(|| panic!("{}: cannot build a receiver", t.name));
            let args: Vec<Var> = m
                .params
                .iter()
                .map(|q| {
                    make(&mut b, schema, &q.ty, 0)
                        .unwrap_or_else(|| panic!("{}::{}: cannot build {}", t.name, m.name, q.ty))
                })
                .collect();
            match &m.ret {
                Some(r) => {
                    let _ = b.call_kept(&t.name, &m.name, recv, &args, r);
                }
                None => b.call(&t.name, &m.name, recv, &args),
            }
            out.push((t.name.clone(), m.name.clone(), b.finish()));
        }
    }
    out
}

/// The throwaway crate's directory, reused across runs.
fn scratch_dir() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join("printed_compiles")
}

fn write_if_changed(path: &Path, text: &str) {
    if std::fs::read_to_string(path).ok().as_deref() != Some(text) {
        std::fs::write(path, text).unwrap_or_else(|e| panic!("write {}: {e}", path.display()));
    }
}

/// The interpreter's counters are process-wide: tests that read them take this lock so a
/// parallel test's programs do not add to their counts.
static COUNTERS: std::sync::Mutex<()> = std::sync::Mutex::new(());

#[test]
fn printed_programs_compile_without_warnings_and_match_the_interpreter() {
    let _guard = COUNTERS.lock().unwrap_or_else(|e| e.into_inner());
    let reg = registry();
    let it = Interpreter::new(&reg);
    let schema = reg.schema();
    let cases = cases();
    assert!(cases.len() >= 8);

    let mut expected = Vec::new();
    let mut source = String::from("//! Generated by corpus/tests/printed_compiles.rs.\n\n");
    for c in &cases {
        let mut contents = None;
        let fb = it.run_with(&c.program, &mut |slots| {
            contents = slots[c.main.index()].as_deref().and_then(|v| (c.debug)(v));
        });
        assert_eq!(fb.outcome, Outcome::Ok, "{}: interpreter outcome", c.name);
        let contents =
            contents.unwrap_or_else(|| panic!("{}: main variable missing or mistyped", c.name));
        expected.push((c.name, contents));

        let printed = print(&c.program, &schema)
            .unwrap_or_else(|e| panic!("{}: does not print: {e}", c.name));
        let var = format!("{}{}", name_prefix(c.program.ty(c.main)), c.main.0);
        let mut f = printed.as_fn(c.name, "#[test]\n");
        assert!(f.ends_with("}\n"));
        f.truncate(f.len() - 2);
        f.push_str(&format!(
            "    println!(\"RESULT {} {{:?}}\", {var});\n}}\n\n",
            c.name
        ));
        source.push_str(&f);
    }

    // Every registered method, called once on fresh values, must print and compile too
    // (these are not run: arbitrary arguments may panic).
    source.push_str(
        "/// One call of every registered method (compiled, not run).\npub mod every_method {\n",
    );
    for (k, (ty, method, p)) in every_method_programs(&schema).into_iter().enumerate() {
        let printed =
            print(&p, &schema).unwrap_or_else(|e| panic!("{ty}::{method}: does not print: {e}"));
        let f = printed.as_fn(
            &format!("call_{k}"),
            &format!("/// `{ty}::{method}`.\npub "),
        );
        for line in f.lines() {
            source.push_str("    ");
            source.push_str(line);
            source.push('\n');
        }
    }
    source.push_str("}\n");

    let dir = scratch_dir();
    std::fs::create_dir_all(dir.join("src")).expect("scratch dir");
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR"));
    let manifest = format!(
        "[package]\nname = \"printed-programs\"\nversion = \"0.0.0\"\nedition = \"2021\"\npublish = false\n\n\
         [dependencies]\nperfsyn-corpus = {{ path = {:?} }}\n\n[workspace]\n",
        corpus.display().to_string()
    );
    write_if_changed(&dir.join("Cargo.toml"), &manifest);
    write_if_changed(&dir.join("src").join("lib.rs"), &source);
    // The workspace's resolution, so the scratch crate builds offline with the same versions.
    if let Some(root) = corpus.parent() {
        if let Ok(lock) = std::fs::read_to_string(root.join("Cargo.lock")) {
            write_if_changed(&dir.join("Cargo.lock"), &lock);
        }
    }

    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = Command::new(cargo)
        .current_dir(&dir)
        .args(["test", "--offline", "--lib", "--target-dir"])
        .arg(dir.join("target"))
        .args(["--", "--nocapture", "--test-threads=1"])
        .env("RUSTFLAGS", "-D warnings")
        .env_remove("CARGO_ENCODED_RUSTFLAGS")
        .env_remove("CARGO_TARGET_DIR")
        .env_remove("CARGO_BUILD_TARGET_DIR")
        .output()
        .expect("run cargo test in the scratch crate");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "printed programs failed to build or run (source in {}):\n{stderr}\n{stdout}",
        dir.display()
    );
    for (name, want) in &expected {
        let prefix = format!("RESULT {name} ");
        let got = stdout
            .lines()
            // The harness prints `test <name> ... ` on the same line, before the output.
            .find_map(|l| l.find(&prefix).map(|at| &l[at + prefix.len()..]))
            .unwrap_or_else(|| panic!("{name}: printed program printed nothing:\n{stdout}"));
        assert_eq!(
            got, want,
            "{name}: printed program disagrees with the interpreter"
        );
    }
}

#[test]
fn registry_is_well_formed() {
    let schema = registry().schema();
    let std_methods: usize = schema
        .types
        .iter()
        .filter(|t| {
            [
                "Vec",
                "VecDeque",
                "HashMap",
                "HashSet",
                "BTreeMap",
                "BTreeSet",
                "String",
                "BinaryHeap",
                "LinkedList",
            ]
            .contains(&t.path.as_str())
        })
        .map(|t| t.methods.len())
        .sum();
    assert!(std_methods >= 60, "only {std_methods} std methods");
    for t in schema.types.iter().filter(|t| !sandbox_only(t)) {
        let probe = t.path == "Key" || t.path == "Name";
        // Concurrent types are compared by wall time (perfsyn compare), not by input size.
        let concurrent = t.concurrent.is_some();
        assert!(
            probe || concurrent || t.sized,
            "{} has no size function",
            t.name
        );
        assert!(!t.imports.is_empty() || t.name == "String", "{}", t.name);
        for m in &t.methods {
            for q in &m.params {
                assert!(schema.knows(&q.ty), "{}::{}: {}", t.name, m.name, q.ty);
            }
            if let Some(r) = &m.ret {
                assert!(
                    schema.knows(r) || r.starts_with("Option<"),
                    "{}::{}",
                    t.name,
                    m.name
                );
            }
        }
        if let Some(other) = schema.counterpart(&t.name) {
            assert_eq!(t.path, other.path, "group members share a path");
            let sigs = |t: &TypeSchema| t.methods.iter().map(|m| m.signature()).collect::<Vec<_>>();
            assert_eq!(sigs(t), sigs(other), "{} vs {}", t.name, other.name);
        }
    }
    for (group, old, new) in [
        ("OrderedMap", "OldOrderedMap", "NewOrderedMap"),
        ("MinStack", "OldMinStack", "NewMinStack"),
    ] {
        let o = schema.ty(old).and_then(|t| t.version.clone()).expect(old);
        let n = schema.ty(new).and_then(|t| t.version.clone()).expect(new);
        assert_eq!((o.group.as_str(), o.version.as_str()), (group, "old"));
        assert_eq!((n.group.as_str(), n.version.as_str()), (group, "new"));
    }
}

/// Probe operations of `fill n keys (0..n); <method>(Key::new(n - 1))` on `ty`.
fn probe_ops_after_fill(ty: &str, fill: &str, method: &str, n: u32) -> u64 {
    let reg = registry();
    let it = Interpreter::new(&reg);
    let mut b = Builder::new();
    let m = b.ctor(ty, "new", &[]);
    b.repeat(n, |b| {
        let k = b.key_at(Pattern::I);
        if fill == "insert" {
            let x = b.index(IntTy::U64, Pattern::I);
            b.call(ty, fill, m, &[k, x]);
        } else {
            b.call(ty, fill, m, &[k]);
        }
    });
    let last = b.key(i64::from(n) - 1);
    let mut p = b.finish();
    p.body.push(Stmt::Call {
        out: None,
        ty: ty.into(),
        method: method.into(),
        recv: m,
        args: vec![last],
        under_test: true,
    });
    let fb = it.run(&p);
    assert_eq!(fb.outcome, Outcome::Ok, "{ty}::{method}");
    assert_eq!(fb.input_size, u64::from(n), "{ty}::{method}");
    fb.cost.probe_ops
}

/// Not about printing: a sanity check, through the interpreter's probe counts, that the
/// version groups behave as documented in `groups.rs`.
#[test]
fn version_groups_differ_only_where_planted() {
    let _guard = COUNTERS.lock().unwrap_or_else(|e| e.into_inner());
    // OrderedMap::remove of the newest key: O(1) hash work in the old version, a linear
    // scan of the order list in the new one.
    let old = |n| probe_ops_after_fill("OldOrderedMap", "insert", "remove", n);
    let new = |n| probe_ops_after_fill("NewOrderedMap", "insert", "remove", n);
    assert_eq!(old(100), old(1000), "old remove does not grow");
    assert!(new(1000) >= 10 * new(100) / 2, "new remove grows linearly");
    assert!(new(1000) >= 1000);
    // MinStack: the same code in both versions, so the same counts.
    for n in [10, 300] {
        assert_eq!(
            probe_ops_after_fill("OldMinStack", "push", "push", n),
            probe_ops_after_fill("NewMinStack", "push", "push", n)
        );
    }
}
