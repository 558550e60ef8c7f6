#!/usr/bin/env bash
# The main job: set-up, release build, then a demo on a sample. Each step is a function;
# later issues append steps (ingest a synthesized dump, query it, export a custody bag).
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x /opt/swift/usr/bin/swift ] && export PATH=/opt/swift/usr/bin:$PATH

DEMO=${DEMO_DIR:-./demo}
export EXHIBIT_ARCHIVE="$DEMO/archive"
BIN=".build/release/exhibit-archive"

step() { printf '\n== %s\n' "$*" >&2; }
run() { printf '$ %s\n' "exhibit-archive $*" >&2; "$BIN" "$@"; }

step_setup() {
    step "set-up and release build"
    bash scripts/setup.sh
    swift build -c release --product exhibit-archive
}

step_cas() {
    step "content-addressed store: init, put, get, audit, stats"
    rm -rf "$DEMO"
    mkdir -p "$DEMO"
    head -c $((8 * 1024 * 1024 + 12345)) /dev/urandom > "$DEMO/sample.bin"
    printf 'Exhibit Archive demo sample\n' > "$DEMO/note.txt"
    run init
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

# Later issues: step_ingest, step_query, step_export.
STEPS=(step_setup step_cas)
for s in "${STEPS[@]}"; do "$s"; done
step "demo done"
