#!/usr/bin/env bash
# README command 1: install what is needed, build, and run the main job — the nine-city
# experiment — printing a per-round summary and appending the run to results.db.
# Extra arguments go to the experiment (e.g. --mode=multicast --rounds=6).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bash "$ROOT/scripts/install-deps.sh"
bash "$ROOT/scripts/build.sh" --target nine-city-training
cd "$ROOT"
"${BUILD_DIR:-$ROOT/build}/nine-city-training" --db=results.db "$@"
