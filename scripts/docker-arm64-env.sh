#!/usr/bin/env bash
# Makes arm64 containers work on an x86 Debian machine, offline but for the Debian mirror:
# Debian's qemu-user-static registered with binfmt_misc (the 'F' flag lets containers use it), and
# the arm64 base image perfzero-base-arm64:bookworm built locally with `debootstrap --arch=arm64
# --foreign` plus its second stage run under qemu, trimmed as scripts/docker-env.sh trims the x86
# one. Runs scripts/docker-env.sh first. Prints why and exits 1 when it cannot.
# usage: scripts/docker-arm64-env.sh [--binfmt-only]
#   --binfmt-only  stop after qemu and binfmt_misc: enough to run arm64 binaries in an x86 container
#                  that has the arm64 libraries (the cross container), without the arm64 base image.
set -uo pipefail
binfmt_only=0
case "${1:-}" in
  --binfmt-only) binfmt_only=1 ;;
  "") ;;
  *) echo "usage: scripts/docker-arm64-env.sh [--binfmt-only]" >&2; exit 2 ;;
esac
cd "$(dirname "$0")/.." || exit 1
say() { echo "docker-arm64-env: $*" >&2; }
sudo=""
[ "$(id -u)" -eq 0 ] || sudo=sudo
scripts/docker-env.sh || exit 1

if [ ! -x /usr/bin/qemu-aarch64-static ] || ! command -v update-binfmts > /dev/null; then
  say "installing qemu-user-static and binfmt-support"
  export DEBIAN_FRONTEND=noninteractive
  { $sudo apt-get update -q && $sudo apt-get install -y -q --no-install-recommends qemu-user-static binfmt-support; } \
    > /tmp/docker-arm64-env-apt.log 2>&1 || { say "apt-get failed (see /tmp/docker-arm64-env-apt.log)"; exit 1; }
fi
if [ ! -e /proc/sys/fs/binfmt_misc/register ]; then
  $sudo mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc || { say "cannot mount binfmt_misc"; exit 1; }
fi
[ -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ] || $sudo update-binfmts --enable qemu-aarch64 ||
  { say "cannot register qemu-aarch64 with binfmt_misc"; exit 1; }

if [ "$binfmt_only" -eq 1 ]; then
  say "qemu-aarch64 is registered with binfmt_misc"
  exit 0
fi

base=perfzero-base-arm64:bookworm
if ! docker image inspect "$base" > /dev/null 2>&1; then
  say "building $base with debootstrap --arch=arm64 (a few minutes: the second stage runs under qemu)"
  root=$(mktemp -d)
  if ! { $sudo debootstrap --arch=arm64 --foreign --variant=minbase bookworm "$root" http://deb.debian.org/debian &&
    $sudo chroot "$root" /debootstrap/debootstrap --second-stage; } > /tmp/debootstrap-arm64.log 2>&1; then
    say "debootstrap failed (see /tmp/debootstrap-arm64.log)"
    $sudo rm -rf "$root"
    exit 1
  fi
  $sudo rm -rf "$root"/var/lib/apt/lists/* "$root"/var/cache/apt/* "$root"/usr/share/doc/* \
    "$root"/usr/share/man/* "$root"/usr/share/info/* "$root"/usr/share/locale/*
  printf '%s\n' 'path-exclude /usr/share/doc/*' 'path-include /usr/share/doc/*/copyright' \
    'path-exclude /usr/share/man/*' 'path-exclude /usr/share/info/*' 'path-exclude /usr/share/locale/*' |
    $sudo tee "$root"/etc/dpkg/dpkg.cfg.d/docker-slim > /dev/null
  $sudo tar -C "$root" -c . | docker import - "$base" > /dev/null
  $sudo rm -rf "$root"
  # docker import records the daemon's architecture; images built FROM the base inherit its own.
  imported=$(docker image inspect -f '{{.Id}}' "$base")
  docker save "$base" | /usr/bin/python3 docker/arm64/set_image_arch.py arm64 v8 | docker load > /dev/null &&
    docker rmi "$imported" > /dev/null
fi
docker image inspect "$base" > /dev/null 2>&1 || { say "$base is still missing"; exit 1; }
[ "$(docker image inspect -f '{{.Architecture}}' "$base")" = arm64 ] || { say "$base is not marked arm64"; exit 1; }
docker run --rm "$base" uname -m | grep -qx aarch64 || { say "$base does not run as aarch64 here"; exit 1; }
say "arm64 containers work; base $base ($(docker image inspect -f '{{.Architecture}}' "$base"))"
