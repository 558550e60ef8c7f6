#!/usr/bin/env bash
# The test suite under AddressSanitizer, and the ingest tests (the pipeline's worker threads,
# the writer, the map lock) under ThreadSanitizer. Not part of CI (too slow: docs/fuzzing.md
# has the times). Separate build folders, so the normal .build stays as it is.
#   scripts/sanitize.sh [address|thread|all] [extra swift test args, e.g. --filter X]
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x /opt/swift/usr/bin/swift ] && export PATH=/opt/swift/usr/bin:$PATH
which=${1:-all}; [ $# -gt 0 ] && shift
# The binaries the CLI tests run as child processes come from the same instrumented build.
address() {
    local t0=$SECONDS
    swift build --build-tests --sanitize=address --build-path .build-asan 2>&1 | grep -E "error|warning: .*(leak|sanit)" || true
    # Leak checking is off for the suite (the Swift runtime's caches and Foundation's globals
    # are reported as leaks at exit); the fuzz harnesses run with detect_leaks=1.
    # The blob stores' streaming-memory bound (streamingMemoryIsBounded) is skipped: under ASan a
    # process's RSS holds the allocator's quarantine of freed memory (256 MB by default) and the
    # shadow memory, so it measures ASan, not the store (docs/fuzzing.md, "Sanitizers").
    ASAN_OPTIONS=detect_leaks=0:abort_on_error=0:halt_on_error=1 \
        swift test --skip-build --sanitize=address --build-path .build-asan --skip streamingMemoryIsBounded "$@"
    echo "sanitize: address: $((SECONDS - t0)) s"
}
thread() {
    local t0=$SECONDS
    swift build --build-tests --sanitize=thread --build-path .build-tsan 2>&1 | grep -E "error" || true
    TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 \
        swift test --skip-build --sanitize=thread --build-path .build-tsan --filter "${TSAN_FILTER:-IngestTests}" "$@"
    echo "sanitize: thread: $((SECONDS - t0)) s"
}
case "$which" in
    address) address "$@" ;;
    thread) thread "$@" ;;
    all) address "$@"; thread "$@" ;;
    *) echo "usage: scripts/sanitize.sh [address|thread|all] [swift test args]" >&2; exit 2 ;;
esac
