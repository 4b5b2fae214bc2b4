#!/usr/bin/env bash
# Loads a hunt's report.html in headless Chromium and fails if the page logs any console
# error (an uncaught exception, a resource that failed to load, a blocked request) or does
# not render. Optionally takes a screenshot.
#
#   scripts/check-report.sh DIR [--screenshot PNG]    check DIR/report.html
#   scripts/check-report.sh --self-test               check that the checker catches errors
#
# Installs nothing: uses $CHROMIUM, else /usr/bin/chromium (Debian: apt-get install chromium).
# Exit status: 0 clean, 1 errors found, 2 usage, 77 no Chromium (skipped).
#
# How: Chromium runs headless with networking and background services off and logs to
# stderr (--enable-logging=stderr --v=0), where every console message of the page appears as
# a CONSOLE line and uncaught exceptions as "Uncaught ..."; --dump-dom prints the DOM after
# load, which must contain the report's heading (so a blank or broken page fails too).
set -euo pipefail

chromium="${CHROMIUM:-/usr/bin/chromium}"
if [[ ! -x "$chromium" ]]; then
    echo "check-report: no Chromium at $chromium (apt-get install chromium, or set CHROMIUM); skipped" >&2
    exit 77
fi

usage() {
    echo "usage: $0 DIR [--screenshot PNG] | --self-test" >&2
    exit 2
}

# run_chromium FILE LOG [extra flags...]: loads FILE, DOM to stdout, log to LOG.
run_chromium() {
    local file="$1" log="$2"
    shift 2
    local profile
    profile="$(mktemp -d)"
    # timeout: a page that never finishes loading is an error, not a hang.
    timeout 60 "$chromium" --headless --no-sandbox --disable-gpu \
        --disable-background-networking --disable-component-update --disable-sync \
        --disable-default-apps --disable-extensions --no-first-run --no-default-browser-check \
        --user-data-dir="$profile" --enable-logging=stderr --v=0 \
        "$@" "file://$file" 2>"$log"
    local rc=$?
    rm -rf "$profile"
    return $rc
}

# errors_in LOG: the page's console errors and load failures, one per line.
errors_in() {
    grep -E 'CONSOLE|Uncaught|Failed to load resource|net::ERR_|Refused to' "$1" || true
}

# check FILE EXPECT: 0 when FILE loads with no console error and its DOM contains EXPECT.
check() {
    local file="$1" expect="$2"
    local log dom
    log="$(mktemp)"
    dom="$(mktemp)"
    if ! run_chromium "$file" "$log" --dump-dom >"$dom"; then
        echo "check-report: Chromium failed on $file:" >&2
        tail -n 20 "$log" >&2
        rm -f "$log" "$dom"
        return 1
    fi
    local errors
    errors="$(errors_in "$log")"
    local bad=0
    if [[ -n "$errors" ]]; then
        echo "check-report: console errors in $file:" >&2
        echo "$errors" >&2
        bad=1
    fi
    if ! grep -qF "$expect" "$dom"; then
        echo "check-report: $file did not render (no \"$expect\" in the DOM)" >&2
        bad=1
    fi
    rm -f "$log" "$dom"
    return $bad
}

if [[ "${1:-}" == "--self-test" ]]; then
    tmp="$(mktemp -d)"
    trap 'rm -rf "$tmp"' EXIT
    printf '<!DOCTYPE html><html><body><h1>fine</h1></body></html>\n' >"$tmp/good.html"
    printf '<!DOCTYPE html><html><body><h1>broken</h1><script>no_such_function();</script></body></html>\n' >"$tmp/throws.html"
    printf '<!DOCTYPE html><html><body><h1>logs</h1><script>console.error("boom")</script></body></html>\n' >"$tmp/logs.html"
    check "$tmp/good.html" "<h1>fine</h1>" || { echo "self-test: a clean page was flagged" >&2; exit 1; }
    for page in throws logs; do
        if check "$tmp/$page.html" "<h1>" 2>/dev/null; then
            echo "self-test: the error of $page.html was not caught" >&2
            exit 1
        fi
    done
    echo "check-report self-test: ok (a clean page passes, an uncaught exception and console.error fail)"
    exit 0
fi

[[ $# -ge 1 ]] || usage
dir="$1"
shift
shot=""
while [[ $# -gt 0 ]]; do
    case "$1" in
        --screenshot)
            [[ $# -ge 2 ]] || usage
            shot="$2"
            shift 2
            ;;
        *) usage ;;
    esac
done
report="$(cd "$dir" && pwd)/report.html"
if [[ ! -f "$report" ]]; then
    echo "check-report: no $report (run perfsyn hunt --report $dir first)" >&2
    exit 1
fi
check "$report" "<h1>perfsyn hunt</h1>" || exit 1
if [[ -n "$shot" ]]; then
    mkdir -p "$(dirname "$shot")"
    shot="$(cd "$(dirname "$shot")" && pwd)/$(basename "$shot")"
    log="$(mktemp)"
    run_chromium "$report" "$log" --screenshot="$shot" --window-size=1280,1600 --hide-scrollbars >/dev/null || {
        echo "check-report: screenshot failed:" >&2
        tail -n 20 "$log" >&2
        exit 1
    }
    rm -f "$log"
    echo "screenshot: $shot"
fi
echo "check-report: $report loads in headless Chromium with no console error"
