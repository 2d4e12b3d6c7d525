#!/bin/sh
# The official image's first-start contract, in short: initdb with POSTGRES_USER as superuser and
# POSTGRES_PASSWORD (scram for network clients), then POSTGRES_DB; then the server as postgres.
set -eu
if [ "${1:-}" = postgres ]; then
  if [ "$(id -u)" = 0 ]; then
    mkdir -p "$PGDATA" && chown postgres:postgres "$PGDATA" && chmod 700 "$PGDATA"
    exec setpriv --reuid=postgres --regid=postgres --init-groups "$0" "$@"
  fi
  if [ ! -s "$PGDATA/PG_VERSION" ]; then
    : "${POSTGRES_PASSWORD:?POSTGRES_PASSWORD must be set}"
    user="${POSTGRES_USER:-postgres}"
    pwfile="$(mktemp)"
    printf '%s\n' "$POSTGRES_PASSWORD" >"$pwfile"
    initdb --username="$user" --pwfile="$pwfile" --auth-local=trust --auth-host=scram-sha-256 >/dev/null
    rm -f "$pwfile"
    printf "host all all all scram-sha-256\n" >>"$PGDATA/pg_hba.conf"
    db="${POSTGRES_DB:-$user}"
    if [ "$db" != postgres ]; then
      postgres --single -D "$PGDATA" -c listen_addresses='' postgres <<SQL >/dev/null
CREATE DATABASE "$db" OWNER "$user";
SQL
    fi
    echo "docker-entrypoint: initialised $PGDATA for $user/$db"
  fi
  set -- "$@" -c listen_addresses='*'
fi
exec "$@"
