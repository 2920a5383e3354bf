#!/usr/bin/env bash
# Same flags, same network: optimize-schedule's predicted round times (fluid CostModel) equal
# nine-city-training's simulated ones within 3%, for the very same command-line flags and the
# shared defaults (no --schedule: the simulator asks the optimizer, and must run the schedule
# optimize-schedule printed, under the same name). Before the options object the two programs
# read --linkRate, the model size and the compute time differently.
# Usage: same-flags.sh <optimize-schedule> <nine-city-training> <mode> [more flags for both...]
# (4 MB model; the simulation runs 2 rounds)
set -euo pipefail
OPT="$1"
SIM="$2"
MODE="$3"
shift 3
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
# The packet level runs the capability set's richest pattern for every clique (the planner's
# aggregation tree in aggregation mode): the optimizer is held to that pattern, so that both
# programs still see the same flags.
case "$MODE" in
unicast) only=all-to-all ;;
*) only="$MODE" ;;
esac
flags=(--mode="$MODE" --patterns="$only" --modelBytes=4e6 "$@")
"$OPT" "${flags[@]}" --baselines=0 --out="$TMP/best.json" 2>/dev/null | tee "$TMP/opt.txt" | tail -2
"$SIM" "${flags[@]}" --rounds=2 --db="$TMP/r.db" --quiet=1 --runKey=same-flags
/usr/bin/python3 - "$TMP/best.json" "$TMP/opt.txt" "$TMP/r.db" <<'PY'
import json, re, sqlite3, sys
best = json.load(open(sys.argv[1]))
text = open(sys.argv[2]).read()
fluid = [float(x) for x in re.findall(r"([0-9.]+) s", text.split("round times:")[1].splitlines()[0])]
con = sqlite3.connect(sys.argv[3])
(schedule,) = con.execute("SELECT schedule FROM runs").fetchone()
rows = con.execute("SELECT round, MAX(end_s) - MIN(start_s) FROM rounds GROUP BY round "
                   "ORDER BY round").fetchall()
ok = schedule == best["name"]
print("schedule: optimizer %s, simulated %s%s" % (best["name"], schedule, "" if ok else "  MISMATCH"))
for r, packet in rows:
    f = fluid[r % len(fluid)]
    good = abs(f - packet) <= 0.03 * packet
    ok = ok and good
    print("round %d: fluid %.6f s, packet %.6f s, %+.2f%%%s" %
          (r, f, packet, 100 * (f - packet) / packet, "" if good else "  > 3%"))
ok = ok and len(rows) > 0
sys.exit(0 if ok else 1)
PY
