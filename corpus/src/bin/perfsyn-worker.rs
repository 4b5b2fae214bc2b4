//! The perfsyn worker: serves program batches from the engine over shared memory.
//!
//! Built with sanitizer-coverage by the engine; see `perfsyn_profiler_ipc::worker`.

perfsyn_profiler_ipc::worker_runtime!();

fn main() {
    std::process::exit(perfsyn_profiler_ipc::worker::main(
        &perfsyn_corpus::registry(),
    ));
}
