#!/usr/bin/env python3
"""minimalloc.py -- MiniMalloc's command-line solver as a bench planner (cmd:).

MiniMalloc (Moffitt, ASPLOS 2023; github.com/google/minimalloc) answers a
decision problem: `minimalloc --capacity=C --input=IN.csv --output=OUT.csv`
finds offsets within C bytes or fails. Its paper minimises the arena by
bisection over C, as this adapter does: the lowest capacity tried is the
problem's max-live lower bound (no plan is smaller), the highest the sum of
all sizes (every plan fits), and each round halves the range until the
smallest feasible capacity is found. With a CAPACITY argument above 0
(bench --capacity) it makes that one decision instead. Python's standard
library only; `minimalloc` must be on PATH (or in $MINIMALLOC).

bench runs it as COMMAND PROBLEM.csv ALIGNMENT CAPACITY, with
ARENA_TIME_LIMIT in the environment; the input is already MiniMalloc's CSV
(id,lower,upper,size, sizes rounded up to the alignment, so MiniMalloc's
offsets, sums of sizes, are aligned too). It writes `id,offset` lines on
stdout and `plan_ns=N` on stderr: the time spent in minimalloc's calls. For
instance:

    bench --graph packed:n=40 --time-limit 60 \\
        --planner "cmd:minimalloc=python3 examples/cmd/minimalloc.py"
"""
import csv
import os
import shutil
import subprocess
import sys
import tempfile
import time


def read_problem(path):
    with open(path, newline="") as f:
        return [(int(r["id"]), int(r["lower"]), int(r["upper"]), int(r["size"]))
                for r in csv.DictReader(f)]


def max_live(tensors):
    """The most bytes live at one step: no plan is below it."""
    events = []
    for _, lower, upper, size in tensors:
        events.append((lower, size))
        events.append((upper, -size))
    live = best = 0
    for _, delta in sorted(events):  # at one step, ends (negative) come first
        live += delta
        best = max(best, live)
    return best


def solve(exe, problem, capacity, out_path, deadline):
    """Offsets by id if minimalloc fits the problem in capacity, else None."""
    left = None if deadline is None else max(deadline - time.monotonic(), 0.001)
    try:
        run = subprocess.run([exe, "--capacity=%d" % capacity, "--input=" + problem,
                              "--output=" + out_path], stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE, timeout=left, check=False)
    except subprocess.TimeoutExpired:
        sys.exit("minimalloc.py: the time limit ran out at capacity %d" % capacity)
    if run.returncode != 0 or not os.path.exists(out_path):
        return None
    with open(out_path, newline="") as f:
        got = {int(r["id"]): int(r["offset"]) for r in csv.DictReader(f)}
    os.remove(out_path)
    return got


def main():
    if len(sys.argv) != 4:
        sys.exit("usage: minimalloc.py PROBLEM.csv ALIGNMENT CAPACITY")
    problem, capacity = sys.argv[1], int(sys.argv[3])
    exe = os.environ.get("MINIMALLOC") or shutil.which("minimalloc")
    if not exe:
        sys.exit("minimalloc.py: no minimalloc on PATH (build github.com/google/minimalloc)")
    limit = float(os.environ.get("ARENA_TIME_LIMIT", "0"))
    deadline = time.monotonic() + limit * 0.95 if limit > 0 else None
    tensors = read_problem(problem)
    spent = time.perf_counter_ns()
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "out.csv")
        if capacity > 0:
            best = solve(exe, problem, capacity, out, deadline)
            if best is None:
                sys.exit("minimalloc.py: no plan within %d B" % capacity)
        else:
            lo, hi = max_live(tensors), sum(t[3] for t in tensors)
            best = solve(exe, problem, hi, out, deadline)
            if best is None:
                sys.exit("minimalloc.py: minimalloc failed at the sum of all sizes, %d B" % hi)
            hi = max(best[t[0]] + t[3] for t in tensors) if tensors else 0
            while lo < hi:  # the least feasible capacity is in [lo, hi]
                mid = (lo + hi) // 2
                got = solve(exe, problem, mid, out, deadline)
                if got is None:
                    lo = mid + 1
                else:
                    best = got
                    hi = max(got[t[0]] + t[3] for t in tensors)
    spent = time.perf_counter_ns() - spent
    sys.stdout.write("id,offset\n" + "".join("%d,%d\n" % (i, best[i]) for i in sorted(best)))
    print("plan_ns=%d" % spent, file=sys.stderr)


if __name__ == "__main__":
    main()
