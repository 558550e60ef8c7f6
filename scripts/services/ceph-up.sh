#!/usr/bin/env bash
# A single-node Ceph 16 cluster (mon + one bluestore OSD on a sparse file + radosgw) for the S3
# tests, the benchmark and the demo. No systemd: every daemon runs with -c DIR/ceph.conf and a
# pid file under DIR/run, and scripts/services/ceph-down.sh stops them by those pid files.
#
# Usage: eval "$(bash scripts/services/ceph-up.sh [DIR])"     (DIR default $EXHIBIT_CEPH_DIR,
#        else /tmp/exhibit-ceph)
# stdout: only `export` lines (AWS_ENDPOINT_URL_S3, AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY,
#         AWS_REGION, EXHIBIT_S3_BUCKET, EXHIBIT_S3_LOCK_BUCKET); progress on stderr.
# Idempotent: a cluster already running in DIR is reused; one whose daemons stopped is started
# again from its data; one that cannot be started again is made anew.
# Ports (first creation only, then kept in DIR/ports): EXHIBIT_CEPH_MON_PORT (default 16789),
# EXHIBIT_CEPH_RGW_PORT (default 17480). Everything listens on 127.0.0.1. The defaults sit below
# Linux's ephemeral range (32768-60999), so an outgoing connection never holds them.
set -Eeuo pipefail
DIR=${1:-${EXHIBIT_CEPH_DIR:-/tmp/exhibit-ceph}}
PACKAGES=(ceph-mon ceph-osd radosgw ceph-common curl uuid-runtime openssl)
say() { echo "ceph-up: $*" >&2; }
trap 'say "failed at line $LINENO: $BASH_COMMAND (logs in $DIR/log)"' ERR
t0=$(date +%s)

missing=()
for p in "${PACKAGES[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
if ((${#missing[@]})); then
    say "installing ${missing[*]}"
    SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
    $SUDO apt-get update -q >&2
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}" >&2
fi

mkdir -p "$DIR"
DIR=$(cd "$DIR" && pwd)
CONF="$DIR/ceph.conf"
RUN="$DIR/run"
CEPH=(ceph -c "$CONF" --connect-timeout 20)

# alive NAME: the daemon of pid file RUN/NAME.pid runs, and with this cluster's configuration.
alive() {
    local f="$RUN/$1.pid" pid
    [ -f "$f" ] || return 1
    pid=$(cat "$f" 2>/dev/null) || return 1
    [[ "$pid" =~ ^[0-9]+$ ]] || return 1
    tr '\0' ' ' < "/proc/$pid/cmdline" 2>/dev/null | grep -qF -- "$CONF"
}

# wait_for WHAT SECONDS CMD...: retries CMD every 0.3 s until it succeeds.
wait_for() {
    local what=$1 secs=$2; shift 2
    local end=$(( $(date +%s) + secs ))
    until "$@" >/dev/null 2>&1; do
        if (( $(date +%s) > end )); then say "timed out waiting for $what (logs in $DIR/log)"; return 1; fi
        sleep 0.3
    done
}

# daemon CMD...: starts a Ceph daemon (it forks and writes its pid file) with its standard
# streams on a log file, so no caller's pipe (`$(ceph-up.sh)`, a test harness) is held open.
daemon() { "$@" </dev/null >>"$DIR/log/daemons.out" 2>&1; }
# port_free P: nothing accepts connections on 127.0.0.1:P.
port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
# need_port NAME PORT: fails with a clear message when NAME's port is taken by another process
# (another cluster in another DIR, a second run of the tests), instead of a daemon that dies
# and a wait that times out.
need_port() {
    port_free "$2" && return 0
    say "port $2 on 127.0.0.1, wanted by $1, is in use by another process (another cluster? see: ss -ltnp | grep :$2); choose other ports (EXHIBIT_CEPH_MON_PORT, EXHIBIT_CEPH_RGW_PORT) for a new DIR, or stop what holds it"
    return 1
}
osd_up() { "${CEPH[@]}" osd dump 2>/dev/null | grep -q '^osd.0 up'; }
rgw_answers() { curl -s -o /dev/null --max-time 2 "http://127.0.0.1:$RGW_PORT/"; }

# sigv4 METHOD PATH [curl args...]: one signed S3 request with curl's own SigV4 (an independent
# signer), printing the HTTP status.
sigv4() {
    local method=$1 path=$2; shift 2
    curl -s -o "$DIR/log/last-s3-response.xml" -w '%{http_code}' -X "$method" \
        --aws-sigv4 "aws:amz:$REGION:s3" --user "$ACCESS_KEY:$SECRET_KEY" "$@" \
        -H "x-amz-content-sha256: e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" \
        "http://127.0.0.1:$RGW_PORT$path"
}

create() {
    say "creating a cluster in $DIR"
    local keep_ports=""
    [ -f "$DIR/ports" ] && keep_ports=$(cat "$DIR/ports")
    find "$DIR" -mindepth 1 -delete
    mkdir -p "$DIR/mon" "$DIR/osd" "$DIR/rgw" "$RUN" "$DIR/log"
    if [ -n "$keep_ports" ]; then echo "$keep_ports" > "$DIR/ports"; else
        echo "MON_PORT=${EXHIBIT_CEPH_MON_PORT:-16789} RGW_PORT=${EXHIBIT_CEPH_RGW_PORT:-17480}" > "$DIR/ports"
    fi
    # shellcheck disable=SC1091
    . "$DIR/ports"
    need_port "the monitor" "$MON_PORT" || exit 1
    need_port "radosgw" "$RGW_PORT" || exit 1
    local fsid; fsid=$(uuidgen)
    cat > "$CONF" <<CONF
[global]
fsid = $fsid
mon initial members = a
mon host = v2:127.0.0.1:$MON_PORT
public addr = 127.0.0.1
public network = 127.0.0.0/8
ms bind ipv6 = false
auth cluster required = cephx
auth service required = cephx
auth client required = cephx
keyring = $DIR/keyring
run dir = $RUN
admin socket = $RUN/\$name.asok
pid file = $RUN/\$name.pid
log file = $DIR/log/\$name.log
osd pool default size = 1
osd pool default min size = 1
osd pool default pg num = 8
osd pool default pgp num = 8
mon max pg per osd = 1000
mon allow pool size one = true
mon warn on pool no redundancy = false
mon data avail warn = 5
osd crush chooseleaf type = 0
[mon.a]
mon data = $DIR/mon
[osd.0]
osd data = $DIR/osd
keyring = $DIR/osd/keyring
osd objectstore = bluestore
bluestore block path = $DIR/osd-block.img
bluestore block create = true
bluestore block size = 42949672960
osd memory target = 1073741824
[client.rgw.a]
keyring = $DIR/keyring
rgw data = $DIR/rgw
rgw frontends = beast endpoint=127.0.0.1:$RGW_PORT
rgw enable apis = s3, admin
# Deleted objects' data is freed by RGW's garbage collection, which by default waits 2 hours
# and runs hourly: repeated benchmark rounds then fill the 40 GiB OSD (docs/s3.md).
rgw gc obj min wait = 120
rgw gc processor period = 120
CONF
    ceph-authtool --create-keyring "$DIR/mon.keyring" --gen-key -n mon. --cap mon 'allow *' >/dev/null
    ceph-authtool --create-keyring "$DIR/keyring" --gen-key -n client.admin \
        --cap mon 'allow *' --cap osd 'allow *' --cap mds 'allow *' --cap mgr 'allow *' >/dev/null
    ceph-authtool "$DIR/keyring" --gen-key -n client.rgw.a --cap mon 'allow rw' --cap osd 'allow rwx' >/dev/null
    ceph-authtool "$DIR/mon.keyring" --import-keyring "$DIR/keyring" >/dev/null
    chmod 600 "$DIR/mon.keyring" "$DIR/keyring"
    monmaptool --create --fsid "$fsid" --addv a "[v2:127.0.0.1:$MON_PORT]" "$DIR/monmap" >/dev/null
    ceph-mon -c "$CONF" --mkfs -i a --monmap "$DIR/monmap" --keyring "$DIR/mon.keyring" >&2
    daemon ceph-mon -c "$CONF" -i a
    wait_for "the monitor" 30 "${CEPH[@]}" mon stat
    local osd_uuid osd_key
    osd_uuid=$(uuidgen)
    osd_key=$(ceph-authtool --gen-print-key)
    echo "{\"cephx_secret\": \"$osd_key\"}" | "${CEPH[@]}" osd new "$osd_uuid" -i - >/dev/null
    ceph-authtool --create-keyring "$DIR/osd/keyring" --name osd.0 --add-key "$osd_key" >/dev/null
    ceph-osd -c "$CONF" -i 0 --mkfs --osd-uuid "$osd_uuid" >>"$DIR/log/osd-mkfs.log" 2>&1
    start_daemons
    # The test user: keys made here, kept in DIR/s3.env (0600), never in the repository.
    ACCESS_KEY=$(openssl rand -hex 10 | tr a-f A-F)
    SECRET_KEY=$(openssl rand -base64 30 | tr -d '/+=\n')
    wait_for "the test user" 60 radosgw-admin -c "$CONF" user create --uid=exhibit-test \
        --display-name="Exhibit Archive tests" --access-key="$ACCESS_KEY" --secret-key="$SECRET_KEY"
    REGION=us-east-1
    (umask 077; printf 'ACCESS_KEY=%s\nSECRET_KEY=%s\nREGION=%s\n' "$ACCESS_KEY" "$SECRET_KEY" "$REGION" > "$DIR/s3.env")
}

start_daemons() {
    # shellcheck disable=SC1091
    . "$DIR/ports"
    if ! alive mon.a; then need_port "the monitor" "$MON_PORT" || exit 1; daemon ceph-mon -c "$CONF" -i a; fi
    wait_for "the monitor" 30 "${CEPH[@]}" mon stat
    if ! alive osd.0; then daemon ceph-osd -c "$CONF" -i 0; fi
    wait_for "the OSD" 60 osd_up
    if ! alive client.rgw.a; then need_port "radosgw" "$RGW_PORT" || exit 1; daemon radosgw -c "$CONF" -n client.rgw.a; fi
    wait_for "radosgw" 90 rgw_answers
}

if [ -f "$CONF" ] && [ -f "$DIR/s3.env" ] && [ -f "$DIR/ports" ]; then
    # shellcheck disable=SC1091
    . "$DIR/ports"
    # shellcheck disable=SC1091
    . "$DIR/s3.env"
    if alive mon.a && alive osd.0 && alive client.rgw.a && rgw_answers; then
        say "reusing the cluster running in $DIR"
    elif ! start_daemons; then
        say "could not start the cluster in $DIR again; making it anew"
        bash "$(dirname "$0")/ceph-down.sh" "$DIR" >&2 || true
        create
    fi
else
    create
fi

# Buckets: idempotent (200 when made, 409 BucketAlreadyOwnedByYou when there).
BUCKET=exhibit-test
LOCK_BUCKET=exhibit-test-lock
for b in "$BUCKET" "$LOCK_BUCKET"; do
    extra=()
    [ "$b" = "$LOCK_BUCKET" ] && extra=(-H "x-amz-bucket-object-lock-enabled: true")
    for _ in 1 2 3 4 5 6 7 8 9 10; do
        code=$(sigv4 PUT "/$b" "${extra[@]}" || true)
        [ "$code" = 200 ] || [ "$code" = 409 ] && break
        sleep 1
    done
    if [ "$code" != 200 ] && [ "$code" != 409 ]; then
        say "creating bucket $b: HTTP $code: $(cat "$DIR/log/last-s3-response.xml")"; exit 1
    fi
done

say "ready in $(( $(date +%s) - t0 )) s: radosgw on 127.0.0.1:$RGW_PORT"
printf 'export AWS_ENDPOINT_URL_S3=%q\n' "http://127.0.0.1:$RGW_PORT"
printf 'export AWS_ACCESS_KEY_ID=%q\n' "$ACCESS_KEY"
printf 'export AWS_SECRET_ACCESS_KEY=%q\n' "$SECRET_KEY"
printf 'export AWS_REGION=%q\n' "$REGION"
printf 'export EXHIBIT_S3_BUCKET=%q\n' "$BUCKET"
printf 'export EXHIBIT_S3_LOCK_BUCKET=%q\n' "$LOCK_BUCKET"
