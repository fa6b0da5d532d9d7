#!/bin/sh
# Prints the packages of scripts/deps/packages.txt in any of the named sets, one per line.
# usage: scripts/deps/list.sh [--arch ARCH] SET...
#   --arch ARCH  qualifies each architecture-dependent package as PACKAGE:ARCH (a cross build's
#                libraries); 'all' packages stay unqualified.
# POSIX sh and awk only: the Dockerfiles run it in debian:bookworm-slim before anything is installed.
set -eu
list=$(dirname "$0")/packages.txt
arch=""
if [ "${1:-}" = "--arch" ]; then
  arch=${2:?usage: list.sh [--arch ARCH] SET...}
  shift 2
fi
[ $# -gt 0 ] || { echo "usage: list.sh [--arch ARCH] SET..." >&2; exit 2; }
awk -v wanted="$*" -v arch="$arch" '
  BEGIN { n = split(wanted, w, " "); for (i = 1; i <= n; i++) want[w[i]] = 1 }
  /^[ \t]*(#|$)/ { next }
  {
    if (NF < 3 || ($3 != "any" && $3 != "all")) { printf "packages.txt:%d: expected PACKAGE SETS any|all\n", NR > "/dev/stderr"; bad = 1; exit 2 }
    m = split($2, sets, ",")
    for (i = 1; i <= m; i++) {
      if (sets[i] in want) { print (arch != "" && $3 == "any") ? $1 ":" arch : $1; break }
    }
    for (i = 1; i <= m; i++) seen[sets[i]] = 1
  }
  END {
    if (bad) exit 2
    for (s in want) if (!(s in seen)) { printf "list.sh: no set named %s\n", s > "/dev/stderr"; exit 2 }
  }' "$list"
