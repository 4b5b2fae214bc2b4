//! The engine's end: a pool of sandboxed workers behind "submit a batch, get feedback".
//!
//! One thread (the caller of [`Pool::run`]) drives every worker: it writes a request into a
//! worker's region, and waits on the pool's doorbell, a shared futex that a worker rings when
//! it finishes its handshake or a request and that a worker's *keeper* thread rings when the
//! worker dies. Each worker incarnation has its own keeper thread, which spawns it (so that
//! `PR_SET_PDEATHSIG`, tied to the spawning thread, fires only if the keeper or the whole
//! engine goes away), collects its stderr tail, notices its death with
//! `waitid(WNOWAIT)` and only then reaps it, so that a kill never reaches a reused pid.
//!
//! Programs are spread over the workers in chunks (dynamic scheduling: an idle worker takes
//! the next chunk). A worker that dies or runs past the deadline loses nothing: the records it
//! published stand, the program it was running gets the outcome of its death, the rest of its
//! chunk goes back to the front of the queue, and a new worker is started in its place.

use std::collections::VecDeque;
use std::os::fd::{AsRawFd, RawFd};
use std::os::unix::process::CommandExt;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering::*};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crate::concurrent::{ConcurrentFeedback, ConcurrentRun};
use crate::feedback::{Feedback, Outcome};
use crate::program::Program;
use crate::protocol::{self, Header};
use crate::sandbox::{self, Autopsy, Death, Limits, Tail};
use crate::schema::ApiSchema;
use crate::shm::{self, Bell, Region};

/// How long the driving thread spins on the doorbell before sleeping: long enough to catch
/// the reply to a small request without a futex sleep. It spins only while some core has no
/// busy worker (see [`Pool::host_spin`]): with a worker on every core, a spinning driver
/// would take a share of a core from them.
const HOST_SPIN: Duration = Duration::from_micros(30);
/// How long a starting worker may take to say hello.
const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(30);
/// Consecutive failed starts of one worker slot before [`Pool::run`] gives up.
const MAX_RESPAWN_FAILURES: u32 = 3;

/// How to run the pool.
#[derive(Clone, Debug)]
pub struct PoolConfig {
    /// The `perfsyn-worker` binary.
    pub worker: PathBuf,
    /// Number of worker processes.
    pub workers: usize,
    /// Wall-clock deadline of one program (setup included); past it the worker is killed.
    /// Only a backstop when `fuel` is set: it depends on the machine's load.
    pub deadline: Duration,
    /// Fuel of one program: the edges it may execute (setup, calls and drops; bytes moved
    /// count `meter::FUEL_BYTES_PER_EDGE` to an edge) before the worker stops it and reports a
    /// timeout, the same on a quiet or a loaded machine.
    /// 0: unmetered (the deadline decides). See [`fuel_for`].
    pub fuel: u64,
    /// Heap bytes one program may hold (counted by the worker's allocator, so the same on
    /// every machine); past it an allocation fails and the program is out of memory.
    /// 0: only the address-space limit.
    pub heap_limit: u64,
    /// Address-space limit of each worker (`RLIMIT_AS`), bytes: a backstop to `heap_limit`.
    pub memory_limit: u64,
    /// Size of each worker's shared region, bytes (half requests, half feedback).
    pub shm_size: usize,
    /// Programs sharing a setup are served by forking its built state (see
    /// [`crate::forkserver`]); off, every program rebuilds it. Same results either way.
    pub setup_reuse: bool,
    /// A program that runs out of fuel on a worker's fresh path ends a runner forked from
    /// the worker, not the worker (see [`crate::rescue`]); off, it costs the worker. Same
    /// results either way.
    pub fuel_rescue: bool,
    /// The version of each version group the workers bind (`old`/`new`, see `bind`), or
    /// `None` for every member under its own name.
    pub bind: Option<String>,
    /// Time the calls under test in thread CPU time (`Cost::cpu_ns`, else 0): two system
    /// calls per call under test, which a small program's round trip notices. Off by
    /// default: the search decides on deterministic costs; `--metric cpu_ns` and `replay`
    /// turn it on.
    pub thread_cpu: bool,
}

/// Edges per second of instrumented, interpreted execution that a time budget is converted
/// at (about what this machine's workers run when it is quiet). The conversion is fixed, so
/// a budget means the same work everywhere; only its wall-clock duration varies.
pub const NOMINAL_EDGES_PER_SEC: u64 = 100_000_000;

/// Default heap limit of one program: 1 GiB.
pub const DEFAULT_HEAP_LIMIT: u64 = 1 << 30;

/// The fuel of a per-program budget given as a duration (see [`NOMINAL_EDGES_PER_SEC`]).
pub fn fuel_for(budget: Duration) -> u64 {
    (budget.as_secs_f64() * NOMINAL_EDGES_PER_SEC as f64) as u64
}

/// The wall-clock backstop of a budget metered in fuel: 20 times the budget, at least 10 s,
/// so that only a program stuck outside instrumented code (a sleep, a syscall) reaches it,
/// even on a heavily loaded machine.
pub fn backstop_for(budget: Duration) -> Duration {
    (budget * 20).max(Duration::from_secs(10))
}

impl PoolConfig {
    /// Defaults: one worker per core, 2 s of fuel per program (a wall-clock backstop of
    /// 40 s), 1 GiB of heap and 4 GiB of address space, 16 MiB of shared memory per worker.
    pub fn new(worker: PathBuf) -> PoolConfig {
        let budget = Duration::from_secs(2);
        PoolConfig {
            worker,
            workers: std::thread::available_parallelism().map_or(1, |n| n.get()),
            deadline: backstop_for(budget),
            fuel: fuel_for(budget),
            heap_limit: DEFAULT_HEAP_LIMIT,
            memory_limit: 4 << 30,
            shm_size: 16 << 20,
            // `PERFSYN_SETUP_REUSE=0` measures the fresh path (bench throughput before/after).
            setup_reuse: std::env::var(crate::forkserver::ENV).map_or(true, |v| v != "0"),
            fuel_rescue: std::env::var(crate::rescue::ENV).map_or(true, |v| v != "0"),
            bind: None,
            thread_cpu: false,
        }
    }

    /// Meters each program with `budget` converted to fuel, the wall clock as a backstop.
    pub fn with_budget(mut self, budget: Duration) -> PoolConfig {
        self.fuel = fuel_for(budget);
        self.deadline = backstop_for(budget);
        self
    }
}

/// Counters over the pool's life.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct PoolStats {
    /// Programs that got feedback.
    pub programs: u64,
    /// Requests (chunks of programs) sent to workers.
    pub requests: u64,
    /// Workers started after the initial ones.
    pub restarts: u64,
    pub ok: u64,
    pub panics: u64,
    pub invalid: u64,
    pub crashes: u64,
    pub exits: u64,
    pub timeouts: u64,
    pub ooms: u64,
    /// Workers replaced because their CPU-time budget was half used.
    pub retired: u64,
    /// Programs served from a setup a worker had already built.
    #[serde(default)]
    pub setup_reused: u64,
}

impl PoolStats {
    fn count(&mut self, o: &Outcome) {
        self.programs += 1;
        match o {
            Outcome::Ok => self.ok += 1,
            Outcome::Panic { .. } => self.panics += 1,
            Outcome::Invalid { .. } => self.invalid += 1,
            Outcome::Crash { .. } => self.crashes += 1,
            Outcome::Exited { .. } => self.exits += 1,
            Outcome::Timeout => self.timeouts += 1,
            Outcome::OutOfMemory => self.ooms += 1,
        }
    }
}

/// Why the pool cannot serve (hostile programs never cause one: they get an [`Outcome`]).
#[derive(Debug, thiserror::Error)]
pub enum PoolError {
    #[error("worker binary {0} does not exist (build it, or omit --worker)")]
    WorkerMissing(PathBuf),
    #[error("invalid pool configuration: {0}")]
    Config(String),
    #[error("cannot create the shared region: {0}")]
    Shm(std::io::Error),
    #[error("cannot start the worker {path}: {source}")]
    Spawn {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("worker handshake failed: {0}")]
    Handshake(String),
    #[error("workers of one pool report different API schemas (mixed binaries?)")]
    SchemaMismatch,
    #[error("program {index} encodes to {bytes} bytes, more than a request can hold ({capacity} bytes); raise the shared-memory size")]
    MessageTooLarge {
        index: usize,
        bytes: usize,
        capacity: usize,
    },
    #[error("a worker keeps failing to start: {0}")]
    RespawnFailed(String),
    #[error("worker protocol error: {0}")]
    Protocol(String),
}

/// What a keeper thread knows about its worker process.
#[derive(Debug, Default)]
struct Keeper {
    /// Set (then the doorbell rung) once the process is dead and reaped.
    dead: AtomicBool,
    state: Mutex<KeeperState>,
    tail: Mutex<Tail>,
}

#[derive(Debug, Default)]
struct KeeperState {
    pid: Option<i32>,
    reaped: bool,
    death: Option<Death>,
}

impl Keeper {
    /// Kills the worker's process group, unless it is already reaped (its pid could then
    /// belong to someone else; a zombie's pid cannot).
    fn kill(&self) {
        let st = self.state.lock().unwrap_or_else(|e| e.into_inner());
        if let (Some(pid), false) = (st.pid, st.reaped) {
            if let Some(p) = rustix::process::Pid::from_raw(pid) {
                let _ = rustix::process::kill_process_group(p, rustix::process::Signal::KILL);
                let _ = rustix::process::kill_process(p, rustix::process::Signal::KILL);
            }
        }
    }

    fn death(&self) -> Option<Death> {
        self.state
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .death
            .clone()
    }

    fn tail(&self) -> String {
        self.tail.lock().unwrap_or_else(|e| e.into_inner()).text()
    }
}

/// One running worker process and its region.
#[derive(Debug)]
struct Incarnation {
    region: Region,
    keeper: Arc<Keeper>,
    thread: Option<JoinHandle<()>>,
}

impl Incarnation {
    fn header(&self) -> &Header {
        self.region.at(0)
    }
}

#[derive(Debug)]
enum SlotState {
    Starting {
        since: Instant,
    },
    Idle,
    Busy {
        /// Global index of the chunk's first program.
        first: usize,
        /// Programs in the chunk.
        len: usize,
        seq: u32,
        /// `started` at the moment we killed the worker for running past the deadline.
        killed_at: Option<u32>,
    },
}

#[derive(Debug)]
struct Slot {
    inc: Incarnation,
    state: SlotState,
    failures: u32,
    last_failure: String,
}

/// A pool of sandboxed workers.
#[derive(Debug)]
pub struct Pool {
    cfg: PoolConfig,
    limits: Limits,
    bell: Arc<Region>,
    slots: Vec<Slot>,
    schema: ApiSchema,
    schema_bytes: Vec<u8>,
    stats: PoolStats,
    /// The requests being posted ask for hot addresses (see [`Pool::run_hot`]).
    hot: bool,
    /// The fuel of the requests being posted, when not the configured one (see
    /// [`Pool::run_with_fuel`]).
    fuel: Option<u64>,
    /// Cores this process may run on.
    cores: usize,
    /// The core each slot's worker is pinned to (see [`crate::affinity`]), if pinned.
    pins: Option<Vec<usize>>,
}

impl Pool {
    /// Starts `cfg.workers` workers and completes their handshakes (magic, protocol version,
    /// API schema); all must report the same schema.
    pub fn start(cfg: PoolConfig) -> Result<Pool, PoolError> {
        if !cfg.worker.is_file() {
            return Err(PoolError::WorkerMissing(cfg.worker.clone()));
        }
        if cfg.workers == 0 {
            return Err(PoolError::Config("workers must be at least 1".into()));
        }
        if cfg.shm_size < protocol::MIN_REGION {
            return Err(PoolError::Config(format!(
                "shm_size must be at least {} bytes",
                protocol::MIN_REGION
            )));
        }
        let bell =
            Arc::new(Region::create("perfsyn-bell", protocol::BELL_SIZE).map_err(PoolError::Shm)?);
        let limits = Limits::new(cfg.memory_limit, cfg.deadline);
        let mut pool = Pool {
            limits,
            bell,
            slots: Vec::new(),
            schema: ApiSchema::default(),
            schema_bytes: Vec::new(),
            stats: PoolStats::default(),
            hot: false,
            fuel: None,
            cores: std::thread::available_parallelism().map_or(1, |n| n.get()),
            pins: crate::affinity::plan(cfg.workers),
            cfg,
        };
        for i in 0..pool.cfg.workers {
            let inc = pool.spawn(i)?;
            pool.slots.push(Slot {
                inc,
                state: SlotState::Starting {
                    since: Instant::now(),
                },
                failures: 0,
                last_failure: String::new(),
            });
        }
        loop {
            let seen = pool.bell().seen();
            let mut starting = 0;
            for i in 0..pool.slots.len() {
                if let SlotState::Starting { since } = pool.slots[i].state {
                    match pool.check_hello(i, since) {
                        Ok(true) => pool.slots[i].state = SlotState::Idle,
                        Ok(false) => starting += 1,
                        Err(e) => return Err(PoolError::Handshake(e)),
                    }
                }
            }
            if starting == 0 {
                break;
            }
            pool.bell()
                .wait_past(seen, HOST_SPIN, Some(Duration::from_millis(100)));
        }
        Ok(pool)
    }

    /// The API schema every worker reported.
    pub fn schema(&self) -> &ApiSchema {
        &self.schema
    }

    /// Counters over the pool's life.
    pub fn stats(&self) -> PoolStats {
        self.stats
    }

    /// The process id each slot's worker reported in its hello (0 before it did).
    pub fn worker_pids(&self) -> Vec<u32> {
        self.slots
            .iter()
            .map(|s| s.inc.header().from_worker.pid.load(Relaxed))
            .collect()
    }

    /// The configuration the pool runs with.
    pub fn config(&self) -> &PoolConfig {
        &self.cfg
    }

    fn bell(&self) -> &Bell {
        self.bell.at(0)
    }

    /// Runs `programs` over all workers in parallel and returns one feedback per program, in
    /// submission order. Programs that panic, crash, exit, hang or exhaust memory get that
    /// outcome; an `Err` means the pool itself cannot serve.
    ///
    /// With more than one worker the programs are posted heaviest first (see
    /// [`crate::schedule`]), so that a batch does not end on one slow program while the
    /// other workers idle.
    pub fn run(&mut self, programs: &[Program]) -> Result<Vec<Feedback>, PoolError> {
        let n = programs.len();
        if self.slots.len() < 2 || n < 2 {
            let all: Vec<(usize, usize)> = if n == 0 { Vec::new() } else { vec![(0, n)] };
            return self.run_planned(programs, &all);
        }
        let work: Vec<u64> = programs
            .iter()
            .map(crate::schedule::work_estimate)
            .collect();
        let plan = crate::schedule::plan(&work, self.slots.len());
        let ordered: Vec<Program> = plan.order.iter().map(|&i| programs[i].clone()).collect();
        let fb = self.run_planned(&ordered, &plan.chunks)?;
        let mut out: Vec<Option<Feedback>> = vec![None; n];
        for (k, f) in fb.into_iter().enumerate() {
            out[plan.order[k]] = Some(f);
        }
        Ok(out
            .into_iter()
            .map(|f| f.expect("the plan's order is a permutation"))
            .collect())
    }

    /// Runs `programs`, posting the index ranges `chunks` (consecutive, covering all of
    /// them) in that order, each to the first idle worker; feedback in `programs`' order.
    fn run_planned(
        &mut self,
        programs: &[Program],
        chunks: &[(usize, usize)],
    ) -> Result<Vec<Feedback>, PoolError> {
        // A previous call that returned an error may have left requests in flight: their
        // answers belong to no one now.
        for i in 0..self.slots.len() {
            if matches!(self.slots[i].state, SlotState::Busy { .. }) {
                self.respawn(i)?;
            }
        }
        let n = programs.len();
        let mut results: Vec<Option<Feedback>> = vec![None; n];
        let mut remaining = n;
        let mut queue: VecDeque<(usize, usize)> = chunks.iter().copied().collect();
        while remaining > 0 {
            for i in 0..self.slots.len() {
                if matches!(self.slots[i].state, SlotState::Idle) {
                    if let Some((s, e)) = queue.pop_front() {
                        let sent = self.post(i, programs, s, e)?;
                        if s + sent < e {
                            queue.push_front((s + sent, e));
                        }
                    }
                }
            }
            let seen = self.bell().seen();
            // First without the clock: a small program's answer is usually there within a
            // short spin, and its round trip then reads no clock in the engine (three reads
            // of about 33 ns each were a tenth of it). Deadlines are checked before any
            // longer wait, as ever.
            let mut progressed = false;
            for i in 0..self.slots.len() {
                progressed |= self.poll(i, &mut results, &mut remaining, &mut queue, false)?;
            }
            if progressed || remaining == 0 {
                continue;
            }
            let spin = self.host_spin();
            if !spin.is_zero() && shm::spin_turns(&self.bell().seq, seen) {
                continue;
            }
            for i in 0..self.slots.len() {
                progressed |= self.poll(i, &mut results, &mut remaining, &mut queue, true)?;
            }
            if progressed || remaining == 0 {
                continue;
            }
            let timeout = self.next_check();
            self.bell().wait_past(seen, spin, Some(timeout));
        }
        Ok(results
            .into_iter()
            .map(|r| r.expect("every program has feedback when none remain"))
            .collect())
    }

    /// Like [`Pool::run`], and each feedback also carries the hits per code address of its
    /// calls under test (`Feedback::hot`; the worker must be built with a PC table, see
    /// [`crate::hot`]). Only these requests pay for counting.
    pub fn run_hot(&mut self, programs: &[Program]) -> Result<Vec<Feedback>, PoolError> {
        self.hot = true;
        let r = self.run(programs);
        self.hot = false;
        r
    }

    /// Like [`Pool::run`], each program metered with `fuel` edges instead of the configured
    /// fuel (never more: `min(fuel, PoolConfig::fuel)`, 0 counting as unlimited). A program
    /// that runs out is a timeout, as under the configured fuel; the workers live on when it
    /// was served from a setup (a fork server's child, see [`crate::forkserver`]).
    pub fn run_with_fuel(
        &mut self,
        programs: &[Program],
        fuel: u64,
    ) -> Result<Vec<Feedback>, PoolError> {
        let unlimited = |f: u64| if f == 0 { u64::MAX } else { f };
        let f = unlimited(fuel).min(unlimited(self.cfg.fuel));
        self.fuel = Some(if f == u64::MAX { 0 } else { f });
        let r = self.run(programs);
        self.fuel = None;
        r
    }

    /// Runs one concurrent test on the pool's first worker (the others stay idle: a timed
    /// threaded test wants the machine to itself). The deadline applies to each repetition (the
    /// worker refreshes `start_ns`); a repetition past it, a deadlock included, gets the worker
    /// killed and replaced and the run the outcome of its death, never a hang. An `Err` means
    /// the pool itself cannot serve.
    pub fn run_concurrent(&mut self, run: &ConcurrentRun) -> Result<ConcurrentFeedback, PoolError> {
        let i = 0;
        // Bring slot 0 to idle: finish a start, replace a dead or abandoned worker.
        loop {
            match self.slots[i].state {
                SlotState::Busy { .. } => self.respawn(i)?,
                SlotState::Idle if !self.slots[i].inc.keeper.dead.load(SeqCst) => break,
                _ => {
                    let seen = self.bell().seen();
                    let progressed = self.poll(i, &mut [], &mut 0, &mut VecDeque::new(), true)?;
                    if !progressed {
                        self.bell()
                            .wait_past(seen, HOST_SPIN, Some(Duration::from_millis(100)));
                    }
                }
            }
        }
        let seq = {
            let slot = &mut self.slots[i];
            let region = &slot.inc.region;
            let h: &Header = region.at(0);
            let req_off = h.fixed.req_off.load(Relaxed) as usize;
            let req_cap = h.fixed.req_cap.load(Relaxed) as usize;
            // SAFETY: the worker is idle: it does not read the request area until we post.
            let req = unsafe { region.bytes_mut(req_off, req_cap) };
            let Some(used) = protocol::put_frame(req, run) else {
                return Err(PoolError::MessageTooLarge {
                    index: 0,
                    bytes: crate::wire::encode(run).map_or(0, |v| v.len()) + 4,
                    capacity: req_cap,
                });
            };
            let out = &h.from_worker;
            out.done.store(0, Relaxed);
            out.started.store(0, Relaxed);
            out.resp_bytes.store(0, Relaxed);
            out.oom.store(0, Relaxed);
            out.error.store(0, Relaxed);
            let input = &h.to_worker;
            input.req_kind.store(protocol::REQ_CONCURRENT, Relaxed);
            input.req_count.store(1, Relaxed);
            input.req_bytes.store(used as u64, Relaxed);
            let seq = input.req_seq.load(Relaxed).wrapping_add(1);
            input.req_seq.store(seq, SeqCst);
            if input.worker_sleeping.load(SeqCst) != 0 {
                shm::wake(&input.req_seq);
            }
            slot.state = SlotState::Busy {
                first: 0,
                len: 1,
                seq,
                killed_at: None,
            };
            seq
        };
        self.stats.requests += 1;
        let mut killed = false;
        loop {
            let seen = self.bell().seen();
            let inc = &self.slots[i].inc;
            let h = inc.header();
            let out = &h.from_worker;
            if out.resp_seq.load(Acquire) == seq {
                let done = out.done.load(Acquire);
                let err = out.error.load(Relaxed);
                if err != protocol::ERR_NONE || done != 1 {
                    return Err(PoolError::Protocol(format!(
                        "worker answered no concurrent record (error code {err})"
                    )));
                }
                let resp_off = h.fixed.resp_off.load(Relaxed) as usize;
                let resp_cap = h.fixed.resp_cap.load(Relaxed) as usize;
                let used = (out.resp_bytes.load(Relaxed) as usize).min(resp_cap);
                // SAFETY: the worker has published the record and is idle.
                let resp = unsafe { inc.region.bytes(resp_off, used) };
                let (payload, _) = protocol::get_frame(resp).ok_or_else(|| {
                    PoolError::Protocol("the concurrent record is cut short".into())
                })?;
                let fb: ConcurrentFeedback = crate::wire::decode(payload)
                    .map_err(|e| PoolError::Protocol(format!("concurrent record: {e}")))?;
                self.stats.count(&fb.outcome);
                if out.retire.load(Relaxed) != 0 {
                    self.stats.retired += 1;
                    self.respawn(i)?;
                } else {
                    self.slots[i].state = SlotState::Idle;
                }
                return Ok(fb);
            }
            if inc.keeper.dead.load(SeqCst) {
                let tail = inc.keeper.tail();
                let outcome = sandbox::classify(&Autopsy {
                    death: inc.keeper.death().unwrap_or(Death::Signaled(0)),
                    timed_out: killed,
                    oom: out.oom.load(SeqCst) != 0,
                    stderr_tail: &tail,
                });
                self.stats.count(&outcome);
                self.respawn(i)?;
                return Ok(ConcurrentFeedback::failed(outcome));
            }
            if !killed {
                let started = out.started.load(Acquire);
                let start_ns = out.start_ns.load(Relaxed);
                let now = shm::monotonic_ns();
                if started > out.done.load(Acquire)
                    && now.saturating_sub(start_ns) > self.cfg.deadline.as_nanos() as u64
                    && out.start_ns.load(Relaxed) == start_ns
                {
                    inc.keeper.kill();
                    killed = true;
                    continue;
                }
            }
            let timeout = self.next_check();
            self.bell().wait_past(seen, HOST_SPIN, Some(timeout));
        }
    }

    /// Writes as many programs of `[s, e)` as fit into slot `i`'s request area and posts the
    /// request; returns how many were sent.
    fn post(
        &mut self,
        i: usize,
        programs: &[Program],
        s: usize,
        e: usize,
    ) -> Result<usize, PoolError> {
        let slot = &mut self.slots[i];
        let region = &slot.inc.region;
        let h: &Header = region.at(0);
        let req_off = h.fixed.req_off.load(Relaxed) as usize;
        let req_cap = h.fixed.req_cap.load(Relaxed) as usize;
        let resp_cap = h.fixed.resp_cap.load(Relaxed) as usize;
        let record = if self.hot {
            protocol::MAX_HOT_RECORD
        } else {
            protocol::MAX_RECORD
        };
        let max_programs = (resp_cap / record).max(1);
        // SAFETY: the worker is idle: it does not read the request area until we post.
        let req = unsafe { region.bytes_mut(req_off, req_cap) };
        let mut at = 0;
        let mut k = 0;
        for (idx, p) in programs.iter().enumerate().take(e).skip(s) {
            if k == max_programs {
                break;
            }
            match protocol::put_program(&mut req[at..], p) {
                Some(used) => {
                    at += used;
                    k += 1;
                }
                None if k == 0 => {
                    let bytes = crate::wire::encode(p).map_or(0, |v| v.len()) + 4;
                    return Err(PoolError::MessageTooLarge {
                        index: idx,
                        bytes,
                        capacity: req_cap,
                    });
                }
                None => break,
            }
        }
        let out = &h.from_worker;
        out.done.store(0, Relaxed);
        out.started.store(0, Relaxed);
        out.resp_bytes.store(0, Relaxed);
        out.oom.store(0, Relaxed);
        out.error.store(0, Relaxed);
        out.setup_reused.store(0, Relaxed);
        let input = &h.to_worker;
        input.req_kind.store(protocol::REQ_RUN, Relaxed);
        input.want_hot.store(self.hot as u32, Relaxed);
        input
            .fuel
            .store(self.fuel.unwrap_or(self.cfg.fuel), Relaxed);
        input.req_count.store(k as u32, Relaxed);
        input.req_bytes.store(at as u64, Relaxed);
        let seq = input.req_seq.load(Relaxed).wrapping_add(1);
        input.req_seq.store(seq, SeqCst);
        if input.worker_sleeping.load(SeqCst) != 0 {
            shm::wake(&input.req_seq);
        }
        slot.state = SlotState::Busy {
            first: s,
            len: k,
            seq,
            killed_at: None,
        };
        self.stats.requests += 1;
        Ok(k)
    }

    /// Handles whatever slot `i` has to report; returns whether anything changed. With
    /// `deadlines`, also kills a worker past its deadline (which reads the clock).
    fn poll(
        &mut self,
        i: usize,
        results: &mut [Option<Feedback>],
        remaining: &mut usize,
        queue: &mut VecDeque<(usize, usize)>,
        deadlines: bool,
    ) -> Result<bool, PoolError> {
        match self.slots[i].state {
            SlotState::Starting { since } => match self.check_hello(i, since) {
                Ok(true) => {
                    self.slots[i].state = SlotState::Idle;
                    self.slots[i].failures = 0;
                    Ok(true)
                }
                Ok(false) => Ok(false),
                Err(msg) => {
                    let slot = &mut self.slots[i];
                    slot.failures += 1;
                    slot.last_failure = msg;
                    if slot.failures >= MAX_RESPAWN_FAILURES {
                        return Err(PoolError::RespawnFailed(slot.last_failure.clone()));
                    }
                    self.respawn(i)?;
                    Ok(true)
                }
            },
            SlotState::Idle => {
                if self.slots[i].inc.keeper.dead.load(SeqCst) {
                    self.respawn(i)?;
                    return Ok(true);
                }
                Ok(false)
            }
            SlotState::Busy {
                first,
                len,
                seq,
                killed_at,
            } => {
                let inc = &self.slots[i].inc;
                let h = inc.header();
                let out = &h.from_worker;
                if out.resp_seq.load(Acquire) == seq {
                    let done = out.done.load(Acquire) as usize;
                    let err = out.error.load(Relaxed);
                    if err != protocol::ERR_NONE || done != len {
                        return Err(PoolError::Protocol(format!(
                            "worker answered {done} of {len} programs (error code {err})"
                        )));
                    }
                    let reused = out.setup_reused.load(Relaxed) as u64;
                    self.collect(i, first, done, results, remaining)?;
                    self.stats.setup_reused += reused;
                    if self.slots[i].inc.header().from_worker.retire.load(Relaxed) != 0 {
                        self.stats.retired += 1;
                        self.respawn(i)?;
                    } else {
                        self.slots[i].state = SlotState::Idle;
                    }
                    return Ok(true);
                }
                if inc.keeper.dead.load(SeqCst) {
                    self.after_death(i, first, len, killed_at, results, remaining, queue)?;
                    return Ok(true);
                }
                if deadlines && killed_at.is_none() {
                    let started = out.started.load(Acquire);
                    let start_ns = out.start_ns.load(Relaxed);
                    let done = out.done.load(Acquire);
                    let now = shm::monotonic_ns();
                    if started > done
                        && now.saturating_sub(start_ns) > self.cfg.deadline.as_nanos() as u64
                        && out.started.load(Acquire) == started
                    {
                        inc.keeper.kill();
                        if let SlotState::Busy { killed_at, .. } = &mut self.slots[i].state {
                            *killed_at = Some(started);
                        }
                        return Ok(true);
                    }
                }
                Ok(false)
            }
        }
    }

    /// Moves the `done` published records of slot `i`'s chunk (starting at global index
    /// `first`) into `results`.
    fn collect(
        &mut self,
        i: usize,
        first: usize,
        done: usize,
        results: &mut [Option<Feedback>],
        remaining: &mut usize,
    ) -> Result<(), PoolError> {
        let region = &self.slots[i].inc.region;
        let h: &Header = region.at(0);
        let resp_off = h.fixed.resp_off.load(Relaxed) as usize;
        let resp_cap = h.fixed.resp_cap.load(Relaxed) as usize;
        let used = (h.from_worker.resp_bytes.load(Relaxed) as usize).min(resp_cap);
        // SAFETY: the worker has published these records (or is dead) and is idle.
        let resp = unsafe { region.bytes(resp_off, used) };
        let mut at = 0;
        for k in 0..done {
            let (payload, n) = protocol::get_frame(&resp[at..])
                .ok_or_else(|| PoolError::Protocol(format!("feedback record {k} is cut short")))?;
            at += n;
            let fb: Feedback = crate::wire::decode(payload)
                .map_err(|e| PoolError::Protocol(format!("feedback record {k}: {e}")))?;
            self.stats.count(&fb.outcome);
            let slot = &mut results[first + k];
            if slot.is_none() {
                *remaining -= 1;
            }
            *slot = Some(fb);
        }
        Ok(())
    }

    /// Slot `i`'s worker died during a chunk: keep its records, give the program it was
    /// running the outcome of its death, requeue the rest, start a new worker.
    #[allow(clippy::too_many_arguments)]
    fn after_death(
        &mut self,
        i: usize,
        first: usize,
        len: usize,
        killed_at: Option<u32>,
        results: &mut [Option<Feedback>],
        remaining: &mut usize,
        queue: &mut VecDeque<(usize, usize)>,
    ) -> Result<(), PoolError> {
        let (done, oom, fuel_out) = {
            let out = &self.slots[i].inc.header().from_worker;
            self.stats.setup_reused += out.setup_reused.load(Acquire) as u64;
            (
                (out.done.load(Acquire) as usize).min(len),
                out.oom.load(SeqCst) != 0,
                out.fuel_out.load(SeqCst) != 0,
            )
        };
        self.collect(i, first, done, results, remaining)?;
        let mut rest = done + 1;
        if done < len {
            let keeper = &self.slots[i].inc.keeper;
            // A kill for the deadline that landed just after the slow program finished hit
            // its successor, which then gets another chance instead of a wrong verdict.
            let innocent = !fuel_out && killed_at.is_some_and(|k| k as usize != done + 1);
            if innocent {
                rest = done;
            } else {
                let tail = keeper.tail();
                let outcome = sandbox::classify(&Autopsy {
                    death: keeper.death().unwrap_or(Death::Signaled(0)),
                    timed_out: killed_at.is_some() || fuel_out,
                    oom,
                    stderr_tail: &tail,
                });
                self.stats.count(&outcome);
                results[first + done] = Some(Feedback::failed(outcome));
                *remaining -= 1;
            }
        }
        if rest < len {
            queue.push_front((first + rest, first + len));
        }
        self.respawn(i)
    }

    /// Replaces slot `i`'s worker with a new one (its handshake completes asynchronously).
    fn respawn(&mut self, i: usize) -> Result<(), PoolError> {
        self.slots[i].inc.keeper.kill();
        let fresh = self.spawn(i)?;
        let old = std::mem::replace(&mut self.slots[i].inc, fresh);
        self.slots[i].state = SlotState::Starting {
            since: Instant::now(),
        };
        self.stats.restarts += 1;
        reap(old);
        Ok(())
    }

    /// Checks slot `i`'s handshake: `Ok(true)` when it said hello with the pool's schema,
    /// `Ok(false)` while it is still starting, `Err` when it failed.
    fn check_hello(&mut self, i: usize, since: Instant) -> Result<bool, String> {
        let inc = &self.slots[i].inc;
        let h = inc.header();
        let out = &h.from_worker;
        match out.state.load(Acquire) {
            protocol::STATE_READY => {
                let resp_off = h.fixed.resp_off.load(Relaxed) as usize;
                let resp_cap = h.fixed.resp_cap.load(Relaxed) as usize;
                let n = (out.hello_bytes.load(Relaxed) as usize).min(resp_cap);
                // SAFETY: the worker wrote the hello before publishing READY, and writes
                // nothing more until it gets a request.
                let hello = unsafe { inc.region.bytes(resp_off, n) };
                let (payload, _) =
                    protocol::get_frame(hello).ok_or("the hello message is cut short")?;
                if self.schema_bytes.is_empty() {
                    self.schema = crate::wire::decode(payload)
                        .map_err(|e| format!("the worker's schema does not decode: {e}"))?;
                    self.schema_bytes = payload.to_vec();
                } else if self.schema_bytes != payload {
                    return Err(PoolError::SchemaMismatch.to_string());
                }
                Ok(true)
            }
            protocol::STATE_REJECTED => Err(match out.error.load(Relaxed) {
                protocol::ERR_BAD_MAGIC => {
                    "the worker does not recognise the region (bad magic)".into()
                }
                protocol::ERR_BAD_VERSION => format!(
                    "the worker speaks another protocol version than the engine ({})",
                    protocol::VERSION
                ),
                protocol::ERR_HELLO_TOO_LARGE => {
                    "the worker's schema does not fit the shared region; raise shm_size".into()
                }
                e => format!("the worker rejected the region (error code {e})"),
            }),
            _ if inc.keeper.dead.load(SeqCst) => {
                let death = match inc.keeper.death() {
                    Some(Death::Exited(c)) => format!("exited with code {c}"),
                    Some(Death::Signaled(s)) => format!("died from {}", sandbox::signal_name(s)),
                    None => "died".into(),
                };
                let tail = inc.keeper.tail();
                let last = tail
                    .lines()
                    .rev()
                    .find(|l| !l.trim().is_empty())
                    .unwrap_or("");
                Err(format!(
                    "{} {death} before saying hello{}",
                    self.cfg.worker.display(),
                    if last.is_empty() {
                        String::new()
                    } else {
                        format!(": {}", last.trim())
                    }
                ))
            }
            _ if since.elapsed() > HANDSHAKE_TIMEOUT => {
                inc.keeper.kill();
                Err(format!(
                    "{} did not say hello within {:?}",
                    self.cfg.worker.display(),
                    HANDSHAKE_TIMEOUT
                ))
            }
            _ => Ok(false),
        }
    }

    /// How long the driving thread spins before sleeping on the doorbell: [`HOST_SPIN`] while
    /// fewer workers are busy than there are cores, else not at all (the worker that rings
    /// then pays one futex wake per request, a few microseconds, instead of the driver
    /// competing with the workers for the cores).
    fn host_spin(&self) -> Duration {
        let busy = self
            .slots
            .iter()
            .filter(|s| matches!(s.state, SlotState::Busy { .. }))
            .count();
        if busy < self.cores {
            HOST_SPIN
        } else {
            Duration::ZERO
        }
    }

    /// How long the driving thread may sleep before it must look at deadlines again.
    fn next_check(&self) -> Duration {
        let deadline = self.cfg.deadline.as_nanos() as u64;
        let now = shm::monotonic_ns();
        let mut next = deadline.max(1_000_000);
        for s in &self.slots {
            match s.state {
                SlotState::Busy {
                    killed_at: None, ..
                } => {
                    let out = &s.inc.header().from_worker;
                    let started = out.started.load(Acquire);
                    let start_ns = out.start_ns.load(Relaxed);
                    if started > out.done.load(Acquire) {
                        let left = (start_ns + deadline).saturating_sub(now);
                        next = next.min(left + 200_000);
                    } else {
                        // Between two programs: the next one's start is not rung.
                        next = next.min((deadline / 8).max(1_000_000));
                    }
                }
                SlotState::Starting { since } => {
                    let left = HANDSHAKE_TIMEOUT.saturating_sub(since.elapsed());
                    next = next.min(left.as_nanos() as u64 + 1_000_000);
                }
                _ => {}
            }
        }
        Duration::from_nanos(next)
    }

    /// Starts the worker process of slot `slot` on a fresh region.
    fn spawn(&self, slot: usize) -> Result<Incarnation, PoolError> {
        let region = Region::create("perfsyn-worker", self.cfg.shm_size).map_err(PoolError::Shm)?;
        let h: &Header = region.at(0);
        let (req_off, req_cap, resp_off, resp_cap) = protocol::areas(region.len());
        h.fixed
            .header_size
            .store(protocol::HEADER_SIZE as u32, Relaxed);
        h.fixed.region_size.store(region.len() as u64, Relaxed);
        h.fixed.req_off.store(req_off as u64, Relaxed);
        h.fixed.req_cap.store(req_cap as u64, Relaxed);
        h.fixed.resp_off.store(resp_off as u64, Relaxed);
        h.fixed.resp_cap.store(resp_cap as u64, Relaxed);
        h.fixed.heap_limit.store(self.cfg.heap_limit, Relaxed);
        h.fixed
            .thread_cpu
            .store(u32::from(self.cfg.thread_cpu), Relaxed);
        let idle_spin = if self.cfg.workers < self.cores {
            protocol::IDLE_SPIN
        } else {
            Duration::ZERO
        };
        h.fixed
            .idle_spin_ns
            .store(idle_spin.as_nanos() as u64, Relaxed);
        h.fixed.version.store(protocol::VERSION, Relaxed);
        h.fixed.magic.store(protocol::MAGIC, SeqCst);

        let keeper = Arc::new(Keeper::default());
        let fds: [(RawFd, RawFd); 2] = [
            (region.fd().as_raw_fd(), protocol::REGION_FD),
            (self.bell.fd().as_raw_fd(), protocol::BELL_FD),
        ];
        let limits = self.limits;
        let parent = std::process::id() as i32;
        let mut cmd = Command::new(&self.cfg.worker);
        match &self.cfg.bind {
            Some(v) => cmd.env(crate::bind::BIND_ENV, v),
            None => cmd.env_remove(crate::bind::BIND_ENV),
        };
        match self.pins.as_ref().and_then(|p| p.get(slot)) {
            Some(cpu) => cmd.env(crate::affinity::ENV, cpu.to_string()),
            None => cmd.env_remove(crate::affinity::ENV),
        };
        cmd.arg("--serve")
            .env("RUST_BACKTRACE", "0")
            .env(
                crate::forkserver::ENV,
                if self.cfg.setup_reuse { "1" } else { "0" },
            )
            .env(
                crate::rescue::ENV,
                if self.cfg.fuel_rescue { "1" } else { "0" },
            )
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped());
        // SAFETY: `in_child` only makes async-signal-safe syscalls.
        unsafe {
            cmd.pre_exec(move || sandbox::in_child(&fds, &limits, parent));
        }
        let (tx, rx) = std::sync::mpsc::channel();
        let k = keeper.clone();
        let bell = self.bell.clone();
        let thread = std::thread::Builder::new()
            .name("perfsyn-keeper".into())
            .spawn(move || keep(cmd, k, bell, tx))
            .map_err(|e| PoolError::Spawn {
                path: self.cfg.worker.clone(),
                source: e,
            })?;
        match rx.recv() {
            Ok(Ok(())) => Ok(Incarnation {
                region,
                keeper,
                thread: Some(thread),
            }),
            Ok(Err(e)) => {
                let _ = thread.join();
                Err(PoolError::Spawn {
                    path: self.cfg.worker.clone(),
                    source: e,
                })
            }
            Err(_) => Err(PoolError::Spawn {
                path: self.cfg.worker.clone(),
                source: std::io::Error::other("the keeper thread died"),
            }),
        }
    }
}

/// The keeper thread of one worker incarnation: spawns it (so that its parent-death signal
/// is tied to this thread, which outlives it), keeps its stderr tail, and reports its death.
fn keep(
    mut cmd: Command,
    keeper: Arc<Keeper>,
    bell: Arc<Region>,
    started: std::sync::mpsc::Sender<std::io::Result<()>>,
) {
    let mut child = match cmd.spawn() {
        Ok(c) => c,
        Err(e) => {
            let _ = started.send(Err(e));
            return;
        }
    };
    drop(cmd);
    let pid = child.id() as i32;
    keeper.state.lock().unwrap_or_else(|e| e.into_inner()).pid = Some(pid);
    let _ = started.send(Ok(()));
    // Until the worker itself exits (not its zygotes, which inherit the pipe: see
    // `deathwatch`), keeping its stderr tail.
    let mut err = child.stderr.take();
    crate::deathwatch::watch(pid, err.as_mut(), &mut |b| {
        keeper
            .tail
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(b)
    });
    // Wait for the death without reaping, so that `Keeper::kill` never signals a reused pid.
    if let Some(p) = rustix::process::Pid::from_raw(pid) {
        while let Err(rustix::io::Errno::INTR) = rustix::process::waitid(
            rustix::process::WaitId::Pid(p),
            rustix::process::WaitIdOptions::EXITED | rustix::process::WaitIdOptions::NOWAIT,
        ) {}
        // What the worker leaves in its process group goes with it: its zygotes, and any
        // process the target spawned (which the keeper no longer waits for, see
        // `deathwatch`). The unreaped worker still holds the group's id, so it names no
        // other group yet.
        let _ = rustix::process::kill_process_group(p, rustix::process::Signal::KILL);
    }
    {
        let mut st = keeper.state.lock().unwrap_or_else(|e| e.into_inner());
        let death = child.wait().map(Death::of).unwrap_or(Death::Signaled(0));
        st.death = Some(death);
        st.reaped = true;
    }
    keeper.dead.store(true, SeqCst);
    bell.at::<Bell>(0).ring();
}

/// Kills an incarnation and waits for its keeper.
fn reap(mut inc: Incarnation) {
    inc.keeper.kill();
    if let Some(t) = inc.thread.take() {
        let _ = t.join();
    }
}

impl Drop for Pool {
    fn drop(&mut self) {
        for s in &self.slots {
            s.inc.keeper.kill();
        }
        for s in self.slots.drain(..) {
            reap(s.inc);
        }
    }
}
