#!/usr/bin/env bash
# Stop the engines start-engines.sh started (their containers first), unmount their volume
# filesystems and remove their bridges and the firewall table.
set -uo pipefail
BASE=${SESSION_HOST_DOCKER_BASE:-/var/lib/session-host-docker}
for n in 1 2; do
  sock=/run/session-host-docker$n.sock
  if docker -H "unix://$sock" version >/dev/null 2>&1; then
    ids=$(docker -H "unix://$sock" ps -aq)
    [ -n "$ids" ] && docker -H "unix://$sock" rm -f $ids >/dev/null
  fi
  if [ -f "$BASE/$n/dockerd.pid" ]; then
    pid=$(cat "$BASE/$n/dockerd.pid")
    kill "$pid" 2>/dev/null
    for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  fi
  # dockerd bind-mounts its data root onto itself; a stop can leave the mount behind.
  if mountpoint -q "$BASE/$n/data/volumes" 2>/dev/null; then umount -l "$BASE/$n/data/volumes"; fi
  if mountpoint -q "$BASE/$n/data" 2>/dev/null; then umount -l "$BASE/$n/data"; fi
  ip link show "shb$n" >/dev/null 2>&1 && ip link del "shb$n"
done
nft delete table inet session_host_docker 2>/dev/null
exit 0
