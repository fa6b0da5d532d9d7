#!/usr/bin/env bash
# A team's worker built out of tree: install this build to a prefix, build
# docs/examples/out_of_tree_worker against it with find_package(perfzero), then let the installed
# perfzero find the worker through $PERFZERO_WORKER_PATH and run its method.
set -euo pipefail
build_dir=$1 source_dir=$2 work=$3 sanitize=${4:-}
# A sanitized build installs a sanitized libperfzero_api.a: the worker must be built with the same flags to link.
flags=()
if [ -n "$sanitize" ]; then
  flags=(-DCMAKE_CXX_FLAGS="-fsanitize=$sanitize" -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=$sanitize")
fi
rm -rf "$work"
mkdir -p "$work"
prefix=$work/prefix
cmake --install "$build_dir" --prefix "$prefix" >"$work/install.log"
cmake -S "$source_dir/docs/examples/out_of_tree_worker" -B "$work/build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$prefix" "${flags[@]}" >"$work/configure.log" || { cat "$work/configure.log"; exit 1; }
cmake --build "$work/build" >"$work/build.log" || { cat "$work/build.log"; exit 1; }

PERFZERO_WORKER_PATH="$work/build" "$prefix/bin/perfzero" --benchmark_methods=team.Example.benchmark_sum \
  --output_dir "$work/run" --benchmark_num_trials=1
summary=$work/run/team.Example.benchmark_sum/trial_1/perfzero_summary.json
/usr/bin/python3 - "$summary" "$work/run/summary.json" <<'PY'
import json, sys
run = json.load(open(sys.argv[2]))
outcomes = {m["name"]: m["outcome"] for m in run["methods"]}
assert outcomes == {"team.Example.benchmark_sum": "succeeded"}, outcomes
result = json.load(open(sys.argv[1]))["benchmark_result"]
assert result["succeeded"] is True, result
metrics = {m["name"]: m["value"] for m in result["metrics"]}
assert metrics.get("sum") == 50000, metrics
print("out-of-tree worker: succeeded, sum =", metrics["sum"])
PY
# The installed catalog knows which worker runs it.
PERFZERO_WORKER_PATH="$work/build" "$prefix/bin/perfzero" list --format=json | /usr/bin/python3 -c '
import json, sys
methods = {m["name"]: m for m in json.load(sys.stdin)["methods"]}
assert methods["team.Example.benchmark_sum"]["worker"] == "team", methods["team.Example.benchmark_sum"]'
