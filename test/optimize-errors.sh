#!/usr/bin/env bash
# Impossible input to optimize-schedule: each case exits with status 2 and a clear message.
# Usage: optimize-errors.sh <optimize-schedule binary> <data dir>
set -u
BIN="$1"
DATA="$2"
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
FIXED_ARGS=(--baselines=0 --period=1)
MATCH=-iF
# shellcheck source=test/expect-error.sh
source "$(dirname "${BASH_SOURCE[0]}")/expect-error.sh"
# A disconnected topology: two cities, no link between them, no public paths.
cat >"$TMP/split.topology" <<'TOPO'
[cities]
code,name,latitude,longitude
AAA,A,0,0
BBB,B,1,1
[devices]
device,city,edge_gbps
AAA1,AAA,10
BBB1,BBB,10
[private_links]
device_a,device_b,latency_ms,capacity_gbps
TOPO
expect_error disconnected "disconnected" --topology="$TMP/split.topology"
expect_error too-many-islands "ZZZ" --islands=AMS,FRA,ZZZ
# 0 keeps the topology's rates (as in every program); below 1 bit/s is no rate.
expect_error sub-bit-bandwidth "--linkRate=0.5: out of range" --linkRate=0.5
expect_error negative-bandwidth "linkRate" --linkRate=-1e9
expect_error bad-mode "--mode=anycast: not one of" --mode=anycast
expect_error bad-capability "unknown item" --capabilities=unicast,anycast
expect_error mode-and-capabilities "same setting with different values" --mode=multicast --capabilities=unicast
expect_error bad-aggregation "not one of tree | single" --aggregation=double
expect_error bad-pattern "unknown exchange pattern" --patterns=ring,gossip
expect_error disallowed-pattern "not allowed" --capabilities=unicast --patterns=multicast
expect_error tiny-fpga-memory "FPGA memory" --capabilities=unicast,multicast,aggregation --fpgaMemory=100
expect_error duplicate-island "twice" --islands=AMS,FRA,AMS
# Codes in any case: the same city twice, whatever the case.
expect_error duplicate-island-case "twice" --islands=ams,FRA,AMS
# A city with no device and no public path has no link: it cannot host an island (the split
# network above with a third city and a link between the first two).
sed -e 's/^BBB,B,1,1$/BBB,B,1,1\nCCC,C,2,2/' "$TMP/split.topology" >"$TMP/alone.topology"
echo "AAA1,BBB1,3,10" >>"$TMP/alone.topology"
expect_error linkless-island "CCC has neither a device nor a public path" \
    --topology="$TMP/alone.topology" --islands=AAA,BBB,CCC
# Outputs that cannot be written (the data reach a file only when its stream is flushed: a
# full device was reported written, exit 0).
if [ -w /dev/full ]; then
  expect_error out-full "/dev/full: cannot write schedule file" --period=1 --out=/dev/full
  expect_error topology-out-full "/dev/full: write failed" --period=1 --writeTopology=/dev/full
fi
# An output naming the topology read, or another output (the topology was overwritten by the
# schedule; two outputs shared one file).
cp "$DATA/nine-city.topology" "$TMP/mine.topology"
expect_error out-is-input "would overwrite the file it reads (--topology=" \
  --topology="$TMP/mine.topology" --out="$TMP/../$(basename "$TMP")/mine.topology"
cmp -s "$DATA/nine-city.topology" "$TMP/mine.topology" || { echo "FAIL out-is-input: topology changed"; failures=$((failures + 1)); }
expect_error outputs-same "name the same file" --out="$TMP/o.json" --json="$TMP/./o.json"
finish_cases "all impossible inputs rejected clearly"
