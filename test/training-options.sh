#!/usr/bin/env bash
# training-proxy and training-curves read the shared ExperimentOptions (issue 14: one options
# object, the same flags meaning the same thing everywhere, every effective setting recorded):
#  1. a model too small for the learner's vector is bad input: exit 2 naming --modelBytes,
#     before anything is simulated;
#  2. the training flags take effect (--lr changes the training) and are recorded, with the
#     shared table's defaults for the rest (lr 0.05, targetFraction 0.9), in runs.parameters
#     (training-proxy) and under "parameters" in the --json summary (training-curves);
#  3. an option and the attribute it maps to are one setting in both programs
#     (--ns3::TrainingIsland::FixedPointBits=12 is --fixedPointBits=12);
#  4. old private flags are gone (--momentum: now --outerMomentum), bad values exit 2.
# Usage: training-options.sh <training-proxy> <training-curves>
set -uo pipefail
PROXY="$1"
CURVES="$2"
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
DB="$TMP/r.db"
small=(--schedule=all-in-one --modelBytes=2e5 --rounds=2 --hidden=16 --samplesPerIsland=256)
curves=(--horizon=2 --referenceHorizon=1 --hidden=8 --samplesPerIsland=64 --period=1
        --modelBytes=1e7 --localSteps=1 --iterations=50)
fail=0
check() { # name, python condition
  if /usr/bin/python3 -c "import sys; sys.exit(0 if ($2) else 1)" 2>/dev/null; then
    echo "ok   $1"
  else
    echo "FAIL $1: $2"
    fail=1
  fi
}
param() { # run key, JSON path
  sqlite3 "$DB" "SELECT json_extract(parameters, '\$.$2') FROM runs WHERE run_key = '$1'"
}

# 1. 32-128-64-10 MLP: 13,130 parameters = 105,040 bytes of doubles; 1e5 bytes cannot hold it.
out=$("$PROXY" --schedule=all-in-one --modelBytes=1e5 --rounds=1 --db=none 2>&1)
status=$?
check "training-proxy --modelBytes=1e5 refused (exit $status)" \
  "$status == 2 and '--modelBytes=100000' in '''$out''' and '105040' in '''$out''' and 'complete' not in '''$out'''.replace('INCOMPLETE', '')"

# 2. Recorded settings and their effect.
"$PROXY" "${small[@]}" --db="$DB" --runKey=lr07 --lr=0.07 --outerMomentum=0.5 >/dev/null 2>"$TMP/err" \
  || { echo "FAIL training-proxy run: $(tail -1 "$TMP/err")"; fail=1; }
"$PROXY" "${small[@]}" --db="$DB" --runKey=default >/dev/null 2>"$TMP/err" \
  || { echo "FAIL training-proxy run: $(tail -1 "$TMP/err")"; fail=1; }
"$PROXY" "${small[@]}" --db="$DB" --runKey=om05 --outerMomentum=0.5 >/dev/null 2>"$TMP/err" \
  || { echo "FAIL training-proxy run: $(tail -1 "$TMP/err")"; fail=1; }
check "lr recorded (0.07 / default 0.05: $(param lr07 lr) / $(param default lr))" \
  "float('$(param lr07 lr)') == 0.07 and float('$(param default lr)') == 0.05"
check "outerMomentum recorded ($(param lr07 outerMomentum))" "float('$(param lr07 outerMomentum)') == 0.5"
# 32 inputs, 16 hidden, 10 classes: 32*16 + 16 + 16*10 + 10 = 698 parameters.
check "hidden and the task's size recorded ($(param lr07 hidden), $(param lr07 parameters))" \
  "'$(param lr07 hidden)' == '16' and '$(param lr07 parameters)' == '698'"
check "module attributes recorded ($(param default "\"ns3::TrainingIsland::FixedPointBits\""))" \
  "'$(param default "\"ns3::TrainingIsland::FixedPointBits\"")' == '16'"
loss() { sqlite3 "$DB" "SELECT ROUND(AVG(global_loss), 9) FROM training t JOIN runs r USING(run_id) WHERE r.run_key = '$1' AND t.round = 1"; }
check "--lr changes the training (mean loss after round 1: $(loss lr07) vs $(loss om05))" \
  "'$(loss lr07)' != '' and '$(loss om05)' != '' and float('$(loss lr07)') != float('$(loss om05)')"
check "--outerMomentum changes the training ($(loss om05) vs $(loss default))" \
  "'$(loss om05)' != '' and float('$(loss om05)') != float('$(loss default)')"

# 3. An option and its attribute: one setting, in both programs.
"$PROXY" "${small[@]}" --db="$DB" --runKey=fp12 --mode=aggregation \
  --ns3::TrainingIsland::FixedPointBits=12 >/dev/null 2>"$TMP/err" \
  || { echo "FAIL training-proxy run: $(tail -1 "$TMP/err")"; fail=1; }
check "FixedPointBits attribute is --fixedPointBits ($(param fp12 fixedPointBits))" \
  "'$(param fp12 fixedPointBits)' == '12'"
"$CURVES" "${curves[@]}" --lr=0.07 --ns3::TrainingIsland::FixedPointBits=12 \
  --csv="$TMP/c.csv" --json="$TMP/s.json" >/dev/null 2>"$TMP/err" \
  || { echo "FAIL training-curves run: $(tail -1 "$TMP/err")"; fail=1; }
check "training-curves records every setting in its summary" \
  "(lambda p: p['lr'] == 0.07 and p['fixedPointBits'] == 12 and p['targetFraction'] == 0.9 and p['modelBytes'] == 10000000 and 'ns3::FpgaAggregator::MaxResendRequests' in p)(__import__('json').load(open('$TMP/s.json'))['parameters'])"

# 4. Refused: the old private flag, bad values (exit 2, the option named).
for args in "--momentum=0.5" "--alpha=abc" "--alpha=-1" "--hidden=16,,8" "--optimizer=adam" \
            "--targetFraction=0" "--metric=best" "--computeTime=0" "--scheduleDir=$TMP/x.csv"; do
  out=$("$CURVES" "${curves[@]}" $args --csv="$TMP/x.csv" --json="$TMP/x.json" 2>&1)
  status=$?
  name=${args%%=*}
  check "training-curves $args refused (exit $status)" "$status == 2 and '$name' in '''$out'''"
done
out=$("$PROXY" "${small[@]}" --db=none --momentum=0.5 2>&1)
status=$?
check "training-proxy --momentum refused (exit $status)" "$status == 2 and 'momentum' in '''$out'''"
"$CURVES" "${curves[@]}" --alpha=inf --csv="$TMP/c.csv" --json="$TMP/s.json" >/dev/null 2>&1
check "--alpha=inf (iid shards) accepted (exit $?)" "$? == 0"
exit $fail
