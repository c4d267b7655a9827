#!/usr/bin/env bash
# Stops the Exim started by start.sh (its pid file under the state directory).
set -uo pipefail
DIR="${SLOTLINE_EXIM_DIR:-/tmp/slotline-exim}"
if [ -f "$DIR/spool/exim.pid" ]; then
  kill "$(cat "$DIR/spool/exim.pid")" 2>/dev/null || true
  rm -f "$DIR/spool/exim.pid"
fi
# Whatever daemon still runs this state directory's configuration.
pkill -f "exim4 -C $DIR/exim.conf" 2>/dev/null || true
