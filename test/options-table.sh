#!/usr/bin/env bash
# doc/options-table.rst is generated from the options table in the code (any program's
# --PrintOptionsRst); it must not drift. Regenerate with:
#   build/nine-city-training --PrintOptionsRst > doc/options-table.rst
# Usage: options-table.sh <any program using ExperimentOptions> <doc/options-table.rst>
set -euo pipefail
if ! diff -u "$2" <("$1" --PrintOptionsRst); then
  echo "FAIL: $2 differs from the code's options table (regenerate it, see above)"
  exit 1
fi
echo "doc/options-table.rst matches the code ($(grep -c '^   \* - ``--' "$2") options)"
