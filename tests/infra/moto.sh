# shellcheck shell=bash
# The infra tests' AWS (sourced): moto in server mode (PyPI, in the virtual environment that
# scripts/install-deps.sh makes) answers S3 and Secrets Manager from one local process, with IAM
# authentication on (tests/infra/moto_setup.py makes the user and its key), so a request signed
# with a wrong key is refused as AWS refuses it. Needs checks.sh's skip.

venv=${PERFZERO_VENV:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)/build/venv}

# moto_require: skips the test (checks.sh) when the virtual environment lacks moto.
moto_require() {
  [ -x "$venv/bin/moto_server" ] || skip "moto is not installed in $venv (scripts/install-deps.sh makes it)"
}

# moto_start ADDRESS LOG BUCKET [SECRET_NAME SECRET_FILE]: starts moto on ADDRESS (a free port),
# makes the bucket (and the secret), and sets moto_pid, moto_endpoint and, exported, the signed
# user's AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (and MOTO_SECRET_ARN). Returns 1, the log
# printed, when the server does not come up.
moto_start() {
  local address=$1 log=$2 bucket=$3 port setup
  shift 3
  port=$("$venv/bin/python" -c "import socket; s=socket.socket(); s.bind(('$address', 0)); print(s.getsockname()[1])")
  # 3: the calls moto_setup.py makes before it has a key (moto authenticates every later request).
  INITIAL_NO_AUTH_ACTION_COUNT=3 "$venv/bin/moto_server" -H "$address" -p "$port" > "$log" 2>&1 &
  moto_pid=$!
  moto_endpoint=http://$address:$port
  for _ in $(seq 1 100); do
    "$venv/bin/python" -c "import socket; socket.create_connection(('$address', $port), 1)" 2> /dev/null && break
    sleep 0.2
  done
  if ! setup=$("$venv/bin/python" "$(dirname "${BASH_SOURCE[0]}")/moto_setup.py" "$moto_endpoint" "$bucket" "$@" 2>> "$log"); then
    echo "moto did not come up at $moto_endpoint:"
    tail -n 20 "$log"
    return 1
  fi
  eval "$setup"
  export AWS_ACCESS_KEY_ID AWS_SECRET_ACCESS_KEY AWS_DEFAULT_REGION=us-east-1 AWS_EC2_METADATA_DISABLED=true
  [ -z "${MOTO_SECRET_ARN:-}" ] || export MOTO_SECRET_ARN
}
