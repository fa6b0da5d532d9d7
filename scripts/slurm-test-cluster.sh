#!/usr/bin/env bash
# A Slurm cluster of several hosts on this one machine, for the multi-host tests and for developers
# (docs/multi-host.md). Each host is a network namespace (its own veth on a bridge, its own address)
# with its own hostname (a UTS namespace) and its own /etc/hosts, running slurmd; slurmctld runs on
# the first host; munged runs here. slurm-node.sh, the script a cloud cluster's nodes run
# (infra/terraform/cloud-init), writes the configuration and starts the daemons. The root namespace
# is the submit host: srun, salloc and perfzero run there, with the environment `up` prints.
#
#   scripts/slurm-test-cluster.sh up      starts it; prints `export NAME=VALUE` lines (SLURM_CONF...)
#   scripts/slurm-test-cluster.sh network only the hosts' namespaces, links and bridge, no daemons
#   scripts/slurm-test-cluster.sh down    stops every process of every host and removes it all
#   scripts/slurm-test-cluster.sh status  sinfo's view, and each host's process count
#   scripts/slurm-test-cluster.sh pids HOST   every process in that host's namespace, one pid a line
#   scripts/slurm-test-cluster.sh exec HOST CMD...  runs CMD on that host (its namespaces)
#   scripts/slurm-test-cluster.sh rsh HOST WORDS...  runs WORDS as one shell line on that host, as ssh
#                                  does: Open MPI's remote shell for mpirun across these hosts without
#                                  Slurm (--mca plm_rsh_agent "scripts/slurm-test-cluster.sh rsh")
#   scripts/slurm-test-cluster.sh lose HOST   kills every process of that host, as a power loss would
#   scripts/slurm-test-cluster.sh cut HOST    takes its link down (a partition); `mend HOST` brings it up
#   scripts/slurm-test-cluster.sh restart HOST   starts its slurmd again and waits for it to be idle
#
# Settings (environment): PERFZERO_SLURM_DIR (state, default /tmp/perfzero-slurm), PERFZERO_SLURM_NODES
# (hosts, default 3), PERFZERO_SLURM_NET (the first three octets of the bridge's /24, default
# 10.213.7), PERFZERO_SLURM_PREFIX (names of the bridge, links and namespaces, default pzslurm: two
# clusters need two). Needs root (namespaces, a bridge), Debian's slurm-wlm and munge.
#
# The failure timers are short on purpose: a host whose slurmd stops answering is marked DOWN after
# SlurmdTimeout (5 s) rather than the default 300 s, so the tests can lose a node and see it lost.
set -euo pipefail

dir="${PERFZERO_SLURM_DIR:-/tmp/perfzero-slurm}"
nodes="${PERFZERO_SLURM_NODES:-3}"
net="${PERFZERO_SLURM_NET:-10.213.7}"
prefix="${PERFZERO_SLURM_PREFIX:-pzslurm}"
bridge="${prefix}0"
node_script="$(cd "$(dirname "$0")/.." && pwd)/infra/terraform/cloud-init/scripts/slurm-node.sh"

die() {
  echo "slurm-test-cluster: $*" >&2
  exit 1
}

node_name() { echo "pz-node$1"; }
node_netns() { echo "${prefix}-node$1"; }
node_addr() { echo "${net}.$((10 + $1))"; }

# The number i of a host given as pz-nodeI, nodeI or I.
node_index() {
  local name="$1"
  name="${name#pz-}"
  name="${name#node}"
  if ! [[ "$name" =~ ^[0-9]+$ ]] || ((name < 1 || name > nodes)); then
    die "no host '$1' (hosts: pz-node1..pz-node$nodes)"
  fi
  echo "$name"
}

# Runs a command on host i: its network namespace, then its own hostname and /etc/hosts (a UTS and a
# mount namespace made for the command, so the root namespace's are untouched).
on_node() {
  local i="$1"
  shift
  # shellcheck disable=SC2016 # expanded by that shell: $0 is the hostname, $1 the hosts file
  nsenter --net="/run/netns/$(node_netns "$i")" unshare --uts --mount --propagation private \
    /bin/sh -c 'hostname "$0" && mount --bind "$1" /etc/hosts && shift && exec "$@"' \
    "$(node_name "$i")" "$dir/hosts" "$@"
}

require() {
  [ "$(id -u)" = 0 ] || die "needs root (network namespaces, a bridge, slurmd)"
  for tool in ip unshare slurmctld slurmd munged mungekey srun sinfo scontrol; do
    command -v "$tool" >/dev/null || die "needs '$tool' (apt-get install slurm-wlm munge iproute2)"
  done
}

# The cluster's settings for slurm-node.sh, the script a cloud cluster's nodes run (cloud-init):
# this machine's cores on every host, fast failure timers and oversubscription for the tests.
cluster_env() {
  export PERFZERO_SLURM_STATE="$dir" SLURM_CONF="$dir/slurm.conf" PERFZERO_MUNGE_SOCKET="$dir/munge/munge.socket"
  export PERFZERO_SLURM_CLUSTER=perfzero-test PERFZERO_SLURM_MEMORY_MB=1024 PERFZERO_SLURM_FAST_FAILURE=1
  export PERFZERO_SLURM_OVERSUBSCRIBE=8
  PERFZERO_CLUSTER_HOSTS="$(for i in $(seq 1 "$nodes"); do printf '%s=%s ' "$(node_name "$i")" "$(node_addr "$i")"; done)"
  export PERFZERO_CLUSTER_HOSTS
}

write_config() {
  mkdir -p "$dir/munge"
  chmod 700 "$dir/munge"
  cluster_env
  "$node_script" config
  { echo "127.0.0.1 localhost" && cat "$dir/hosts"; } >"$dir/hosts.new"
  mv "$dir/hosts.new" "$dir/hosts"
}

start_network() {
  ip link add "$bridge" type bridge 2>/dev/null || true
  ip addr replace "${net}.1/24" dev "$bridge"
  ip link set "$bridge" up
  # Docker sets the FORWARD policy to DROP, and bridged frames pass through iptables
  # (br_netfilter): without this, the hosts reach the submit host but not each other.
  if command -v iptables >/dev/null && ! iptables -C FORWARD -i "$bridge" -o "$bridge" -j ACCEPT 2>/dev/null; then
    iptables -I FORWARD 1 -i "$bridge" -o "$bridge" -j ACCEPT
  fi
  for i in $(seq 1 "$nodes"); do
    local ns veth
    ns="$(node_netns "$i")"
    veth="${prefix}v$i"
    ip netns del "$ns" 2>/dev/null || true  # left by a crash
    ip link del "$veth" 2>/dev/null || true
    ip netns add "$ns"
    ip link add "$veth" type veth peer name eth0 netns "$ns"
    ip link set "$veth" master "$bridge" up
    ip -n "$ns" link set lo up
    ip -n "$ns" addr add "$(node_addr "$i")/24" dev eth0
    ip -n "$ns" link set eth0 up
    ip -n "$ns" route add default via "${net}.1"
  done
}

start_daemons() {
  mungekey --create --keyfile="$dir/munge/munge.key" --force >/dev/null
  chmod 400 "$dir/munge/munge.key"
  cluster_env
  "$node_script" munge "$dir/munge/munge.key"
  for i in $(seq 1 "$nodes"); do
    on_node "$i" "$node_script" start "$(node_name "$i")"
  done
  "$node_script" wait "$nodes" 60
}

kill_node() {
  local pids
  mapfile -t pids < <(node_pids "$1")
  if ((${#pids[@]})); then kill -9 "${pids[@]}" 2>/dev/null || true; fi
}

print_env() {
  echo "export SLURM_CONF=$dir/slurm.conf"
  echo "export PERFZERO_SLURM_HOSTS=$(for i in $(seq 1 "$nodes"); do node_name "$i"; done | paste -sd,)"
}

# Every process in host i's network namespace.
node_pids() { ip netns pids "$(node_netns "$1")" 2>/dev/null || true; }

stop_all() {
  # Every process of every host, not only slurmd: slurmstepd and the ranks outlive it.
  for i in $(seq 1 "$nodes"); do kill_node "$i"; done
  if [ -f "$dir/munge/munged.pid" ]; then kill "$(cat "$dir/munge/munged.pid")" 2>/dev/null || true; fi
  for i in $(seq 1 "$nodes"); do
    ip netns del "$(node_netns "$i")" 2>/dev/null || true
    ip link del "${prefix}v$i" 2>/dev/null || true
  done
  ip link del "$bridge" 2>/dev/null || true
  while command -v iptables >/dev/null && iptables -D FORWARD -i "$bridge" -o "$bridge" -j ACCEPT 2>/dev/null; do :; done
}

case "${1:-}" in
  up)
    require
    [ -e "$dir/slurm.conf" ] && stop_all
    rm -rf "$dir"
    mkdir -p "$dir"
    # A failure part way takes down what started (namespaces, daemons, the bridge and its rule).
    trap 'echo "slurm-test-cluster: up failed; taking down what it started" >&2; stop_all' EXIT
    write_config
    start_network
    start_daemons
    trap - EXIT
    print_env | tee "$dir/env"
    ;;
  network)
    # The hosts' network only: something else starts their daemons (tests/infra/cluster_cloud_init_test.sh
    # runs a cloud cluster's cloud-init scripts on them).
    require
    mkdir -p "$dir"
    trap 'echo "slurm-test-cluster: network failed; taking down what it started" >&2; stop_all' EXIT
    start_network
    trap - EXIT
    ;;
  down)
    stop_all
    rm -rf "$dir"
    ;;
  status)
    SLURM_CONF="$dir/slurm.conf" sinfo -N
    for i in $(seq 1 "$nodes"); do echo "$(node_name "$i"): $(node_pids "$i" | wc -l) processes"; done
    ;;
  pids)
    node_pids "$(node_index "${2:?pids HOST}")"
    ;;
  exec)
    i="$(node_index "${2:?exec HOST CMD...}")"
    shift 2
    on_node "$i" "$@"
    ;;
  rsh)
    i="$(node_index "${2:?rsh HOST WORDS...}")"
    shift 2
    on_node "$i" /bin/sh -c "$*"
    ;;
  lose)
    kill_node "$(node_index "${2:?lose HOST}")"
    ;;
  cut)
    ip link set "${prefix}v$(node_index "${2:?cut HOST}")" down
    ;;
  mend)
    ip link set "${prefix}v$(node_index "${2:?mend HOST}")" up
    ;;
  restart)
    i="$(node_index "${2:?restart HOST}")"
    kill_node "$i"
    cluster_env
    on_node "$i" "$node_script" start "$(node_name "$i")"
    scontrol update nodename="$(node_name "$i")" state=resume 2>/dev/null || true
    "$node_script" wait "$nodes" 60
    ;;
  *)
    sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'
    [ "${1:-}" = "-h" ] || [ "${1:-}" = "--help" ] || exit 2
    ;;
esac
