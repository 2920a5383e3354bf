#!/usr/bin/env bash
# Benchmark (not a test): what the heap allocator the programs link (CMake option
# INTELLIGENT_NETWORK_ALLOCATOR, default auto = jemalloc where found) does to the CPU of a
# packet-hop, against glibc's malloc (INTELLIGENT_NETWORK_ALLOCATOR=system). The same runs as
# the island-count scaling of bench/run-benchmarks.sh at 9 and 64 islands (grid schedules,
# unicast, two rounds, 65479-byte segments, MTU 65535, 100 MB and 5 MB models): ours
# (nine-city-training) and raw ns-3 UDP (bench-raw-udp), built twice from the same sources
# with the same build type, run in interleaved repetitions (the machine may be shared: the
# minimum and median of the repetitions are reported, and every ratio comes from this run).
# Results are identical whatever the allocator (nothing simulated depends on addresses).
#
#   bench/allocator-bench.sh                  # build dir: $BUILD_DIR or ./build-bench
#   REPS=3 bench/allocator-bench.sh           # repetitions (default 5)
#   bench/allocator-bench.sh --rst doc/benchmarks.rst   # also (re)write its section there
#
# The glibc build goes to $BUILD_DIR-system (configured on first use).
set -euo pipefail
rst=""
if [ "${1:-}" = "--rst" ]; then
    rst=${2:?--rst needs a file}
elif [ -n "${1:-}" ]; then
    echo "usage: bench/allocator-bench.sh [--rst FILE]" >&2
    exit 2
fi
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build-bench}
case "$build" in /*) ;; *) build=$root/$build ;; esac
system=$build-system
reps=${REPS:-5}
targets=(--target nine-city-training bench-raw-udp bench-inputs)

type=RelWithDebInfo
if [ -f "$build/CMakeCache.txt" ]; then
    type=$(sed -n 's/^CMAKE_BUILD_TYPE:STRING=//p' "$build/CMakeCache.txt")
fi
BUILD_DIR="$build" BUILD_TYPE=$type bash "$root/scripts/build.sh" "${targets[@]}" >/dev/null
# The glibc build: same sources and build type, only the allocator differs.
cmake -S "$root" -B "$system" -DCMAKE_BUILD_TYPE="$type" \
    -DINTELLIGENT_NETWORK_ALLOCATOR=system >/dev/null
cmake --build "$system" -j "$(nproc)" "${targets[@]}" >/dev/null

work=$(mktemp -d "${TMPDIR:-/tmp}/in-alloc.XXXXXX")
echo "allocator benchmark in $work ($reps repetitions, load average $(cut -d' ' -f1-3 /proc/loadavg))"
"$build/bench-inputs" --gridOut="$work/grid-9.json" >/dev/null
"$build/bench-inputs" --synthetic=64 --topologySeed=1 --writeTopology="$work/synthetic-64.topology" \
    --gridOut="$work/grid-64.json" >/dev/null
args9=(--schedule="$work/grid-9.json" --modelBytes=100e6)
args64=(--topology="$work/synthetic-64.topology" --schedule="$work/grid-64.json" --modelBytes=5e6)
common=(--mode=unicast --rounds=2 --segmentSize=65479 --mtu=65535)

results=$work/results.tsv
: >"$results"
for rep in $(seq 1 "$reps"); do
    for side in default system; do
        dir=$build
        [ "$side" = system ] && dir=$system
        for n in 9 64; do
            declare -n args="args$n"
            id=$side-$n-r$rep
            /usr/bin/time -o "$work/$id-ours.time" -f "%U %S" "$dir/nine-city-training" \
                "${args[@]}" "${common[@]}" --db="$work/$id.db" --quiet >"$work/$id-ours.out" 2>&1
            /usr/bin/time -o "$work/$id-raw.time" -f "%U %S" "$dir/bench-raw-udp" \
                "${args[@]}" "${common[@]}" >"$work/$id-raw.out" 2>&1
            printf '%s\t%s\t%s\n' "$side" "$n" "$id" >>"$results"
            unset -n args
        done
    done
    echo "repetition $rep done"
done

/usr/bin/python3 - "$work" "$results" "$rst" "$reps" "$root/scripts" <<'PY'
import hashlib, sqlite3, statistics, sys
work, results, rst, reps = sys.argv[1:5]
sys.path.insert(0, sys.argv[5])
import rst_table

def cpu(path):
    user, system = (float(x) for x in open(path).read().split()[-2:])
    return user + system

def digest(con):  # what the run simulated: its links, rounds and island_rounds tables
    h = hashlib.sha256()
    for table, order in (("links", "link, from_node"), ("rounds", "round, clique"),
                         ("island_rounds", "round, island")):
        for row in con.execute("SELECT * FROM %s ORDER BY %s" % (table, order)):
            h.update(repr(row[1:]).encode())  # without run_id
    return h.hexdigest()

runs = {}  # (side, islands, program) -> [(cpu s, packet-hops)]
results_of = {}  # islands -> {digest of ours' results: first run}
allocator = {}  # side -> {program: allocator}
for line in open(results):
    side, n, rid = line.split()
    con = sqlite3.connect("%s/%s.db" % (work, rid))
    hops = con.execute("SELECT COALESCE(SUM(packets), 0) FROM links").fetchone()[0]
    results_of.setdefault(n, {}).setdefault(digest(con), rid)
    allocator.setdefault(side, {})["ours"] = con.execute(
        "SELECT allocator FROM runs ORDER BY run_id DESC LIMIT 1").fetchone()[0]
    con.close()
    runs.setdefault((side, n, "ours"), []).append((cpu("%s/%s-ours.time" % (work, rid)), hops))
    raw = dict(l.strip().split("=", 1) for l in open("%s/%s-raw.out" % (work, rid)) if "=" in l)
    allocator[side]["raw"] = raw["raw.allocator"]
    runs.setdefault((side, n, "raw"), []).append(
        (cpu("%s/%s-raw.time" % (work, rid)), int(raw["raw.packet_hops"])))

for side, names in allocator.items():
    if names["ours"] != names["raw"]:
        sys.exit("allocator-bench: %s build: ours ran on %s, raw on %s" %
                 (side, names["ours"], names["raw"]))
name = {side: names["ours"].split(" [")[0] for side, names in allocator.items()}
short = {side: n.split()[0] for side, n in name.items()}
if short["default"] == short["system"]:
    sys.exit("allocator-bench: both builds run %s (is jemalloc installed? "
             "INTELLIGENT_NETWORK_ALLOCATOR of the default build?)" % name["default"])

for n, digests in results_of.items():  # nothing simulated depends on addresses
    if len(digests) != 1:
        sys.exit("allocator-bench: %s islands: the runs %s simulated different results "
                 "(links, rounds, island_rounds)" % (n, ", ".join(sorted(digests.values()))))
hops = {}  # (islands, program) -> packet-hops: the same in every repetition with either allocator
for (side, n, prog), vals in runs.items():
    for _, h in vals:
        if hops.setdefault((n, prog), h) != h:
            sys.exit("allocator-bench: %s %s islands: %d packet-hops in one run, %d in another"
                     % (prog, n, hops[(n, prog)], h))

def per_hop(side, n, prog, how):  # CPU s per million packet-hops
    cpus = [c for c, _ in runs[(side, n, prog)]]
    return (min(cpus) if how == "min" else statistics.median(cpus)) / hops[(n, prog)] * 1e6

header = ["program", "islands", "packet-hops",
          "%s s/M min" % short["system"], "%s s/M min" % short["default"], "ratio min",
          "%s s/M med" % short["system"], "%s s/M med" % short["default"], "ratio med"]
rows = []
for prog in ("ours", "raw"):
    for n in ("9", "64"):
        s_min, d_min = per_hop("system", n, prog, "min"), per_hop("default", n, prog, "min")
        s_med, d_med = per_hop("system", n, prog, "med"), per_hop("default", n, prog, "med")
        rows.append([prog, n, "{:,}".format(hops[(n, prog)]).replace(",", " "),
                     "%.2f" % s_min, "%.2f" % d_min, "%.3f" % (d_min / s_min),
                     "%.2f" % s_med, "%.2f" % d_med, "%.3f" % (d_med / s_med)])
growth = []
for prog in ("ours", "raw"):
    for side in ("system", "default"):
        growth.append("%s on %s x%.3f" % (prog, short[side],
                      per_hop(side, "64", prog, "min") / per_hop(side, "9", prog, "min")))

table = [l.rstrip() for l in rst_table.table(rows, header).split("\n")]
print("\n".join(table))
print("64/9 islands per packet-hop (minima): " + ", ".join(growth))

if rst:
    text = [
        "Heap allocator: jemalloc versus glibc", "-" * 37, "",
        "``bench/allocator-bench.sh --rst doc/benchmarks.rst`` (a run of its own, after the "
        "report above): the island-count runs at 9 and 64 islands (grid schedules, unicast, "
        "two rounds, 65479-byte segments, MTU 65535, 100 MB and 5 MB models), ours and raw, "
        "built twice from the same sources with the same build type: as configured (%s) and "
        "with ``-DINTELLIGENT_NETWORK_ALLOCATOR=system`` (%s). %s interleaved repetitions; "
        "CPU is the whole process (user + system) per million packet-hops, 'ratio' = %s / %s. "
        "Both allocators simulate the same thing (checked: ours' links, rounds and "
        "island_rounds tables are identical in every run, and so are raw's packet-hops): "
        "nothing simulated depends on addresses. The allocator each run used is the one it "
        "reported (``runs.allocator``, ``raw.allocator``)." %
        (name["default"], name["system"], reps, short["default"], short["system"]), ""]
    text += table + ["", "64/9 islands per packet-hop (minima): " + ", ".join(growth) + ".", ""]
    rst_table.replace_section(rst, "allocator-bench", text)
    print("wrote the allocator section of", rst)
PY
