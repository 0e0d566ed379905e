#!/usr/bin/env bash
# Runs a command with DATABASE_URL pointing at a throwaway PostgreSQL cluster on a free local port,
# then stops the cluster and deletes it. Usage: scripts/with-postgres.sh npm run test:server
set -euo pipefail

PGBIN=${PGBIN:-$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)}
if [ -z "$PGBIN" ] || [ ! -x "$PGBIN/initdb" ]; then
  echo "PostgreSQL server binaries not found (looked in /usr/lib/postgresql/*/bin)." >&2
  echo "Install them with: apt-get install -y postgresql   (or set DATABASE_URL and run the command directly)" >&2
  exit 1
fi

PORT=${PGPORT_FOR_TESTS:-$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')}
WORK=$(mktemp -d /tmp/verbatim-pg.XXXXXX)
chmod 755 "$WORK"
PGDATA="$WORK/data"

as_postgres() {
  if [ "$(id -u)" = 0 ]; then su postgres -s /bin/sh -c "$*"; else sh -c "$*"; fi
}

if [ "$(id -u)" = 0 ]; then install -d -o postgres -g postgres -m 700 "$PGDATA"; else install -d -m 700 "$PGDATA"; fi
cleanup() {
  as_postgres "'$PGBIN/pg_ctl' -D '$PGDATA' -m fast -w stop" >/dev/null 2>&1 || true
  rm -rf "$WORK"
}
trap cleanup EXIT

as_postgres "'$PGBIN/initdb' -D '$PGDATA' -U postgres --auth=trust -E UTF8 --locale=C.UTF-8" >/dev/null
as_postgres "'$PGBIN/pg_ctl' -D '$PGDATA' -l '$PGDATA/server.log' -w -o \"-p $PORT -k /tmp -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200\" start" >/dev/null

export DATABASE_URL="postgres://postgres@127.0.0.1:$PORT/postgres"
echo "PostgreSQL $("$PGBIN/postgres" --version | awk '{print $3}') running on 127.0.0.1:$PORT for: $*"
"$@"
