# The arm64 cross-compiler: Debian's crossbuild-essential-arm64 and the arm64 -dev packages
# (multiarch) on the x86 debian:bookworm-slim, plus qemu to run the arm64 binaries. The packages are
# scripts/deps/packages.txt's, the list the x86 build reads: the native tools, the cross set, and
# the libs and unit sets as PACKAGE:arm64. Used by docker/build-arm64.sh and the docker.arm64_smoke
# test (context: the source tree); build trees stay on the host (build/arm64*).
FROM debian:bookworm-slim
COPY scripts/deps /deps
RUN dpkg --add-architecture arm64 \
 && sh /deps/list.sh tools cross > /tmp/packages \
 && sh /deps/list.sh --arch arm64 libs unit >> /tmp/packages \
 && apt-get update -q \
 && apt-get install -y -q --no-install-recommends $(cat /tmp/packages) \
 && rm -rf /var/lib/apt/lists/*
