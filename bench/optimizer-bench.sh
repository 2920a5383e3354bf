#!/usr/bin/env bash
# Benchmark (not a test): wall-clock time of optimize-schedule on 9 islands (nine-city
# topology) and on 32 islands (synthetic 32-city topology, seed 1), period 2, 1 GB model at
# 10 Gbps, unicast and multicast. Goals on a 2-core machine: under 2 s and under 60 s.
#
#   bench/optimizer-bench.sh                   # build dir: $BUILD_DIR or ./build
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
case "$build" in /*) ;; *) build=$root/$build ;; esac
BUILD_DIR="$build" bash "$root/scripts/build.sh" --target optimize-schedule >/dev/null
tool=$build/optimize-schedule
common=(--modelBytes=1e9 --linkRate=10e9 --period=2 --seed=1 --baselines=false)

run() { # label goal args...
    local label=$1 goal=$2
    shift 2
    local out times best
    out=$(mktemp)
    times=$(mktemp)
    TIMEFORMAT='%R %U %S'
    { time "$tool" "${common[@]}" "$@" >"$out" 2>/dev/null; } 2>"$times"
    best=$(grep '^clique sizes' "$out" || true)
    # Wall-clock seconds against the goal; CPU seconds show how much other load slowed it.
    awk -v g="$goal" -v l="$label" -v r="$best" '{
        printf "%-24s %7.2f s wall, %6.2f s CPU  (goal < %s s: %s)  %s\n", l, $1, $2 + $3, g,
            ($1 < g ? "ok" : "SLOWER"), r
    }' "$times"
    rm -f "$out" "$times"
}

echo "optimizer benchmark on $(nproc) cores ($(date -u +%Y-%m-%d), load average $(cut -d" " -f1-3 /proc/loadavg))"
for mode in unicast multicast; do
    run "9 islands, $mode" 2 --mode=$mode \
        --topology="$root/data/nine-city.topology"
    run "32 islands, $mode" 60 --mode=$mode --synthetic=32 --topologySeed=1
done
