#!/usr/bin/env bash
# Shared by the bad-input tests (cli-errors.sh, optimize-errors.sh); sourced, not run.
# The sourcing script sets BIN (the program), FIXED_ARGS (an array of options every case gets)
# and MATCH (grep's match options: -F exact case, -iF any case), calls expect_error per case
# and finish_cases at the end. A case that runs longer than EXPECT_TIMEOUT seconds (default 120)
# is killed and fails (a hang is a failure, not a stuck test).
failures=0

expect_error() { # name, expected-substring, args...
  local name="$1" want="$2"
  shift 2
  local out status
  out="$(timeout "${EXPECT_TIMEOUT:-120}" "$BIN" "${FIXED_ARGS[@]}" "$@" 2>&1)"
  status=$?
  if [ "$status" -ne 2 ]; then
    echo "FAIL $name: exit status $status (want 2)"; echo "$out" | tail -3; failures=$((failures + 1))
  elif ! grep -q "$MATCH" -- "$want" <<<"$out"; then
    echo "FAIL $name: message lacks '$want':"; echo "$out" | tail -3; failures=$((failures + 1))
  else
    echo "ok   $name: $(grep "$MATCH" -- "$want" <<<"$out" | head -1)"
  fi
}

finish_cases() { # summary line when every case passed
  if [ "$failures" -ne 0 ]; then
    echo "$failures case(s) failed"
    exit 1
  fi
  echo "$1"
}
