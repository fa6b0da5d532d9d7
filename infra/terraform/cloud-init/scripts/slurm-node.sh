#!/usr/bin/env bash
# slurm-node: one host's part of a Slurm cluster: the cluster's slurm.conf, this host's munged, and
# slurmctld (on the first host) and slurmd. The same script sets up a cloud cluster's nodes
# (perfzero-cluster.sh, installed by infra/terraform/cloud-init) and the tests' cluster of network
# namespaces (scripts/slurm-test-cluster.sh), so the tests run what the cloud runs.
#
#   slurm-node.sh config        writes $SLURM_CONF and $PERFZERO_SLURM_STATE/hosts (the hosts' lines
#                               for /etc/hosts)
#   slurm-node.sh munge KEYFILE starts munged with that key, unless one already answers on the socket
#   slurm-node.sh start NAME    slurmctld when NAME is the first host, then slurmd -N NAME
#   slurm-node.sh wait N [SECONDS]  until N hosts are idle in sinfo's view (default 300 s)
#
# Settings (environment):
#   PERFZERO_CLUSTER_HOSTS        the hosts, "name=address" separated by spaces; the first is the
#                               controller (required)
#   PERFZERO_SLURM_CLUSTER      ClusterName (default perfzero)
#   PERFZERO_SLURM_STATE        state, spool, logs and pid files (default /var/lib/perfzero-slurm)
#   SLURM_CONF                  where slurm.conf goes (default /etc/slurm/slurm.conf)
#   PERFZERO_MUNGE_SOCKET       munged's socket (default /run/munge/munge.socket.2)
#   PERFZERO_SLURM_CPUS         CPUs per host (default: this host's, nproc)
#   PERFZERO_SLURM_MEMORY_MB    RealMemory per host (default: 90 % of this host's MemTotal)
#   PERFZERO_SLURM_FAST_FAILURE 1: a host that stops answering is DOWN after 5 s, not 300 s (tests)
#   PERFZERO_SLURM_OVERSUBSCRIBE  N: up to N tasks per CPU (tests start more ranks than cores)
set -euo pipefail

state="${PERFZERO_SLURM_STATE:-/var/lib/perfzero-slurm}"
conf="${SLURM_CONF:-/etc/slurm/slurm.conf}"
socket="${PERFZERO_MUNGE_SOCKET:-/run/munge/munge.socket.2}"
export SLURM_CONF="$conf"

die() {
  echo "slurm-node: $*" >&2
  exit 1
}

# The hosts as "name address" lines, checked: a name or address that is not one word would break
# slurm.conf and /etc/hosts alike.
hosts() {
  local entry name addr
  [ -n "${PERFZERO_CLUSTER_HOSTS:-}" ] || die "PERFZERO_CLUSTER_HOSTS is empty (\"name=address ...\", controller first)"
  for entry in $PERFZERO_CLUSTER_HOSTS; do
    name="${entry%%=*}"
    addr="${entry#*=}"
    [[ "$entry" == *=* && "$name" =~ ^[A-Za-z0-9][A-Za-z0-9-]{0,62}$ && "$addr" =~ ^[0-9A-Fa-f.:]+$ ]] ||
      die "bad host '$entry' in PERFZERO_CLUSTER_HOSTS (want name=address, e.g. pz-node1=10.0.0.11)"
    echo "$name $addr"
  done
}

memory_mb() {
  if [ -n "${PERFZERO_SLURM_MEMORY_MB:-}" ]; then
    echo "$PERFZERO_SLURM_MEMORY_MB"
  else
    awk '/^MemTotal:/ { printf "%d", $2 / 1024 * 0.9 }' /proc/meminfo
  fi
}

# Every host, read once: a pipe into a reader that stops early (head, grep -q) would kill the writer
# with SIGPIPE, which pipefail turns into a failure.
load_hosts() {
  local listed
  listed="$(hosts)" || exit 1
  mapfile -t host_lines <<<"$listed"
  controller="${host_lines[0]%% *}"
  controller_addr="${host_lines[0]#* }"
}

write_config() {
  local cpus memory count line
  load_hosts
  count="${#host_lines[@]}"
  cpus="${PERFZERO_SLURM_CPUS:-$(nproc)}"
  memory="$(memory_mb)"
  mkdir -p "$(dirname "$conf")" "$state/ctld" "$state/spool" "$state/log" "$state/nodetmp"
  for line in "${host_lines[@]}"; do echo "${line#* } ${line%% *}"; done >"$state/hosts"
  cat >"$conf.tmp" <<EOF
# Written by slurm-node.sh (perfzero-cpp): $count hosts, $controller runs slurmctld.
ClusterName=${PERFZERO_SLURM_CLUSTER:-perfzero}
SlurmctldHost=$controller($controller_addr)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$socket
StateSaveLocation=$state/ctld
SlurmdSpoolDir=$state/spool/%n
# Each host's own temporary space (PMIx puts its per-step directories there): hosts that share a
# file system, as the tests' namespaces do, would collide in one /tmp.
TmpFS=$state/nodetmp/%n
SlurmctldPidFile=$state/slurmctld.pid
SlurmdPidFile=$state/slurmd-%n.pid
SlurmctldLogFile=$state/log/slurmctld.log
SlurmdLogFile=$state/log/slurmd-%n.log
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
# A host whose hardware differs from the line below is not drained for it: the tests' hosts all see
# one machine's cores, and a cloud shape's usable memory varies a little from boot to boot.
SlurmdParameters=config_overrides
ReturnToService=2
InactiveLimit=0
MinJobAge=5
TreeWidth=$count
EOF
  if [ "${PERFZERO_SLURM_FAST_FAILURE:-0}" = 1 ]; then
    printf '%s\n' SlurmdTimeout=5 SlurmctldTimeout=5 MessageTimeout=3 KillWait=2 UnkillableStepTimeout=10 >>"$conf.tmp"
  fi
  for line in "${host_lines[@]}"; do
    echo "NodeName=${line%% *} NodeAddr=${line#* } CPUs=$cpus RealMemory=$memory State=UNKNOWN"
  done >>"$conf.tmp"
  local oversubscribe=""
  [ -n "${PERFZERO_SLURM_OVERSUBSCRIBE:-}" ] && oversubscribe=" OverSubscribe=FORCE:$PERFZERO_SLURM_OVERSUBSCRIBE"
  echo "PartitionName=pz Nodes=ALL Default=YES MaxTime=INFINITE State=UP$oversubscribe" >>"$conf.tmp"
  mv "$conf.tmp" "$conf"
}

start_munge() {
  local key="$1" dir
  [ -s "$key" ] || die "munge key '$key' is missing or empty"
  if munge -n -S "$socket" 2>/dev/null | unmunge -S "$socket" >/dev/null 2>&1; then
    return 0 # one answers already (the tests' hosts share one)
  fi
  dir="$(dirname "$socket")"
  mkdir -p "$dir" "$state/munge"
  chmod 755 "$dir"
  munged --force --socket="$socket" --key-file="$key" --pid-file="$state/munge/munged.pid" \
    --log-file="$state/log/munged.log" --seed-file="$state/munge/munged.seed"
}

start_daemons() {
  local name="$1" line known=""
  load_hosts
  for line in "${host_lines[@]}"; do [ "${line%% *}" = "$name" ] && known=1; done
  [ -n "$known" ] || die "'$name' is not among PERFZERO_CLUSTER_HOSTS"
  mkdir -p "$state/spool/$name" "$state/nodetmp/$name" "$state/log"
  if [ "$name" = "$controller" ]; then
    slurmctld -i
  fi
  slurmd -N "$name"
}

# Waits until `want` hosts are idle.
wait_idle() {
  local want="$1" limit="${2:-300}" idle=0
  local deadline=$((SECONDS + limit))
  while ((SECONDS < deadline)); do
    # A controller that is still starting fails sinfo: that is "not yet", not the end.
    idle="$({ sinfo -h -N -t idle -o '%N' 2>/dev/null || true; } | sort -u | wc -l)"
    ((idle >= want)) && return 0
    sleep 0.5
  done
  die "only $idle of $want hosts idle within $limit s; logs: $state/log (sinfo: $(sinfo -h -N 2>&1 | tr '\n' ';'))"
}

case "${1:-}" in
  config) write_config ;;
  munge) start_munge "${2:?munge KEYFILE}" ;;
  start) start_daemons "${2:?start NAME}" ;;
  wait) wait_idle "${2:?wait N [SECONDS]}" "${3:-300}" ;;
  *)
    sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'
    [ "${1:-}" = "-h" ] || [ "${1:-}" = "--help" ] || exit 2
    ;;
esac
