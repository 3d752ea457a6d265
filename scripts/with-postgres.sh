#!/usr/bin/env bash
# Runs a command against a throwaway PostgreSQL cluster: initdb in a temporary folder, start on
# a free loopback port, export DATABASE_URL, run the command, stop and remove the cluster.
# PostgreSQL refuses to run as root, so as root the server runs as the `postgres` user.
set -euo pipefail

for tool in initdb pg_ctl postgres; do
  command -v "$tool" >/dev/null || { echo "with-postgres: '$tool' not found on PATH" >&2; exit 2; }
done

workdir=$(mktemp -d /tmp/maintplan-pg.XXXXXX)
chmod 755 "$workdir"
as_pg=()
if [ "$(id -u)" = "0" ]; then
  chown postgres "$workdir"
  as_pg=(runuser -u postgres --)
fi
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')

cleanup() {
  "${as_pg[@]}" pg_ctl -D "$workdir/data" -m immediate stop >/dev/null 2>&1 || true
  rm -rf "$workdir"
}
trap cleanup EXIT INT TERM

"${as_pg[@]}" initdb -D "$workdir/data" -U postgres --auth=trust -E UTF8 --locale=C.UTF-8 >"$workdir/initdb.log" 2>&1 \
  || { cat "$workdir/initdb.log" >&2; exit 2; }
"${as_pg[@]}" pg_ctl -D "$workdir/data" -l "$workdir/server.log" -w -t 60 \
  -o "-p $port -k $workdir -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=${PG_MAX_CONNECTIONS:-100}" \
  start >/dev/null || { cat "$workdir/server.log" >&2; exit 2; }

export DATABASE_URL="postgres://postgres@127.0.0.1:$port/maintplan"
"${as_pg[@]}" createdb -h 127.0.0.1 -p "$port" -U postgres maintplan 2>/dev/null \
  || psql -h 127.0.0.1 -p "$port" -U postgres -c 'CREATE DATABASE maintplan' >/dev/null
echo "with-postgres: PostgreSQL $(postgres --version | awk '{print $3}') on 127.0.0.1:$port" >&2
"$@"
