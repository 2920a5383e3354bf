#!/usr/bin/env bash
# cmake --install into a temporary prefix, then build a user's scenario out of tree against it
# twice: with CMake (find_package(intelligent-network) + one target_link_libraries) and with
# pkg-config; both programs run a small simulation from the installed data.
# Usage: install-test.sh <source dir> <build dir> <work dir>
set -euo pipefail
SRC="$1"
BUILD="$2"
WORK="$3"
rm -rf "$WORK"
mkdir -p "$WORK"
PREFIX="$WORK/prefix"
cmake --install "$BUILD" --prefix "$PREFIX" >"$WORK/install.log"
for f in include/intelligent-network/ns3/intelligent-network-module.h \
         include/intelligent-network/ns3/experiment-options.h \
         lib/cmake/intelligent-network/intelligent-network-config.cmake \
         lib/pkgconfig/intelligent-network.pc share/intelligent-network/data/nine-city.topology; do
  [ -e "$PREFIX/$f" ] || { echo "FAIL: not installed: $f"; exit 1; }
done
launcher=()
command -v ccache >/dev/null 2>&1 && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
cmake -S "$SRC/test/external-scenario" -B "$WORK/cmake-build" -DCMAKE_PREFIX_PATH="$PREFIX" \
  -DCMAKE_BUILD_TYPE=Release "${launcher[@]}" >"$WORK/configure.log"
cmake --build "$WORK/cmake-build" -j 2 >"$WORK/build.log"
"$WORK/cmake-build/external-scenario" --modelBytes=1e5 --rounds=1 | tee "$WORK/cmake-run.txt" | tail -1
grep -q "^complete (module 0.1.0" "$WORK/cmake-run.txt"
# Bad input still exits 2 from the user's program.
set +e
"$WORK/cmake-build/external-scenario" --rounds=1.5 2>/dev/null
status=$?
set -e
[ "$status" = 2 ] || { echo "FAIL: --rounds=1.5 exit $status (want 2)"; exit 1; }

export PKG_CONFIG_PATH="$PREFIX/lib/pkgconfig"
datadir=$(pkg-config --variable=datadir intelligent-network)
read -r -a flags <<<"$(pkg-config --cflags --libs intelligent-network)"
g++ "$SRC/test/external-scenario/scenario.cc" -o "$WORK/pc-scenario" \
  "-DINTELLIGENT_NETWORK_DATA_DIR=\"$datadir\"" "${flags[@]}"
LD_LIBRARY_PATH="$PREFIX/lib" "$WORK/pc-scenario" --modelBytes=1e5 --rounds=1 | tail -1 |
  grep "^complete"
echo "installed module builds and runs a user's scenario (CMake and pkg-config)"
