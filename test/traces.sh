#!/usr/bin/env bash
# --pcap, --flowmon and --netanim on the main example: files named by city and device, with
# content (pcap: PPP frames of the model exchange; FlowMonitor: the unicast flows; NetAnim:
# every node named). Usage: traces.sh <nine-city-training>
set -euo pipefail
SIM="$1"
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
"$SIM" --schedule=3x3-rotating --modelBytes=1e5 --rounds=1 --db=none --quiet=1 \
  --pcap --flowmon --netanim --traceDir="$TMP/traces" >"$TMP/out.txt"
/usr/bin/python3 - "$TMP/traces" "$TMP/out.txt" <<'PY'
import os, re, struct, sys
d, out = sys.argv[1], open(sys.argv[2]).read()
files = sorted(os.listdir(d))
fail = []
def need(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        fail.append(what)
# One pcap per device end, named <node>-<peer>: the AMS island's access link and a WAN link.
pcaps = [f for f in files if f.endswith(".pcap")]
need("AMS-AMS-metro.pcap" in pcaps and "AMS-metro-AMS.pcap" in pcaps, "access link pcaps named by city and metro node")
need("SEO1-TYO2.pcap" in pcaps and "TYO2-SEO1.pcap" in pcaps, "WAN link pcaps named by device")
with open(os.path.join(d, "AMS-AMS-metro.pcap"), "rb") as f:
    magic, _, _, _, _, _, link = struct.unpack("<IHHiIII", f.read(24))
    frames = 0
    while True:
        h = f.read(16)
        if len(h) < 16:
            break
        incl = struct.unpack("<IIII", h)[2]
        f.read(incl)
        frames += 1
need(magic == 0xa1b2c3d4 and link == 9, "pcap header, PPP link type (got %d)" % link)
# AMS sends 1e5 bytes to its two clique peers in 8192-byte segments: >= 2 x 13 frames.
need(frames >= 26, "AMS's access link carried its model (%d frames)" % frames)
flow = open(os.path.join(d, "flowmon.xml")).read()
need("<FlowStats>" in flow and flow.count("<Flow flowId") >= 18,
     "FlowMonitor: the unicast flows (%d)" % flow.count("<Flow flowId"))
anim = open(os.path.join(d, "netanim.xml")).read()
need('descr="AMS"' in anim and 'descr="SEO1"' in anim, "NetAnim: nodes named by city and device")
need(all(("trace: " + os.path.join(d, f)) in out for f in ("flowmon.xml", "netanim.xml")),
     "the program lists the files it wrote")
sys.exit(1 if fail else 0)
PY
# --traceDir naming a file, or a directory that cannot be written, is refused before anything
# runs (it aborted in the pcap writer, or lost flowmon.xml silently).
touch "$TMP/afile"
for flag in --pcap --flowmon --netanim; do
  set +e
  "$SIM" --schedule=3x3-rotating --modelBytes=1e5 --rounds=1 --db=none --quiet=1 \
    "$flag" --traceDir="$TMP/afile" >/dev/null 2>"$TMP/err"
  rc=$?
  set -e
  grep -q "traceDir=$TMP/afile: exists and is not a directory" "$TMP/err" && [ "$rc" = 2 ] ||
    { echo "FAIL $flag --traceDir=<a file>: exit $rc, $(cat "$TMP/err")"; exit 1; }
  echo "ok   $flag --traceDir=<a file> refused (exit 2)"
done
# A directory that refuses new files even to root (/proc: access() said writable, then the
# pcap writer aborted).
if [ -d /proc ] && ! touch /proc/.trace-test 2>/dev/null; then
  set +e
  "$SIM" --schedule=3x3-rotating --modelBytes=1e5 --rounds=1 --db=none --quiet=1 \
    --pcap --traceDir=/proc >/dev/null 2>"$TMP/err"
  rc=$?
  set -e
  grep -q "traceDir=/proc: the directory is not writable" "$TMP/err" && [ "$rc" = 2 ] ||
    { echo "FAIL --pcap --traceDir=/proc: exit $rc, $(cat "$TMP/err")"; exit 1; }
  echo "ok   --pcap --traceDir=/proc refused (exit 2)"
fi
# Names with '-': P-Q -> R and P -> Q-R are both 'P-Q-R': the second gets its link index, and
# each file holds its own link's frames (two writers of one file overwrote each other).
cat >"$TMP/clash.topology" <<'TOPO'
[cities]
code,name,latitude,longitude
A,Alpha,50.0,0.0
B,Beta,50.0,5.0
C,Gamma,50.0,0.1
D,Delta,50.0,5.1
[devices]
device,city,edge_gbps,operator
P-Q,A,2,X
R,B,2,X
P,C,2,X
Q-R,D,2,X
[private_links]
device_a,device_b,latency_ms,capacity_gbps
P-Q,R,3.0,1
P,Q-R,3.0,1
[public_links]
city_a,city_b,latency_ms,capacity_gbps
A,C,20.0,0.5
A,D,20.0,0.5
B,C,20.0,0.5
B,D,20.0,0.5
TOPO
echo '{"name": "pairs", "rounds": [{"cliques": [["A", "B"], ["C", "D"]]}]}' >"$TMP/pairs.json"
"$SIM" --topology="$TMP/clash.topology" --schedule="$TMP/pairs.json" --modelBytes=1e5 \
  --rounds=1 --db=none --quiet=1 --pcap --traceDir="$TMP/clash" >/dev/null
n=$(ls "$TMP/clash" | grep -c '^P-Q-R')
[ "$n" = 2 ] || { echo "FAIL: $n files named P-Q-R*: $(ls "$TMP/clash")"; exit 1; }
s1=$(stat -c %s "$TMP/clash/P-Q-R.pcap")
s2=$(stat -c %s "$TMP/clash"/P-Q-R~*.pcap)
[ "$s1" = "$s2" ] && [ "$s1" -gt 100000 ] ||
  { echo "FAIL: the two P-Q-R links' pcaps differ in size ($s1, $s2)"; exit 1; }
echo "ok   colliding pcap names kept apart (P-Q-R.pcap, $(cd "$TMP/clash" && ls P-Q-R~*.pcap))"
# The tcp transport's payload on the links: the islands' access links carry the model bytes
# they sent plus 28 bytes of framing per message (all-in-one: 9 islands x 8 peers x 2 rounds);
# it read 0 (LinkMonitor tagged UDP segments only).
"$SIM" --schedule=all-in-one --transport=tcp --modelBytes=1e5 --rounds=2 --quiet=1 \
  --db="$TMP/tcp.db" >/dev/null 2>&1
read -r payload sent < <(sqlite3 -separator ' ' "$TMP/tcp.db" "SELECT
  (SELECT SUM(payload_bytes) FROM links WHERE kind = 'access' AND from_node IN
     (SELECT DISTINCT island FROM island_rounds)),
  (SELECT SUM(bytes_sent) FROM island_rounds)")
[ "$payload" = "$((sent + 28 * 9 * 8 * 2))" ] ||
  { echo "FAIL: tcp access-link payload $payload, sent $sent (+ framing $((28 * 144)))"; exit 1; }
echo "ok   tcp payload on the islands' access links: $payload = $sent sent + 144 x 28 framing"
