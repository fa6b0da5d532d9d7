#!/bin/sh
# iperf3 between the first two ranks of a two-host method, as users run it: the peer that
# network.Tcp.benchmark_throughput is compared to. Rank 1 serves one test (iperf3 -s -1) on the
# address its host name resolves to and publishes that address in the trial directory; rank 0 runs
# the client against it with the arguments given here, to which perfzero adds --json and --logfile
# (output: iperf3, docs/suites.md). Other ranks take no part.
#   usage (in a suite): command: [/bin/sh, iperf3_pair.sh, -t, "5"]   launch: {engine: slurm, nodes: 2}
# IPERF3_PORT: the server's port (default 5201).
set -eu
published="${PERFZERO_TRIAL_DIR:?runs under perfzero, which sets PERFZERO_TRIAL_DIR}/iperf3_server"
port="${IPERF3_PORT:-5201}"
case "${PERFZERO_RANK:-0}" in
  1)
    address="$(getent ahostsv4 "$(hostname)" | awk 'NR == 1 { print $1 }')"
    # One test, and no waiting for ever when rank 0 never comes (its own failure is the one to see).
    iperf3 --server --one-off --idle-timeout 120 --port "$port" --bind "$address" >/dev/null &
    server=$!
    # Listening before rank 0 is told where: the port in LISTEN state (0A) in /proc/net/tcp, which a
    # fixed pause could not promise on a loaded host.
    hex_port="$(printf '%04X' "$port")"
    tries=0
    until awk -v p=":$hex_port" '$2 ~ p"$" && $4 == "0A" { found = 1 } END { exit !found }' /proc/net/tcp; do
      kill -0 "$server" 2>/dev/null || { echo "iperf3 --server on port $port ended" >&2; exit 1; }
      [ "$tries" -lt 300 ] || { echo "iperf3 --server on port $port did not listen within 30 s" >&2; exit 1; }
      sleep 0.1
      tries=$((tries + 1))
    done
    echo "$address" >"$published.tmp" && mv "$published.tmp" "$published"
    wait "$server"
    ;;
  0)
    if [ "${PERFZERO_WORLD_SIZE:-1}" -lt 2 ]; then
      echo "iperf3_pair.sh needs two ranks on two hosts: launch: {engine: slurm, nodes: 2}" >&2
      exit 2
    fi
    tries=0
    while [ ! -s "$published" ] && [ "$tries" -lt 600 ]; do
      sleep 0.1
      tries=$((tries + 1))
    done
    [ -s "$published" ] || {
      echo "rank 1's iperf3 server did not start within 60 s" >&2
      exit 1
    }
    exec iperf3 --client "$(cat "$published")" --port "$port" "$@"
    ;;
esac
