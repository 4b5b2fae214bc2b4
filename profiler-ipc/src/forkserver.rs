//! Setup is paid once: a fork server per shared setup (AFL's fork server, one per prefix).
//!
//! Children of a search node mostly differ after their parent's setup (a call injected just
//! before the call under test, a value changed after the loop that builds the input), yet a
//! fresh run rebuilds thousands of elements, interpreted and instrumented, for every one of
//! them. Here the worker (R) forks a *zygote* (Z) per setup: Z runs a program up to its
//! [`seam`] (the statement after the last large loop before the measured call) and then
//! serves: for every program whose statements and variable types start with that setup, it
//! forks a child (C) that continues from the built state with that program's own statements
//! (further setup loops included), measures, sends its feedback record to R and exits. A
//! zygote is started for a program's own setup from its second sighting (most setups of a
//! search occur once); meanwhile, and for setups seen once, the zygote holding the longest
//! setup the program starts with serves it: a search's children mostly keep their parent's
//! setup and add to it (a loop after it, a call), so a parent's zygote serves them too.
//! When no zygote holds it yet but a longer setup the program starts with (one of its
//! [`seams`]) ran before, a zygote is started for that one (an *ancestor*'s setup, seen
//! once): siblings that each append a loop of their own to an expensive parent's setup
//! then build it once instead of once each (measured on `explore --method Vec::dedup
//! --seed 2`: children of a 39M-edge setup, each otherwise rebuilt fresh).
//!
//! Results are those of a fresh run: the interpreter passes every program through the same
//! seam on both paths and charges neither the hook's edges nor its heap bytes (see
//! [`Interpreter::run_seamed`]). Anything unusual falls back to the fresh path in R: a setup
//! that panics or dies, a child that dies (crash, abort, out of memory), a zygote that went
//! away. The one shortcut is fuel: a child that ran out of fuel is a program that runs out
//! of fuel (fuel is deterministic), and so is every program that starts with a setup that
//! ran out of fuel in its zygote under at least the program's fuel: R reports the timeout a
//! fresh run would end with, without running the program again and without dying (its
//! zygotes live on).
//!
//! Fuel is per request: a zygote builds its setup under the fuel of the program that started
//! it, stops checking fuel while it serves, and each child re-arms with its own program's
//! fuel counted from the program's start ([`meter::refuel_after_seam`]), so a child whose fuel the setup
//! already exceeds stops at its first edge, as a fresh run would have stopped in the setup.
//!
//! Messages on a zygote's socket: R sends `[u64 fuel][u32 len][program]`; Z answers `R`
//! (ready) or `F` (its setup failed; it exits) once, then per program `D` + the child's `i32`
//! wait status, preceded by the child's `B [u32 len][feedback]` when the child finished
//! normally.

use std::io::{Read, Write};
use std::os::unix::net::UnixStream;

use crate::feedback::Feedback;
use crate::interp::{seam, seams, Interpreter, Prepared};
use crate::meter;
use crate::program::{Program, Stmt};
use crate::sandbox::die_with_parent;
use crate::seen::SeenTable;

/// Zygotes kept per worker (least recently used evicted): siblings of a few parents.
const MAX_ZYGOTES: usize = 3;
/// Setups that failed in a zygote, remembered so they are not forked again (and, apart,
/// those that ran out of fuel: a program starting with one runs out of fuel too).
const MAX_FAILED: usize = 64;
/// Setups seen once, remembered (by hash) so that the second program with one gets a zygote.
const MAX_SEEN: usize = 256;
/// Environment variable that turns setup reuse off in the worker (`0`).
pub const ENV: &str = "PERFSYN_SETUP_REUSE";

/// The setup a zygote holds: the statements before the seam and the types of the variables
/// they use.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct SetupKey {
    body: Vec<Stmt>,
    vars: Vec<String>,
}

impl SetupKey {
    /// Whether `p` starts with this setup: the same statements (then none of them measures a
    /// call) with variables of the same types. A fresh run of `p` then executes exactly what
    /// the zygote executed up to its seam, edge for edge.
    fn starts(&self, p: &Program) -> bool {
        p.body.get(..self.body.len()) == Some(&self.body[..])
            && p.vars.get(..self.vars.len()) == Some(&self.vars[..])
    }

    fn of(p: &Program) -> Option<SetupKey> {
        SetupKey::at(p, seam(&p.body)?)
    }

    /// The setup of `p`'s first `j` statements.
    fn at(p: &Program, j: usize) -> Option<SetupKey> {
        let body = p.body.get(..j)?.to_vec();
        let used = body.iter().filter_map(max_var).max().map_or(0, |v| v + 1);
        Some(SetupKey {
            vars: p.vars.get(..used)?.to_vec(),
            body,
        })
    }
}

/// The largest variable index a statement mentions.
fn max_var(s: &Stmt) -> Option<usize> {
    let vars: Vec<usize> = match s {
        Stmt::Lit { out, .. } => vec![out.index()],
        Stmt::Ctor { out, args, .. } => std::iter::once(out)
            .chain(args)
            .map(|v| v.index())
            .collect(),
        Stmt::Call {
            out, recv, args, ..
        } => out
            .iter()
            .chain(std::iter::once(recv))
            .chain(args)
            .map(|v| v.index())
            .collect(),
        Stmt::Op { out, arg, .. } => vec![out.index(), arg.index()],
        Stmt::GetField { out, target, .. } => vec![out.index(), target.index()],
        Stmt::SetField { target, value, .. } => vec![target.index(), value.index()],
        Stmt::Repeat { body, .. } => body.iter().filter_map(max_var).collect(),
    };
    vars.into_iter().max()
}

#[derive(Debug)]
struct Zygote {
    key: SetupKey,
    pid: i32,
    sock: UnixStream,
    used: u64,
    /// The zygote's `D` for a child that already sent its feedback is still unread: read
    /// before the next request, so that the worker does not wait for the child's reaping.
    pending: bool,
}

/// What serving a program through a zygote gave.
#[derive(Debug)]
pub enum Served {
    /// The child's feedback record.
    Feedback(Feedback),
    /// The program runs out of fuel (its outcome is a timeout, as on the fresh path).
    OutOfFuel,
    /// Run it the fresh way.
    Fresh,
}

/// Ancestor setups whose programs spent less fuel than this get no zygote: starting one (two forks
/// and three process hand-offs) costs more than rebuilding them for each sibling (measured
/// with `PERFSYN_WORKER_TRACE` on `explore --method Vec::dedup --seed 3` at load 8: a zygote
/// start took 12-15 ms where a fresh run of the same fuel, about 3e5, took 1.6 ms).
pub const MIN_SETUP_FUEL: u64 = 2_000_000;

impl Served {
    /// The answer for a program whose setup failed in a zygote: a timeout if it ran out of
    /// fuel (`starved`), else run it fresh.
    fn after_failed_setup(starved: bool) -> Served {
        if starved {
            Served::OutOfFuel
        } else {
            Served::Fresh
        }
    }
}

/// The worker's zygotes (one process per cached setup).
#[derive(Debug)]
pub struct SetupCache {
    enabled: bool,
    paused: bool,
    zygotes: Vec<Zygote>,
    failed: Vec<SetupKey>,
    /// Setups that ran out of fuel in a zygote, with that fuel: a program starting with one
    /// runs out too under as much fuel or less (with more, it may not).
    starved: Vec<(SetupKey, u64)>,
    /// Hashes of setups seen once, oldest first, with the fuel their program spent (an upper
    /// bound of the setup's; `u64::MAX` unknown): most setups of a search occur once, and a
    /// zygote for those would only add two forks to a fresh run.
    seen: std::collections::VecDeque<(u64, u64)>,
    /// The setup first seen with the program being served, whose cost [`SetupCache::ran`]
    /// records.
    first: Option<u64>,
    tick: u64,
    /// Programs served from a cached setup.
    pub reused: u64,
    /// How the last program was served (for [`crate::trace`]).
    pub last: &'static str,
    /// The setups the pool's other workers ran too, when the pool shares them.
    shared: Option<&'static SeenTable>,
}

impl SetupCache {
    /// A cache, on unless [`ENV`] is `0`.
    pub fn from_env() -> SetupCache {
        SetupCache {
            enabled: std::env::var(ENV).map_or(true, |v| v != "0"),
            paused: false,
            zygotes: Vec::new(),
            failed: Vec::new(),
            starved: Vec::new(),
            seen: std::collections::VecDeque::new(),
            first: None,
            tick: 0,
            reused: 0,
            last: "fresh",
            shared: None,
        }
    }

    /// Also remembers setups in, and looks them up in, `table`, which the pool's workers
    /// share.
    pub fn share(&mut self, table: &'static SeenTable) {
        self.shared = Some(table);
    }

    /// Whether a setup of hash `h` ran before, in this worker or another, with a program
    /// that spent [`MIN_SETUP_FUEL`] or more (or an unknown amount).
    fn seen_costly(&self, h: u64) -> bool {
        let local = self.seen.iter().find(|(x, _)| *x == h).map(|(_, c)| *c);
        let cost = local.or_else(|| self.shared.and_then(|t| t.cost(h)));
        cost.is_some_and(|c| c >= MIN_SETUP_FUEL)
    }

    /// Records what the program just served spent: `fb`'s fuel bounds the cost of the setup
    /// first seen with it (a run that did not complete leaves it unknown).
    pub fn ran(&mut self, fb: &Feedback) {
        let Some(h) = self.first.take() else {
            return;
        };
        let fuel = if fb.is_ok() { fb.fuel_spent } else { u64::MAX };
        if let Some(e) = self.seen.iter_mut().find(|(x, _)| *x == h) {
            e.1 = fuel;
        }
        if let Some(t) = self.shared {
            t.set_cost(h, fuel);
        }
    }

    /// Serves nothing while `paused` (hot counts are wanted: zygotes and their children
    /// would keep the flag they were forked with).
    pub fn pause(&mut self, paused: bool) {
        self.paused = paused;
    }

    /// Runs `p` (whose wire encoding is `bytes`, prepared by `interp` as `prepared`) from a
    /// cached setup when it has a seam; otherwise, or when anything goes wrong, says to run
    /// it fresh.
    pub fn serve(
        &mut self,
        interp: &Interpreter<'_>,
        p: &Program,
        prepared: &Prepared,
        bytes: &[u8],
    ) -> Served {
        self.last = "fresh";
        self.first = None;
        if !self.enabled || self.paused || prepared.seam().is_none() || !prepared.accepted() {
            return Served::Fresh;
        }
        let Some(key) = SetupKey::of(p) else {
            return Served::Fresh;
        };
        let fuel = interp.limits().map_or(u64::MAX, |l| l.fuel);
        if self.starved.iter().any(|(k, f)| fuel <= *f && k.starts(p)) {
            self.last = "starved";
            return Served::OutOfFuel;
        }
        if self.failed.contains(&key) {
            return Served::Fresh;
        }
        self.tick += 1;
        let exact = self.zygotes.iter().position(|z| z.key == key);
        let z = match exact {
            Some(z) => {
                self.reused += 1;
                self.last = "exact";
                z
            }
            None if self.seen_before(&key) => match self.begin(interp, p, key, None, fuel) {
                Ok(z) => z,
                Err(starved) => return Served::after_failed_setup(starved),
            },
            None => {
                // The longest cached setup `p` starts with (an ancestor's, most often)...
                let cached = (0..self.zygotes.len())
                    .filter(|&i| self.zygotes[i].key.starts(p))
                    .max_by_key(|&i| self.zygotes[i].key.body.len());
                let cached_len = cached.map_or(0, |i| self.zygotes[i].key.body.len());
                // ... unless a longer setup `p` starts with ran before: the parent's, whose
                // children (each with a setup of its own, seen once) then share it.
                let seen = seams(&p.body)
                    .into_iter()
                    .rev()
                    .skip(1)
                    .take_while(|&j| j > cached_len)
                    .filter_map(|j| SetupKey::at(p, j).map(|k| (j, k)))
                    .find(|(_, k)| !self.failed.contains(k) && self.seen_costly(hash(k)));
                match (seen, cached) {
                    (Some((j, k)), _) => match self.begin(interp, p, k, Some(j), fuel) {
                        Ok(z) => z,
                        Err(starved) => return Served::after_failed_setup(starved),
                    },
                    (None, Some(z)) => {
                        self.reused += 1;
                        self.last = "prefix";
                        z
                    }
                    (None, None) => return Served::Fresh,
                }
            }
        };
        self.zygotes[z].used = self.tick;
        match ask(&mut self.zygotes[z], bytes, fuel) {
            Some(r) => r,
            None => {
                // The zygote went away (killed, or its socket broke): forget it.
                let z = self.zygotes.remove(z);
                end(z);
                Served::Fresh
            }
        }
    }

    /// Starts a zygote for `key`, the setup of `p` up to its seam or `at`; the zygote's
    /// index, or `Err(true)` when the setup ran out of `fuel` (`p` is a timeout), `Err(false)`
    /// when it failed otherwise (run `p` fresh).
    fn begin(
        &mut self,
        interp: &Interpreter<'_>,
        p: &Program,
        key: SetupKey,
        at: Option<usize>,
        fuel: u64,
    ) -> Result<usize, bool> {
        match self.start(interp, p, key.clone(), at) {
            Ok(z) => {
                self.last = if at.is_some() { "ancestor" } else { "start" };
                Ok(z)
            }
            Err(true) => {
                if self.starved.len() >= MAX_FAILED {
                    self.starved.remove(0);
                }
                self.starved.push((key, fuel));
                Err(true)
            }
            Err(false) => {
                if self.failed.len() >= MAX_FAILED {
                    self.failed.remove(0);
                }
                self.failed.push(key);
                Err(false)
            }
        }
    }

    /// Whether `key` was seen before; remembers it otherwise.
    fn seen_before(&mut self, key: &SetupKey) -> bool {
        let h = hash(key);
        if self.seen.iter().any(|(x, _)| *x == h)
            || self.shared.is_some_and(|t| t.find(h).is_some())
        {
            return true;
        }
        if self.seen.len() >= MAX_SEEN {
            self.seen.pop_front();
        }
        self.seen.push_back((h, u64::MAX));
        if let Some(t) = self.shared {
            t.insert(h);
        }
        self.first = Some(h);
        false
    }

    /// Forks a zygote for `p`'s setup; returns its index, or `Err(true)` if the setup ran
    /// out of fuel, `Err(false)` if it failed otherwise.
    fn start(
        &mut self,
        interp: &Interpreter<'_>,
        p: &Program,
        key: SetupKey,
        at: Option<usize>,
    ) -> Result<usize, bool> {
        if self.zygotes.len() >= MAX_ZYGOTES {
            let lru = (0..self.zygotes.len())
                .min_by_key(|&i| self.zygotes[i].used)
                .expect("at least one zygote");
            end(self.zygotes.remove(lru));
        }
        let (mine, theirs) = UnixStream::pair().map_err(|_| false)?;
        // SAFETY: the worker is single-threaded while it serves programs, so the child may
        // run any code; it never returns from `zygote`.
        let pid = unsafe { libc::fork() };
        if pid < 0 {
            return Err(false);
        }
        if pid == 0 {
            drop(mine);
            // The other zygotes' sockets are not ours: close them without killing anyone.
            for z in self.zygotes.drain(..) {
                drop(z.sock);
            }
            zygote(interp, p, at, theirs);
        }
        drop(theirs);
        let mut z = Zygote {
            key,
            pid,
            sock: mine,
            used: self.tick,
            pending: false,
        };
        let mut tag = [0u8; 1];
        match z.sock.read_exact(&mut tag) {
            Ok(()) if tag[0] == b'R' => {
                self.zygotes.push(z);
                Ok(self.zygotes.len() - 1)
            }
            _ => {
                let status = reap(&mut z);
                Err(status.is_some_and(out_of_fuel))
            }
        }
    }
}

impl Drop for SetupCache {
    fn drop(&mut self) {
        for z in self.zygotes.drain(..) {
            end(z);
        }
    }
}

/// The hash the set of seen setups keeps.
fn hash(key: &SetupKey) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    key.hash(&mut h);
    h.finish()
}

/// Whether a wait status is the exit of a process that ran out of fuel.
fn out_of_fuel(status: i32) -> bool {
    libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == meter::EXIT_OUT_OF_FUEL
}

/// Sends one program to a zygote and reads what became of it; `None` if the zygote is gone.
///
/// A child sends its feedback as its very last act before `_exit(0)`, so a complete record
/// is a finished program: the zygote's `D` for it is read before the next request instead
/// of now.
fn ask(z: &mut Zygote, bytes: &[u8], fuel: u64) -> Option<Served> {
    let sock = &mut z.sock;
    let mut tag = [0u8; 1];
    if z.pending {
        sock.read_exact(&mut tag).ok()?;
        let mut st = [0u8; 4];
        sock.read_exact(&mut st).ok()?;
        z.pending = false;
        if tag[0] != b'D' {
            return None;
        }
    }
    let mut msg = Vec::with_capacity(12 + bytes.len());
    msg.extend_from_slice(&fuel.to_le_bytes());
    msg.extend_from_slice(&(bytes.len() as u32).to_le_bytes());
    msg.extend_from_slice(bytes);
    sock.write_all(&msg).ok()?;
    sock.read_exact(&mut tag).ok()?;
    if tag[0] == b'B' {
        let payload = read_frame(sock)?;
        let fb = crate::wire::decode::<Feedback>(&payload).ok()?;
        z.pending = true;
        return Some(Served::Feedback(fb));
    }
    if tag[0] != b'D' {
        return None;
    }
    let mut st = [0u8; 4];
    sock.read_exact(&mut st).ok()?;
    let status = i32::from_le_bytes(st);
    Some(if out_of_fuel(status) {
        Served::OutOfFuel
    } else {
        Served::Fresh
    })
}

fn read_frame(sock: &mut UnixStream) -> Option<Vec<u8>> {
    let mut len = [0u8; 4];
    sock.read_exact(&mut len).ok()?;
    let mut buf = vec![0u8; u32::from_le_bytes(len) as usize];
    sock.read_exact(&mut buf).ok()?;
    Some(buf)
}

/// Kills a zygote and reaps it.
fn end(mut z: Zygote) {
    // SAFETY: `z.pid` is our child and not reaped yet, so it cannot be someone else's pid.
    unsafe { libc::kill(z.pid, libc::SIGKILL) };
    reap(&mut z);
}

/// Waits for a zygote's end; its wait status.
fn reap(z: &mut Zygote) -> Option<i32> {
    let mut status = 0;
    loop {
        // SAFETY: waits for our own child.
        let r = unsafe { libc::waitpid(z.pid, &mut status, 0) };
        if r == z.pid {
            return Some(status);
        }
        if r < 0 && std::io::Error::last_os_error().kind() != std::io::ErrorKind::Interrupted {
            return None;
        }
    }
}

/// The zygote process: builds `p`'s setup, then forks one child per program it is sent.
/// Never returns.
fn zygote(interp: &Interpreter<'_>, p: &Program, at: Option<usize>, mut sock: UnixStream) -> ! {
    die_with_parent();
    // Out-of-memory and out-of-fuel flags live in the worker's shared header and describe
    // the worker's own program: a zygote or child reports its end by its exit status.
    crate::endflags::detach();
    let mut child = false;
    let mut serve = || -> Option<Program> {
        // The zygote's own edges from here on are no program's: each child re-arms.
        meter::suspend_fuel();
        if sock.write_all(b"R").is_err() {
            exit(0);
        }
        loop {
            let mut fuel = [0u8; 8];
            if sock.read_exact(&mut fuel).is_err() {
                // The worker closed the socket (evicted us, or ended).
                exit(0);
            }
            let Some(bytes) = read_frame(&mut sock) else {
                // The worker closed the socket (evicted us, or ended).
                exit(0);
            };
            let Ok(next) = crate::wire::decode::<Program>(&bytes) else {
                exit(0);
            };
            // SAFETY: this process is single-threaded.
            let pid = unsafe { libc::fork() };
            if pid == 0 {
                die_with_parent();
                // Re-armed once the seam has given back this hook's edges (see
                // `meter::refuel_after_seam`).
                meter::refuel_after_seam(u64::from_le_bytes(fuel));
                child = true;
                return Some(next);
            }
            let mut status = 0;
            if pid > 0 {
                // SAFETY: waits for our own child.
                while unsafe { libc::waitpid(pid, &mut status, 0) } < 0
                    && std::io::Error::last_os_error().kind() == std::io::ErrorKind::Interrupted
                {
                }
            } else {
                // Fork failed: a status that makes the worker run the program fresh.
                status = 0x7f00;
            }
            let mut msg = [b'D', 0, 0, 0, 0];
            msg[1..].copy_from_slice(&status.to_le_bytes());
            if sock.write_all(&msg).is_err() {
                exit(0);
            }
        }
    };
    let mut fb = interp.run_seamed_at(p, at, &mut |_| {}, &mut serve);
    if !child {
        // The setup itself failed before the seam (or the seam was never reached).
        let _ = sock.write_all(b"F");
        exit(0);
    }
    crate::protocol::cap_feedback(&mut fb);
    let Ok(payload) = crate::wire::encode(&fb) else {
        exit(1);
    };
    let mut msg = Vec::with_capacity(5 + payload.len());
    msg.push(b'B');
    msg.extend_from_slice(&(payload.len() as u32).to_le_bytes());
    msg.extend_from_slice(&payload);
    if sock.write_all(&msg).is_err() {
        exit(1);
    }
    exit(0)
}

/// Ends a forked process at once: no destructors, no atexit handlers (they belong to the
/// worker).
fn exit(code: i32) -> ! {
    // SAFETY: _exit ends the process; nothing runs after it.
    unsafe { libc::_exit(code) }
}
