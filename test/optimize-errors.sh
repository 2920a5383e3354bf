#!/usr/bin/env bash
# Impossible input to optimize-schedule: each case exits with status 2 and a clear message.
# Usage: optimize-errors.sh <optimize-schedule binary> <data dir>
set -u
BIN="$1"
DATA="$2"
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
failures=0
expect_error() { # name, expected-substring, args...
  local name="$1" want="$2"
  shift 2
  local out status
  out="$("$BIN" --baselines=0 --period=1 "$@" 2>&1)"
  status=$?
  if [ "$status" -ne 2 ] || ! grep -qiF -- "$want" <<<"$out"; then
    echo "FAIL $name: status $status, want 2 and '$want':"; echo "$out" | tail -3
    failures=$((failures + 1))
  else
    echo "ok   $name: $(grep -iF -- "$want" <<<"$out" | head -1)"
  fi
}
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
expect_error zero-bandwidth "linkRate" --linkRate=0
expect_error negative-bandwidth "linkRate" --linkRate=-1e9
expect_error bad-mode "mode" --mode=anycast
expect_error duplicate-island "twice" --islands=AMS,FRA,AMS
if [ "$failures" -ne 0 ]; then
  echo "$failures case(s) failed"
  exit 1
fi
echo "all impossible inputs rejected clearly"
