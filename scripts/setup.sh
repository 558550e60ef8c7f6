#!/usr/bin/env bash
# Idempotent set-up for a fresh Debian 12 machine: system packages (as root, one apt-get
# update when something is missing) and the Python peers in ./.venv (git-ignored).
set -euo pipefail
cd "$(dirname "$0")/.."

APT_PACKAGES=(pkgconf libssl-dev liblmdb-dev zlib1g-dev libavformat-dev libavcodec-dev libavutil-dev libswscale-dev
              openssl ffmpeg python3-venv time chromium libjpeg-turbo-progs)
PY_PACKAGES=("c2pa-python==0.38.1" "bagit==1.9.0" "cbor2==6.3.0")

missing=()
for p in "${APT_PACKAGES[@]}"; do
    dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if ((${#missing[@]})); then
    echo "setup: installing ${missing[*]}" >&2
    SUDO=""
    [ "$(id -u)" -eq 0 ] || SUDO="sudo"
    $SUDO apt-get update
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends "${missing[@]}"
fi

command -v swift >/dev/null || { [ -x /opt/swift/usr/bin/swift ] && export PATH=/opt/swift/usr/bin:$PATH; }
command -v swift >/dev/null || { echo "setup: swift not found (expected on PATH or /opt/swift/usr/bin)" >&2; exit 1; }

if [ ! -x .venv/bin/python ]; then
    python3 -m venv .venv
fi
if ! .venv/bin/python -c 'import c2pa, bagit, cbor2' >/dev/null 2>&1; then
    .venv/bin/pip install --quiet "${PY_PACKAGES[@]}"
fi
echo "setup: ok" >&2
