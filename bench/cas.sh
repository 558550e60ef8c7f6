#!/usr/bin/env bash
# CAS benchmark: put and get of a large file (default 2 GiB) beside `openssl dgst -sha256`
# and a durable copy (cp + sync) of the same file, with peak RSS from /usr/bin/time -v.
# Usage: bash bench/cas.sh [size-MiB]   (data in $BENCH_DIR, default /tmp/exhibit-bench)
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x /opt/swift/usr/bin/swift ] && export PATH=/opt/swift/usr/bin:$PATH
MIB=${1:-2048}
DIR=${BENCH_DIR:-/tmp/exhibit-bench}
BIN=.build/release/exhibit-archive
swift build -c release --product exhibit-archive >&2
rm -rf "$DIR"; mkdir -p "$DIR"
FILE="$DIR/input.bin"
echo "bench: writing ${MIB} MiB of random data" >&2
head -c $((MIB * 1024 * 1024)) /dev/urandom > "$FILE"
sync
BYTES=$(stat -c %s "$FILE")

calc() { awk "BEGIN { print $* }"; }

# timed LABEL CMD...: runs CMD under /usr/bin/time -v, sets SECS and RSS_KB.
timed() {
    local label=$1; shift
    local t0 t1
    t0=$(date +%s.%N)
    /usr/bin/time -v -o "$DIR/time.$label" "$@" >"$DIR/out.$label"
    t1=$(date +%s.%N)
    SECS=$(calc "$t1 - $t0")
    RSS_KB=$(awk -F: '/Maximum resident/ {gsub(/ /,"",$2); print $2}' "$DIR/time.$label")
    printf '%-22s %8.2f s %9.1f MB/s  peak RSS %7.1f MB\n' "$label" "$SECS" \
        "$(calc "$BYTES / $SECS / 1000000")" "$(calc "$RSS_KB / 1024")"
}
mbps() { calc "$BYTES / $1 / 1000000"; }

timed "openssl dgst -sha256" openssl dgst -sha256 "$FILE";      T_OPENSSL=$SECS
timed "cp + sync" bash -c "cp '$FILE' '$DIR/copy.bin' && sync '$DIR/copy.bin'"; T_CP=$SECS
rm -f "$DIR/copy.bin"
export EXHIBIT_ARCHIVE="$DIR/archive"
"$BIN" init >/dev/null
timed "exhibit-archive put" "$BIN" put "$FILE";                    T_PUT=$SECS; RSS_PUT=$RSS_KB
ID=$(cut -d' ' -f1 "$DIR/out.exhibit-archive put")
# get to /dev/null: retrieval + re-hash, the same work as openssl dgst (read + hash).
timed "exhibit-archive get" bash -c "'$BIN' get '$ID' > /dev/null";  T_GET=$SECS
# get -o: also writes a 2 GiB file (temp + rename); reported, and checked byte for byte.
timed "exhibit-archive get -o" "$BIN" get "$ID" -o "$DIR/get.bin"
cmp "$FILE" "$DIR/get.bin" || { echo "bench: get returned different bytes" >&2; exit 1; }
"$BIN" stats

SLOWER=$(calc "($T_OPENSSL > $T_CP) ? $T_OPENSSL : $T_CP")
PUT_RATIO=$(calc "$SLOWER / $T_PUT")
GET_RATIO=$(calc "$T_OPENSSL / $T_GET")
printf '\nput  %.1f MB/s = %.2fx the slower of openssl/cp+sync (%.1f MB/s)  target >= 0.8x\n' \
    "$(mbps "$T_PUT")" "$PUT_RATIO" "$(mbps "$SLOWER")"
printf 'get  %.1f MB/s = %.2fx openssl dgst (%.1f MB/s)                 target >= 0.8x\n' \
    "$(mbps "$T_GET")" "$GET_RATIO" "$(mbps "$T_OPENSSL")"
printf 'put peak RSS %.1f MB                                           target < 64 MB\n' "$(calc "$RSS_PUT / 1024")"
rm -rf "$DIR"
