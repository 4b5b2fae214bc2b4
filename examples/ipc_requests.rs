//! Sends N one-program requests (the small programs of `perfsyn bench ipc`, in turn) through
//! one worker, then asks the worker to end with SIGTERM, so that a worker run under
//! `valgrind --tool=callgrind` (through a wrapper script passed as WORKER) writes its
//! profile. Used by `scripts/callgrind_worker.sh`: instruction counts per request are the
//! round-trip figure that means something on a loaded machine.
//!
//! Usage: `ipc_requests WORKER N`; prints the edges of the first round's programs.

use perfsyn_profiler_ipc::{Pool, PoolConfig};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (Some(worker), Some(n)) = (args.get(1), args.get(2).and_then(|n| n.parse().ok())) else {
        eprintln!("usage: ipc_requests WORKER N");
        std::process::exit(2);
    };
    let mut cfg = PoolConfig::new(worker.into());
    cfg.workers = 1;
    cfg.deadline = std::time::Duration::from_secs(60);
    let mut pool = Pool::start(cfg).expect("start the worker");
    let set = perfsyn::commands::bench::ipc::small_programs();
    let mut edges = Vec::new();
    for i in 0..n {
        let p = &set[i % set.len()];
        let fb = pool.run(std::slice::from_ref(p)).expect("run a program");
        assert!(fb[0].is_ok(), "{:?}", fb[0].outcome);
        if i < set.len() {
            edges.push(fb[0].cost.edges);
        }
    }
    println!("edges {edges:?}");
    // The pool kills its workers with SIGKILL when dropped; SIGTERM first lets valgrind
    // write the profile. The worker is this process's only child.
    let me = std::process::id().to_string();
    let out = std::process::Command::new("pgrep")
        .args(["-P", &me])
        .output()
        .expect("run pgrep");
    for pid in String::from_utf8_lossy(&out.stdout).split_whitespace() {
        let _ = std::process::Command::new("kill")
            .args(["-TERM", pid])
            .status();
    }
    std::thread::sleep(std::time::Duration::from_secs(3));
}
