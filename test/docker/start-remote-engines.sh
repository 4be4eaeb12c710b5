#!/usr/bin/env bash
# Test hosts for remote Docker nodes: three network namespaces (shrn1..3), each a "host" with one
# dockerd listening only on TCP with mutual TLS at its own address; a fourth (shrnc) plays the
# players' side; a fifth (shrnr) holds a Docker registry (Debian's docker-registry) holding the
# test image as $REGISTRY/session-host-echo:remote. All of them hang off one bridge (shlan0) on
# this machine, which has no uplink: nothing leaves the machine. This (the service's) namespace is
# 10.231.0.1, node n is 10.231.0.1n, the registry 10.231.0.99, the client 10.231.0.100.
#
# Certificates are made here with openssl under $BASE/tls: a CA, one server certificate per
# engine (its address as subjectAltName), the service's client certificate, and a client
# certificate from another CA (rogue-*.pem) that the engines must refuse.
#
# Idempotent, as start-engines.sh (which must have run: the test image is copied from engine 1):
# what runs with the same settings is left alone, a killed engine or a deleted namespace is made
# again. Prints the lines callers export:
#   SESSION_HOST_REMOTE_ENGINES=tcp://10.231.0.11:2376,tcp://10.231.0.12:2376,tcp://10.231.0.13:2376
#   SESSION_HOST_REMOTE_TLS=<dir of ca.pem, client.pem, client-key.pem, rogue-*.pem>
# Needs root.
set -euo pipefail
cd "$(dirname "$0")/../.."
BASE=${SESSION_HOST_REMOTE_BASE:-/var/lib/session-host-remote}
LOCAL_ENGINE=${SESSION_HOST_LOCAL_ENGINE:-unix:///run/session-host-docker1.sock}
IMAGE=${SESSION_HOST_TEST_IMAGE:-session-host-echo:test}
LAN=shlan0 NET=10.231.0 REGISTRY=10.231.0.99:5000
TLS=$BASE/tls
mkdir -p "$TLS"

# --- certificates (made once) ---
openssl_quiet() { openssl "$@" >/dev/null 2>&1; }
key=(-newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes)
certificate() { # name, CA prefix, extension
  [ -f "$TLS/$1.pem" ] && return 0
  openssl_quiet req "${key[@]}" -keyout "$TLS/$1-key.pem" -out "$TLS/$1.csr" -subj "/CN=$1"
  echo "$3" >"$TLS/$1.ext"
  openssl_quiet x509 -req -in "$TLS/$1.csr" -CA "$TLS/$2.pem" -CAkey "$TLS/$2-key.pem" -CAcreateserial -out "$TLS/$1.pem" -days 3650 -extfile "$TLS/$1.ext"
}
for ca in ca rogue-ca; do
  [ -f "$TLS/$ca.pem" ] || openssl_quiet req -x509 "${key[@]}" -keyout "$TLS/$ca-key.pem" -out "$TLS/$ca.pem" -subj "/CN=session-host test $ca" -days 3650
done
certificate client ca extendedKeyUsage=clientAuth
certificate rogue-client rogue-ca extendedKeyUsage=clientAuth
for n in 1 2 3; do certificate "server-$n" ca "subjectAltName=IP:$NET.1$n"; done
# A server certificate for node 1's address from the rogue CA: an impostor engine the service must refuse.
certificate rogue-server-1 rogue-ca "subjectAltName=IP:$NET.11"
chmod 600 "$TLS"/*-key.pem

# --- the bridge and the namespaces ---
if ! ip link show "$LAN" >/dev/null 2>&1; then
  ip link add "$LAN" type bridge
  ip addr add "$NET.1/24" dev "$LAN"
fi
ip link set "$LAN" up
namespace() { # name, address
  local ns=$1 veth=$1h
  ip netns list | grep -qw "^$ns" || ip netns add "$ns"
  if ! ip link show "$veth" >/dev/null 2>&1; then
    ip link add "$veth" type veth peer name eth0 netns "$ns"
    ip link set "$veth" master "$LAN" up
    ip -n "$ns" addr add "$2/24" dev eth0
  fi
  ip -n "$ns" link set lo up
  ip -n "$ns" link set eth0 up
}
for n in 1 2 3; do namespace "shrn$n" "$NET.1$n"; done
namespace shrnc "$NET.100"
namespace shrnr "$NET.99"

# --- the registry ---
mkdir -p "$BASE/registry/data"
cat >"$BASE/registry/config.yml" <<CONFIG
version: 0.1
log: { level: warn }
storage: { filesystem: { rootdirectory: $BASE/registry/data }, delete: { enabled: true } }
http: { addr: "$REGISTRY" }
CONFIG
if ! ip netns pids shrnr | grep -q .; then
  ip netns exec shrnr nohup docker-registry serve "$BASE/registry/config.yml" >"$BASE/registry/log" 2>&1 </dev/null &
fi

# --- one engine per node namespace ---
engines=()
for n in 1 2 3; do
  ns=shrn$n dir=$BASE/$n address=tcp://$NET.1$n:2376
  args=(--data-root "$dir/data" --exec-root "$dir/exec" --pidfile "$dir/dockerd.pid" -H "$address"
    --tlsverify --tlscacert "$TLS/ca.pem" --tlscert "$TLS/server-$n.pem" --tlskey "$TLS/server-$n-key.pem"
    --iptables=false --ip-forward=false --ip-masq=false --userland-proxy=true --live-restore
    --insecure-registry "$REGISTRY" --default-address-pool "base=10.232.0.0/16,size=28" --log-level warn)
  docker=(docker --tlsverify --tlscacert "$TLS/ca.pem" --tlscert "$TLS/client.pem" --tlskey "$TLS/client-key.pem" -H "$address")
  settings=$(echo "${args[*]} $(sha256sum <"$0")" | sha256sum | cut -c1-16)
  if "${docker[@]}" version >/dev/null 2>&1 && [ "$(cat "$dir/settings" 2>/dev/null)" != "$settings" ]; then
    echo "remote engine $n runs with other settings: restarting it" >&2
    bash test/docker/stop-remote-engines.sh --engine-only "$n"
  fi
  if ! "${docker[@]}" version >/dev/null 2>&1; then
    if [ -f "$dir/dockerd.pid" ]; then
      old=$(cat "$dir/dockerd.pid")
      for _ in $(seq 1 100); do kill -0 "$old" 2>/dev/null || break; sleep 0.1; done
      kill -9 "$old" 2>/dev/null || true
      rm -f "$dir/dockerd.pid"
    fi
    mkdir -p "$dir/data/volumes" "$dir/exec"
    # As start-engines.sh: volumes nosuid,nodev, the data root a mount point of its own.
    mountpoint -q "$dir/data" || mount --bind "$dir/data" "$dir/data"
    if ! mountpoint -q "$dir/data/volumes"; then
      mount --bind "$dir/data/volumes" "$dir/data/volumes"
      mount -o remount,bind,nosuid,nodev "$dir/data/volumes"
    fi
    # The node's host firewall (its own namespace, its own nftables).
    ip netns exec "$ns" nft -f deploy/docker/session-host-firewall.nft
    # Up to three tries: on a loaded machine a dockerd restarted after a SIGKILL can give up
    # waiting for its containerd (still the killed one's, or slow to start); the next try finds it up.
    : >"$dir/dockerd.log"
    for attempt in 1 2 3; do
      # nsenter, not `ip netns exec`: that mounts a fresh /sys, hiding the cgroup mounts dockerd needs.
      nsenter --net="/run/netns/$ns" nohup dockerd "${args[@]}" >>"$dir/dockerd.log" 2>&1 </dev/null &
      started=$!
      for _ in $(seq 1 150); do
        "${docker[@]}" version >/dev/null 2>&1 && break
        kill -0 "$started" 2>/dev/null || break
        sleep 0.2
      done
      "${docker[@]}" version >/dev/null 2>&1 && break
      echo "remote dockerd $n did not start (try $attempt)" >&2
      kill -9 "$started" 2>/dev/null || true
      # A containerd left from the killed engine holds its state: gone, the next dockerd starts its
      # own (the game servers' shims keep running and are found again).
      pkill -9 -f "containerd --config $dir/exec/containerd/containerd.toml" 2>/dev/null || true
      rm -f "$dir/dockerd.pid"
      sleep 1
    done
    "${docker[@]}" version >/dev/null 2>&1 || { echo "remote dockerd $n did not start; its log:" >&2; tail -30 "$dir/dockerd.log" >&2; exit 1; }
    echo "$settings" >"$dir/settings"
  fi
  # The test image, copied from the local engine unless the node has that very image.
  want=$(docker -H "$LOCAL_ENGINE" image inspect -f '{{.Id}}' "$IMAGE")
  if [ "$("${docker[@]}" image inspect -f '{{.Id}}' "$IMAGE" 2>/dev/null || true)" != "$want" ]; then
    docker -H "$LOCAL_ENGINE" save "$IMAGE" | "${docker[@]}" load >/dev/null
  fi
  engines+=("$address")
done

# The registry's copy of the test image, pushed from node 1 (then untagged there: a pull is a pull).
docker=(docker --tlsverify --tlscacert "$TLS/ca.pem" --tlscert "$TLS/client.pem" --tlskey "$TLS/client-key.pem" -H "${engines[0]}")
for _ in $(seq 1 50); do curl -fsS "http://$REGISTRY/v2/" >/dev/null 2>&1 && break; sleep 0.1; done
if ! curl -fsS "http://$REGISTRY/v2/session-host-echo/manifests/remote" -H 'Accept: application/vnd.docker.distribution.manifest.v2+json' >/dev/null 2>&1; then
  "${docker[@]}" tag "$IMAGE" "$REGISTRY/session-host-echo:remote"
  "${docker[@]}" push "$REGISTRY/session-host-echo:remote" >/dev/null
  "${docker[@]}" rmi "$REGISTRY/session-host-echo:remote" >/dev/null
fi
(IFS=,; echo "SESSION_HOST_REMOTE_ENGINES=${engines[*]}")
echo "SESSION_HOST_REMOTE_TLS=$TLS"
