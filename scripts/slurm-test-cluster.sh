#!/usr/bin/env bash
# A Slurm cluster of several hosts on this one machine, for the multi-host tests and for developers
# (docs/multi-host.md). Each host is a network namespace (its own veth on a bridge, its own address)
# with its own hostname (a UTS namespace) and its own /etc/hosts, running slurmd; slurmctld runs on
# the first host; munged runs here. The root namespace is the submit host: srun, salloc and perfzero
# run there, with the environment `up` prints.
#
#   scripts/slurm-test-cluster.sh up      starts it; prints `export NAME=VALUE` lines (SLURM_CONF...)
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
# 10.213.7). Needs root (namespaces, a bridge), Debian's slurm-wlm and munge.
#
# The failure timers are short on purpose: a host whose slurmd stops answering is marked DOWN after
# SlurmdTimeout (5 s) rather than the default 300 s, so the tests can lose a node and see it lost.
set -euo pipefail

dir="${PERFZERO_SLURM_DIR:-/tmp/perfzero-slurm}"
nodes="${PERFZERO_SLURM_NODES:-3}"
net="${PERFZERO_SLURM_NET:-10.213.7}"
bridge="pzslurm0"
prefix="pzslurm"

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

write_config() {
  mkdir -p "$dir/ctld" "$dir/spool" "$dir/log" "$dir/munge"
  chmod 700 "$dir/munge"
  {
    echo "127.0.0.1 localhost"
    for i in $(seq 1 "$nodes"); do echo "$(node_addr "$i") $(node_name "$i")"; done
  } >"$dir/hosts"
  local cpus
  cpus="$(nproc)"
  cat >"$dir/slurm.conf" <<EOF
# Written by scripts/slurm-test-cluster.sh: $nodes hosts in network namespaces on one machine.
ClusterName=perfzero-test
SlurmctldHost=$(node_name 1)($(node_addr 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$dir/munge/munge.socket
StateSaveLocation=$dir/ctld
SlurmdSpoolDir=$dir/spool/%n
# Each host's own temporary space (PMIx puts its per-step directories there): the hosts share this
# machine's /tmp, where the same step's directory name would collide.
TmpFS=$dir/nodetmp/%n
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd-%n.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd-%n.log
SlurmctldPort=6817
SlurmdPort=6818
SrunPortRange=60001-60999
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
# Every host sees this machine's cores: slurmd is not to drain a host whose configured count differs.
SlurmdParameters=config_overrides
ReturnToService=2
SlurmdTimeout=5
SlurmctldTimeout=5
MessageTimeout=3
KillWait=2
UnkillableStepTimeout=10
InactiveLimit=0
MinJobAge=5
TreeWidth=$nodes
EOF
  for i in $(seq 1 "$nodes"); do
    echo "NodeName=$(node_name "$i") NodeAddr=$(node_addr "$i") CPUs=$cpus RealMemory=1024 State=UNKNOWN"
  done >>"$dir/slurm.conf"
  # Oversubscribed: the tests start more ranks than this machine has cores.
  echo "PartitionName=pz Nodes=ALL Default=YES MaxTime=INFINITE State=UP OverSubscribe=FORCE:8" >>"$dir/slurm.conf"
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
  munged --force --socket="$dir/munge/munge.socket" --key-file="$dir/munge/munge.key" \
    --pid-file="$dir/munge/munged.pid" --log-file="$dir/log/munged.log" --seed-file="$dir/munge/munged.seed"
  export SLURM_CONF="$dir/slurm.conf"
  on_node 1 slurmctld -i
  for i in $(seq 1 "$nodes"); do
    mkdir -p "$dir/spool/$(node_name "$i")" "$dir/nodetmp/$(node_name "$i")"
    on_node "$i" slurmd -N "$(node_name "$i")"
  done
  wait_idle "$nodes"
}

# Waits until `want` hosts are idle in sinfo's view.
wait_idle() {
  local want="$1" deadline=$((SECONDS + 60)) idle=0
  while ((SECONDS < deadline)); do
    idle="$(SLURM_CONF="$dir/slurm.conf" sinfo -h -N -t idle -o '%N' 2>/dev/null | sort -u | wc -l)"
    ((idle >= want)) && return 0
    sleep 0.5
  done
  die "only $idle of $want hosts idle within 60 s; logs: $dir/log (sinfo: $(SLURM_CONF="$dir/slurm.conf" sinfo -h -N 2>&1 | tr '\n' ';'))"
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
    ((i == 1)) && SLURM_CONF="$dir/slurm.conf" on_node 1 slurmctld
    SLURM_CONF="$dir/slurm.conf" on_node "$i" slurmd -N "$(node_name "$i")"
    SLURM_CONF="$dir/slurm.conf" scontrol update nodename="$(node_name "$i")" state=resume 2>/dev/null || true
    wait_idle "$nodes"
    ;;
  *)
    sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'
    [ "${1:-}" = "-h" ] || [ "${1:-}" = "--help" ] || exit 2
    ;;
esac
