#!/usr/bin/env bash
# The main job: set-up, release build, then a demo on a sample. Each step is a function;
# later issues append steps (ingest a synthesized dump, query it, export a custody bag).
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x /opt/swift/usr/bin/swift ] && export PATH=/opt/swift/usr/bin:$PATH

DEMO=${DEMO_DIR:-./demo}
# `init` of the demo's archive (scripts/demo-s3.sh sets INIT to make an S3-backed one).
export EXHIBIT_ARCHIVE="$DEMO/archive"
BIN=".build/release/exhibit-archive"
SYNTH=".build/release/capture-synth"

step() { printf '\n== %s\n' "$*" >&2; }
run() { printf '$ %s\n' "exhibit-archive $*" >&2; "$BIN" "$@"; }

step_setup() {
    step "set-up and release build"
    bash scripts/setup.sh
    swift build -c release --product exhibit-archive
    swift build -c release --product capture-synth
}

step_cas() {
    step "content-addressed store: init, put, get, audit, stats"
    rm -rf "$DEMO"
    mkdir -p "$DEMO"
    head -c $((8 * 1024 * 1024 + 12345)) /dev/urandom > "$DEMO/sample.bin"
    printf 'Exhibit Archive demo sample\n' > "$DEMO/note.txt"
    ${INIT:-run init}
    run put "$DEMO/sample.bin" "$DEMO/note.txt"
    run put "$DEMO/sample.bin"            # known: stored once
    local id
    id=$(openssl dgst -sha256 -r "$DEMO/sample.bin" | cut -c1-64)
    run get "$id" -o "$DEMO/sample.out"
    cmp "$DEMO/sample.bin" "$DEMO/sample.out" && echo "get: bytes identical to the original" >&2
    run stat "$id"
    run audit
    run stats
}

step_synth() {
    step "capture-synth: a signed sample dump (stills, a video, a few fault classes)"
    "$SYNTH" "$DEMO/dump" --stills 8 --videos 1 --video-seconds 4 --seed 7 \
        --faults media-flip,signature-flip,sidecar-changed,sidecar-missing,pre-0.25,sink-failed,sink-disabled,ring-frame-added,symlink-escape,bundle-root-mismatch,rewrapped,unsigned
}

step_ingest() {
    step "trust the synthesized device CA and TSA, then ingest the dump (exit 1 expected: it holds faults)"
    run trust add "$DEMO/dump/trust/signer-root.pem"
    run trust add --tsa "$DEMO/dump/trust/tsa-root.pem"
    run ingest "$DEMO/dump" || echo "ingest: exit $? (some captures are not intact or have mismatched/missing sidecars, as planted)" >&2
    run ingest "$DEMO/dump" >/dev/null || true   # idempotent: everything 'present'
    run query --count
}

step_query() {
    step "query the index"
    run query --state intact --format table
    run query --sidecar uncommitted
    run query --sidecar mismatch --count
    run query --trust untrusted --format csv
    local id
    id=$("$BIN" query --state tampered --format json --limit 1 | python3 -c 'import json,sys; print(json.load(sys.stdin)["recordId"])')
    run show "$id"
    run log --verify
}

step_export() {
    step "export every intact record as a signed custody bag, and check it"
    rm -rf "$DEMO/bag"
    run export --query --state intact --out "$DEMO/bag" --case "Demo case" --operator demo --digest sha256,sha512 --pdf
    run verify-export "$DEMO/bag"
    echo "Open the report in a browser: $DEMO/bag/report.html" >&2
}

# scripts/demo-s3.sh sources this file for its steps (DEMO_STEPS_ONLY=1) and runs them itself.
[ "${DEMO_STEPS_ONLY:-}" = 1 ] && return 0
STEPS=(step_setup step_cas step_synth step_ingest step_query step_export)
for s in "${STEPS[@]}"; do "$s"; done
step "demo done"
