#!/usr/bin/env bash
# Starts the real server for Dredd (dredd.yml `server:`) on a fresh, throw-away data directory.
set -euo pipefail
cd "$(dirname "$0")/../.."

data_dir=$(mktemp -d "${TMPDIR:-/tmp}/session-host-dredd.XXXXXX")
# exec below keeps this PID, so Dredd's SIGTERM reaches the server (node runs the server itself, no wrapper process).
# A detached watcher removes the data directory once that PID is gone, however it ended.
( while kill -0 $$ 2>/dev/null; do sleep 1; done; rm -rf "$data_dir" ) </dev/null >/dev/null 2>&1 &

export DATA_DIR=$data_dir
export HOST=127.0.0.1 PORT=18931  # must match dredd.yml `endpoint`
export BOOTSTRAP_TOKEN=gsh_DreddContractTest0123456789abcdefghijklm  # must match hooks.cjs
export LOG_LEVEL=warn
exec node --import tsx server/main.ts
