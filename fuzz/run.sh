#!/usr/bin/env bash
# Builds one libFuzzer harness (release, -sanitize=fuzzer,address) and runs it.
#   fuzz/run.sh TARGET [SECONDS] [libFuzzer flags...]
#   fuzz/run.sh --list              the targets
#   fuzz/run.sh --build-all         build every harness, run none
# TARGET is a harness name (fuzz/run.sh --list: jpeg, jumbf, bmff, cbor, cose, claim, manifest,
# x509, tst, record, ring, bundle, caf, mp4, report, png, riff, tiff, gif, svg, jxl, id3, pdf, inflate). SECONDS
# (default 60; 0 = no limit) bounds the run. The working corpus is $FUZZ_CORPUS/TARGET (default
# fuzz/.corpus/TARGET, git-ignored), seeded from the committed minimized corpus fuzz/corpus/TARGET;
# crashes land in $FUZZ_ARTIFACTS (default fuzz/.artifacts/TARGET/). FUZZ_JOBS=N runs N workers
# (-fork=N). Runs under nice -n 19. ASAN_OPTIONS defaults to detect_leaks=1:malloc_context_size=8
# (8 frames per allocation stack: ASan's stack depot never frees, and a recursive decoder's deeper
# stacks are new at almost every input; docs/fuzzing.md, round 5).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
[ -x /opt/swift/usr/bin/swift ] && export PATH=/opt/swift/usr/bin:$PATH
list() { grep -o '("[a-z0-9]*", \[' "$here/Package.swift" | sed 's/("\([a-z0-9]*\)".*/\1/'; }
build() {
    (cd "$here" && nice -n 19 swift build -c release "$@" \
        -Xswiftc -sanitize=fuzzer,address -Xswiftc -use-ld=lld 2>&1 | grep -v '^\[' >&2)
}
case "${1:-}" in
    ""|-h|--help) sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    --list) list; exit 0 ;;
    --build-all) build; exit 0 ;;
esac
target=$1; shift
seconds=${1:-60}; [ $# -gt 0 ] && shift
list | grep -qx "$target" || { echo "fuzz/run.sh: unknown target $target (fuzz/run.sh --list)" >&2; exit 2; }
build --product "fuzz-$target"
corpus=${FUZZ_CORPUS:-$here/.corpus}/$target
artifacts=${FUZZ_ARTIFACTS:-$here/.artifacts/$target}
mkdir -p "$corpus" "$artifacts"
seeds=()
[ -d "$here/corpus/$target" ] && seeds+=("$here/corpus/$target")
flags=(-max_total_time="$seconds" -artifact_prefix="$artifacts/" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1)
[ "$seconds" = 0 ] && flags=("${flags[@]:1}")
[ -n "${FUZZ_JOBS:-}" ] && flags+=(-fork="$FUZZ_JOBS" -ignore_crashes=1)
ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:malloc_context_size=8} exec nice -n 19 "$here/.build/release/fuzz-$target" \
    "${flags[@]}" "$@" "$corpus" "${seeds[@]}"
