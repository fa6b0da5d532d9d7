#!/usr/bin/env bash
# End-to-end test of the GPU image with a real Docker and no GPU (none exists where CI runs): builds
# it (docker/build.sh --gpu), then checks that `list` shows the CUDA methods marked as needing a GPU,
# that a CUDA method ends skipped with the reason and exit 0, that a CPU method still succeeds, that
# the worker finds every library it links, the labels and the non-root user, and prints the image
# size and what dominates it (budget: 3 GB). On a machine with a GPU and the NVIDIA container toolkit,
# GPU_TEST_DOCKER_ARGS="--gpus all" makes the CUDA method required to succeed instead.
# The image takes the binaries of BUILD_DIR (docker/build.sh --from-build: the test command's build,
# whose CUDA worker nvcc made once) when it is given; without it, or with PERFZERO_IMAGE_FROM_SOURCE=1,
# the worker is compiled inside Docker. Exit 77 (ctest: skipped) with the reason when Docker cannot
# be made to work, unless CI=true, where that is a failure.
#   tests/docker/docker_gpu_test.sh [BUILD_DIR]
set -uo pipefail
# shellcheck source=tests/docker/image_test_lib.sh
source "$(dirname "$0")/image_test_lib.sh"
if [ ! -x "${CUDA_HOME:-/usr/local/cuda}/bin/nvcc" ]; then
  echo "No CUDA toolkit at ${CUDA_HOME:-/usr/local/cuda}: the GPU image cannot be built here."
  [ "${CI:-}" = "true" ] && exit 1
  exit 77
fi
images_from "${1:-}"
cd "$source_dir" || exit 1
start=$(date +%s)
# Device code for one architecture (sm_90) unless CUDA_ARCHITECTURES says otherwise: what is checked
# here (the worker links, finds its libraries, skips without a GPU) does not depend on the list, and
# the project's six targets took nvcc about twice as long (docs/gpu.md has the list).
CUDA_ARCHITECTURES=${CUDA_ARCHITECTURES:-90} docker/build.sh --gpu --tag gpu-test "${from[@]}" > "$work/build.log" 2>&1 || { tail -n 30 "$work/build.log"; echo "FAILED: image build"; exit 1; }
tail -n 1 "$work/build.log"
echo "image build: $(($(date +%s) - start)) s"
image=perfzero-cpp:gpu-test
# shellcheck disable=SC2206  # word splitting wanted: "--gpus all"
gpu_args=(${GPU_TEST_DOCKER_ARGS:-})

docker run --rm "$image" list > "$work/list.log" 2>&1
check "list shows the CUDA worker" grep -q "family cuda (perfzero-worker-cuda)" "$work/list.log"
check "list marks the GPU methods" grep -q "needs gpu: an NVIDIA GPU (skipped without one)" "$work/list.log"
check "list still shows the CPU families" grep -q "speedcube.SpeedCube.benchmark_fused" "$work/list.log"
check "list shows the oneDNN worker" grep -q "perfzero-worker-onednn" "$work/list.log"
docker run --rm --entrypoint sh "$image" -c 'ldd /opt/perfzero/libexec/perfzero/perfzero-worker-cuda' > "$work/ldd.log" 2>&1
check "the CUDA worker finds every library it links" test "$(grep -c 'not found' "$work/ldd.log")" -eq 0
check "cuBLASLt comes from the image's CUDA directory" grep -q "libcublasLt.so.13 => /opt/perfzero/lib/cuda/" "$work/ldd.log"
# cuDNN's loader opens these at run time (the cnn method on an H100 did); ldd cannot list them.
docker run --rm --entrypoint sh "$image" -c 'ldconfig -p' > "$work/ldconfig.log" 2>&1
for sub in cnn ops graph heuristic engines_precompiled engines_runtime_compiled; do
  check "cuDNN's $sub library is in the image" grep -q "libcudnn_$sub.so.9 .*=> /opt/perfzero/lib/cuda/" "$work/ldconfig.log"
done

mkdir -p "$work/results" && chmod 777 "$work/results"
docker run --rm "${gpu_args[@]}" -v "$work/results:/results" "$image" \
  --benchmark_methods=cuda.VecAdd.benchmark_vecadd,sanity.Sanity.benchmark_noop --output_dir=/results/run \
  > "$work/run.log" 2>&1
rc=$?
cat "$work/run.log"
check "a GPU method and a CPU method: exit 0" test "$rc" -eq 0
if [ ${#gpu_args[@]} -eq 0 ]; then
  check "the GPU method is skipped with the reason" grep -q "skipped .*no CUDA device: " "$work/run.log"
else
  check "the GPU method succeeds on the GPU" grep -q "cuda.VecAdd.benchmark_vecadd.*succeeded" "$work/run.log"
fi
check "the CPU method succeeds" grep -q "sanity.Sanity.benchmark_noop.*succeeded" "$work/run.log"
check "the image runs as its non-root user" test "$(docker image inspect --format '{{.Config.User}}' "$image")" = perfzero
check "the image is labelled" test "$(docker image inspect --format '{{index .Config.Labels "org.opencontainers.image.title"}}' "$image")" = perfzero-cpp-gpu

size=$(docker image inspect --format '{{.Size}}' "$image")
echo "image size: $((size / 1000000)) MB; largest parts:"
docker run --rm --entrypoint sh "$image" -c 'du -sm /opt/perfzero/lib/cuda/* /opt/perfzero/libexec/perfzero /usr/lib/x86_64-linux-gnu | sort -rn | head -n 5'
check "image within the 3 GB budget" test "$size" -le 3000000000

echo "$passes passed, $failures failed"
[ "$failures" -eq 0 ]
