#!/usr/bin/env bash
# scripts/check_test_run.py, on JUnit files written here: a stage that counted enough tests and
# skipped only what tests/skip_allowlist.txt allows passes; one test short of its stage's minimum,
# a skip the list does not allow, an unknown stage and an unreadable file each fail, naming why.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
expect() { # expect WHAT EXIT_STATUS PATTERN STAGE JUNIT
  local what=$1 want=$2 pattern=$3 out rc
  out=$(/usr/bin/python3 "$root/scripts/check_test_run.py" "$4" "$5" 2>&1)
  rc=$?
  if [ "$rc" -eq "$want" ] && grep -q -- "$pattern" <<< "$out"; then echo "ok: $what"; else
    echo "FAILED: $what (exit $rc): $out"
    failures=$((failures + 1))
  fi
}
# junit FILE COUNT [SKIPPED_NAME]: COUNT passing test cases, the last one skipped when a name is given.
junit() {
  /usr/bin/python3 - "$@" << 'PY'
import sys
path, count = sys.argv[1], int(sys.argv[2])
skipped = sys.argv[3] if len(sys.argv) > 3 else None
cases = [f'<testcase name="unit.T.t{i}" status="run"/>' for i in range(count - (1 if skipped else 0))]
if skipped:
    cases.append(f'<testcase name="{skipped}" status="notrun"><skipped/></testcase>')
open(path, "w").write(f'<testsuite tests="{count}">' + "".join(cases) + "</testsuite>")
PY
}
minimum=$(awk '$1 == "asan" {print $2}' "$root/tests/expected_tests.txt")
junit "$work/enough.xml" "$minimum"
expect "a stage with its full count passes" 0 "stage asan: $minimum tests, 0 skipped" asan "$work/enough.xml"
junit "$work/short.xml" $((minimum - 1))
expect "one test short fails, naming the stage" 1 "fewer than the $minimum it counts" asan "$work/short.xml"
junit "$work/allowed.xml" "$minimum" cuda.not_built
expect "a skip the list allows passes" 0 "allowed: cuda.not_built" asan "$work/allowed.xml"
junit "$work/refused.xml" "$minimum" unit.Some.Test
expect "a skip the list does not allow fails, naming the test" 1 "unit.Some.Test was skipped" asan "$work/refused.xml"
expect "an unknown stage fails" 1 "no minimum for stage 'nope'" nope "$work/enough.xml"
expect "an unreadable file fails" 1 "cannot read" asan "$work/missing.xml"
echo "$failures failed"
[ "$failures" -eq 0 ]
