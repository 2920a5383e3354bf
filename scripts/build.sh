#!/usr/bin/env bash
# Configures and builds the module standalone against the installed ns-3 (build/ by default).
# Arguments go to `cmake --build` (e.g. --target nine-city-training). A new build directory is
# configured as BUILD_TYPE (default Release); an existing one keeps its build type unless
# BUILD_TYPE is given.
#
#   BUILD_DIR=build-bench BUILD_TYPE=RelWithDebInfo scripts/build.sh --target bench-fluid
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${BUILD_DIR:-$ROOT/build}"
JOBS="${JOBS:-$(nproc)}"
type_arg=()
if [ -n "${BUILD_TYPE:-}" ] || [ ! -f "$BUILD/CMakeCache.txt" ]; then
    type_arg=(-DCMAKE_BUILD_TYPE="${BUILD_TYPE:-Release}")
fi
launcher=()
if command -v ccache >/dev/null 2>&1; then
    launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache) # optional: faster rebuilds where present
fi
cmake -S "$ROOT" -B "$BUILD" "${type_arg[@]}" "${launcher[@]}" >/dev/null
cmake --build "$BUILD" -j "$JOBS" "$@"
