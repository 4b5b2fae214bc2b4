#!/usr/bin/env python3
"""Benchmark: perfsyn's asymptotic verdict against the big_O PyPI package on the same series.

Runs `perfsyn bench fit --json --write-series FILE` (perfsyn's own figures), then fits every
written series with big_O (`infer_big_o_class`, restricted to the 7 classes perfsyn knows) and
prints both tools' accuracy and false-bottleneck rates side by side. big_O is installed with
pip into a venv under target/ when missing. This is a benchmark, not a test.

Usage: scripts/bench_fit_bigo.py [--seed N] [--cases N]
"""
import argparse
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VENV = os.path.join(ROOT, "target", "bigo-venv")
PY = os.path.join(VENV, "bin", "python")
ORDER = ["O(1)", "O(log n)", "O(n)", "O(n log n)", "O(n^2)", "O(n^3)", "O(2^n)"]


def ensure_venv():
    if os.path.exists(PY) and subprocess.call([PY, "-c", "import big_o"], stderr=subprocess.DEVNULL) == 0:
        return
    subprocess.check_call([sys.executable, "-m", "venv", VENV])
    subprocess.check_call([PY, "-m", "pip", "install", "-q", "big_O"])


def fit_with_bigo(series_file):
    """Runs inside the venv: prints one judged class per series."""
    import big_o
    import numpy as np
    from big_o import complexities as c

    classes = [c.Constant, c.Logarithmic, c.Linear, c.Linearithmic, c.Quadratic, c.Cubic, c.Exponential]
    names = dict(zip(classes, ORDER))
    out = []
    with open(series_file) as f:
        for line in f:
            s = json.loads(line)
            ns = np.array([p[0] for p in s["points"]], dtype=float)
            ts = np.array([p[1] for p in s["points"]], dtype=float)
            try:
                best, _ = big_o.infer_big_o_class(ns, ts, classes=classes)
                judged = names[type(best)]
            except Exception:  # big_O fails on some series (a degenerate least-squares fit)
                judged = "error"
            out.append({"true": s["class"], "judged": judged})
    print(json.dumps(out))


def rates(pairs):
    n = len(pairs)
    right = sum(1 for t, j in pairs if t == j)
    above = sum(1 for t, j in pairs if j in ORDER and ORDER.index(j) > ORDER.index(t))
    return right / n, above / n


def main():
    if len(sys.argv) > 2 and sys.argv[1] == "--inside":
        fit_with_bigo(sys.argv[2])
        return
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", default="1")
    ap.add_argument("--cases", default="350")
    a = ap.parse_args()
    ensure_venv()
    series = os.path.join(ROOT, "target", "bench-fit-series.jsonl")
    perfsyn = subprocess.run(
        ["cargo", "run", "--release", "-q", "--", "bench", "fit", "--json", "--seed", a.seed,
         "--cases", a.cases, "--write-series", series],
        cwd=ROOT, check=True, capture_output=True, text=True)
    ours = json.loads(perfsyn.stdout)
    bigo = json.loads(subprocess.run([PY, os.path.abspath(__file__), "--inside", series],
                                     check=True, capture_output=True, text=True).stdout)
    labels = {"Constant": "O(1)", "Log": "O(log n)", "Linear": "O(n)", "Linearithmic": "O(n log n)",
              "Quadratic": "O(n^2)", "Cubic": "O(n^3)", "Exponential": "O(2^n)"}
    pairs = [(labels.get(b["true"], b["true"]), b["judged"]) for b in bigo]
    b_acc, b_fb = rates(pairs)
    print(f"{len(pairs)} series, seed {a.seed}")
    print(f"{'tool':<10}{'accuracy':>10}{'false bottlenecks':>20}{'inconclusive':>14}")
    print(f"{'perfsyn':<10}{ours['accuracy']*100:>9.1f}%{ours['false_bottleneck_rate']*100:>19.1f}%"
          f"{ours['inconclusive_rate']*100:>13.1f}%")
    b_err = sum(1 for _, j in pairs if j == "error") / len(pairs)
    print(f"{'big_O':<10}{b_acc*100:>9.1f}%{b_fb*100:>19.1f}%{b_err*100:>13.1f}% (fit errors)")


if __name__ == "__main__":
    main()
