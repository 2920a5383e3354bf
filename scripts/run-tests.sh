#!/usr/bin/env bash
# README command 2: install what is needed, build everything, and run the whole test suite
# (ns-3 TestSuites, GoogleTests, examples and script tests) through CTest.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${BUILD_DIR:-$ROOT/build}"
bash "$ROOT/scripts/install-deps.sh"
start=$(date +%s)
bash "$ROOT/scripts/build.sh"
echo "build: $(( $(date +%s) - start )) s"
cd "$BUILD"
ctest --output-on-failure -j "${JOBS:-$(nproc)}" --timeout 1800
echo "build and tests: $(( $(date +%s) - start )) s"
