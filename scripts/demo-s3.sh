#!/usr/bin/env bash
# The demo (scripts/demo.sh) against an archive whose blobs live in an S3 bucket and whose
# records, index, custody log and trust live in PostgreSQL: starts (or reuses) a single-node
# Ceph cluster with scripts/services/ceph-up.sh and a PostgreSQL with
# scripts/services/postgres-up.sh, makes the archive with
# `init --blobs s3://BUCKET/PREFIX --index URL --index-schema SCHEMA`, then runs the demo's
# steps — CAS commands, a synthesized faulted dump enqueued and ingested by two `worker`
# processes at once, queried, shown, exported as a signed bag and checked — plus an audit that
# fetches every blob back from the bucket, and gc.
#
# Environment: DEMO_DIR (default ./demo-s3), EXHIBIT_CEPH_DIR (the cluster, default
# /tmp/exhibit-ceph; an AWS_ENDPOINT_URL_S3 + EXHIBIT_S3_BUCKET already set are used as they
# are), EXHIBIT_PG_DIR (the PostgreSQL, default /tmp/exhibit-pg; an EXHIBIT_PG_URL already set
# is used as it is), DEMO_S3_PREFIX (default demo-<time>; also the PostgreSQL schema, with
# '-' as '_'), SKIP_SETUP=1 (no set-up and release build). Credentials come from the services'
# exports in the environment only (AWS_*, PGPASSFILE); the archive records the bucket, prefix,
# endpoint and the index's connection string, never a key or a password.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x /opt/swift/usr/bin/swift ] && export PATH=/opt/swift/usr/bin:$PATH

export DEMO_DIR=${DEMO_DIR:-./demo-s3}
if [ -z "${AWS_ENDPOINT_URL_S3:-}" ] || [ -z "${EXHIBIT_S3_BUCKET:-}" ]; then
    printf '\n== %s\n' "Ceph RGW: scripts/services/ceph-up.sh ${EXHIBIT_CEPH_DIR:-/tmp/exhibit-ceph}" >&2
    exports=$(bash scripts/services/ceph-up.sh "${EXHIBIT_CEPH_DIR:-/tmp/exhibit-ceph}")
    eval "$exports"
fi
if [ -z "${EXHIBIT_PG_URL:-}" ]; then
    printf '\n== %s\n' "PostgreSQL: scripts/services/postgres-up.sh ${EXHIBIT_PG_DIR:-/tmp/exhibit-pg}" >&2
    exports=$(bash scripts/services/postgres-up.sh "${EXHIBIT_PG_DIR:-/tmp/exhibit-pg}")
    eval "$exports"
fi
PREFIX=${DEMO_S3_PREFIX:-demo-$(date +%s)}
SCHEMA=${PREFIX//-/_}

# The demo's steps, with `init` making the S3-backed archive.
# shellcheck source=demo.sh
DEMO_STEPS_ONLY=1 source scripts/demo.sh
init_s3() { run init --blobs "s3://$EXHIBIT_S3_BUCKET/$PREFIX" --index "$EXHIBIT_PG_URL" --index-schema "$SCHEMA"; }

# Ingest through the shared work queue: one job per capture, two worker processes taking them
# at once (as two machines would, each with a copy of the archive directory's archive.json).
step_ingest_workers() {
    step "trust the device CA and TSA, enqueue the dump, and ingest it with two workers at once (exit 1 expected: it holds faults)"
    run trust add "$DEMO/dump/trust/signer-root.pem"
    run trust add --tsa "$DEMO/dump/trust/tsa-root.pem"
    run ingest --enqueue "$DEMO/dump" || echo "ingest --enqueue: exit $? (the walk names the dump's planted symlink, never followed)" >&2
    run worker --jobs 1 > "$DEMO/worker-1.out" & local w1=$!
    run worker --jobs 1 > "$DEMO/worker-2.out" & local w2=$!
    local rc
    for w in "$w1" "$w2"; do
        rc=0; wait "$w" || rc=$?
        echo "worker (pid $w): exit $rc (1: some captures are not intact or have mismatched/missing sidecars, as planted)" >&2
        [ "$rc" -le 1 ] || return "$rc"
    done
    echo "captures taken by each worker: $(grep -c . "$DEMO/worker-1.out") and $(grep -c . "$DEMO/worker-2.out") lines of output" >&2
    run queue
    run ingest "$DEMO/dump" >/dev/null || true   # idempotent: everything 'present'
    run query --count
}

step_s3() {
    step "where the blobs live, and every blob fetched back from the bucket and re-hashed"
    run stats
    run audit --sample 0.25
    run audit
    run gc
    echo "blobs are objects s3://$EXHIBIT_S3_BUCKET/$PREFIX/blobs/<2 hex>/<sha256> at $AWS_ENDPOINT_URL_S3;" \
         "records, index, custody log and trust are in PostgreSQL schema $SCHEMA at $EXHIBIT_PG_URL" >&2
}

INIT=init_s3
steps=(step_cas step_synth step_ingest_workers step_query step_export step_s3)
[ "${SKIP_SETUP:-}" = 1 ] || steps=(step_setup "${steps[@]}")
for s in "${steps[@]}"; do "$s"; done
step "S3 demo done"
