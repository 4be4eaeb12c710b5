#!/usr/bin/env bash
# Runs a command (the service) with FLEET_FILE set to test/dredd/fleet.json moved onto a block of
# game ports that no other test run on this machine holds: slot N of 24 shifts every node's range by
# N*250 (22000-27999 in all). A slot is taken with `flock` on a lock file in /tmp; the lock is held
# by a small watcher that outlives the command (not by the command: game servers would inherit it),
# so two `npm test` runs never hand out the same game ports. Needs DATA_DIR (the fleet goes there).
set -euo pipefail
: "${DATA_DIR:?with-port-slot.sh needs DATA_DIR}"
template=$(dirname "$0")/fleet.json
slot=
for candidate in $(seq 0 23); do
  exec {lock_fd}>"${TMPDIR:-/tmp}/session-host-test-ports.$candidate.lock"
  if flock -n "$lock_fd"; then slot=$candidate; break; fi
  exec {lock_fd}>&-
done
[ -n "$slot" ] || { echo "with-port-slot.sh: all 24 test port slots are taken (24 test runs at once?)" >&2; exit 1; }

# Holds the slot while this PID (the command, after exec) lives, and 3 s more for its supervisors' end.
( while kill -0 $$ 2>/dev/null; do sleep 1; done; sleep 3 ) </dev/null >/dev/null 2>&1 &
exec {lock_fd}>&-

export FLEET_FILE=$DATA_DIR/test-fleet.json
node -e '
  const fs = require("node:fs");
  const [template, target, offset] = process.argv.slice(1);
  const fleet = JSON.parse(fs.readFileSync(template, "utf8"));
  for (const location of fleet.locations) for (const node of location.nodes) {
    node.ports.from += Number(offset);
    node.ports.to += Number(offset);
  }
  fs.writeFileSync(target, JSON.stringify(fleet, null, 2));
' "$template" "$FLEET_FILE" "$((slot * 250))"
exec "$@"
