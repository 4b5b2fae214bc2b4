#!/usr/bin/env bash
# Instructions per request of an instrumented worker serving one small program per request
# (the small programs of `perfsyn bench ipc`, sent again: the cached path), counted by
# callgrind: the difference between runs of N1 and N2 requests, divided by N2 - N1, so that
# start-up and the first decode of each program cancel. Also counts the coverage callbacks
# per request. Deterministic up to the worker's idle spin (uninstrumented, a few dozen
# instructions a turn).
#
# Usage: scripts/callgrind_worker.sh [WORKER]   (default: this worktree's instrumented worker,
# built by any perfsyn command that runs one, e.g. `perfsyn bench ipc`)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
worker=${1:-$root/target/perfsyn-worker/$(rustc -vV | sed -n 's/^host: //p')/release/perfsyn-worker}
[ -x "$worker" ] || { echo "no worker at $worker" >&2; exit 2; }
command -v valgrind >/dev/null || { echo "valgrind is not installed" >&2; exit 2; }
(cd "$root" && cargo build --release --example ipc_requests -q)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat > "$tmp/worker.sh" <<WRAP
#!/bin/sh
exec valgrind --tool=callgrind --callgrind-out-file=$tmp/cg.%p "$worker" "\$@" 2>/dev/null
WRAP
chmod +x "$tmp/worker.sh"
n1=500
n2=1500
for n in $n1 $n2; do
  "$root/target/release/examples/ipc_requests" "$tmp/worker.sh" "$n" > "$tmp/edges.$n"
  mv "$tmp"/cg.[0-9]* "$tmp/profile.$n"
done
python3 - "$tmp" $n1 $n2 <<'PY'
import re, sys
tmp, n1, n2 = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
def read(n):
    total = calls = 0
    cfn = None
    for line in open(f"{tmp}/profile.{n}"):
        if line.startswith("totals:"):
            total = int(line.split()[1])
        m = re.match(r"cfn=\((\d+)\)(?: (.*))?", line)
        if m:
            cfn = m.group(2) or cfn_names.get(m.group(1))
            if m.group(2):
                cfn_names[m.group(1)] = m.group(2)
            continue
        m = re.match(r"fn=\((\d+)\) (.*)", line)
        if m:
            cfn_names[m.group(1)] = m.group(2)
        m = re.match(r"calls=(\d+)", line)
        if m and cfn == "__sanitizer_cov_trace_pc_guard":
            calls += int(m.group(1))
    return total, calls
cfn_names = {}
t1, c1 = read(n1)
cfn_names = {}
t2, c2 = read(n2)
d = n2 - n1
print(f"instructions per request: {(t2 - t1) / d:.0f}")
print(f"coverage callbacks per request: {(c2 - c1) / d:.1f}")
PY
cat "$tmp/edges.$n1"
