#!/usr/bin/env bash
# Start two Docker engines (the two nodes of the Docker runtime tests) without systemd, each with
# its own data root, exec root, socket, pid file and bridge, then import the test image into both.
# Idempotent: an engine already answering on its socket is left alone. Prints the line
#   SESSION_HOST_DOCKER_ENGINES=unix:///run/session-host-docker1.sock,unix:///run/session-host-docker2.sock
# which callers export (the Docker runtime tests skip without it). Needs root.
#
# Networking: iptables is off (no NAT rules are written on the host), so published ports are
# served by Docker's userland proxy (docker-proxy), which listens on the host port and forwards
# to the container's address on the engine's own bridge (shb1/shb2, 10.213.N.0/24).
set -euo pipefail
cd "$(dirname "$0")/../.."
BASE=${SESSION_HOST_DOCKER_BASE:-/var/lib/session-host-docker}
engines=()
for n in 1 2; do
  sock=/run/session-host-docker$n.sock
  bridge=shb$n
  if ! ip link show "$bridge" >/dev/null 2>&1; then
    ip link add "$bridge" type bridge
    ip addr add "10.213.$n.1/24" dev "$bridge"
  fi
  ip link set "$bridge" up
  if ! docker -H "unix://$sock" version >/dev/null 2>&1; then
    # An engine still shutting down holds its pid file: let it finish first.
    if [ -f "$BASE/$n/dockerd.pid" ]; then
      old=$(cat "$BASE/$n/dockerd.pid")
      for _ in $(seq 1 100); do kill -0 "$old" 2>/dev/null || break; sleep 0.1; done
    fi
    mkdir -p "$BASE/$n/data" "$BASE/$n/exec"
    # containerd is started by dockerd itself (one per engine, under its exec root).
    nohup dockerd \
      --data-root "$BASE/$n/data" --exec-root "$BASE/$n/exec" \
      -H "unix://$sock" --pidfile "$BASE/$n/dockerd.pid" \
      --iptables=false --ip-forward=false --ip-masq=false --userland-proxy=true --live-restore \
      --bridge "$bridge" --log-level warn \
      >"$BASE/$n/dockerd.log" 2>&1 </dev/null &
    for _ in $(seq 1 150); do
      docker -H "unix://$sock" version >/dev/null 2>&1 && break
      sleep 0.2
    done
    docker -H "unix://$sock" version >/dev/null 2>&1 || { echo "dockerd $n did not start; its log:" >&2; tail -30 "$BASE/$n/dockerd.log" >&2; exit 1; }
  fi
  engines+=("unix://$sock")
done
for engine in "${engines[@]}"; do
  bash test/docker/build-image.sh "$engine" >&2
done
(IFS=,; echo "SESSION_HOST_DOCKER_ENGINES=${engines[*]}")
