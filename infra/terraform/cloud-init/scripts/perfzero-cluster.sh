#!/usr/bin/env bash
# perfzero-cluster: makes this instance one node of a Slurm cluster and, on the first node (the
# head), runs the suite through it. Installed by infra/terraform/cloud-init when its `cluster` input
# is set; cloud-init runs it once on every node:
#   perfzero-cluster.sh /etc/perfzero/run.env
# Every node: installs what is missing (Slurm, munge, Open MPI, NFS, and perfzero from the Debian
# package in object storage), fetches the munge key from the cloud's secret store (never from user
# data), names itself and its peers in /etc/hosts, and starts munged and slurmd (slurmctld on the
# head) with slurm-node.sh, the script the tests' cluster runs. The head exports the results folder
# over NFS (a method's ranks write their trial's files there from every node); the others mount it.
# The head waits until every node is idle in Slurm, then runs perfzero-runner.sh with perfzero on
# the host (PERFZERO_RUN_MODE=native: srun starts the ranks on the nodes' own perfzero-rank). When
# the run is over, before the upload (`perfzero-cluster.sh release`, the runner's
# PERFZERO_BEFORE_UPLOAD), the head tells the other nodes (.cluster-ended in the shared folder); each
# writes its timeline into the run's instances/ and powers off, and the head uploads the run with
# every node's timeline, then powers off too. The hard time limit (cloud-init's bootcmd) powers off a
# node whatever happens.
#
# Settings: those of perfzero-runner.sh, and PERFZERO_CLUSTER_HOSTS ("name=address ...", the head
# first), PERFZERO_CLUSTER_INDEX (this node's place in it, 0 for the head), or, for nodes that share
# one user data (an OCI cluster network), PERFZERO_CLUSTER_HOSTS_OBJECT (the object in the results
# bucket that holds the hosts once the caller has written it; each node finds itself in it by its
# own address), PERFZERO_MUNGE_KEY_SECRET
# (the secret's id in the cloud's store), PERFZERO_PACKAGE_OBJECTS (the perfzero .debs in
# PERFZERO_IMAGE_ARCHIVE_BUCKET; empty: perfzero must be installed), and, for tests on one machine,
# PERFZERO_CLUSTER_SHARED (nfs, the default, or local: the nodes are namespaces of one machine that
# already share its file system, and its services are not theirs to stop),
# PERFZERO_CLUSTER_WAIT_SECONDS (how long a node waits for the others, default 900),
# PERFZERO_CLUSTER_DISCOVER_SECONDS (how long a discovering node waits for the hosts, default 1800) and
# PERFZERO_CLUSTER_RELEASE_SECONDS (how long the head waits for the nodes' timelines, default 120).
set -uo pipefail

mode=boot
if [ "${1:-}" = release ]; then
  mode=release
  shift
fi
config=${1:-/etc/perfzero/run.env}
if [ ! -f "$config" ]; then
  echo "perfzero-cluster: settings file '$config' not found" >&2
  exit 2
fi
# shellcheck source=/dev/null
. "$config"
: "${PERFZERO_LIB_DIR:=/usr/local/lib/perfzero}"
: "${PERFZERO_STATE_DIR:=/var/lib/perfzero}"
: "${PERFZERO_POWEROFF_COMMAND:=systemctl poweroff}"
: "${PERFZERO_CLUSTER_SHARED:=nfs}"
: "${PERFZERO_CLUSTER_WAIT_SECONDS:=900}"
: "${PERFZERO_CLUSTER_RELEASE_SECONDS:=120}"
: "${PERFZERO_PACKAGE_OBJECTS:=}"
export PERFZERO_STATE_DIR PERFZERO_LIB_DIR

# shellcheck source=/dev/null
. "$PERFZERO_LIB_DIR/storage-$PERFZERO_CLOUD.sh"

logs=$PERFZERO_STATE_DIR/logs
results=$PERFZERO_STATE_DIR/results
mkdir -p "$logs" "$results"
# release runs inside the runner, whose log it writes to.
[ "$mode" = boot ] && exec > >(tee -a "$logs/cluster.log") 2>&1

log() { echo "perfzero-cluster $(date -u +%Y-%m-%dT%H:%M:%SZ): $*" >&2; }
poweroff_now() {
  log "powering off: $PERFZERO_POWEROFF_COMMAND"
  sleep 2 # lets tee flush cluster.log
  $PERFZERO_POWEROFF_COMMAND
  exit "${1:-0}"
}

# discover_hosts: PERFZERO_CLUSTER_HOSTS from PERFZERO_CLUSTER_HOSTS_OBJECT, asked every 10 s for
# PERFZERO_CLUSTER_DISCOVER_SECONDS (1800: the object comes once the whole pool runs and its policy
# has spread), and this node's place in it: the one host whose address is one of this node's. Kept
# in the state folder for the release step, which reads the settings again.
hosts_file=$PERFZERO_STATE_DIR/cluster-hosts
discover_hosts() {
  local deadline=$((SECONDS + ${PERFZERO_CLUSTER_DISCOVER_SECONDS:-1800})) entry addr i=0 matches=0 tries
  local -a mine
  # The storage client's install may meet first boot's own apt run: asked again, as the packages are.
  for tries in 1 2 3 4 5; do
    storage_setup && break
    [ "$tries" -lt 5 ] || { log "cannot set up the $PERFZERO_CLOUD storage client"; return 1; }
    sleep 30
  done
  until storage_get "$PERFZERO_RESULTS_BUCKET" "$PERFZERO_CLUSTER_HOSTS_OBJECT" "$hosts_file.new" \
    > /dev/null 2> "$hosts_file.err"; do
    if [ "$SECONDS" -ge "$deadline" ]; then
      log "no cluster hosts at $(storage_url "$PERFZERO_CLUSTER_HOSTS_OBJECT") within" \
        "${PERFZERO_CLUSTER_DISCOVER_SECONDS:-1800} s; the last answer: $(tr '\n' ' ' < "$hosts_file.err" | cut -c1-300)"
      return 1
    fi
    sleep 10
  done
  PERFZERO_CLUSTER_HOSTS=$(tr -s '\n\t' '  ' < "$hosts_file.new")
  read -r -a mine <<< "$(hostname -I 2> /dev/null)"
  PERFZERO_CLUSTER_INDEX=""
  for entry in $PERFZERO_CLUSTER_HOSTS; do
    addr=${entry#*=}
    if [[ "$entry" != ?*=* || ! "$addr" =~ ^[0-9a-fA-F.:]+$ ]]; then
      log "FAILED: the cluster's hosts hold '$entry', not name=address: $PERFZERO_CLUSTER_HOSTS"
      return 1
    fi
    if printf '%s\n' "${mine[@]}" | grep -qxF "$addr"; then
      PERFZERO_CLUSTER_INDEX=$i
      matches=$((matches + 1))
    fi
    i=$((i + 1))
  done
  if [ "$matches" -ne 1 ]; then
    log "FAILED: $matches of the cluster's hosts are this node's addresses (${mine[*]}), not one: $PERFZERO_CLUSTER_HOSTS"
    return 1
  fi
  printf '%s\n%s\n' "$PERFZERO_CLUSTER_HOSTS" "$PERFZERO_CLUSTER_INDEX" > "$hosts_file"
  log "found this node's place in the cluster's hosts: $((PERFZERO_CLUSTER_INDEX + 1)) of $i"
}
if [ -z "${PERFZERO_CLUSTER_HOSTS:-}" ] && [ -n "${PERFZERO_CLUSTER_HOSTS_OBJECT:-}" ]; then
  if [ "$mode" = release ]; then
    { read -r PERFZERO_CLUSTER_HOSTS && read -r PERFZERO_CLUSTER_INDEX; } < "$hosts_file" ||
      { log "release: no hosts in $hosts_file"; exit 0; }
  elif ! discover_hosts; then
    poweroff_now 2 # no place in the cluster: nothing to run (OCI bills a stopped bare-metal node: see the example's README)
  fi
fi

# The hosts, one "name address" per line; this node's name and the head's.
mapfile -t hosts < <(for entry in ${PERFZERO_CLUSTER_HOSTS:-}; do echo "${entry%%=*} ${entry#*=}"; done)
index=${PERFZERO_CLUSTER_INDEX:-}
if [ "${#hosts[@]}" -lt 2 ] || ! [[ "$index" =~ ^[0-9]+$ ]] || [ "$index" -ge "${#hosts[@]}" ]; then
  log "FAILED: PERFZERO_CLUSTER_HOSTS needs two hosts or more and PERFZERO_CLUSTER_INDEX one of them (got '${PERFZERO_CLUSTER_HOSTS:-}', '$index')"
  poweroff_now 2
fi
name=${hosts[$index]%% *}
head_name=${hosts[0]%% *}
head_addr=${hosts[0]#* }
ended_marker=$results/.cluster-ended
run_timelines=$results/$PERFZERO_EXECUTION_ID/instances
export PERFZERO_CLUSTER_HOSTS
# Every node's timeline goes up beside the run (instances/<node>-<boot id>.json): each is billed.
PERFZERO_INSTANCE_KEY=${PERFZERO_INSTANCE_KEY:-$name-$(tr -cd 'A-Za-z0-9-' < /proc/sys/kernel/random/boot_id 2> /dev/null)}
export PERFZERO_INSTANCE_KEY
# shellcheck source=/dev/null
. "$PERFZERO_LIB_DIR/runner-lib.sh" # retry, write_timeline
instance_key=${instance_key:?runner-lib.sh sets it}

# upload_timeline END: a compute node that could not join uploads its timeline itself (it was
# billed); one that ran leaves it in the shared run folder, for the head to upload with the run.
upload_timeline() {
  local file=$PERFZERO_STATE_DIR/instance-timeline.json
  write_timeline "$file" "$1"
  retry 3 storage_put_file "$file" "$PERFZERO_RESULTS_PATH/instances/$instance_key.json" > /dev/null ||
    log "uploading the instance timeline failed"
}

# release: on the head, once the run is over and before its upload: tells the other nodes, and
# waits (PERFZERO_CLUSTER_RELEASE_SECONDS) until each node that joined has left its timeline.
if [ "$mode" = release ]; then
  echo "the run ended at $(date -u +%Y-%m-%dT%H:%M:%SZ)" > "$ended_marker"
  deadline=$((SECONDS + PERFZERO_CLUSTER_RELEASE_SECONDS))
  for line in "${hosts[@]:1}"; do
    node=${line%% *}
    [ -e "$results/.joined-$node" ] || continue
    while [ ! -e "$results/.left-$node" ] && [ "$SECONDS" -lt "$deadline" ]; do sleep 1; done
    [ -e "$results/.left-$node" ] || log "$node left no timeline within $PERFZERO_CLUSTER_RELEASE_SECONDS s"
  done
  exit 0
fi

# install_missing: the cluster's packages, only those whose command is not there yet.
install_missing() {
  local want=() pkg cmd
  for pkg in slurmd:slurmd slurmctld:slurmctld srun:slurm-client munged:munge mpirun:openmpi-bin; do
    cmd=${pkg%%:*}
    command -v "$cmd" > /dev/null || want+=("${pkg#*:}")
  done
  if [ "$PERFZERO_CLUSTER_SHARED" = nfs ]; then
    if [ "$index" -eq 0 ]; then
      command -v exportfs > /dev/null || want+=(nfs-kernel-server)
    else
      command -v mount.nfs > /dev/null || want+=(nfs-common)
    fi
  fi
  export DEBIAN_FRONTEND=noninteractive
  # The first boot's unattended upgrades hold dpkg's lock for a while: wait for it, not fail.
  local apt=(apt-get -q -o DPkg::Lock::Timeout=600)
  if [ "${#want[@]}" -gt 0 ]; then
    log "installing ${want[*]}"
    "${apt[@]}" update && "${apt[@]}" install -y --no-install-recommends "${want[@]}" || return 1
  fi
  # Packaged daemons run the packaged configuration and key (an image may have them running): this
  # node runs its own. Namespaces of one machine leave its services alone.
  if [ "$PERFZERO_CLUSTER_SHARED" != local ]; then
    systemctl disable --now slurmd slurmctld munge > /dev/null 2>&1
  fi
  if ! command -v perfzero > /dev/null; then
    [ -n "$PERFZERO_PACKAGE_OBJECTS" ] || { log "perfzero is not installed and no package objects are set"; return 1; }
    local object debs=()
    for object in $PERFZERO_PACKAGE_OBJECTS; do
      debs+=("$PERFZERO_STATE_DIR/packages/$(basename "$object")")
      log "fetching $PERFZERO_IMAGE_ARCHIVE_BUCKET/$object"
      mkdir -p "$PERFZERO_STATE_DIR/packages"
      retry 3 storage_get "$PERFZERO_IMAGE_ARCHIVE_BUCKET" "$object" "${debs[-1]}" || { log "cannot fetch $object"; return 1; }
    done
    # apt-get, not dpkg: it installs the packages' dependencies (Open MPI's library...) as well.
    "${apt[@]}" update && "${apt[@]}" install -y --no-install-recommends "${debs[@]}" || return 1
  fi
}

# name_hosts: this node's hostname and every node's line in /etc/hosts, since Slurm and MPI find the
# nodes by these names.
name_hosts() {
  [ "$(hostname)" = "$name" ] || hostname "$name" || return 1
  local line
  for line in "${hosts[@]}"; do
    grep -qE "^${line#* }[[:space:]]+${line%% *}\$" /etc/hosts || echo "${line#* } ${line%% *}" >> /etc/hosts
  done
}

# munge_key: the cluster's shared key, from the cloud's secret store (retried: a new identity can be
# refused for a minute or two after boot).
munge_key() {
  local key=$PERFZERO_STATE_DIR/munge.key i
  umask 077
  # About five minutes: a new identity's grant on the secret takes a while to apply (GCP's IAM).
  for i in 1 2 3 4 5 6 7 8 9 10 11 12; do
    storage_secret "$PERFZERO_MUNGE_KEY_SECRET" "$key" && [ -s "$key" ] && break
    rm -f "$key"
    [ "$i" -lt 12 ] && sleep $((i < 6 ? i * 5 : 30))
  done
  umask 022
  [ -s "$key" ] || { log "cannot read the munge key (secret $PERFZERO_MUNGE_KEY_SECRET)"; return 1; }
  chmod 400 "$key"
  echo "$key"
}

# share_results: the head exports the results folder to the other nodes, which mount it at the same
# path; with PERFZERO_CLUSTER_SHARED=local they already share it.
share_results() {
  [ "$PERFZERO_CLUSTER_SHARED" = local ] && return 0
  local line i
  if [ "$index" -eq 0 ]; then
    systemctl enable --now nfs-kernel-server > /dev/null 2>&1
    for line in "${hosts[@]:1}"; do
      exportfs -o rw,sync,no_root_squash,no_subtree_check "${line#* }:$results" || return 1
    done
  else
    # As long as the head may take to come up. lookupcache=positive: "no such file" is not cached,
    # so the head's .cluster-ended is seen at the next look.
    for i in $(seq 1 $((PERFZERO_CLUSTER_WAIT_SECONDS / 5))); do
      mountpoint -q "$results" && return 0
      mount -t nfs -o hard,vers=4,lookupcache=positive "$head_addr:$results" "$results" 2> /dev/null && return 0
      sleep 5
    done
    log "cannot mount $head_addr:$results"
    return 1
  fi
}

# open_to_peers: OCI's Ubuntu images reject every new inbound connection but SSH in iptables (the
# network security group does not reach that far): each peer is let in, whatever the port (Slurm,
# munge, NFS, MPI and the benchmarks pick theirs).
open_to_peers() {
  [ "$PERFZERO_CLOUD" = oci ] && command -v iptables > /dev/null || return 0
  local line
  for line in "${hosts[@]}"; do
    iptables -C INPUT -s "${line#* }" -j ACCEPT 2> /dev/null || iptables -I INPUT -s "${line#* }" -j ACCEPT || return 1
  done
}

join_cluster() {
  local key
  # The storage client first: the packages come through it.
  storage_setup || { log "cannot set up the $PERFZERO_CLOUD storage client"; return 1; }
  install_missing || { log "cannot install the cluster's packages"; return 1; }
  name_hosts || { log "cannot set the hostname and /etc/hosts"; return 1; }
  open_to_peers || { log "cannot let the other nodes through this node's firewall"; return 1; }
  key=$(munge_key) || return 1
  share_results || return 1
  if ! { "$PERFZERO_LIB_DIR/slurm-node.sh" config && "$PERFZERO_LIB_DIR/slurm-node.sh" munge "$key" &&
    "$PERFZERO_LIB_DIR/slurm-node.sh" start "$name"; }; then
    log "Slurm did not start on $name"
    return 1
  fi
  log "$name joined the cluster (head $head_name)"
}

log "node $name ($((index + 1)) of ${#hosts[@]}) of execution $PERFZERO_EXECUTION_ID on $PERFZERO_CLOUD"
if [ "$index" -ne 0 ]; then
  if ! join_cluster; then
    upload_timeline failed
    poweroff_now 1
  fi
  touch "$results/.joined-$name"
  # The head says when the run is over; a head that is gone for good leaves the hard time limit.
  while [ ! -e "$ended_marker" ]; do sleep 2; done
  log "the head ended the run: $(cat "$ended_marker")"
  mkdir -p "$run_timelines"
  write_timeline "$run_timelines/$instance_key.json" "done"
  touch "$results/.left-$name"
  poweroff_now 0
fi

# The head: what fails before the run is a failed run, uploaded as the runner uploads one.
setup_error=""
if ! join_cluster; then
  setup_error="the head could not join the cluster (see cluster.log)"
elif ! "$PERFZERO_LIB_DIR/slurm-node.sh" wait "${#hosts[@]}" "$PERFZERO_CLUSTER_WAIT_SECONDS"; then
  setup_error="not every node joined within $PERFZERO_CLUSTER_WAIT_SECONDS s: $(sinfo -h -N 2>&1 | tr '\n' ';')"
fi
export PERFZERO_RUN_MODE=native PERFZERO_HOST_SETUP="" PERFZERO_SETUP_ERROR="$setup_error"
export PERFZERO_BEFORE_UPLOAD="$PERFZERO_LIB_DIR/perfzero-cluster.sh release $config"
PERFZERO_POWEROFF_COMMAND=true "$PERFZERO_LIB_DIR/perfzero-runner.sh" "$config"
rc=$?
# A runner that ended before its release step still frees the other nodes.
[ -e "$ended_marker" ] || echo "the runner exited $rc at $(date -u +%Y-%m-%dT%H:%M:%SZ)" > "$ended_marker"
poweroff_now "$rc"
