#!/usr/bin/env bash
# objective-validation on a tiny case: the CSV has the documented header, a colocated row and one
# row per schedule of the family for the capability set; the all-in-one ring (no disagreement)
# reaches the target; bad input exits 2 naming the option.
# Usage: objective-validation.sh <objective-validation binary>
set -euo pipefail
bin="$1"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$bin" --islands=AMS,FRA,LON,NYC --capabilities=unicast --randomSchedules=3 --period=1 \
  --horizon=40 --referenceHorizon=20 --computeTime=0.05 --localSteps=5 --modelBytes=1e6 \
  --targets=0.5,0.8 --validationOut="$tmp/v.csv" 2> "$tmp/err"
head -1 "$tmp/v.csv" | grep -qx 'capabilities,schedule,kind,period,mean_round_s,disagreement,disagreement_best,consensus_score,training_score,time_0.5,time_0.8' \
  || { echo "FAIL: header"; head -1 "$tmp/v.csv"; exit 1; }
grep -q '^colocated,' "$tmp/v.csv" || { echo "FAIL: no colocated row"; exit 1; }
# 7 baselines + 4 DiLoCo + 3 exact pairs (2 x 2 grid) + 3 random + 2 optimizer outputs.
rows=$(grep -c '^"unicast",' "$tmp/v.csv")
[ "$rows" -eq 19 ] || { echo "FAIL: $rows schedule rows, expected 19"; cat "$tmp/v.csv"; exit 1; }
# The ring all-reduce averages exactly every round: disagreement 0, and it reaches both targets.
grep -q '^"unicast",ring-allreduce,baseline,1,[0-9.e-]*,0,0,[0-9.e-]*,[0-9.e-]*,[0-9.e-]\+,[0-9.e-]\+$' \
  "$tmp/v.csv" || { echo "FAIL: ring all-reduce row"; grep ring-allreduce "$tmp/v.csv"; exit 1; }
# Bad input: a target fraction outside (0, 1].
set +e
"$bin" --islands=AMS,FRA --targets=1.5 --validationOut="$tmp/bad.csv" 2> "$tmp/bad"
status=$?
set -e
[ "$status" -eq 2 ] && grep -q -- "--targets" "$tmp/bad" || {
  echo "FAIL: --targets=1.5 gave status $status"; cat "$tmp/bad"; exit 1; }
echo "objective-validation: $rows schedules, header and bad input as documented"
