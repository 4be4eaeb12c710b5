#!/usr/bin/env bash
# Starts the real server for Dredd (dredd.yml `server:`) on a fresh, throw-away data directory.
set -euo pipefail
cd "$(dirname "$0")/../.."

data_dir=$(mktemp -d "${TMPDIR:-/tmp}/session-host-dredd.XXXXXX")
# exec below keeps this PID, so Dredd's SIGTERM reaches the server (node runs the server itself, no wrapper process).
# A detached watcher cleans up once that PID is gone, however it ended. Session supervisors
# deliberately outlive the service (hooks.cjs afterAll stops every session over HTTP); any still
# running then get SIGTERM (they stop their game server) before the data directory goes.
(
  while kill -0 $$ 2>/dev/null; do sleep 1; done
  for state in "$data_dir"/sessions/*/state.json; do
    [ -f "$state" ] || continue
    pid=$(sed -n 's/.*"supervisorPid":\([0-9][0-9]*\).*/\1/p' "$state")
    # Only if that PID is still a supervisor (PIDs get reused); never fail the watcher.
    if [ -n "$pid" ] && grep -qa supervisor.mjs "/proc/$pid/cmdline" 2>/dev/null; then kill -TERM "$pid" 2>/dev/null || true; fi
  done
  sleep 2 # let them write their end state and exit before their directories vanish
  rm -rf "$data_dir"
) </dev/null >/dev/null 2>&1 &

export DATA_DIR=$data_dir
# test/dredd/fleet.json (small port ranges and a locked location `maintenance`, to provoke POST
# /session 420), moved by with-port-slot.sh onto game ports no other test run holds.
# test/dredd/run.mjs picks a free port (DREDD_PORT) and gives Dredd the matching endpoint; a plain
# `npx dredd` uses dredd.yml's endpoint, 18931.
export HOST=127.0.0.1 PORT=${DREDD_PORT:-18931}
export BOOTSTRAP_TOKEN=gsh_DreddContractTest0123456789abcdefghijklm  # must match hooks.cjs
export ADMIN_EMAIL=dredd-admin@example.com ADMIN_PASSWORD=dredd-admin-password  # must match hooks.cjs
export LOG_LEVEL=warn
# The PostgreSQL pass (SESSION_HOST_TEST_STORE=postgres): a fresh database in the run's cluster.
if [ "${SESSION_HOST_TEST_STORE:-}" = postgres ]; then export "$(node test/support/postgres.mjs database dredd)"; fi
# 128 KiB of labels, args and players per account, so that shapes.cjs can fill an account's
# storage budget with three joins (PUT /session/player/join 403); the run's own sessions hold a
# few hundred bytes.
export STORAGE_BUDGET_MIB=0.125
# hooks.cjs receives webhooks on loopback: the operator setting that allows it (refused by default).
export WEBHOOK_ALLOWED_NETWORKS=127.0.0.0/8
exec bash test/dredd/with-port-slot.sh node --import tsx server/main.ts
