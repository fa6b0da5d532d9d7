#!/usr/bin/env bash
# The runner that cloud-init installs on an Azure VM, with its Blob Storage uploader
# (storage-azure.sh: the REST API with curl), run for real against a FAKE of Blob Storage on
# loopback (tests/infra/azure_blob_fake.py: Azurite, the emulator this test used, comes from npm,
# which the project's machines cannot reach; infra/README.md says what the fake does not check), with
# an account SAS in place of the VM's managed identity: the Azure document is rendered through
# `terraform console`, its files are extracted as cloud-init would write them, and
# perfzero-runner.sh runs in a container (curl and the Docker client on the host's daemon; the image
# the S3 runner test uses) with the real perfzero-cpp image (docker.e2e builds it) loaded from a
# `docker save` archive in that store. Two cases:
#   a working suite: the run lands under <prefix>/azure/<system>/<execution_id>/ with its timeline
#     and DONE, and `perfzero report` (the binary given as the first argument) bills it at Azure's
#     5-minute minimum as a hand computation from the timeline does;
#   spot capacity: a Preempt event from a local Scheduled Events stub stops the run, and a second
#     instance reads it back by name and resumes it: every trial succeeded once.
# Neither Azure's role assignments nor its SAS signatures are checked: the identity's limits are the
# module's, not tested here. Deallocation is replaced by a marker file here only
# (PERFZERO_POWEROFF_COMMAND). Exit 77 (skipped) with the reason when Docker, terraform or the image
# is missing, except in CI. A blob name with '[', '=' and ',' (a sweep point's folder) and one with
# non-ASCII bytes go up and come back.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
perfzero_bin=${1:-}
image=${PERFZERO_TEST_IMAGE:-perfzero-cpp:e2e-test}
tag=perfzero-cpp:runner-test-amd64 # the name:tag the archive holds, as a fleet's would
container=perfzero-results
prefix=ci/perfzero
shape=Standard_D4s_v5
work=$(mktemp -d /tmp/perfzero-runner-azure-test.XXXXXX)
fake_pid=""
events_pid=""
cleanup() {
  [ -n "$fake_pid" ] && kill "$fake_pid" 2> /dev/null
  [ -n "$events_pid" ] && kill "$events_pid" 2> /dev/null
  # The runners and the perfzero containers they start (pz-azure-test-run-$$-CASE).
  docker ps -a --format "{{.Names}}" | grep -E "^pz-azure-test-(run-)?$$-" | xargs -r docker rm --force > /dev/null 2>&1
  docker rmi "$tag" > /dev/null 2>&1
  rm -rf "$work"
}
trap cleanup EXIT
# shellcheck source=tests/infra/checks.sh
. "$here/checks.sh" # skip, check and the failure count
free_port() { /usr/bin/python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

command -v terraform > /dev/null || skip "terraform is not on the PATH (infra/README.md)"
"$here/../../scripts/docker-env.sh" || skip "Docker cannot start here (reason above)"
docker image inspect "$image" > /dev/null 2>&1 || skip "image $image is missing (docker.e2e builds it)"
docker build -q -t perfzero-test-runner -f "$here/runner.Dockerfile" "$here" > "$work/build.log" 2>&1 ||
  { cat "$work/build.log"; echo "FAILED: building the runner container"; exit 1; }

# The fake on loopback; it takes the SAS whose signature it is started with.
blob() { /usr/bin/python3 "$here/azure_blob.py" "$endpoint" "$@"; } # blob COMMAND ARGS (azure_blob.py)
sas=$(/usr/bin/python3 "$here/azure_blob.py" - sas)
export AZURE_BLOB_SAS=$sas # azure_blob.py signs with this one SAS from now on
/usr/bin/python3 "$here/azure_blob_fake.py" "$work/fake.port" "$(/usr/bin/python3 -c 'import sys, urllib.parse
print(urllib.parse.parse_qs(sys.argv[1])["sig"][0])' "$sas")" > "$work/fake.log" 2>&1 &
fake_pid=$!
for _ in $(seq 1 100); do [ -s "$work/fake.port" ] && break; sleep 0.1; done
endpoint=http://127.0.0.1:$(cat "$work/fake.port" 2> /dev/null)
blob mkcontainer "$container" || { echo "FAILED: creating the container in the fake"; tail "$work/fake.log"; exit 1; }

# The image archive, as a user uploads it; the runner must docker-load it (the tag exists only there).
if ! { docker tag "$image" "$tag" && docker save "$tag" | gzip -1 > "$work/image.tar.gz"; }; then
  echo "FAILED: saving $image"
  exit 1
fi
docker rmi "$tag" > /dev/null
blob put "$container" images/perfzero-cpp-runner-test-amd64.tar.gz "$work/image.tar.gz" ||
  { echo "FAILED: uploading the image archive to the fake"; exit 1; }

run_env=() # more -e NAME=VALUE for the runner, per case
# run_case NAME EXECUTION_ID SUITE_TEXT [CAPACITY]: renders, extracts and runs the runner.
run_case() {
  local name=$1 execution_id=$2 suite=$3 capacity=${4:-on_demand}
  local case_dir=$work/$name
  mkdir -p "$case_dir"
  SUITE="$suite" EXECUTION_ID="$execution_id" CAPACITY="$capacity" SHAPE="$shape" /usr/bin/python3 - "$case_dir/inputs.json" << 'EOF'
import json, os, sys
json.dump({"cloud": "azure", "shape": os.environ["SHAPE"], "image_reference": "perfzero-cpp:runner-test-{arch}",
           "image_archive_object": "images/perfzero-cpp-runner-test-{arch}.tar.gz",
           "suite_yaml": os.environ["SUITE"], "execution_id": os.environ["EXECUTION_ID"],
           "execution_label": "runner-test", "results_bucket": "perfzero-results", "results_prefix": "ci/perfzero",
           "time_limit_minutes": 30, "capacity": os.environ["CAPACITY"], "azure_storage_account": "devstoreaccount1"},
          open(sys.argv[1], "w"))
EOF
  /usr/bin/python3 "$here/render_cloud_init.py" --extract "$case_dir/inputs.json" "$case_dir/root" > /dev/null ||
    { echo "FAILED: $name: rendering"; return 1; }
  local started=$SECONDS
  # Each case alone takes under a minute here; a hung one is removed, the next case runs.
  # shellcheck disable=SC2094 # bounded reads the log only once the runner has ended
  bounded 240 "$name: the runner" "$case_dir/runner.out" docker run --rm --name "pz-azure-test-$$-$name" --network host -v /var/run/docker.sock:/var/run/docker.sock \
    -v "$work:$work" -e PERFZERO_AZURE_SAS="$sas" -e PERFZERO_AZURE_BLOB_ENDPOINT="$endpoint" -e PERFZERO_HOST_SETUP= \
    -e PERFZERO_LIB_DIR="$case_dir/root/usr/local/lib/perfzero" -e PERFZERO_CONFIG_DIR="$case_dir/root/etc/perfzero" \
    -e PERFZERO_STATE_DIR="$case_dir/state" -e PERFZERO_CONTAINER_NAME="pz-azure-test-run-$$-$name" \
    -e PERFZERO_POWEROFF_COMMAND="touch $case_dir/deallocated" "${run_env[@]}" \
    perfzero-test-runner "$case_dir/root/usr/local/lib/perfzero/perfzero-runner.sh" \
    "$case_dir/root/etc/perfzero/run.env" > "$case_dir/runner.out" 2>&1
  [ $? -ne 124 ] || docker rm --force "pz-azure-test-$$-$name" "pz-azure-test-run-$$-$name" > /dev/null 2>&1
  echo "$name: the runner took $((SECONDS - started)) s"
  blob list "$container" "$prefix/azure/$shape/$execution_id/" > "$case_dir/objects"
  check "$name: the VM deallocated itself (marker)" test -f "$case_dir/deallocated"
}
has() { grep -qx "$prefix/azure/$shape/$1" "$2"; }
download() { # download EXECUTION_ID DIR: the run, as a user brings it down
  local name
  while IFS= read -r name; do
    mkdir -p "$(dirname "$2/${name#"$prefix/azure/$shape/"}")"
    blob get "$container" "$name" "$2/${name#"$prefix/azure/$shape/"}"
  done < <(blob list "$container" "$prefix/azure/$shape/$1/")
}

ok_suite=$'suite: runner_ok\ndefaults: {trials: 2, warmup_trials: 0}\nmethods:\n  - sanity.Sanity.benchmark_noop\n'
run_case works works-1 "$ok_suite"
objects=$work/works/objects
check "works: run.json uploaded under <prefix>/azure/<system>/<execution_id>/" has works-1/run.json "$objects"
check "works: journal uploaded" has works-1/journal.ndjson "$objects"
check "works: trial reports uploaded" has works-1/sanity.Sanity.benchmark_noop/trial_2/perfzero_summary.json "$objects"
check "works: DONE marker" has works-1/DONE "$objects"
check "works: the instance's timeline uploaded" grep -q "^$prefix/azure/$shape/works-1/instances/[A-Za-z0-9-]*\.json$" "$objects"
# Azure bills per second with a 5-minute minimum (the catalog); Standard_D4s_v5 is $0.192 an hour.
if [ -n "$perfzero_bin" ]; then
  download works-1 "$work/works/download"
  "$perfzero_bin" report "$work/works/download" --out "$work/works/report" --format json > "$work/works/report.log" 2>&1
  bill_check() {
    /usr/bin/python3 - "$work/works/download/works-1" "$work/works/report/report.json" << 'EOF'
import glob, json, math, sys
timeline = json.load(open(glob.glob(sys.argv[1] + "/instances/*.json")[0]))
assert timeline["provider"] == "azure" and timeline["end"] == "done", timeline
billed = max(300, math.ceil(timeline["upload_ended_at"] - timeline["booted_at"]))
e = json.load(open(sys.argv[2]))["configurations"][0]["experiment"]
assert e["billed_seconds"] == billed and abs(e["usd"] - billed / 3600 * 0.192) < 1e-9, (e, billed)
assert e["billing"].startswith("per second, 5 min minimum (azure"), e
EOF
  }
  check "works: perfzero report bills the experiment as the timeline says" bill_check
fi
[ "$failures" -eq 0 ] || cat "$work/works/runner.out"

# The uploader alone, on names a run can have: a sweep point's folder ('[', '=', ',') and bytes
# that are not ASCII; each goes up and comes back the same, read by name as a replacement reads a run.
odd_names() {
  mkdir -p "$work/odd/in/m[p=1,q=2]" "$work/odd/in/caf$(printf '\xc3\xa9')"
  echo one > "$work/odd/in/m[p=1,q=2]/a.txt"
  echo two > "$work/odd/in/caf$(printf '\xc3\xa9')/b.txt"
  blob mkcontainer odd-names || return 1 # a container of its own: the check below looks at the results'
  docker run --rm --network host -v "$work:$work" -e PERFZERO_AZURE_SAS="$sas" -e PERFZERO_AZURE_BLOB_ENDPOINT="$endpoint" \
    -e PERFZERO_RESULTS_BUCKET=odd-names -e LIB="$work/works/root/usr/local/lib/perfzero" -e W="$work/odd" \
    perfzero-test-runner bash -c '. "$LIB/storage-azure.sh" && storage_put_dir "$W/in" odd/run && cd "$W/in" &&
      find . -type f -printf "%P\n" | while IFS= read -r rel; do
        mkdir -p "$W/out/$(dirname "$rel")" && storage_get odd-names "odd/run/$rel" "$W/out/$rel" || exit 1
      done' &&
    diff -r "$work/odd/in" "$work/odd/out"
}
check "the uploader keeps names with [ = , and non-ASCII bytes" odd_names

# Spot: a local stand-in for Azure's Scheduled Events (a Preempt event once the notice file exists).
events_port=$(free_port)
cat > "$work/events.py" << 'EOF'
import http.server, json, os, sys
notice = sys.argv[2]
class H(http.server.BaseHTTPRequestHandler):
    def log_message(self, *a): pass
    def do_GET(self):
        if not self.path.startswith("/metadata/scheduledevents") or self.headers.get("Metadata") != "true":
            self.send_response(400); self.end_headers(); return
        events = [{"EventId": "1", "EventType": "Preempt", "ResourceType": "VirtualMachine"}] if os.path.exists(notice) else []
        body = json.dumps({"DocumentIncarnation": 1, "Events": events}).encode()
        self.send_response(200); self.send_header("Content-Length", str(len(body))); self.end_headers(); self.wfile.write(body)
http.server.HTTPServer(("127.0.0.1", int(sys.argv[1])), H).serve_forever()
EOF
/usr/bin/python3 "$work/events.py" "$events_port" "$work/notice" > "$work/events.log" 2>&1 &
events_pid=$!
spot_suite=$'suite: runner_spot\ndefaults: {trials: 8, warmup_trials: 0}\nmethods:\n  - name: nap\n    command: [/bin/sleep, "3"]\n    output: none\n'
run_env=(-e PERFZERO_SYNC_SECONDS=1 -e PERFZERO_PREEMPTION_POLL_SECONDS=1 -e "PERFZERO_METADATA_URL=http://127.0.0.1:$events_port"
  -e PERFZERO_INSTANCE_KEY=first)
run_case spot1 spot-1 "$spot_suite" spot &
spot_pid=$!
for _ in $(seq 1 600); do # the notice comes mid-run: once the second trial has its report
  [ -f "$work/spot1/state/results/spot-1/nap/trial_2/perfzero_summary.json" ] && break
  sleep 0.2
done
touch "$work/notice"
wait "$spot_pid"
check "spot: the runner saw the Preempt event and stopped perfzero" grep -q "preempted: perfzero exited" "$work/spot1/runner.out"
check "spot: a preempted VM leaves no DONE and no FAILED" test -z "$(grep -E '/(DONE|FAILED)$' "$work/spot1/objects")"
rm -f "$work/notice"
run_env=(-e PERFZERO_SYNC_SECONDS=1 -e PERFZERO_INSTANCE_KEY=second)
run_case spot2 spot-1 "$spot_suite" spot
check "spot: the replacement resumed the run" grep -q "resuming the earlier run" "$work/spot2/runner.out"
# The upload loop ends with the container (bash 5.2 once failed a TERM trap there and the runner hung).
no_shell_errors() { ! grep -E "^[^ ]*\.sh: (line [0-9]+|[a-z_]+: line [0-9]+): " "$@"; }
check "spot: no shell error in either runner's output" no_shell_errors "$work/spot1/runner.out" "$work/spot2/runner.out"
check "spot: the replacement finished it (DONE)" has spot-1/DONE "$work/spot2/objects"
download spot-1 "$work/spot2/download"
spot_checks() {
  /usr/bin/python3 - "$work/spot2/download/spot-1" << 'EOF'
import collections, json, sys
ends, outcomes = collections.Counter(), []
for line in open(sys.argv[1] + "/journal.ndjson"):
    e = json.loads(line)
    if e["event"] == "trial" and not e["trial"]["warmup"]:
        outcomes.append((e["trial"]["trial"], e["trial"]["outcome"]))
        ends[e["trial"]["trial"]] += e["trial"]["outcome"] == "succeeded"
assert sorted(ends) == list(range(1, 9)) and set(ends.values()) == {1}, outcomes
assert {o for _, o in outcomes} <= {"succeeded", "interrupted"}, outcomes
first = json.load(open(sys.argv[1] + "/instances/first.json"))
assert first["end"] == "preempted" and first["capacity"] == "spot", first
EOF
}
check "spot: every trial succeeded once across both VMs" spot_checks
check "nothing was written outside <prefix>/azure/<system>/<execution_id>/ and images/" \
  test -z "$(blob list "$container" | grep -v "^$prefix/azure/$shape/[a-z]*-1/" | grep -v '^images/')"

[ "$failures" -eq 0 ] || for c in works spot1 spot2; do echo "--- $c runner output"; cat "$work/$c/runner.out"; done
echo "$failures failed"
[ "$failures" -eq 0 ]
