#!/usr/bin/env bash
# Stops the server of scripts/services/postgres-up.sh by its pid file (DIR/data/postmaster.pid):
# `pg_ctl stop -m fast` (clients are disconnected, the server checkpoints and exits), then
# SIGQUIT and SIGKILL to the pid of that file if it is still running after 30 s. The data stays
# in DIR, so the next postgres-up.sh starts it again quickly; `--purge` also removes DIR.
# Usage: bash scripts/services/postgres-down.sh [DIR] [--purge]   (DIR default
#        $EXHIBIT_PG_DIR, else /tmp/exhibit-pg)
set -euo pipefail
PURGE=0; ARGS=()
for a in "$@"; do if [ "$a" = --purge ]; then PURGE=1; else ARGS+=("$a"); fi; done
DIR=${ARGS[0]:-${EXHIBIT_PG_DIR:-/tmp/exhibit-pg}}
PGBIN=/usr/lib/postgresql/15/bin
[ -d "$DIR" ] || exit 0
DIR=$(cd "$DIR" && pwd)
DATA="$DIR/data"
f="$DATA/postmaster.pid"
if [ -f "$f" ]; then
    pid=$(head -n 1 "$f" 2>/dev/null || true)
    # Only a server started on this data directory (a stale pid may name another process).
    if [[ "$pid" =~ ^[0-9]+$ ]] && tr '\0' ' ' < "/proc/$pid/cmdline" 2>/dev/null | grep -qF -- "$DATA"; then
        if [ "$(id -u)" -eq 0 ]; then
            runuser -u postgres -- "$PGBIN/pg_ctl" -D "$DATA" -m fast -w -t 30 stop >&2 || true
        else
            "$PGBIN/pg_ctl" -D "$DATA" -m fast -w -t 30 stop >&2 || true
        fi
        if kill -0 "$pid" 2>/dev/null; then
            kill -QUIT "$pid" 2>/dev/null || true
            for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
            if kill -0 "$pid" 2>/dev/null; then kill -KILL "$pid" 2>/dev/null || true; fi
        fi
        echo "postgres-down: stopped the server ($pid)" >&2
    fi
fi
if ((PURGE)); then rm -rf "$DIR"; echo "postgres-down: removed $DIR" >&2; fi
