# Sourced by .ci/run: a throwaway PostgreSQL cluster on a local port, run as `postgres`.
PG_DIR=""
PG_BIN=""

start_postgres() {
  if ! ls /usr/lib/postgresql/*/bin/pg_ctl >/dev/null 2>&1; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
      (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null) || return 1
    else
      return 1
    fi
  fi
  local bin
  bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
  PG_BIN="$bin"
  # a free port, so that a server left running elsewhere on this machine does not clash
  PG_PORT=${PG_PORT:-$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')}
  PG_DIR=$(mktemp -d /tmp/ratings-pg.XXXXXX)
  chown postgres "$PG_DIR" 2>/dev/null || true
  local as_pg=()
  [ "$(id -u)" = 0 ] && as_pg=(runuser -u postgres --)
  "${as_pg[@]}" "$bin/initdb" -D "$PG_DIR/data" -A trust -U postgres >/dev/null || return 1
  "${as_pg[@]}" "$bin/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/log" -w \
    -o "-p $PG_PORT -k $PG_DIR -c listen_addresses=127.0.0.1 -c fsync=off" start >/dev/null || return 1
  export RATINGS_TEST_PG_URL="postgresql+psycopg://postgres@127.0.0.1:$PG_PORT/postgres"
  echo "PostgreSQL running on port $PG_PORT" >&2
}

stop_postgres() {
  [ -n "$PG_DIR" ] || return 0
  local as_pg=()
  [ "$(id -u)" = 0 ] && as_pg=(runuser -u postgres --)
  "${as_pg[@]}" "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -m fast stop >/dev/null 2>&1 || true
  rm -rf "$PG_DIR"
}
