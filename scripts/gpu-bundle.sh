#!/usr/bin/env bash
# Stages perfzero, its core and CUDA workers and the shared libraries they need from this Debian host
# into one folder that runs on a GPU machine without Docker or Debian (an Ubuntu image with the CUDA
# libraries, say): docs/gpu.md, "Verifying on a GPU machine". The CUDA libraries themselves are not
# copied (cuBLASLt alone is 500 MB): scripts/gpu-verify.sh finds the GPU machine's own.
#
# usage: scripts/gpu-bundle.sh [BUILD_DIR [OUT_DIR]]   (defaults: build/ci, .gpu)
set -euo pipefail

build=${1:-build/ci}
out=${2:-.gpu}
binaries=(perfzero perfzero-launch perfzero-worker-core perfzero-worker-cuda)

for b in "${binaries[@]}"; do
  [[ -x "$build/harness/$b" ]] || { echo "gpu-bundle: $build/harness/$b is missing; build first (cmake --build --preset ci)" >&2; exit 2; }
done
# The OpenCL worker too when it was built: NVIDIA's OpenCL runs its methods on the GPU (with its
# ICD loader and CLBlast from here; gpu-verify.sh registers the driver's OpenCL library).
if [[ -x "$build/harness/perfzero-worker-opencl" ]]; then binaries+=(perfzero-worker-opencl); fi
command -v patchelf >/dev/null || { echo "gpu-bundle: needs patchelf (apt-get install patchelf)" >&2; exit 2; }

# OUT_DIR is replaced whole, so it must be a bundle made here before (or new, or empty).
marker=.perfzero-gpu-bundle
if [[ -e "$out" && ! -e "$out/$marker" && -n "$(ls -A "$out" 2>/dev/null)" ]]; then
  echo "gpu-bundle: $out is not empty and not a bundle made by this script; not replacing it" >&2
  exit 2
fi
rm -rf "$out"
mkdir -p "$out/bin" "$out/lib"
touch "$out/$marker"
for b in "${binaries[@]}"; do cp "$build/harness/$b" "$out/bin/"; done

# glibc, the C++ runtime and the CUDA libraries (NCCL among them: 200 MB) stay the host's: a newer glibc and libstdc++ run
# what was built against older ones, and the CUDA libraries must match the host's driver.
host_owned='^(linux-vdso|ld-linux|libc|libm|libdl|libpthread|librt|libresolv|libstdc\+\+|libgcc_s|libcuda|libcudart|libcublas|libcublasLt|libcudnn|libnccl)\.'
# A library this host cannot find would be missing on the GPU machine too.
for b in "${binaries[@]}"; do
  if ldd "$build/harness/$b" 2>/dev/null | grep -F "not found"; then
    echo "gpu-bundle: $b needs libraries this host does not have (above)" >&2
    exit 2
  fi
done
for b in "${binaries[@]}"; do
  { ldd "$build/harness/$b" 2>/dev/null || true; } | awk '$2 == "=>" && $3 ~ /^\// {print $1, $3}'
done | sort -u | while read -r name path; do
  [[ "$name" =~ $host_owned ]] || cp -L "$path" "$out/lib/$name"
done

# DT_RPATH, not RUNPATH: it also serves the libraries' own dependencies (libpqxx -> libpq -> libssl),
# and unlike LD_LIBRARY_PATH it is not inherited by the methods' own processes (Python, PyTorch).
# perfzero-launch is linked statically and has nothing to point.
for b in "${binaries[@]}"; do
  # shellcheck disable=SC2016 # $ORIGIN is the loader's, not the shell's
  if readelf -d "$out/bin/$b" | grep -q NEEDED; then patchelf --force-rpath --set-rpath '$ORIGIN/../lib' "$out/bin/$b"; fi
done

git describe --always --dirty > "$out/commit" 2>/dev/null || true
echo "gpu-bundle: $(du -sh "$out" | cut -f1) in $out ($(find "$out/lib" -type f | wc -l) libraries)"
