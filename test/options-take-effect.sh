#!/usr/bin/env bash
# Issue 14's silent wrong results, each checked on what the run records (every case failed on
# the code before ExperimentOptions):
#  1. an attribute given on the command line takes effect although a program option maps to it
#     (--ns3::TrainingIsland::ComputeTime=1s: compute phases of 1 s; doc/sweeps.rst uses this
#     form), and --ns3::PointToPointNetDevice::Mtu=1500 is the MTU (too small for the default
#     segment: refused; with a 1400-byte segment: the run's MTU is 1500);
#  2. every option also is an attribute: --ns3::ExperimentOptions::LinkRate=2e9 = --linkRate=2e9;
#  3. every setting lands in runs.parameters: two runs that differ only in an attribute nobody
#     maps (--ns3::UdpTransport::AckInterval=8) differ in the database, and the attributes of
#     the module's own TypeIds are all there.
# Usage: options-take-effect.sh <nine-city-training>
set -uo pipefail
SIM="$1"
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
DB="$TMP/r.db"
base=(--schedule=all-in-one --modelBytes=1e5 --rounds=1 --quiet=1 --db="$DB")
fail=0
check() { # name, python condition on the values read
  if /usr/bin/python3 -c "import sys; sys.exit(0 if ($2) else 1)" 2>/dev/null; then
    echo "ok   $1"
  else
    echo "FAIL $1: $2"
    fail=1
  fi
}
last_run() { sqlite3 "$DB" "SELECT COALESCE(MAX(run_id), 0) FROM runs" 2>/dev/null || echo 0; }
sim() { # args...: runs the simulator; a failed run fails the case that follows
  if ! "$SIM" "${base[@]}" "$@" >/dev/null 2>"$TMP/err"; then
    echo "FAIL run $*: $(tail -1 "$TMP/err")"
    fail=1
  fi
}

# 1a. The attribute form of --computeTime: every island computes 1 s.
sim --runKey=compute-attr --ns3::TrainingIsland::ComputeTime=1s
run=$(last_run)
compute=$(sqlite3 "$DB" "SELECT MIN(compute_end_s - start_s) || ' ' || MAX(compute_end_s - start_s) FROM island_rounds WHERE run_id = $run")
check "ComputeTime attribute takes effect (compute min/max $compute s)" \
  "all(abs(float(x) - 1.0) < 1e-6 for x in '$compute'.split())"
param=$(sqlite3 "$DB" "SELECT json_extract(parameters, '$.computeTime') FROM runs WHERE run_id = $run")
check "computeTime recorded as 1 (got $param)" "abs(float('$param') - 1.0) < 1e-12"

# 1b. The attribute form of --mtu: 1500 cannot carry 8192-byte segments (refused, exit 2) ...
out=$("$SIM" "${base[@]}" --ns3::PointToPointNetDevice::Mtu=1500 2>&1)
status=$?
check "Mtu=1500 with 8192-byte segments refused (exit $status)" \
  "$status == 2 and 'MTU' in '''$out'''"
# ... and with 1400-byte segments it is the run's MTU.
sim --runKey=mtu-attr --segmentSize=1400 --ns3::PointToPointNetDevice::Mtu=1500
run=$(last_run)
mtu=$(sqlite3 "$DB" "SELECT json_extract(parameters, '$.mtu') FROM runs WHERE run_id = $run")
check "Mtu attribute recorded as the MTU (got $mtu)" "'$mtu' == '1500'"

# 2. The attribute of an option without another attribute: same links as --linkRate=2e9.
sim --runKey=rate-attr --ns3::ExperimentOptions::LinkRate=2e9
run=$(last_run)
rates=$(sqlite3 "$DB" "SELECT MIN(capacity_bps) || ' ' || MAX(capacity_bps) FROM links WHERE run_id = $run AND kind = 'private'")
check "ExperimentOptions::LinkRate sets the private links (min/max $rates bit/s)" \
  "all(float(x) == 2e9 for x in '$rates'.split())"

# 3. An attribute nobody maps is recorded: two runs differing only in it differ.
sim --runKey=ack-default
a=$(last_run)
sim --runKey=ack-8 --ns3::UdpTransport::AckInterval=8
b=$(last_run)
pa=$(sqlite3 "$DB" "SELECT parameters FROM runs WHERE run_id = $a")
pb=$(sqlite3 "$DB" "SELECT parameters FROM runs WHERE run_id = $b")
check "runs differing in AckInterval differ in runs.parameters" "'''$pa''' != '''$pb'''"
ack=$(sqlite3 "$DB" "SELECT json_extract(parameters, '$.\"ns3::UdpTransport::AckInterval\"') FROM runs WHERE run_id = $b")
check "AckInterval recorded as 8 (got $ack)" "'$ack' == '8'"
# 4. Multicast loss recovery: the option and its attributes are recorded with the run.
sim --runKey=repair-resend --mode=multicast --multicastRepair=resend --parityBlock=16
c=$(last_run)
rep=$(sqlite3 "$DB" "SELECT json_extract(parameters, '$.multicastRepair') || ' ' || json_extract(parameters, '$.\"ns3::UdpTransport::ParityBlock\"') || ' ' || json_extract(parameters, '$.\"ns3::UdpTransport::ParityConfidence\"') FROM runs WHERE run_id = $c")
check "multicastRepair, ParityBlock and ParityConfidence recorded (got $rep)" "'$rep' == 'resend 16 0.9'"

# 4. NS_ATTRIBUTE_DEFAULT, which ns-3 applies at construction over every default and option:
#    what it sets is what the run records (it recorded the option's default before), a command
#    line that disagrees with it is refused, and a malformed entry is refused.
NS_ATTRIBUTE_DEFAULT='ns3::UdpTransport::MulticastRepair=resend;ns3::UdpTransport::ParityBlock=8' \
  sim --runKey=repair-env --mode=multicast
c=$(last_run)
rep=$(sqlite3 "$DB" "SELECT json_extract(parameters, '$.multicastRepair') || ' ' || json_extract(parameters, '$.\"ns3::UdpTransport::ParityBlock\"') FROM runs WHERE run_id = $c")
check "NS_ATTRIBUTE_DEFAULT settings recorded (got $rep)" "'$rep' == 'resend 8'"
out=$(NS_ATTRIBUTE_DEFAULT='ns3::UdpTransport::MulticastRepair=resend' "$SIM" "${base[@]}" \
  --mode=multicast --ns3::UdpTransport::MulticastRepair=parity 2>&1)
status=$?
check "command line against NS_ATTRIBUTE_DEFAULT refused (exit $status)" \
  "$status == 2 and 'NS_ATTRIBUTE_DEFAULT' in '''$out'''"
out=$(NS_ATTRIBUTE_DEFAULT='MulticastRepair' "$SIM" "${base[@]}" 2>&1)
status=$?
check "malformed NS_ATTRIBUTE_DEFAULT refused (exit $status)" \
  "$status == 2 and 'NS_ATTRIBUTE_DEFAULT' in '''$out'''"
# 5. The event scheduler: PriorityQueueScheduler unless --SchedulerType or NS_GLOBAL_VALUE
#    names another; the one in effect (seen in ns-3's scheduler log) is the one recorded.
for form in default option env; do
  args=(--runKey=scheduler-$form)
  want=ns3::PriorityQueueScheduler
  envset=()
  case $form in
    option) args+=(--SchedulerType=ns3::MapScheduler); want=ns3::MapScheduler ;;
    env) envset=(NS_GLOBAL_VALUE=SchedulerType=ns3::HeapScheduler); want=ns3::HeapScheduler ;;
  esac
  used=$(env "${envset[@]}" \
    NS_LOG='PriorityQueueScheduler=level_function|prefix_func:MapScheduler=level_function|prefix_func:HeapScheduler=level_function|prefix_func' \
    "$SIM" "${base[@]}" "${args[@]}" 2>&1 | sed -n 's/^\([A-Za-z]*Scheduler\):Insert(.*/\1/p' | sort -u | tr '\n' ' ')
  got=$(sqlite3 "$DB" "SELECT json_extract(parameters, '$.SchedulerType') FROM runs WHERE run_id = $(last_run)")
  check "scheduler ($form): ${want#ns3::} in effect (inserted by: $used) and recorded (got $got)" \
    "'$used' == '${want#ns3::} ' and '$got' == '$want'"
done
# 6. The huge-page heap (--hugePages, default on): what the run did is recorded, and it changes
#    nothing simulated (rounds, links and island rounds equal with it off).
mode=$(sed -n 's/.*\[\(.*\)\].*/\1/p' /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null)
declare -A heap
for flag in true false; do
  sim --hugePages=$flag --runKey=huge-$flag
  heap[$flag]=$(last_run)
done
hon=$(sqlite3 "$DB" "SELECT json_extract(parameters, '$.HugePageHeap') FROM runs WHERE run_id = ${heap[true]}")
hoff=$(sqlite3 "$DB" "SELECT json_extract(parameters, '$.HugePageHeap') || ' ' || json_extract(parameters, '$.hugePages') FROM runs WHERE run_id = ${heap[false]}")
if [ "$mode" = madvise ] || [ "$mode" = always ]; then
  check "huge pages on (kernel: $mode): heap advised and recorded (got '$hon')" \
    "'$hon'.startswith('advised ') and '$hon'.endswith('(kernel: $mode)')"
else
  check "huge pages on, kernel without them ('$mode'): recorded as not advised (got '$hon')" \
    "'$hon'.startswith('not advised: ')"
fi
check "huge pages off: recorded (got '$hoff')" \
  "'$hoff'.startswith('not advised: --hugePages=false') and '$hoff'.endswith(' 0')"
for table in rounds links island_rounds; do
  # One reader at a time: two sqlite3 processes opening the WAL database at once can see
  # "database is locked" while the first recovers the WAL index.
  rows() { sqlite3 "$DB" "SELECT * FROM $table WHERE run_id = $1" | cut -d'|' -f2- | sort; }
  rows "${heap[true]}" > "$TMP/on.rows"
  rows "${heap[false]}" > "$TMP/off.rows"
  n=$(wc -l < "$TMP/on.rows")
  same=$(cmp -s "$TMP/on.rows" "$TMP/off.rows" && echo 1 || echo 0)
  check "huge pages change nothing simulated: $table equal ($n rows)" "$same == 1 and $n > 0"
done
for key in ns3::UdpTransport::MinRto ns3::FpgaAggregator::Slots ns3::IdealTransport::SendRate RngRun RngSeed; do
  v=$(sqlite3 "$DB" "SELECT json_extract(parameters, '$.\"$key\"') FROM runs WHERE run_id = $a")
  check "$key recorded (got '$v')" "'$v' != ''"
done
# 4. --mode and --capabilities are one setting: recorded as in effect whichever was given
#    (--capabilities=unicast,multicast runs multicast; its parameters said mode unicast).
sim --runKey=caps --capabilities=unicast,multicast
run=$(last_run)
rec=$(sqlite3 "$DB" "SELECT mode || ' ' || json_extract(parameters, '$.mode') || ' ' || json_extract(parameters, '$.capabilities') FROM runs WHERE run_id = $run")
check "--capabilities=unicast,multicast recorded as multicast (got '$rec')" \
  "'$rec' == 'multicast multicast unicast,multicast'"
sim --runKey=mode-agg --mode=aggregation
run=$(last_run)
rec=$(sqlite3 "$DB" "SELECT mode || ' ' || json_extract(parameters, '$.mode') || ' ' || json_extract(parameters, '$.capabilities') FROM runs WHERE run_id = $run")
check "--mode=aggregation recorded with its capabilities (got '$rec')" \
  "'$rec' == 'aggregation aggregation unicast,multicast,aggregation'"
# 5. A global set through the environment is recorded as in effect (it was not: only the
#    command line's globals and RngSeed/RngRun/SchedulerType were).
NS_GLOBAL_VALUE="ChecksumEnabled=true" sim --runKey=env-global
run=$(last_run)
rec=$(sqlite3 "$DB" "SELECT json_extract(parameters, '$.ChecksumEnabled') || ' ' || json_extract(parameters, '$.SimulatorImplementationType') FROM runs WHERE run_id = $run")
check "NS_GLOBAL_VALUE ChecksumEnabled=true recorded (got '$rec')" \
  "'$rec' == 'true ns3::DefaultSimulatorImpl'"
# 6. Dctcp negotiates ECN whatever --tcpEcn says (its help and doc/intelligent-network.rst):
#    the same run with and without --tcpEcn=true (before: without it the socket was told ECN
#    off after DCTCP turned it on, and the run equalled one without any marking).
declare -A dctcp
for e in false true; do
  sim --runKey=dctcp-$e --schedule=3x3-rotating --transport=tcp --congestionControl=Dctcp \
    --queueDisc=red-ecn --queueSize=5 --modelBytes=1e6 --rounds=2 --computeTime=0 --tcpEcn=$e
  dctcp[$e]=$(last_run)
done
rows() { sqlite3 "$DB" "SELECT round, clique, duration_s FROM rounds WHERE run_id = $1 ORDER BY round, clique"; }
same=$([ "$(rows "${dctcp[false]}")" = "$(rows "${dctcp[true]}")" ] && echo 1 || echo 0)
marks=$(sqlite3 "$DB" "SELECT ecn_marks FROM runs WHERE run_id = ${dctcp[false]}")
check "Dctcp without --tcpEcn runs as with it ($marks marks)" "$same == 1 and ${marks:-0} > 0"
# 7. A restriction that leaves aggregation out under aggregation capabilities runs what it
#    names (before: refused, every clique was planned as an aggregation).
sim --runKey=agg-restricted --mode=aggregation --patterns=all-to-all --schedule=3x3-rotating
run=$(last_run)
pat=$(sqlite3 "$DB" "SELECT group_concat(DISTINCT pattern) FROM rounds WHERE run_id = $run")
check "--mode=aggregation --patterns=all-to-all runs all-to-all (got '$pat')" "'$pat' == 'all-to-all'"
[ "$fail" = 0 ] && echo "every setting took effect and was recorded"
exit "$fail"
