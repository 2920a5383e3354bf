#!/usr/bin/env bash
# Benchmarks of the packet-level simulation (issue 6), measured side by side in one run; not
# tests (nothing here fails on a slow machine). Prints the tables and writes doc/benchmarks.rst.
#
#   bench/run-benchmarks.sh            # full run, ~25 min on 2 slow cores (optimizer ~7)
#   bench/run-benchmarks.sh --quick    # small sizes, ~1 min: checks the plumbing only
#   bench/run-benchmarks.sh --profile  # also perf-profile ours and raw (+3 min): where time goes
#   bench/run-benchmarks.sh --instructions  # also count instructions (valgrind, +15 min)
#   bench/run-benchmarks.sh --only-tcp --no-doc  # part 6 alone (tcp vs raw TCP), printed
#   BUILD_DIR=build-bench bench/run-benchmarks.sh --no-doc
#   IN_REVISION=abc1234 ...            # revision to report when the tree is not a git checkout
#
# Every run is one process under /usr/bin/time -v (CPU = user + system seconds of the whole
# process, peak RSS). What runs:
#  1. packet-level cost: nine-city-training (ours: TrainingIsland, rate controller, routers,
#     LinkMonitor) versus bench-raw-udp (raw ns-3 UDP: the same streams, datagrams, paths and
#     rates on the same WanNetwork, no module application) for both shipped schedules and every
#     mode; packet-hops = packets summed over all link directions (ours: the LinkMonitor rows
#     of the results database; raw: a PhyTxBegin counter), and a raw run with the LinkMonitor
#     installed to show its share;
#  2. scaling: CPU and peak RSS of nine-city-training versus model bytes (and segment size),
#     and versus island count (nine-city, synthetic 16, 32 and 64, grid schedules, model
#     bytes per island count chosen for about the same number of packet-hops), with the
#     forwarding alone (bench-raw-udp, simulation-phase CPU) beside it;
#  3. fluid versus packet: bench-fluid (CostModel) on the runs of 1 and 2, per-round times
#     compared with the results database's rounds, CPU per fluid evaluation;
#  4. link efficiency: two cities joined by one 10 Gbps link, one 1 GB transfer each way;
#  5. end to end: synthetic 64 and 128 cities, nine-city-training without --schedule (the
#     optimizer's schedule, simulated at packet level): CPU, wall time and peak RSS.
#  6. tcp transport versus raw ns-3 TCP (bench-raw-tcp: BulkSend/PacketSink on the same
#     network, pairs and TCP settings), CPU per packet-hop (issue 16: <= 1.3).
#  7. (--instructions) the noise-free view: instructions executed in Simulator::Run per
#     packet-hop (valgrind --tool=callgrind, smaller sizes), ours versus raw in every mode,
#     raw with and without the LinkMonitor, and 9 versus 64 islands (ours and raw), the
#     island pairs also with a simulated 2 MiB last-level cache (L2 misses per packet-hop).
#  8. optimizer wall time and gap for 9, 32, 64 and 128 islands (bench/optimizer-bench.sh,
#     its own section of doc/benchmarks.rst, written after the report).
#  9. the heap allocator: ours and raw at 9 and 64 islands built as configured (jemalloc) and
#     with glibc's malloc, interleaved (bench/allocator-bench.sh, its own section, after 8).
# bench/benchmark-report.py turns the raw results into the tables.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build-bench}
case "$build" in /*) ;; *) build=$root/$build ;; esac
quick=0
doc=1
profile=0
instructions=0
only_tcp=0
for arg in "$@"; do
    case "$arg" in
    --quick) quick=1 ;;
    --no-doc) doc=0 ;;
    --profile) profile=1 ;;
    --instructions) instructions=1 ;;
    --only-tcp) only_tcp=1 ;;
    -h | --help)
        sed -n '2,39p' "$0"
        exit 0
        ;;
    *)
        echo "unknown option: $arg" >&2
        exit 2
        ;;
    esac
done

# A new build directory is RelWithDebInfo (symbols for --profile); an existing one keeps its type.
type=RelWithDebInfo
[ -f "$build/CMakeCache.txt" ] && type=
BUILD_DIR="$build" BUILD_TYPE=$type bash "$root/scripts/build.sh" \
    --target nine-city-training bench-raw-udp bench-raw-tcp bench-fluid bench-inputs >/dev/null

work=$(mktemp -d "${TMPDIR:-/tmp}/in-bench.XXXXXX")
manifest=$work/manifest.tsv
: >"$manifest"
echo "benchmark results in $work"

# Machine description (load average: the machine may be shared; CPU time is per process).
{
    echo "date=$(date -u '+%Y-%m-%d %H:%M UTC')"
    echo "nproc=$(nproc)"
    echo "cpu=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
    echo "mem_kib=$(awk '/MemTotal/ {print $2}' /proc/meminfo)"
    echo "ns3=$(awk '/define NS3_VERSION_(MAJOR|MINOR|PATCH) / {v = v (v ? "." : "") $3} END {print v}' /usr/include/ns3/version-defines.h 2>/dev/null) ($(awk '/define NS3_VERSION_BUILD_PROFILE/ {gsub(/"/, "", $3); print $3}' /usr/include/ns3/version-defines.h 2>/dev/null) build)"
    echo "ns3_pkg=$(dpkg-query -W -f='${Version}' libns3-dev 2>/dev/null || true)"
    echo "kernel=$(uname -r)"
    echo "compiler=$(sed -n 's/^CMAKE_CXX_COMPILER:[A-Z]*=//p' "$build/CMakeCache.txt") $(sed -n 's/^CMAKE_BUILD_TYPE:[A-Z]*=//p' "$build/CMakeCache.txt")"
    echo "revision=${IN_REVISION:-$(git -C "$root" describe --always --dirty 2>/dev/null || echo unknown)}"
    echo "load_start=$(cut -d' ' -f1-3 /proc/loadavg)"
    echo "quick=$quick"
} >"$work/machine.txt"

# run ID PART PROGRAM ARGS...: one measured process; ID.out, ID.time (and ID.db for ours).
run() {
    local id=$1 part=$2 prog=$3
    shift 3
    local args=("$@")
    if [ "$prog" = nine-city-training ]; then
        args+=("--db=$work/$id.db" --quiet)
    fi
    printf '%-34s ' "$id"
    if ! /usr/bin/time -v -o "$work/$id.time" "$build/$prog" "${args[@]}" >"$work/$id.out" \
        2>"$work/$id.err"; then
        echo "FAILED (see $work/$id.err)"
        printf '%s\t%s\t%s\tFAILED\t%s\n' "$id" "$part" "$prog" "${args[*]}" >>"$manifest"
        return 0
    fi
    awk -F': ' '/User time/ {u=$2} /System time/ {s=$2} /Maximum resident/ {m=$2}
        END {printf "%7.2f s CPU %7.1f MiB\n", u + s, m / 1024}' "$work/$id.time"
    printf '%s\t%s\t%s\tok\t%s\n' "$id" "$part" "$prog" "${args[*]}" >>"$manifest"
}

# Sizes, chosen for ~10 minutes of CPU on 2 slow shared cores (raw ns-3 forwards only about
# 40-80 k packet-hops per CPU second here): 10 MB models at 8 KB segments for the packet-level
# comparison (both shipped schedules, every mode: 0.08 .. 0.6 M packet-hops per run, three
# repetitions); the byte scaling on one clique (AMS+FRA+LON, unicast, one round: 18
# packet-hops per segment index) from 100 MB to 10 GB at 65479-byte segments (MTU 65535) and
# to 1 GB at 8 KB segments; the island scaling with 65479-byte segments at model sizes that
# give every island count about 0.5 M packet-hops (three repetitions); the link efficiency
# with 1 GB.
if [ "$quick" = 1 ]; then
    reps=1
    cost_bytes=2e6
    scale_points=("1e7:8192:9000" "1e7:65479:65535" "1e8:65479:65535")
    island_bytes=(9:4e6 16:2e6 32:6e5 64:2e5)
    e2e_bytes=1e5
    link_bytes=1e8
else
    reps=3
    cost_bytes=10e6
    scale_points=("1e8:8192:9000" "1e9:8192:9000" "1e8:65479:65535" "1e9:65479:65535"
        "1e10:65479:65535")
    island_bytes=(9:100e6 16:50e6 32:15e6 64:5e6) # about 0.5 M packet-hops each
    e2e_bytes=1e6 # the optimizer's all-in-one clique: 64 x 63 streams
    link_bytes=1e9
fi
# The largest segment: IP packet = 65479 + 56 header bytes = 65535, the largest MTU (a
# packet-level option: the fluid model has no MTU, and bench-fluid refuses --mtu).
jumbo=(--segmentSize=65479 --mtu=65535)

if [ "$only_tcp" = 0 ]; then # parts 1 to 5 (--only-tcp skips them)
echo "== 1+3. packet-level cost (ours vs raw UDP) and fluid vs packet, nine-city"
# CPU time on this shared VM varies by tens of percent with the neighbours' load: every pair is
# measured $reps times, interleaved (all pairs once, then again, ...), and the report keeps
# each side's minimum (and shows the spread of the per-repetition ratios).
for sched in 3x3-rotating all-in-one; do
    rounds=1
    [ "$sched" = 3x3-rotating ] && rounds=2 # its whole period
    for mode in unicast multicast aggregation; do
        run "fluid-$sched-$mode" fluid bench-fluid --schedule=$sched --mode=$mode \
            --rounds=$rounds --modelBytes=$cost_bytes
    done
done
for rep in $(seq 1 "$reps"); do
    for sched in 3x3-rotating all-in-one; do
        rounds=1
        [ "$sched" = 3x3-rotating ] && rounds=2
        for mode in unicast multicast aggregation; do
            common=(--schedule=$sched --mode=$mode --rounds=$rounds --modelBytes=$cost_bytes)
            run "cost-ours-$sched-$mode-r$rep" cost nine-city-training "${common[@]}"
            run "cost-raw-$sched-$mode-r$rep" cost bench-raw-udp "${common[@]}"
            if [ "$sched-$mode" = 3x3-rotating-unicast ]; then
                # Right after its base run (the machine's load drifts within a repetition).
                run "cost-rawmon-3x3-rotating-unicast-r$rep" cost bench-raw-udp \
                    "${common[@]}" --monitor=true
            fi
        done
    done
done

echo "== 2. scaling with model bytes (nine-city, clique AMS+FRA+LON, unicast, 1 round)"
cat >"$work/europe.json" <<'EOF'
{"name": "europe", "rounds": [{"cliques": [["AMS", "FRA", "LON"]]}]}
EOF
for point in "${scale_points[@]}"; do
    IFS=: read -r bytes seg mtu <<<"$point"
    common=(--schedule="$work/europe.json" --mode=unicast --rounds=1 --modelBytes=$bytes
        --segmentSize=$seg)
    run "bytes-$bytes-$seg" bytes nine-city-training "${common[@]}" --mtu=$mtu
    run "fluid-bytes-$bytes-$seg" fluid-bytes bench-fluid "${common[@]}"
done

echo "== 2. scaling with island count (grid schedules, unicast, 2 rounds, 65479 B segments)"
"$build/bench-inputs" --gridOut="$work/grid-9.json" >/dev/null
for n in 16 32 64; do
    "$build/bench-inputs" --synthetic=$n --topologySeed=1 \
        --writeTopology="$work/synthetic-$n.topology" --gridOut="$work/grid-$n.json" >/dev/null
done
island_args() { # N: the topology, schedule and model size of the island-count run N
    local n=$1 point
    [ "$n" != 9 ] && printf '%s\n' "--topology=$work/synthetic-$n.topology"
    printf '%s\n' "--schedule=$work/grid-$n.json" --mode=unicast --rounds=2 --segmentSize=65479
    for point in "${island_bytes[@]}"; do
        [ "${point%%:*}" = "$n" ] && printf '%s\n' "--modelBytes=${point#*:}"
    done
}
for n in 9 16 32 64; do
    mapfile -t args < <(island_args $n)
    run "fluid-islands-$n" fluid-islands bench-fluid "${args[@]}" # no MTU in the fluid model
done
for rep in $(seq 1 "$reps"); do
    for n in 9 16 32 64; do
        mapfile -t args < <(island_args $n)
        run "islands-$n-r$rep" islands nine-city-training "${args[@]}" --mtu=65535
        run "islands-raw-$n-r$rep" islands-raw bench-raw-udp "${args[@]}" --mtu=65535
    done
    # The same at 9 and 64 islands with one setting changed: the heap on ordinary 4 KiB pages
    # (--hugePages=false); ns-3's PointToPointChannel (--channel=ns3: one pending event per
    # packet in flight) instead of FifoPointToPointChannel (one per link direction).
    for variant in small-pages:--hugePages=false ns3-channel:--channel=ns3; do
        for n in 9 64; do
            mapfile -t args < <(island_args $n)
            run "islands-${variant%%:*}-$n-r$rep" islands nine-city-training "${args[@]}" \
                --mtu=65535 "${variant#*:}"
            run "islands-raw-${variant%%:*}-$n-r$rep" islands-raw bench-raw-udp "${args[@]}" \
                --mtu=65535 "${variant#*:}"
        done
    done
    # 64 islands with a four times larger model (streams four times longer): whether the
    # growth is per stream (it would shrink) or per packet-hop.
    mapfile -t args < <(island_args 64 | grep -v '^--modelBytes=')
    long_bytes=$(python3 -c "print(4 * float('${island_bytes[-1]#*:}'))")
    run "islands-long-64-r$rep" islands-long nine-city-training "${args[@]}" --mtu=65535 \
        --modelBytes="$long_bytes"
done

echo "== 5. end to end on 64 and 128 synthetic cities (optimizer -> packet level, one process)"
"$build/bench-inputs" --synthetic=128 --topologySeed=1 \
    --writeTopology="$work/synthetic-128.topology" >/dev/null
for n in 64 128; do
    run "e2e-$n" e2e nine-city-training --topology="$work/synthetic-$n.topology" --period=1 \
        --iterations=200 --mode=unicast --rounds=2 --modelBytes=$e2e_bytes --segmentSize=65479 \
        --mtu=65535 --latencyCheck=off
done

echo "== 4. link efficiency (two cities, one 10 Gbps link, 10 ms)"
fi
cat >"$work/two-city.topology" <<'EOF'
# Two cities joined by one private 10 Gbps link (metro links 10 Gbps, no public path).
[cities]
code,name,latitude,longitude
AAA,Alpha,0,0
BBB,Beta,0,10
[devices]
device,city,edge_gbps,operator
AAA1,AAA,10,bench
BBB1,BBB,10,bench
[private_links]
device_a,device_b,latency_ms,capacity_gbps
AAA1,BBB1,10,10
EOF
cat >"$work/pair.json" <<'EOF'
{"name": "pair", "rounds": [{"cliques": [["AAA", "BBB"]]}]}
EOF
for seg in 8192 65479; do
    [ "$only_tcp" = 1 ] && break
    mtu=9000
    [ "$seg" = 65479 ] && mtu=65535
    run "link-$seg" link nine-city-training --topology="$work/two-city.topology" \
        --schedule="$work/pair.json" --mode=unicast --rounds=1 --modelBytes=$link_bytes \
        --segmentSize=$seg --mtu=$mtu
done

echo "== 6. tcp transport versus raw ns-3 TCP (BulkSend/PacketSink), same network and flows"
# Ours: nine-city-training --transport=tcp; raw: bench-raw-tcp (the same pairs as BulkSend ->
# PacketSink with the same congestion control, segment size and BDP buffers). Two cities (one
# transfer each way) and a star of three leaves in one clique (six transfers).
cat >"$work/star3.topology" <<'TOPO'
# Three leaves around a hub device, 10 Gbps links of 5, 10 and 20 ms (access links 10 Gbps).
[cities]
code,name,latitude,longitude
HUB,Hub,0,0
LLA,LeafA,0,1
LLB,LeafB,0,2
LLC,LeafC,0,3
[devices]
device,city,edge_gbps,operator
HUB1,HUB,10,bench
LLA1,LLA,10,bench
LLB1,LLB,10,bench
LLC1,LLC,10,bench
[private_links]
device_a,device_b,latency_ms,capacity_gbps
LLA1,HUB1,5,10
LLB1,HUB1,10,10
LLC1,HUB1,20,10
TOPO
cat >"$work/leaves.json" <<'SCHED'
{"name": "leaves", "rounds": [{"cliques": [["LLA", "LLB", "LLC"]]}]}
SCHED
tcp_bytes=2e8
[ "$quick" = 1 ] && tcp_bytes=2e7
for net in pair leaves; do
    topo=$work/two-city.topology
    [ "$net" = leaves ] && topo=$work/star3.topology
    for cc in Cubic NewReno; do
        for i in $(seq 1 "$reps"); do
            run "tcp-ours-$net-$cc-r$i" tcp nine-city-training --topology="$topo" \
                --schedule="$work/$net.json" --mode=unicast --rounds=1 --modelBytes=$tcp_bytes \
                --transport=tcp --congestionControl=$cc
            run "tcp-raw-$net-$cc-r$i" tcp bench-raw-tcp --topology="$topo" \
                --schedule="$work/$net.json" --mode=unicast --rounds=1 --modelBytes=$tcp_bytes \
                --congestionControl=$cc
        done
    done
done

if [ "$instructions" = 1 ]; then
    # Instruction counts do not move with the neighbours' load: the figure to iterate on and
    # to compare ratios with. callgrind collects inside Simulator::Run only (set-up excluded,
    # as it is excluded from raw's cpu_run_s); hops as in part 1. About 50x slower than a
    # native run (and the cache simulation of the island pairs more), hence the small
    # sizes: 0.4 MB models at 8 KB segments for the modes, 20 MB and 1 MB for 9 and 64
    # islands (about 100 000 packet-hops each; a stream carries 306 and 16 segments, where
    # part 2's carry 1528 and 77: with fewer, per-stream costs weigh more per packet-hop).
    # The island pairs, ours and raw, also simulate a 2 MiB last-level cache (--l2): data
    # misses per packet-hop, the noise-free view of what the CPU figures of part 2 add on
    # the larger network.
    echo "== 7. instructions per packet-hop (valgrind --tool=callgrind, Simulator::Run only)"
    if command -v valgrind >/dev/null; then
        ins_bytes=4e5
        ins_islands=(9:2e7 64:1e6)
        if [ "$quick" = 1 ]; then
            ins_bytes=2e5
            ins_islands=(9:1e6 64:1e5)
        fi
        cg=(valgrind --tool=callgrind "--toggle-collect=ns3::Simulator::Run()")
        irun() { # ID PART PROGRAM [--l2] ARGS...: one callgrind run; ID.cg, ID.out, ID.err
            local id=$1 part=$2 prog=$3
            shift 3
            local tool=("${cg[@]}")
            if [ "${1:-}" = --l2 ]; then
                tool+=(--cache-sim=yes --LL=2097152,16,64)
                shift
            fi
            local args=("$@")
            [ "$prog" = nine-city-training ] && args+=("--db=$work/$id.db" --quiet)
            printf '%-34s ' "$id"
            if "${tool[@]}" "--callgrind-out-file=$work/$id.cg" "$build/$prog" "${args[@]}" \
                >"$work/$id.out" 2>"$work/$id.err"; then
                sed -n 's/.*Collected : \([0-9]*\).*/\1 instructions/p' "$work/$id.err"
                printf '%s\t%s\t%s\tok\t%s\n' "$id" "$part" "$prog" "${args[*]}" >>"$manifest"
            else
                echo "FAILED (see $work/$id.err)"
                printf '%s\t%s\t%s\tFAILED\t%s\n' "$id" "$part" "$prog" "${args[*]}" \
                    >>"$manifest"
            fi
            rm -f "$work/$id.cg"
        }
        for sched in 3x3-rotating all-in-one; do
            rounds=1
            [ "$sched" = 3x3-rotating ] && rounds=2
            for mode in unicast multicast aggregation; do
                common=(--schedule=$sched --mode=$mode --rounds=$rounds --modelBytes=$ins_bytes)
                irun "ins-ours-$sched-$mode" ins nine-city-training "${common[@]}"
                irun "ins-raw-$sched-$mode" ins bench-raw-udp "${common[@]}"
            done
        done
        irun ins-rawmon-3x3-rotating-unicast ins bench-raw-udp --schedule=3x3-rotating \
            --mode=unicast --rounds=2 --modelBytes=$ins_bytes --monitor=true
        for point in "${ins_islands[@]}"; do
            n=${point%%:*}
            mapfile -t args < <(island_args "$n" | grep -v '^--modelBytes=')
            args+=("--modelBytes=${point#*:}" --mtu=65535)
            irun "ins-islands-$n" ins-islands nine-city-training --l2 "${args[@]}"
            irun "ins-islands-raw-$n" ins-islands bench-raw-udp --l2 "${args[@]}"
        done
    else
        echo "valgrind not found: no instruction counts"
    fi
fi

if [ "$profile" = 1 ]; then
    # perf with DWARF call graphs (Debian's ns-3 has no frame pointers); inclusive shares of
    # a few functions and self shares per library, read by the report.
    echo "== profile (perf record, small runs: ours unicast and aggregation, raw unicast)"
    prof_bytes=4e6
    [ "$quick" = 1 ] && prof_bytes=1e6
    profile_run() { # NAME PROGRAM ARGS...
        local name=$1 prog=$2
        shift 2
        if ! perf record -q -F 999 --call-graph dwarf,16384 -o "$work/$name.perf" \
            "$build/$prog" "$@" >/dev/null 2>"$work/$name.perf.err"; then
            echo "$name: perf record failed (see $work/$name.perf.err)"
            return 0
        fi
        perf report -i "$work/$name.perf" --children --sort symbol -g none --percent-limit 0.3 \
            2>/dev/null | grep '%' >"$work/$name.children.txt" || true
        perf report -i "$work/$name.perf" --no-children --sort dso -g none 2>/dev/null |
            grep '%' >"$work/$name.dso.txt" || true
        rm -f "$work/$name.perf"
        echo "$name: done"
    }
    if command -v perf >/dev/null; then
        for mode in unicast aggregation; do
            profile_run "profile-ours-$mode" nine-city-training --schedule=3x3-rotating \
                --mode=$mode --rounds=2 --modelBytes=$prof_bytes --db=none --quiet
        done
        profile_run profile-raw-unicast bench-raw-udp --schedule=3x3-rotating --mode=unicast \
            --rounds=2 --modelBytes=$prof_bytes
    else
        echo "perf not found: no profile"
    fi
fi

echo "load_end=$(cut -d' ' -f1-3 /proc/loadavg)" >>"$work/machine.txt"
report=(python3 "$root/bench/benchmark-report.py" "$work")
if [ "$doc" = 1 ]; then
    report+=(--rst "$root/doc/benchmarks.rst")
fi
"${report[@]}"

# 8. optimizer wall time and gap versus islands (its own section of doc/benchmarks.rst).
echo "== 8. optimizer: wall time and gap for 9, 32, 64 and 128 islands"
opt=(bash "$root/bench/optimizer-bench.sh")
if [ "$doc" = 1 ]; then
    opt+=(--rst "$root/doc/benchmarks.rst")
fi
if [ "$quick" = 1 ]; then
    ISLANDS="9 32" BUDGET=5 BUILD_DIR="$build" "${opt[@]}"
else
    BUILD_DIR="$build" "${opt[@]}"
fi

# 9. the heap allocator against glibc's malloc (its own section of doc/benchmarks.rst).
echo "== 9. heap allocator: as configured versus glibc, 9 and 64 islands"
alloc=(bash "$root/bench/allocator-bench.sh")
if [ "$doc" = 1 ]; then
    alloc+=(--rst "$root/doc/benchmarks.rst")
fi
if [ "$only_tcp" = 1 ]; then
    echo "(skipped: --only-tcp)"
elif [ "$quick" = 1 ]; then
    REPS=1 BUILD_DIR="$build" "${alloc[@]}"
else
    BUILD_DIR="$build" "${alloc[@]}"
fi
