#!/usr/bin/env bash
# Starts Debian's Exim on loopback as a real mail server for the mail tests: it takes any
# recipient over SMTP and delivers each message into a maildir under the state directory
# (mail/new/), nothing leaves the machine. Installs exim4-daemon-light with apt when missing.
# Prints SLOTLINE_TEST_SMTP_URL=... and SLOTLINE_TEST_MAILDIR=... once it answers.
# Env: SLOTLINE_EXIM_DIR (state, default /tmp/slotline-exim), SLOTLINE_EXIM_PORT (default 18025).
set -euo pipefail
DIR="${SLOTLINE_EXIM_DIR:-/tmp/slotline-exim}"
PORT="${SLOTLINE_EXIM_PORT:-18025}"

if ! command -v exim4 >/dev/null 2>&1; then
  echo "mta: installing exim4-daemon-light" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q >&2
  apt-get install -y -q exim4-daemon-light >&2
fi
EXIM="$(command -v exim4)"
# Exim delivers as its own user, never as root.
EXIM_USER="$(getent passwd Debian-exim >/dev/null && echo Debian-exim || echo mail)"

"$(dirname "$0")/stop.sh" >/dev/null 2>&1 || true
rm -rf "$DIR"
mkdir -p "$DIR/spool" "$DIR/log" "$DIR/mail"
chown -R "$EXIM_USER" "$DIR/spool" "$DIR/log" "$DIR/mail"

cat > "$DIR/exim.conf" <<CONF
primary_hostname = mta.slotline.test
daemon_smtp_ports = $PORT
local_interfaces = 127.0.0.1
spool_directory = $DIR/spool
log_file_path = $DIR/log/%slog
pid_file_path = $DIR/spool/exim.pid
keep_environment =
exim_user = $EXIM_USER
exim_group = $(id -gn "$EXIM_USER")
never_users = root
host_lookup =
tls_advertise_hosts =
rfc1413_hosts =
acl_smtp_rcpt = acl_rcpt
acl_smtp_data = acl_data
message_size_limit = 10M
queue_only = false

begin acl
acl_rcpt:
  accept
acl_data:
  accept

begin routers
everything:
  driver = accept
  transport = to_maildir

begin transports
to_maildir:
  driver = appendfile
  directory = $DIR/mail
  maildir_format = true
  create_directory = true
  user = $EXIM_USER
  envelope_to_add = true
  return_path_add = true
CONF
chmod 644 "$DIR/exim.conf"

"$EXIM" -C "$DIR/exim.conf" -bd -q10s -oX "$PORT"

for _ in $(seq 1 50); do
  if (exec 3<>"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null; then
    echo "SLOTLINE_TEST_SMTP_URL=smtp://127.0.0.1:$PORT"
    echo "SLOTLINE_TEST_MAILDIR=$DIR/mail"
    exit 0
  fi
  sleep 0.2
done
echo "mta: exim did not answer on 127.0.0.1:$PORT" >&2
cat "$DIR/log/"* >&2 2>/dev/null || true
exit 1
