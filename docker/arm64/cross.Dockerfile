# The arm64 cross-compiler: Debian's crossbuild-essential-arm64 and the arm64 -dev packages
# (multiarch) on the x86 debian:bookworm-slim, plus qemu to run the arm64 tests. Used by
# docker/build-arm64.sh; its build tree stays on the host (build/arm64) so reruns are incremental.
FROM debian:bookworm-slim
RUN dpkg --add-architecture arm64 \
 && apt-get update -q \
 && apt-get install -y -q --no-install-recommends \
      crossbuild-essential-arm64 cmake ninja-build ccache qemu-user-static file \
      libboost1.81-dev:arm64 libboost-filesystem1.81-dev:arm64 libyaml-cpp-dev:arm64 nlohmann-json3-dev \
      libfmt-dev:arm64 libcli11-dev libgtest-dev:arm64 libbenchmark-dev:arm64 \
 && rm -rf /var/lib/apt/lists/*
