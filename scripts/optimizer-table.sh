#!/usr/bin/env bash
# Regenerate doc/optimizer-table.rst: the schedule optimizer on the nine-city topology for
# the capability sets {unicast}, +multicast and +aggregation, 10 and 100 Gbps links, 100 MB /
# 1 GB / 10 GB models, beside every baseline (periods 1 and 2: exact search, proven optimal).
# The table is documentation produced by this script; commit the regenerated file.
#
#   scripts/optimizer-table.sh                 # build dir: $BUILD_DIR or ./build
#   BUILD_DIR=build-opt scripts/optimizer-table.sh --period=3
#
# Extra arguments go to examples/optimizer-table.cc (--period, --computeTime, --seed,
# --iterations).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
case "$build" in /*) ;; *) build=$root/$build ;; esac
BUILD_DIR="$build" bash "$root/scripts/build.sh" --target optimizer-table >/dev/null
start=$(date +%s.%N)
# The table's settings (the shared option defaults are 0.01 s compute, period 2 and the training
# objective; the table documents the consensus objective's exact search); extra
# arguments come after them and override them.
"$build/optimizer-table" --topology="$root/data/nine-city.topology" --computeTime=0.1 \
    --period=2 --objective=consensus --out="$root/doc/optimizer-table.rst" "$@"
end=$(date +%s.%N)
awk -v a="$start" -v b="$end" -v f="$root/doc/optimizer-table.rst" \
    'BEGIN { printf "wrote %s in %.1f s\n", f, b - a }'
