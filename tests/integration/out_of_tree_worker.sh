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

# The installed layout (FHS): perfzero alone in bin, its helpers in libexec/perfzero, where the
# installed perfzero finds the launcher, the built-in workers and {bindir}/perfzero-micro.
[ "$(ls "$prefix/bin")" = perfzero ] || { echo "bin holds more than perfzero: $(ls "$prefix/bin")"; exit 1; }
for helper in perfzero-launch perfzero-rank perfzero-worker-core perfzero-micro; do
  [ -x "$prefix/libexec/perfzero/$helper" ] || { echo "libexec/perfzero/$helper is missing"; exit 1; }
done
cat > "$work/installed.yaml" <<'SUITE'
methods:
  - sanity.Sanity.benchmark_noop
  - name: micro.GoogleBenchmark
    command: ["{bindir}/perfzero-micro", --benchmark_min_time=0.01, --benchmark_filter=BM_philox]
    output: google_benchmark
    trials: 1
SUITE
"$prefix/bin/perfzero" --config "$work/installed.yaml" --output_dir "$work/installed" --benchmark_num_trials=1 > "$work/installed.log" 2>&1 ||
  { cat "$work/installed.log"; exit 1; }
grep -q "0 not succeeded" "$work/installed.log" || { cat "$work/installed.log"; exit 1; }
"$prefix/bin/perfzero" --config "$prefix/share/perfzero/suites/cpu_smoke.yaml" --dry_run > /dev/null ||
  { echo "the installed suites do not plan"; exit 1; }
echo "installed layout: helpers in libexec/perfzero, suites in share/perfzero/suites"
