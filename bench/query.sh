#!/usr/bin/env bash
# Query benchmark: fills an archive with N (default 1,000,000) synthetic IndexedRecords through
# RecordIndex.put (helper bench/QueryBench, not part of the product CLI), then in the same run
# times the Query API in-process (p50/p95/max) and the wall time of `exhibit-archive query`
# (median of 7 runs, process start included).
# Usage: bash bench/query.sh [N]   (data in $BENCH_DIR, default /tmp/exhibit-query-bench;
#        KEEP=1 reuses an archive already holding N records instead of rebuilding it)
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x /opt/swift/usr/bin/swift ] && export PATH=/opt/swift/usr/bin:$PATH
N=${1:-1000000}
DIR=${BENCH_DIR:-/tmp/exhibit-query-bench}
ARCHIVE="$DIR/archive"
swift build -c release --product exhibit-archive >&2
swift build -c release --product QueryBench >&2
BIN=.build/release/exhibit-archive
HELPER=.build/release/QueryBench
[ "${KEEP:-0}" = 1 ] || rm -rf "$DIR"
mkdir -p "$DIR"

echo "== build: $N synthetic records"
/usr/bin/time -v -o "$DIR/time.build" "$HELPER" build "$ARCHIVE" "$N"
awk -F: '/Maximum resident/ {gsub(/ /,"",$2); printf "build_peak_rss_mb %.0f\n", $2/1024}' "$DIR/time.build"
du -sh "$ARCHIVE" | awk '{print "archive_size " $1}'

echo "== in-process (Query API, warm page cache)"
"$HELPER" measure "$ARCHIVE" | tee "$DIR/measure.txt"
FP=$(awk '/^cli_fingerprint/ {print $2}' "$DIR/measure.txt")

echo "== CLI wall time (median of 7; includes process start, archive open)"
# wall LABEL ARGS...: median wall time of `exhibit-archive ARGS` in ms, and its output.
wall() {
    local label=$1; shift
    local times=() out=""
    for _ in 1 2 3 4 5 6 7; do
        local t0 t1
        t0=$(date +%s%N)
        out=$("$BIN" "$@" --archive "$ARCHIVE" | tr '\n' ' ')
        t1=$(date +%s%N)
        times+=($(( (t1 - t0) / 1000 )))
    done
    local median
    median=$(printf '%s\n' "${times[@]}" | sort -n | sed -n 4p)
    printf '%-48s %8.2f ms  (%s)\n' "$label" "$(awk "BEGIN {print $median / 1000}")" "${out:0:60}"
}
t0=$(date +%s%N); for _ in 1 2 3 4 5 6 7; do "$BIN" --help >/dev/null; done; t1=$(date +%s%N)
printf '%-48s %8.2f ms  (mean of 7, no archive)\n' "process start only (--help)" "$(awk "BEGIN {print ($t1 - $t0) / 7000000}")"
wall "process start + open (query --key 00…00 --count)" query --key "$(printf '0%.0s' {1..64})" --count
wall "query --key FP --count" query --key "$FP" --count
wall "query --key FP --limit 100 --format csv" query --key "$FP" --limit 100 --format csv
wall "query --key FP8 --limit 100 --format csv" query --key "${FP:0:8}" --limit 100 --format csv
wall "query --key FP --time 2026-06-15T14 --format csv" query --key "$FP" --time 2026-06-15T14 --format csv
wall "query --sidecar uncommitted --count" query --sidecar uncommitted --count
wall "query --sidecar uncommitted --sink audio --count" query --sidecar uncommitted --sink audio --count
wall "query --time 2026-06-15 --count" query --time 2026-06-15 --count
wall "query --time 2026-06 --count" query --time 2026-06 --count

echo "== peak RSS of a listing (/usr/bin/time -v; RssFile = the map's page-cache pages, RssAnon = heap)"
for args in "--format csv" "--limit 100 --format csv"; do
    # shellcheck disable=SC2086
    /usr/bin/time -v -o "$DIR/time.list" "$BIN" query --key "$FP" $args --archive "$ARCHIVE" >/dev/null
    awk -F: -v a="$args" '/Maximum resident/ {gsub(/ /,"",$2); printf "query --key FP %-24s peak_rss_mb %.0f\n", a, $2/1024}' "$DIR/time.list"
done
"$HELPER" list "$ARCHIVE" "$FP"
