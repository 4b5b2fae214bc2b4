//! What one execution of a program reports back: the outcome and the cost of the calls
//! under test. A plain wire type; the engine converts it at the boundary.

use serde::{Deserialize, Serialize};

/// Costs measured during the calls under test only (setup is not measured).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Cost {
    /// Sanitizer-coverage guard hits (0 when the worker is not instrumented).
    pub edges: u64,
    /// Probe comparisons, hashes and clones.
    pub probe_ops: u64,
    /// Bytes passed to memcpy, memmove and memset.
    pub bytes_moved: u64,
    pub allocs: u64,
    pub alloc_bytes: u64,
    /// Thread CPU time (not deterministic); 0 unless the pool measures it
    /// (`PoolConfig::thread_cpu`).
    pub cpu_ns: u64,
    /// Wall-clock time (not deterministic); what the confirmation step compares.
    pub wall_ns: u64,
}

impl Cost {
    /// The fields in declaration order: the order the wire writes them in (`fastwire`), and
    /// the worker's saved window end (`meter::call_returned`).
    #[inline(always)]
    pub fn to_array(&self) -> [u64; 7] {
        [
            self.edges,
            self.probe_ops,
            self.bytes_moved,
            self.allocs,
            self.alloc_bytes,
            self.cpu_ns,
            self.wall_ns,
        ]
    }

    /// The inverse of [`Cost::to_array`].
    #[inline(always)]
    pub fn from_array(a: [u64; 7]) -> Cost {
        let [edges, probe_ops, bytes_moved, allocs, alloc_bytes, cpu_ns, wall_ns] = a;
        Cost {
            edges,
            probe_ops,
            bytes_moved,
            allocs,
            alloc_bytes,
            cpu_ns,
            wall_ns,
        }
    }

    /// Adds another call's cost.
    pub fn add(&mut self, o: &Cost) {
        self.edges += o.edges;
        self.probe_ops += o.probe_ops;
        self.bytes_moved += o.bytes_moved;
        self.allocs += o.allocs;
        self.alloc_bytes += o.alloc_bytes;
        self.cpu_ns += o.cpu_ns;
        self.wall_ns += o.wall_ns;
    }

    /// Bytes moved per unit of the combined cost: copying 8 bytes (one word) weighs as
    /// much as one edge, so shifting n elements costs O(n) even though libc's copy loop is
    /// not instrumented.
    pub const BYTES_PER_EDGE: u64 = 8;

    /// The deterministic cost the search optimizes by default: `edges + bytes_moved / 8`.
    pub fn combined(&self) -> u64 {
        self.edges + self.bytes_moved / Self::BYTES_PER_EDGE
    }
}

/// How an execution ended.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Outcome {
    Ok,
    /// Target code panicked at top-level statement `stmt`.
    Panic {
        stmt: u32,
        message: String,
    },
    /// The program does not fit the registry (a bug in the synthesizer, or a stale schema).
    Invalid {
        reason: String,
    },
    /// The worker died from a signal (abort, segfault, stack overflow).
    Crash {
        signal: i32,
        detail: String,
    },
    /// The worker exited on its own (target called `exit`).
    Exited {
        code: i32,
    },
    /// The program ran past its deadline and the worker was killed.
    Timeout,
    /// An allocation failed under the worker's memory limit.
    OutOfMemory,
}

impl Outcome {
    /// A short label for tables and statistics.
    pub fn label(&self) -> &'static str {
        match self {
            Outcome::Ok => "ok",
            Outcome::Panic { .. } => "panic",
            Outcome::Invalid { .. } => "invalid",
            Outcome::Crash { .. } => "crash",
            Outcome::Exited { .. } => "exit",
            Outcome::Timeout => "timeout",
            Outcome::OutOfMemory => "oom",
        }
    }
}

/// The feedback of one execution.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Feedback {
    pub outcome: Outcome,
    pub cost: Cost,
    /// Registered size of the receiver and arguments just before the first call under test.
    pub input_size: u64,
    /// Heap bytes the program's values hold just before the first call under test (live
    /// bytes by the worker's counting allocator, counted from the program's start; 0 without
    /// that allocator). A size measure the worker observes on its own: it sees the capacity
    /// a collection keeps after it shrank, which the registered size (its length) hides.
    #[serde(default)]
    pub heap_bytes: u64,
    /// Number of calls under test that ran.
    pub calls: u32,
    /// Hits per code address during the calls under test, hottest first; empty unless the
    /// request asked for them (see [`crate::hot`]).
    pub hot: Vec<HotPc>,
    /// Edges the whole program executed (setup, calls and the drop of its values: what its
    /// fuel counts); 0 when the run was not metered. Deterministic, like `cost.edges`: the
    /// search caps the fuel of new programs from it (see the engine's `fuelcap`).
    #[serde(default)]
    pub fuel_spent: u64,
}

/// How often the calls under test hit one basic block.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct HotPc {
    /// Link-time address of the block in the worker binary.
    pub addr: u64,
    pub hits: u64,
}

impl Feedback {
    /// Feedback for a program that did not produce measurements.
    pub fn failed(outcome: Outcome) -> Feedback {
        Feedback {
            outcome,
            cost: Cost::default(),
            input_size: 0,
            heap_bytes: 0,
            calls: 0,
            hot: Vec::new(),
            fuel_spent: 0,
        }
    }

    /// Whether the program ran to completion.
    pub fn is_ok(&self) -> bool {
        self.outcome == Outcome::Ok
    }
}
