#!/usr/bin/env bash
# The runner that cloud-init installs on every fleet instance, run for real: the AWS document is
# rendered through `terraform console`, its files are extracted as cloud-init would write them, and
# perfzero-runner.sh runs in a container (Debian's awscli and the Docker client on the host's
# daemon) against moto (tests/infra/moto.sh: S3 with IAM authentication on) on loopback, with the real perfzero-cpp image
# (docker.e2e builds it) loaded from a `docker save` archive in that store. Three cases:
#   a working suite: the run directory lands under <prefix>/aws/<system>/<execution_id>/ with DONE;
#   a failing suite: FAILED (naming the exit status) and logs/ land, and no DONE;
#   a hanging suite: the time limit kills the container, FAILED says so.
# Each instance's timeline (instances/<boot id>.json) lands beside the run, and `perfzero report`
# (the binary given as the first argument, when it is) bills the working case's experiment from it
# as a hand computation from the same timeline does.
# Power-off is replaced by a marker file here only (PERFZERO_POWEROFF_COMMAND). Exit 77 (skipped)
# A request signed with a wrong key is refused. Exit 77 (skipped) with the reason when Docker,
# terraform, moto (build/venv) or the image is missing, except in CI.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source_dir=$(cd "$here/../.." && pwd)
perfzero_bin=${1:-}
image=${PERFZERO_TEST_IMAGE:-perfzero-cpp:e2e-test}
tag=perfzero-cpp:runner-test-amd64 # the name:tag the archive holds, as a fleet's would
bucket=perfzero-results
prefix=ci/perfzero
work=$(mktemp -d /tmp/perfzero-runner-test.XXXXXX)
moto_pid=""
imds_pid=""
cleanup() {
  [ -n "$moto_pid" ] && kill "$moto_pid" 2> /dev/null
  [ -n "$imds_pid" ] && kill "$imds_pid" 2> /dev/null
  # The runners and the perfzero containers they start (pz-runner-test-run-$$-CASE).
  docker ps -a --format "{{.Names}}" | grep -E "^pz-runner-test-(run-)?$$-" | xargs -r docker rm --force > /dev/null 2>&1
  docker rmi "$tag" > /dev/null 2>&1
  rm -rf "$work"
}
trap cleanup EXIT
# shellcheck source=tests/infra/checks.sh
. "$here/checks.sh" # skip, check and the failure count
# shellcheck source=tests/infra/moto.sh
. "$here/moto.sh" # moto_require, moto_start

command -v terraform > /dev/null || skip "terraform is not on the PATH (infra/README.md)"
moto_require
"$source_dir/scripts/docker-env.sh" || skip "Docker cannot start here (reason above)"
docker image inspect "$image" > /dev/null 2>&1 || skip "image $image is missing (docker.e2e builds it)"
docker build -q -t perfzero-test-runner -f "$here/runner.Dockerfile" "$here" > "$work/build.log" 2>&1 ||
  { cat "$work/build.log"; echo "FAILED: building the runner container"; exit 1; }

# The S3 server, on loopback only, with the bucket and a user whose key signs every request.
moto_start 127.0.0.1 "$work/moto.log" "$bucket" || exit 1
s3() { # s3 ARGS...: the AWS CLI (Debian's, in the runner container) against the local server
  docker run --rm --network host -v "$work:$work" -e AWS_ACCESS_KEY_ID -e AWS_SECRET_ACCESS_KEY \
    -e AWS_DEFAULT_REGION=us-east-1 perfzero-test-runner aws --endpoint-url "$moto_endpoint" s3 "$@"
}
# shellcheck disable=SC2016 # expanded when the check runs
check "a request signed with a wrong key is refused" \
  eval '! AWS_SECRET_ACCESS_KEY=wrong-key s3 ls "s3://$bucket/" > "$work/wrong-key.log" 2>&1 &&
        grep -q SignatureDoesNotMatch "$work/wrong-key.log"'

# The image archive, as a user uploads it; the runner must docker-load it (the tag exists only there).
if ! { docker tag "$image" "$tag" && docker save "$tag" | gzip -1 > "$work/image.tar.gz"; }; then
  echo "FAILED: saving $image"
  exit 1
fi
docker rmi "$tag" > /dev/null
s3 cp --only-show-errors "$work/image.tar.gz" "s3://$bucket/images/perfzero-cpp-runner-test-amd64.tar.gz" ||
  { echo "FAILED: uploading the image archive to moto"; tail "$work/moto.log"; exit 1; }

# run_case NAME EXECUTION_ID SUITE_TEXT [RUN_TIMEOUT_SECONDS [CAPACITY]]: renders, extracts and runs the runner.
run_case() {
  local name=$1 execution_id=$2 suite=$3 timeout=${4:-} capacity=${5:-on_demand}
  local case_dir=$work/$name
  mkdir -p "$case_dir"
  SUITE="$suite" EXECUTION_ID="$execution_id" CAPACITY="$capacity" /usr/bin/python3 - "$case_dir/inputs.json" << 'EOF'
import json, os, sys
json.dump({"cloud": "aws", "shape": "c7i.xlarge", "image_reference": "perfzero-cpp:runner-test-{arch}",
           "image_archive_object": "images/perfzero-cpp-runner-test-{arch}.tar.gz",
           "suite_yaml": os.environ["SUITE"], "execution_id": os.environ["EXECUTION_ID"],
           "execution_label": "runner-test", "results_bucket": "perfzero-results",
           "results_prefix": "ci/perfzero", "time_limit_minutes": 30, "capacity": os.environ["CAPACITY"]},
          open(sys.argv[1], "w"))
EOF
  /usr/bin/python3 "$here/render_cloud_init.py" --extract "$case_dir/inputs.json" "$case_dir/root" > /dev/null ||
    { echo "FAILED: $name: rendering"; return 1; }
  local started=$SECONDS
  # Each case alone takes under a minute here; a hung one is removed, the next case runs.
  # shellcheck disable=SC2094 # bounded reads the log only once the runner has ended
  bounded 240 "$name: the runner" "$case_dir/runner.out" docker run --rm --name "pz-runner-test-$$-$name" --network host -v /var/run/docker.sock:/var/run/docker.sock \
    -v "$work:$work" -e AWS_ACCESS_KEY_ID -e AWS_SECRET_ACCESS_KEY -e AWS_DEFAULT_REGION=us-east-1 \
    -e PERFZERO_S3_ENDPOINT_URL="$moto_endpoint" -e PERFZERO_HOST_SETUP= \
    -e PERFZERO_LIB_DIR="$case_dir/root/usr/local/lib/perfzero" -e PERFZERO_CONFIG_DIR="$case_dir/root/etc/perfzero" \
    -e PERFZERO_STATE_DIR="$case_dir/state" \
    -e PERFZERO_POWEROFF_COMMAND="touch $case_dir/powered-off" ${timeout:+-e PERFZERO_RUN_TIMEOUT_SECONDS=$timeout} \
    -e PERFZERO_CONTAINER_NAME="pz-runner-test-run-$$-$name" "${run_env[@]}" \
    perfzero-test-runner "$case_dir/root/usr/local/lib/perfzero/perfzero-runner.sh" \
    "$case_dir/root/etc/perfzero/run.env" > "$case_dir/runner.out" 2>&1
  [ $? -ne 124 ] || docker rm --force "pz-runner-test-$$-$name" "pz-runner-test-run-$$-$name" > /dev/null 2>&1
  echo "$name: the runner took $((SECONDS - started)) s"
  s3 ls --recursive "s3://$bucket/$prefix/aws/c7i.xlarge/$execution_id/" | awk '{print $4}' > "$case_dir/objects"
  check "$name: the instance powered off (marker)" test -f "$case_dir/powered-off"
}
run_env=() # more -e NAME=VALUE for the runner, per case
image_exists() { docker image inspect "$1" > /dev/null 2>&1; }
has() { grep -qx "$prefix/aws/c7i.xlarge/$1" "$2"; }
fetch() { s3 cp --only-show-errors "s3://$bucket/$prefix/aws/c7i.xlarge/$1" "$2"; }

ok_suite=$'suite: runner_ok\ndefaults: {trials: 2, warmup_trials: 0}\nmethods:\n  - sanity.Sanity.benchmark_noop\n'
run_case works works-1 "$ok_suite"
objects=$work/works/objects
check "works: run.json uploaded under <prefix>/aws/<system>/<execution_id>/" has works-1/run.json "$objects"
check "works: journal uploaded" has works-1/journal.ndjson "$objects"
check "works: trial reports uploaded" has works-1/sanity.Sanity.benchmark_noop/trial_2/perfzero_summary.json "$objects"
check "works: DONE marker" has works-1/DONE "$objects"
check "works: no FAILED marker" test -z "$(grep '/FAILED$' "$objects")"
check "works: the image was loaded from the archive" image_exists "$tag"
if fetch works-1/sanity.Sanity.benchmark_noop/trial_1/perfzero_summary.json "$work/works/report.json"; then
  field() { /usr/bin/python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))" "$work/works/report.json" "$1"; }
  check "works: --platform_name=aws reached the report" test "$(field "d['system_info']['platform_name']")" = aws
  check "works: --system_name reached the report" test "$(field "d['system_info']['system_name']")" = c7i.xlarge
  check "works: --execution_label reached the report" test "$(field "d['benchmark_info']['execution_label']")" = runner-test
  check "works: --execution_id reached the report" test "$(field "d['execution_id']")" = works-1
  check "works: the image's digest reached setup_info" test -n "$(field "d['setup_info'].get('docker_image_digest', '')")"
else
  check "works: a trial report can be fetched" false
fi
check "works: the instance's timeline uploaded" grep -q "^$prefix/aws/c7i.xlarge/works-1/instances/[A-Za-z0-9-]*\.json$" "$objects"
# The bill, as `perfzero report` computes it from the downloaded run, against a hand computation from
# the same timeline: AWS bills per second with a 60 s minimum; c7i.xlarge is $0.1785 an hour.
if [ -n "$perfzero_bin" ]; then
  s3 cp --recursive --only-show-errors "s3://$bucket/$prefix/aws/c7i.xlarge/works-1/" "$work/works/download/works-1/"
  "$perfzero_bin" report "$work/works/download" --out "$work/works/report" --format json,md > "$work/works/report.log" 2>&1
  bill_check() {
    /usr/bin/python3 - "$work/works/download/works-1" "$work/works/report/report.json" << 'EOF'
import glob, json, math, sys
timeline = json.load(open(glob.glob(sys.argv[1] + "/instances/*.json")[0]))
assert timeline["capacity"] == "on_demand" and timeline["end"] == "done" and timeline["shape"] == "c7i.xlarge", timeline
assert timeline["booted_at"] <= timeline["container_started_at"] <= timeline["upload_ended_at"], timeline
billed = max(60, math.ceil(timeline["upload_ended_at"] - timeline["booted_at"]))
report = json.load(open(sys.argv[2]))
e = [c for c in report["configurations"] if c["shape"] == "c7i.xlarge"][0]["experiment"]
assert e["instances"] == 1 and e["capacity"] == "on_demand", e
assert e["billed_seconds"] == billed, (e, billed)
assert abs(e["usd"] - billed / 3600 * 0.1785) < 1e-9 and e["usd"] == e["usd_on_demand"], e
assert e["usd_spot"] is None and e["billing"].startswith("per second, 60 s minimum (aws"), e
assert abs(report["experiment_total"]["usd"] - e["usd"]) < 1e-12, report["experiment_total"]
EOF
  }
  check "works: perfzero report bills the experiment as the timeline says" bill_check
  check "works: the Markdown report shows the cost of the experiment" \
    grep -q "^## The cost of the experiment" "$work/works/report/report.md"
fi
[ "$failures" -eq 0 ] || cat "$work/works/runner.out"

fail_suite=$'suite: runner_fail\ndefaults: {trials: 1, warmup_trials: 0}\nmethods:\n  - name: external.always_fails\n    command: [/bin/sh, -c, "exit 3"]\n    output: none\n'
run_case fail fail-1 "$fail_suite" "" spot
objects=$work/fail/objects
spot_timeline() {
  fetch "$(grep "/fail-1/instances/" "$objects" | head -1 | sed "s|^$prefix/aws/c7i.xlarge/||")" "$work/fail/timeline.json" &&
    /usr/bin/python3 -c 'import json,sys; t=json.load(open(sys.argv[1])); assert t["capacity"] == "spot" and t["end"] == "failed", t' \
      "$work/fail/timeline.json"
}
check "fail: the timeline says spot capacity and a failed end" spot_timeline
check "fail: FAILED marker" has fail-1/FAILED "$objects"
check "fail: no DONE marker" test -z "$(grep '/DONE$' "$objects")"
check "fail: runner log uploaded" has fail-1/logs/runner.log "$objects"
check "fail: container log uploaded" has fail-1/logs/container.log "$objects"
check "fail: the run directory is uploaded too" has fail-1/run.json "$objects"
fetch fail-1/FAILED "$work/fail/FAILED" && check "fail: FAILED names perfzero's exit status" grep -q "perfzero exited 1" "$work/fail/FAILED"

hang_suite=$'suite: runner_hang\ndefaults: {trials: 1, warmup_trials: 0, timeout: 1h}\nmethods:\n  - name: external.hangs\n    command: [/bin/sleep, "3600"]\n    output: none\n'
started=$SECONDS
run_case hang hang-1 "$hang_suite" 15
check "hang: the runner ended within 120 s of a 15 s limit" test $((SECONDS - started)) -lt 120
objects=$work/hang/objects
check "hang: FAILED marker" has hang-1/FAILED "$objects"
check "hang: no DONE marker" test -z "$(grep '/DONE$' "$objects")"
check "hang: logs uploaded" has hang-1/logs/runner.log "$objects"
fetch hang-1/FAILED "$work/hang/FAILED" && check "hang: FAILED says the time limit was reached" grep -q "time limit of 15 s reached" "$work/hang/FAILED"
check "hang: the container is gone" test -z "$(docker ps -aq --filter "name=pz-runner-test-run-$$-hang")"
check "nothing was written outside <prefix>/aws/<system>/<execution_id>/ and images/" \
  test -z "$(s3 ls --recursive "s3://$bucket/" | awk '{print $4}' | grep -v "^$prefix/aws/c7i.xlarge/[a-z]*-1/" | grep -v '^images/')"

# Spot capacity taken back mid-run, then a replacement instance (docs: infra/terraform/cloud-init).
# A local stand-in for EC2's metadata service (IMDSv2: a token, then spot/instance-action, 404 until
# the notice file exists). The first instance uploads as it goes; at the notice it stops the
# container (the running trial ends interrupted), uploads, and ends without a marker. The second,
# with the same execution id, downloads the run, resumes it and finishes: every trial succeeded
# exactly once, as in the uninterrupted run above, and each instance left its timeline.
mport=$(/usr/bin/python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
cat > "$work/imds.py" << 'EOF'
import http.server, os, sys
notice = sys.argv[2]
class H(http.server.BaseHTTPRequestHandler):
    def log_message(self, *a): pass
    def reply(self, code, body=b""):
        self.send_response(code); self.send_header("Content-Length", str(len(body))); self.end_headers(); self.wfile.write(body)
    def do_PUT(self):
        self.reply(200, b"token") if self.path == "/latest/api/token" else self.reply(404)
    def do_GET(self):
        ok = self.path == "/latest/meta-data/spot/instance-action" and self.headers.get("X-aws-ec2-metadata-token") == "token"
        self.reply(200, b'{"action": "terminate"}') if ok and os.path.exists(notice) else self.reply(404)
http.server.HTTPServer(("127.0.0.1", int(sys.argv[1])), H).serve_forever()
EOF
/usr/bin/python3 "$work/imds.py" "$mport" "$work/notice" > "$work/imds.log" 2>&1 &
imds_pid=$!
spot_suite=$'suite: runner_spot\ndefaults: {trials: 8, warmup_trials: 0}\nmethods:\n  - name: nap\n    command: [/bin/sleep, "3"]\n    output: none\n'
run_env=(-e PERFZERO_SYNC_SECONDS=1 -e PERFZERO_PREEMPTION_POLL_SECONDS=1 -e "PERFZERO_METADATA_URL=http://127.0.0.1:$mport"
  -e PERFZERO_INSTANCE_KEY=first)
run_case spot1 spot-1 "$spot_suite" "" spot &
spot_pid=$!
for _ in $(seq 1 600); do # the notice comes mid-run: once the second trial has its report
  [ -f "$work/spot1/state/results/spot-1/nap/trial_2/perfzero_summary.json" ] && break
  sleep 0.2
done
touch "$work/notice"
wait "$spot_pid"
objects=$work/spot1/objects
check "spot: the first instance uploaded the run as it went, journal included" has spot-1/journal.ndjson "$objects"
check "spot: ... and the list of its files, what a replacement reads back by name" has spot-1/uploaded-files.txt "$objects"
check "spot: a preempted instance leaves no DONE and no FAILED" test -z "$(grep -E '/(DONE|FAILED)$' "$objects")"
check "spot: the runner saw the notice and stopped perfzero" grep -q "preempted: perfzero exited" "$work/spot1/runner.out"
rm -f "$work/notice"
run_env=(-e PERFZERO_SYNC_SECONDS=1 -e PERFZERO_INSTANCE_KEY=second)
run_case spot2 spot-1 "$spot_suite" "" spot
objects=$work/spot2/objects
check "spot: the replacement resumed the run" grep -q "resuming the earlier run" "$work/spot2/runner.out"
# The upload loop ends with the container (bash 5.2 once failed a TERM trap there and the runner hung).
no_shell_errors() { ! grep -E "^[^ ]*\.sh: (line [0-9]+|[a-z_]+: line [0-9]+): " "$@"; }
check "spot: no shell error in either runner's output" no_shell_errors "$work/spot1/runner.out" "$work/spot2/runner.out"
check "spot: the replacement finished it (DONE)" has spot-1/DONE "$objects"
s3 cp --recursive --only-show-errors "s3://$bucket/$prefix/aws/c7i.xlarge/spot-1/" "$work/spot2/download/spot-1/"
spot_checks() {
  /usr/bin/python3 - "$work/spot2/download/spot-1" << 'EOF'
import collections, json, sys
run = sys.argv[1]
ends = collections.Counter()
outcomes = []
for line in open(run + "/journal.ndjson"):
    e = json.loads(line)
    if e["event"] == "trial" and not e["trial"]["warmup"]:
        outcomes.append((e["trial"]["trial"], e["trial"]["outcome"]))
        if e["trial"]["outcome"] == "succeeded":
            ends[e["trial"]["trial"]] += 1
assert sorted(ends) == list(range(1, 9)) and set(ends.values()) == {1}, outcomes  # none twice, none lost
import os
listed = open(run + "/uploaded-files.txt").read().split()
assert "nap/trial_1/perfzero_summary.json" in listed and "journal.ndjson" not in listed, listed
assert all(os.path.isfile(os.path.join(run, name)) for name in listed), listed
assert {o for _, o in outcomes} <= {"succeeded", "interrupted"}, outcomes  # the notice stops a trial, fails none
first = json.load(open(run + "/instances/first.json"))
second = json.load(open(run + "/instances/second.json"))
assert first["end"] == "preempted" and second["end"] == "done", (first, second)
assert first["capacity"] == second["capacity"] == "spot", (first, second)
EOF
}
check "spot: every trial succeeded once across both instances, the stopped one interrupted" spot_checks
if [ -n "$perfzero_bin" ]; then
  "$perfzero_bin" report "$work/spot2/download" --out "$work/spot2/report" --format json > "$work/spot2/report.log" 2>&1
  check "spot: the report counts both instances, one preempted" /usr/bin/python3 -c '
import json, sys
e = json.load(open(sys.argv[1]))["configurations"][0]["experiment"]
assert e["instances"] == 2 and e["preempted"] == 1 and e["capacity"] == "spot" and e["usd"] is None, e' \
    "$work/spot2/report/report.json"
fi
kill "$imds_pid" 2> /dev/null
run_env=()

[ "$failures" -eq 0 ] || for c in fail hang spot1 spot2; do echo "--- $c runner output"; cat "$work/$c/runner.out"; done
echo "$failures failed"
[ "$failures" -eq 0 ]
