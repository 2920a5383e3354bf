#!/usr/bin/env bash
# Bad input to the nine-city program: each case must exit with status 2 and a message naming
# the file, line and field. Usage: cli-errors.sh <nine-city-training binary> <data dir>
set -u
BIN="$1"
DATA="$2"
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
FIXED_ARGS=(--db=none --quiet=1)
MATCH=-F
# shellcheck source=test/expect-error.sh
source "$(dirname "${BASH_SOURCE[0]}")/expect-error.sh"

topo="$DATA/nine-city.topology"
# Unknown device in a private link (line of the link, field device_b).
line=$(grep -n '^SEO1,TYO2' "$topo" | cut -d: -f1)
sed 's/^SEO1,TYO2/SEO1,TYO9/' "$topo" >"$TMP/bad-device.topology"
expect_error unknown-device "bad-device.topology:$line: field 'device_b': unknown device 'TYO9'" \
  --topology="$TMP/bad-device.topology"
# Negative latency.
sed 's/^SEO1,TYO2,4.50/SEO1,TYO2,-4.50/' "$topo" >"$TMP/negative.topology"
expect_error negative-latency "negative.topology:$line: field 'latency_ms'" \
  --topology="$TMP/negative.topology"
# Non-numeric capacity.
sed 's/^SEO1,TYO2,4.50,10/SEO1,TYO2,4.50,fast/' "$topo" >"$TMP/word.topology"
expect_error non-numeric "word.topology:$line: field 'capacity_gbps': 'fast' is not a number" \
  --topology="$TMP/word.topology"
# Missing topology file.
expect_error missing-file "$TMP/none.topology" --topology="$TMP/none.topology"
# Schedule with an unknown city.
printf '{"rounds": [\n {"cliques": [["AMS", "FRA"],\n  ["XYZ"]]}\n]}\n' >"$TMP/unknown.json"
expect_error unknown-city "unknown.json:3: field 'rounds[0].cliques[1][0]': unknown city 'XYZ'" \
  --schedule="$TMP/unknown.json"
# Schedule with an empty clique, and a city in two cliques.
printf '{"rounds": [\n {"cliques": [["AMS"], []]}\n]}\n' >"$TMP/empty.json"
expect_error empty-clique "empty.json:2: field 'rounds[0].cliques[1]': empty clique" \
  --schedule="$TMP/empty.json"
printf '{"rounds": [\n {"cliques": [["AMS", "FRA"],\n ["FRA"]]}\n]}\n' >"$TMP/twice.json"
expect_error city-twice "twice.json:3: field 'rounds[0].cliques[1][0]': city 'FRA' appears twice" \
  --schedule="$TMP/twice.json"
# Negative rate, unknown mode, segment too large for the MTU.
expect_error negative-rate "--linkRate=-10e9: out of range (accepted: 0 (keep the topology's) or 1" \
  --linkRate=-10e9
expect_error unknown-mode "--mode=broadcast: not one of unicast | multicast | aggregation" \
  --mode=broadcast
expect_error segment-mtu "more than the MTU" --segmentSize=9000

finish_cases "all bad-input cases rejected clearly"
