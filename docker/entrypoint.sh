#!/bin/sh
# Picks the program by its first argument; the rest are passed on. `exec`
# makes node PID 1's direct replacement, so SIGTERM reaches the application's
# graceful shutdown instead of a shell.
set -eu
cd "$(dirname "$0")/.."

program="${1:-}"
if [ "$#" -gt 0 ]; then shift; fi

case "$program" in
  fixtures-live | odds-passthrough | feed-sim)
    exec node "dist/apps/$program/main.js" "$@"
    ;;
  migrate)
    exec node dist/libs/database/migrate/main.js "$@"
    ;;
  keys)
    exec node dist/libs/auth/keys/main.js "$@"
    ;;
  *)
    echo "usage: <fixtures-live | odds-passthrough | feed-sim | migrate | keys> [arguments...]" >&2
    exit 64
    ;;
esac
