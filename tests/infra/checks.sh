# shellcheck shell=bash
# What the infra tests that run real programs share (sourced): skip with a reason (exit 77, which
# ctest counts as skipped, except in CI, where a missing tool is a failure), and one check at a time,
# counted in `failures`, so that a test reports every broken promise rather than the first.
failures=0

# skip REASON
skip() {
  echo "$1"
  [ "${CI:-}" = "true" ] && exit 1
  exit 77
}

# check DESCRIPTION COMMAND...: runs COMMAND; "ok: DESCRIPTION" or "FAILED: DESCRIPTION".
check() {
  local what=$1
  shift
  if "$@"; then echo "ok: $what"; else
    echo "FAILED: $what"
    failures=$((failures + 1))
  fi
}

# bounded SECONDS WHAT LOG COMMAND...: COMMAND, stopped past SECONDS (TERM, then KILL 10 s later),
# so that a hang names itself with the output so far instead of running into ctest's limit, where
# nothing of it would show. Past the limit: "FAILED: WHAT did not end within SECONDS s", LOG's last
# lines, one more failure counted, status 124. Otherwise COMMAND's status.
bounded() {
  local limit=$1 what=$2 log=$3 rc=0
  shift 3
  timeout -k 10 "$limit" "$@" || rc=$?
  if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
    echo "FAILED: $what did not end within $limit s; the last of $log:"
    tail -n 40 "$log" 2> /dev/null
    failures=$((failures + 1))
    return 124
  fi
  return "$rc"
}
