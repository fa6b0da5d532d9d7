#!/usr/bin/env bash
# Installs what is needed, builds the release preset and runs the small default suite.
# Extra arguments go to perfzero, e.g. scripts/quickstart.sh --execution_label=first-try
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cmake --preset release >/dev/null
cmake --build --preset release
exec build/release/harness/perfzero --config benchmarks/suites/cpu_smoke.yaml "$@"
