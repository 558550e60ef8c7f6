#!/usr/bin/env bash
# A throwaway PostgreSQL 15 cluster for the tests, the benchmarks and the demo: `initdb` as the
# `postgres` user (runuser, when run as root), `pg_ctl start` on 127.0.0.1 and a spare port, a
# test role `exhibit` with a random password and its database `exhibit`. No systemd: the server
# runs from DIR/data and scripts/services/postgres-down.sh stops it by its pid file
# (DIR/data/postmaster.pid).
#
# Usage: eval "$(bash scripts/services/postgres-up.sh [DIR])"   (DIR default $EXHIBIT_PG_DIR,
#        else /tmp/exhibit-pg)
# stdout: only `export` lines (PGHOST, PGPORT, PGUSER, PGDATABASE, PGPASSFILE, EXHIBIT_PG_URL);
#         progress on stderr. The password is only in DIR/pgpass (mode 0600, the ~/.pgpass
#         format libpq reads through PGPASSFILE); it is never printed.
# Idempotent: a cluster already running in DIR is reused; one that stopped is started again
# from its data; one that cannot be started again is made anew.
# Port (first creation only, then kept in DIR/port): EXHIBIT_PG_PORT (default 15432), else the
# next free one above it (the default sits below Linux's ephemeral range, 32768-60999). The server listens on 127.0.0.1 (TCP, password) and on a Unix socket
# in DIR/socket (peer authentication, for the `postgres` user only).
set -Eeuo pipefail
DIR=${1:-${EXHIBIT_PG_DIR:-/tmp/exhibit-pg}}
PACKAGES=(postgresql-15 postgresql-client-15 openssl)
PGBIN=/usr/lib/postgresql/15/bin
ROLE=exhibit
DATABASE=exhibit
say() { echo "postgres-up: $*" >&2; }
trap 'say "failed at line $LINENO: $BASH_COMMAND (log in $DIR/log/postgres.log)"' ERR
t0=$(date +%s%N)

missing=()
for p in "${PACKAGES[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
if ((${#missing[@]})); then
    say "installing ${missing[*]}"
    SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
    # Debian's package would make (and try to start) a cluster 15/main on port 5432: not wanted.
    $SUDO mkdir -p /etc/postgresql-common/createcluster.d
    [ -f /etc/postgresql-common/createcluster.d/exhibit.conf ] ||
        echo "create_main_cluster = false" | $SUDO tee /etc/postgresql-common/createcluster.d/exhibit.conf >/dev/null
    $SUDO apt-get update -q >&2
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}" >&2
fi

mkdir -p "$DIR"
DIR=$(cd "$DIR" && pwd)
DATA="$DIR/data"
SOCKET="$DIR/socket"
LOG="$DIR/log"
PASSFILE="$DIR/pgpass"
PORTFILE="$DIR/port"

# as_postgres CMD...: runs CMD as the `postgres` user when we are root (initdb and the server
# refuse to run as root), else as ourselves.
as_postgres() {
    if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

# alive: the server of DIR/data/postmaster.pid runs (with this data directory) and answers.
alive() {
    local f="$DATA/postmaster.pid" pid
    [ -f "$f" ] || return 1
    pid=$(head -n 1 "$f" 2>/dev/null) || return 1
    [[ "$pid" =~ ^[0-9]+$ ]] || return 1
    tr '\0' ' ' < "/proc/$pid/cmdline" 2>/dev/null | grep -qF -- "$DATA" || return 1
    "$PGBIN/pg_isready" -q -h 127.0.0.1 -p "$PORT" -t 2
}

# port_free P: nothing accepts connections on 127.0.0.1:P.
port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

start_server() {
    as_postgres "$PGBIN/pg_ctl" -D "$DATA" -l "$LOG/postgres.log" -w -t 30 \
        -o "-c listen_addresses=127.0.0.1 -p $PORT -k $SOCKET" start >&2
}

# superuser SQL: runs SQL (on stdin of psql, so no secret is on a command line) as `postgres`
# over the Unix socket.
superuser() {
    as_postgres "$PGBIN/psql" -X -q -v ON_ERROR_STOP=1 -h "$SOCKET" -p "$PORT" -U postgres -d postgres -f - >&2
}

create() {
    say "creating a cluster in $DIR"
    # Only a directory of ours (or an empty one) is emptied.
    if [ -n "$(ls -A "$DIR")" ] && [ ! -f "$PORTFILE" ] && [ ! -d "$DATA" ]; then
        say "$DIR is not empty and holds no cluster of this script: refusing to use it"; return 1
    fi
    find "$DIR" -mindepth 1 -delete
    mkdir -p "$DATA" "$SOCKET" "$LOG"
    chmod 700 "$DATA"
    [ "$(id -u)" -eq 0 ] && chown postgres: "$DATA" "$SOCKET" "$LOG"
    PORT=${EXHIBIT_PG_PORT:-15432}
    until port_free "$PORT"; do
        PORT=$((PORT + 1))
        if (( PORT > ${EXHIBIT_PG_PORT:-15432} + 200 )); then say "no free port"; return 1; fi
    done
    echo "$PORT" > "$PORTFILE"
    # --no-sync: a throwaway cluster's files need not be flushed at creation; the running
    # server keeps fsync on (the benchmarks measure durable commits).
    as_postgres "$PGBIN/initdb" -D "$DATA" -U postgres -E UTF8 --locale=C.UTF-8 --no-sync \
        --auth-local=peer --auth-host=scram-sha-256 >"$LOG/initdb.log" 2>&1
    # Only the postgres user over the socket (peer), everyone else by password over 127.0.0.1.
    printf '%s\n' "local all postgres peer" "host all all 127.0.0.1/32 scram-sha-256" |
        as_postgres tee "$DATA/pg_hba.conf" >/dev/null
    start_server
    local password
    password=$(openssl rand -hex 24)
    # The statement that holds the password is never logged, not even when it fails.
    superuser <<SQL
SET log_min_error_statement = panic;
SET log_statement = none;
CREATE ROLE $ROLE LOGIN CREATEDB PASSWORD '$password';
CREATE DATABASE $DATABASE OWNER $ROLE;
SQL
    (umask 077; printf '127.0.0.1:%s:*:%s:%s\n' "$PORT" "$ROLE" "$password" > "$PASSFILE")
}

if [ -f "$DATA/PG_VERSION" ] && [ -f "$PASSFILE" ] && [ -f "$PORTFILE" ]; then
    PORT=$(cat "$PORTFILE")
    if alive; then
        say "reusing the server running in $DIR"
    elif ! start_server; then
        say "could not start the cluster in $DIR again; making it anew"
        bash "$(dirname "$0")/postgres-down.sh" "$DIR" >&2 || true
        create
    fi
else
    create
fi

# The test role logs in over TCP with the password file, as every client will.
ok=$(PGPASSFILE="$PASSFILE" "$PGBIN/psql" -X -At -h 127.0.0.1 -p "$PORT" -U "$ROLE" -d "$DATABASE" -c 'SELECT 1' 2>&1) || true
if [ "$ok" != 1 ]; then say "the role $ROLE cannot log in: $ok"; exit 1; fi

say "ready in $(( ($(date +%s%N) - t0) / 1000000 )) ms: PostgreSQL $(cat "$DATA/PG_VERSION") on 127.0.0.1:$PORT"
printf 'export PGHOST=%q\n' "127.0.0.1"
printf 'export PGPORT=%q\n' "$PORT"
printf 'export PGUSER=%q\n' "$ROLE"
printf 'export PGDATABASE=%q\n' "$DATABASE"
printf 'export PGPASSFILE=%q\n' "$PASSFILE"
printf 'export EXHIBIT_PG_URL=%q\n' "postgresql://$ROLE@127.0.0.1:$PORT/$DATABASE"
