//! Hot lines: the source lines whose hit counts grow fastest with input size, so that a user
//! who learns a method is quadratic also learns which line is responsible.
//!
//! The sweep's programs run once more with hot counts on: each feedback carries the hits per
//! basic-block address of its calls under test (see `perfsyn_profiler_ipc::hot`). Addresses
//! become file:line through the worker binary's line tables. Code inlined from std (or
//! from any dependency, or perfsyn's own runtime) is charged to the innermost line of the
//! crate under test that it was inlined into, so a quadratic `Vec::remove` loop shows as the
//! loop's line; a block with no such line keeps its std line. Each line's hits over the
//! sweep's sizes get a growth class from the verdict's model selection, and lines are
//! ranked by class, then lines of the crate under test before library lines (a std function
//! called from a loop, not inlined, grows like the loop's line: the user's line is the one
//! to show), then by hits at the largest size. A library line still comes first when it
//! grows faster than every line of the crate.
//!
//! What is listed: lines of the crate under test, always; a library line (std, a
//! dependency) only when it grows at least as fast as every line of the crate, that is when
//! it is the growth site (a std algorithm the crate calls once); a constant or slower one is
//! bookkeeping or a symptom of a crate line that is listed. perfsyn's own code (the harness
//! runtime, `perfsyn-profiler-ipc`: the registered wrappers' operand downcasts, the probe
//! keys' counted comparisons) is never listed: a block of it is charged to the innermost
//! frame of other code it was inlined into, else dropped. The worker keeps its interpreter
//! and its snapshots out of the calls' windows (`meter`, "The uninstrumented runtime"); the
//! wrappers' few edges per call stay in the window, as part of a call's cost.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

use anyhow::{anyhow, Result};
use perfsyn_profiler_ipc::{Feedback, Program};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::judge::oracle::model_select;
use crate::run::exec::Executor;

/// Lines an explore report keeps.
pub const KEEP: usize = 10;

/// One source line of the calls under test.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HotLine {
    /// Source file, relative to the current directory when under it (std's files start at
    /// `library/`).
    pub file: String,
    pub line: u32,
    /// Growth class of the line's hits over the sweep's sizes (`O(n)`, ...); `None` when the
    /// line was not hit at enough sizes to tell.
    pub class: Option<String>,
    /// Hits at the largest size of the sweep.
    pub hits: u64,
    /// The line is in std, a dependency or perfsyn's runtime, not in the crate under test.
    #[serde(default)]
    pub library: bool,
    /// For a library line, the function it is in (demangled, without its hash): a quadratic
    /// `Vec::remove` loop shows as `library/alloc/src/vec/mod.rs` lines, whose function says
    /// which call of the user's code to look for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub function: Option<String>,
}

impl HotLine {
    /// `corpus/src/planted.rs:77 O(n) (4096 hits)`.
    pub fn describe(&self) -> String {
        let within = self
            .function
            .as_ref()
            .map(|f| format!(" in {f}"))
            .unwrap_or_default();
        format!(
            "{}:{} {} ({} hits){within}",
            self.file,
            self.line,
            self.class.as_deref().unwrap_or("?"),
            self.hits
        )
    }
}

/// The text report's section: the top `top` lines, fastest-growing first ("" when none).
pub fn render(lines: &[HotLine], top: usize) -> String {
    if lines.is_empty() {
        return String::new();
    }
    let mut s =
        String::from("\nhot lines (hits in the call under test, by growth over the sweep):\n");
    for l in lines.iter().take(top) {
        s.push_str(&format!("    {}\n", l.describe()));
    }
    s
}

/// Runs `sweep` with hot counts and ranks its lines; empty when the executor cannot count
/// hits (a fake, or a worker built without a PC table).
pub fn hot_lines(exec: &mut dyn Executor, sweep: &[Program]) -> Result<Vec<HotLine>> {
    if sweep.is_empty() {
        return Ok(Vec::new());
    }
    let Some((feedback, binary)) = exec.run_hot(sweep)? else {
        return Ok(Vec::new());
    };
    if feedback.iter().all(|f| f.hot.is_empty()) {
        return Ok(Vec::new());
    }
    let mut sym = Symbolizer::new(&binary)?;
    let mut lines = rank(&feedback, &mut |addr| sym.line_of(addr));
    for l in lines.iter_mut().filter(|l| l.library) {
        l.function = sym.functions.get(&(l.file.clone(), l.line)).cloned();
    }
    Ok(lines)
}

/// Ranks the lines of `feedback` (one per sweep size), locating addresses with `locate`.
pub fn rank(feedback: &[Feedback], locate: &mut dyn FnMut(u64) -> Option<Loc>) -> Vec<HotLine> {
    // Per line: (input size, hits) at each size where it was hit.
    let mut lines: BTreeMap<Loc, Vec<(u64, u64)>> = BTreeMap::new();
    for f in feedback.iter().filter(|f| f.is_ok() && f.calls > 0) {
        let mut here: HashMap<Loc, u64> = HashMap::new();
        for h in &f.hot {
            if let Some(loc) = locate(h.addr) {
                *here.entry(loc).or_default() += h.hits;
            }
        }
        for (loc, hits) in here {
            lines.entry(loc).or_default().push((f.input_size, hits));
        }
    }
    let largest = feedback
        .iter()
        .filter(|f| f.is_ok() && f.calls > 0)
        .map(|f| f.input_size)
        .max()
        .unwrap_or(0);
    // Lines of one basic-block sequence have the same hits at every size: each distinct
    // series is fitted once, the series in parallel (the robust fits are most of this
    // function's time; each is deterministic, so the result does not depend on the threads).
    let distinct: Vec<&Vec<(u64, u64)>> = lines
        .values()
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect();
    let classes: Vec<Option<crate::report::class::Class>> = distinct
        .par_iter()
        .map(|pts| {
            let xy: Vec<(f64, f64)> = pts.iter().map(|&(n, h)| (n as f64, h as f64)).collect();
            model_select::select(&xy).class
        })
        .collect();
    let fitted: HashMap<Vec<(u64, u64)>, Option<crate::report::class::Class>> =
        distinct.into_iter().cloned().zip(classes).collect();
    let mut ranked: Vec<(Option<crate::report::class::Class>, HotLine)> = lines
        .into_iter()
        .map(|((file, line, library), pts)| {
            let class = fitted[&pts];
            let hits = pts
                .iter()
                .filter(|p| p.0 == largest)
                .map(|p| p.1)
                .max()
                .unwrap_or(0);
            (
                class,
                HotLine {
                    file,
                    line,
                    class: class.map(|c| c.label().to_string()),
                    hits,
                    library,
                    function: None,
                },
            )
        })
        .collect();
    ranked.sort_by(|(ca, a), (cb, b)| {
        cb.cmp(ca)
            .then(a.library.cmp(&b.library))
            .then(b.hits.cmp(&a.hits))
            .then(a.file.cmp(&b.file))
            .then(a.line.cmp(&b.line))
    });
    // Library lines only where they are the growth site (see the module doc); all of them
    // when no line is the crate's.
    let crate_top = ranked
        .iter()
        .filter(|(_, l)| !l.library)
        .map(|(c, _)| *c)
        .max();
    ranked
        .into_iter()
        .filter(|(c, l)| !l.library || crate_top.is_none_or(|top| *c >= top))
        .map(|(_, l)| l)
        .take(KEEP)
        .collect()
}

/// Whether `file` belongs to a library rather than to the crate under test: std (and the
/// crates std vendors), registry dependencies, and perfsyn's own runtime.
pub fn is_library(file: &str) -> bool {
    file.starts_with("/rustc/")
        || file.starts_with("/rust/deps/")
        || file.contains("/.cargo/registry/")
        || file.contains("/cargo/registry/")
        || file.contains("/.rustup/toolchains/")
        || is_perfsyn(file)
}

/// Whether `file` is perfsyn's own harness runtime (`perfsyn-profiler-ipc`, from this
/// workspace or from a registry), which hot lines never list.
pub fn is_perfsyn(file: &str) -> bool {
    file.contains("profiler-ipc/src/") || file.contains("/perfsyn-profiler-ipc-")
}

/// A source line: file (as displayed), line, whether it is a library line.
pub type Loc = (String, u32, bool);

/// One frame of an address, innermost first: its function's raw (mangled) name and the file
/// and line it is at.
type Frame = (Option<String>, Option<(String, u32)>);

/// The edge callback sancov calls on every edge. The worker is built with ThinLTO (see
/// `worker_build::WORKER_LTO`), which inlines it: a guard's PC-table address is then the
/// callback's first inlined instruction, whose innermost frames are perfsyn's runtime and the
/// worker binary's `worker_runtime!` expansion.
const EDGE_CALLBACK: &str = "__sanitizer_cov_trace_pc_guard";

/// The line an address with `frames` (innermost first) is charged to: the innermost frame in
/// the crate under test, else the innermost frame with a line outside perfsyn's runtime;
/// `None` for a block of perfsyn's runtime alone. Frames inside an inlined edge callback
/// (up to and including the callback itself) are not the edge's: its location is the frame
/// that called the callback.
fn charge(frames: &[Frame]) -> Option<(String, u32, bool, Option<String>)> {
    let start = frames
        .iter()
        .position(|(f, _)| f.as_deref() == Some(EDGE_CALLBACK))
        .map_or(0, |i| i + 1);
    let mut found: Option<(String, u32)> = None;
    // The outermost frame's function: the one the block's code is in, whatever was inlined
    // into it (`Vec::remove` rather than its `NonNull` helper).
    let mut outer: Option<&str> = None;
    for (function, loc) in &frames[start..] {
        if function.is_some() {
            outer = function.as_deref();
        }
        let Some((file, line)) = loc else { continue };
        if !is_library(file) {
            return Some((file.clone(), *line, false, None));
        }
        if found.is_none() && !is_perfsyn(file) {
            found = Some((file.clone(), *line));
        }
    }
    let function = outer.map(|f| format!("{:#}", rustc_demangle::demangle(f)));
    found.map(|(f, l)| (f, l, true, function))
}

/// File:line lookups in one binary's line tables, cached per address (also the reads of the
/// repeated-traversal oracle, `judge/oracle/toddler.rs`).
pub struct Symbolizer {
    loader: addr2line::Loader,
    cwd: Option<PathBuf>,
    cache: HashMap<u64, Option<Loc>>,
    /// The function each library line charged so far is in (see [`HotLine::function`]).
    functions: HashMap<(String, u32), String>,
}

impl Symbolizer {
    pub fn new(binary: &Path) -> Result<Symbolizer> {
        let loader = addr2line::Loader::new(binary)
            .map_err(|e| anyhow!("cannot read the line tables of {}: {e}", binary.display()))?;
        Ok(Symbolizer {
            loader,
            cwd: std::env::current_dir().ok(),
            cache: HashMap::new(),
            functions: HashMap::new(),
        })
    }

    /// The line `addr` is charged to: the innermost frame in the crate under test, else the
    /// innermost frame with a line outside perfsyn's runtime; `None` for a block of
    /// perfsyn's runtime alone (see the module doc).
    pub fn line_of(&mut self, addr: u64) -> Option<Loc> {
        if let Some(hit) = self.cache.get(&addr) {
            return hit.clone();
        }
        let frames = self.frames(addr);
        let found = charge(&frames).map(|(f, l, lib, function)| {
            let loc = (self.display(&f), l, lib);
            if let Some(function) = function {
                self.functions.insert((loc.0.clone(), l), function);
            }
            loc
        });
        self.cache.insert(addr, found.clone());
        found
    }

    /// The frames of `addr`, innermost first.
    fn frames(&self, addr: u64) -> Vec<Frame> {
        let mut frames: Vec<Frame> = Vec::new();
        if let Ok(mut iter) = self.loader.find_frames(addr) {
            while let Ok(Some(frame)) = iter.next() {
                let function = frame
                    .function
                    .as_ref()
                    .and_then(|f| f.raw_name().ok())
                    .map(|n| n.to_string());
                let loc = frame
                    .location
                    .and_then(|l| Some((l.file?.to_string(), l.line?)));
                frames.push((function, loc));
            }
        }
        frames
    }

    /// Where the function inlined at `addr` was called: `addr`'s frames without the
    /// innermost (the inlined function's own), charged as [`Symbolizer::line_of`] charges.
    /// The call site of a helper inlined into a loop (Toddler's inner loops).
    pub fn inlined_at(&mut self, addr: u64) -> Option<Loc> {
        let frames = self.frames(addr);
        let (file, line, lib, _) = charge(frames.get(1..)?)?;
        Some((self.display(&file), line, lib))
    }

    /// The lines of `addr`'s frames in the crate under test (inlined ones included),
    /// innermost first: where an inlined call site sits in the functions around it.
    pub fn crate_lines(&mut self, addr: u64) -> Vec<String> {
        let frames = self.frames(addr);
        frames
            .into_iter()
            .filter_map(|(_, loc)| loc)
            .filter(|(file, _)| !is_library(file))
            .map(|(file, line)| format!("{}:{line}", self.display(&file)))
            .collect()
    }

    /// The function whose code is at `addr` (the outermost frame: what was inlined into it
    /// is not it), demangled without its hash, and its `file:line` there; `None` for
    /// perfsyn's runtime or an address without line tables.
    ///
    /// A function's first instructions often have no line (prologue, line 0): the next ones
    /// of the same function, up to 64 bytes on, give it.
    pub fn function_at(&mut self, addr: u64) -> Option<(String, String)> {
        let outer_at = |a: u64| {
            let mut iter = self.loader.find_frames(a).ok()?;
            let mut outer = None;
            while let Ok(Some(frame)) = iter.next() {
                let name = frame
                    .function
                    .as_ref()
                    .and_then(|f| f.raw_name().ok())
                    .map(|n| format!("{:#}", rustc_demangle::demangle(&n)));
                let loc = frame
                    .location
                    .and_then(|l| Some((l.file?.to_string(), l.line?)));
                outer = Some((name, loc));
            }
            outer
        };
        let (name, first) = outer_at(addr)?;
        let found = first.or_else(|| {
            (1..=64u64).find_map(|off| match outer_at(addr + off)? {
                (n, Some(loc)) if n == name => Some(loc),
                _ => None,
            })
        });
        let (file, line) = found?;
        // No name in the line tables (an inlined-into function's own entry): the symbol's.
        let name = name.or_else(|| {
            self.loader
                .find_symbol(addr)
                .map(|n| format!("{:#}", rustc_demangle::demangle(n)))
        });
        if is_perfsyn(&file) {
            return None;
        }
        let at = format!("{}:{line}", self.display(&file));
        Some((name.unwrap_or_else(|| at.clone()), at))
    }

    /// The source files of `addr`'s frames, innermost first (inlined functions included).
    pub fn frame_files(&mut self, addr: u64) -> Vec<String> {
        let mut files = Vec::new();
        if let Ok(mut iter) = self.loader.find_frames(addr) {
            while let Ok(Some(frame)) = iter.next() {
                if let Some(f) = frame.location.and_then(|l| l.file) {
                    files.push(f.to_string());
                }
            }
        }
        files
    }

    /// `file` relative to the current directory, and std's files from `library/` on.
    fn display(&self, file: &str) -> String {
        if let Some(rel) = self
            .cwd
            .as_deref()
            .and_then(|c| Path::new(file).strip_prefix(c).ok())
        {
            return rel.display().to_string();
        }
        match file.find("/library/") {
            Some(i) if file.starts_with("/rustc/") => file[i + 1..].to_string(),
            _ => file.to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use perfsyn_profiler_ipc::{HotPc, Outcome};

    fn fb(size: u64, hot: &[(u64, u64)]) -> Feedback {
        Feedback {
            outcome: Outcome::Ok,
            cost: Default::default(),
            input_size: size,
            heap_bytes: 0,
            calls: 1,
            hot: hot
                .iter()
                .map(|&(addr, hits)| HotPc { addr, hits })
                .collect(),
            fuel_spent: 0,
        }
    }

    /// A line hit n times per call outranks one hit a constant number of times, even when
    /// the constant one has more hits at every size; two addresses of one line add up.
    #[test]
    fn lines_rank_by_growth_then_hits() {
        let sizes = [10u64, 20, 50, 100, 200, 500, 1000];
        let feedback: Vec<Feedback> = sizes
            .iter()
            .map(|&n| fb(n, &[(1, n), (2, n), (3, 5000), (4, 7)]))
            .collect();
        let mut locate = |a: u64| match a {
            1 | 2 => Some(("src/lib.rs".to_string(), 10, false)),
            3 => Some(("src/lib.rs".to_string(), 20, false)),
            _ => Some(("src/lib.rs".to_string(), 30, false)),
        };
        let lines = rank(&feedback, &mut locate);
        assert_eq!(lines[0].line, 10);
        assert_eq!(lines[0].class.as_deref(), Some("O(n)"));
        assert_eq!(lines[0].hits, 2000);
        assert_eq!(lines[1].line, 20, "constant, more hits than line 30");
        assert_eq!(lines[1].class.as_deref(), Some("O(1)"));
        assert_eq!(lines[2].line, 30);
    }

    /// Within a class, the crate's line comes before a library line with more hits; a
    /// library line that grows faster still comes first.
    #[test]
    fn crate_lines_come_before_library_lines_of_the_same_class() {
        let sizes = [10u64, 20, 50, 100, 200, 500, 1000];
        let feedback: Vec<Feedback> = sizes
            .iter()
            .map(|&n| fb(n, &[(1, n), (2, 3 * n), (3, n * n)]))
            .collect();
        let mut locate = |a: u64| match a {
            1 => Some(("src/lib.rs".to_string(), 10, false)),
            2 => Some(("library/core/src/x.rs".to_string(), 5, true)),
            _ => Some(("library/alloc/src/y.rs".to_string(), 7, true)),
        };
        let lines = rank(&feedback, &mut locate);
        let order: Vec<(u32, Option<&str>)> =
            lines.iter().map(|l| (l.line, l.class.as_deref())).collect();
        assert_eq!(
            order,
            [(7, Some("O(n^2)")), (10, Some("O(n)")), (5, Some("O(n)"))]
        );
    }

    /// A constant library line (a wrapper's downcast, a clock read) is not listed under a
    /// growing crate line; a library line that grows as fast as the crate's top line is;
    /// without crate lines every library line is.
    #[test]
    fn library_lines_are_listed_only_where_they_grow_as_fast_as_the_crate() {
        let sizes = [10u64, 20, 50, 100, 200, 500, 1000];
        let feedback: Vec<Feedback> = sizes
            .iter()
            .map(|&n| fb(n, &[(1, n), (2, 2), (3, 3 * n), (4, 5)]))
            .collect();
        let mut locate = |a: u64| match a {
            1 => Some(("src/lib.rs".to_string(), 10, false)),
            2 => Some(("library/core/src/any.rs".to_string(), 142, true)),
            3 => Some(("library/core/src/cmp.rs".to_string(), 5, true)),
            _ => Some(("src/lib.rs".to_string(), 30, false)),
        };
        let lines = rank(&feedback, &mut locate);
        let kept: Vec<(&str, u32)> = lines.iter().map(|l| (l.file.as_str(), l.line)).collect();
        assert_eq!(
            kept,
            [
                ("src/lib.rs", 10),
                ("library/core/src/cmp.rs", 5),
                ("src/lib.rs", 30)
            ]
        );
        let mut only_library = |a: u64| match a {
            2 => Some(("library/core/src/any.rs".to_string(), 142, true)),
            3 => Some(("library/core/src/cmp.rs".to_string(), 5, true)),
            _ => None,
        };
        assert_eq!(rank(&feedback, &mut only_library).len(), 2);
    }

    #[test]
    fn an_inlined_edge_callback_is_charged_to_its_caller() {
        let frame = |f: Option<&str>, file: &str, line| {
            (f.map(String::from), Some((file.to_string(), line)))
        };
        // The guard's address is the callback's first instruction, inlined into a crate line.
        let frames = vec![
            frame(
                Some("_ZN4core4sync6atomic10AtomicU644load17h0E"),
                "/rustc/abc/library/core/src/sync/atomic.rs",
                3890,
            ),
            frame(
                Some("_ZN20perfsyn_profiler_ipc5meter4edge17h0E"),
                "/work/x/profiler-ipc/src/meter.rs",
                121,
            ),
            frame(
                Some("__sanitizer_cov_trace_pc_guard"),
                "/work/x/corpus/src/bin/perfsyn-worker.rs",
                3,
            ),
            frame(
                Some("_ZN6corpus7planted4scan17h0E"),
                "/work/x/corpus/src/planted.rs",
                153,
            ),
        ];
        assert_eq!(
            charge(&frames),
            Some((
                "/work/x/corpus/src/planted.rs".to_string(),
                153,
                false,
                None
            ))
        );
        // Without the callback among the frames, the innermost crate frame is the line.
        assert_eq!(
            charge(&frames[3..]),
            Some((
                "/work/x/corpus/src/planted.rs".to_string(),
                153,
                false,
                None
            ))
        );
        // A std line called from no crate line stays a library line.
        let std_only = vec![
            frames[2].clone(),
            frame(
                Some("_ZN4core3ptr4swap17h0123456789abcdefE"),
                "/rustc/abc/library/core/src/ptr/mod.rs",
                547,
            ),
        ];
        assert_eq!(
            charge(&std_only),
            Some((
                "/rustc/abc/library/core/src/ptr/mod.rs".to_string(),
                547,
                true,
                Some("core::ptr::swap".to_string())
            ))
        );
        // The function named is the outermost one, the one the code is in: std inlined into
        // `Vec::remove`, or into perfsyn's counting `memcpy` (whose bytes a quadratic copy
        // loop moves).
        let in_remove = vec![
            frame(
                Some("_ZN4core3ptr8non_null17h0123456789abcdefE"),
                "/rustc/abc/library/core/src/ptr/non_null.rs",
                90,
            ),
            frame(
                Some("_ZN5alloc3vec6remove17h0123456789abcdefE"),
                "/rustc/abc/library/alloc/src/vec/mod.rs",
                2005,
            ),
        ];
        assert_eq!(
            charge(&in_remove).map(|c| (c.1, c.3)),
            Some((90, Some("alloc::vec::remove".to_string())))
        );
        let in_memcpy = vec![
            frames[0].clone(),
            frame(Some("memcpy"), "/work/x/profiler-ipc/src/meter.rs", 700),
        ];
        assert_eq!(
            charge(&in_memcpy).map(|c| (c.1, c.3)),
            Some((3890, Some("memcpy".to_string())))
        );
    }

    #[test]
    fn perfsyn_runtime_files_are_perfsyn() {
        assert!(is_perfsyn("/work/perfsyn/profiler-ipc/src/meter.rs"));
        assert!(is_perfsyn(
            "/home/u/.cargo/registry/src/x/perfsyn-profiler-ipc-0.1.0/src/registry.rs"
        ));
        assert!(!is_perfsyn("corpus/src/planted.rs"));
        assert!(!is_perfsyn("/rustc/abc/library/alloc/src/vec/mod.rs"));
    }

    #[test]
    fn std_and_dependencies_are_libraries() {
        assert!(is_library("/rustc/abc/library/alloc/src/vec/mod.rs"));
        assert!(is_library(
            "/home/u/.cargo/registry/src/x/hashbrown-0.15/src/raw.rs"
        ));
        assert!(is_library("/work/perfsyn/profiler-ipc/src/meter.rs"));
        assert!(!is_library("corpus/src/planted.rs"));
        assert!(!is_library("/home/u/mycrate/src/lib.rs"));
    }
}
