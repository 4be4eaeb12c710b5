#!/usr/bin/env bash
# Build the test image `session-host-echo:test` without a registry: a rootfs holding this
# machine's Node binary, the shared libraries `ldd` lists for it, and the sample echo server (with the SDK client it imports: every server/sample/*.mjs),
# tarred and `docker import`ed into the engine given as $1 (e.g. unix:///run/session-host-docker1.sock).
# Skips the import when the engine already has an image built from the same inputs.
set -euo pipefail
cd "$(dirname "$0")/../.."
ENGINE=${1:?usage: build-image.sh <engine address>}
IMAGE=${SESSION_HOST_TEST_IMAGE:-session-host-echo:test}
NODE=$(readlink -f "$(command -v node)")
OUT=${SESSION_HOST_DOCKER_BUILD:-/tmp/session-host-docker-build}
# Identified by its inputs (node, its libraries, the echo server, this script): unchanged inputs, no import.
digest=$(cat "$NODE" $(ldd "$NODE" | grep -o '/[^ ]*') server/sample/*.mjs "$0" | sha256sum | cut -c1-16)
docker=(docker -H "$ENGINE")
if [ "$("${docker[@]}" image inspect -f '{{index .Config.Labels "rootfs"}}' "$IMAGE" 2>/dev/null || true)" = "$digest" ]; then
  echo "$ENGINE: $IMAGE is up to date"
  exit 0
fi
rootfs=$OUT/rootfs
rm -rf "$rootfs"
mkdir -p "$OUT" "$rootfs/usr/local/bin" "$rootfs/app" "$rootfs/work" "$rootfs/tmp" "$rootfs/etc"
cp "$NODE" "$rootfs/usr/local/bin/node"
for lib in $(ldd "$NODE" | grep -o '/[^ ]*'); do
  mkdir -p "$rootfs$(dirname "$lib")"
  cp -L "$lib" "$rootfs$lib"
done
cp server/sample/*.mjs "$rootfs/app/"
echo 'game:x:1000:1000::/work:/usr/sbin/nologin' >"$rootfs/etc/passwd"
echo 'game:x:1000:' >"$rootfs/etc/group"
chown 1000:1000 "$rootfs/work"
chmod 1777 "$rootfs/tmp"
tar -C "$rootfs" --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner -cf "$OUT/rootfs.tar" \
  --exclude=./work . 
tar -C "$rootfs" --numeric-owner -rf "$OUT/rootfs.tar" ./work
# ECHO_BIND: inside a container the echo server binds every address of its own network
# namespace; the published host port reaches it through the engine's proxy.
"${docker[@]}" import \
  --change 'ENV PATH=/usr/local/bin:/usr/bin:/bin ECHO_BIND=0.0.0.0' \
  --change 'WORKDIR /work' \
  --change 'USER 1000:1000' \
  --change 'ENTRYPOINT ["/usr/local/bin/node", "/app/echo-server.mjs"]' \
  --change "LABEL rootfs=$digest" \
  "$OUT/rootfs.tar" "$IMAGE" >/dev/null
echo "$ENGINE: imported $IMAGE ($(du -h "$OUT/rootfs.tar" | cut -f1))"
