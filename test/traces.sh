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
