#!/usr/bin/env bash
# Runs the nine-city program (small model) in one mode into a fresh database and checks that it
# wrote one complete run with every clique of every round, and that a second run appends.
# Usage: run-nine-city.sh <nine-city-training binary> <mode>
set -euo pipefail
BIN="$1"
MODE="$2"
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
DB="$TMP/results.db"
"$BIN" --mode="$MODE" --modelBytes=2e6 --rounds=2 --db="$DB" | tail -4
"$BIN" --mode="$MODE" --modelBytes=1e6 --rounds=1 --db="$DB" --quiet=1
q() { sqlite3 "$DB" "$1"; }
runs=$(q "SELECT COUNT(*) FROM runs WHERE status = 'complete' AND mode = '$MODE'")
rounds1=$(q "SELECT COUNT(*) FROM rounds WHERE run_id = 1")
rounds2=$(q "SELECT COUNT(*) FROM rounds WHERE run_id = 2")
islands=$(q "SELECT COUNT(*) FROM island_rounds WHERE run_id = 1")
links=$(q "SELECT COUNT(*) FROM links WHERE run_id = 1 AND payload_bytes > 0")
echo "runs=$runs rounds(run1)=$rounds1 rounds(run2)=$rounds2 island_rounds=$islands links=$links"
# 3x3-rotating: 3 cliques a round; 9 islands.
[ "$runs" = 2 ] && [ "$rounds1" = 6 ] && [ "$rounds2" = 3 ] && [ "$islands" = 18 ] && [ "$links" -gt 0 ]
if [ "$MODE" = aggregation ]; then
  agg=$(q "SELECT COUNT(*) FROM aggregation WHERE run_id = 1")
  fpgas=$(q "SELECT COUNT(*) FROM fpgas WHERE run_id = 1")
  echo "aggregation rows=$agg fpgas=$fpgas"
  [ "$agg" = 6 ] && [ "$fpgas" -gt 0 ]
fi
echo ok
