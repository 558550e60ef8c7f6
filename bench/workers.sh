#!/usr/bin/env bash
# Work-queue benchmark (issue 15): one capture-synth dump, then in the same run, page cache warm:
#   (a) exhibit-archive ingest --jobs $JOBS into an LMDB archive            (the single-machine peer)
#   (b) exhibit-archive ingest --jobs $JOBS into a PostgreSQL-indexed archive (same index, no queue)
#   (c) ingest --enqueue, then 1 worker --jobs $JOBS                         (queue overhead vs (b))
#   (d) ingest --enqueue, then W worker processes --jobs $WORKER_JOBS, W = 1, 2, 4
# and prints captures/s, CPU seconds per capture (user + sys of our processes; the PostgreSQL
# server's own CPU beside it, from its postmaster's reaped children: cluster-wide, so another
# client of the same server adds to it), and the queue's overhead per capture in ms
# (wall and CPU of (c) minus (b), and the enqueue). Every PostgreSQL archive is a schema of its
# own (wb_<pid>_<step>), dropped at the end.
#
# Environment: BENCH_DIR (default /tmp/exhibit-workers-bench; the dump is kept between runs),
# STILLS (default 300), VIDEOS (default 2), JOBS (default: core count), WORKER_JOBS (default 1),
# BIN=DIR to use built binaries (e.g. .build/debug) instead of a release build. The server:
# the PG* variables and EXHIBIT_PG_URL in force, else scripts/services/postgres-up.sh.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BENCH_DIR=${BENCH_DIR:-/tmp/exhibit-workers-bench}
STILLS=${STILLS:-300}
VIDEOS=${VIDEOS:-2}
JOBS=${JOBS:-$(nproc)}
WORKER_JOBS=${WORKER_JOBS:-1}
mkdir -p "$BENCH_DIR"
cd "$ROOT"
if [ -z "${BIN:-}" ]; then
    swift build -c release --product exhibit-archive >/dev/null
    swift build -c release --product capture-synth >/dev/null
    BIN=$ROOT/.build/release
fi
if [ -z "${EXHIBIT_PG_URL:-}" ]; then eval "$(bash scripts/services/postgres-up.sh)"; fi
EA=$BIN/exhibit-archive
DUMP=$BENCH_DIR/dump
# The dump is kept between runs only if it was made with this run's STILLS and VIDEOS.
MADE="--stills $STILLS --videos $VIDEOS --video-seconds 4 --seed 15"
if [ ! -f "$DUMP/expected.json" ] || [ "$(cat "$BENCH_DIR/dump.made" 2>/dev/null)" != "$MADE" ]; then
    rm -rf "$DUMP"
    # shellcheck disable=SC2086
    "$BIN/capture-synth" "$DUMP" $MADE --jobs "$(nproc)" >/dev/null
    echo "$MADE" > "$BENCH_DIR/dump.made"
fi
find "$DUMP" -type f -print0 | xargs -0 cat >/dev/null   # warm the page cache
CAPTURES=$(find "$DUMP" -name 'IMG_*.jpg' -o -name 'VID_*.mp4' | grep -c /captures/)
SCHEMAS=()
cleanup() { for s in "${SCHEMAS[@]}"; do psql -qc "DROP SCHEMA IF EXISTS $s CASCADE" >/dev/null 2>&1 || true; done; }
trap cleanup EXIT

now() { date +%s.%N; }
# Cumulative CPU seconds (user + sys) of the server's reaped backends, from the postmaster.
# The postmaster: first line of DIR/data/postmaster.pid of the postgres-up.sh cluster (EXHIBIT_PG_DIR,
# else /tmp/exhibit-pg); unreadable: server CPU is reported as 0.
PPID_PG=$(head -1 "${EXHIBIT_PG_DIR:-/tmp/exhibit-pg}/data/postmaster.pid" 2>/dev/null || true)
server_cpu() {
    if [ -n "$PPID_PG" ] && [ -r "/proc/$PPID_PG/stat" ]; then
        awk -v hz="$(getconf CLK_TCK)" '{ printf "%.3f", ($14 + $15 + $16 + $17) / hz }' "/proc/$PPID_PG/stat"
    else echo 0; fi
}
# Runs "$@" under /usr/bin/time; appends "user+sys" seconds to the file $CPUFILE.
timed() { /usr/bin/time -f "%U %S" -a -o "$CPUFILE" "$@"; }
cpu_sum() { awk '{ s += $1 + $2 } END { printf "%.2f", s }' "$CPUFILE"; }

fresh_pg() {   # $1: step name → ARCH, the archive path (not in a subshell: SCHEMAS must grow here)
    local s="wb_$$_$1"; SCHEMAS+=("$s")
    rm -rf "$BENCH_DIR/a-$1"
    "$EA" init --archive "$BENCH_DIR/a-$1" --index "$EXHIBIT_PG_URL" --index-schema "$s" >/dev/null
    ARCH=$BENCH_DIR/a-$1
}

declare -A WALL CPU SCPU
run_step() {   # $1 name; rest: the command (bash -c) — records wall, our CPU, server CPU
    local name=$1; shift
    CPUFILE=$BENCH_DIR/cpu-$name; : > "$CPUFILE"
    local s0 t0 t1 s1
    s0=$(server_cpu); t0=$(now)
    "$@"
    t1=$(now); s1=$(server_cpu)
    WALL[$name]=$(echo "$t1 - $t0" | bc -l); CPU[$name]=$(cpu_sum); SCPU[$name]=$(echo "$s1 - $s0" | bc -l)
}

echo "dump: $CAPTURES captures ($STILLS stills, $VIDEOS videos), JOBS=$JOBS, WORKER_JOBS=$WORKER_JOBS, BIN=$BIN"
echo "load before: $(cat /proc/loadavg)"
rm -rf "$BENCH_DIR/a-lmdb"; "$EA" init --archive "$BENCH_DIR/a-lmdb" >/dev/null
lmdb_ingest() { timed "$EA" ingest --archive "$BENCH_DIR/a-lmdb" --jobs "$JOBS" "$DUMP" >/dev/null || true; }
run_step lmdb lmdb_ingest
fresh_pg pg; A=$ARCH
pg_ingest() { timed "$EA" ingest --archive "$A" --jobs "$JOBS" "$DUMP" >/dev/null || true; }
run_step pg pg_ingest
fresh_pg q1; Q=$ARCH
enqueue() { timed "$EA" ingest --enqueue --archive "$1" "$DUMP" >/dev/null; }
run_step enq enqueue "$Q"
one_worker() { timed "$EA" worker --archive "$Q" --jobs "$JOBS" >/dev/null || true; }
run_step queue1 one_worker
for W in 1 2 4; do
    fresh_pg "w$W"; AW=$ARCH
    "$EA" ingest --enqueue --archive "$AW" "$DUMP" >/dev/null
    workers() {
        local pids=()
        for _ in $(seq "$W"); do timed "$EA" worker --archive "$AW" --jobs "$WORKER_JOBS" >/dev/null & pids+=($!); done
        for p in "${pids[@]}"; do wait "$p" || true; done
    }
    run_step "w$W" workers
    left=$("$EA" queue --archive "$AW" --json | tail -1)
    case "$left" in *'"done":'"$CAPTURES"*) ;; *) echo "w$W: queue not all done: $left" >&2 ;; esac
done
echo "load after: $(cat /proc/loadavg)"
echo
printf '| %-44s | %8s | %10s | %12s | %14s |\n' "run" "wall s" "captures/s" "CPU s/capture" "server CPU s/capture"
printf '|%s|%s|%s|%s|%s|\n' "---" "---" "---" "---" "---"
row() { printf '| %-44s | %8.2f | %10.1f | %12.4f | %14.4f |\n' "$1" "${WALL[$2]}" "$(echo "$CAPTURES / ${WALL[$2]}" | bc -l)" \
        "$(echo "${CPU[$2]} / $CAPTURES" | bc -l)" "$(echo "${SCPU[$2]} / $CAPTURES" | bc -l)"; }
row "(a) ingest --jobs $JOBS, LMDB" lmdb
row "(b) ingest --jobs $JOBS, PostgreSQL index" pg
row "(c) 1 worker --jobs $JOBS (after enqueue)" queue1
for W in 1 2 4; do row "(d) $W worker process(es) --jobs $WORKER_JOBS" "w$W"; done
echo
printf 'enqueue: %.3f s for %d captures (%.3f ms each)\n' "${WALL[enq]}" "$CAPTURES" "$(echo "${WALL[enq]} * 1000 / $CAPTURES" | bc -l)"
printf 'queue overhead per capture, (c) - (b): wall %.2f ms, our CPU %.2f ms, server CPU %.2f ms (+ enqueue above)\n' \
    "$(echo "(${WALL[queue1]} - ${WALL[pg]}) * 1000 / $CAPTURES" | bc -l)" \
    "$(echo "(${CPU[queue1]} - ${CPU[pg]}) * 1000 / $CAPTURES" | bc -l)" \
    "$(echo "(${SCPU[queue1]} - ${SCPU[pg]}) * 1000 / $CAPTURES" | bc -l)"
printf 'scaling (captures/s ÷ 1 worker): 2 workers %.2f, 4 workers %.2f\n' \
    "$(echo "${WALL[w1]} / ${WALL[w2]}" | bc -l)" "$(echo "${WALL[w1]} / ${WALL[w4]}" | bc -l)"
