#!/usr/bin/env bash
# Prepares a fresh Ubuntu or Debian cloud instance for perfzero-runner.sh: Docker and, on GPU
# shapes (PERFZERO_GPU=1), the NVIDIA driver (unless the image has one) and the NVIDIA container
# toolkit, so that `docker run --gpus all` works. Safe to run again.
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
apt_install() { apt-get install -y -q --no-install-recommends "$@"; }

if ! command -v docker > /dev/null; then
  apt-get update -q
  apt_install docker.io ca-certificates curl gnupg
fi
systemctl enable --now docker
# The benchmark container must not reach the instance metadata service: it hands out the
# instance identity's tokens (GCP, OCI and Azure answer containers; AWS's IMDSv2 hop limit of 1
# already refuses them). The host's own calls (the uploader, the preemption watch) are not forwarded
# traffic, so DOCKER-USER leaves them alone.
# Without the rule the run does not start: the benchmark would hold the instance's storage token.
if ! iptables -C DOCKER-USER -d 169.254.169.254/32 -j DROP 2> /dev/null; then
  iptables -I DOCKER-USER -d 169.254.169.254/32 -j DROP || {
    echo "host-setup: cannot keep containers off the metadata service (no DOCKER-USER chain)" >&2
    exit 1
  }
fi

[ "${PERFZERO_GPU:-0}" = 1 ] || exit 0
if ! nvidia-smi > /dev/null 2>&1; then
  # The clouds' GPU images have a driver; a plain Ubuntu image gets the packaged server driver.
  apt-get update -q
  apt_install ubuntu-drivers-common
  ubuntu-drivers install --gpgpu
  modprobe nvidia
fi
nvidia-smi
if ! command -v nvidia-ctk > /dev/null; then
  # The toolkit is not in Ubuntu's or Debian's archive: NVIDIA's signed apt repository.
  keyring=/usr/share/keyrings/nvidia-container-toolkit-keyring.gpg
  curl -fsSL https://nvidia.github.io/libnvidia-container/gpgkey | gpg --batch --yes --dearmor -o "$keyring"
  curl -fsSL https://nvidia.github.io/libnvidia-container/stable/deb/nvidia-container-toolkit.list |
    sed "s#deb https://#deb [signed-by=$keyring] https://#g" > /etc/apt/sources.list.d/nvidia-container-toolkit.list
  apt-get update -q
  apt_install nvidia-container-toolkit
fi
nvidia-ctk runtime configure --runtime=docker
systemctl restart docker
