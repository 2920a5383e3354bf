#!/usr/bin/env bash
# scripts/training-table.py on a tiny case (small MLP and shards, 10 MB model, fast path plus
# packet-level reruns at 1/100 scale under ideal and tcp): doc/training-gap.csv's columns are
# exactly series,capabilities,transport,schedule,time_to_target_s,gap; colocated, no
# communication, ring all-reduce and the best schedule of every capability set are there, each
# best schedule also under both packet-level transports; islands that never communicate never
# reach the target (empty time and gap) while colocated does (gap 1).
# Usage: training-gap-table.sh <python3> <source dir> <build dir>
set -euo pipefail
py="$1"
src="$2"
build="$3"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$py" "$src/scripts/training-table.py" --build-dir "$build" --rst "$tmp/gap.rst" \
  --csv "$tmp/gap.csv" --png "$tmp/gap.png" --transports=ideal,tcp --packet-scale=100 \
  --modelBytes=1e7 --hidden=32 --samplesPerIsland=512 --horizon=12 --referenceHorizon=8 \
  --period=1 --iterations=200 2> "$tmp/err" || { echo "FAIL: the script failed"; tail -20 "$tmp/err"; exit 1; }
"$py" - "$tmp/gap.csv" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
fail = []
if rows[0] != ["series", "capabilities", "transport", "schedule", "time_to_target_s", "gap"]:
    fail.append("header %s" % rows[0])
body = [dict(zip(rows[0], r)) for r in rows[1:]]
def find(series, transport):
    return [r for r in body if r["series"] == series and r["transport"] == transport]
colo = find("colocated", "none")
if len(colo) != 1 or colo[0]["time_to_target_s"] == "" or float(colo[0]["gap"]) != 1:
    fail.append("colocated row %s" % colo)
alone = find("no communication", "fluid")
if len(alone) != 1 or alone[0]["time_to_target_s"] != "" or alone[0]["gap"] != "":
    fail.append("no communication must never reach the target: %s" % alone)
if len(find("ring all-reduce", "fluid")) != 1:
    fail.append("no ring all-reduce row")
for series, caps in (("best unicast", "unicast"), ("best multicast", "unicast,multicast"),
                     ("best aggregation", "unicast,multicast,aggregation")):
    for transport in ("fluid", "ideal", "tcp"):
        got = find(series, transport)
        if len(got) != 1 or got[0]["capabilities"] != caps:
            fail.append("%s under %s: %s" % (series, transport, got))
for r in body:
    t, g = r["time_to_target_s"], r["gap"]
    if (t == "") != (g == "") or (t != "" and not float(t) > 0):
        fail.append("time and gap inconsistent: %s" % r)
if fail:
    print("FAIL: " + "; ".join(fail))
    print(open(sys.argv[1]).read())
    sys.exit(1)
print("training-gap table: %d rows, columns and the no-communication row as documented" % len(body))
PY
grep -q "Agreement.*under ideal.*under tcp" "$tmp/gap.rst" \
  || { echo "FAIL: the text states no agreement of both transports"; grep Agreement "$tmp/gap.rst"; exit 1; }
grep -o "Agreement.*" "$tmp/gap.rst" | cut -c1-600
