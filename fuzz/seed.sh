#!/usr/bin/env bash
# Makes the seed corpora: a capture-synth dump with every fault class (the project's own
# writers), cut into seeds by make-seeds.py, and the samples of make-format-seeds.py (PNG,
# RIFF, TIFF, GIF, SVG, JPEG XL, ID3, PDF signed by c2pa-rs; zlib streams), then minimized per target with libFuzzer's
# -merge=1 into fuzz/corpus/TARGET (committed). Needs the harnesses (fuzz/run.sh --build-all).
#   fuzz/seed.sh [TARGET...]      (default: every target)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
[ -x /opt/swift/usr/bin/swift ] && export PATH=/opt/swift/usr/bin:$PATH
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
(cd "$here/.." && swift build --product capture-synth 2>&1 | grep -v '^\[' >&2)
"$here/../.build/debug/capture-synth" "$work/dump" --stills 4 --videos 1 --video-seconds 1 --seed 11 --faults all >/dev/null
python=$here/../.venv/bin/python; [ -x "$python" ] || python=python3
"$python" "$here/make-seeds.py" "$work/dump" "$work/seeds"
# `report`: the stored form of each capture's report as `ingest --defer-media` keeps it (no media).
(cd "$here/.." && swift build --product exhibit-archive 2>&1 | grep -v '^\[' >&2)
mkdir -p "$work/seeds/report"
"$here/../.build/debug/exhibit-archive" verify --no-media --json --trust "$work/dump/trust/signer-root.pem" \
    --tsa-trust "$work/dump/trust/tsa-root.pem" "$work/dump" 2>/dev/null | grep '"statusCodes"' \
    | while IFS= read -r line; do printf '%s' "$line" > "$work/seeds/report/$(printf '%s' "$line" | sha1sum | cut -c1-40)"; done || true
"$python" "$here/make-format-seeds.py" "$work/seeds"   # the containers of issue 16 and inflate (ffmpeg + c2pa-rs)
targets=("$@"); [ ${#targets[@]} -gt 0 ] || mapfile -t targets < <("$here/run.sh" --list)
for t in "${targets[@]}"; do
    [ -d "$work/seeds/$t" ] || { echo "seed: no seeds for $t" >&2; continue; }
    mkdir -p "$here/corpus/$t"
    ASAN_OPTIONS=detect_leaks=1 nice -n 19 "$here/.build/release/fuzz-$t" -merge=1 \
        "$here/corpus/$t" "$work/seeds/$t" 2>&1 | grep -E '^MERGE-OUTER: [0-9]+ new files' || true
    echo "seed: $t $(ls "$here/corpus/$t" | wc -l) files, $(du -sk "$here/corpus/$t" | cut -f1) KiB"
done
