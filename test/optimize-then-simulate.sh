#!/usr/bin/env bash
# The optimizer's schedule drives the ns-3 scenario: optimize-schedule writes the best
# schedule for a mode, nine-city-training simulates it, and the simulated round matches the
# optimizer's fluid round time within 3%. Until the packet level reads the schedule's
# patterns (it runs the capability set's richest pattern), the optimizer is restricted to
# that pattern (--patterns); both run the planner's aggregation tree (default design).
# Usage: optimize-then-simulate.sh <optimize-schedule> <nine-city-training> <mode>
set -euo pipefail
OPT="$1"
SIM="$2"
MODE="$3"
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
case "$MODE" in
  unicast) CAPS=(--capabilities=unicast --patterns=all-to-all) ;;
  multicast) CAPS=(--capabilities=unicast,multicast --patterns=multicast) ;;
  aggregation) CAPS=(--capabilities=unicast,multicast,aggregation --patterns=aggregation) ;;
  *) echo "unknown mode $MODE"; exit 2 ;;
esac
"$OPT" "${CAPS[@]}" --modelBytes=4e6 --computeTime=0.05 --period=2 --baselines=0 \
  --out="$TMP/best.json" 2>/dev/null | tee "$TMP/opt.txt" | tail -3
"$SIM" --mode="$MODE" --modelBytes=4e6 --computeTime=0.05 --schedule="$TMP/best.json" \
  --rounds=2 --db="$TMP/r.db" --quiet=1
period=$(/usr/bin/python3 -c "import json,sys; print(len(json.load(open(sys.argv[1]))['rounds']))" "$TMP/best.json")
rounds=$(sqlite3 "$TMP/r.db" "SELECT COUNT(DISTINCT round) FROM rounds")
echo "optimized period $period, simulated rounds $rounds"
[ "$rounds" = 2 ]
# Round 0 of the simulation against the optimizer's (fluid) time of period round 0.
fluid=$(sed -n 's/.*round times: \([0-9.e+-]*\) s.*/\1/p' "$TMP/opt.txt" | head -1)
packet=$(sqlite3 "$TMP/r.db" "SELECT MAX(end_s) - MIN(start_s) FROM rounds WHERE round = 0")
echo "round 0: fluid $fluid s, packet $packet s"
/usr/bin/python3 -c "import sys; f, p = map(float, sys.argv[1:]); sys.exit(0 if abs(f - p) <= 0.03 * p else 1)" "$fluid" "$packet"
