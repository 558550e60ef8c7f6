#!/usr/bin/env bash
# The demo (scripts/demo.sh) against an archive whose blobs live in an S3 bucket: starts (or
# reuses) a single-node Ceph cluster with scripts/services/ceph-up.sh, makes the archive with
# `init --blobs s3://BUCKET/PREFIX`, then runs the demo's steps — CAS commands, a synthesized
# faulted dump ingested, queried, shown, exported as a signed bag and checked — plus an audit
# that fetches every blob back from the bucket, and gc.
#
# Environment: DEMO_DIR (default ./demo-s3), EXHIBIT_CEPH_DIR (the cluster, default
# /tmp/exhibit-ceph; an AWS_ENDPOINT_URL_S3 + EXHIBIT_S3_BUCKET already set are used as they
# are), DEMO_S3_PREFIX (default demo-<time>), SKIP_SETUP=1 (no set-up and release build).
# Credentials come from ceph-up.sh's exports in the environment only; the archive records
# the bucket, prefix and endpoint, never a key.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x /opt/swift/usr/bin/swift ] && export PATH=/opt/swift/usr/bin:$PATH

export DEMO_DIR=${DEMO_DIR:-./demo-s3}
if [ -z "${AWS_ENDPOINT_URL_S3:-}" ] || [ -z "${EXHIBIT_S3_BUCKET:-}" ]; then
    printf '\n== %s\n' "Ceph RGW: scripts/services/ceph-up.sh ${EXHIBIT_CEPH_DIR:-/tmp/exhibit-ceph}" >&2
    exports=$(bash scripts/services/ceph-up.sh "${EXHIBIT_CEPH_DIR:-/tmp/exhibit-ceph}")
    eval "$exports"
fi
PREFIX=${DEMO_S3_PREFIX:-demo-$(date +%s)}

# The demo's steps, with `init` making the S3-backed archive.
# shellcheck source=demo.sh
DEMO_STEPS_ONLY=1 source scripts/demo.sh
init_s3() { run init --blobs "s3://$EXHIBIT_S3_BUCKET/$PREFIX"; }

step_s3() {
    step "where the blobs live, and every blob fetched back from the bucket and re-hashed"
    run stats
    run audit --sample 0.25
    run audit
    run gc
    echo "blobs are objects s3://$EXHIBIT_S3_BUCKET/$PREFIX/blobs/<2 hex>/<sha256> at $AWS_ENDPOINT_URL_S3" >&2
}

INIT=init_s3
steps=(step_cas step_synth step_ingest step_query step_export step_s3)
[ "${SKIP_SETUP:-}" = 1 ] || steps=(step_setup "${steps[@]}")
for s in "${steps[@]}"; do "$s"; done
step "S3 demo done"
