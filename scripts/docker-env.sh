#!/usr/bin/env bash
# Makes a working Docker here: installs Debian's docker.io and debootstrap when missing, starts
# dockerd when none answers, and creates the debian:bookworm-slim base image locally when no
# registry can be reached (debootstrap --variant=minbase, then docker import), so the unchanged
# Dockerfile builds. Prints why and exits 1 when Docker cannot be made to work.
set -uo pipefail

say() { echo "docker-env: $*" >&2; }
sudo=""
[ "$(id -u)" -eq 0 ] || sudo=sudo

if ! command -v dockerd >/dev/null || ! command -v debootstrap >/dev/null; then
  say "installing docker.io and debootstrap"
  export DEBIAN_FRONTEND=noninteractive
  if ! { $sudo apt-get update -q && $sudo apt-get install -y -q --no-install-recommends docker.io debootstrap; } >/tmp/docker-env-apt.log 2>&1; then
    say "cannot install docker.io/debootstrap with apt-get (see /tmp/docker-env-apt.log)"
    exit 1
  fi
fi

if ! docker info >/dev/null 2>&1; then
  say "no Docker daemon answers; starting dockerd (log: /tmp/dockerd.log)"
  $sudo sh -c 'nohup dockerd >/tmp/dockerd.log 2>&1 &'
  for _ in $(seq 1 60); do
    docker info >/dev/null 2>&1 && break
    sleep 1
  done
  if ! docker info >/dev/null 2>&1; then
    say "dockerd did not come up within 60 s; last lines of /tmp/dockerd.log:"
    tail -n 15 /tmp/dockerd.log >&2
    exit 1
  fi
fi

base=debian:bookworm-slim
if ! docker image inspect "$base" >/dev/null 2>&1; then
  if ! timeout 60 docker pull -q "$base" >/dev/null 2>&1; then
    say "cannot pull $base; building it with debootstrap (about 30 s)"
    root=$(mktemp -d)
    if ! $sudo debootstrap --variant=minbase bookworm "$root" http://deb.debian.org/debian >/tmp/debootstrap.log 2>&1; then
      say "debootstrap failed (see /tmp/debootstrap.log)"
      $sudo rm -rf "$root"
      exit 1
    fi
    # Slim, as the registry's image is: no apt lists or caches, docs, man pages or translations, and
    # dpkg told to leave them out of later installs too.
    $sudo rm -rf "$root"/var/lib/apt/lists/* "$root"/var/cache/apt/* "$root"/usr/share/doc/* \
      "$root"/usr/share/man/* "$root"/usr/share/info/* "$root"/usr/share/locale/*
    printf '%s\n' 'path-exclude /usr/share/doc/*' 'path-include /usr/share/doc/*/copyright' \
      'path-exclude /usr/share/man/*' 'path-exclude /usr/share/info/*' 'path-exclude /usr/share/locale/*' \
      | $sudo tee "$root"/etc/dpkg/dpkg.cfg.d/docker-slim >/dev/null
    $sudo tar -C "$root" -c . | docker import - "$base" >/dev/null
    $sudo rm -rf "$root"
  fi
fi
docker image inspect "$base" >/dev/null 2>&1 || { say "$base is still missing"; exit 1; }
say "Docker $(docker version --format '{{.Server.Version}}' 2>/dev/null) ready with $base"
