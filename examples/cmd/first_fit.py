#!/usr/bin/env python3
"""first_fit.py -- an example planner as an external program (bench --planner cmd:).

A first fit over an order the user chooses: the tensors are taken in that
order, and each goes at the lowest offset where it fits beside the tensors
already placed that live at the same time. Python's standard library only.

bench runs it as

    COMMAND PROBLEM.csv ALIGNMENT CAPACITY

PROBLEM.csv is a MiniMalloc CSV (id,lower,upper,size: tensor id, first step,
last step + 1, bytes already rounded up to the alignment), ALIGNMENT the
bytes every offset must be a multiple of, CAPACITY 0 (minimise the arena) or
a budget in bytes (then a first fit above it is no answer: exit 1). It writes `id,offset` lines on stdout and its own planning
time as `plan_ns=N` on stderr (docs/extending.md). For instance:

    bench --graph mobilenetv2 \\
        --planner "cmd:py-first-fit=python3 examples/cmd/first_fit.py --order size"
"""
import argparse
import csv
import sys
import time

ORDERS = {
    # largest first (TFLite Micro's greedy order), then the earlier start
    "size": lambda t: (-t[3], t[1], t[0]),
    # the earliest start first (an online allocator's order)
    "start": lambda t: (t[1], -t[3], t[0]),
    # the longest lifetime first
    "duration": lambda t: (-(t[2] - t[1]), -t[3], t[0]),
    # the file's order
    "id": lambda t: t[0],
}


def read_problem(path):
    """(id, lower, upper, size) per tensor, ids 0 .. n-1 as bench writes them."""
    with open(path, newline="") as f:
        rows = csv.DictReader(f)
        return [(int(r["id"]), int(r["lower"]), int(r["upper"]), int(r["size"])) for r in rows]


def first_fit(tensors, order, alignment):
    """Offsets by tensor id: each tensor, in order, at the lowest aligned
    offset that no placed tensor living at the same time covers."""
    placed = []  # (offset, end, lower, upper), by offset
    offsets = {}
    for tid, lower, upper, size in sorted(tensors, key=ORDERS[order]):
        at = 0
        if size > 0:
            for off, end, plo, pup in placed:
                if pup <= lower or upper <= plo:
                    continue  # [lower, upper) and [plo, pup) do not meet
                if off >= at + size:
                    break  # the gap below this one holds it
                at = max(at, -(-end // alignment) * alignment)
            k = 0
            while k < len(placed) and placed[k][0] <= at:
                k += 1
            placed.insert(k, (at, at + size, lower, upper))
        offsets[tid] = at
    return offsets


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--order", choices=sorted(ORDERS), default="size",
                    help="the order tensors are placed in (default: size)")
    ap.add_argument("problem", help="MiniMalloc CSV written by bench")
    ap.add_argument("alignment", type=int, help="bytes; every offset a multiple of it")
    ap.add_argument("capacity", type=int, help="0, or the budget in bytes")
    args = ap.parse_args()
    tensors = read_problem(args.problem)
    start = time.perf_counter_ns()
    offsets = first_fit(tensors, args.order, max(args.alignment, 1))
    took = time.perf_counter_ns() - start
    arena = max((offsets[t[0]] + t[3] for t in tensors), default=0)
    print("plan_ns=%d" % took, file=sys.stderr)
    if args.capacity and arena > args.capacity:  # decision mode: no plan found
        sys.exit("first_fit.py: its arena, %d B, is above the capacity %d B" %
                 (arena, args.capacity))
    out = ["id,offset"] + ["%d,%d" % (tid, offsets[tid]) for tid in sorted(offsets)]
    sys.stdout.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
