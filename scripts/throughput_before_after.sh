#!/usr/bin/env bash
# Search throughput of two perfsyn builds on the same seeded explores, run interleaved in one
# session: a ratio taken in one run is stable on a shared machine where absolute rates are not.
#
#   scripts/throughput_before_after.sh OLD_BIN NEW_BIN
#
# Each case is `perfsyn explore --method M --max-programs N --seed S --workers W
# --confirm-top 0 --json`, the flags both the first release with a program budget and the
# current one accept. Programs per second = `stats.programs` / `stats.elapsed_ms` of the run's
# JSON: the programs the search ran over the search phase's wall time (the pool is already up;
# sweeping, judging and shrinking after the search are not counted). The whole command's wall
# time is printed beside it.
#
# Workers: OLD_WORKER / NEW_WORKER if set, else a `perfsyn-worker` beside the binary, else the
# binary builds or finds its own (which needs the source tree it was built from).
# Environment: CASES (default "Vec::dedup:1,2,3 BTreeMap::insert:1 HashMap::remove:1"),
# MAX_PROGRAMS (300), WORKERS (2), ROUNDS (3), KEEP (a directory to keep the JSON in), FLAGS
# (more explore flags for both builds, e.g. "--deadline 100ms").
# Each case runs ROUNDS times per build, old and new alternating which goes first; a row shows
# the median round's search time (the programs run are the same in every round: the seed and
# the program budget fix them). One round per build was not enough on a busy host: the same
# two builds gave 7.5x one day and 9.7x the day before, with single cases moving by 20%.
# Exit status: 0 done, 1 a run failed or printed no JSON, 2 usage.
set -euo pipefail

usage() {
    echo "usage: $0 OLD_BIN NEW_BIN (see the header for CASES, MAX_PROGRAMS, WORKERS, OLD_WORKER, NEW_WORKER, KEEP)" >&2
    exit 2
}
[[ $# -eq 2 ]] || usage
old_bin=$1
new_bin=$2
for b in "$old_bin" "$new_bin"; do
    [[ -x "$b" ]] || { echo "throughput_before_after: $b is not an executable perfsyn binary" >&2; exit 2; }
done
command -v jq >/dev/null || { echo "throughput_before_after: needs jq (apt-get install jq)" >&2; exit 2; }

cases=${CASES:-"Vec::dedup:1,2,3 BTreeMap::insert:1 HashMap::remove:1"}
max_programs=${MAX_PROGRAMS:-300}
rounds=${ROUNDS:-3}
workers=${WORKERS:-2}
out=${KEEP:-$(mktemp -d)}
mkdir -p "$out"

# worker_flag BIN OVERRIDE: the --worker flag for BIN, or nothing.
worker_flag() {
    local bin=$1 given=$2
    if [[ -n "$given" ]]; then
        echo "--worker $given"
    elif [[ -x "$(dirname "$bin")/perfsyn-worker" ]]; then
        echo "--worker $(dirname "$bin")/perfsyn-worker"
    fi
}
old_worker=$(worker_flag "$old_bin" "${OLD_WORKER:-}")
new_worker=$(worker_flag "$new_bin" "${NEW_WORKER:-}")

# run LABEL BIN WORKERFLAG METHOD SEED: one explore; prints "programs elapsed_ms wall_ms
# timeouts".
run() {
    local label=$1 bin=$2 wflag=$3 method=$4 seed=$5
    local json="$out/$label-${method//::/_}-$seed.json"
    local t0 t1
    t0=$(date +%s%N)
    # Explore exits 1 when it reports a finding; the JSON decides whether the run happened.
    # shellcheck disable=SC2086
    "$bin" explore --method "$method" --max-programs "$max_programs" --seed "$seed" \
        --workers "$workers" --confirm-top 0 --json --out "$out/$label-run-${method//::/_}-$seed.json" \
        $wflag ${FLAGS:-} >"$json" 2>"$json.err" || true
    t1=$(date +%s%N)
    if ! jq -e '.stats.programs' "$json" >/dev/null 2>&1; then
        echo "throughput_before_after: $label $method seed $seed printed no report: $(tail -n 1 "$json.err")" >&2
        exit 1
    fi
    jq -r --arg wall $(( (t1 - t0) / 1000000 )) \
        '"\(.stats.programs) \(.stats.elapsed_ms) \($wall) \(.stats.timeouts)"' "$json"
}

# median LINES: of lines "programs elapsed_ms wall_ms timeouts", the one with the median
# elapsed_ms (the upper one of an even count).
median() { sort -n -k2 <<<"${1%$'\n'}" | awk '{ l[NR] = $0 } END { print l[int(NR / 2) + 1] }'; }
rate() { awk -v p="$1" -v ms="$2" 'BEGIN { printf "%.1f", (ms > 0 ? p * 1000 / ms : 0) }'; }
secs() { awk -v ms="$1" 'BEGIN { printf "%.2f", ms / 1000 }'; }

echo "# load before: $(uptime)"
echo "# $max_programs programs, $workers workers, median of $rounds rounds${FLAGS:+, $FLAGS}; n = programs run, t/o = timeouts among them"
row='%-18s %4s | %5s %4s %8s %7s %7s | %5s %4s %8s %7s %7s | %7s\n'
printf "$row" method seed old_n t/o search_s wall_s p/s new_n t/o search_s wall_s p/s new/old
i=0
logsum=0
for c in $cases; do
    method=${c%:*}
    seeds=${c##*:}
    for s in ${seeds//,/ }; do
        olist=""
        nlist=""
        for ((r = 0; r < rounds; r++)); do
            if (( (i + r) % 2 == 0 )); then
                o=$(run old "$old_bin" "$old_worker" "$method" "$s")
                n=$(run new "$new_bin" "$new_worker" "$method" "$s")
            else
                n=$(run new "$new_bin" "$new_worker" "$method" "$s")
                o=$(run old "$old_bin" "$old_worker" "$method" "$s")
            fi
            olist+="$o"$'\n'
            nlist+="$n"$'\n'
        done
        i=$((i + 1))
        read -r op oms owall oto <<<"$(median "$olist")"
        read -r np nms nwall nto <<<"$(median "$nlist")"
        orate=$(rate "$op" "$oms")
        nrate=$(rate "$np" "$nms")
        ratio=$(awk -v a="$nrate" -v b="$orate" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')
        logsum=$(awk -v l="$logsum" -v r="$ratio" 'BEGIN { print l + (r > 0 ? log(r) : 0) }')
        printf "$row" "$method" "$s" "$op" "$oto" "$(secs "$oms")" "$(secs "$owall")" "$orate" \
            "$np" "$nto" "$(secs "$nms")" "$(secs "$nwall")" "$nrate" "${ratio}x"
    done
done
echo "# geometric mean of new/old over $i cases: $(awk -v l="$logsum" -v n="$i" 'BEGIN { printf "%.2fx", exp(l / n) }')"
echo "# load after: $(uptime)"
echo "# p/s = stats.programs / stats.elapsed_ms (the search phase); reports in $out"
