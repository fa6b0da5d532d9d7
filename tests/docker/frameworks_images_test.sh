#!/usr/bin/env bash
# The framework images with a real Docker: builds perfzero-cpp:pytorch and perfzero-cpp:tensorflow
# (docker/build.sh --pytorch, --tensorflow), then runs in each, as a user would, a PerfZero class
# mounted at /work with nothing but --benchmark_methods and --python_path=/work (the image's
# PERFZERO_PYTHON picks the interpreter): the framework-less perfzero_style.SpinBenchmark in both,
# torch_tiny.TinyTorchBenchmark in the PyTorch image and the tf.test.Benchmark subclass
# tf_style.TinyMatmulBenchmark (--benchmark_class_type=tf_benchmark) in the TensorFlow one. The reports
# on the mounted /results must say succeeded, the interpreter, and the framework and its version;
# `import perfzero` must work in each image's Python; each size within its budget (docs/docker.md).
# Opt-in (label frameworks; scripts/test.sh runs it with PERFZERO_FRAMEWORK_IMAGE_TESTS=1): the two
# images add about 2 GB and several minutes of apt and pip to a run (docs/testing.md).
# The images take the binaries of BUILD_DIR (docker/build.sh --from-build) when it is given;
# PERFZERO_IMAGE_FROM_SOURCE=1 compiles them inside Docker instead, as docker.e2e does.
# Exit 77 (ctest: skipped) with the reason when Docker cannot be made to work, unless CI=true, where
# that is a failure.
#   tests/docker/frameworks_images_test.sh [BUILD_DIR]
set -uo pipefail
# shellcheck source=tests/docker/image_test_lib.sh
source "$(dirname "$0")/image_test_lib.sh"
images_from "${1:-}"
cd "$source_dir" || exit 1
classes=$source_dir/tests/data/python_benchmarks
uid=4242

# report RUN METHOD EXPRESSION: EXPRESSION of the method's first trial report `d`, printed; nothing
# (and the reason on stderr) when there is no such report or key.
report() {
  /usr/bin/python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' \
    "$work/results/$1/$2/trial_1/perfzero_summary.json" "$3" 2>&1 >&3 | tail -n 1 >&2
} 3>&1

# run_in IMAGE RUN FLAGS...: one perfzero run in IMAGE as a user's uid, the classes at /work read-only.
run_in() {
  local image=$1 run=$2
  shift 2
  docker run --rm --user "$uid:$uid" -v "$classes:/work:ro" -v "$work/results:/results" "$image" \
    "$@" --python_path=/work --output_dir="/results/$run" --execution_label=frameworks-images > "$work/$run.log" 2>&1
  local rc=$?
  tail -n 5 "$work/$run.log"
  check "$run: perfzero exits 0 in $image" test "$rc" -eq 0
}

# run_framework_class IMAGE RUN METHOD: one method of the frameworks suite's classes, as the image
# installs them beside its suites (share/perfzero/frameworks), at a tiny size.
run_framework_class() {
  local image=$1 run=$2 method=$3
  docker run --rm --user "$uid:$uid" -v "$work/results:/results" "$image" --benchmark_methods="$method" \
    --python_path=/opt/perfzero/share/perfzero/frameworks \
    '--perfzero_constructor_args={"batch": 2, "sequence_length": 8, "repetitions": 2}' \
    --output_dir="/results/$run" > "$work/$run.log" 2>&1
  local rc=$?
  tail -n 3 "$work/$run.log"
  check "$run: the frameworks suite's $method runs in $image" test "$rc" -eq 0
}

# check_spin IMAGE RUN PYTHON: the framework-less class succeeded under the image's PERFZERO_PYTHON.
check_spin() {
  local method=perfzero_style.SpinBenchmark.benchmark_spin
  check "$2: the PerfZero-style class succeeded" test "$(report "$2" "$method" "d['perfzero_cpp']['outcome']")" = succeeded
  check "$2: ... under the image's PERFZERO_PYTHON ($3)" \
    test "$(report "$2" "$method" "d['perfzero_cpp']['python']['interpreter']")" = "$3"
  check "$2: ... its metric in the report" test "$(report "$2" "$method" "d['benchmark_result']['metrics'][0]['name']")" = spin_ms
  check "$2: ... and the image in setup_info" test "$(report "$2" "$method" "d['setup_info']['docker_image']")" = "$1"
}

# check_framework RUN METHOD NAME: the framework class succeeded and the report names its framework.
check_framework() {
  check "$1: $2 succeeded" test "$(report "$1" "$2" "d['perfzero_cpp']['outcome']")" = succeeded
  check "$1: ... ml_framework_info names $3" test "$(report "$1" "$2" "d['ml_framework_info']['name']")" = "$3"
  check "$1: ... with its version" test -n "$(report "$1" "$2" "d['ml_framework_info']['version']")"
}

mkdir -p "$work/results" && chown "$uid:$uid" "$work/results"
for framework in pytorch tensorflow; do
  started=$SECONDS
  docker/build.sh "--$framework" --tag "frameworks-test-$framework" "${from[@]}" > "$work/build-$framework.log" 2>&1 ||
    { tail -n 30 "$work/build-$framework.log"; echo "FAILED: the $framework image build"; exit 1; }
  echo "$(tail -n 1 "$work/build-$framework.log") in $((SECONDS - started)) s"
done

image=perfzero-cpp:frameworks-test-pytorch
run_in "$image" pytorch \
  --benchmark_methods=perfzero_style.SpinBenchmark.benchmark_spin,torch_tiny.TinyTorchBenchmark.benchmark_matmul
check_spin "$image" pytorch /usr/bin/python3
check_framework pytorch torch_tiny.TinyTorchBenchmark.benchmark_matmul pytorch
run_framework_class "$image" pytorch-suite torch_networks.TorchNetworks.benchmark_imdb_lstm
check_framework pytorch-suite torch_networks.TorchNetworks.benchmark_imdb_lstm pytorch
check "pytorch: PERFZERO_TORCH_PYTHON is Debian's python3" \
  test "$(docker run --rm --entrypoint sh "$image" -c 'echo $PERFZERO_TORCH_PYTHON')" = /usr/bin/python3
check "pytorch: a user's script imports perfzero and torch with Debian's python3" \
  docker run --rm --entrypoint /usr/bin/python3 "$image" -c 'import perfzero, torch, torchvision'

image=perfzero-cpp:frameworks-test-tensorflow
# The two classes have different constructors (PerfZero's and tf.test.Benchmark's): two runs.
run_in "$image" tensorflow-spin --benchmark_methods=perfzero_style.SpinBenchmark.benchmark_spin
check_spin "$image" tensorflow-spin /opt/tensorflow/bin/python
run_in "$image" tensorflow --benchmark_methods=tf_style.TinyMatmulBenchmark.benchmark_matmul \
  --benchmark_class_type=tf_benchmark
check_framework tensorflow tf_style.TinyMatmulBenchmark.benchmark_matmul tensorflow
run_framework_class "$image" tensorflow-suite tf_networks.TensorFlowNetworks.benchmark_imdb_lstm
check_framework tensorflow-suite tf_networks.TensorFlowNetworks.benchmark_imdb_lstm tensorflow
pinned=$(sed -n 's/^tensorflow-cpu==\([^ #]*\).*/\1/p' scripts/deps/requirements.txt)
check "tensorflow: the version requirements.txt pins ($pinned)" \
  test "$(report tensorflow tf_style.TinyMatmulBenchmark.benchmark_matmul "d['ml_framework_info']['version']")" = "$pinned"
check "tensorflow: PERFZERO_TENSORFLOW_PYTHON is the environment's" \
  test "$(docker run --rm --entrypoint sh "$image" -c 'echo $PERFZERO_TENSORFLOW_PYTHON')" = /opt/tensorflow/bin/python
check "tensorflow: a user's script imports perfzero with the environment's python" \
  docker run --rm --entrypoint /opt/tensorflow/bin/python "$image" -c 'import perfzero'
check "tensorflow: Debian's site-packages hold no TensorFlow (it is in /opt/tensorflow only)" \
  docker run --rm --entrypoint /usr/bin/python3 "$image" -c \
  'import importlib.util, sys; sys.exit(importlib.util.find_spec("tensorflow") is not None)'
check "results belong to --user" test "$(stat -c %u "$work/results/tensorflow")" = "$uid"

# The sizes docs/docker.md states, each against a budget some 15-20 % above it: a framework's
# package that starts pulling in more (Debian's libtorch already brings OpenCV, FFmpeg and Mesa) or
# a layer that keeps what it deleted (the wheels) shows up here.
for pair in pytorch:1500 tensorflow:2000; do
  framework=${pair%%:*}
  budget=${pair##*:}
  size=$(docker image inspect --format '{{.Size}}' "perfzero-cpp:frameworks-test-$framework")
  check "perfzero-cpp:$framework is $((size / 1000000)) MB, within its $budget MB budget" test "$((size / 1000000))" -le "$budget"
done
docker image ls perfzero-cpp --format '{{.Tag}} {{.Size}}' | grep '^frameworks-test-' | sed 's/^/docker image ls: /'

echo "$passes checks passed, $failures failed"
[ "$failures" -eq 0 ]
