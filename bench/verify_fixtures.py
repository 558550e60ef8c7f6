#!/usr/bin/env python3
"""Bench inputs for bench/verify.sh, signed by c2pa-rs (c2pa-python) with the test PKI.

    python3 bench/verify_fixtures.py OUTDIR N_STILLS

Writes OUTDIR/pki/… (signer-anchors.pem, tsa-anchors.pem), OUTDIR/stills/still-NNNN.jpg
(N distinct stills of ~225 KB, ES256 chain root → intermediate → leaf, each timestamped by a
local `openssl ts` TSA), and OUTDIR/video.mp4 signed from OUTDIR/video-src.mp4 when that
exists (bench/verify.sh makes it with ffmpeg).
"""

import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests", "peers"))

import peerenv  # noqa: E402

peerenv.require()

import c2pa  # noqa: E402
import pki as pkimod  # noqa: E402
import tsa as tsamod  # noqa: E402
import verdict  # noqa: E402

MANIFEST = """{"claim_generator_info": [{"name": "exhibit-bench", "version": "1.0"}], "title": "bench",
 "assertions": [{"label": "c2pa.actions", "data": {"actions": [{"action": "c2pa.created",
 "digitalSourceType": "http://cv.iptc.org/newscodes/digitalsourcetype/digitalCapture"}]}}]}"""


def sign(src, dst, mime, issued, ta_url):
    info = c2pa.C2paSignerInfo(b"es256", issued.chain_pem(), issued.key_pem(), ta_url)
    signer = c2pa.Signer.from_info(info)
    builder = c2pa.Builder(MANIFEST, verdict.make_context([]))  # no thumbnail: the file stays ~225 KB
    try:
        with open(src, "rb") as fi, open(dst, "w+b") as fo:
            builder.sign(signer, mime, fi, fo)
    finally:
        signer.close()
        builder.close()


def main():
    out, n = sys.argv[1], int(sys.argv[2])
    os.makedirs(os.path.join(out, "stills"), exist_ok=True)
    issued = pkimod.build(os.path.join(out, "pki"))
    # ~225 KB signed still: 960x720 test pattern with noise, quality chosen for the size.
    base = os.path.join(out, "base.jpg")
    subprocess.run(["ffmpeg", "-loglevel", "error", "-y", "-f", "lavfi", "-i",
                    "testsrc2=size=960x720:rate=1,noise=alls=12:allf=t", "-frames:v", "1", "-q:v", "3", base],
                   check=True)
    with tsamod.LocalTSA(issued["tsa"].cert_path, issued["tsa"].key_path, out) as tsa:
        for i in range(n):
            sign(base, os.path.join(out, "stills", "still-%04d.jpg" % i), "image/jpeg", issued["es256"], tsa.url)
        src = os.path.join(out, "video-src.mp4")
        if os.path.exists(src):
            sign(src, os.path.join(out, "video.mp4"), "video/mp4", issued["es256"], tsa.url)
    print(os.path.getsize(os.path.join(out, "stills", "still-0000.jpg")))


main()
