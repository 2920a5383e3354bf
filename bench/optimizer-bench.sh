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
if [ ! -f "$build/CMakeCache.txt" ]; then
    cmake -S "$root" -B "$build" >/dev/null
fi
make -C "$build" -j"$(nproc)" optimize-schedule >/dev/null
tool=$build/optimize-schedule
common=(--modelBytes=1e9 --linkRate=10e9 --period=2 --seed=1 --baselines=false)

run() { # label goal args...
    local label=$1 goal=$2
    shift 2
    local start end secs best
    start=$(date +%s.%N)
    best=$("$tool" "${common[@]}" "$@" 2>/dev/null | grep '^clique sizes' || true)
    end=$(date +%s.%N)
    awk -v a="$start" -v b="$end" -v g="$goal" -v l="$label" -v r="$best" 'BEGIN {
        s = b - a
        printf "%-24s %7.2f s  (goal < %s s: %s)  %s\n", l, s, g, (s < g ? "ok" : "SLOWER"), r
    }'
}

echo "optimizer benchmark on $(nproc) cores ($(date -u +%Y-%m-%d))"
for mode in unicast multicast; do
    run "9 islands, $mode" 2 --mode=$mode \
        --topology="$root/data/nine-city.topology"
    run "32 islands, $mode" 60 --mode=$mode --synthetic=32 --topologySeed=1
done
