#!/usr/bin/env bash
# The cluster example's cloud-init, run for real: three nodes' documents are rendered through
# `terraform console` with the `cluster` input infra/terraform/examples/cluster passes (the head and
# two compute nodes of c7i.xlarge), their files are extracted as cloud-init would write them, and
# each node's perfzero-cluster.sh runs in its own network, UTS and mount namespace (three hosts on
# this machine, scripts/slurm-test-cluster.sh's network). The nodes fetch the munge key from a
# Secrets Manager through the AWS CLI, form the Slurm cluster with slurm-node.sh, and the
# head runs a multi-host suite through srun, uploads it to S3 and every node
# powers off. Both stores are moto (tests/infra/moto.sh: one local server, IAM authentication on).
# Three cases:
#   three nodes: DONE, every case succeeded on the hosts it asked for, the three nodes powered off;
#   a lost node (the third never boots): the head gives up after its wait, FAILED says which nodes
#   joined, and the nodes that came powered off;
#   discovered: the three nodes boot one shared document (an OCI cluster network's), read the hosts
#   from an object written after they booted and find their places by address: DONE.
# The build's perfzero stands for the Debian package (it is on the PATH, so none is fetched); the
# nodes share this machine's file system (PERFZERO_CLUSTER_SHARED=local) where the cloud's mount
# the head's NFS export; power-off is a marker file (PERFZERO_POWEROFF_COMMAND). Exit 77 (skipped)
# with the reason when root, terraform, Slurm, munge, moto (build/venv) or the AWS CLI is missing,
# except in CI.
#   tests/infra/cluster_cloud_init_test.sh BUILD_DIR
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source_dir=$(cd "$here/../.." && pwd)
build_dir=$(cd "${1:?usage: cluster_cloud_init_test.sh BUILD_DIR}" && pwd)
net=10.213.9
bridge_addr=$net.1
bucket=perfzero-results
work=$(mktemp -d /tmp/perfzero-cluster-cloud-init.XXXXXX)
cluster=("$source_dir/scripts/slurm-test-cluster.sh")
export PERFZERO_SLURM_DIR=$work/network PERFZERO_SLURM_PREFIX=pzcloud PERFZERO_SLURM_NET=$net PERFZERO_SLURM_NODES=3
pids=()
cleanup() {
  "${cluster[@]}" down > /dev/null 2>&1 # every process in the nodes' namespaces, then the network
  [ "${#pids[@]}" -gt 0 ] && kill "${pids[@]}" 2> /dev/null
  [ -n "${KEEP:-}" ] || rm -rf "$work"
}
trap cleanup EXIT
# shellcheck source=tests/infra/checks.sh
. "$here/checks.sh" # skip, check and the failure count
# shellcheck source=tests/infra/moto.sh
. "$here/moto.sh" # moto_require, moto_start

[ "$(id -u)" = 0 ] || skip "needs root (network namespaces, slurmd)"
moto_require
for tool in terraform slurmd slurmctld munged srun /usr/bin/aws; do
  command -v "$tool" > /dev/null || skip "$tool is not installed (scripts/install-deps.sh)"
done
[ -x "$build_dir/harness/perfzero-worker-mpi" ] || skip "the MPI worker was not built (libopenmpi-dev)"
"${cluster[@]}" network > "$work/network.log" 2>&1 || { cat "$work/network.log"; echo "FAILED: the nodes' network"; exit 1; }

# The stores the nodes reach over the bridge, one moto server: S3 and Secrets Manager, which holds
# the munge key (the key never appears in user data).
tr -dc 'A-Za-z0-9' < /dev/urandom | head -c 64 > "$work/munge-key" 2> /dev/null
moto_start "$bridge_addr" "$work/moto.log" "$bucket" perfzero-munge "$work/munge-key" || exit 1
pids+=("$moto_pid")
secret_arn=$MOTO_SECRET_ARN
export PERFZERO_TEST_MUNGE_SECRET=$secret_arn # render_cloud_init.py's cluster input names it
s3() { /usr/bin/aws --endpoint-url "$moto_endpoint" s3 "$@"; }

# The multi-host suite: MPI across three and two hosts, TCP between two, through Slurm.
cat > "$work/suite.yaml" << 'EOF'
suite: cluster_cloud_init
defaults: {trials: 1, warmup_trials: 0, timeout: 2m, launch: {engine: slurm, nodes: 2}}
methods:
  - method: mpi.Collectives.benchmark_allreduce
    params: {bytes: 1048576, iters: 5, warmup_iters: 1}
    launch: {nodes: 3}
  - method: mpi.PointToPoint.benchmark_latency
  - method: network.Tcp.benchmark_latency
    params: {runtime: 1}
EOF

# render_nodes CASE EXECUTION_ID: every node's files, rendered from the cluster example's inputs and
# extracted under CASE/node<i>.
render_nodes() {
  local case_dir=$1 execution_id=$2 i
  for i in 0 1 2; do
    if ! /usr/bin/python3 "$here/render_cloud_init.py" --cluster-inputs "$i" 3 "$net.0/24" 11 "$work/suite.yaml" \
      "$execution_id" > "$case_dir/inputs-$i.json" ||
      ! /usr/bin/python3 "$here/render_cloud_init.py" --extract "$case_dir/inputs-$i.json" "$case_dir/node$i" > /dev/null; then
      echo "FAILED: rendering node $i"
      return 1
    fi
    cp /etc/hosts "$case_dir/node$i/hosts"
    mkdir -p "$case_dir/node$i/state/results" "$case_dir/node$i/run"
  done
  mkdir -p "$case_dir/shared" "$case_dir/mnt"
}

# boot CASE I [ENV...]: node I's cloud-init runcmd, in namespace host I+1 with its own hostname and
# mount namespace. Every node sees its own files at the same path ($case/mnt) and the shared results
# folder under it, as the cloud's nodes see theirs at /var/lib/perfzero and the NFS mount.
boot() {
  local case_dir=$1 i=$2
  shift 2
  local mnt=$case_dir/mnt
  # shellcheck disable=SC2016 # expanded by the node's shell: $0 is the case folder, $1 the node
  env PATH="$build_dir/harness:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin" \
    PERFZERO_LIB_DIR="$mnt/usr/local/lib/perfzero" PERFZERO_CONFIG_DIR="$mnt/etc/perfzero" \
    PERFZERO_STATE_DIR="$mnt/state" SLURM_CONF="$mnt/slurm/slurm.conf" PERFZERO_SLURM_STATE="$mnt/slurm" \
    PERFZERO_MUNGE_SOCKET="$mnt/run/munge.socket" PERFZERO_S3_ENDPOINT_URL="$moto_endpoint" \
    PERFZERO_SECRETS_ENDPOINT_URL="$moto_endpoint" PERFZERO_CLUSTER_SHARED=local \
    PERFZERO_RUN_TIMEOUT_SECONDS=240 PERFZERO_POWEROFF_COMMAND="touch $case_dir/powered-off-$i" \
    "$@" \
    nsenter --net="/run/netns/pzcloud-node$((i + 1))" unshare --uts --mount --propagation private /bin/sh -c '
      mount --bind "$0/node$1" "$0/mnt" && mount --bind "$0/shared" "$0/mnt/state/results" &&
      mount --bind "$0/mnt/hosts" /etc/hosts && hostname "pz-node$1" &&
      exec "$0/mnt/usr/local/lib/perfzero/perfzero-cluster.sh" "$0/mnt/etc/perfzero/run.env"' \
    "$case_dir" "$i" > "$case_dir/node$i.out" 2>&1
}

# wait_powered_off CASE SECONDS I...: until those nodes' markers are there.
wait_powered_off() {
  local case_dir=$1 limit=$2 i
  shift 2
  local deadline=$((SECONDS + limit))
  for i in "$@"; do
    while [ ! -e "$case_dir/powered-off-$i" ] && [ "$SECONDS" -lt "$deadline" ]; do sleep 1; done
    [ -e "$case_dir/powered-off-$i" ] || return 1
  done
}
path=bench/perfzero/aws/c7i.xlarge-x3 # the example's results_prefix is the user's

# Three nodes: the run lands with DONE, each case ran where it asked, every node powered off.
case_dir=$work/three
mkdir -p "$case_dir"
render_nodes "$case_dir" cluster-test-1 || exit 1
check "three: the user data names the key's secret" \
  grep -q "PERFZERO_MUNGE_KEY_SECRET='$secret_arn'" "$case_dir/node0/etc/perfzero/run.env"
started=$SECONDS
nodes=()
for i in 2 1 0; do # the head last: the others are still booting
  boot "$case_dir" "$i" &
  nodes+=($!)
done
check "three: every node powered off" wait_powered_off "$case_dir" 300 0 1 2
wait "${nodes[@]}"
echo "three: the cluster took $((SECONDS - started)) s"
s3 ls --recursive "s3://$bucket/$path/cluster-test-1/" | awk '{print $4}' > "$case_dir/objects"
has() { grep -qx "$path/$1" "$2"; }
check "three: DONE marker" has cluster-test-1/DONE "$case_dir/objects"
for i in 0 1 2; do
  check "three: node $i's timeline beside the run" grep -q "^$path/cluster-test-1/instances/pz-node$i-.*\.json$" "$case_dir/objects"
done
# Secrets Manager's calls are POSTs to / (S3's name a bucket); moto logs each with its caller's address.
for i in 0 1 2; do
  check "three: node $i asked the secret store for the key" grep -q "^$net.$((11 + i)) .*\"POST / HTTP/1.1\" 200" "$work/moto.log"
done
for i in 1 2; do
  check "three: node $i joined the cluster" grep -q "pz-node$i joined the cluster" "$case_dir/node$i.out"
  check "three: node $i saw the head end the run" grep -q "the head ended the run" "$case_dir/node$i.out"
done
mkdir -p "$case_dir/run"
s3 cp --only-show-errors --recursive "s3://$bucket/$path/cluster-test-1/" "$case_dir/run/" ||
  echo "FAILED: downloading the run"
# outcome_and_hosts NAME: the outcome of the case whose folder starts with NAME, and the hosts its
# ranks ran on, sorted.
outcome_and_hosts() {
  /usr/bin/python3 -c '
import glob, json, sys
for report in sorted(glob.glob(sys.argv[1] + "/" + glob.escape(sys.argv[2]) + "*/trial_1/perfzero_summary.json")):
    r = json.load(open(report))["perfzero_cpp"]
    print(r["outcome"], ",".join(sorted(h["hostname"] for h in r.get("hosts", []))))
' "$case_dir/run" "$1"
}
check "three: allreduce succeeded on the three nodes" \
  test "$(outcome_and_hosts mpi.Collectives)" = "succeeded pz-node0,pz-node1,pz-node2"
for method in mpi.PointToPoint network.Tcp; do
  check "three: $method succeeded on two nodes" \
    grep -qE "^succeeded pz-node[0-2],pz-node[0-2]$" <<< "$(outcome_and_hosts "$method")"
done
# The bill: every node's life, boot to upload, each billed per second with AWS's 60 s minimum
# (boot is this machine's, hours ago: the figure is large, and exact).
"$build_dir/harness/perfzero" report "$case_dir/run" --out "$case_dir/report" --format json > "$case_dir/report.log" 2>&1
bill_check() {
  /usr/bin/python3 - "$case_dir/run" "$case_dir/report/report.json" << 'PY'
import glob, json, math, sys
lives = [json.load(open(f)) for f in glob.glob(sys.argv[1] + "/instances/*.json")]
assert sorted(l["instance"] for l in lives) == ["pz-node0", "pz-node1", "pz-node2"], lives
assert all(l["end"] == "done" and l["shape"] == "c7i.xlarge" for l in lives), lives
billed = sum(max(60, math.ceil(l["upload_ended_at"] - l["booted_at"])) for l in lives)
# The run holds cases on 2 and on 3 hosts (two configurations); its experiment is billed once.
report = json.load(open(sys.argv[2]))
billed_in = {c["key"]: c["experiment"] for c in report["configurations"] if c["experiment"]}
assert list(billed_in) == ["c7i.xlarge x3 hosts"], billed_in
e = billed_in["c7i.xlarge x3 hosts"]
assert e["instances"] == 3 and e["billed_seconds"] == billed, (e, billed)
assert abs(e["usd"] - billed / 3600 * 0.1785) < 1e-9, e  # c7i.xlarge in the catalog
assert report["experiment_total"]["instances"] == 3, report["experiment_total"]
PY
}
check "three: perfzero report bills the three nodes' lives" bill_check
check "three: the system is named for the cluster" \
  grep -q '"system_name": "c7i.xlarge-x3"' "$case_dir/run/run.json"
"${cluster[@]}" down > /dev/null 2>&1
"${cluster[@]}" network > /dev/null 2>&1 || { echo "FAILED: the nodes' network, again"; exit 1; }

# A lost node: the third never boots. The head waits (20 s here), then fails the run with what Slurm
# saw; the compute node that came powers off when the head ends.
case_dir=$work/lost
mkdir -p "$case_dir"
render_nodes "$case_dir" cluster-test-2 || exit 1
nodes=()
for i in 1 0; do
  boot "$case_dir" "$i" PERFZERO_CLUSTER_WAIT_SECONDS=20 &
  nodes+=($!)
done
check "lost: the head and node 1 powered off" wait_powered_off "$case_dir" 180 0 1
wait "${nodes[@]}"
s3 ls --recursive "s3://$bucket/$path/cluster-test-2/" | awk '{print $4}' > "$case_dir/objects"
s3 cp --only-show-errors "s3://$bucket/$path/cluster-test-2/FAILED" "$case_dir/FAILED" 2> /dev/null
check "lost: FAILED says not every node joined" grep -q "not every node joined within 20 s" "$case_dir/FAILED"
check "lost: FAILED shows the lost node never registered" grep -qE "pz-node2 +1 +pz\* +(unk|down)" "$case_dir/FAILED"
check "lost: the node that joined left its timeline, uploaded by the head" \
  grep -q "^$path/cluster-test-2/instances/pz-node1-.*\.json$" "$case_dir/objects"
check "lost: the head's logs uploaded" grep -q "^$path/cluster-test-2/logs/cluster.log$" "$case_dir/objects"

"${cluster[@]}" down > /dev/null 2>&1
"${cluster[@]}" network > /dev/null 2>&1 || { echo "FAILED: the nodes' network, a third time"; exit 1; }

# Discovered: every node boots the same document (an OCI cluster network's nodes share one instance
# configuration), with no hosts and no index; the hosts object appears once they are up, as the OCI
# example's Terraform writes it once the pool exists, and each node finds its place by its address.
case_dir=$work/discovered
mkdir -p "$case_dir"
if /usr/bin/python3 "$here/render_cloud_init.py" --cluster-inputs discover 3 "$net.0/24" 11 "$work/suite.yaml" \
  cluster-test-3 > "$case_dir/inputs.json" &&
  /usr/bin/python3 "$here/render_cloud_init.py" --extract "$case_dir/inputs.json" "$case_dir/node0" > /dev/null; then
  for i in 0 1 2; do
    [ "$i" -eq 0 ] || cp -a "$case_dir/node0/." "$case_dir/node$i/"
    cp /etc/hosts "$case_dir/node$i/hosts"
    mkdir -p "$case_dir/node$i/state/results" "$case_dir/node$i/run"
  done
  mkdir -p "$case_dir/shared" "$case_dir/mnt"
  check "discovered: one document for every node, naming the hosts object" \
    grep -q "PERFZERO_CLUSTER_HOSTS_OBJECT='$path/cluster-test-3/cluster-hosts.txt'" "$case_dir/node0/etc/perfzero/run.env"
  nodes=()
  for i in 2 1 0; do
    boot "$case_dir" "$i" &
    nodes+=($!)
  done
  sleep 5 # the nodes ask for the object before it is there
  printf 'pz-node0=%s.11 pz-node1=%s.12 pz-node2=%s.13\n' "$net" "$net" "$net" > "$case_dir/cluster-hosts.txt"
  s3 cp --only-show-errors "$case_dir/cluster-hosts.txt" "s3://$bucket/$path/cluster-test-3/cluster-hosts.txt"
  check "discovered: every node powered off" wait_powered_off "$case_dir" 300 0 1 2
  wait "${nodes[@]}"
  for i in 0 1 2; do
    check "discovered: node $i found its place by its address" \
      grep -q "found this node's place in the cluster's hosts: $((i + 1)) of 3" "$case_dir/node$i.out"
  done
  s3 ls --recursive "s3://$bucket/$path/cluster-test-3/" | awk '{print $4}' > "$case_dir/objects"
  check "discovered: DONE marker" has cluster-test-3/DONE "$case_dir/objects"
  for i in 0 1 2; do
    check "discovered: node $i's timeline beside the run" \
      grep -q "^$path/cluster-test-3/instances/pz-node$i-.*\.json$" "$case_dir/objects"
  done
else
  check "discovered: rendering the shared document" false
fi

echo "$failures failed"
[ "$failures" -eq 0 ]
