#!/usr/bin/env bash
# Ingest benchmark (issue 5): a ≥ 2 GB mixed capture-synth dump (stills and videos), then in the
# same run, over the same files (page cache warmed first, so every step reads from memory):
#   (a) openssl dgst -sha256 of every file on 2 cores (xargs -P2)
#   (b) a durable copy: cp -a + sync
#   (c) exhibit-archive ingest (release build), peak RSS by /usr/bin/time -v
#   (d) re-ingest of the same dump (all present)
# and prints MB/s and ingest ÷ the slower of (a) and (b) (target ≥ 0.8).
#
# Environment: BENCH_DIR (default /tmp/exhibit-ingest-bench), STILLS (default 3900), VIDEOS
# (default 3), VIDEO_SECONDS (default 20), JOBS (ingest --jobs, default: core count),
# INGEST_FLAGS (extra ingest flags, e.g. INGEST_FLAGS=--no-media; printed with the result).
# The dump is kept between runs (delete $BENCH_DIR/dump to regenerate).
#
# `bench/ingest.sh --big-video` (issue 13) instead measures memory on one big video: capture-synth
# makes a dump of one video of BIG_VIDEO_SECONDS (default 200) at BIG_VIDEO_MBPS (default 200 Mb/s,
# ~5 GB), then `exhibit-archive ingest` of it, its peak RSS sampled every 0.1 s from
# /proc/PID/status (RssAnon and RssFile, each its own maximum) and VmHWM; capture-synth's own peak
# is printed too. `--big-video --quick`: 20 s at 40 Mb/s (~100 MB), for trying the step. BIN=DIR
# uses already-built binaries (e.g. .build/debug) instead of a release build.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BENCH_DIR=${BENCH_DIR:-/tmp/exhibit-ingest-bench}
STILLS=${STILLS:-3900}
VIDEOS=${VIDEOS:-3}
VIDEO_SECONDS=${VIDEO_SECONDS:-20}
JOBS=${JOBS:-$(nproc)}
INGEST_FLAGS=${INGEST_FLAGS:-}
DUMP=$BENCH_DIR/dump
mkdir -p "$BENCH_DIR"

cd "$ROOT"
if [ -z "${BIN:-}" ]; then
    swift build -c release --product exhibit-archive >/dev/null
    swift build -c release --product capture-synth >/dev/null
    BIN=$ROOT/.build/release
fi

now() { date +%s.%N; }
cpu() { awk '/User time|System time/ { s += $NF } END { printf "%.1f", s }' "$1"; }
# Peak anonymous and file-backed resident memory of a running command (sampled every 0.1 s):
# file-backed pages are mostly the LMDB map (shared page cache), anonymous ones the process's own.
# The command runs under /usr/bin/time (for its CPU time): sample time's child. The third figure
# is the kernel's own high-water mark of the whole RSS (VmHWM), read at the last sample.
peak_mem() {  # pid-of-time outfile
    local pid="" out=$2 anon=0 file=0 hwm=0 a f h
    while [ -z "$pid" ] && kill -0 "$1" 2>/dev/null; do pid=$(pgrep -P "$1" | head -1); done
    while [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; do
        a=$(awk '/^RssAnon/ {print $2}' /proc/"$pid"/status 2>/dev/null || echo 0)
        f=$(awk '/^RssFile/ {print $2}' /proc/"$pid"/status 2>/dev/null || echo 0)
        h=$(awk '/^VmHWM/ {print $2}' /proc/"$pid"/status 2>/dev/null || echo 0)
        [ -n "$a" ] && [ "$a" -gt "$anon" ] && anon=$a
        [ -n "$f" ] && [ "$f" -gt "$file" ] && file=$f
        [ -n "$h" ] && [ "$h" -gt "$hwm" ] && hwm=$h
        sleep 0.1
    done
    echo "$anon $file $hwm" > "$out"
}

if [ "${1:-}" = "--big-video" ]; then
    if [ "${2:-}" = "--quick" ]; then SECS=20; RATE=40; else SECS=${BIG_VIDEO_SECONDS:-200}; RATE=${BIG_VIDEO_MBPS:-200}; fi
    BIG=$BENCH_DIR/big-video-${SECS}s-${RATE}mbps
    if [ ! -f "$BIG/expected.json" ]; then
        rm -rf "$BIG"
        echo "generating one video of $SECS s at $RATE Mb/s" >&2
        /usr/bin/time -v -o "$BENCH_DIR/big-synth.time" "$BIN/capture-synth" "$BIG" --stills 0 --videos 1 \
            --video-seconds "$SECS" --video-mbps "$RATE" --seed 7 >&2
        SYNTH_RSS=$(awk '/Maximum resident set size/ { printf "%.1f", $NF / 1024 }' "$BENCH_DIR/big-synth.time")
    else
        SYNTH_RSS="(dump kept from an earlier run)"
    fi
    VIDEO=$(find "$BIG/captures" -name '*.mp4' -printf '%s %p\n' | sort -n | tail -1)
    rm -rf "$BENCH_DIR/big-archive"
    "$BIN/exhibit-archive" init --archive "$BENCH_DIR/big-archive" >/dev/null
    sync
    t0=$(now)
    set +e
    /usr/bin/time -v -o "$BENCH_DIR/big-ingest.time" "$BIN/exhibit-archive" ingest --archive "$BENCH_DIR/big-archive" \
        --trust "$BIG/trust/signer-root.pem" --tsa-trust "$BIG/trust/tsa-root.pem" ${INGEST_FLAGS:-} --json "$BIG" > "$BENCH_DIR/big-ingest.jsonl" &
    PID=$!
    peak_mem "$PID" "$BENCH_DIR/big-ingest.mem" &
    wait "$PID"
    RC=$?
    wait
    set -e
    t1=$(now)
    read -r ANON FILE HWM < "$BENCH_DIR/big-ingest.mem"
    echo "binaries: $BIN; video: ${VIDEO#* } (${VIDEO%% *} bytes); load $(cut -d' ' -f1-3 /proc/loadavg)"
    printf '| big-video ingest | s | CPU s | peak RssAnon MB | peak RssFile MB | VmHWM MB | exit |\n|---|---|---|---|---|---|---|\n'
    printf '| %s | %.1f | %s | %.1f | %.1f | %.1f | %s |\n' "${INGEST_FLAGS:-default}" "$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')" \
        "$(cpu "$BENCH_DIR/big-ingest.time")" "$(awk -v a="$ANON" 'BEGIN { print a / 1024 }')" \
        "$(awk -v f="$FILE" 'BEGIN { print f / 1024 }')" "$(awk -v h="$HWM" 'BEGIN { print h / 1024 }')" "$RC"
    echo "target: peak RSS ≤ 100 MB (issue 13); capture-synth's own peak RSS making it: $SYNTH_RSS MB"
    tail -1 "$BENCH_DIR/big-ingest.jsonl"
    exit 0
fi

if [ ! -f "$DUMP/expected.json" ]; then
    rm -rf "$DUMP"
    echo "generating dump: $STILLS stills, $VIDEOS videos of $VIDEO_SECONDS s" >&2
    "$BIN/capture-synth" "$DUMP" --stills "$STILLS" --videos "$VIDEOS" --video-seconds "$VIDEO_SECONDS" --seed 5 >&2
fi
# A second, small part inside the dump (its own seed and anchors) takes it past 2 GB.
if [ ! -f "$DUMP/extra/expected.json" ]; then
    rm -rf "$DUMP/extra"
    "$BIN/capture-synth" "$DUMP/extra" --stills "${EXTRA_STILLS:-60}" --videos 1 --video-seconds "$VIDEO_SECONDS" --seed 6 >&2
fi
BYTES=$(find "$DUMP" -type f -printf '%s\n' | awk '{s+=$1} END {print s}')
FILES=$(find "$DUMP" -type f | wc -l)
CAPTURES=$(find "$DUMP/captures" "$DUMP/extra/captures" -mindepth 1 -maxdepth 1 -type d | wc -l)
if [ "$BYTES" -lt 2000000000 ]; then echo "warning: dump is only $BYTES bytes (< 2 GB)" >&2; fi

LOAD_BEFORE=$(cut -d' ' -f1-3 /proc/loadavg)
# Warm the page cache so the three steps read the same way.
find "$DUMP" -type f -print0 | xargs -0 cat > /dev/null

mbps() { awk -v b="$BYTES" -v s="$1" 'BEGIN { printf "%.1f", b / 1e6 / s }'; }
rss() { awk '/Maximum resident set size/ { printf "%.1f", $NF / 1024 }' "$1"; }
# (cpu, above: CPU seconds, user + system, from /usr/bin/time -v: comparable between runs when
# the machine is shared and the wall time is not.)

# (a) OpenSSL SHA-256 on 2 cores.
t0=$(now)
/usr/bin/time -v -o "$BENCH_DIR/openssl.time" sh -c "find '$DUMP' -type f -print0 | xargs -0 -P2 -n 32 openssl dgst -sha256 > /dev/null"
t1=$(now); OPENSSL_S=$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')

# (b) Durable copy.
rm -rf "$BENCH_DIR/copy"; sync
t0=$(now)
/usr/bin/time -v -o "$BENCH_DIR/cp.time" sh -c "cp -a '$DUMP' '$BENCH_DIR/copy' && sync"
t1=$(now); CP_S=$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')
rm -rf "$BENCH_DIR/copy"; sync

# (v) For reference: verification alone (no storing), the same workers' main cost.
t0=$(now)
/usr/bin/time -v -o "$BENCH_DIR/verify.time" "$BIN/exhibit-archive" verify --trust "$DUMP/trust/signer-root.pem" --tsa-trust "$DUMP/trust/tsa-root.pem" --json "$DUMP" > /dev/null || true
t1=$(now); VERIFY_S=$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')

# (c) Ingest into a fresh archive.
rm -rf "$BENCH_DIR/archive"
"$BIN/exhibit-archive" init --archive "$BENCH_DIR/archive" >/dev/null
TRUST="--trust $DUMP/trust/signer-root.pem --tsa-trust $DUMP/trust/tsa-root.pem --trust $DUMP/extra/trust/signer-root.pem --tsa-trust $DUMP/extra/trust/tsa-root.pem"
sync
t0=$(now)
set +e
echo "ingest flags: ${INGEST_FLAGS:-(none)}" >&2
/usr/bin/time -v -o "$BENCH_DIR/ingest.time" "$BIN/exhibit-archive" ingest --archive "$BENCH_DIR/archive" --jobs "$JOBS" $TRUST $INGEST_FLAGS --json "$DUMP" > "$BENCH_DIR/ingest.jsonl" &
PID=$!
peak_mem "$PID" "$BENCH_DIR/ingest.mem" &
wait "$PID"
INGEST_RC=$?
wait
t1=$(now); INGEST_S=$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')

# (d) Re-ingest: everything present.
t0=$(now)
/usr/bin/time -v -o "$BENCH_DIR/reingest.time" "$BIN/exhibit-archive" ingest --archive "$BENCH_DIR/archive" --jobs "$JOBS" $TRUST $INGEST_FLAGS --json "$DUMP" > "$BENCH_DIR/reingest.jsonl"
t1=$(now); RE_S=$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')
set -e

SLOWER=$(awk -v a="$OPENSSL_S" -v b="$CP_S" 'BEGIN { print (a > b ? a : b) }')
RATIO=$(awk -v i="$INGEST_S" -v s="$SLOWER" 'BEGIN { printf "%.2f", s / i }')
echo "dump: $CAPTURES captures, $FILES files, $BYTES bytes ($STILLS + ${EXTRA_STILLS:-60} stills, $VIDEOS + 1 videos × $VIDEO_SECONDS s); jobs $JOBS"
printf '| step | s | MB/s | CPU s | peak RSS MB |\n|---|---|---|---|---|\n'
printf '| openssl dgst -sha256, 2 cores | %.2f | %s | %s | %s |\n' "$OPENSSL_S" "$(mbps "$OPENSSL_S")" "$(cpu "$BENCH_DIR/openssl.time")" "$(rss "$BENCH_DIR/openssl.time")"
printf '| cp -a + sync | %.2f | %s | %s | %s |\n' "$CP_S" "$(mbps "$CP_S")" "$(cpu "$BENCH_DIR/cp.time")" "$(rss "$BENCH_DIR/cp.time")"
printf '| exhibit-archive verify (reference: no storing) | %.2f | %s | %s | %s |\n' "$VERIFY_S" "$(mbps "$VERIFY_S")" "$(cpu "$BENCH_DIR/verify.time")" "$(rss "$BENCH_DIR/verify.time")"
read -r ANON FILE _ < "$BENCH_DIR/ingest.mem"
printf '| exhibit-archive ingest | %.2f | %s | %s | %.1f (anon %.1f + file-backed %.1f) |\n' "$INGEST_S" "$(mbps "$INGEST_S")" "$(cpu "$BENCH_DIR/ingest.time")" \
    "$(awk -v a="$ANON" -v f="$FILE" 'BEGIN { print (a + f) / 1024 }')" "$(awk -v a="$ANON" 'BEGIN { print a / 1024 }')" "$(awk -v f="$FILE" 'BEGIN { print f / 1024 }')"
printf '| re-ingest (all present) | %.2f | %s | %s | %s |\n' "$RE_S" "$(mbps "$RE_S")" "$(cpu "$BENCH_DIR/reingest.time")" "$(rss "$BENCH_DIR/reingest.time")"
echo "load average before / after: $LOAD_BEFORE / $(cut -d' ' -f1-3 /proc/loadavg) (2 cores; other work on the machine inflates wall and CPU times)"
echo "ingest ÷ slower of (openssl, cp+sync): $RATIO (target ≥ 0.8); ingest exit $INGEST_RC"
tail -1 "$BENCH_DIR/ingest.jsonl"
tail -1 "$BENCH_DIR/reingest.jsonl"
