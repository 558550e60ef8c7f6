#!/usr/bin/env bash
# Stops the cluster of scripts/services/ceph-up.sh by its pid files (radosgw, then the OSD,
# then the monitor): SIGTERM, then SIGKILL after 20 s. The data stays in DIR, so the next
# ceph-up.sh starts it again quickly; `--purge` also removes DIR.
# Usage: bash scripts/services/ceph-down.sh [DIR] [--purge]   (DIR default $EXHIBIT_CEPH_DIR,
#        else /tmp/exhibit-ceph)
set -euo pipefail
PURGE=0; ARGS=()
for a in "$@"; do if [ "$a" = --purge ]; then PURGE=1; else ARGS+=("$a"); fi; done
DIR=${ARGS[0]:-${EXHIBIT_CEPH_DIR:-/tmp/exhibit-ceph}}
[ -d "$DIR" ] || exit 0
DIR=$(cd "$DIR" && pwd)
for name in client.rgw.a osd.0 mon.a; do
    f="$DIR/run/$name.pid"
    [ -f "$f" ] || continue
    pid=$(cat "$f" 2>/dev/null || true)
    # Only a process started with this cluster's configuration (a stale pid may name another).
    if [[ "$pid" =~ ^[0-9]+$ ]] && tr '\0' ' ' < "/proc/$pid/cmdline" 2>/dev/null | grep -qF -- "$DIR/ceph.conf"; then
        kill -TERM "$pid" 2>/dev/null || true
        for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
        if kill -0 "$pid" 2>/dev/null; then kill -KILL "$pid" 2>/dev/null || true; fi
        echo "ceph-down: stopped $name ($pid)" >&2
    fi
    rm -f "$f"
done
if ((PURGE)); then rm -rf "$DIR"; echo "ceph-down: removed $DIR" >&2; fi
