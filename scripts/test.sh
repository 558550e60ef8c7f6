#!/usr/bin/env bash
# The whole test suite: set-up, a warning-free debug build, then every Swift Testing target.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x /opt/swift/usr/bin/swift ] && export PATH=/opt/swift/usr/bin:$PATH
bash scripts/setup.sh
log=$(mktemp)
trap 'rm -f "$log"' EXIT
swift build 2>&1 | tee "$log"
if grep -q "warning:" "$log"; then
    echo "test: the build has warnings (above); the project builds warning-free" >&2
    exit 1
fi
swift test
