#!/usr/bin/env bash
# Query latency over N (default 1,000,000) records, PostgreSQL next to LMDB (issue 15): the
# same N synthetic records (bench/BenchRecords) go into an LMDB archive through RecordIndex.put
# (bench/QueryBench) and into the archive's PostgreSQL tables through COPY (bench/PGBench); then
# each helper times the same queries in-process (p50/p95/max, warm cache) and this script prints
# them side by side, with the targets of issue 15 and whether both stores gave the same answer.
# Usage: bash bench/pg.sh [N]
#   data in $BENCH_DIR (default /tmp/exhibit-pg-bench): the LMDB archive and, unless
#   EXHIBIT_PG_URL names a server, a throwaway PostgreSQL started there with
#   scripts/services/postgres-up.sh and stopped (by its pid file) at exit;
#   KEEP=1 reuses what an earlier run built (both helpers fill up to N) instead of rebuilding;
#   PG_BENCH_SCHEMA (default `bench`) is the PostgreSQL schema the tables go in.
# Output: the raw timings of each store, then the table; `cat /proc/loadavg` before and after
# each timing run, since the machine may be shared.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x /opt/swift/usr/bin/swift ] && export PATH=/opt/swift/usr/bin:$PATH
N=${1:-1000000}
DIR=${BENCH_DIR:-/tmp/exhibit-pg-bench}
export PG_BENCH_SCHEMA=${PG_BENCH_SCHEMA:-bench}
swift build -c release --product QueryBench >&2
swift build -c release --product PGBench >&2
LMDB_HELPER=.build/release/QueryBench
PG_HELPER=.build/release/PGBench
load() { echo "load $(cut -d' ' -f1-3 /proc/loadavg)"; }

[ "${KEEP:-0}" = 1 ] || rm -rf "$DIR/archive"
mkdir -p "$DIR"
if [ -z "${EXHIBIT_PG_URL:-}" ]; then
    eval "$(bash scripts/services/postgres-up.sh "$DIR/pg")"
    trap 'bash scripts/services/postgres-down.sh "$DIR/pg"' EXIT
fi
[ "${KEEP:-0}" = 1 ] || "$PG_HELPER" drop

echo "== build: $N synthetic records"
load
/usr/bin/time -v -o "$DIR/time.lmdb" "$LMDB_HELPER" build "$DIR/archive" "$N" | sed 's/^/lmdb /'
/usr/bin/time -v -o "$DIR/time.pg" "$PG_HELPER" build "$N" | sed 's/^/postgresql /'
du -sh "$DIR/archive" | awk '{print "lmdb archive_size " $1}'
load

echo "== in-process timings, LMDB RecordIndex (warm page cache)"
load
"$LMDB_HELPER" measure "$DIR/archive" | tee "$DIR/lmdb.txt"
load
echo "== in-process timings, PostgreSQL RecordTable (warm shared buffers; one connection, 127.0.0.1)"
load
"$PG_HELPER" measure | tee "$DIR/pg.txt"
load

# The table: one row per query label both helpers printed, in the helpers' order.
parse() { sed -nE 's/^(.*[^ ]) +p50 +([0-9.]+) ms +p95 +([0-9.]+) ms +max +([0-9.]+) ms +\((.*)\)$/\1\t\2\t\3\t\4\t\5/p' "$1"; }
parse "$DIR/lmdb.txt" > "$DIR/lmdb.tsv"
parse "$DIR/pg.txt" > "$DIR/pg.tsv"
echo
echo "== $N records: p50 (ms), LMDB vs PostgreSQL; $(load)"
awk -F'\t' '
    # The targets of issue 15 (fingerprint lookup < 2 ms; sidecar and time-prefix counts < 50 ms).
    function target(label) {
        if (label ~ /^fingerprint count/ || label ~ /first 100 IDs/) return "< 2"
        if (label ~ /^--sidecar uncommitted --count/ || label ~ /^--time 2026-06(-15(T14)?)? --count/) return "< 50"
        return ""
    }
    NR == FNR { lmdb[$1] = $2; lans[$1] = $5; next }
    {
        t = target($1); verdict = ""
        if (t != "") { split(t, a, " "); verdict = ($2 + 0 < a[2] + 0) ? "met" : "MISSED" }
        same = ($1 in lans) ? (lans[$1] == $5 ? "same" : "DIFFERENT (lmdb " lans[$1] ")") : "-"
        printf "| %-46s | %9s | %9.3f | %9.3f | %-5s %-6s | %s, %s |\n", $1, ($1 in lmdb) ? sprintf("%.3f", lmdb[$1]) : "-", $2, $3, t, verdict, $5, same
    }
    BEGIN { printf "| %-46s | %9s | %9s | %9s | %-12s | %s |\n", "query", "LMDB p50", "PG p50", "PG p95", "target (PG)", "answer"
            printf "|%s|%s|%s|%s|%s|%s|\n", "---", "---", "---", "---", "---", "---" }
' "$DIR/lmdb.tsv" "$DIR/pg.tsv"
