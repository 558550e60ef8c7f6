#!/usr/bin/env bash
# The whole test suite: set-up, a warning-free debug build, then every Swift Testing target.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x /opt/swift/usr/bin/swift ] && export PATH=/opt/swift/usr/bin:$PATH
bash scripts/setup.sh
log=$(mktemp)
# The tests' scratch files (fixtures made once per test process, peers' scripts, Foundation's
# atomic-write folders) go into a folder of this run's own, removed at the end, so repeated runs
# leave nothing behind in /tmp.
scratch=$(mktemp -d "${TMPDIR:-/tmp}/exhibit-tests.XXXXXX")
chmod 1777 "$scratch"  # as /tmp: the hostile tests run the tool as another user on files in it
trap 'rm -f "$log"; rm -rf "$scratch"' EXIT
swift build 2>&1 | tee "$log"
if grep -q "warning:" "$log"; then
    echo "test: the build has warnings (above); the project builds warning-free" >&2
    exit 1
fi
TMPDIR=$scratch swift test
