#!/usr/bin/env bash
# The Debian packages end to end (docs/packages.md): cpack -G DEB from this build tree, lintian on
# them, then in a clean debian:bookworm-slim container: apt-get install ./*.deb (every package but
# perfzero-cuda, whose CUDA libraries Debian does not package), the smoke suite from
# /usr/share/perfzero/suites, the out-of-tree worker example built against perfzero-dev, the Python
# package imported by Debian's python3 (python3-perfzero), and a purge
# that leaves nothing behind. Exit 77 (ctest: skipped) with the reason when Docker cannot be made
# to work, unless CI=true.
# usage: deb_packages_test.sh BUILD_DIR SOURCE_DIR
set -uo pipefail
build_dir=$1 source_dir=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
check() {  # check DESCRIPTION COMMAND...
  local what=$1
  shift
  if "$@"; then echo "ok: $what"; else echo "FAILED: $what"; failures=$((failures + 1)); fi
}

cpack --config "$build_dir/CPackConfig.cmake" -G DEB -B "$work/cpack" > "$work/cpack.log" 2>&1 ||
  { tail -n 30 "$work/cpack.log"; echo "FAILED: cpack -G DEB"; exit 1; }
mkdir -p "$work/debs"
mv "$work"/cpack/*.deb "$work/debs/"
ls "$work/debs"
version=$(sed -n 's/^project(perfzero_cpp VERSION \([0-9.]*\).*/\1/p' "$source_dir/CMakeLists.txt")
arch=$(dpkg --print-architecture)
check "Debian file names (perfzero_VERSION_ARCH.deb)" test -f "$work/debs/perfzero_${version}_${arch}.deb"
check "a perfzero-dev package" test -f "$work/debs/perfzero-dev_${version}_${arch}.deb"
# perfzero-dev holds headers and static libraries only, python3-perfzero Python: no shared library to
# depend on.
for deb in "$work"/debs/*.deb; do
  [[ "$deb" == */perfzero-dev_* || "$deb" == */python3-perfzero_* ]] && continue
  check "$(basename "$deb"): its dependencies name libc6 (dpkg-shlibdeps)" sh -c "dpkg-deb -f '$deb' Depends | grep -q libc6"
done
python_deb="$work/debs/python3-perfzero_${version}_all.deb"
check "python3-perfzero is Architecture all" sh -c "dpkg-deb -f '$python_deb' Architecture | grep -qx all"
check "python3-perfzero depends on python3" sh -c "dpkg-deb -f '$python_deb' Depends | grep -q '^python3 '"
dpkg-deb -c "$work/debs/perfzero_${version}_${arch}.deb" > "$work/contents.txt"
check "the core package's helpers are in /usr/libexec/perfzero" grep -q './usr/libexec/perfzero/perfzero-worker-core$' "$work/contents.txt"
if command -v lintian > /dev/null; then
  # Lintian refuses nothing here; --fail-on warning makes a warning fail the test too.
  lintian --fail-on error,warning --tag-display-limit 0 "$work"/debs/*.deb > "$work/lintian.log" 2>&1
  check "lintian: no errors or warnings" test $? -eq 0
  grep -v "root privileges" "$work/lintian.log"
else
  check "lintian is installed (scripts/install-deps.sh)" false
fi

if ! "$source_dir/scripts/docker-env.sh" > "$work/docker-env.log" 2>&1; then
  cat "$work/docker-env.log"
  echo "Docker cannot start here (reason above)."
  [ "${CI:-}" = "true" ] && exit 1
  exit 77
fi
rm -f "$work"/debs/perfzero-cuda_*.deb
cp -r "$source_dir/docs/examples/out_of_tree_worker" "$work/example"
# The container runs as root (it installs packages); its results go to /tmp inside it.
mkdir -p "$work/out"
docker run --rm -v "$work/debs:/debs:ro" -v "$work/example:/example:ro" -v "$work/out:/out" debian:bookworm-slim bash -c '
  set -u
  say() { echo "in-container: $*"; }
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q > /tmp/apt.log 2>&1 || { tail /tmp/apt.log; exit 10; }
  apt-get install -y -q --no-install-recommends /debs/*.deb > /tmp/install.log 2>&1 || { tail -n 30 /tmp/install.log; exit 11; }
  say "installed: $(dpkg-query -W -f="\${Package} " "perfzero*" python3-perfzero)"
  # Debian'"'"'s python3 imports the package through perfzero.pth; its runner answers.
  python3 -c "import perfzero; print(perfzero.__file__)" | grep -qx /usr/share/perfzero/python/perfzero/__init__.py ||
    { say "python3 does not import perfzero from /usr/share/perfzero/python"; exit 24; }
  python3 -m perfzero.runner list --method no_such_module.Class.benchmark_x > /tmp/list.json 2> /dev/null
  [ $? -eq 3 ] && grep -q "No module named" /tmp/list.json || { cat /tmp/list.json; exit 25; }
  command -v perfzero | grep -qx /usr/bin/perfzero || exit 12
  perfzero --version | head -n 3
  perfzero list --format=names > /tmp/names.txt 2>&1 || { cat /tmp/names.txt; exit 13; }
  for m in sanity.Sanity.benchmark_noop onednn.Matmul.benchmark_matmul_fp32 storage.Disk.benchmark_random_read mpi.Collectives.benchmark_allreduce opencl.VectorAdd.benchmark_vecadd; do
    grep -q "^$m" /tmp/names.txt || { say "$m is not listed"; exit 14; }
  done
  cd /tmp && perfzero --config /usr/share/perfzero/suites/cpu_smoke.yaml --output_dir=/out/smoke > /tmp/smoke.log 2>&1
  rc=$?
  chmod -R a+rwX /out
  tail -n 2 /tmp/smoke.log
  [ "$rc" -eq 0 ] || { cat /tmp/smoke.log; exit 15; }
  apt-get install -y -q --no-install-recommends g++ cmake ninja-build > /tmp/tools.log 2>&1 || { tail /tmp/tools.log; exit 17; }
  cmake -S /example -B /tmp/example -G Ninja > /tmp/example.log 2>&1 && cmake --build /tmp/example >> /tmp/example.log 2>&1 ||
    { cat /tmp/example.log; exit 18; }
  PERFZERO_WORKER_PATH=/tmp/example perfzero --benchmark_methods=team.Example.benchmark_sum --output_dir=/tmp/team \
    --benchmark_num_trials=1 > /tmp/team.log 2>&1 || { cat /tmp/team.log; exit 19; }
  say "the out-of-tree worker built against perfzero-dev ran"
  apt-get purge -y -q "perfzero*" python3-perfzero > /tmp/purge.log 2>&1 || { tail /tmp/purge.log; exit 20; }
  left=$(dpkg-query -W -f="\${Package} \${Status}\n" "perfzero*" python3-perfzero 2> /dev/null | grep -v "not-installed" || true)
  [ -z "$left" ] || { say "still known to dpkg: $left"; exit 21; }
  for path in /usr/bin/perfzero /usr/libexec/perfzero /usr/share/perfzero /usr/share/doc/perfzero \
              /usr/share/man/man1/perfzero.1.gz /usr/include/perfzero /usr/lib/cmake/perfzero; do
    [ ! -e "$path" ] || { say "$path is left after the purge"; exit 22; }
  done
  # A user'"'"'s own files stay, as with any package: ~/.cache/perfzero (the workers'"'"' list cache).
  leftover=$(find / -xdev \( -path /proc -o -path /debs -o -path /tmp -o -path /example -o -path /out -o -path /root \) -prune -o -name "*perfzero*" -print 2> /dev/null)
  [ -z "$leftover" ] || { say "left after the purge: $leftover"; exit 23; }
  say "purged: nothing named perfzero is left"
' > "$work/container.log" 2>&1
rc=$?
cat "$work/container.log"
check "install, smoke suite, out-of-tree worker and purge in debian:bookworm-slim (exit $rc)" test "$rc" -eq 0
# Every smoke method succeeded or was skipped with its reason (this CPU may lack bf16); the OpenCL
# ones skipped: no PoCL in the container, so no platform.
if [ -f "$work/out/smoke/summary.json" ]; then
  check "the smoke suite's methods succeeded (OpenCL skipped)" /usr/bin/python3 - "$work/out/smoke/summary.json" <<'PY'
import json, sys
methods = json.load(open(sys.argv[1]))["methods"]
bad = [(m["name"], m["outcome"]) for m in methods if m["outcome"] not in ("succeeded", "skipped")]
bad += [(m["name"], m["outcome"]) for m in methods if m["name"].startswith("opencl.") and m["outcome"] != "skipped"]
core = [m for m in methods if m["name"].split(".")[0] in ("sanity", "speedcube", "stream", "external", "micro")]
bad += [(m["name"], m["outcome"]) for m in core if m["outcome"] != "succeeded"]
print(f"{len(methods)} methods; not as expected: {bad}")
sys.exit(1 if bad or len(methods) < 10 or len(core) < 5 else 0)
PY
else
  check "the smoke suite wrote summary.json" false
fi

[ "$failures" -eq 0 ] && echo "deb packages: all checks passed"
[ "$failures" -eq 0 ]
