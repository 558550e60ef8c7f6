#!/usr/bin/env bash
# S3 benchmark: put and get MB/s of our client (bench/S3Bench over the S3 module) against boto3's
# managed transfers (tests/peers/s3_peer.py: 8 MiB parts, 10 threads) on the same files and the
# same objects, same server, same run; then the peak RSS of a 1 GiB streamed put and get.
# The machine is shared: each size runs ROUNDS rounds, ours and boto3 interleaved within each
# round (ours put, boto3 put, ours get, boto3 get); the table gives the medians (a ratio is the
# median of the rounds' ratios), the load before and after, and the CPU each client spent per MB
# (its own user + system time during the transfers, all threads; interpreter start-up excluded)
# beside the server's (radosgw + ceph-osd, from /proc, when their pid files are in
# $EXHIBIT_CEPH_DIR/run; the server is shared, so other users' requests land in it too). Each
# round also times boto3 doing our client's integrity work (s3_peer.py bench put-hashed:
# Content-MD5 per part and a second SHA-256 pass), to tell hashing cost from client speed; the
# target stays plain boto3.
# Usage: bash bench/s3.sh   (server: the AWS_*/EXHIBIT_S3_BUCKET environment, else
#        scripts/services/ceph-up.sh is run; data in $BENCH_DIR, default /tmp/exhibit-s3-bench)
# Knobs: S3_BENCH_SMALL_COUNT (1 MiB objects, default 32), S3_BENCH_LARGE_COUNT (64 MiB objects,
# default 4), S3_BENCH_ROUNDS (default 3), S3_BENCH_BIG_MIB (the memory run, default 1024; 0 skips
# it), S3_BENCH_CONCURRENCY (parts in flight of our multipart put; default: the store's, 4),
# S3_BENCH_PART_MIB (our part size and multipart threshold; default: the store's, 8),
# S3_BENCH_THRESHOLD_MIB (our multipart threshold alone; default: the store's, 64: a 64 MiB
# object is one streamed PUT, 8 gives the parts of before), S3_BENCH_GET_CONCURRENCY (our
# ranged GETs in flight; default: the store's, 4; 1 reads each object with one GET).
# Then ingest MB/s of one capture-synth dump into an LMDB archive and into an S3-backed one
# (init --blobs s3://BUCKET/PREFIX) on the same server, same run (release exhibit-archive):
# S3_BENCH_INGEST_STILLS (default 200; 0 skips it), S3_BENCH_INGEST_VIDEOS (default 2),
# S3_BENCH_INGEST_SECONDS (video length, default 10), S3_BENCH_INGEST_JOBS (default: cores);
# beside them boto3 putting the same files (s3_peer.py bench put-tree: each content once, as
# objects named by its SHA-256, 8 in flight, no verifying), the peer of the S3 ingest's uploads.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x /opt/swift/usr/bin/swift ] && export PATH=/opt/swift/usr/bin:$PATH
swift build -c release --product S3Bench >&2
if [ "${S3_BENCH_INGEST_STILLS:-200}" -gt 0 ]; then
    swift build -c release --product exhibit-archive >&2
    swift build -c release --product capture-synth >&2
fi
BIN=.build/release/S3Bench
PEER=(.venv/bin/python tests/peers/s3_peer.py)
if [ -z "${AWS_ENDPOINT_URL_S3:-}" ] || [ -z "${EXHIBIT_S3_BUCKET:-}" ]; then
    exports=$(bash scripts/services/ceph-up.sh)
    eval "$exports"
fi
DIR=${BENCH_DIR:-/tmp/exhibit-s3-bench}
ROUNDS=${S3_BENCH_ROUNDS:-3}
rm -rf "$DIR"; mkdir -p "$DIR"
RUN="bench/$(date +%s)-$$"
trap 'timeout 600 "${PEER[@]}" purge "$EXHIBIT_S3_BUCKET" "$RUN/" >/dev/null 2>&1 || true; rm -rf "$DIR"' EXIT
calc() { awk "BEGIN { print $* }"; }
field() { awk -v k="$1" '$1 == k { print $2 }' "$2"; }
# The median of the numbers on stdin, to 2 decimals ("n/a" for none).
median() { sort -g | awk '{ v[NR] = $1 } END { if (NR == 0) print "n/a"; else printf "%.2f\n", (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
# CPU ticks (1/100 s) of radosgw + ceph-osd so far, or empty when their pids are not known here.
CEPH_RUN=${EXHIBIT_CEPH_DIR:-/tmp/exhibit-ceph}/run
server_ticks() {
    local t=0 f p
    for f in "$CEPH_RUN/client.rgw.a.pid" "$CEPH_RUN/osd.0.pid"; do
        p=$(cat "$f" 2>/dev/null) && [ -r "/proc/$p/stat" ] || { echo ""; return; }
        t=$((t + $(awk '{ print $14 + $15 }' "/proc/$p/stat")))
    done
    echo "$t"
}
ms_per_mb() { [ -n "$1" ] && [ -n "$2" ] && calc "($2 - $1) * 10 / ($3 / 1e6)" || echo "n/a"; }

echo "commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown)$(git diff --quiet 2>/dev/null || echo '+changes'), $(date -u +%Y-%m-%dT%H:%MZ), $ROUNDS rounds"
echo "load before: $(cat /proc/loadavg)"
ROWS=$DIR/rows CPUROWS=$DIR/cpurows
: > "$ROWS"; : > "$CPUROWS"
run_size() {
    local mib=$1 count=$2 files=() i r
    for i in $(seq 1 "$count"); do
        head -c $((mib << 20)) /dev/urandom > "$DIR/obj-$mib-$i"
        files+=("$DIR/obj-$mib-$i")
    done
    local bytes=$(( (mib << 20) * count )) load0 load1
    load0=$(cut -d' ' -f1 /proc/loadavg)
    : > "$DIR/rounds"
    for r in $(seq 1 "$ROUNDS"); do
        local pairs=() hashed=() s0 s1 s2
        for i in $(seq 1 "$count"); do
            pairs+=("$DIR/obj-$mib-$i" "$RUN/$r/boto3/$mib-$i")
            hashed+=("$DIR/obj-$mib-$i" "$RUN/$r/boto3-hashed/$mib-$i")
        done
        s0=$(server_ticks)
        "$BIN" put "$RUN/$r/ours" "${files[@]}" > "$DIR/put.out"
        s1=$(server_ticks)
        "${PEER[@]}" bench put "$EXHIBIT_S3_BUCKET" "${pairs[@]}" > "$DIR/boto-put.out"
        s2=$(server_ticks)
        "${PEER[@]}" bench put-hashed "$EXHIBIT_S3_BUCKET" "${hashed[@]}" > "$DIR/boto-hashed.out"
        local keys ids; keys=$(awk '$1 == "key" { print $2 }' "$DIR/put.out")
        ids=$(for k in $keys; do basename "$k"; done)
        # shellcheck disable=SC2086
        "$BIN" get "$RUN/$r/ours" "$DIR/out.bin" $ids > "$DIR/get.out"
        # shellcheck disable=SC2086
        "${PEER[@]}" bench get "$EXHIBIT_S3_BUCKET" "$DIR/out.bin" $keys > "$DIR/boto-get.out"
        local op bp og bg
        op=$(calc "$bytes / $(field seconds "$DIR/put.out") / 1e6"); bp=$(calc "$bytes / $(cut -d' ' -f1 "$DIR/boto-put.out") / 1e6")
        og=$(calc "$bytes / $(field seconds "$DIR/get.out") / 1e6"); bg=$(calc "$bytes / $(cut -d' ' -f1 "$DIR/boto-get.out") / 1e6")
        # op bp put-ratio og bg get-ratio, then client CPU ms/MB (ours put, boto3 put, ours get,
        # boto3 get) and server CPU ms/MB (ours put, boto3 put)
        echo "$op $bp $(calc "$op / $bp") $og $bg $(calc "$og / $bg")" \
            "$(calc "$(field cpu-seconds "$DIR/put.out") * 1000 / ($bytes / 1e6)")" \
            "$(calc "$(cut -d' ' -f2 "$DIR/boto-put.out") * 1000 / ($bytes / 1e6)")" \
            "$(calc "$(field cpu-seconds "$DIR/get.out") * 1000 / ($bytes / 1e6)")" \
            "$(calc "$(cut -d' ' -f2 "$DIR/boto-get.out") * 1000 / ($bytes / 1e6)")" \
            "$(ms_per_mb "$s0" "$s1" "$bytes")" "$(ms_per_mb "$s1" "$s2" "$bytes")" \
            "$(calc "$bytes / $(cut -d' ' -f1 "$DIR/boto-hashed.out") / 1e6")" \
            "$(calc "$op * $(cut -d' ' -f1 "$DIR/boto-hashed.out") / ($bytes / 1e6)")" >> "$DIR/rounds"
        printf 'round %d, %d MiB: put %.1f vs %.1f MB/s (%.2fx), get %.1f vs %.1f MB/s (%.2fx), load %s\n' "$r" "$mib" \
            "$op" "$bp" "$(calc "$op / $bp")" "$og" "$bg" "$(calc "$og / $bg")" "$(cut -d' ' -f1 /proc/loadavg)" >&2
    done
    load1=$(cut -d' ' -f1 /proc/loadavg)
    col() { awk -v c="$1" '{ print $c }' "$DIR/rounds" | grep -v n/a | median; }
    printf '| %d MiB | %d | %d | %s | %s | **%sx** | %s | %s | **%sx** | %s | %sx | %s → %s |\n' "$mib" "$count" "$ROUNDS" \
        "$(col 1)" "$(col 2)" "$(col 3)" "$(col 4)" "$(col 5)" "$(col 6)" "$(col 13)" "$(col 14)" "$load0" "$load1" >> "$ROWS"
    printf '| %d MiB | %s | %s | %s | %s | %s | %s |\n' "$mib" "$(col 7)" "$(col 8)" "$(col 11)" "$(col 12)" \
        "$(col 9)" "$(col 10)" >> "$CPUROWS"
    rm -f "${files[@]}"
}
run_size 1 "${S3_BENCH_SMALL_COUNT:-32}"
run_size 64 "${S3_BENCH_LARGE_COUNT:-4}"

printf '\n| object size | objects | rounds | our put MB/s | boto3 put MB/s | put ratio | our get MB/s | boto3 get MB/s | get ratio | boto3 put with our hashing MB/s | our put / that | load |\n'
printf '|---|---|---|---|---|---|---|---|---|---|---|---|\n'
cat "$ROWS"
printf '\nCPU per MB (ms, medians): client = its own user + system time during the transfers; server = radosgw + ceph-osd\n'
printf '| object size | our put client | boto3 put client | our put server | boto3 put server | our get client | boto3 get client |\n'
printf '|---|---|---|---|---|---|---|\n'
cat "$CPUROWS"

BIG=${S3_BENCH_BIG_MIB:-1024}
if [ "$BIG" -gt 0 ]; then
    head -c $((BIG << 20)) /dev/urandom > "$DIR/big"
    "$BIN" put "$RUN/big" "$DIR/big" > "$DIR/big-put.out"
    id=$(basename "$(awk '$1 == "key" { print $2 }' "$DIR/big-put.out")")
    "$BIN" get "$RUN/big" "$DIR/out.bin" "$id" > "$DIR/big-get.out"
    cmp "$DIR/big" "$DIR/out.bin" || { echo "bench: the 1 GiB get returned other bytes" >&2; exit 1; }
    /usr/bin/time -v -o "$DIR/boto.time" "${PEER[@]}" put "$EXHIBIT_S3_BUCKET" "$RUN/boto3/big" "$DIR/big"
    boto_rss=$(awk -F: '/Maximum resident/ {gsub(/ /,"",$2); print $2}' "$DIR/boto.time")
    printf '\n%d MiB streamed: our put %.1f MB/s peak RSS %.1f MB; our get %.1f MB/s peak RSS %.1f MB; boto3 put peak RSS %.1f MB\n' \
        "$BIG" "$(calc "($BIG * 1048576) / $(field seconds "$DIR/big-put.out") / 1e6")" \
        "$(calc "$(field peak-rss-kb "$DIR/big-put.out") / 1024")" \
        "$(calc "($BIG * 1048576) / $(field seconds "$DIR/big-get.out") / 1e6")" \
        "$(calc "$(field peak-rss-kb "$DIR/big-get.out") / 1024")" "$(calc "$boto_rss / 1024")"
fi
STILLS=${S3_BENCH_INGEST_STILLS:-200}
if [ "$STILLS" -gt 0 ]; then
    XA=.build/release/exhibit-archive
    .build/release/capture-synth "$DIR/dump" --stills "$STILLS" --videos "${S3_BENCH_INGEST_VIDEOS:-2}" \
        --video-seconds "${S3_BENCH_INGEST_SECONDS:-10}" --seed 11 >/dev/null 2>&1
    dump_bytes=$(du -sb --apparent-size "$DIR/dump/captures" | cut -f1)
    find "$DIR/dump/captures" -type f -exec cat {} + >/dev/null  # page cache warm: both ingests read from memory
    trust=(--trust "$DIR/dump/trust/signer-root.pem" --tsa-trust "$DIR/dump/trust/tsa-root.pem")
    jobs=(--jobs "${S3_BENCH_INGEST_JOBS:-$(nproc)}")
    ingest_secs() {  # archive; prints the ingest's wall seconds
        local t0 t1; t0=$(date +%s.%N)
        "$XA" ingest --archive "$1" "${jobs[@]}" "${trust[@]}" "$DIR/dump" >/dev/null 2>"$DIR/ingest.err" || [ $? -eq 1 ]
        t1=$(date +%s.%N); calc "$t1 - $t0"
    }
    "$XA" init --archive "$DIR/lmdb" >/dev/null
    "$XA" init --archive "$DIR/s3" --blobs "s3://$EXHIBIT_S3_BUCKET/$RUN/ingest" >/dev/null
    echo "ingest load before: $(cat /proc/loadavg)"
    lmdb_s=$(ingest_secs "$DIR/lmdb")
    s3_s=$(ingest_secs "$DIR/s3")
    [ "$("$XA" audit --archive "$DIR/s3" | head -1 | awk '{print $5}')" = "$("$XA" audit --archive "$DIR/lmdb" | head -1 | awk '{print $5}')" ] \
        || echo "bench: the two archives hold different blob counts" >&2
    # The peer: boto3 uploading the same files as objects named by their SHA-256 (each content
    # once), 8 uploads in flight like the store's upload threads, with no verifying at all.
    read -r peer_s _ peer_files peer_objects < <("${PEER[@]}" bench put-tree "$EXHIBIT_S3_BUCKET" "$RUN/peer-tree" "$DIR/dump/captures" 8)
    printf '\ningest of one dump (%d MB, %d stills + videos), same run:\n\n| blobs in | seconds | ingest MB/s | ratio to LMDB |\n|---|---|---|---|\n' \
        "$((dump_bytes / 1000000))" "$STILLS"
    printf '| LMDB (archive directory) | %.2f | %.1f | 1.00x |\n' "$lmdb_s" "$(calc "$dump_bytes / $lmdb_s / 1e6")"
    printf '| S3 (RGW, %s) | %.2f | %.1f | %.2fx |\n' "$AWS_ENDPOINT_URL_S3" "$s3_s" "$(calc "$dump_bytes / $s3_s / 1e6")" \
        "$(calc "$lmdb_s / $s3_s")"
    printf '\nthe same files put by boto3 (put_object, 8 in flight, %s files, %s objects, no verifying): %.2f s, %.1f MB/s; ingest into S3 ÷ that: **%.2fx**\n' \
        "$peer_files" "$peer_objects" "$peer_s" "$(calc "$dump_bytes / $peer_s / 1e6")" "$(calc "$peer_s / $s3_s")"
fi
echo "load after: $(cat /proc/loadavg)"
echo "targets: put and get ratios >= 1.0x; peak RSS constant (independent of the object size)"
