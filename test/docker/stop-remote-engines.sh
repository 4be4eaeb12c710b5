#!/usr/bin/env bash
# Take down what start-remote-engines.sh made. With node numbers, only those nodes: their engine,
# containers and namespace, as a host that died for good (`--engine-only`: the engine and its
# containers, the namespace stays). Without, everything: the nodes, the client and registry
# namespaces and the bridge (certificates and registry data stay for the next start).
set -uo pipefail
BASE=${SESSION_HOST_REMOTE_BASE:-/var/lib/session-host-remote}
engine_only=false
if [ "${1:-}" = --engine-only ]; then engine_only=true; shift; fi
nodes=("$@")
[ ${#nodes[@]} -eq 0 ] && nodes=(1 2 3)
kill_namespace() { # every process in it, at once and for good (containers run in namespaces below it: their cgroup goes too)
  local pids
  pids=$(ip netns pids "$1" 2>/dev/null)
  [ -n "$pids" ] && kill -9 $pids 2>/dev/null
  for _ in $(seq 1 50); do [ -z "$(ip netns pids "$1" 2>/dev/null)" ] && break; sleep 0.1; done
}
for n in "${nodes[@]}"; do
  dir=$BASE/$n
  # The containers first (their processes live in namespaces of their own, not the node's).
  if [ -f "$dir/dockerd.pid" ]; then
    pid=$(cat "$dir/dockerd.pid")
    # The node's containers are the children of its containerd's shims.
    for shim in $(pgrep -f "containerd-shim.*$dir/exec" 2>/dev/null); do
      pkill -9 -P "$shim" 2>/dev/null
    done
    kill -9 "$pid" 2>/dev/null
  fi
  kill_namespace "shrn$n"
  rm -f "$dir/dockerd.pid"
  if ! $engine_only; then
    ip netns del "shrn$n" 2>/dev/null
    ip link del "shrn${n}h" 2>/dev/null
  fi
done
if [ $# -eq 0 ] && ! $engine_only; then
  for ns in shrnc shrnr; do kill_namespace "$ns"; ip netns del "$ns" 2>/dev/null; ip link del "${ns}h" 2>/dev/null; done
  ip link del shlan0 2>/dev/null
  for n in 1 2 3; do
    mountpoint -q "$BASE/$n/data/volumes" 2>/dev/null && umount -l "$BASE/$n/data/volumes"
    mountpoint -q "$BASE/$n/data" 2>/dev/null && umount -l "$BASE/$n/data"
  done
fi
exit 0
