//! The worker end of the shared-memory protocol (see [`crate::protocol`]).
//!
//! Modes of `perfsyn-worker`:
//! - `--schema`: print the registry's schema as JSON and exit (used by `perfsyn list`).
//! - `--serve`: started by the supervisor with the region on fd 3 and the pool doorbell on
//!   fd 4; says hello (magic, version, schema) and runs program batches until told to stop.
//! - `--bench-inprocess FILE REPEATS`: run the programs of FILE (a JSON array) REPEATS times
//!   with the interpreter in this process and print the rate as JSON; the reference figure of
//!   `perfsyn bench ipc` (the engine never links target code, so it cannot measure this
//!   itself).
//! - `--trace FILE OUT`: in a trace build only, run each program of FILE (a JSON array) once
//!   and write what its calls under test read to OUT, as one bincode list of
//!   [`crate::readtrace::ReadTrace`] (see `readtrace`).

use std::os::fd::{FromRawFd, OwnedFd};
use std::sync::atomic::Ordering::*;
use std::time::{Duration, Instant};

use crate::interp::{quiet_panics, Interpreter, RunLimits};
use crate::program::Program;
use crate::protocol::{self, Header};
use crate::registry::Registry;
use crate::shm::{self, Bell, Region};

/// Runs the worker; returns the process exit code.
pub fn main(registry: &Registry) -> i32 {
    let args: Vec<String> = std::env::args().skip(1).collect();
    // A worker of a pair binds one version of each version group (see `bind`).
    let bound;
    let registry = match std::env::var(crate::bind::BIND_ENV) {
        Ok(version) => match crate::bind::bind(registry, &version) {
            Ok(r) => {
                bound = r;
                &bound
            }
            Err(e) => {
                eprintln!("perfsyn-worker: {e}");
                return 2;
            }
        },
        Err(_) => registry,
    };
    match args.first().map(String::as_str) {
        Some("--schema") => match serde_json::to_string(&registry.schema()) {
            Ok(s) => {
                println!("{s}");
                0
            }
            Err(e) => {
                eprintln!("perfsyn-worker: cannot encode the schema: {e}");
                2
            }
        },
        Some("--serve") => serve(registry),
        Some("--bench-inprocess") if args.len() == 3 => {
            bench_inprocess(registry, &args[1], &args[2])
        }
        Some("--trace") if args.len() == 3 => trace_reads(registry, &args[1], &args[2], None),
        Some("--trace") if args.len() == 4 => {
            trace_reads(registry, &args[1], &args[2], Some(&args[3]))
        }
        _ => {
            eprintln!(
                "perfsyn-worker: usage: perfsyn-worker --schema | --serve | --bench-inprocess FILE REPEATS | --trace FILE OUT [MARKERS]"
            );
            2
        }
    }
}

fn serve(registry: &Registry) -> i32 {
    quiet_panics();
    // SAFETY: the supervisor hands us these two fds (see sandbox::in_child); nothing else in
    // this process owns them.
    let (region, bell_region) = unsafe {
        (
            OwnedFd::from_raw_fd(protocol::REGION_FD),
            OwnedFd::from_raw_fd(protocol::BELL_FD),
        )
    };
    let (region, bell_region) = match (Region::map(region), Region::map(bell_region)) {
        (Ok(r), Ok(b)) => (r, b),
        (Err(e), _) | (_, Err(e)) => {
            eprintln!("perfsyn-worker: --serve: cannot map the shared regions: {e}");
            return 3;
        }
    };
    if region.len() < protocol::MIN_REGION || bell_region.len() < std::mem::size_of::<Bell>() {
        eprintln!("perfsyn-worker: --serve: shared regions too small");
        return 3;
    }
    let h: &Header = region.at(0);
    let bell: &Bell = bell_region.at(0);
    let out = &h.from_worker;
    if h.fixed.magic.load(Acquire) != protocol::MAGIC {
        out.error.store(protocol::ERR_BAD_MAGIC, Relaxed);
        out.state.store(protocol::STATE_REJECTED, Release);
        bell.ring();
        return 3;
    }
    if h.fixed.version.load(Relaxed) != protocol::VERSION {
        out.error.store(protocol::ERR_BAD_VERSION, Relaxed);
        out.state.store(protocol::STATE_REJECTED, Release);
        bell.ring();
        return 3;
    }
    crate::meter::set_thread_cpu(h.fixed.thread_cpu.load(Relaxed) != 0);
    crate::endflags::attach(out);
    out.pid.store(std::process::id(), Relaxed);

    let req_off = h.fixed.req_off.load(Relaxed) as usize;
    let req_cap = h.fixed.req_cap.load(Relaxed) as usize;
    let resp_off = h.fixed.resp_off.load(Relaxed) as usize;
    let resp_cap = h.fixed.resp_cap.load(Relaxed) as usize;
    if req_off + req_cap > region.len() || resp_off + resp_cap > region.len() {
        out.error.store(protocol::ERR_BAD_REQUEST, Relaxed);
        out.state.store(protocol::STATE_REJECTED, Release);
        bell.ring();
        return 3;
    }

    // Before the hello: the zygotes and children forked from here on inherit the core.
    let pinned = crate::affinity::pin_from_env();
    warm_up();
    let mut interp = Interpreter::new(registry);
    let heap = match h.fixed.heap_limit.load(Relaxed) {
        0 => u64::MAX,
        heap => heap,
    };
    // SAFETY: the response area belongs to the worker until it publishes a state or a reply.
    let resp = unsafe { region.bytes_mut(resp_off, resp_cap) };
    match protocol::put_frame(resp, interp.schema()) {
        Some(n) => out.hello_bytes.store(n as u32, Relaxed),
        None => {
            out.error.store(protocol::ERR_HELLO_TOO_LARGE, Relaxed);
            out.state.store(protocol::STATE_REJECTED, Release);
            bell.ring();
            return 3;
        }
    }
    let cpu_budget = cpu_limit_ns();
    let mut retire_check = Every::new(RETIRE_CHECK_NS);
    let mut setups = crate::forkserver::SetupCache::from_env();
    if bell_region.len() >= protocol::SEEN_OFFSET + std::mem::size_of::<crate::seen::SeenTable>() {
        // The region stays mapped until the process ends (`serve` never returns before).
        let table: &crate::seen::SeenTable = bell_region.at(protocol::SEEN_OFFSET);
        // SAFETY: the mapping outlives every use: `serve` returns only to exit.
        setups.share(unsafe { &*(table as *const crate::seen::SeenTable) });
    }
    let mut decoded = crate::progcache::DecodeCache::default();
    let input = &h.to_worker;
    let idle_spin = Duration::from_nanos(h.fixed.idle_spin_ns.load(Relaxed));
    // Read before saying hello: the first request may be posted the moment we do.
    let mut last = input.req_seq.load(Acquire);
    // The request and response areas, as a run request and the warden use them.
    let areas = || crate::rescue::Region {
        input,
        out,
        // SAFETY: the host does not touch the request area until we reply.
        req: unsafe { region.bytes(req_off, req_cap) },
        // SAFETY: as for the hello; only one of the warden and its runner runs at a time.
        resp: unsafe { region.bytes_mut(resp_off, resp_cap) },
    };
    // From here on a warden waits and runners run (see `rescue`).
    let mut resume = crate::rescue::split(areas());
    if resume.is_none() {
        out.state.store(protocol::STATE_READY, Release);
        bell.ring();
    }

    loop {
        // A new runner first finishes the run request whose program ran out of fuel.
        let (seq, kind, from) = match resume.take() {
            Some(r) => (r.seq, protocol::REQ_RUN, r.from),
            None => {
                // Wait for the next request: spin briefly, then sleep on the shared futex.
                while input.req_seq.load(Acquire) == last {
                    if shm::spin_until_changed(&input.req_seq, last, idle_spin) {
                        break;
                    }
                    input.worker_sleeping.store(1, SeqCst);
                    if input.req_seq.load(SeqCst) == last {
                        shm::wait(&input.req_seq, last, None);
                    }
                    input.worker_sleeping.store(0, SeqCst);
                }
                (input.req_seq.load(Acquire), input.req_kind.load(Relaxed), 0)
            }
        };
        last = seq;
        match kind {
            protocol::REQ_RUN => {
                run_request(&mut interp, &mut setups, &mut decoded, areas(), heap, from);
                if retire_check.due() && process_cpu_ns() > cpu_budget / 2 {
                    out.retire.store(1, Relaxed);
                }
            }
            protocol::REQ_CONCURRENT => {
                let bytes = (input.req_bytes.load(Relaxed) as usize).min(req_cap);
                // SAFETY: the host does not touch the request area until we reply.
                let req = unsafe { region.bytes(req_off, bytes) };
                // SAFETY: as for the hello.
                let resp = unsafe { region.bytes_mut(resp_off, resp_cap) };
                // A concurrent test's threads need every core the worker may use.
                if let Some(p) = &pinned {
                    p.release();
                }
                if let Err(code) = run_concurrent(registry, &interp, out, req, resp) {
                    out.error.store(code, Relaxed);
                }
                if let Some(p) = &pinned {
                    p.pin();
                }
                if process_cpu_ns() > cpu_budget / 2 {
                    out.retire.store(1, Relaxed);
                }
            }
            protocol::REQ_SHUTDOWN => {
                out.resp_seq.store(seq, Release);
                bell.ring();
                return 0;
            }
            _ => out.error.store(protocol::ERR_BAD_REQUEST, Relaxed),
        }
        out.resp_seq.store(seq, Release);
        bell.ring();
    }
}

/// Runs the programs of the current run request from its `from`-th on (0 unless a new
/// runner takes over, see `rescue`), with `heap` bytes of heap each.
fn run_request(
    interp: &mut Interpreter<'_>,
    setups: &mut crate::forkserver::SetupCache,
    decoded: &mut crate::progcache::DecodeCache,
    r: crate::rescue::Region<'_>,
    heap: u64,
    from: usize,
) {
    let input = r.input;
    crate::meter::set_hot_wanted(input.want_hot.load(Relaxed) != 0);
    // Always metered (an unlimited fuel is `u64::MAX`), so that every run arms and reports
    // `fuel_spent` the same way whatever its request's fuel.
    interp.set_limits(Some(RunLimits {
        fuel: match input.fuel.load(Relaxed) {
            0 => u64::MAX,
            fuel => fuel,
        },
        heap,
    }));
    // A zygote keeps the flag it was forked with: hot runs go the fresh way. Nor after a
    // program drew randomness on this thread (see `run_batch`).
    setups.pause(input.want_hot.load(Relaxed) != 0 || crate::entropy::tainted());
    let count = input.req_count.load(Relaxed) as usize;
    let bytes = (input.req_bytes.load(Relaxed) as usize).min(r.req.len());
    let batch = Batch {
        req: &r.req[..bytes],
        count,
        from,
    };
    if let Err(code) = run_batch(interp, setups, decoded, r.out, batch, r.resp) {
        r.out.error.store(code, Relaxed);
    }
}

/// The programs of a run request: `count` frames in `req`, to run from the `from`-th on.
struct Batch<'a> {
    req: &'a [u8],
    count: usize,
    from: usize,
}

/// Calls memcpy, memmove and memset once, so that the counting versions resolve libc's
/// (`dlsym`, a first-call-only branch with its own edges) before any measurement: otherwise
/// the first program of a fresh worker to shift a vector would count one edge more.
fn warm_up() {
    use std::hint::black_box;
    let n = black_box(1024usize);
    let mut buf = vec![0u8; 2 * n];
    let src = black_box(vec![1u8; n]);
    buf[..n].copy_from_slice(&src);
    // SAFETY: both ranges lie in `buf` (overlapping on purpose: a memmove).
    unsafe { std::ptr::copy(buf.as_ptr(), buf.as_mut_ptr().add(1), n) };
    buf.fill(black_box(3));
    black_box(&buf);
}

/// Runs the `count` programs framed in `req`, appending one feedback frame per program to
/// `resp` and publishing it as soon as that program ends. Uninstrumented (see `meter`, "The
/// uninstrumented runtime").
#[export_name = "__sanitizer_perfsyn_worker_run_batch"]
#[inline(never)]
fn run_batch(
    interp: &Interpreter<'_>,
    setups: &mut crate::forkserver::SetupCache,
    decoded: &mut crate::progcache::DecodeCache,
    out: &protocol::FromWorker,
    batch: Batch<'_>,
    resp: &mut [u8],
) -> Result<(), u32> {
    let req = batch.req;
    let mut at = 0;
    for _ in 0..batch.from {
        at += protocol::get_frame(&req[at..])
            .ok_or(protocol::ERR_BAD_REQUEST)?
            .1;
    }
    let mut written = out.resp_bytes.load(Relaxed) as usize;
    // Counted from what an earlier runner of this request counted (see `rescue`).
    let reused = setups
        .reused
        .wrapping_sub(u64::from(out.setup_reused.load(Relaxed)));
    for i in batch.from..batch.count {
        let (payload, used) = protocol::get_frame(&req[at..]).ok_or(protocol::ERR_BAD_REQUEST)?;
        at += used;
        let (program, prepared) = decoded
            .prepared(payload, interp)
            .ok_or(protocol::ERR_BAD_REQUEST)?;
        out.oom.store(0, Relaxed);
        let t0 = shm::monotonic_ns();
        out.start_ns.store(t0, Relaxed);
        out.started.store(i as u32 + 1, Release);
        // Every program draws randomness from the same stream; once one drew on this
        // thread, no zygote is forked from it (it would inherit the thread's generators, see
        // `entropy`), from the next program of this batch on.
        crate::entropy::reset();
        if crate::entropy::tainted() {
            setups.pause(true);
        }
        let mut fb = match setups.serve(interp, program, prepared, payload) {
            crate::forkserver::Served::Feedback(fb) => fb,
            crate::forkserver::Served::Fresh => run_fresh(interp, program, prepared),
            // The record the supervisor writes for a fresh run that ran out of fuel, without
            // the fresh run's death: this worker and its zygotes live on.
            crate::forkserver::Served::OutOfFuel => {
                crate::feedback::Feedback::failed(crate::feedback::Outcome::Timeout)
            }
        };
        setups.ran(&fb);
        if !crate::meter::thread_cpu_on() {
            // The figure of the cheap stand-in clock (see `meter::set_thread_cpu`).
            fb.cost.cpu_ns = 0;
        }
        protocol::cap_feedback(&mut fb);
        let n = protocol::put_feedback(&mut resp[written..], &fb)
            .ok_or(protocol::ERR_RECORD_TOO_LARGE)?;
        written += n;
        out.resp_bytes.store(written as u64, Relaxed);
        out.setup_reused
            .store(setups.reused.wrapping_sub(reused) as u32, Relaxed);
        out.done.store(i as u32 + 1, Release);
        if crate::trace::on() {
            crate::trace::program(setups.last, program, &fb, shm::monotonic_ns() - t0);
        }
    }
    Ok(())
}

/// Runs `program` in this process: on this thread until a program draws randomness here,
/// then each on a thread of its own (see `entropy`), where thread-local generators start
/// unseeded as they did for the first one. Inlined into the uninstrumented `run_batch`, as
/// the `entropy` calls it makes: the worker's per-program path carries no guard.
#[inline(always)]
fn run_fresh(
    interp: &Interpreter<'_>,
    program: &Program,
    prepared: &mut crate::interp::Prepared,
) -> crate::feedback::Feedback {
    if crate::entropy::tainted() {
        /// The prepared program crosses to the program's thread and back while this thread
        /// waits; its buffers are empty between runs (`interp::Buffers`).
        struct Lent<'a>(&'a mut crate::interp::Prepared);
        // SAFETY: the scoped thread is the only one using it until it is joined.
        unsafe impl Send for Lent<'_> {}
        let lent = Lent(prepared);
        return crate::entropy::on_own_thread(move || {
            let lent = lent;
            interp.run_prepared(program, lent.0)
        });
    }
    let draws = crate::entropy::draws();
    let fb = interp.run_prepared(program, prepared);
    if crate::entropy::draws() != draws {
        crate::entropy::taint();
    }
    fb
}

/// Runs the one concurrent test framed in `req` and writes its feedback frame. `start_ns` is
/// refreshed before every repetition: the supervisor's deadline then bounds one repetition,
/// and a deadlocked one gets the worker killed.
fn run_concurrent(
    registry: &Registry,
    interp: &Interpreter<'_>,
    out: &protocol::FromWorker,
    req: &[u8],
    resp: &mut [u8],
) -> Result<(), u32> {
    let (payload, _) = protocol::get_frame(req).ok_or(protocol::ERR_BAD_REQUEST)?;
    let run: crate::concurrent::ConcurrentRun =
        crate::wire::decode(payload).map_err(|_| protocol::ERR_BAD_REQUEST)?;
    out.oom.store(0, Relaxed);
    out.start_ns.store(shm::monotonic_ns(), Relaxed);
    out.started.store(1, Release);
    let heartbeat = || out.start_ns.store(shm::monotonic_ns(), Relaxed);
    let mut fb = crate::concurrent::execute(registry, interp.schema(), &run, &heartbeat);
    drop(run);
    protocol::cap_concurrent(&mut fb);
    let n = protocol::put_frame(resp, &fb).ok_or(protocol::ERR_RECORD_TOO_LARGE)?;
    out.resp_bytes.store(n as u64, Relaxed);
    out.done.store(1, Release);
    Ok(())
}

/// How often a worker serving run requests reads its CPU time to decide whether to retire:
/// the process CPU clock is a system call (the thread and process clocks have no vDSO
/// path), a third of the worker's system calls per small program when read per request.
const RETIRE_CHECK_NS: u64 = 20_000_000;

/// True at most once per period of the monotonic clock (which the vDSO reads).
struct Every {
    period: u64,
    next: u64,
}

impl Every {
    fn new(period: u64) -> Every {
        Every { period, next: 0 }
    }

    fn due(&mut self) -> bool {
        let now = shm::monotonic_ns();
        if now < self.next {
            return false;
        }
        self.next = now + self.period;
        true
    }
}

fn process_cpu_ns() -> u64 {
    // libc, not rustix: see shm::monotonic_ns.
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime writes into the timespec we own.
    unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut ts) };
    ts.tv_sec as u64 * 1_000_000_000 + ts.tv_nsec as u64
}

fn cpu_limit_ns() -> u64 {
    match rustix::process::getrlimit(rustix::process::Resource::Cpu).current {
        Some(s) => s.saturating_mul(1_000_000_000),
        None => u64::MAX,
    }
}

/// The result of `--bench-inprocess`.
#[derive(Debug, serde::Serialize, serde::Deserialize)]
pub struct InProcessBench {
    /// Program executions timed.
    pub runs: u64,
    pub seconds: f64,
    pub programs_per_sec: f64,
    /// The same, decoding, checking and compiling each program first (a program the
    /// worker has not cached).
    pub programs_per_sec_with_decode: f64,
}

/// `--trace FILE OUT [MARKERS]`: each program of FILE run once, its reads written to OUT;
/// MARKERS, the link-time addresses (hexadecimal, one a line) of the guards whose hits mark
/// loop iterations (`readtrace::ReadTrace::loop_hits`).
fn trace_reads(registry: &Registry, file: &str, out: &str, markers: Option<&str>) -> i32 {
    if !crate::readtrace::enabled() {
        eprintln!("perfsyn-worker: --trace needs the trace build of this worker");
        return 2;
    }
    if let Some(m) = markers {
        let pcs = match std::fs::read_to_string(m) {
            Ok(t) => t
                .lines()
                .map(|l| u64::from_str_radix(l.trim(), 16))
                .collect::<Result<std::collections::HashSet<u64>, _>>(),
            Err(e) => {
                eprintln!("perfsyn-worker: cannot read {m}: {e}");
                return 2;
            }
        };
        match pcs {
            // SAFETY: the engine read these guard addresses from this binary.
            Ok(pcs) => unsafe {
                crate::activations::mark_loops(&pcs.into_iter().collect::<Vec<_>>())
            },
            Err(e) => {
                eprintln!("perfsyn-worker: {m}: not hexadecimal addresses one a line: {e}");
                return 2;
            }
        }
    }
    quiet_panics();
    let programs: Vec<Program> = match std::fs::read_to_string(file)
        .map_err(|e| e.to_string())
        .and_then(|t| serde_json::from_str(&t).map_err(|e| e.to_string()))
    {
        Ok(p) => p,
        Err(e) => {
            eprintln!("perfsyn-worker: {file}: not a readable JSON array of programs: {e}");
            return 2;
        }
    };
    let interp = Interpreter::new(registry);
    crate::meter::set_thread_cpu(false);
    let mut traces = Vec::with_capacity(programs.len());
    for p in &programs {
        crate::readtrace::take();
        let start = Instant::now();
        std::hint::black_box(interp.run(p));
        let nanos = start.elapsed().as_nanos() as u64;
        let mut t = crate::readtrace::take();
        t.nanos = nanos;
        t.to_link_time(crate::hot::load_bias() as u64);
        traces.push(t);
    }
    let bytes = match crate::wire::encode(&traces) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("perfsyn-worker: cannot encode the traces: {e}");
            return 2;
        }
    };
    match std::fs::write(out, bytes) {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("perfsyn-worker: cannot write {out}: {e}");
            2
        }
    }
}

fn bench_inprocess(registry: &Registry, file: &str, repeats: &str) -> i32 {
    quiet_panics();
    let text = match std::fs::read_to_string(file) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("perfsyn-worker: cannot read {file}: {e}");
            return 2;
        }
    };
    let programs: Vec<Program> = match serde_json::from_str(&text) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("perfsyn-worker: {file} is not a JSON array of programs: {e}");
            return 2;
        }
    };
    let Ok(repeats) = repeats.parse::<u64>() else {
        eprintln!("perfsyn-worker: REPEATS must be a number, not {repeats}");
        return 2;
    };
    let interp = Interpreter::new(registry);
    // As the pools of `perfsyn bench ipc` run (`PoolConfig::new`): no thread CPU clock, and
    // each program checked and compiled once, as a worker's program cache keeps it.
    crate::meter::set_thread_cpu(false);
    let mut prepared: Vec<_> = programs.iter().map(|p| interp.prepare(p)).collect();
    // Warm up once, as the pool's workers are warm after their first batch.
    for (p, c) in programs.iter().zip(&mut prepared) {
        std::hint::black_box(interp.run_prepared(p, c));
    }
    let start = Instant::now();
    for _ in 0..repeats {
        for (p, c) in programs.iter().zip(&mut prepared) {
            std::hint::black_box(interp.run_prepared(p, c));
        }
    }
    let seconds = start.elapsed().as_secs_f64();
    let runs = repeats * programs.len() as u64;
    // The same with the wire decoding, checking and compiling of each program: what a
    // program the worker has not seen before costs it besides writing its feedback record.
    let encoded: Vec<Vec<u8>> = programs
        .iter()
        .map(|p| crate::wire::encode(p).expect("plain data"))
        .collect();
    let start = Instant::now();
    for _ in 0..repeats {
        for bytes in &encoded {
            let p: Program = crate::wire::decode(bytes).expect("just encoded");
            std::hint::black_box(interp.run(&p));
        }
    }
    let with_decode = start.elapsed().as_secs_f64();
    let r = InProcessBench {
        runs,
        seconds,
        programs_per_sec: runs as f64 / seconds.max(1e-9),
        programs_per_sec_with_decode: runs as f64 / with_decode.max(1e-9),
    };
    println!("{}", serde_json::to_string(&r).expect("plain struct"));
    0
}
