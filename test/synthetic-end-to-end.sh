#!/usr/bin/env bash
# A synthetic topology of N cities end to end: optimize-schedule writes the topology and the
# best schedule for it, nine-city-training simulates that schedule at packet level on it; every
# island finishes, and the simulated round 0 matches the optimizer's fluid round time within 3%.
# Usage: synthetic-end-to-end.sh <optimize-schedule> <nine-city-training> <cities>
set -euo pipefail
OPT="$1"
SIM="$2"
N="$3"
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
common=(--mode=unicast --modelBytes=2e5 --segmentSize=65479 --computeTime=0.01 --latencyCheck=off)
"$OPT" --synthetic="$N" --topologySeed=1 --writeTopology="$TMP/topo.topology" --period=1 \
  --iterations=100 --baselines=0 --out="$TMP/best.json" "${common[@]}" 2>/dev/null |
  tee "$TMP/opt.txt" | tail -2
"$SIM" --topology="$TMP/topo.topology" --schedule="$TMP/best.json" --rounds=1 --mtu=65535 \
  --db="$TMP/r.db" --quiet=1 "${common[@]}"
islands=$(sqlite3 "$TMP/r.db" "SELECT COUNT(DISTINCT island) FROM island_rounds")
echo "islands that finished round 0: $islands of $N"
[ "$islands" = "$N" ]
fluid=$(sed -n 's/.*round times: \([0-9.e+-]*\) s.*/\1/p' "$TMP/opt.txt" | head -1)
packet=$(sqlite3 "$TMP/r.db" "SELECT MAX(end_s) - MIN(start_s) FROM rounds WHERE round = 0")
echo "round 0: fluid $fluid s, packet $packet s"
/usr/bin/python3 -c "import sys; f, p = map(float, sys.argv[1:]); sys.exit(0 if abs(f - p) <= 0.03 * p else 1)" "$fluid" "$packet"
