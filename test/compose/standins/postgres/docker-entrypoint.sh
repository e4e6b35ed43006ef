#!/bin/sh
# The official image's first start, in short: an empty PGDATA gets initdb with POSTGRES_USER as
# superuser (password POSTGRES_PASSWORD), POSTGRES_DB created, password logins from anywhere;
# then postgres runs as the postgres user (exec: it receives the stop signal itself).
set -eu
if [ "$(id -u)" = 0 ]; then
  mkdir -p "$PGDATA" /var/run/postgresql
  chown -R postgres:postgres "$PGDATA" /var/run/postgresql
  chmod 700 "$PGDATA"
  exec setpriv --reuid=postgres --regid=postgres --init-groups "$0" "$@"
fi
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  : "${POSTGRES_PASSWORD:?POSTGRES_PASSWORD must be set (as the official image asks)}"
  user="${POSTGRES_USER:-postgres}"
  pwfile=$(mktemp)
  printf '%s\n' "$POSTGRES_PASSWORD" > "$pwfile"
  initdb --username="$user" --pwfile="$pwfile" --auth-local=trust --auth-host=scram-sha-256 -D "$PGDATA"
  rm -f "$pwfile"
  printf 'host all all all scram-sha-256\n' >> "$PGDATA/pg_hba.conf"
  pg_ctl -D "$PGDATA" -o "-c listen_addresses=''" -w start
  db="${POSTGRES_DB:-$user}"
  if [ "$db" != postgres ]; then psql -v ON_ERROR_STOP=1 --username "$user" --dbname postgres -c "CREATE DATABASE \"$db\""; fi
  pg_ctl -D "$PGDATA" -m fast -w stop
fi
if [ "$1" = postgres ]; then shift; exec postgres -c listen_addresses='*' "$@"; fi
exec "$@"
