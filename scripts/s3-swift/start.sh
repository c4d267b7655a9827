#!/usr/bin/env bash
# Starts a throwaway OpenStack Swift (Debian's 2.30) with the s3api middleware on 127.0.0.1,
# creates one bucket through the S3 API and prints `SLOTLINE_TEST_S3_URL=...` on stdout: the
# real-server check for the S3 blob store (s3rver is the quick one). Everything else goes to
# stderr or to log files in the state dir. Running it again while it runs just prints the URL.
#
# Usage: start.sh [STATE_DIR]   (default $SLOTLINE_SWIFT_DIR or /tmp/slotline-swift)
# Env: SLOTLINE_SWIFT_PORT (proxy, default 18080; the object, container and account servers
#      and memcached take the next four ports), SLOTLINE_SWIFT_BUCKET (default slotline),
#      SLOTLINE_SWIFT_REGION (default us-east-1).
set -euo pipefail

STATE=${1:-${SLOTLINE_SWIFT_DIR:-/tmp/slotline-swift}}
PORT=${SLOTLINE_SWIFT_PORT:-18080}
BUCKET=${SLOTLINE_SWIFT_BUCKET:-slotline}
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# tempauth's S3 access key is `account:user` and its secret the user's password; the account
# must be .admin to create buckets. A fixed pair is fine: the server only listens on loopback.
ACCOUNT=slotline
USER_NAME=tester
SECRET=slotline-secret
# s3api's `location`: SigV4 signatures are checked against it, so clients must sign with it
REGION=${SLOTLINE_SWIFT_REGION:-us-east-1}
SERVERS=(memcached account container object proxy)

log() { echo "[s3-swift] $*" >&2; }

alive() {
  local name
  for name in "${SERVERS[@]}"; do
    [[ -f $STATE/$name.pid ]] && kill -0 "$(cat "$STATE/$name.pid")" 2>/dev/null || return 1
  done
}

if [[ -f $STATE/url ]] && alive; then
  cat "$STATE/url"
  exit 0
fi
if [[ -d $STATE ]]; then
  log "stale state in $STATE: stopping what is left of it"
  "$HERE/stop.sh" "$STATE"
fi

# Nothing is fetched but Debian packages. policy-rc.d (or its absence of systemd) keeps the
# packages' own services from starting: this script runs its own daemons with its own configs.
if ! command -v swift-proxy-server >/dev/null || ! command -v swift-object-server >/dev/null ||
  ! command -v swift-container-server >/dev/null || ! command -v swift-account-server >/dev/null ||
  ! command -v memcached >/dev/null; then
  log "installing swift and memcached from apt"
  t0=$SECONDS
  DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
    swift-proxy swift-object swift-container swift-account memcached >&2
  log "apt install took $((SECONDS - t0)) s"
fi

started=$(date +%s%3N)
mkdir -p "$STATE/srv/d1"
WHO=$(id -un)

# Swift 2.30's daemons read the hash prefix/suffix from /etc/swift/swift.conf whatever
# swift_dir says (only swift-recon honours swift_dir for it), so with the Debian package's file
# in place objects hash with its values: harmless for a throwaway single-node store. This copy
# is what goes there when the file is missing.
cat >"$STATE/swift.conf" <<EOF
[swift-hash]
swift_hash_path_prefix = slotline-test-prefix
swift_hash_path_suffix = slotline-test-suffix
[storage-policy:0]
name = Policy-0
default = yes
EOF
[[ -f /etc/swift/swift.conf ]] || install -D -m 644 "$STATE/swift.conf" /etc/swift/swift.conf

# workers = 0 keeps each server one process (its pid is the one recorded); -v sends the logs
# to stderr, hence to the log files, since there is no syslog socket to receive them.
common() {
  cat <<EOF
[DEFAULT]
bind_ip = 127.0.0.1
bind_port = $1
workers = 0
user = $WHO
swift_dir = $STATE
devices = $STATE/srv
mount_check = false
log_level = INFO
EOF
}

{
  common $((PORT + 3))
  printf '[pipeline:main]\npipeline = account-server\n[app:account-server]\nuse = egg:swift#account\n'
} >"$STATE/account-server.conf"
{
  common $((PORT + 2))
  printf '[pipeline:main]\npipeline = container-server\n[app:container-server]\nuse = egg:swift#container\n'
} >"$STATE/container-server.conf"
{
  common $((PORT + 1))
  printf '[pipeline:main]\npipeline = object-server\n[app:object-server]\nuse = egg:swift#object\n'
} >"$STATE/object-server.conf"

# Pipeline order: s3api right before tempauth (its own check requires an auth filter after
# it); cache before both because tempauth refuses to work without memcache in the environ;
# copy (CopyObject is a Swift server-side copy), slo (multipart uploads become SLO manifests;
# without slo after s3api multipart is switched off), dlo and versioned_writes (the proxy
# inserts both when missing, with a warning) after auth.
{
  common "$PORT"
  cat <<EOF
[pipeline:main]
pipeline = catch_errors gatekeeper healthcheck proxy-logging cache listing_formats s3api tempauth copy slo dlo versioned_writes proxy-logging proxy-server

[app:proxy-server]
use = egg:swift#proxy
# the account behind the S3 credentials is created on its first bucket
account_autocreate = true

[filter:s3api]
use = egg:swift#s3api
location = $REGION
# s3_acl = false (default): ownership comes from Swift's ACLs, so allow_no_owner does not apply

[filter:tempauth]
use = egg:swift#tempauth
user_${ACCOUNT}_${USER_NAME} = $SECRET .admin

[filter:cache]
use = egg:swift#memcache
memcache_servers = 127.0.0.1:$((PORT + 4))

[filter:catch_errors]
use = egg:swift#catch_errors
[filter:gatekeeper]
use = egg:swift#gatekeeper
[filter:healthcheck]
use = egg:swift#healthcheck
[filter:proxy-logging]
use = egg:swift#proxy_logging
[filter:listing_formats]
use = egg:swift#listing_formats
[filter:copy]
use = egg:swift#copy
[filter:slo]
use = egg:swift#slo
[filter:dlo]
use = egg:swift#dlo
[filter:versioned_writes]
use = egg:swift#versioned_writes
EOF
} >"$STATE/proxy-server.conf"

# One device and one replica per ring; part power 6 keeps the builders instant.
for ring in account:$((PORT + 3)) container:$((PORT + 2)) object:$((PORT + 1)); do
  name=${ring%%:*}
  swift-ring-builder "$STATE/$name.builder" create 6 1 1 >>"$STATE/rings.log"
  swift-ring-builder "$STATE/$name.builder" add "r1z1-127.0.0.1:${ring#*:}/d1" 100 >>"$STATE/rings.log"
  # exit 1 is a warning (e.g. balance), only 2 is an error
  swift-ring-builder "$STATE/$name.builder" rebalance >>"$STATE/rings.log" || [[ $? -eq 1 ]]
done

# setsid detaches the daemons from this shell's session so they outlive it; their output
# goes to files so a caller reading this script's stdout is not kept waiting on them.
launch() {
  local name=$1
  shift
  setsid "$@" >>"$STATE/$name.log" 2>&1 </dev/null &
  echo $! >"$STATE/$name.pid"
}
launch memcached memcached -u "$WHO" -l 127.0.0.1 -p $((PORT + 4)) -U 0 -m 64
for name in account container object proxy; do
  launch "$name" "swift-$name-server" "$STATE/$name-server.conf" -v
done

URL="SLOTLINE_TEST_S3_URL=s3+http://${ACCOUNT}%3A${USER_NAME}:${SECRET}@127.0.0.1:${PORT}/${BUCKET}?region=${REGION}"
# The bucket is created through the S3 API, retried until the whole chain answers (bounded).
if ! node "$HERE/create-bucket.js" "${URL#SLOTLINE_TEST_S3_URL=}" 60 >&2; then
  log "swift did not come up; logs in $STATE/*.log"
  for name in "${SERVERS[@]}"; do tail -n 5 "$STATE/$name.log" >&2 || true; done
  "$HERE/stop.sh" "$STATE"
  exit 1
fi
echo "$URL" >"$STATE/url"
log "ready in $(($(date +%s%3N) - started)) ms (state in $STATE)"
cat "$STATE/url"
