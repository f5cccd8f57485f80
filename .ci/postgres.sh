# Sourced by .ci/run: a throwaway PostgreSQL cluster on a local port, run as `postgres`.
#   start_postgres   installs the distribution's server if it is missing (as root, apt-get),
#                    starts a cluster in a temporary folder on the first free port from
#                    $PG_PORT (default 55432) and exports RATINGS_TEST_PG_URL
#   stop_postgres    stops it and removes the folder
PG_PORT=${PG_PORT:-55432}
PG_DIR=""
PG_BIN=""

start_postgres() {
  if ! ls /usr/lib/postgresql/*/bin/pg_ctl >/dev/null 2>&1; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
      echo "Installing the PostgreSQL server (apt-get install postgresql)" >&2
      (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null) || return 1
    else
      echo "no PostgreSQL server binaries, and not root to install them" >&2
      return 1
    fi
  fi
  PG_BIN=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
  local as_pg=()
  if [ "$(id -u)" = 0 ]; then
    # the server refuses to run as root
    id postgres >/dev/null 2>&1 || useradd --system --no-create-home postgres || return 1
    as_pg=(runuser -u postgres --)
  fi
  PG_DIR=$(mktemp -d /tmp/ratings-pg.XXXXXX)
  [ "$(id -u)" = 0 ] && chown postgres "$PG_DIR"
  # UTF8 and the C locale: byte order for ORDER BY name, as on SQLite
  "${as_pg[@]}" "$PG_BIN/initdb" -D "$PG_DIR/data" -A trust -U postgres -E UTF8 --no-locale \
    >"$PG_DIR/initdb.log" 2>&1 || { cat "$PG_DIR/initdb.log" >&2; return 1; }
  local port
  for port in $(seq "$PG_PORT" $((PG_PORT + 20))); do
    if "${as_pg[@]}" "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/log" -w -t 60 \
        -o "-p $port -k $PG_DIR -c listen_addresses=127.0.0.1 -c fsync=off" start >/dev/null 2>&1; then
      export PG_BIN PG_DIR
      export RATINGS_TEST_PG_URL="postgresql+psycopg://postgres@127.0.0.1:$port/postgres"
      echo "PostgreSQL running on port $port ($PG_DIR)" >&2
      return 0
    fi
  done
  echo "PostgreSQL did not start; its log:" >&2
  cat "$PG_DIR/log" >&2 2>/dev/null
  return 1
}

stop_postgres() {
  [ -n "$PG_DIR" ] || return 0
  local as_pg=()
  [ "$(id -u)" = 0 ] && as_pg=(runuser -u postgres --)
  "${as_pg[@]}" "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -m fast stop >/dev/null 2>&1 || true
  rm -rf "$PG_DIR"
  PG_DIR=""
  unset RATINGS_TEST_PG_URL
}
