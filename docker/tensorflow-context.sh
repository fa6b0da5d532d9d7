#!/usr/bin/env bash
# Assembles the TensorFlow image's build context in DIR (default build/docker-tensorflow): the
# package list (scripts/deps) and wheels/, tensorflow-cpu and everything it pulls in as wheels for
# the image's Python (Debian 12's CPython 3.11 on x86_64), at the versions scripts/deps/requirements.txt
# pins, downloaded here by pip. docker/Dockerfile.tensorflow installs them with --no-index.
# Why here and not in a RUN step: a container trusts only its own CA bundle, so behind a TLS-inspecting
# egress proxy (as on the project's machines) pip in a RUN step cannot reach PyPI, while pip here
# trusts what this machine trusts. The wheels stay between builds: a rebuild downloads nothing, and
# unchanged wheels keep Docker's layer cache.
# usage: docker/tensorflow-context.sh [DIR]   (PIP: the pip to run, default "python3 -m pip")
set -euo pipefail
cd "$(dirname "$0")/.."
dest=${1:-build/docker-tensorflow}
read -r -a pip <<< "${PIP:-python3 -m pip}"
requirements=scripts/deps/requirements.txt
version=$(sed -n 's/^tensorflow-cpu==\([^ #]*\).*/\1/p' "$requirements")
[ -n "$version" ] || { echo "tensorflow-context: $requirements pins no tensorflow-cpu==VERSION" >&2; exit 1; }
mkdir -p "$dest/wheels"
rm -rf "${dest:?}/deps" && cp -a scripts/deps "$dest/deps"
# Every NAME==VERSION line as a constraint (a constraint may not name extras: moto[...] is left out).
sed -n 's/^\([A-Za-z0-9_.-]*==[^ #]*\).*/\1/p' "$requirements" > "$dest/constraints.txt"
echo "tensorflow-cpu==$version" > "$dest/requirement.txt"
# The image's interpreter, whatever this machine's is: CPython 3.11, glibc 2.36 (bookworm), x86_64.
platforms=()
for minor in $(seq 17 36); do platforms+=(--platform "manylinux_2_${minor}_x86_64"); done
platforms+=(--platform manylinux2014_x86_64 --platform linux_x86_64)
"${pip[@]}" download --quiet --dest "$dest/wheels" --only-binary=:all: --implementation cp --python-version 3.11 \
  --abi cp311 --abi abi3 --abi none "${platforms[@]}" -c "$dest/constraints.txt" -r "$dest/requirement.txt" ||
  { echo "tensorflow-context: pip could not download tensorflow-cpu==$version and its dependencies (above)" >&2; exit 1; }
# Wheels of an earlier pin may stay in wheels/; they are never chosen, since the Dockerfile installs
# by the same requirement and constraints.
du -sh "$dest" | awk '{print "tensorflow-context: " $2 " holds " $1 " (tensorflow-cpu=='"$version"')"}'
