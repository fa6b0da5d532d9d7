#!/usr/bin/env bash
# Runs the smoke suite and a method of every outcome through perfzero, then validates every report
# against results/schema/perfzero_summary.schema.json with Debian's python3-jsonschema.
set -euo pipefail
perfzero=$1 source_dir=$2 work=$3
rm -rf "$work"
mkdir -p "$work"
"$perfzero" --config "$source_dir/benchmarks/suites/cpu_smoke.yaml" --benchmark_num_trials=1 --warmup_trials=0 \
  --output_dir "$work/smoke"
set +e
"$perfzero" --output_dir "$work/outcomes" --timeout=2s \
  --benchmark_methods=sanity.Sanity.benchmark_crash,sanity.Sanity.benchmark_exit_code,sanity.Sanity.benchmark_hang \
  --benchmark_methods=sanity.Sanity.benchmark_no_result,sanity.Sanity.benchmark_skip,sanity.Sanity.benchmark_throw
rc=$?
# A built-in method on two ranks through mpirun (docs/multi-host.md): its reports carry the ranks.
"$perfzero" --output_dir "$work/ranks" --launch=mpirun,tasks_per_node=2 \
  --benchmark_methods=sanity.Sanity.benchmark_noop,sanity.Sanity.benchmark_crash
ranks_rc=$?
set -e
[ "$rc" -eq 1 ] || { echo "expected exit 1 from the failing methods, got $rc"; exit 1; }
[ "$ranks_rc" -eq 1 ] || { echo "expected exit 1 from the two-rank run (a crash), got $ranks_rc"; exit 1; }
grep -q '"world_size": 2' "$work"/ranks/sanity.Sanity.benchmark_noop/trial_1/perfzero_summary.json ||
  { echo "the two-rank report has no world_size 2"; exit 1; }
/usr/bin/python3 "$source_dir/tests/tools/validate_reports.py" "$source_dir/results/schema/perfzero_summary.schema.json" \
  "$work" --expect-outcomes succeeded,failed,crashed,timed_out,skipped,invalid
