#!/usr/bin/env bash
# Makes sure the PostgreSQL and NATS the tests use are running, starting the
# machine's own services when they are installed but stopped. Used by
# `npm test` (pretest) and CI. Ports come from TEST_PG_ADMIN_URL/TEST_NATS_URL
# defaults: 127.0.0.1:5432 and 127.0.0.1:4222.
set -uo pipefail

log() { printf '[services] %s\n' "$*" >&2; }

port_open() { (exec 3<>"/dev/tcp/$1/$2") 2>/dev/null; }

wait_for_port() {
  local host=$1 port=$2 name=$3
  for _ in $(seq 1 60); do
    if port_open "$host" "$port"; then return 0; fi
    sleep 1
  done
  log "$name did not come up on $host:$port"
  return 1
}

ensure_postgres() {
  if port_open 127.0.0.1 5432; then return 0; fi
  if ! command -v pg_ctlcluster >/dev/null || [ ! -d /etc/postgresql ]; then
    log 'PostgreSQL is not running on 127.0.0.1:5432 and no local cluster is installed'
    return 1
  fi
  log 'starting PostgreSQL'
  pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -n 1)" main start || true
  wait_for_port 127.0.0.1 5432 PostgreSQL
}

ensure_nats() {
  if port_open 127.0.0.1 4222; then return 0; fi
  local binary
  binary=$(command -v nats-server || echo /usr/sbin/nats-server)
  if [ ! -x "$binary" ]; then
    log 'NATS is not running on 127.0.0.1:4222 and no nats-server is installed'
    return 1
  fi
  log 'starting NATS'
  mkdir -p /var/lib/nats-server 2>/dev/null || true
  start-stop-daemon --start --oknodo --background --exec "$binary" -- \
    -a 127.0.0.1 -p 4222 -js -sd /var/lib/nats-server -l /var/log/nats-server.log || true
  wait_for_port 127.0.0.1 4222 NATS
}

ensure_postgres && ensure_nats
