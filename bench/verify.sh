#!/usr/bin/env bash
# Verify benchmark (issue 4): stills/s of `exhibit-archive verify --json` against c2pa-python's
# Reader (one Python process looping over the same files), and video MB/s of verify against
# `openssl dgst -sha256` of the same MP4. Same run, same files, one core each (taskset -c 0),
# warm page cache, best of 3.
# Usage: bash bench/verify.sh [stills]   (default 500; data in $BENCH_DIR, default /tmp/exhibit-verify-bench)
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x /opt/swift/usr/bin/swift ] && export PATH=/opt/swift/usr/bin:$PATH
N=${1:-500}
DIR=${BENCH_DIR:-/tmp/exhibit-verify-bench}
BIN=$PWD/.build/release/exhibit-archive
PY=${PYTHON:-}
if [ -z "$PY" ]; then
    if [ -x .venv/bin/python ]; then PY=.venv/bin/python; else PY=/tmp/venvtest/bin/python; fi
fi
swift build -c release --product exhibit-archive >&2
mkdir -p "$DIR"
if [ ! -f "$DIR/video-src.mp4" ]; then
    echo "bench: encoding a 60 s 1080p H.264 10 Mb/s + AAC source (~76 MB)" >&2
    ffmpeg -loglevel error -y -f lavfi -i "testsrc2=size=1920x1080:rate=30" \
        -f lavfi -i "sine=frequency=440:sample_rate=48000" -t 60 \
        -c:v libx264 -preset ultrafast -b:v 10M -minrate 10M -maxrate 10M -bufsize 10M \
        -x264-params nal-hrd=cbr -c:a aac -b:a 128k "$DIR/video-src.mp4"
fi
if [ ! -f "$DIR/stills/still-$(printf %04d $((N - 1))).jpg" ] || [ ! -f "$DIR/video.mp4" ]; then
    echo "bench: signing $N stills and the video with c2pa-python (ES256 chain, local TSA)" >&2
    rm -rf "$DIR/stills" "$DIR/pki"
    "$PY" bench/verify_fixtures.py "$DIR" "$N" >/dev/null
fi
STILLS=("$DIR"/stills/still-*.jpg)
STILLS=("${STILLS[@]:0:$N}")
TRUST=(--trust "$DIR/pki/signer-anchors.pem" --tsa-trust "$DIR/pki/tsa-anchors.pem")
cat "${STILLS[@]}" "$DIR/video.mp4" > /dev/null   # warm the page cache

calc() { awk "BEGIN { print $* }"; }
now() { date +%s.%N; }
best() { printf '%s\n' "$@" | sort -g | head -1; }

# Stills: ours (whole process: start, discover, verify, JSON out) vs c2pa-python (loop only).
T_OURS=(); T_PY=()
for _ in 1 2 3; do
    t0=$(now); taskset -c 0 "$BIN" verify --json "${TRUST[@]}" "${STILLS[@]}" > "$DIR/ours.jsonl" || true; t1=$(now)
    T_OURS+=("$(calc "$t1 - $t0")")
    T_PY+=("$(taskset -c 0 "$PY" bench/c2pa_reader_loop.py "$DIR/pki/signer-anchors.pem" "${STILLS[@]}" | tail -1)")
done
OURS_OK=$(grep -c '"integrity":"intact".*"trust":"trusted"\|"trust":"trusted".*"integrity":"intact"' "$DIR/ours.jsonl" || true)
PY_OK=$(taskset -c 0 "$PY" bench/c2pa_reader_loop.py "$DIR/pki/signer-anchors.pem" "${STILLS[@]}" | head -1)
S_OURS=$(best "${T_OURS[@]}"); S_PY=$(best "${T_PY[@]}")
SIZE=$(stat -c %s "${STILLS[0]}")
printf 'stills: %d files of %d bytes; intact+trusted: ours %s, c2pa-python Trusted %s\n' "$N" "$SIZE" "$OURS_OK" "$PY_OK"
printf '  exhibit-archive verify --json  %8.3f s  %8.1f stills/s\n' "$S_OURS" "$(calc "$N / $S_OURS")"
printf '  c2pa-python Reader loop        %8.3f s  %8.1f stills/s\n' "$S_PY" "$(calc "$N / $S_PY")"
printf '  ratio ours / c2pa-python: %.1fx (target >= 10x)\n' "$(calc "$S_PY / $S_OURS")"

# Video: verify (C2PA + whole-file SHA-256 from the same read) vs openssl dgst -sha256.
BYTES=$(stat -c %s "$DIR/video.mp4")
T_V=(); T_O=()
for _ in 1 2 3; do
    t0=$(now); taskset -c 0 "$BIN" verify --json "${TRUST[@]}" "$DIR/video.mp4" > "$DIR/video.jsonl" || true; t1=$(now)
    T_V+=("$(calc "$t1 - $t0")")
    t0=$(now); taskset -c 0 openssl dgst -sha256 "$DIR/video.mp4" > /dev/null; t1=$(now)
    T_O+=("$(calc "$t1 - $t0")")
done
S_V=$(best "${T_V[@]}"); S_O=$(best "${T_O[@]}")
printf 'video: %d bytes; verify integrity %s\n' "$BYTES" "$(grep -o '"integrity":"[a-z]*"' "$DIR/video.jsonl")"
printf '  exhibit-archive verify --json  %8.3f s  %8.1f MB/s\n' "$S_V" "$(calc "$BYTES / $S_V / 1000000")"
printf '  openssl dgst -sha256           %8.3f s  %8.1f MB/s\n' "$S_O" "$(calc "$BYTES / $S_O / 1000000")"
printf '  ratio verify / openssl: %.2fx (target >= 0.9x)\n' "$(calc "$S_O / $S_V")"
