#!/usr/bin/env bash
# Ingest benchmark (issue 5): a ≥ 2 GB mixed capture-synth dump (stills and videos), then in the
# same run, over the same files (page cache warmed first, so every step reads from memory):
#   (a) openssl dgst -sha256 of every file on 2 cores (xargs -P2)
#   (b) a durable copy: cp -a + sync; (b2) the LMDB durable write floor (bench/lmdb_floor.c)
#   (c) exhibit-archive ingest (release build), peak RSS by /usr/bin/time -v
#   (d) re-ingest of the same dump (all present)
# and prints MB/s and ingest ÷ the slower of (a) and (b) (target ≥ 0.8).
#
# Environment: BENCH_DIR (default /tmp/exhibit-ingest-bench), STILLS (default 3900), VIDEOS
# (default 3), VIDEO_SECONDS (default 20), JOBS (ingest --jobs, default: core count),
# INGEST_FLAGS (extra ingest flags, e.g. INGEST_FLAGS=--no-media; printed with the result).
# The dump is kept between runs (delete $BENCH_DIR/dump to regenerate).
#
# Issue 13, in the same run: (e) `ingest --defer-media` into a fresh archive (its ratio to the same
# denominator), (f) `analyze` of that archive (stills per second), and (g) the decode floor:
# bench/decode_floor.c making analyze's own libjpeg-turbo calls on a sample of the same stills
# (delivery file to planes at 1/4, second view to gray at 1/8), timed in CPU seconds, as stills per
# second on $JOBS cores (tjbench's wall-timed figure, with the second view to YUV, beside it); then CPU
# seconds per stage and per capture. The peak RSS of (c), (e) and (f) is sampled every 0.1 s from
# /proc/PID/status and printed split: anonymous (the process's own) + file-backed (LMDB's map).
# `--quick` uses a small dump (QUICK_STILLS, default 400 stills + 1 video of 10 s, in
# $BENCH_DIR-quick) and skips (v); `--video-heavy` a video-heavy one (200
# stills, 16 videos of 40 s, ~1 GB, in $BENCH_DIR-video; with --quick: 50 stills, 4 videos of 20 s).
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
QUICK=0; HEAVY=0
for a in "$@"; do
    case "$a" in --quick) QUICK=1 ;; --video-heavy) HEAVY=1 ;; esac
done
if [ "${1:-}" != "--big-video" ]; then
    if [ "$HEAVY" = 1 ] && [ "$QUICK" = 1 ]; then BENCH_DIR=$BENCH_DIR-video-quick; STILLS=50; VIDEOS=4; VIDEO_SECONDS=20; EXTRA_STILLS=0
    elif [ "$HEAVY" = 1 ]; then BENCH_DIR=$BENCH_DIR-video; STILLS=200; VIDEOS=16; VIDEO_SECONDS=40; EXTRA_STILLS=0
    elif [ "$QUICK" = 1 ]; then BENCH_DIR=$BENCH_DIR-quick; STILLS=${QUICK_STILLS:-400}; VIDEOS=1; VIDEO_SECONDS=10; EXTRA_STILLS=20
    fi
fi
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
# Pictures tjbench wrote into the dump before it was run with -nowrite (see fps below).
find "$DUMP/captures" "$DUMP/extra/captures" \( -name '*_1_4.ppm' -o -name '*_1_8.ppm' \) -type f -delete 2>/dev/null || true
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

# (b2) The LMDB durable write floor: bench/lmdb_floor.c puts every file of the dump as one value
# (32-byte keys from a spread counter, no hashing) into a fresh LMDB environment opened as the
# archive's (MDB_NOTLS, durable commits), in transactions of ~32 MiB (ingest's batch): what LMDB
# as the blob store costs on this disk with no verification and no SHA-256.
"${CC:-$(command -v cc || command -v clang)}" -O2 -o "$BENCH_DIR/lmdb_floor" "$ROOT/bench/lmdb_floor.c" -llmdb
rm -rf "$BENCH_DIR/lmdb-floor"; sync
t0=$(now)
find "$DUMP" -type f -print0 | /usr/bin/time -v -o "$BENCH_DIR/lmdb-floor.time" "$BENCH_DIR/lmdb_floor" "$BENCH_DIR/lmdb-floor" 32 > "$BENCH_DIR/lmdb-floor.out"
t1=$(now); LMDB_S=$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')
LMDB_TXNS=$(awk '{ print $6 }' "$BENCH_DIR/lmdb-floor.out")
rm -rf "$BENCH_DIR/lmdb-floor"; sync

# (v) For reference: verification alone (no storing), the same workers' main cost.
VERIFY_S=0
if [ "$QUICK" = 0 ]; then
    t0=$(now)
    /usr/bin/time -v -o "$BENCH_DIR/verify.time" "$BIN/exhibit-archive" verify --trust "$DUMP/trust/signer-root.pem" --tsa-trust "$DUMP/trust/tsa-root.pem" --json "$DUMP" > /dev/null || true
    t1=$(now); VERIFY_S=$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')
fi

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

# (e) Ingest with the media analyses deferred, into a fresh archive; (f) analyze it.
rm -rf "$BENCH_DIR/archive-deferred"
"$BIN/exhibit-archive" init --archive "$BENCH_DIR/archive-deferred" >/dev/null
sync
t0=$(now)
/usr/bin/time -v -o "$BENCH_DIR/deferred.time" "$BIN/exhibit-archive" ingest --archive "$BENCH_DIR/archive-deferred" --jobs "$JOBS" $TRUST --defer-media --json "$DUMP" > "$BENCH_DIR/deferred.jsonl" &
PID=$!
peak_mem "$PID" "$BENCH_DIR/deferred.mem" &
wait "$PID"
wait
t1=$(now); DEFERRED_S=$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')
t0=$(now)
/usr/bin/time -v -o "$BENCH_DIR/analyze.time" "$BIN/exhibit-archive" analyze --archive "$BENCH_DIR/archive-deferred" --jobs "$JOBS" --json > "$BENCH_DIR/analyze.jsonl" &
PID=$!
peak_mem "$PID" "$BENCH_DIR/analyze.mem" &
wait "$PID"
wait
t1=$(now); ANALYZE_S=$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')
set -e
RECORDS=$("$BIN/exhibit-archive" query --archive "$BENCH_DIR/archive-deferred" --count --format csv | tail -1 | cut -d, -f1)
STILL_RECORDS=$("$BIN/exhibit-archive" query --archive "$BENCH_DIR/archive-deferred" --kind still --count --format csv | tail -1 | cut -d, -f1)
VIDEO_RECORDS=$("$BIN/exhibit-archive" query --archive "$BENCH_DIR/archive-deferred" --kind video --count --format csv | tail -1 | cut -d, -f1)

# (g) The decode floor: libjpeg-turbo (tjbench) on a sample of the same stills, at the scales analyze
# decodes at (delivery file to planes at 1/4, second view at 1/8; tjbench has no gray output, so the
# second view is decoded to planes too: a little more work than analyze's gray decode), 0.3 s each.
SAMPLE=${FLOOR_SAMPLE:-24}
# -nowrite: without it tjbench writes its decoded picture beside the input (NAME_1_4.ppm), i.e.
# into the dump, where every later run met it as an unreferenced evidence file or a loose file.
fps() { tjbench "$1" -scale "$2" -yuv -benchtime 0.3 -warmup 0.1 -nowrite 2>/dev/null | awk '/Decomp to YUV --> Frame rate/ { print $(NF - 1) }' | head -1; }
set +o pipefail   # head closing its pipe early is not a failure here
FLOOR_PER_STILL=$(find "$DUMP/captures" -mindepth 2 -maxdepth 3 -name second-view.jpg | head -"$SAMPLE" | while read -r sv; do
    d=$(dirname "$(dirname "$sv")"); del=$(find "$d" -maxdepth 1 -name '*.jpg' | head -1)
    [ -n "$del" ] || continue
    echo "$(fps "$del" 1/4) $(fps "$sv" 1/8)"
done | awk '$1 > 0 && $2 > 0 { s += 1 / $1 + 1 / $2; n++ } END { if (n) printf "%.6f", s / n; else print 0 }')
FLOOR_STILLS_S=$(awk -v p="$FLOOR_PER_STILL" -v j="$JOBS" 'BEGIN { if (p > 0) printf "%.1f", j / p; else print 0 }')
# (g) exactly (since session 9, the ratio's denominator): bench/decode_floor.c makes analyze's own
# libjpeg-turbo calls on the same sample — the delivery file to planes at the smallest scale at
# least 320 x 240 (tjDecompressToYUVPlanes, 1/4), the second view straight to gray at the
# smallest at least 96 x 64 (tjDecompress2 TJPF_GRAY, 1/8), analyze's flags — and times them in
# CPU seconds (tjbench's frame rates are wall time, which other work on the machine inflates).
# Any C compiler: the system's cc, else the clang that comes with the Swift toolchain.
"${CC:-$(command -v cc || command -v clang)}" -O2 -o "$BENCH_DIR/decode_floor" "$ROOT/bench/decode_floor.c" -lturbojpeg
FLOOR_PAIRS=$(find "$DUMP/captures" -mindepth 2 -maxdepth 3 -name second-view.jpg | head -"$SAMPLE" | while read -r sv; do
    d=$(dirname "$(dirname "$sv")"); del=$(find "$d" -maxdepth 1 -name '*.jpg' | head -1)
    if [ -n "$del" ]; then echo "$del $sv"; fi
done)
set -o pipefail
# shellcheck disable=SC2086 # one word per file (the dump's paths have no spaces)
FLOOR_MS=$("$BENCH_DIR/decode_floor" 0.3 $FLOOR_PAIRS | awk '/^mean/ { print $2 }')
EXACT_STILLS_S=$(awk -v p="${FLOOR_MS:-0}" -v j="$JOBS" 'BEGIN { if (p > 0) printf "%.1f", j * 1000 / p; else print 0 }')
ANALYZE_STILLS_S=$(awk -v n="$STILL_RECORDS" -v s="$ANALYZE_S" 'BEGIN { printf "%.1f", n / s }')

SLOWER=$(awk -v a="$OPENSSL_S" -v b="$CP_S" 'BEGIN { print (a > b ? a : b) }')
RATIO=$(awk -v i="$INGEST_S" -v s="$SLOWER" 'BEGIN { printf "%.2f", s / i }')
echo "dump: $CAPTURES captures, $FILES files, $BYTES bytes ($STILLS + ${EXTRA_STILLS:-60} stills, $VIDEOS + 1 videos × $VIDEO_SECONDS s); jobs $JOBS"
printf '| step | s | MB/s | CPU s | peak RSS MB |\n|---|---|---|---|---|\n'
printf '| openssl dgst -sha256, 2 cores | %.2f | %s | %s | %s |\n' "$OPENSSL_S" "$(mbps "$OPENSSL_S")" "$(cpu "$BENCH_DIR/openssl.time")" "$(rss "$BENCH_DIR/openssl.time")"
printf '| cp -a + sync | %.2f | %s | %s | %s |\n' "$CP_S" "$(mbps "$CP_S")" "$(cpu "$BENCH_DIR/cp.time")" "$(rss "$BENCH_DIR/cp.time")"
printf '| LMDB durable write floor (bench/lmdb_floor.c, %s commits of ~32 MiB) | %.2f | %s | %s | %s |\n' "$LMDB_TXNS" "$LMDB_S" "$(mbps "$LMDB_S")" "$(cpu "$BENCH_DIR/lmdb-floor.time")" "$(rss "$BENCH_DIR/lmdb-floor.time")"
if [ "$QUICK" = 0 ]; then
    printf '| exhibit-archive verify (reference: no storing) | %.2f | %s | %s | %s |\n' "$VERIFY_S" "$(mbps "$VERIFY_S")" "$(cpu "$BENCH_DIR/verify.time")" "$(rss "$BENCH_DIR/verify.time")"
fi
# Peak RSS split as sampled: anonymous (the process's own) + file-backed (mostly LMDB's map).
split_rss() { read -r ANON FILE _ < "$1"; awk -v a="$ANON" -v f="$FILE" 'BEGIN { printf "%.1f (anon %.1f + file-backed %.1f)", (a + f) / 1024, a / 1024, f / 1024 }'; }
printf '| exhibit-archive ingest | %.2f | %s | %s | %s |\n' "$INGEST_S" "$(mbps "$INGEST_S")" "$(cpu "$BENCH_DIR/ingest.time")" "$(split_rss "$BENCH_DIR/ingest.mem")"
printf '| re-ingest (all present) | %.2f | %s | %s | %s |\n' "$RE_S" "$(mbps "$RE_S")" "$(cpu "$BENCH_DIR/reingest.time")" "$(rss "$BENCH_DIR/reingest.time")"
printf '| ingest --defer-media | %.2f | %s | %s | %s |\n' "$DEFERRED_S" "$(mbps "$DEFERRED_S")" "$(cpu "$BENCH_DIR/deferred.time")" "$(split_rss "$BENCH_DIR/deferred.mem")"
printf '| analyze (%s records: %s stills, %s videos) | %.2f | %s stills/s | %s | %s |\n' "$RECORDS" "$STILL_RECORDS" "$VIDEO_RECORDS" "$ANALYZE_S" "$ANALYZE_STILLS_S" "$(cpu "$BENCH_DIR/analyze.time")" "$(split_rss "$BENCH_DIR/analyze.mem")"
printf '| decode floor: tjbench, delivery 1/4 + second view 1/8 (both to YUV; wall time), %s cores (sample of %s stills) | | %s stills/s | | |\n' "$JOBS" "$SAMPLE" "$FLOOR_STILLS_S"
printf '| decode floor: decode_floor.c, delivery to planes 1/4 + second view to gray 1/8 (CPU time, %s ms a still), %s cores | | %s stills/s | | |\n' "$FLOOR_MS" "$JOBS" "$EXACT_STILLS_S"
echo "load average before / after: $LOAD_BEFORE / $(cut -d' ' -f1-3 /proc/loadavg) (2 cores; other work on the machine inflates wall and CPU times)"
per() { awk -v c="$(cpu "$1")" -v n="$CAPTURES" 'BEGIN { printf "%.2f", c * 1000 / n }'; }
echo "CPU per capture (ms, user + system ÷ $CAPTURES captures): default ingest $(per "$BENCH_DIR/ingest.time"); ingest --defer-media $(per "$BENCH_DIR/deferred.time"); analyze $(per "$BENCH_DIR/analyze.time"); deferred + analyze $(awk -v a="$(cpu "$BENCH_DIR/deferred.time")" -v b="$(cpu "$BENCH_DIR/analyze.time")" -v n="$CAPTURES" 'BEGIN { printf "%.2f", (a + b) * 1000 / n }')"
echo "denominator: slower of (openssl $OPENSSL_S s, cp+sync $CP_S s) = $SLOWER s"
echo "ingest ${INGEST_FLAGS:-(default)} ÷ denominator: $RATIO (target ≥ 0.4 by default, issue 13); ingest exit $INGEST_RC"
echo "ingest --defer-media ÷ denominator: $(awk -v i="$DEFERRED_S" -v s="$SLOWER" 'BEGIN { printf "%.2f", s / i }') (target ≥ 0.8)"
echo "ingest --defer-media ÷ LMDB durable write floor: $(awk -v i="$DEFERRED_S" -v s="$LMDB_S" 'BEGIN { printf "%.2f", s / i }') (floor $LMDB_S s; the LMDB floor ÷ denominator: $(awk -v l="$LMDB_S" -v s="$SLOWER" 'BEGIN { printf "%.2f", s / l }'), the most --defer-media could reach with LMDB as the blob store)"
echo "analyze stills/s ÷ decode floor: $ANALYZE_STILLS_S ÷ $EXACT_STILLS_S = $(awk -v a="$ANALYZE_STILLS_S" -v f="$EXACT_STILLS_S" 'BEGIN { if (f > 0) printf "%.2f", a / f; else print "n/a" }') (target ≥ 0.8; analyze's time includes its videos; against tjbench's floor as before session 9: $(awk -v a="$ANALYZE_STILLS_S" -v f="$FLOOR_STILLS_S" 'BEGIN { if (f > 0) printf "%.2f", a / f; else print "n/a" }'))"
echo "analyze in CPU: floor $FLOOR_MS ms a still ÷ analyze $(per "$BENCH_DIR/analyze.time") ms a record = $(awk -v f="${FLOOR_MS:-0}" -v a="$(per "$BENCH_DIR/analyze.time")" 'BEGIN { if (a > 0) printf "%.2f", f / a; else print "n/a" }') (the ratio analyze would reach with $JOBS cores busy all the time)"
tail -1 "$BENCH_DIR/analyze.jsonl"
tail -1 "$BENCH_DIR/ingest.jsonl"
tail -1 "$BENCH_DIR/reingest.jsonl"
