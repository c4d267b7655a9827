#!/usr/bin/env bash
# Stops the Swift daemons start.sh launched (by the pids it recorded, nothing else) and
# removes the state dir. Safe to run when nothing runs.
# Usage: stop.sh [STATE_DIR]   (default $SLOTLINE_SWIFT_DIR or /tmp/slotline-swift)
set -euo pipefail

STATE=${1:-${SLOTLINE_SWIFT_DIR:-/tmp/slotline-swift}}
[[ -d $STATE ]] || exit 0

pids=()
for file in "$STATE"/*.pid; do
  [[ -f $file ]] || continue
  pid=$(cat "$file")
  kill -TERM "$pid" 2>/dev/null && pids+=("$pid")
done
# A bounded wait for a clean exit, then SIGKILL for whatever still holds its port.
for _ in $(seq 50); do
  left=()
  for pid in "${pids[@]}"; do kill -0 "$pid" 2>/dev/null && left+=("$pid"); done
  ((${#left[@]} == 0)) && break
  sleep 0.1
done
for pid in "${pids[@]}"; do kill -KILL "$pid" 2>/dev/null || true; done
rm -rf "$STATE"
