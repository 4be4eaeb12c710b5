#!/usr/bin/env bash
# Start two Docker engines (the two nodes of the Docker runtime tests) without systemd, each with
# its own data root, exec root, socket, pid file and bridge, then import the test image into both.
# Idempotent: an engine already answering on its socket with the same settings is left alone; one
# started with other settings (an older version of this script) is restarted. Prints the line
#   SESSION_HOST_DOCKER_ENGINES=unix:///run/session-host-docker1.sock,unix:///run/session-host-docker2.sock
# which callers export (the Docker runtime tests skip without it). Needs root.
#
# Set up as deploy/docker/README.md asks of a production engine host:
# - Volumes (<data root>/volumes) mounted nosuid,nodev.
# - Session networks (one per session, bridges `shs-*`) from an address pool of small subnets, one
#   pool per engine (the two engines share this host's routing table).
# - deploy/docker/session-host-firewall.nft: no session reaches the host or another session.
# Networking: iptables is off (no NAT rules are written on the host, nothing reaches outside), so
# published ports are served by Docker's userland proxy (docker-proxy), which listens on the host
# port and forwards to the container's address on its session network.
set -euo pipefail
cd "$(dirname "$0")/../.."
BASE=${SESSION_HOST_DOCKER_BASE:-/var/lib/session-host-docker}
nft -f deploy/docker/session-host-firewall.nft
engines=()
for n in 1 2; do
  sock=/run/session-host-docker$n.sock
  bridge=shb$n
  args=(--data-root "$BASE/$n/data" --exec-root "$BASE/$n/exec"
    -H "unix://$sock" --pidfile "$BASE/$n/dockerd.pid"
    --iptables=false --ip-forward=false --ip-masq=false --userland-proxy=true --live-restore
    --bridge "$bridge" --default-address-pool "base=10.$((213 + n * 2)).0.0/16,size=28" --log-level warn)
  settings=$(echo "${args[*]} $(sha256sum <"$0")" | sha256sum | cut -c1-16)
  if docker -H "unix://$sock" version >/dev/null 2>&1 && [ "$(cat "$BASE/$n/settings" 2>/dev/null)" != "$settings" ]; then
    echo "engine $n runs with other settings: restarting it" >&2
    ids=$(docker -H "unix://$sock" ps -aq)
    [ -n "$ids" ] && docker -H "unix://$sock" rm -f $ids >/dev/null
    kill "$(cat "$BASE/$n/dockerd.pid")" 2>/dev/null || true
  fi
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
    mkdir -p "$BASE/$n/data/volumes" "$BASE/$n/exec"
    # Volumes (each session's /work) on a nosuid,nodev mount: a setuid file or a device node
    # written there takes no effect inside the container (volume mounts keep the flags of their source).
    # The data root is made a mount point first: dockerd then keeps its submounts (it bind-mounts a
    # data root that is not one onto itself, hiding what is mounted below).
    mountpoint -q "$BASE/$n/data" || mount --bind "$BASE/$n/data" "$BASE/$n/data"
    if ! mountpoint -q "$BASE/$n/data/volumes"; then
      mount --bind "$BASE/$n/data/volumes" "$BASE/$n/data/volumes"
      mount -o remount,bind,nosuid,nodev "$BASE/$n/data/volumes"
    fi
    # containerd is started by dockerd itself (one per engine, under its exec root).
    nohup dockerd "${args[@]}" >"$BASE/$n/dockerd.log" 2>&1 </dev/null &
    for _ in $(seq 1 150); do
      docker -H "unix://$sock" version >/dev/null 2>&1 && break
      sleep 0.2
    done
    docker -H "unix://$sock" version >/dev/null 2>&1 || { echo "dockerd $n did not start; its log:" >&2; tail -30 "$BASE/$n/dockerd.log" >&2; exit 1; }
    echo "$settings" >"$BASE/$n/settings"
  fi
  engines+=("unix://$sock")
done
for engine in "${engines[@]}"; do
  bash test/docker/build-image.sh "$engine" >&2
done
(IFS=,; echo "SESSION_HOST_DOCKER_ENGINES=${engines[*]}")
