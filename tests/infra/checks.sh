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
