#!/usr/bin/env python3
"""Update manifests and remote manifest references made by c2pa-rs, and c2pa-rs's verdict on
any files (ours included).

    python3 tests/peers/update_fixtures.py OUTDIR CHAIN_PEM KEY_PEM ANCHORS_PEM JPEG MP4 [FILE...]

CHAIN_PEM/KEY_PEM: an ES256 signer (leaf first); ANCHORS_PEM: the trust anchors used when
signing and reading. JPEG/MP4: unsigned media. Makes with the c2pa-python Builder (thumbnails
off, remote fetching off):
    peer-parent.jpg        a JPEG signed normally (c2pa.created)
    peer-update.jpg        peer-parent.jpg with an update manifest (Builder intent UPDATE: a
                           `c2um` manifest, parentOf ingredient, c2pa.opened, no hard binding)
    peer-update-media-flip.jpg   one byte of peer-update.jpg's image data flipped
    peer-remote.jpg / peer-remote.mp4   signed with no_embed + remote_url: no store in the file,
                           the URL in its XMP (dcterms:provenance)
then reads those and every FILE and prints one JSON document:
    {"files": [{"path", "mime", "state", "failure": [codes of the active manifest and of
      every ingredient delta], "success", "informational", "error"?}],
     "remoteURL": the URL given to the Builder, "c2paRs": version}
"""

import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import peerenv  # noqa: E402

peerenv.require()

import c2pa  # noqa: E402
from ingredient_fixtures import CREATED, context, manifest, verdict  # noqa: E402

REMOTE_URL = "https://manifests.example.invalid/c2pa/exhibit-remote-1.c2pa"


def signer(chain, key):
    return c2pa.Signer.from_info(c2pa.C2paSignerInfo(b"es256", chain, key, None))


def build(ctx, chain, key, definition, mime, src, dst, intent=None, remote=None):
    s = signer(chain, key)
    b = c2pa.Builder(definition, ctx)
    try:
        if intent is not None:
            b.set_intent(intent)
        if remote:
            b.set_no_embed()
            b.set_remote_url(remote)
        with open(src, "rb") as i, open(dst, "w+b") as o:
            b.sign(s, mime, i, o)
    finally:
        s.close()
        b.close()


def main(argv):
    if len(argv) < 7:
        print(__doc__, file=sys.stderr)
        return 2
    out, chain_p, key_p, anchors_p, jpeg, mp4 = argv[1:7]
    os.makedirs(out, exist_ok=True)
    chain, key = open(chain_p, "rb").read(), open(key_p, "rb").read()
    ctx = context(open(anchors_p).read())
    path = lambda n: os.path.join(out, n)  # noqa: E731
    build(ctx, chain, key, manifest("peer-parent", CREATED), "image/jpeg", jpeg, path("peer-parent.jpg"))
    build(ctx, chain, key, {"claim_generator_info": [{"name": "exhibit-update-peer", "version": "1"}],
                            "title": "peer-update"},
          "image/jpeg", path("peer-parent.jpg"), path("peer-update.jpg"), intent=c2pa.C2paBuilderIntent.UPDATE)
    data = bytearray(open(path("peer-update.jpg"), "rb").read())
    data[len(data) - 30] ^= 0x01   # entropy-coded image data, before EOI
    open(path("peer-update-media-flip.jpg"), "wb").write(bytes(data))
    build(ctx, chain, key, manifest("peer-remote", CREATED), "image/jpeg", jpeg, path("peer-remote.jpg"), remote=REMOTE_URL)
    build(ctx, chain, key, manifest("peer-remote-video", CREATED), "video/mp4", mp4, path("peer-remote.mp4"),
          remote=REMOTE_URL)
    files = [path(n) for n in ("peer-parent.jpg", "peer-update.jpg", "peer-update-media-flip.jpg",
                               "peer-remote.jpg", "peer-remote.mp4")] + argv[7:]
    report = []
    for f in files:
        mime = "video/mp4" if f.endswith(".mp4") else "image/jpeg"
        v = verdict(f, mime, ctx)
        v.update({"path": f, "mime": mime})
        report.append(v)
    print(json.dumps({"files": report, "remoteURL": REMOTE_URL, "c2paRs": c2pa.sdk_version()}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
