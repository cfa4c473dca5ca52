#!/bin/sh
# checks_can_fail.sh SOURCE BUILD — the tree's structure checks fail where
# they should (test checks-can-fail): scripts/file-graph --layers with
# bench/'s layers upside down names the real arrows that become arrows up,
# and scripts/long-functions with a limit of 40 lines lists the longer
# functions; a check that could not fail would prove nothing by passing.
set -u
src=$1
build=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "not ok: $*"; exit 1; }

# bench/layers read bottom line first: every edge down becomes an arrow up.
grep -v '^#' "$src/bench/layers" | sed 's/#.*//' | awk 'NF' | sed -n '1!G;h;$p' > "$tmp/upside-down"
"$src/scripts/file-graph" "$build" --layers "$tmp/upside-down" > "$tmp/out" 2>&1
rc=$?
[ "$rc" = 1 ] || fail "file-graph with the layers upside down: exit $rc, not 1"
grep -q '^file-graph: arrows up or sideways against the order of' "$tmp/out" ||
    fail "file-graph names no arrow up: $(cat "$tmp/out")"
grep -q '^  bench/core/progress.c -> bench/base/utf8.h (include): bench/core (layer 3) below bench/base (layer 5)$' "$tmp/out" ||
    fail "file-graph misses core/progress.c -> base/utf8.h: $(cat "$tmp/out")"
# Two folders on one line: an edge between them is an arrow sideways.
printf 'bench/base bench/core\n' > "$tmp/beside"
"$src/scripts/file-graph" "$build" --layers "$tmp/beside" > "$tmp/out" 2>&1
rc=$?
[ "$rc" = 1 ] || fail "file-graph with base beside core: exit $rc, not 1"
grep -q 'bench/core/progress.c -> bench/base/utf8.h (include): bench/core (layer 1) beside bench/base (layer 1)' "$tmp/out" ||
    fail "file-graph misses the sideways arrow: $(cat "$tmp/out")"

# A function of bench/ longer than 40 lines exists (the run's job_done, a
# figure's end): listed, longest first, each over the limit.
"$src/scripts/long-functions" --limit 40 bench > "$tmp/out" 2>&1
rc=$?
[ "$rc" = 1 ] || fail "long-functions --limit 40: exit $rc, not 1"
grep '^  [0-9]' "$tmp/out" | awk '$1 <= 40 || (prev && $1 > prev) { bad = 1 } { prev = $1; n++ }
                                 END { exit bad || n == 0 }' ||
    fail "long-functions --limit 40 lists a wrong function or none: $(cat "$tmp/out")"
echo "ok: file-graph and long-functions fail where they should"
